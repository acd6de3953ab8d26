"""Keeps one Celery worker process running: ``dragonhall worker`` supervises it.

A Celery worker can stop on an error of its own. Seen here: when Redis restarts,
kombu sometimes fails while restoring unacknowledged messages ("Unrecoverable
error: AttributeError ... 'hostname'", a known class of kombu bug) and the
worker exits. Under systemd the unit restarts it; started by hand, it stayed down
and bot games stalled until someone noticed. So the command runs the worker as a
child process and starts a new one when it stops on its own with a failure,
after a pause that grows while failures come quickly.

On SIGTERM or SIGINT the supervisor sends the child SIGTERM (Celery's warm
shutdown: running tasks finish; a Ctrl-C in a terminal also reaches the child
itself, as it always did) and then exits with the child's exit code, so an
operator or a service manager still sees how the worker ended. A child that exits with
code 0 of its own accord (a remote ``shutdown`` control command) is not restarted.
"""

from __future__ import annotations

import logging
import signal
import subprocess
import time
from collections.abc import Callable, Sequence
from threading import Event, RLock
from typing import Protocol

log = logging.getLogger("dragonhall.supervisor")

FIRST_PAUSE = 1.0
LONGEST_PAUSE = 30.0
STEADY = 60.0
"""A child that ran this many seconds failed on its own, not at start-up: the pause starts over."""


class Child(Protocol):
    """A child process as ``subprocess.Popen`` runs one."""

    def poll(self) -> int | None: ...

    def send_signal(self, sig: int) -> None: ...

    def wait(self) -> int: ...


class Supervisor:
    """Runs ``command`` as a child and restarts it while it fails; ``run()`` returns its last exit code."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        spawn: Callable[[Sequence[str]], Child] = subprocess.Popen,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.command = list(command)
        self._spawn = spawn
        self._clock = clock
        self._stopping = Event()
        self._child: Child | None = None
        self._lock = RLock()  # the signal handler may run while the main thread holds it
        self.restarts = 0

    def run(self) -> int:
        pause = FIRST_PAUSE
        while True:
            started = self._clock()
            code = self._run_child()
            if code is None:
                return 0  # asked to stop before the child started
            if self._stopping.is_set() or code == 0:
                return int(code)
            pause = FIRST_PAUSE if self._clock() - started >= STEADY else pause
            log.error("the worker stopped with exit code %s; starting a new one in %.0f s", code, pause)
            if self._stopping.wait(pause):
                return int(code)
            pause = min(pause * 2, LONGEST_PAUSE)
            self.restarts += 1

    def stop(self) -> None:
        """Asks the child for a warm shutdown and ends supervision once it exits."""
        self._stopping.set()
        with self._lock:
            if self._child is not None and self._child.poll() is None:
                self._child.send_signal(signal.SIGTERM)

    def install_signal_handlers(self) -> None:
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda _signum, _frame: self.stop())

    def _run_child(self) -> int | None:
        with self._lock:
            if self._stopping.is_set():
                return None
            child = self._child = self._spawn(self.command)
        return int(child.wait())


__all__ = ["Supervisor"]
