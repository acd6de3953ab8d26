"""The projection process is sent a game's wake-up only while its subscription waits for one
(``infra.sqlite_events.ARMING``), and still pulls every save: one made while it gathers, which no
wake-up announces, is read by the pull that ends the gather.

Two applications share one SQLite file, as an HTTP process and the projection process do, and their
wake-ups travel as ``serve``'s do (``wiring.wakeups``: Unix datagrams, a game's key waking the
subscription). The subscription's own poll is pushed far out, so a save it reads was announced or
gathered, not found by polling."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from infra import sqlite_events, wake_interest
from infra.sqlite_events import FACTORY_TOPIC, PollingSubscription
from infra.wake_arming import Arming
from infra.wake_transports import UnixBroadcast

GATHER = 4.0
"""Long against the test's own saves, so that they all fall within one gather."""
WAIT = 20.0


class Note(Aggregate):
    @event("Written")
    def write(self, text: str) -> None:
        pass


@pytest.fixture
def pair(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, Any]]:
    monkeypatch.setattr(PollingSubscription, "WAKE_TIMEOUT", 3600.0)
    monkeypatch.setattr(PollingSubscription, "GATHER", GATHER)
    monkeypatch.setattr(sqlite_events, "ARMING", Arming())  # this test's subscriptions alone
    env = {"PERSISTENCE_MODULE": FACTORY_TOPIC, "SQLITE_DBNAME": str(tmp_path / "e.db")}
    writer, projector = Application(env=env), Application(env=env)
    yield writer, projector
    writer.close()
    projector.close()


def _both(key: str) -> None:
    if key.startswith("game:"):
        sqlite_events.wake()


def test_saves_made_while_the_projections_gather_are_pulled_without_a_wake_up(
    tmp_path: Path, pair: tuple[Any, Any]
) -> None:
    writer, projector = pair
    directory = tmp_path / "wake"
    armed: list[bool] = []
    gathering = threading.Event()

    def watch(now: bool) -> None:
        armed.append(now)
        if not now:
            gathering.set()

    projections = UnixBroadcast(directory, _both, wants_all=sqlite_events.ARMING)
    sender = UnixBroadcast(directory, lambda key: None)
    sent: list[str] = []
    send_to = sender._send_to
    sender._send_to = lambda peer, key: (sent.append(key or ""), send_to(peer, key))[1]  # type: ignore[method-assign]
    with projector.recorder.subscribe(gt=None) as subscription:  # its pull thread ends before the store closes
        sqlite_events.ARMING.watch(watch)
        try:
            taken: list[Any] = []
            assert subscription.take_batch(100, timeout=0.5) == []  # the first pull: nothing stored yet
            table = wake_interest.read_table(str(projections.path))
            assert table is not None and table[0] == 1, "waiting, it wants every game's wake-up"

            def save(note: Note) -> None:
                writer.save(note)
                sender.send(f"game:{note.id}")

            openers = [Note(), Note()]
            for note in openers:  # announced: the first wakes it (pulled at once after a quiet spell), the
                save(note)  # second within GATHER of a pull: it gathers for GATHER seconds
            assert gathering.wait(WAIT), "the wake-ups came, and the subscription gathers"
            assert table[0] == 0, "gathering, it wants none"
            announced = len(sent)
            later = [Note() for _ in range(5)]
            for note in later:
                note.write("during the gather")
                save(note)
            assert len(sent) == announced, "no save made while it gathers is announced to it"
            deadline = time.monotonic() + WAIT
            while len(taken) < 2 + 2 * len(later) and time.monotonic() < deadline:
                taken += subscription.take_batch(100, timeout=0.5) or []
            assert {n.originator_id for n in taken} == {*(n.id for n in openers), *(n.id for n in later)}
            assert len(taken) == 2 + 2 * len(later), "every save was pulled, by the pull that ended the gather"
            assert table[0] == 1 and armed[-1] is True, "and it waits, armed, again"
        finally:
            sqlite_events.ARMING.unwatch(watch)
    sender.close()
    projections.close()


def test_a_stopped_subscription_no_longer_asks_for_every_game(pair: tuple[Any, Any]) -> None:
    _, projector = pair
    told: list[bool] = []
    with projector.recorder.subscribe(gt=None) as subscription:  # its pull thread ends before the store closes
        sqlite_events.ARMING.watch(told.append)
        try:
            assert told[-1] is True
            subscription.stop()
            assert told[-1] is False
            sqlite_events.ARMING.arm(subscription, True)  # a gather that ends after the stop
            assert told[-1] is False, "a retired subscription is never armed again"
        finally:
            sqlite_events.ARMING.unwatch(told.append)


def test_watchers_are_told_only_when_any_subscription_changes_it() -> None:
    arming = Arming()
    told: list[bool] = []
    arming.watch(told.append)
    one, two = uuid.uuid4(), uuid.uuid4()
    arming.arm(one, True)
    arming.arm(two, True)
    arming.arm(one, False)  # two still waits
    arming.arm(two, False)
    arming.unwatch(told.append)
    arming.arm(one, True)
    assert told == [False, True, False]
