"""Headers every answer carries unless it sets its own (``infra.http_responses.DefaultHeaders``)."""

from __future__ import annotations

from typing import Any

from infra.http_responses import DefaultHeaders


def _served(given: list[tuple[str, str]]) -> list[tuple[str, str]]:
    def app(environ: dict[str, Any], start_response: Any) -> list[bytes]:
        start_response("200 OK", list(given))
        return [b"{}"]

    sent: list[tuple[str, str]] = []
    wrapped = DefaultHeaders(app, [("X-Frame-Options", "DENY"), ("Vary", "Accept-Encoding")])
    body = wrapped({}, lambda status, headers, exc_info=None: sent.extend(headers))
    assert body == [b"{}"]
    return sent


def test_an_answer_gets_every_default_header() -> None:
    assert _served([("Content-Type", "application/json")]) == [
        ("Content-Type", "application/json"),
        ("X-Frame-Options", "DENY"),
        ("Vary", "Accept-Encoding"),
    ]


def test_a_header_the_answer_set_itself_is_kept_and_not_doubled() -> None:
    sent = _served([("vary", "Cookie"), ("Content-Type", "text/html")])
    assert sent == [("vary", "Cookie"), ("Content-Type", "text/html"), ("X-Frame-Options", "DENY")]
