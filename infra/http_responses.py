"""Writing responses faster than Flask does by default, with the same bytes.

Both were measured with ``bench/request_cost.py`` (see ``docs/operations.md``).
"""

from __future__ import annotations

from typing import Any, cast
from wsgiref.types import WSGIApplication

import orjson
from flask import Response
from flask.json.provider import DefaultJSONProvider
from werkzeug.sansio.response import Response as BaseResponse


class WholeBodyResponse(Response):
    """A response that hands the WSGI server its body as one bytes object in a list.

    Werkzeug returns every body as an iterator, even one held whole in memory.
    Granian sends an iterator through a channel, a chunk at a time, releasing and
    retaking the GIL for each; a list it writes in one call. The response is closed
    here (running its ``call_on_close`` hooks), since nobody closes a list."""

    def get_app_iter(self, environ: Any) -> Any:
        app_iter = super().get_app_iter(environ)
        if not self.is_sequence:
            return app_iter
        try:
            return [b"".join(app_iter)]
        finally:
            if hasattr(app_iter, "close"):
                app_iter.close()


class FastJSON(DefaultJSONProvider):
    """Flask's JSON, with response bodies written by ``orjson`` (several times faster).
    Values that are not plain JSON (datetimes, dataclasses, subclasses of str or int)
    still go through Flask's own ``default``, so every body reads as before."""

    _OPTIONS = (
        orjson.OPT_NON_STR_KEYS
        | orjson.OPT_PASSTHROUGH_DATETIME
        | orjson.OPT_PASSTHROUGH_DATACLASS
        | orjson.OPT_PASSTHROUGH_SUBCLASS
    )

    def response(self, *args: Any, **kwargs: Any) -> BaseResponse:
        obj = self._prepare_response_obj(args, kwargs)
        try:
            body = orjson.dumps(obj, default=self.default, option=self._OPTIONS)
        except TypeError:  # an int beyond 64 bits, say: the standard encoder takes any
            return super().response(obj)
        response_class: Any = self._app.response_class
        return cast(BaseResponse, response_class(body, mimetype=self.mimetype))


class DefaultHeaders:
    """WSGI middleware: adds each of ``headers`` to every answer that did not set that header itself.

    The same headers set with ``Headers.setdefault`` in an ``after_request`` hook cost every move
    four lookups in Werkzeug's header list, each miss raising and catching a ``KeyError`` subclass
    (an HTTP exception, built in full); here they are appended to the list the server is handed,
    after one pass over its names."""

    def __init__(self, app: WSGIApplication, headers: list[tuple[str, str]]) -> None:
        self.app = app
        self.headers = headers
        self._names = [name.lower() for name, _ in headers]

    def __call__(self, environ: dict[str, Any], start_response: Any) -> Any:
        def start(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            given = {name.lower() for name, _ in headers}
            if given.isdisjoint(self._names):
                headers.extend(self.headers)
            else:
                headers.extend(h for h, name in zip(self.headers, self._names, strict=True) if name not in given)
            return start_response(status, headers, exc_info)

        return self.app(environ, start)
