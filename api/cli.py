"""The ``dragonhall`` command: serve, worker, projections, rebuild-projections, init, ready, new, bot, verify."""

from __future__ import annotations

import argparse
import os
import sys

from api import client_commands, projection_commands, serve_command, verify_command, worker_command
from api.operations import (
    SERVER_COMMANDS,
    log_level,
    metrics_options,
    name_connections,
    role_of,
    run_ready,
    share_metrics,
)


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
        default=serve_command.default_workers(),
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
    rebuild = sub.add_parser(
        "rebuild-projections",
        help="rebuild every read model from the events beside the live ones and swap them in; refuses while "
        "another process runs the projections (stop every `dragonhall projections`, leader and standbys)",
    )
    rebuild.add_argument(
        "--only",
        action="append",
        metavar="READ_MODEL",
        help="rebuild this read model alone (games: the list; boards; ratings; deadlines: the deadline index; "
        "inbox), "
        "leaving the others as they are; may be given again",
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
    new.add_argument(
        "--server",
        metavar="URL",
        default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"),
        help="the server to play on (DRAGONHALL_URL; default %(default)s)",
    )

    bot = sub.add_parser("bot", help="play every game that awaits a token on a running server, until stopped")
    bot.add_argument(
        "--server",
        metavar="URL",
        default=os.environ.get("DRAGONHALL_URL", "http://127.0.0.1:8000"),
        help="the server to play on (DRAGONHALL_URL; default %(default)s)",
    )
    bot.add_argument("--token", default=os.environ.get("DRAGONHALL_TOKEN"), help="the bot's token (DRAGONHALL_TOKEN)")
    bot.add_argument(
        "--strategy",
        default="random",
        help="'random' (uniform, in the client); a built-in bot's name (beginner, greedy, planner, racer, search; "
        "or 'default' for each game's default bot), which the server advises (GET /games/{id}/advice); or "
        "module:function (or path/file.py:function)",
    )
    bot.add_argument("--game", help="play only this game, and stop when it ends")
    client_commands.invitation_arguments(bot)

    verify_command.add_parser(sub)
    return parser


def _run(args: argparse.Namespace) -> int:
    from infra import log_lines

    log_lines.configure(log_level())  # JSON lines; readable on a terminal
    if args.command in SERVER_COMMANDS:
        os.umask(0o077)  # every file it makes is its user's alone: metrics, keys, sockets, SQLite files
        name_connections(role_of(args))
    if args.command in ("serve", "worker", "projections"):
        share_metrics(role_of(args))
    handler = {
        "serve": serve_command.serve,
        "worker": worker_command.run_worker,
        "projections": projection_commands.run_projections,
        "rebuild-projections": projection_commands.rebuild,
        "init": projection_commands.init,
        "ready": run_ready,
        "new": client_commands.new,
        "bot": client_commands.bot,
        "verify": verify_command.run,
    }[args.command]
    return int(handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
