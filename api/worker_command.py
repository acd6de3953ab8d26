"""``dragonhall worker``: a Celery worker (bots, timers, notifications), in a child that its
supervisor restarts when it fails."""

from __future__ import annotations

import argparse
import logging
import os
import sys
from typing import TYPE_CHECKING, Any

from api.operations import log_level, say_as_log, serve_metrics, start_saying, worker_readiness

if TYPE_CHECKING:
    from celery import Celery


def run_worker(args: argparse.Namespace) -> int:
    """Supervises a child that runs the Celery worker (``--once``), restarting it when it
    fails (``workers.supervisor``)."""
    if not args.once:
        import subprocess

        from workers.supervisor import Supervisor

        child = ["worker", "--queues", args.queues, "--concurrency", str(args.concurrency), "--once"]
        if args.metrics_port:
            child += ["--metrics-port", str(args.metrics_port), "--metrics-host", args.metrics_host]
        env = {**os.environ, SUPERVISOR_PID: str(os.getpid())}
        supervisor = Supervisor(
            [sys.executable, "-m", "api.cli", *child, *(["--beat"] if args.beat else [])],
            spawn=lambda command: subprocess.Popen(command, env=env),
        )
        supervisor.install_signal_handlers()
        return supervisor.run()
    if os.environ.get(SUPERVISOR_PID):  # a supervisor killed outright takes its Celery worker along
        from api.processes import die_with_parent

        die_with_parent(int(os.environ.pop(SUPERVISOR_PID)))
    from wiring import bootstrap

    platform = bootstrap(projections=False, worker=False)
    celery = platform.celery
    assert celery is not None, "bootstrap sends the background work through Celery"
    queues = ",".join(platform.settings.queue_prefix + q for q in args.queues.split(","))
    argv = [
        "--quiet",  # no banner: what it says is logged as a line of ours
        "worker",
        "-Q",
        queues,
        "-c",
        str(args.concurrency),
        "--pool",
        "threads",
        "-l",
        log_level(),
        "--without-gossip",
        "--without-mingle",
    ]
    if args.beat:  # its schedule in the data directory, wherever the process runs (a unit's cwd may be /)
        argv += ["-B", "-s", str(platform.settings.data_dir.resolve() / "celerybeat-schedule")]
    server = serve_metrics(args, lambda: worker_readiness(platform, args.beat), platform)
    logging.getLogger("dragonhall.workers").info(
        "worker starting: queues %s, concurrency %d%s", queues, args.concurrency, ", with the beat" if args.beat else ""
    )
    try:
        return _run_celery_worker(celery, argv)
    finally:
        if server is not None:
            server.shutdown()
        platform.close()


SUPERVISOR_PID = "DRAGONHALL_SUPERVISOR_PID"
"""Set by ``dragonhall worker`` in its child's environment: the child ends with it (``api.processes``)."""


def _run_celery_worker(celery: Celery, argv: list[str]) -> int:
    """Runs ``celery worker`` in this process; returns the worker's exit code (1 after an
    unrecoverable error). ``Celery.start`` returns nothing (click, called with
    ``standalone_mode=False``, hands the code back and Celery drops it), so the code is
    read from the worker, found through the ``worker_init`` signal. The beat that
    ``--beat`` forks ends with this process (``api.processes``)."""
    from celery import signals

    from api.processes import die_with_parent

    workers: list[Any] = []
    here = os.getpid()

    def found(sender: Any, **_: Any) -> None:
        workers.append(sender)

    def beat_forked(sender: Any, **_: Any) -> None:  # in the process ``--beat`` forks: it ends with this one
        die_with_parent(here)

    def own_logging(**_: Any) -> None:  # Celery leaves logging as ``infra.log_lines`` set it up
        return None

    from celery.apps import worker as celery_worker

    celery_worker.safe_say = say_as_log  # its shutdown messages, written straight to stdout otherwise
    start_saying()

    signals.worker_init.connect(found, weak=False)
    signals.beat_embedded_init.connect(beat_forked, weak=False)
    signals.setup_logging.connect(own_logging, weak=False)
    try:
        celery.start(argv)
    finally:
        signals.worker_init.disconnect(found)
        signals.beat_embedded_init.disconnect(beat_forked)
        signals.setup_logging.disconnect(own_logging)
    return int(workers[-1].exitcode or 0) if workers else 1
