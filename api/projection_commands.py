"""The commands of the stores and the read models: ``dragonhall init`` (the tables),
``dragonhall projections`` (the runner, as its own process) and ``dragonhall rebuild-projections``;
and the projections' leadership, which ``serve``'s projection process shares."""

from __future__ import annotations

import argparse
import logging
import os
from collections.abc import Callable

from api.operations import console, projections_readiness, rebuild_advice, say, serve_metrics


def lead_projections(on_lead: Callable[[], None], args: argparse.Namespace | None = None) -> None:
    """Runs the read models in this process until SIGTERM or SIGINT: its projections' leader
    (``projections.leader``) starts the runner once it holds the lock, calls ``on_lead``, and
    replaces the runner if it fails; without the lock it stands by to take over. With
    ``--metrics-port`` in ``args``, serves its metrics and readiness there."""
    import signal
    import threading

    from services.common.ports import NullWork
    from wiring import bootstrap

    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    signal.signal(signal.SIGINT, lambda *_: stop.set())
    platform = bootstrap(projections=True, work=NullWork())
    leader = platform.leader
    server = serve_metrics(args, lambda: projections_readiness(platform), platform) if args else None
    if leader is not None and leader.runner is None:
        logging.getLogger("dragonhall.projections").warning(
            "another process runs the projections; this one stands by to take over"
        )
    try:
        while leader is not None and leader.runner is None and not stop.wait(0.05):
            pass
        on_lead()
        stop.wait()
    finally:
        if server is not None:
            server.shutdown()
        platform.close()


def prepare_store() -> None:
    """Creates every table once, before the HTTP processes start (they would race to)."""
    from services.common.ports import NullWork
    from wiring import bootstrap

    bootstrap(projections=False, work=NullWork()).close()
    os.environ["DRAGONHALL_CREATE_TABLES"] = "0"  # the HTTP processes find them made


def run_projections(args: argparse.Namespace) -> int:
    lead_projections(lambda: say("projection runner started; Ctrl-C to stop"), args)
    return 0


def rebuild(args: argparse.Namespace) -> int:
    """Rebuilds the read models beside the live ones and swaps them in (``wiring.rebuild``),
    holding the projections' lock; refuses while another process runs the projections."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from services.common.config import Settings
    from wiring.rebuild import READ_MODELS, ProjectionsLed, rebuild_projections

    settings = Settings.from_env()
    if settings.store == "memory":
        say("[red]the in-memory store keeps no read models between processes: nothing to rebuild[/]", logging.ERROR)
        return 2
    only = tuple(getattr(args, "only", None) or READ_MODELS)
    unknown = sorted(set(only) - set(READ_MODELS))
    if unknown:
        say(f"[red]no read model named {', '.join(unknown)}:[/] they are {', '.join(READ_MODELS)}", logging.ERROR)
        return 2
    columns = (TextColumn(f"rebuilding {', '.join(only)}"), BarColumn(), MofNCompleteColumn(), TextColumn("events"))
    try:
        with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
            task = bar.add_task("rebuild", total=None)
            done = rebuild_projections(settings, lambda n, total: bar.update(task, completed=n, total=total), only)
    except ProjectionsLed as led:
        say(f"[red]refused: {led}.[/] {rebuild_advice(settings.embedded_projections)}", logging.ERROR)
        return 3
    say(f"rebuilt {', '.join(only)} from {done.events} events ({done.games} games) in {done.seconds:.1f} s")
    return 0


def init(args: argparse.Namespace) -> int:
    """Creates every missing table (the events', the read models', the services'), then exits:
    the deployment's schema job, run before the other processes and after each upgrade."""
    from services.common.config import Settings

    settings = Settings.from_env()
    prepare_store()
    say(f"the tables of the {settings.store} store are in place")
    return 0
