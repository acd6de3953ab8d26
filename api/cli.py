"""The ``dragonhall`` command: serve, worker, projections, rebuild-projections, init, ready, new, bot, verify."""

from __future__ import annotations

import argparse
import json
import logging
import os
import secrets
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from api import verify_command
from api.operations import (
    SERVER_COMMANDS,
    console,
    log_level,
    metrics_options,
    name_connections,
    projections_readiness,
    rebuild_advice,
    role_of,
    run_ready,
    say,
    say_as_log,
    serve_metrics,
    share_metrics,
    worker_readiness,
)

if TYPE_CHECKING:
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess

    from celery import Celery


def main(argv: list[str] | None = None) -> int:
    args = command_line().parse_args(argv)
    return _run(args)


def command_line() -> argparse.ArgumentParser:
    """The ``dragonhall`` command's parser: its subcommands and their options."""
    parser = argparse.ArgumentParser(prog="dragonhall", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="run the HTTP server (embedded SQLite by default)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--workers",
        type=int,
        default=_default_workers(),
        help="HTTP processes (default: one per CPU core, at most 2; DRAGONHALL_HTTP_WORKERS)",
    )
    serve.add_argument(
        "--threads",
        type=int,
        default=None,
        help="Python threads per HTTP process (default: 1 on SQLite, 2 on PostgreSQL)",
    )

    worker = sub.add_parser("worker", help="run a Celery worker (bots, timers, notifications)")
    worker.add_argument("--queues", default="bots,timers,notifications", help="without the queue prefix")
    worker.add_argument("--concurrency", type=int, default=4)
    worker.add_argument("--beat", action="store_true", help="also run the periodic sweep (run exactly one)")
    worker.add_argument(
        "--once",
        action="store_true",
        help="run the Celery worker in this process, not restarted when it fails (it is by default)",
    )
    metrics_options(worker)

    projections = sub.add_parser("projections", help="run the projection runners as their own process")
    metrics_options(projections)
    sub.add_parser(
        "rebuild-projections",
        help="rebuild every read model from the events beside the live ones and swap them in; refuses while "
        "another process runs the projections (stop every `dragonhall projections`, leader and standbys)",
    )
    sub.add_parser(
        "init",
        help="create the tables that are missing and exit: before the other processes start, and after an upgrade",
    )
    ready = sub.add_parser("ready", help="exit 0 if a local process answers its /readyz (a container's healthcheck)")
    ready.add_argument("--port", type=int, required=True, help="the port of serve, or the --metrics-port")
    ready.add_argument("--host", default="127.0.0.1")

    new = sub.add_parser("new", help="create a game of server bots on a running server; print its id and URL")
    new.add_argument("game")
    new.add_argument("--players", type=int, default=2)
    new.add_argument("--variant")
    new.add_argument("--bot", default="random", help="bot name for every seat, or a comma-separated list")
    new.add_argument("--options", default=None, help="options as a JSON object")
    new.add_argument("--server", default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"))

    bot = sub.add_parser("bot", help="play every game that awaits a token on a running server, until stopped")
    bot.add_argument("--server", default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"))
    bot.add_argument("--token", default=os.environ.get("DRAGONHALL_TOKEN"), help="the bot's token (DRAGONHALL_TOKEN)")
    bot.add_argument(
        "--strategy",
        default="random",
        help="'random' (uniform, in the client); a built-in bot's name (beginner, greedy, planner, racer, search; "
        "or 'default' for each game's default bot), which the server advises (GET /games/{id}/advice); or "
        "module:function (or path/file.py:function)",
    )
    bot.add_argument("--game", help="play only this game, and stop when it ends")
    _invitation_arguments(bot)

    verify_command.add_parser(sub)
    return parser


def _invitation_arguments(bot: argparse.ArgumentParser) -> None:
    """The rules ``dragonhall bot`` answers invitations by (``dragonhall.invitations``)."""
    rules = bot.add_argument_group(
        "invitations", "with --accept, every invitation is answered: accepted when it meets every rule given, "
        "else declined with the reason (game, variant, clock, rated)"
    )  # fmt: skip
    rules.add_argument("--accept", action="store_true", help="answer invitations (else they are left pending)")
    rules.add_argument("--games", help="the games accepted, comma-separated (all by default)")
    rules.add_argument("--variants", help="the variants accepted, comma-separated (all by default)")
    rules.add_argument("--clock", choices=("any", "none", "timed"), default="any", help="untimed or timed games only")
    rules.add_argument("--min-seconds", type=float, help="the shortest turn accepted in a timed game")
    rules.add_argument("--max-seconds", type=float, help="the longest turn accepted in a timed game")
    rules.add_argument("--rated", choices=("any", "rated", "casual"), default="any", help="rated or casual games only")


def invitation_rules(args: argparse.Namespace) -> Any:
    """The ``InvitationRules`` of ``dragonhall bot``'s arguments, or None without ``--accept``."""
    from dragonhall import InvitationRules

    if not args.accept:
        return None

    def names(text: str | None) -> frozenset[str] | None:
        return None if text is None else frozenset(n.strip() for n in text.split(",") if n.strip())

    return InvitationRules(
        names(args.games), names(args.variants), args.clock, args.min_seconds, args.max_seconds, args.rated
    )


def _run(args: argparse.Namespace) -> int:
    from infra import log_lines

    log_lines.configure(log_level())  # JSON lines; readable on a terminal
    if args.command in SERVER_COMMANDS:
        os.umask(0o077)  # every file it makes is its user's alone: metrics, keys, sockets, SQLite files
        name_connections(role_of(args))
    if args.command in ("serve", "worker", "projections"):
        share_metrics(role_of(args))
    handler = {
        "serve": _serve,
        "worker": _worker,
        "projections": _projections,
        "rebuild-projections": _rebuild,
        "init": _init,
        "ready": run_ready,
        "new": _new,
        "bot": _bot,
        "verify": verify_command.run,
    }[args.command]
    return int(handler(args) or 0)


def _default_workers() -> int:
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


def _serve(args: argparse.Namespace) -> int:
    """Serves the API with Granian, under ASGI (``api.asgi``): its HTTP parsing and socket I/O run in
    Rust, outside the GIL; a worker thread answers each request with the Flask app, and the streams
    wait on the event loop, not on threads."""
    from granian.constants import Interfaces

    from api.processes import HttpServer
    from infra import log_lines
    from services.config import Settings

    settings = Settings.from_env()
    workers = max(1, args.workers)
    if workers > 1 and settings.store == "memory":
        say("[yellow]the in-memory store lives in one process; serving with one[/]", logging.WARNING)
        workers = 1
    os.environ["DRAGONHALL_HTTP_WORKERS"] = str(workers)  # each process knows it is not alone
    os.environ["DRAGONHALL_HTTP_PORT"] = str(args.port)  # and whose connections to count (infra.connection_balance)
    _prepare_store()
    where = settings.data_dir.resolve() if settings.store == "sqlite" else settings.store
    say(f"Dragonhall on [bold]http://{args.host}:{args.port}/[/] (store: {settings.store}, data: {where})")
    say(f"API docs: http://{args.host}:{args.port}/api/v1/docs")
    threads = max(1, args.threads or default_threads(settings.store))
    os.environ["DRAGONHALL_HTTP_THREADS"] = str(threads)  # the worker threads of ``api.app.serving_gateway``
    projector = _start_projector() if workers > 1 and settings.embedded_projections else None
    try:
        HttpServer(
            "api.processes:http_process_app",
            address=args.host,
            port=args.port,
            interface=Interfaces.ASGI,
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

    _lead_projections(tell)


def _lead_projections(on_lead: Callable[[], None], args: argparse.Namespace | None = None) -> None:
    """Runs the read models in this process until SIGTERM or SIGINT: its projections' leader
    (``projections.leader``) starts the runner once it holds the lock, calls ``on_lead``, and
    replaces the runner if it fails; without the lock it stands by to take over. With
    ``--metrics-port`` in ``args``, serves its metrics and readiness there."""
    import signal
    import threading

    from services.ports import NullWork
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


def _stop_projector(process: BaseProcess) -> None:
    process.terminate()
    process.join(timeout=15)
    if process.is_alive():
        process.kill()


def _prepare_store() -> None:
    """Creates every table once, before the HTTP processes start (they would race to)."""
    from services.ports import NullWork
    from wiring import bootstrap

    bootstrap(projections=False, work=NullWork()).close()
    os.environ["DRAGONHALL_CREATE_TABLES"] = "0"  # the HTTP processes find them made


def _worker(args: argparse.Namespace) -> int:
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
    celery = platform.extras["celery"]
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


def _projections(args: argparse.Namespace) -> int:
    _lead_projections(lambda: say("projection runner started; Ctrl-C to stop"), args)
    return 0


def _rebuild(args: argparse.Namespace) -> int:
    """Rebuilds the read models beside the live ones and swaps them in (``wiring.rebuild``),
    holding the projections' lock; refuses while another process runs the projections."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    from services.config import Settings
    from wiring.rebuild import ProjectionsLed, rebuild_projections

    settings = Settings.from_env()
    if settings.store == "memory":
        say("[red]the in-memory store keeps no read models between processes: nothing to rebuild[/]", logging.ERROR)
        return 2
    columns = (TextColumn("rebuilding the read models"), BarColumn(), MofNCompleteColumn(), TextColumn("events"))
    try:
        with Progress(*columns, TimeElapsedColumn(), console=console, transient=True) as bar:
            task = bar.add_task("rebuild", total=None)
            done = rebuild_projections(settings, lambda n, total: bar.update(task, completed=n, total=total))
    except ProjectionsLed as led:
        say(f"[red]refused: {led}.[/] {rebuild_advice(settings.embedded_projections)}", logging.ERROR)
        return 3
    say(f"rebuilt the read models from {done.events} events ({done.games} games) in {done.seconds:.1f} s")
    return 0


def _init(args: argparse.Namespace) -> int:
    """Creates every missing table (the events', the read models', the services'), then exits:
    the deployment's schema job, run before the other processes and after each upgrade."""
    from services.config import Settings

    settings = Settings.from_env()
    _prepare_store()
    say(f"the tables of the {settings.store} store are in place")
    return 0


def _new(args: argparse.Namespace) -> int:
    import httpx

    from dragonhall import Client, DragonhallError

    bots = args.bot.split(",")
    try:
        with Client.for_new_player(args.server, f"dragonhall-cli-{secrets.token_hex(4)}") as client:  # names are unique
            game = client.create_game(
                args.game,
                args.players,
                variant=args.variant,
                options=json.loads(args.options) if args.options else None,
            )
            for i in range(args.players):
                client.add_bot(game["id"], bots[i % len(bots)])
    except DragonhallError as e:
        console.print(f"[red]{args.server}: {e}[/]")
        return 1
    except httpx.TransportError as e:
        console.print(f"[red]cannot reach {args.server}: {e}; is `dragonhall serve` running?[/]")
        return 1
    print(game["id"])
    print(f"{client.server}/api/v1/games/{game['id']}")
    return 0


def _bot(args: argparse.Namespace) -> int:
    """Plays with a strategy of the client library (``dragonhall.bot``) until Ctrl-C, or until ``--game`` ends."""
    from dragonhall import BotRunner, Client, DragonhallError, load_strategy

    if not args.token:
        console.print("[red]give the bot's token: --token T (or DRAGONHALL_TOKEN)[/]")
        return 2
    try:
        strategy = load_strategy(args.strategy)
    except (ValueError, ImportError) as e:
        console.print(f"[red]{e}[/]")
        console.print(_BUILT_IN_BOTS)
        return 2
    logging.getLogger("dragonhall.bot").setLevel(logging.INFO)
    logging.getLogger("dragonhall.client").setLevel(logging.INFO)
    client = Client(args.server, args.token)
    runner = BotRunner(client, strategy, invitation_rules(args))
    where = f"game {args.game}" if args.game else "every game that awaits this token"
    if runner.invitations is not None:
        where += ", answering invitations"
    console.print(f"playing {where} on {client.server} with {args.strategy}; Ctrl-C to stop")
    try:
        runner.run(args.game)
    except KeyboardInterrupt:
        runner.stop(timeout=2)
    except DragonhallError as e:
        console.print(f"[red]{client.server}: {e}[/]")
        return 1
    finally:
        client.close()
    for game_id, game in runner.finished.items():
        console.print(f"{game_id}: {game['status']} {json.dumps(game.get('outcome'))}")
    return 0


_BUILT_IN_BOTS = (
    "A strategy is 'random'; the name of one of the server's bots (GET /api/v1/catalog lists each game's), or "
    "'default' for each game's default bot: the server tells the move that bot would play for the seat; or "
    "module:function, a function (view, legal_moves, game) -> move."
)


if __name__ == "__main__":
    sys.exit(main())
