"""One projection runner among several server processes: whoever holds the lock file runs it.

With several HTTP processes on one machine (``dragonhall serve --workers N``),
each process would otherwise start its own runner, and two runners would race to
write the same read models. Each process tries to take an exclusive ``flock`` on
``DATA_DIR/projections.lock``; the one that holds it runs the runner, the others
keep trying, so that when the leader dies (and the kernel releases its lock)
another process takes over within ``RETRY`` seconds.
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
        self._thread = threading.Thread(target=self._run, name="projection-leader", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.is_set():
            if self._try_lock():
                try:
                    self.runner = self._start()
                    log.info("this process runs the projections")
                except Exception:
                    log.exception("the projection runner failed to start")
                    self._unlock()
                else:
                    return
            self._stop.wait(RETRY)

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
        if self.runner is not None:
            self.runner.__exit__(None, None, None)
            self.runner = None
        self._unlock()
