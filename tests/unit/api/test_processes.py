"""Children that end with their parent, and Granian workers that end while they start (``api.processes``)."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

CHILD = """
import os, signal, sys, time
from pathlib import Path
from api.processes import die_with_parent

def stopped(*_):
    Path(sys.argv[1] + ".part").write_text("SIGTERM")
    os.replace(sys.argv[1] + ".part", sys.argv[1])  # the test reads the file once it exists: whole
    sys.exit(0)

signal.signal(signal.SIGTERM, stopped)
die_with_parent(int(sys.argv[2]))
Path(sys.argv[1] + ".ready").write_text("")
time.sleep(60)
"""

PARENT = """
import subprocess, sys, os, time
subprocess.Popen([sys.executable, "-c", sys.argv[1], sys.argv[2], str(os.getpid())])
time.sleep(60)
"""


def test_a_child_tied_to_its_parent_gets_sigterm_when_the_parent_is_killed(tmp_path: Path) -> None:
    said = tmp_path / "said"
    parent = subprocess.Popen([sys.executable, "-c", PARENT, CHILD, str(said)])
    try:
        deadline = time.time() + 60
        while not Path(f"{said}.ready").exists():
            assert time.time() < deadline and parent.poll() is None, "the child did not start"
            time.sleep(0.02)
        parent.kill()
        parent.wait(10)
        while not said.exists():
            assert time.time() < deadline, "the child outlived its parent"
            time.sleep(0.02)
        assert said.read_text() == "SIGTERM"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_child_whose_parent_died_before_it_asked_gets_sigterm_at_once() -> None:
    """Between the fork and the request the parent may already be gone; the kernel would never tell."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "from api.processes import die_with_parent; import time, os; "
            "die_with_parent(os.getppid() + 1_000_000); time.sleep(60)",
        ],
        timeout=60,
    )
    assert done.returncode == -signal.SIGTERM


FORKED_WORKER = """
import os, signal, sys, time
from api.processes import HttpServer

server = HttpServer("api.processes:http_process_app")
server.pid = os.getpid()
signal.signal(signal.SIGTERM, server.signal_handler_interrupt)  # as Granian's startup sets it
worker = os.fork()
if worker == 0:  # a worker still building its app: it has the parent's handler
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(5)
    os._exit(3)
_, status = os.waitpid(worker, 0)
os.kill(os.getpid(), signal.SIGTERM)  # the parent itself only records the request
print(os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGTERM, server.interrupt_signal)
"""


def test_a_granian_worker_still_starting_ends_on_sigterm_and_its_parent_records_it() -> None:
    done = subprocess.run([sys.executable, "-c", FORKED_WORKER], capture_output=True, text=True, timeout=60)
    assert done.stdout.split() == ["True", "True"], done.stderr[-2000:]
