"""What Celery says on a shutdown signal is a whole log line, even when the signal interrupts one.

Celery says "worker: Warm shutdown" from its signal handler (``api.operations.say_as_log``), which
runs on the main thread between two of its bytecodes. Written there, a log line that the signal
interrupted was re-entered: the buffered stream refused the second write ("reentrant call inside
BufferedWriter") and ``logging`` printed its own traceback, which is not a JSON line (seen once in
``tests/integration/test_systemd_units.py``). Here the signal is made to arrive in the middle of a
write, where a real one may.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Iterator

import pytest

from api.operations import say_as_log, start_saying, write_said


class InterruptedRaw(io.RawIOBase):
    """A file whose first write is interrupted by Celery's signal handler, as a signal may."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.interrupted = False

    def writable(self) -> bool:
        return True

    def write(self, b: bytes | bytearray | memoryview) -> int:  # type: ignore[override]
        if not self.interrupted:
            self.interrupted = True
            say_as_log("worker: Warm shutdown (MainProcess)\n")
        self.data += bytes(b)
        return len(b)


@pytest.fixture
def worker_log() -> Iterator[tuple[InterruptedRaw, logging.Logger]]:
    raw = InterruptedRaw()
    stream = io.TextIOWrapper(io.BufferedWriter(raw), encoding="utf-8", line_buffering=True)
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(name)s %(message)s"))
    celery = logging.getLogger("celery.worker")
    before = celery.handlers[:], celery.propagate, celery.level
    celery.handlers, celery.propagate = [handler], False
    celery.setLevel(logging.INFO)
    try:
        yield raw, celery
    finally:
        celery.handlers, celery.propagate = before[0], before[1]
        celery.setLevel(before[2])


def _lines(raw: InterruptedRaw, count: int) -> list[str]:
    """The file's lines once it holds ``count`` (the thread of ``start_saying`` writes the words)."""
    deadline = time.monotonic() + 10
    while raw.data.count(b"\n") < count and time.monotonic() < deadline:
        time.sleep(0.01)
    return raw.data.decode().splitlines()


def test_a_shutdown_said_in_the_middle_of_a_log_line_leaves_both_lines_whole(
    worker_log: tuple[InterruptedRaw, logging.Logger], capsys: pytest.CaptureFixture[str]
) -> None:
    raw, celery = worker_log
    start_saying()
    celery.info("a task received")
    lines = _lines(raw, 2)
    assert lines == ["celery.worker a task received", "celery.worker worker: Warm shutdown (MainProcess)"]
    assert "Logging error" not in capsys.readouterr().err


def test_a_shutdown_said_on_its_own_is_one_log_line(worker_log: tuple[InterruptedRaw, logging.Logger]) -> None:
    raw, _celery = worker_log
    raw.interrupted = True  # no write under way: the signal comes between two lines
    start_saying()
    say_as_log("worker: Cold shutdown (MainProcess)\n", None)
    assert _lines(raw, 1) == ["celery.worker worker: Cold shutdown (MainProcess)"]


def test_words_no_thread_wrote_are_written_at_exit(worker_log: tuple[InterruptedRaw, logging.Logger]) -> None:
    raw, _celery = worker_log
    raw.interrupted = True
    say_as_log("worker: Warm shutdown (MainProcess)\n")
    write_said()  # at exit (``atexit``), whether or not the thread took them first
    assert _lines(raw, 1) == ["celery.worker worker: Warm shutdown (MainProcess)"]
