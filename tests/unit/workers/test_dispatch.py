"""Sending tasks: a broker that cannot be reached fails no request whose save is stored."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from tests.conftest import make_settings

UNREACHABLE = "redis://127.0.0.1:1/0"  # nothing listens on port 1


@pytest.fixture
def cut_off() -> Iterator[Any]:
    """The API over a platform whose Celery broker refuses connections."""
    from api.app import create_app
    from tests.support.api_client import ApiClient
    from wiring import bootstrap

    platform = bootstrap(make_settings("memory", broker_url=UNREACHABLE))
    platform.celery.conf.broker_connection_max_retries = 0
    yield ApiClient(create_app(platform).test_client(), platform)
    platform.close()


def test_a_move_that_awaits_a_bot_is_stored_and_acknowledged_without_the_broker(cut_off: Any, caplog: Any) -> None:
    a = cut_off.player("a")
    game = cut_off.new_game(a["token"])
    assert cut_off.seat(game["id"], a["token"]).status == 201
    with caplog.at_level(logging.WARNING, logger="dragonhall.work"):
        assert cut_off.seat(game["id"], a["token"], bot="random").status == 201  # the game starts
        listing = cut_off.legal(game["id"], a["token"])
        r = cut_off.move(game["id"], a["token"], listing["moves"][0], expected_version=listing["version"])
    assert r.status == 201
    assert cut_off.game(game["id"])["version"] == r.body["version"]
    assert "waits for the sweep" in caplog.text and "dragonhall.play_bot" in caplog.text
