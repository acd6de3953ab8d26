"""A projection runner that reads each batch of events once and hands it to every read model's projection.

``eventsourcing``'s ``ProjectionRunner`` hands events to one projection one at a time, and a
projection that writes per event pays one transaction per event. This runner keeps the library's
subscription and its thread's error handling, but drains whatever the subscription has ready (up
to ``BATCH``: in one call where the store's subscription offers ``take_batch``, else through a
feeder thread), decodes it once, and hands it to each projection's ``process_batch``
(``projections.tracked``). Each leaves its changes and its own tracking record of the batch's
last event staged, and all are written in one transaction (``ReadModels``): still exactly once
per read model, one commit a batch.

Its subscription starts after the lowest position of its projections, so a read model set back
to the start (to rebuild it alone) catches up while the others skip the events they hold.
When no event has come for ``IDLE`` seconds it calls each projection's ``flush()``, so a
projection may hold cheap-to-rebuild rows in memory while events keep coming. Before its first
batch it has each projection retry the games it set aside (``projections.set_aside``): a
restarted or upgraded runner may now apply them.

The projections are built by the runner's ``build`` with what they need (the read models, the
event store it opened): nothing is set on them afterwards.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
import uuid
import weakref
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import Any

from eventsourcing.persistence import InfrastructureFactory, Tracking, WaitInterruptedError
from eventsourcing.projection import ApplicationSubscription
from eventsourcing.utils import Environment

from infra.batched_pull import BatchedPull
from projections.tracked import EventsOf, Held, Items, Staged, TrackedProjection
from projections.views import VIEWS, GameViewsSQL
from services.common.event_store import EventStore

log = logging.getLogger(__name__)

BATCH = 500
IDLE = 0.5
_END = object()

Build = Callable[[GameViewsSQL, EventStore], Sequence[TrackedProjection]]
"""Builds the projections over the read models, given the event store the runner follows."""


class ReadModels:
    """The projections of one runner, handed each batch in turn."""

    def __init__(self, projections: Sequence[TrackedProjection]) -> None:
        self.projections = tuple(projections)

    def start(self) -> int | None:
        """Where the runner's subscription starts: after the lowest position (None: the first event)."""
        positions = [p.position() for p in self.projections]
        return None if any(p is None for p in positions) else min(p for p in positions if p is not None)

    def retry_set_aside(self, events_of: EventsOf) -> None:
        for projection in self.projections:
            projection.retry_set_aside(events_of)

    def process_batch(self, items: Items) -> None:
        """Hands ``items`` to every projection, and writes what they change, each read model with
        its own tracking record, in one transaction: a commit per batch rather than one per read
        model. Should that transaction fail, each projection is set back to before the batch and
        handed it again, writing on its own as it would alone: the way it finds a game to set aside,
        or raises what the database raised. An error a projection raises itself (a game it cannot
        apply is set aside within it) stops the runner, with no read model past the batch."""
        staged: Staged = []
        held = [projection.held() for projection in self.projections]
        try:
            for projection in self.projections:
                projection.staged = staged
                projection.process_batch(items)
        except BaseException:  # what stops the runner (``set_aside.transient``): none of the batch is kept
            self._undo(items, held)
            raise
        try:
            if staged:
                self.projections[0].view.apply_all(staged)
        except Exception:
            log.warning("a batch's one transaction failed: each read model writes it on its own", exc_info=True)
            self._undo(items, held)
            for projection in self.projections:
                projection.process_batch(items)
            return
        finally:
            self._unstage()
        for projection in self.projections:
            projection.written()

    def _undo(self, items: Items, held: list[Held]) -> None:
        self._unstage()
        for projection, before in zip(self.projections, held, strict=True):
            projection.undo(before, items)

    def _unstage(self) -> None:
        for projection in self.projections:
            projection.staged = None

    def flush(self) -> None:
        for projection in self.projections:
            projection.flush()


class BatchingProjectionRunner:
    """Feeds the read models' projections from the event store, a batch at a time."""

    def __init__(self, *, build: Build, view_class: type[GameViewsSQL], env: dict[str, str]) -> None:
        factory = InfrastructureFactory[GameViewsSQL].construct(Environment(VIEWS, {**os.environ, **env}))
        self.view = factory.tracking_recorder(view_class)
        self.app = EventStore(env)
        self.app_name = self.app.name
        try:
            self.read_models = ReadModels(build(self.view, self.app))
            self._subscription = ApplicationSubscription(app=self.app, gt=self.read_models.start())
        except BaseException:
            self.app.close()
            raise
        self._is_interrupted = threading.Event()
        self._has_called_stop = False
        self._thread_error: BaseException | None = None
        self._stop_thread = threading.Thread(
            target=_stop_when_stopping, args=(self._subscription, self._is_interrupted), name="projection-stop"
        )
        self._stop_thread.start()
        self._processing_thread = threading.Thread(
            target=self._process_events_loop,
            args=(self._subscription, self.read_models, self._is_interrupted, weakref.ref(self)),
            name="projection-runner",
        )
        self._processing_thread.start()

    @property
    def projections(self) -> tuple[TrackedProjection, ...]:
        return self.read_models.projections

    @property
    def is_interrupted(self) -> threading.Event:
        """Set once the runner has stopped, on an error or when asked to."""
        return self._is_interrupted

    def flush(self) -> None:
        """Has every projection write out what it holds in memory (the boards)."""
        self.read_models.flush()

    def stop(self) -> None:
        self._has_called_stop = True
        self._is_interrupted.set()

    def wait(self, notification_id: int | None, timeout: float = 1.0) -> None:
        """Blocks until every read model has processed the event ``notification_id``; raises
        ``TimeoutError`` after ``timeout`` seconds, or the error that stopped the runner."""
        deadline = time.monotonic() + timeout
        for projection in self.projections:
            self._wait_for(projection.tracking_name, notification_id, max(0.0, deadline - time.monotonic()))

    def _wait_for(self, name: str, notification_id: int | None, timeout: float) -> None:
        try:
            self.view.wait(name, notification_id, timeout=timeout, interrupt=self._is_interrupted)
        except WaitInterruptedError:
            if self._thread_error is not None:
                error, self._thread_error = self._thread_error, None
                raise error from None
            if self._has_called_stop:
                return
            raise

    def run_forever(self, timeout: float | None = None) -> None:
        """Blocks until ``timeout``, or until the runner is stopped or fails (raising its error)."""
        if self._is_interrupted.wait(timeout=timeout) and self._thread_error is not None:
            error, self._thread_error = self._thread_error, None
            raise error from None

    def __enter__(self) -> BatchingProjectionRunner:
        self._subscription.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Stops the runner and joins its threads; raises the error that stopped it, if any."""
        self.stop()
        self._stop_thread.join()
        self._subscription.__exit__(exc_type, exc, tb)
        self._processing_thread.join()
        self.app.close()
        if self._thread_error is not None:
            error, self._thread_error = self._thread_error, None
            raise error

    def __del__(self) -> None:
        if hasattr(self, "_is_interrupted"):
            self.stop()

    @staticmethod
    def _process_events_loop(
        subscription: ApplicationSubscription[Any],
        projection: ReadModels,
        is_stopping: threading.Event,
        runner: weakref.ReferenceType[BatchingProjectionRunner],
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


def _stop_when_stopping(subscription: ApplicationSubscription[Any], is_stopping: threading.Event) -> None:
    """Stops the subscription once the runner stops, which ends the processing thread's loop."""
    try:
        is_stopping.wait()
    finally:
        is_stopping.set()
        subscription.stop()


def _events_of(subscription: ApplicationSubscription[Any]) -> Callable[[str], list[Any]]:
    """Every event of one game, read from the subscription's store (to retry a game set aside)."""
    recorder, mapper = subscription.recorder, subscription.mapper

    def events(gid: str) -> list[Any]:
        return [mapper.to_domain_event(s) for s in recorder.select_events(uuid.UUID(gid))]

    return events


def _take_batches(subscription: ApplicationSubscription[Any], pulled: BatchedPull, projection: ReadModels) -> None:
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
