"""Games: create, seat, leave, start, close, move, resign; and the game's document, events and replays.

Each route loads its request with a schema, calls one service method and dumps
the result with a schema. Nothing here names a particular game.
"""

from __future__ import annotations

from typing import Any

from flask import Response

from api import errors, game_schemas, grip_streams, log_schemas
from api.actions import open_table
from api.auth import caller_id, optional_player, required_player
from api.context import current_platform
from api.parser import blueprint
from api.streams import take_slot
from infra import metrics
from services.reads.game_log import narrated_log

blp = blueprint("games", "Create and play games; read their state and history.")


@blp.route("/games", methods=["POST"])
@blp.contract(auth="required", scope="play")
@blp.arguments(game_schemas.GameCreate())
@blp.response(201, game_schemas.GameDocument())
def create_game(body: dict[str, Any]) -> dict[str, Any]:
    """Open a table; the caller is its creator. It starts when its last seat fills."""
    player = required_player()
    return current_platform().queries.from_game(open_table(player.id, body), player.id)


@blp.route("/games", methods=["GET"])
@blp.contract(auth="optional", scope="read")
@blp.arguments(game_schemas.ListArgs(), location="query")
@blp.response(200, game_schemas.GameList())
def list_games(args: dict[str, Any]) -> dict[str, Any]:
    """Games filtered by status, game and player (sandboxes are not listed)."""
    optional_player()
    games = current_platform().queries.list_games(
        args.get("status"), args.get("game"), args.get("player"), args["limit"], args["offset"]
    )
    return {"games": games}


@blp.route("/games/<game_id>", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(game_schemas.SeatArg(), location="query")
@blp.response(200, game_schemas.GameDocument())
def get_game(args: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The game, with its board as the caller may see it."""
    return current_platform().queries.document(game_id, caller_id(), args.get("seat"))


@blp.route("/games/<game_id>/seats", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(game_schemas.SeatRequest())
@blp.response(201, game_schemas.GameDocument())
def take_seat(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Take a seat (``{}`` or ``{seat}``), or, as the creator, add a server bot (``{bot}``)."""
    player = required_player()
    p = current_platform()
    if "bot" in body:
        game = p.games.add_bot(game_id, player.id, body["bot"], body.get("seat"))
    else:
        game = p.seating.take(game_id, player, body.get("seat"))
    return p.queries.from_game(game, player.id)


@blp.route("/games/<game_id>/start", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, game_schemas.GameDocument())
def start_game(game_id: str) -> dict[str, Any]:
    """The creator starts the game early, where the rules allow the seats taken."""
    player = required_player()
    p = current_platform()
    return p.queries.from_game(p.games.start(game_id, player.id), player.id)


@blp.route("/games/<game_id>/close", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.response(200, game_schemas.GameDocument())
def close_table(game_id: str) -> dict[str, Any]:
    """The creator closes a table that has not started: the game ends abandoned, nobody ranks."""
    player = required_player()
    p = current_platform()
    return p.queries.from_game(p.games.close(game_id, player.id), player.id)


@blp.route("/games/<game_id>/leave", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(game_schemas.LeaveRequest())
@blp.response(200, game_schemas.GameDocument())
def leave_table(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Give up your seat (``{}`` or ``{seat}``) at a table that has not started, or, as its
    creator, take off a server bot you seated (``{seat}``); the seat is free again. The creator
    closes the table rather than leave it."""
    player = required_player()
    p = current_platform()
    return p.queries.from_game(p.seating.leave(game_id, player.id, body.get("seat")), player.id)


@blp.route("/games/<game_id>/legal-moves", methods=["GET"])
@blp.contract(auth="required", scope="read", errors=[403, 404])
@blp.arguments(game_schemas.LegalMovesArgs(), location="query")
@blp.response(200, game_schemas.LegalMoves())
def legal_moves(args: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Every complete move the caller's seat may submit now (empty when not awaited), a page at a
    time: ``total`` says how many there are (some games list tens of thousands)."""
    player = required_player()
    return current_platform().queries.legal_moves(
        game_id,
        player.id,
        args.get("seat"),
        args["offset"],
        args["limit"],
        words=args["words"],
        chosen=tuple(args["chosen"].split()) if args["narrow"] else None,
    )


@blp.route("/games/<game_id>/moves", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409, 422], save_checks=True)
@blp.arguments(game_schemas.MoveRequest())
@blp.response(201, game_schemas.MoveResult())
@blp.alt_response(200, schema=game_schemas.MoveResult(), description="A repeated command_id: the first result.")
def submit_move(body: dict[str, Any], game_id: str) -> dict[str, Any] | tuple[dict[str, Any], int]:
    """Play a move. ``expected_version`` guards against racing moves; ``command_id``
    makes a retry safe: repeating it returns the first result and writes nothing."""
    player = required_player()
    p = current_platform()
    try:
        result = p.games.submit_move(
            game_id, player.id, body["move"], body.get("expected_version"), body.get("command_id"), body.get("seat")
        )
    except Exception as refused:
        metrics.MOVES_BY(_game_name(game_id), errors.code_of(refused)).inc()
        raise
    metrics.MOVES_BY(_game_name(game_id), "accepted").inc()
    if body["include_legal_moves"]:
        result["legal_moves"] = p.queries.legal_moves(game_id, player.id, body.get("seat"), after_own_write=True)
    if result.get("replayed"):
        return result, 200
    return result


_GAME_NAMES: dict[str, str] = {}
"""Game id -> its game (``tarasque``...), which never changes: the label of the moves' metric, found
once per game rather than by copying the cached game on every move."""
GAME_NAMES_KEPT = 10_000


def _game_name(game_id: str) -> str:
    """The game a move was for, from this process's cache of games: a label of the moves' metric."""
    name = _GAME_NAMES.get(game_id)
    if name is not None:
        return name
    try:
        name = current_platform().games.remembered(game_id).game
    except Exception:  # no such game: a refusal of its own
        return "none"
    if len(_GAME_NAMES) >= GAME_NAMES_KEPT:
        _GAME_NAMES.clear()
    _GAME_NAMES[game_id] = name
    return name


@blp.route("/games/<game_id>/resign", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(game_schemas.ResignRequest())
@blp.response(201, game_schemas.MoveResult())
def resign(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The caller's seat leaves the game; the others play on where the rules allow."""
    player = required_player()
    return current_platform().games.resign(game_id, player.id, body.get("seat"))


@blp.route("/games/<game_id>/events", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(game_schemas.EventsArgs(), location="query")
@blp.response(200, game_schemas.EventList())
def events(args: dict[str, Any], game_id: str) -> dict[str, Any] | Response:
    """The events after version ``after``: redacted for the caller while the game runs. With ``wait``,
    long polling: the answer comes as soon as an event after ``after`` exists, or after ``wait``
    seconds with none (the wait holds a stream slot: 503 with Retry-After when none is free)."""
    p = current_platform()
    player_id = caller_id()
    if args.get("wait") and grip_streams.engine_request():
        answer = p.queries.events(game_id, player_id, args["after"], args["limit"])
        if not answer.get("events"):
            held = grip_streams.long_poll(game_id, args["after"], args["wait"], game_schemas.EventList().dump(answer))
            if held is not None:
                return held
        return answer
    if args.get("wait"):
        release = take_slot()
        try:
            p.streams.wait_for_events(game_id, args["after"], args["wait"])
        finally:
            release()
    return p.queries.events(game_id, player_id, args["after"], args["limit"])


@blp.route("/games/<game_id>/log", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(log_schemas.LogArgs(), location="query")
@blp.response(200, log_schemas.GameLog())
def log(args: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The game told in words for the caller, step by step (redacted as GET /events is): each event
    as a sentence, each decision as a title, the turns' headings, whose turn it is, and the result
    once the game has ended. With ``after``, only the steps with an event after that version."""
    return narrated_log(current_platform().queries, game_id, caller_id(), args["after"], args.get("seat"))


@blp.route("/games/<game_id>/replay", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(game_schemas.ReplayArgs(), location="query")
@blp.response(200, game_schemas.GameDocument())
def replay(args: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The game as it stood at version ``at``, as the caller saw it then (all of it once finished)."""
    return current_platform().queries.replay(game_id, caller_id(), args["at"], args.get("seat"))


@blp.route("/games/<game_id>/board.svg", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[404])
@blp.arguments(game_schemas.BoardArgs(), location="query")
@blp.doc(
    responses={
        "200": {
            "description": "The board as the caller may see it.",
            "content": {"image/svg+xml": {"schema": {"type": "string"}}},
        }
    }
)
def board_svg(args: dict[str, Any], game_id: str) -> Response:
    """The board as an SVG picture, for games that draw one (404 otherwise); with ``at``, the
    board as it stood at that version, redacted as GET /replay?at= redacts it."""
    p = current_platform()
    if args.get("at") is None:
        doc = p.queries.document(game_id, caller_id(), args.get("seat"))
    else:
        doc = p.queries.replay(game_id, caller_id(), args["at"], args.get("seat"))
    svg = p.queries.svg(doc, caller_id(), args.get("seat"))
    return Response(svg, mimetype="image/svg+xml")
