"""Stand-ins for projection runners, for tests of what watches them."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class FakeRunner:
    """Stands for an eventsourcing ``ProjectionRunner``: it is interrupted when it fails or stops,
    and ``__exit__`` raises the error that stopped it."""

    def __init__(self) -> None:
        self.is_interrupted = threading.Event()
        self.error: BaseException | None = None
        self.exited = False

    def fail(self, error: BaseException) -> None:
        self.error = error
        self.is_interrupted.set()

    def __exit__(self, *_: Any) -> None:
        self.exited = True
        self.is_interrupted.set()
        if self.error is not None:
            raise self.error


def eventually(check: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        if check():
            return True
        time.sleep(0.01)
    return check()
