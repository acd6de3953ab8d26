"""``dragonhall worker --once`` exits with the Celery worker's own exit code, which the
supervisor reads to decide whether to start a new one (``Celery.worker_main`` dropped it)."""

from __future__ import annotations

import subprocess
import sys

import pytest

SCRIPT = """
import sys
from celery import Celery, bootsteps
from api.worker_command import _run_celery_worker

class Ends(bootsteps.StartStopStep):
    def start(self, worker):
        {how}

app = Celery("t", broker="memory://")
app.steps["worker"].add(Ends)
sys.exit(_run_celery_worker(app, ["worker", "--pool", "solo", "-l", "CRITICAL", "--without-gossip",
                                  "--without-mingle", "--without-heartbeat"]))
"""


@pytest.mark.parametrize(
    ("how", "code"),
    [
        ("raise AttributeError(\"'NoneType' object has no attribute 'hostname'\")", 1),  # kombu's, on a Redis restart
        ("raise SystemExit(0)", 0),  # a deliberate shutdown
    ],
)
def test_the_worker_process_exits_with_the_celery_workers_code(how: str, code: int) -> None:
    done = subprocess.run([sys.executable, "-c", SCRIPT.format(how=how)], capture_output=True, text=True, timeout=60)
    assert done.returncode == code, done.stderr[-2000:]
