"""The event store: Dragonhall's ``eventsourcing`` application, kept to infrastructure.

It holds the events of every aggregate (games and disputes), their snapshots, the
notification log the projections follow, and the transcoder that writes and reads
stored events. Use cases do not live here (``services.play.games``), nor do caches and
locks (``services.play.unit_of_work``).

Two things differ from ``eventsourcing``'s own ``Application.save``, both for
speed and both measured (``bench/request_cost.py``): a game is saved without the
library's generic per-object checks, and snapshotted from the saved aggregate
itself when a save crosses a multiple of the interval, rather than by reloading it.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.domain import Aggregate
from eventsourcing.persistence import Recording, Transcoder

from infra.event_json import FastJSONTranscoder
from services.play.aggregate import Game


class EventStore(Application[uuid.UUID]):
    """The events of every game and dispute, under the application name ``dragonhall``."""

    name = "dragonhall"
    snapshotting_intervals = {Game: 50}

    def __init__(self, env: dict[str, str] | None = None) -> None:
        super().__init__(env)
        self.listeners: list[Callable[[], None]] = []
        """Called with a game's id after its events are saved (``services.streams.wakeups``)."""
        """Called after every save: a SQLite store wakes the projections' poll here."""

    def configure(self, *, snapshot_interval: int) -> None:
        """Settings a projection runner cannot pass when it builds this application."""
        self.snapshotting_intervals = {Game: snapshot_interval}  # type: ignore[misc]

    def construct_transcoder(self) -> Transcoder:
        transcoder = FastJSONTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    def aggregate(self, aggregate_id: uuid.UUID, version: int | None = None) -> Aggregate | None:
        """The stored aggregate (at ``version``), or None if there is none."""
        try:
            found: Aggregate = self.repository.get(aggregate_id, version=version)
        except AggregateNotFoundError:
            return None
        return found

    def stored_events(self, aggregate_id: uuid.UUID, after: int = 0, upto: int | None = None) -> Iterable[Any]:
        """The stored events of one aggregate after version ``after`` (up to ``upto``, if given)."""
        return self.events.get(aggregate_id, gt=after, lte=upto)

    def latest_events(self, aggregate_id: uuid.UUID, upto: int, page: int = 32) -> Iterator[Any]:
        """The stored events of one aggregate up to version ``upto``, newest first, read a page
        at a time (a caller that stops early reads no further page)."""
        while upto > 0:
            events = list(self.events.get(aggregate_id, lte=upto, desc=True, limit=page))
            yield from events
            if len(events) < page:
                return
            upto = events[-1].originator_version - 1

    def head_version(self, aggregate_id: uuid.UUID) -> int | None:
        """The version of the aggregate's last stored event, without loading it."""
        stored = self.recorder.select_events(aggregate_id, desc=True, limit=1)
        return int(stored[0].originator_version) if stored else None

    def save_game(self, game: Game) -> list[Any]:
        """Saves a game's pending events; returns them. A conflict on a version raises
        ``eventsourcing.persistence.IntegrityError`` and saves nothing."""
        processing = ProcessingEvent[uuid.UUID]()
        saved = game.collect_events()
        processing.events.extend(saved)
        processing.aggregates[game.id] = game
        recordings = self._record(processing)
        self._snapshot_if_due(game, saved)
        self._notify(recordings)
        return list(saved)

    def _snapshot_if_due(self, game: Game, saved: Sequence[Any]) -> None:
        interval = self.snapshotting_intervals.get(Game)
        if not interval or self.snapshots is None or not saved:
            return
        first, last = saved[0].originator_version, saved[-1].originator_version
        if (first - 1) // interval != last // interval:
            self.snapshots.put([Game.Snapshot.take(game)])

    def _notify(self, recordings: list[Recording[Any]]) -> None:
        for listener in list(self.listeners):
            listener()
