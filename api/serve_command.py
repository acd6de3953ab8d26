"""``dragonhall serve``: the HTTP processes under Granian, and the projection process beside them."""

from __future__ import annotations

import argparse
import logging
import os
from typing import TYPE_CHECKING, Any

from api.operations import log_level, name_connections, say
from api.projection_commands import lead_projections, prepare_store

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess


def default_workers() -> int:
    """One HTTP process per core, up to two: one Python process is bound to one core by its GIL.
    The processes share one projection runner (``_start_projector``) and serialise SQLite writers."""
    if os.environ.get("DRAGONHALL_HTTP_WORKERS"):
        return int(os.environ["DRAGONHALL_HTTP_WORKERS"])
    return max(1, min(2, os.cpu_count() or 1))


def default_threads(store: str) -> int:
    """Python threads per HTTP process. On PostgreSQL a save waits about a millisecond for
    the server's commit, and a second thread runs meanwhile. A SQLite save waits on no
    other process, so a second thread only contends for the GIL: measured at 32 games in
    flight, two threads cost about a tenth more CPU per move than one, with more context
    switches (11 against 7 per move)."""
    return 1 if store == "sqlite" else 2


def serve(args: argparse.Namespace) -> int:
    """Serves the API with Granian, under its RSGI interface (``api.gateway``): its HTTP parsing and
    socket I/O run in Rust, outside the GIL; the Flask app answers each request (on the event loop's
    thread, or on one of ``--threads`` worker threads), and the streams wait on the event loop, not
    on threads."""
    from granian.constants import Interfaces

    from api.processes import HttpServer
    from infra import log_lines
    from services.common.config import Settings

    settings = Settings.from_env()
    workers = max(1, args.workers)
    if workers > 1 and settings.store == "memory":
        say("[yellow]the in-memory store lives in one process; serving with one[/]", logging.WARNING)
        workers = 1
    os.environ["DRAGONHALL_HTTP_WORKERS"] = str(workers)  # each process knows it is not alone
    os.environ["DRAGONHALL_HTTP_PORT"] = str(args.port)  # and whose connections to count (infra.connection_balance)
    if not _port_free(args.host, args.port):
        say(
            f"[red]port {args.port} of {args.host} is in use[/]: another server holds it. Serve on another "
            f'with `dragonhall serve --port N` (`make run ARGS="--port N"`).',
            logging.ERROR,
        )
        return 1
    prepare_store()
    where = settings.data_dir.resolve() if settings.store == "sqlite" else settings.store
    say(f"starting on port {args.port} (store: {settings.store}, data: {where})")
    _say_once_answering(
        args.host,
        args.port,
        [
            f"Dragonhall on [bold]http://{args.host}:{args.port}/[/]",
            f"API docs: http://{args.host}:{args.port}/api/v1/docs",
        ],
    )
    threads = max(1, args.threads or default_threads(settings.store))
    os.environ["DRAGONHALL_HTTP_THREADS"] = str(threads)  # the worker threads of ``api.app.serving_gateway``
    projector = _start_projector() if workers > 1 and settings.embedded_projections else None
    try:
        HttpServer(
            "api.processes:http_process_app",
            address=args.host,
            port=args.port,
            interface=Interfaces.RSGI,
            loop=event_loop(),
            workers=workers,
            backpressure=threads + settings.max_streams,
            backlog=max(2048, 2 * settings.max_streams),
            factory=True,
            log_level=_granian_level(),
            log_dictconfig=log_lines.dict_config(log_level()),  # Granian's lines, in each process, are ours
            log_access=False,  # the app writes the access log, as JSON lines (``api.app``, DRAGONHALL_ACCESS_LOG)
            respawn_failed_workers=True,
            workers_kill_timeout=10,
        ).serve()
    finally:
        if projector is not None:
            _stop_projector(projector)
    return 0


ANSWER_WAIT = 300.0
"""How long the start waits for the server to answer before it stops looking (a slow machine's
processes take seconds each to load the app)."""


def _say_once_answering(host: str, port: int, lines: list[str]) -> None:
    """Says ``lines`` once the server answers ``/healthz``, from a thread: the address is said when a
    person can open it, not when the processes that will serve it are still starting (seconds each,
    with several)."""
    import threading
    import time
    import urllib.request

    local = "127.0.0.1" if host in ("0.0.0.0", "") else "::1" if host == "::" else host
    url = f"http://[{local}]:{port}/healthz" if ":" in local else f"http://{local}:{port}/healthz"

    def wait() -> None:
        deadline = time.monotonic() + ANSWER_WAIT
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(url, timeout=2) as answer:
                    if answer.status == 200:
                        for line in lines:
                            say(line)
                        return
            except OSError:
                pass
            time.sleep(0.1)

    threading.Thread(target=wait, name="say-when-serving", daemon=True).start()


def _port_free(host: str, port: int) -> bool:
    """Whether ``host:port`` can be listened on: Granian's own failure is a Rust traceback."""
    import socket

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(
            socket.SOL_SOCKET, socket.SO_REUSEADDR, 1
        )  # as Granian binds: a closed port's TIME_WAIT is free
        try:
            probe.bind((host, port))
        except OSError:
            return False
    return True


def event_loop() -> Any:
    """The HTTP processes' event loop: uvloop's where it is installed (a dependency, but on Windows),
    else asyncio's. It took a tenth off the HTTP processes' CPU a move (docs/operations.md)."""
    from granian.constants import Loops

    try:
        import uvloop  # noqa: F401
    except ImportError:
        return Loops.asyncio
    return Loops.uvloop


def _granian_level() -> Any:
    """Granian's own level: ``DRAGONHALL_LOG_LEVEL``'s."""
    from granian.log import LogLevels

    try:
        return LogLevels(log_level().lower())
    except ValueError:
        return LogLevels.warning


def _start_projector() -> BaseProcess:
    """Runs the read models in a process of their own beside the HTTP processes.

    Inside an HTTP process the projection runner's thread competes for that
    process's GIL with every request it serves. The projector takes the same
    leader lock the HTTP processes try (``projections.leader``), before they
    start, so none of them runs the runner while it lives; if it dies, one of
    them takes the lock over within seconds.

    It says it leads through a pipe, not a ``multiprocessing.Event``: setting an Event
    waits for its waiter to wake, and a ``serve`` killed while it waited left the
    projection process stuck there for ever, holding the projections' lock. A write
    to a pipe whose reader is gone fails at once."""
    import multiprocessing

    context = multiprocessing.get_context("spawn")
    reader, writer = context.Pipe(duplex=False)
    process = context.Process(target=_run_projector, args=(writer,), name="dragonhall-projections")
    process.start()
    writer.close()  # the child holds its own: the pipe ends (EOF) when the child does
    try:
        leads = reader.poll(60) and reader.recv_bytes() == LEADS
    except EOFError:  # the projection process ended before it could lead
        leads = False
    reader.close()
    if not leads:
        say("[yellow]the projection process did not take the lead; an HTTP process will[/]", logging.WARNING)
    return process


LEADS = b"leads"
"""What the projection process writes to ``serve`` once it holds the projections' lead."""


PROJECTOR_NICENESS = 5
"""The projection process that ``serve`` starts yields some of the CPU to the HTTP
processes when they want it all: requests come first, and the read models catch up in
the gaps (they may lag; a game's own document falls back to the write model). Measured
in 40-second runs at 32 games in flight on SQLite, the p99 of a move and the read
models' largest lag: nice 0, 34.2-35.7 ms and 0.36 s; nice 5, 28.9-31.8 ms and 0.56 s;
nice 10, 31.5-33.7 ms and 3.2 s (the projector then fell behind), at the same moves/s."""


def _run_projector(lead: Connection) -> None:
    import contextlib
    from pathlib import Path

    from api.processes import die_with_multiprocessing_parent

    die_with_multiprocessing_parent()  # a serve killed outright takes its projection process along
    from infra import log_lines

    log_lines.configure(log_level())  # a spawned process starts without the command's logging
    name_connections("projections")
    with contextlib.suppress(OSError):  # shown by ps and top (Linux)
        Path("/proc/self/comm").write_text("dh-projections")
    with contextlib.suppress(OSError):
        os.nice(PROJECTOR_NICENESS)

    def tell() -> None:
        with contextlib.suppress(OSError):  # serve is gone, and this process with it (die_with_parent)
            lead.send_bytes(LEADS)
        lead.close()

    lead_projections(tell)


def _stop_projector(process: BaseProcess) -> None:
    process.terminate()
    process.join(timeout=15)
    if process.is_alive():
        process.kill()
