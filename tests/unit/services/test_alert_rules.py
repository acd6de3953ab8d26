"""One test per alert rule of deploy/prometheus/alerts.yml: the rule's condition is made on a platform,
and the metric the rule reads, scraped as Prometheus would, takes the value that fires it (and, where
the condition can be undone, the value that does not)."""

from __future__ import annotations

import dataclasses
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from eventsourcing.persistence import Tracking
from prometheus_client.parser import text_string_to_metric_families

from infra import metrics
from projections.deadline_projection import DeadlineProjection
from services.common.clock import FakeClock
from services.common.ports import NullWork
from services.operations.health import publish
from services.operations.heartbeats import process_name
from tests.conftest import make_settings
from tests.support.names import fresh

ROOT = Path(__file__).resolve().parents[3]
RULES = {
    rule["alert"]: rule["expr"]
    for group in yaml.safe_load((ROOT / "deploy" / "prometheus" / "alerts.yml").read_text())["groups"]
    for rule in group["rules"]
}


def scrape(platform: Any) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of a scrape, as ``GET /metrics`` answers it, by name and labels."""
    text, _ = metrics.exposition(lambda: publish(platform.health.report()))
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text.decode())
        for s in family.samples
    }


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


@pytest.fixture
def deployment(tmp_path: Path, fake_clock: FakeClock) -> Iterator[Any]:
    """A platform of a deployment with a broker (workers elsewhere) whose read models run elsewhere:
    nothing here works in the background, so each condition is made by hand."""
    from wiring import bootstrap

    settings = make_settings("sqlite", tmp_path, broker_url="redis://127.0.0.1:1/0", embedded_projections=False)
    platform = bootstrap(settings, projections=False, work=NullWork())
    yield platform
    platform.close()


def _game(platform: Any, tc: dict[str, Any] | None = None) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, 2, time_control=tc)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, "p", "human")
    return str(game.id), ids


def test_no_live_worker_fires_while_no_worker_beats(deployment: Any, fake_clock: FakeClock) -> None:
    assert RULES["DragonhallNoLiveWorker"] == "max(dragonhall_workers_live) == 0"
    assert value(scrape(deployment), "dragonhall_workers_live") == 0
    deployment.heartbeats.beat(process_name("worker"), "worker")
    assert value(scrape(deployment), "dragonhall_workers_live") == 1
    fake_clock.advance(16)  # the worker was killed: its heartbeat grows old
    assert value(scrape(deployment), "dragonhall_workers_live") == 0


def test_sweep_not_running_fires_a_minute_after_the_last_sweep(deployment: Any, fake_clock: FakeClock) -> None:
    from workers import jobs

    assert RULES["DragonhallSweepNotRunning"] == "min(dragonhall_sweep_age_seconds) > 60"
    jobs.sweep(deployment, lambda actions: None)
    assert value(scrape(deployment), "dragonhall_sweep_age_seconds") <= 60
    fake_clock.advance(61)  # the beat died
    assert value(scrape(deployment), "dragonhall_sweep_age_seconds") > 60


def test_projection_lag_growing_fires_while_events_pile_up_unprojected(deployment: Any) -> None:
    expr = RULES["DragonhallProjectionLagGrowing"]
    assert "max(dragonhall_projection_lag_events) > 100" in expr and "deriv(" in expr
    lags = []
    for _ in range(2):
        for _ in range(15):
            _game(deployment)
        lags.append(value(scrape(deployment), "dragonhall_projection_lag_events"))
    assert lags[1] > 100 and lags[1] > lags[0] > 0, lags


def test_games_set_aside_fires_when_a_projection_reports_one(deployment: Any) -> None:
    """The deadline projection sets aside a game whose event it cannot apply (a start in year 10000
    in UTC, as a request once stored) and reports it as the health check ``projections.set_aside``;
    the rule fires on any such check that fails, and the gauge counts the games."""
    assert RULES["DragonhallProjectionGamesSetAside"] == (
        'min by (check) (dragonhall_health_check_ok{check=~"projections.+"}) == 0'
    )
    assert value(scrape(deployment), "dragonhall_health_check_ok", check="projections.set_aside") == 1
    gid, _ = _game(deployment)
    created = next(iter(deployment.store.events.get(uuid.UUID(gid))))
    year_10000 = dataclasses.replace(created, starts_at="9999-12-31T23:59:59-14:00")
    DeadlineProjection(deployment.views).process_batch([(year_10000, Tracking(deployment.store.name, 1))])
    samples = scrape(deployment)
    assert value(samples, "dragonhall_health_check_ok", check="projections.set_aside") == 0
    assert value(samples, "dragonhall_games_set_aside") == 1
    assert value(samples, "dragonhall_health_check_ok", check="projections") == 1  # the lag's own check is fine
    (check,) = deployment.health.checks(("projections.set_aside",))
    (shown,) = check.detail["games"]
    assert shown["game_id"] == gid and shown["error"].startswith("OverflowError")


def test_timers_late_fires_when_deadlines_fire_more_than_five_seconds_late(
    deployment: Any, fake_clock: FakeClock
) -> None:
    from workers import jobs

    assert "histogram_quantile(0.99" in RULES["DragonhallTimersLate"] and RULES["DragonhallTimersLate"].endswith("> 5")
    before = scrape(deployment)
    gid, _ = _game(deployment, {"kind": "per_move", "seconds": 60, "timeout_policy": "auto"})
    version = deployment.games.load(gid).version
    fake_clock.advance(70)  # the deadline passed 10 s ago: its worker was down
    assert jobs.deadline(deployment, lambda actions: None, gid, 0, version) == "fired"
    after = scrape(deployment)

    def late(samples: dict[Any, float]) -> float:
        name = "dragonhall_timer_lateness_seconds_bucket"
        return value(samples, name, le="+Inf") - value(samples, name, le="5.0")

    assert late(after) - late(before) == 1  # the new observation lies above 5 s: the p99 of the window passes 5


def test_webhook_failures_fire_when_deliveries_fail(deployment: Any, webhook_server: Any) -> None:
    from workers import jobs

    assert 'dragonhall_webhook_deliveries_total{result="failed"}' in RULES["DragonhallWebhookFailures"]
    before = value(scrape(deployment), "dragonhall_webhook_deliveries_total", result="failed")
    url = webhook_server.url + "?status=500"
    pid = deployment.accounts.register("w", "human")[0].id
    delivery = deployment.inbox.claim_delivery(deployment.inbox.add(pid, "reminder", url, "g", {"x": 1}), url)
    assert jobs.webhook(deployment, lambda actions: None, str(delivery)) == "failed"
    after = value(scrape(deployment), "dragonhall_webhook_deliveries_total", result="failed")
    assert after - before == 1


def test_every_rule_is_tested_here() -> None:
    tested = {"DragonhallTargetDown"}  # Prometheus's own `up`, for any target that does not answer
    source = Path(__file__).read_text()
    tested |= {name for name in RULES if f'RULES["{name}"]' in source}
    assert tested == set(RULES)
