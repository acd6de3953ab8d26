"""Responses reach the WSGI server as one bytes object in a list (``infra.http_responses.WholeBodyResponse``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from flask import Response
from werkzeug.test import EnvironBuilder

from api.app import create_app


def _call(app: Any, method: str, path: str, body: Any = None) -> tuple[str, Any]:
    environ = EnvironBuilder(method=method, path=path, json=body).get_environ()
    status: list[str] = []
    app_iter = app.wsgi_app(environ, lambda s, headers, exc_info=None: status.append(s))
    return status[0], app_iter


def test_a_json_body_is_handed_over_whole(platform: Any) -> None:
    app = create_app(platform)
    status, app_iter = _call(app, "POST", "/api/v1/players", {"name": "ann"})
    assert status.startswith("201")
    assert isinstance(app_iter, list) and len(app_iter) == 1 and isinstance(app_iter[0], bytes)
    assert json.loads(app_iter[0])["name"] == "ann"


def test_an_error_body_and_a_head_request_are_whole_too(platform: Any) -> None:
    app = create_app(platform)
    status, app_iter = _call(app, "POST", "/api/v1/players", {"name": "ann", "colour": "red"})
    assert status.startswith("400") and json.loads(app_iter[0])["error"]["code"]
    status, app_iter = _call(app, "HEAD", "/healthz")
    assert status.startswith("200") and app_iter == [b""]


def test_close_callbacks_still_run(platform: Any) -> None:
    app = create_app(platform)
    closed: list[bool] = []

    @app.after_request
    def note(response: Response) -> Response:
        response.call_on_close(lambda: closed.append(True))
        return response

    _call(app, "GET", "/healthz")
    assert closed == [True]


def test_a_streamed_body_stays_a_stream(platform: Any) -> None:
    app = create_app(platform)

    def chunks() -> Iterator[bytes]:
        yield b"a"
        yield b"b"

    app.add_url_rule("/stream", "stream", lambda: Response(chunks()))
    _, app_iter = _call(app, "GET", "/stream")
    assert not isinstance(app_iter, list)
    assert b"".join(app_iter) == b"ab"
