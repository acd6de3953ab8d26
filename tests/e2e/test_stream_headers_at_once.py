"""A stream's status and headers go out at once, even with nothing to say yet (issue 33): an account
with no game awaiting it and no invitation gets a keep-alive line with them, not 5 s later with the
hub's first keep-alive, which a client's default read timeout may not wait for."""

from __future__ import annotations

import asyncio

import pytest

from api.gateway import Gateway
from services.streams import lines as stream_lines
from tests.e2e.test_gateway_streams import world  # noqa: F401  (the fixture)
from tests.support.api_client import ApiClient
from tests.support.rsgi import WAIT, Exchange


def test_an_account_stream_with_nothing_pending_sends_its_headers_and_a_keep_alive_at_once(
    world: tuple[Gateway, ApiClient],  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gateway, api = world
    monkeypatch.setattr(stream_lines, "KEEPALIVE", 3600.0)  # the hub's keep-alive would come far too late
    token = api.player("quiet")["token"]

    async def scenario() -> None:
        stream = Exchange(gateway, "GET", "/api/v1/stream/events", token)
        assert await stream.start() == 200
        first = await asyncio.wait_for(stream.sent.get(), WAIT)
        assert first["more_body"] and first["body"] == b"\n"
        stream.gone.set()
        await asyncio.wait_for(stream.task, WAIT)

    asyncio.run(scenario())
