"""What docs/api.md tells clients holds: its webhook check verifies what the server signs, and its error
table gives every error code the API writes under the status it is answered with."""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from flask import Flask
from werkzeug.datastructures import Headers
from werkzeug.exceptions import RequestEntityTooLarge

from api import errors
from domain.kernel import RuleError
from domain.kernel.rules import MOVE_SHAPE
from services.accounts import webhook_keys
from services.common.errors import STORE_UNAVAILABLE, InvalidRequest, ServiceError

GUIDE = Path(__file__).resolve().parents[3] / "docs" / "api.md"
SECRET = "5e" * 32


def code_blocks(markdown: str, language: str) -> list[str]:
    return re.findall(rf"^```{language}\n(.*?)^```", markdown, re.MULTILINE | re.DOTALL)


def guide_verify() -> Callable[..., bool]:
    """The ``verify`` function of the guide's receiver snippet, as a reader would paste it."""
    (snippet,) = [b for b in code_blocks(GUIDE.read_text(), "python") if "def verify(" in b]
    namespace: dict[str, Any] = {}
    exec(snippet, namespace)
    return namespace["verify"]  # type: ignore[no-any-return]


def signed(body: bytes, timestamp: int) -> Headers:
    """Headers as the server's webhook delivery writes them (``workers.webhooks``), in lower case."""
    return Headers(
        {
            "x-dragonhall-timestamp": str(timestamp),
            "x-dragonhall-signature": webhook_keys.signature(SECRET, timestamp, body),
        }
    )


def test_the_guides_webhook_check_accepts_a_reminder_the_server_signed() -> None:
    body = b'{"type": "reminder", "seat": 0}'
    assert guide_verify()(SECRET, signed(body, int(time.time())), body)


def test_the_guides_webhook_check_refuses_a_changed_body_a_stale_timestamp_and_no_signature() -> None:
    verify, body, now = guide_verify(), b'{"type": "reminder", "seat": 0}', int(time.time())
    assert not verify(SECRET, signed(body, now), body.replace(b"0", b"1"))
    assert not verify(SECRET, signed(body, now - 301), body)
    assert not verify(SECRET, Headers({"X-Dragonhall-Timestamp": str(now)}), body)


def error_rows() -> dict[int, str]:
    """Each status of the guide's error table, with the text of its row."""
    rows = re.findall(r"^\| (\d{3}) \|(.*)$", GUIDE.read_text(), re.MULTILINE)
    return {int(status): text for status, text in rows}


def subclasses(cls: type) -> Iterator[type]:
    for sub in cls.__subclasses__():
        yield sub
        yield from subclasses(sub)


def every_error() -> Iterator[BaseException]:
    """An instance of every error type the API's error table maps."""
    yield from (errors.MalformedJSON("x"), errors.RequestInvalid({}), RequestEntityTooLarge())
    yield from (cls("x") for cls in STORE_UNAVAILABLE)
    yield from (cls("x", MOVE_SHAPE) for cls in (RuleError, *subclasses(RuleError)))
    for cls in (ServiceError, *subclasses(ServiceError)):
        yield InvalidRequest("x", field="f") if cls is InvalidRequest else cls("x")


def answered() -> Iterator[tuple[int, str]]:
    app = Flask(__name__)
    app.config["MAX_CONTENT_LENGTH"] = 1 << 20
    with app.app_context():
        for exc in every_error():
            try:
                body, status = errors.to_response(exc)
            except type(exc):
                continue  # not in the table: not an answer the API gives
            yield status, body["error"]["code"]


def test_every_error_code_the_api_writes_is_in_the_guide_under_its_status() -> None:
    rows = error_rows()
    missing = sorted({(status, code) for status, code in answered() if f"`{code}`" not in rows.get(status, "")})
    assert not missing, f"docs/api.md's error table lacks these (status, code): {missing}"


def test_the_error_types_are_found_wherever_they_are_defined() -> None:
    """Rule errors of the kernel, service errors of other modules (disputes) and the API's own."""
    expected = {(400, "malformed_move"), (422, "not_your_turn"), (404, "dispute_not_found"), (413, "body_too_large")}
    assert expected <= set(answered())
