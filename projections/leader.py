"""One projection runner per data directory: whoever holds the lock file runs it.

With several HTTP processes on one machine (``dragonhall serve --workers N``),
each process would otherwise start its own runner, and two runners would race to
write the same read models. Each process tries to take an exclusive ``flock`` on
``DATA_DIR/projections.lock``; the one that holds it runs the runner, the others
keep trying, so that when the leader dies (and the kernel releases its lock)
another process takes over within ``RETRY`` seconds. A lone process (one HTTP
process, or ``dragonhall projections``) leads too, for the watch below. The lock
is a file, so it coordinates the processes of one machine (one data directory).

The leader also watches its runner. A runner whose thread fails (a lost database
connection, a conflicting write) stops, but its process lives on holding the
lock, and the read models would stall until someone restarted it. The leader
logs the error and starts a new runner, which resumes after the last event it
recorded: the failed batch's transaction wrote nothing.
"""

from __future__ import annotations

import fcntl
import logging
import os
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

log = logging.getLogger("dragonhall.projections")
RETRY = 2.0


class ProjectionLeader:
    def __init__(self, lock_path: Path, start: Callable[[], Any]) -> None:
        self.lock_path = lock_path
        self._start = start
        self.runner: Any = None
        self._fd: Any = None
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
                if self.runner is None and self._try_lock():
                    self._start_runner()
                elif self.runner is not None and self.runner.is_interrupted.is_set():
                    self._restart_failed_runner()
            self._tried.set()
            self._stop.wait(RETRY)

    def _start_runner(self) -> None:
        try:
            self.runner = self._start()
            log.info("this process runs the projections")
        except Exception:
            log.exception("the projection runner failed to start")
            self._unlock()

    def _restart_failed_runner(self) -> None:
        runner, self.runner = self.runner, None
        try:
            runner.__exit__(None, None, None)  # joins its threads and raises what stopped it
        except Exception:
            log.exception("the projection runner stopped on an error; starting a new one")
        self._start_runner()

    def _try_lock(self) -> bool:
        self.lock_path.parent.mkdir(parents=True, exist_ok=True)
        fd = open(self.lock_path, "a+")  # noqa: SIM115 - held for the life of the process
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fd.close()
            return False
        fd.seek(0)
        fd.truncate()
        fd.write(f"{os.getpid()}\n")  # who runs the projections, for operators (and tests)
        fd.flush()
        self._fd = fd
        return True

    def _unlock(self) -> None:
        if self._fd is not None:
            fcntl.flock(self._fd, fcntl.LOCK_UN)
            self._fd.close()
            self._fd = None

    def stop(self) -> None:
        self._stop.set()
        with self._guard:
            if self.runner is not None:
                self.runner.__exit__(None, None, None)
                self.runner = None
            self._unlock()
