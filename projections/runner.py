"""A projection runner that processes events in batches.

``eventsourcing``'s ``ProjectionRunner`` hands events to a projection one at a
time, and a projection that writes per event pays one transaction per event.
This runner keeps the library's subscription, tracking and error handling, but
drains whatever the subscription has ready (up to ``BATCH``: in one call where the
store's subscription offers ``take_batch``, else through a feeder thread) and hands it to
``projection.process_batch``, which writes the batch's changes and the tracking
record of its last event in one transaction: still exactly once, far fewer commits.
When no event has come for ``IDLE`` seconds it calls ``projection.flush()``, so a
projection may hold cheap-to-rebuild rows in memory while events keep coming.
Before its first batch it has the projection retry the games it set aside
(``projections.set_aside``): a restarted or upgraded runner may now apply them.
"""

from __future__ import annotations

import queue
import threading
import uuid
import weakref
from collections.abc import Callable
from typing import Any

from eventsourcing.persistence import Tracking
from eventsourcing.projection import ApplicationSubscription, ProjectionRunner

from infra.batched_pull import BatchedPull
from projections.games import GameProjection
from projections.views import GameViewsSQL
from services.common.event_store import EventStore

BATCH = 500
IDLE = 0.5
_END = object()


class BatchingProjectionRunner(ProjectionRunner[EventStore, GameViewsSQL]):
    """Feeds the game projection from the event store, a batch at a time."""

    projection: GameProjection

    @staticmethod
    def _process_events_loop(
        subscription: ApplicationSubscription[Any],
        projection: Any,  # ``self.projection``: the library's signature takes any projection
        is_stopping: threading.Event,
        runner: weakref.ReferenceType[Any],
    ) -> None:
        try:
            projection.retry_set_aside(_events_of(subscription))
            if isinstance(subscription.subscription, BatchedPull):
                _take_batches(subscription, subscription.subscription, projection)
                return
            ready: queue.Queue[Any] = queue.Queue(maxsize=4 * BATCH)
            feeder = threading.Thread(target=_feed, args=(subscription, ready), name="projection-feed", daemon=True)
            feeder.start()
            while True:
                try:
                    item = ready.get(timeout=IDLE)
                except queue.Empty:
                    projection.flush()
                    continue
                if item is _END:
                    break
                if isinstance(item, BaseException):
                    raise item
                batch, tail = [item], None
                while len(batch) < BATCH:
                    try:
                        nxt = ready.get_nowait()
                    except queue.Empty:
                        break
                    if nxt is _END or isinstance(nxt, BaseException):
                        tail = nxt
                        break
                    batch.append(nxt)
                projection.process_batch(batch)
                if tail is _END:
                    break
                if isinstance(tail, BaseException):
                    raise tail
        except BaseException as e:
            owner = runner()
            if owner is not None:
                owner._thread_error = e
        finally:
            is_stopping.set()


def _events_of(subscription: ApplicationSubscription[Any]) -> Callable[[str], list[Any]]:
    """Every event of one game, read from the subscription's store (to retry a game set aside)."""
    recorder, mapper = subscription.recorder, subscription.mapper

    def events(gid: str) -> list[Any]:
        return [mapper.to_domain_event(s) for s in recorder.select_events(uuid.UUID(gid))]

    return events


def _take_batches(subscription: ApplicationSubscription[Any], pulled: BatchedPull, projection: GameProjection) -> None:
    """The loop for store subscriptions that hand over all they have pulled at once
    (``infra.batched_pull``): one thread, and no hand-off per event."""
    mapper, name = subscription.mapper, subscription.name
    while True:
        notifications = pulled.take_batch(BATCH, IDLE)
        if notifications is None:
            return
        if not notifications:
            projection.flush()
            continue
        projection.process_batch([(mapper.to_domain_event(n), Tracking(name, n.id)) for n in notifications])


def _feed(subscription: ApplicationSubscription[Any], ready: queue.Queue[Any]) -> None:
    try:
        for item in subscription:
            ready.put(item)
    except BaseException as e:
        ready.put(e)
    finally:
        ready.put(_END)
