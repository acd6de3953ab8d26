"""What the server commands do to run as part of a deployment, apart from their work: their role and
connection names, private files, metrics directory and server, readiness, and how they tell the operator.

``api.cli`` runs the commands; each of these is small and about operating them (docs/operations.md).
"""

from __future__ import annotations

import argparse
import atexit
import json
import logging
import os
import queue
import threading
from collections.abc import Callable
from typing import Any

from rich.console import Console

from infra import log_lines

console = Console(stderr=True)


def metrics_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--metrics-port",
        type=int,
        default=int(os.environ.get("DRAGONHALL_METRICS_PORT") or 0) or None,
        help="serve /metrics and /readyz on this port (DRAGONHALL_METRICS_PORT; default: none)",
    )
    parser.add_argument(
        "--metrics-host",
        default=os.environ.get("DRAGONHALL_METRICS_HOST") or "127.0.0.1",
        help="the address of --metrics-port (DRAGONHALL_METRICS_HOST; 127.0.0.1)",
    )


SERVER_COMMANDS = ("serve", "worker", "projections", "rebuild-projections", "init")
"""The commands that run a part of a deployment: their files are private, their connections named."""


def role_of(args: argparse.Namespace) -> str:
    """The process's role: its PostgreSQL ``application_name`` (``dragonhall-<role>``) and metrics directory."""
    if args.command == "worker":
        return "beat" if args.beat else "worker"
    return {"serve": "web", "rebuild-projections": "rebuild"}.get(args.command, args.command)


def log_level() -> str:
    return os.environ.get("DRAGONHALL_LOG_LEVEL", "WARNING").upper()


def name_connections(role: str) -> None:
    """Names every PostgreSQL connection this process and its children open ``dragonhall-<role>``
    (libpq's ``PGAPPNAME``, the default ``application_name``): ``pg_stat_activity`` then tells
    which process holds which connection, and the rebuild's refusal names the leader's kind."""
    os.environ["PGAPPNAME"] = f"dragonhall-{role}"


def share_metrics(role: str) -> None:
    """Has this process and its children write their metrics in a directory of their own, which
    the process answering a scrape adds up (``infra.metrics_dir``): before anything imports the
    metrics' client."""
    from infra.metrics_dir import setup
    from services.common.config import Settings

    setup(Settings.from_env().data_dir, role)


def say(message: str, level: int = logging.INFO) -> None:
    """Tells the operator ``message`` (rich markup): on a terminal as it reads, otherwise as a log
    line like every other line of the process (``infra.log_lines``)."""
    if console.is_terminal:
        console.print(message)
        return
    from rich.text import Text

    logging.getLogger(log_lines.OPERATOR).log(level, Text.from_markup(message).plain)


def projections_readiness(platform: Any) -> dict[str, Any]:
    """A projections process is ready when it leads with a live runner, or stands by to take over."""
    leader = platform.leader
    runner = leader.runner if leader is not None else None
    if runner is None:
        check = {"name": "leader", "status": "ok", "message": "stands by: another process leads", "role": "standby"}
    elif runner.is_interrupted.is_set():
        check = {"name": "leader", "status": "degraded", "message": "leads, its runner stopped", "role": "leader"}
    else:
        check = {"name": "leader", "status": "ok", "message": "leads: runs the projections", "role": "leader"}
    return {"status": "ready" if check["status"] == "ok" else "not ready", "checks": [check]}


def serve_metrics(args: argparse.Namespace, readiness: Callable[[], dict[str, Any]], platform: Any) -> Any:
    """Serves ``/metrics`` and ``/readyz`` on ``--metrics-port`` (``infra.metrics_server``), if given."""
    if not args.metrics_port:
        return None
    from infra import metrics_server
    from services.operations.health import publish

    return metrics_server.start(
        args.metrics_host, args.metrics_port, readiness, lambda: publish(platform.health.report())
    )


def worker_readiness(platform: Any, beat: bool) -> dict[str, Any]:
    """A worker is ready while its consumer beats (``workers.heartbeat``); the beat's worker also
    while the deadline sweep runs."""
    from workers.heartbeat import PULSE

    consuming = PULSE.ready()
    checks = [
        {
            "name": "consumer",
            "status": "ok" if consuming else "degraded",
            "message": "consuming" if consuming else "not consuming: starting, or its broker or database is away",
        }
    ]
    if beat:
        checks += [c.dump() for c in platform.health.checks(("sweep",))]
    return {"status": "ready" if all(c["status"] == "ok" for c in checks) else "not ready", "checks": checks}


_SAID: queue.SimpleQueue[str] = queue.SimpleQueue()
_saying = threading.Lock()
_sayer: list[threading.Thread] = []


def say_as_log(message: str, *_: Any) -> None:
    """What Celery says on a signal ("worker: Warm shutdown"), as a log line of the worker's.

    Celery says it from its signal handler, which runs on the main thread between two of its
    bytecodes. Had the signal interrupted that thread in the middle of a log line, a second write
    to the same stream would be refused ("reentrant call inside BufferedWriter") and ``logging``
    would print its traceback, which is not a JSON line. So the handler only queues the words
    (``SimpleQueue.put`` may be called from a signal handler), and a thread of ``start_saying``
    writes them; what it has not written yet is written at exit."""
    _SAID.put(message.strip())


def start_saying() -> None:
    """Starts, once a process, the thread that writes what ``say_as_log`` queued."""
    with _saying:
        if _sayer:
            return
        _sayer.append(threading.Thread(target=_say_forever, name="celery-say", daemon=True))
        _sayer[0].start()
        atexit.register(write_said)  # after the threads' join, before ``logging``'s own flush


def _say_forever() -> None:
    log = logging.getLogger("celery.worker")
    while True:
        log.warning(_SAID.get())


def write_said() -> None:
    """Writes what ``say_as_log`` queued and no thread has written yet."""
    log = logging.getLogger("celery.worker")
    while True:
        try:
            log.warning(_SAID.get_nowait())
        except queue.Empty:
            return


def rebuild_advice(embedded_projections: bool) -> str:
    """What to stop before a rebuild, for this deployment: every process that may take the lead."""
    servers = (
        " and every `dragonhall serve` (with DRAGONHALL_EMBEDDED_PROJECTIONS=1, the default, its processes run "
        "the projections too)"
        if embedded_projections
        else ""
    )
    return (
        "A rebuild must be the only process that may run the projections: stop every `dragonhall projections`, "
        f"the leader and every standby (a standby left running takes the lead as soon as the leader stops){servers}; "
        "run the rebuild again, then start them."
    )


def run_ready(args: argparse.Namespace) -> int:
    """Exits 0 when ``http://host:port/readyz`` answers 200, 1 otherwise; prints its answer."""
    import urllib.error
    import urllib.request

    url = f"http://{args.host}:{args.port}/readyz"
    try:
        with urllib.request.urlopen(url, timeout=5) as answer:
            print(answer.read().decode())
            return 0
    except urllib.error.HTTPError as e:
        print(e.read().decode())
    except OSError as e:
        print(json.dumps({"status": "unreachable", "url": url, "error": str(e)}))
    return 1
