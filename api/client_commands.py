"""The commands that play on a running server through the client library: ``dragonhall new``
(a game of server bots) and ``dragonhall bot`` (a bot that plays every game awaiting its token)."""

from __future__ import annotations

import argparse
import json
import logging
import secrets
from typing import Any

from api.operations import console


def invitation_arguments(bot: argparse.ArgumentParser) -> None:
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


def new(args: argparse.Namespace) -> int:
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


def bot(args: argparse.Namespace) -> int:
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
    unknown = _unknown_bot(client, strategy)
    if unknown is not None:
        console.print(f"[red]{unknown}[/]")
        console.print(_BUILT_IN_BOTS)
        client.close()
        return 2
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
    if args.game and args.game not in runner.finished and not runner.stopping.is_set():
        why = runner.failed.get(args.game)
        console.print(f"[red]game {args.game}: not played to its end{f' ({why})' if why else ''}[/]")
        return 1
    return 0


def _unknown_bot(client: Any, strategy: Any) -> str | None:
    """Why a built-in bot's name is no server bot's (a misspelt ``greddy``), before a move is asked
    of it; None when it is one, or the strategy is no server bot's."""
    from dragonhall import AdviceStrategy, DragonhallError

    if not isinstance(strategy, AdviceStrategy) or strategy.bot is None:
        return None
    try:
        known = sorted({bot for game in client.catalog() for bot in game.get("bots", [])})
    except DragonhallError:
        return None  # the run says what is wrong with the server
    if strategy.bot in known:
        return None
    return f"no game has a bot {strategy.bot!r}; the server's bots: {', '.join(known)}"


_BUILT_IN_BOTS = (
    "A strategy is 'random'; the name of one of the server's bots (GET /api/v1/catalog lists each game's), or "
    "'default' for each game's default bot: the server tells the move that bot would play for the seat; or "
    "module:function, a function (view, legal_moves, game) -> move."
)
