"""One projection runner per store: whoever holds the leader lock runs it.

With several HTTP processes (``dragonhall serve --workers N``), or a standby
``dragonhall projections`` process, each would otherwise start its own runner, and
two runners would race to write the same read models. Each process tries to take
the leader lock (``projections.leader_locks``: a file in the data directory for
SQLite, an advisory lock in the database for PostgreSQL); the one that holds it
runs the runner, the others keep trying, so that when the leader dies (and the
kernel or the database releases its lock) another process takes over within
``RETRY`` seconds. A lone process (one HTTP process, or ``dragonhall projections``)
leads too, for the watch below.

The leader also watches its runner and its lock. A runner whose thread fails (a
lost database connection, a conflicting write) stops, but its process lives on
holding the lock, and the read models would stall until someone restarted it. The
leader logs the error and starts a new runner, which resumes after the last event
it recorded: the failed batch's transaction wrote nothing. A leader whose lock is
gone (its connection to PostgreSQL was lost, so another process may lead now)
stops its runner and tries again like any other process. Until it notices, two
runners may overlap for up to ``RETRY`` seconds; the read models stay exact, since
each batch commits with its tracking record, which the store accepts only past the
position already recorded: a batch that the other runner has overtaken writes nothing.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Generic, Protocol, TypeVar

from projections.leader_locks import LeaderLock

log = logging.getLogger("dragonhall.projections")
RETRY = 2.0


class Runner(Protocol):
    """What the leader asks of a projection runner (eventsourcing's ``ProjectionRunner``)."""

    @property
    def is_interrupted(self) -> threading.Event:
        """Set once the runner has stopped, on an error or when asked to."""
        ...

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        """Stops the runner and joins its threads; raises the error that stopped it, if any."""
        ...


R = TypeVar("R", bound=Runner)


class ProjectionLeader(Generic[R]):
    def __init__(self, lock: LeaderLock, start: Callable[[], R]) -> None:
        self.lock = lock
        self._start = start
        self.runner: R | None = None
        self._stop = threading.Event()
        self._guard = threading.Lock()
        """Held while the runner is started, replaced or stopped, so that ``stop`` never races a restart."""
        self._tried = threading.Event()
        self._thread = threading.Thread(target=self._run, name="projection-leader", daemon=True)
        self._thread.start()

    def wait_first_try(self, timeout: float = 30.0) -> bool:
        """Waits until this process has tried once to take the lead: afterwards ``runner`` is
        set if it leads, and stays None while another process does."""
        return self._tried.wait(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._guard:
                if self._stop.is_set():
                    return
                self._watch()
            self._tried.set()
            self._stop.wait(RETRY)

    def _watch(self) -> None:
        if self.runner is None:
            if self.lock.take():
                self._start_runner()
        elif not self.lock.held():
            log.warning("this process lost the projections' lock; stopping its runner")
            self._stop_runner(self.runner)
        elif self.runner.is_interrupted.is_set():
            self._restart_failed_runner(self.runner)

    def _start_runner(self) -> None:
        try:
            self.runner = self._start()
            log.info("this process runs the projections")
        except Exception:
            log.exception("the projection runner failed to start")
            self.lock.release()

    def _restart_failed_runner(self, runner: R) -> None:
        self.runner = None
        try:
            runner.__exit__(None, None, None)  # joins its threads and raises what stopped it
        except Exception:
            log.exception("the projection runner stopped on an error; starting a new one")
        self._start_runner()

    def _stop_runner(self, runner: R) -> None:
        self.runner = None
        try:
            runner.__exit__(None, None, None)
        except Exception:
            log.exception("the projection runner stopped on an error")
        self.lock.release()

    def stop(self) -> None:
        self._stop.set()
        with self._guard:
            if self.runner is not None:
                self.runner.__exit__(None, None, None)
                self.runner = None
            self.lock.release()
