"""The embedded default's worker: Celery's jobs run by threads of the server process, no broker.

Jobs due now go to a small thread pool; jobs with an ETA wait in a heap watched
by one timer thread (no polling). Transient failures are retried with
exponential backoff, as the Celery tasks are. Nothing survives a restart, which
is what the periodic sweep is for: it finds overdue deadlines in the read models.
"""

from __future__ import annotations

import concurrent.futures
import heapq
import itertools
import logging
import threading
from datetime import datetime, timedelta
from types import SimpleNamespace
from typing import Any

from infra import log_lines
from services.common import clock
from workers.jobs import JOBS, MAX_RETRIES, TRANSIENT, RetryLater, Send
from workers.platform import JobPlatform
from workers.tasks import task_fields, trace_headers

log = logging.getLogger("dragonhall.local")


class LocalExecutor:
    def __init__(self, platform: JobPlatform, send: Send, threads: int = 4) -> None:
        self.platform = platform
        self.send = send
        self.pool = concurrent.futures.ThreadPoolExecutor(threads, thread_name_prefix="dragonhall-job")
        self._heap: list[tuple[datetime, int, str, tuple[Any, ...], int]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._stopped = False
        self._timer = threading.Thread(target=self._watch, name="dragonhall-timer", daemon=True)
        self._timer.start()

    def submit(self, name: str, args: tuple[Any, ...], eta: datetime | None = None, attempt: int = 0) -> None:
        if self._stopped:
            return
        if eta is None or eta <= clock.now():
            self.pool.submit(self._run, name, args, attempt, trace_headers())
            return
        with self._wake:
            heapq.heappush(self._heap, (eta, next(self._order), name, args, attempt))
            self._wake.notify()

    def _run(self, name: str, args: tuple[Any, ...], attempt: int, cause: dict[str, str] | None = None) -> None:
        """Runs one job, its log lines carrying its game and its cause (``workers.tasks.task_fields``)."""
        bound = log_lines.bind(**task_fields(name, args, SimpleNamespace(headers=cause or {})))
        try:
            JOBS[name](self.platform, self.send, *args)
        except RetryLater as later:
            self._again(name, args, attempt, later.seconds)
        except TRANSIENT as e:
            log.warning("job %s%s failed (%s); retrying", name, args, e)
            self._again(name, args, attempt, min(60.0, 2.0**attempt))
        except Exception:
            log.exception("job %s%s failed", name, args)
        finally:
            log_lines.CONTEXT.reset(bound)

    def _again(self, name: str, args: tuple[Any, ...], attempt: int, seconds: float) -> None:
        if attempt >= MAX_RETRIES:
            log.error("job %s%s gave up after %d attempts", name, args, attempt + 1)
            return
        if name == "dragonhall.webhook":
            args = (args[0], attempt + 1)
        self.submit(name, args, clock.now() + timedelta(seconds=seconds), attempt + 1)

    def _watch(self) -> None:
        with self._wake:
            while not self._stopped:
                if not self._heap:
                    self._wake.wait()
                    continue
                wait = (self._heap[0][0] - clock.now()).total_seconds()
                if wait > 0:
                    self._wake.wait(timeout=min(wait, 1.0))
                    continue
                _eta, _n, name, args, attempt = heapq.heappop(self._heap)
                self.pool.submit(self._run, name, args, attempt)

    def stop(self) -> None:
        with self._wake:
            self._stopped = True
            self._wake.notify_all()
        self._timer.join(5)
        self.pool.shutdown(wait=True, cancel_futures=True)
