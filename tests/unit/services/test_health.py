"""The health model: /healthz names what is degraded (no worker seen, no sweep, read models stalled),
each check on its own; /readyz says whether this process can answer."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from services.common.clock import FakeClock
from services.common.ports import NullWork
from services.operations.health import STALL, Check, HealthModel, ProjectionProgress
from services.operations.heartbeats import SWEEP, process_name
from tests.conftest import make_settings


@pytest.fixture
def with_broker(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Any]:
    """The web side of a deployment whose workers and beat run elsewhere (or not at all)."""
    from api.app import create_app
    from wiring import bootstrap

    platform = bootstrap(make_settings("sqlite", tmp_path, broker_url="redis://127.0.0.1:1/0"), work=NullWork())
    yield create_app(platform).test_client(), platform
    platform.close()


def _checks(body: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {c["name"]: c for c in body["checks"]}


def test_healthz_says_degraded_and_names_the_workers_when_none_is_seen(
    with_broker: tuple[Any, Any], fake_clock: FakeClock
) -> None:
    http, platform = with_broker
    body = http.get("/healthz").get_json()
    assert body["status"] == "degraded"
    workers = _checks(body)["workers"]
    assert workers["status"] == "degraded" and workers["live"] == 0 and "no worker seen" in workers["message"]
    platform.heartbeats.beat(process_name("worker"), "worker")
    assert _checks(http.get("/healthz").get_json())["workers"]["status"] == "ok"
    fake_clock.advance(20)
    assert _checks(http.get("/healthz").get_json())["workers"]["status"] == "degraded"


def test_healthz_says_the_sweep_is_degraded_when_it_has_not_run_for_a_while(
    with_broker: tuple[Any, Any], fake_clock: FakeClock
) -> None:
    http, platform = with_broker
    platform.heartbeats.beat(SWEEP, SWEEP)
    assert _checks(http.get("/healthz").get_json())["sweep"]["status"] == "ok"
    fake_clock.advance(31)
    sweep = _checks(http.get("/healthz").get_json())["sweep"]
    assert sweep["status"] == "degraded" and "--beat" in sweep["message"] and sweep["age_seconds"] == 31


def test_readyz_answers_while_the_store_answers(with_broker: tuple[Any, Any]) -> None:
    http, _ = with_broker
    reply = http.get("/readyz")
    assert reply.status_code == 200 and reply.get_json()["status"] == "ready"


def test_the_read_models_are_degraded_once_they_stand_still_with_events_waiting() -> None:
    now = [0.0]
    head, tracked = [10], [4]
    check = ProjectionProgress(lambda: head[0], lambda: tracked[0], lambda: now[0])
    assert check().ok
    now[0] = STALL - 1
    assert check().ok
    now[0] = STALL + 1
    stalled = check()
    assert not stalled.ok and stalled.detail == {"head": 10, "tracked": 4, "lag": 6}
    tracked[0] = 5  # it moves again
    assert check().ok
    tracked[0] = 10  # and catches up
    now[0] = 10 * STALL
    assert check().ok


def test_a_check_added_by_another_part_is_reported_and_one_that_fails_to_run_is_degraded() -> None:
    model = HealthModel()
    set_aside = Check("projections.set_aside", False, "1 game set aside", {"games": ["g"]})
    model.add("projections.set_aside", lambda: set_aside)
    model.add("broken", lambda: 1 / 0)  # type: ignore[arg-type, return-value]
    report = model.report()
    assert report["status"] == "degraded"
    assert report["checks"][0] == {
        "name": "projections.set_aside", "status": "degraded", "message": "1 game set aside", "games": ["g"],
    }  # fmt: skip
    assert report["checks"][1]["status"] == "degraded" and "division by zero" in report["checks"][1]["message"]
