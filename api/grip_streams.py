"""The API's half of the streams Pushpin holds (``services.grip`` says how they work).

A stream's request that came through Pushpin (``Grip-Sig``) is answered here: its first lines,
the catch-up from ``after``, and the headers that hold it on its channels. ``next_lines`` answers
Pushpin's own requests for what a held stream missed. A long poll with nothing new is held on
the game's channel of hints. Every line is built by the same followers as the process's own
streams (``services.streams``), so what a caller receives is the same whichever holds it.
"""

from __future__ import annotations

import math

from flask import Flask, Response, jsonify, request

from api.auth import optional_player
from api.context import current_platform, platform_of
from services.errors import ServiceError
from services.grip import (
    NEXT_PATH,
    Links,
    Resume,
    from_pushpin,
    hold_headers,
    last_position,
    stream_seat,
    waits_channel,
)
from services.stream_frames import FRAMES, Line
from services.streams import AccountFollower, GameFollower
from services.visibility import has_ended

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"


def engine_request() -> bool:
    """Whether Pushpin holds this request's stream: the engine is on, and the request came through
    it (signed with ``DRAGONHALL_GRIP_KEY``; without a key, every request is taken to)."""
    settings = current_platform().settings
    if settings.stream_engine != "pushpin":
        return False
    return not settings.grip_key or from_pushpin(request.headers.get("Grip-Sig"), settings.grip_key)


def install(app: Flask) -> None:
    """Adds the route Pushpin asks for missed lines (only with the engine on: no client calls it)."""
    if platform_of(app).settings.stream_engine == "pushpin":
        app.add_url_rule(NEXT_PATH + "/<signed>", "grip_next", next_lines)


def held(follower: GameFollower | AccountFollower, sse: bool) -> Response:
    """A stream's answer for Pushpin to hold: its first lines and catch-up, then its channels."""
    framing = "sse" if sse else "ndjson"
    if isinstance(follower, GameFollower):
        game = current_platform().games.load(follower.gid)
        follower.seat = stream_seat(game, follower.player_id, follower.seat)
        lines, position = game_catch_up(follower, *follower.opening())
    else:
        opening, cursor = follower.opening()
        lines, position = account_catch_up(follower, opening, cursor)
    player = optional_player()
    token = player.token_id if player is not None else None
    return _answer(lines, position, _resume(follower, framing, token, position or 0), sse, opening=True)


def next_lines(signed: str) -> Response:
    """Pushpin asks what a held stream missed since the last line it delivered (``Grip-Last``):
    those lines, and the stream held again; nothing, and the stream ends, when its token was
    revoked, its game has ended, or the request is not Pushpin's."""
    platform = current_platform()
    resume = _links().open(signed)
    if resume is None or not engine_request():
        return Response(b"", status=404)
    sse = resume.framing == "sse"
    if resume.token is not None and not platform.accounts.still_valid(resume.token):
        return Response(b"", mimetype=SSE if sse else NDJSON)
    data_channel = resume.channels()[0]
    position = last_position(request.headers.get("Grip-Last", ""), data_channel)
    position = resume.position if position is None else position
    try:
        if resume.kind == "game":
            follower = platform.streams.open_game(resume.key, resume.player_id, resume.seat, position)
            lines, held_at = game_catch_up(follower, *follower.opening())
        else:
            account = platform.streams.open_account(resume.key, position)
            lines, held_at = account_catch_up(account, [], position)
    except ServiceError:
        return Response(b"", mimetype=SSE if sse else NDJSON)
    return _answer(lines, held_at, _replace_position(resume, held_at or position), sse)


def game_catch_up(follower: GameFollower, opening: list[Line], position: int | None) -> tuple[list[Line], int | None]:
    """The opening lines and the change after them, up to the game as stored now; the version the
    stream goes on from (None: the game has ended, the stream with it)."""
    lines = list(opening)
    if position is None:
        return lines, None
    line = follower.line_after(position)
    if line is None:
        return lines, position
    lines.append(line)
    return lines, None if has_ended(line["status"]) else int(line["version"])


def account_catch_up(follower: AccountFollower, opening: list[Line], cursor: int) -> tuple[list[Line], int]:
    lines = list(opening) + follower.since(cursor)
    cursors = [int(line["cursor"]) for line in lines if "cursor" in line]
    return lines, max([cursor, *cursors])


def long_poll(game_id: str, after: int, seconds: float, answer: dict[str, object]) -> Response | None:
    """A long poll with no event after ``after`` yet, held by Pushpin on the game's hints for up to
    ``seconds`` (then ``answer``, the empty list, is sent as it is); None when there are events."""
    platform = current_platform()
    gid = str(platform.games.load(game_id).id)
    if platform.streams.head(gid) > after:
        return None
    response = jsonify(answer)
    response.headers["Grip-Hold"] = "response"
    response.headers["Grip-Channel"] = waits_channel(gid)
    response.headers["Grip-Timeout"] = str(max(1, math.ceil(seconds)))  # whole seconds: Pushpin refuses "5.0"
    return response


def _answer(lines: list[Line], position: int | None, resume: Resume, sse: bool, opening: bool = False) -> Response:
    """``lines`` framed, held from ``position`` on (None: the stream ends with them). An opening with
    no line starts with a keep-alive, as the process's own streams do: Pushpin sends the status and
    headers with the first bytes, and a client's read timeout must not wait for the first line."""
    frame = FRAMES[resume.framing]
    body = b"".join(frame(line) for line in lines) or (frame(None) if opening else b"")
    response = Response(body, mimetype=SSE if sse else NDJSON)
    response.headers["Cache-Control"] = "no-cache"
    if position is not None:
        response.headers.update(hold_headers(resume, _links()))
    return response


def _resume(follower: GameFollower | AccountFollower, framing: str, token: str | None, position: int) -> Resume:
    if isinstance(follower, GameFollower):
        return Resume(
            "game", follower.gid, follower.player_id, follower.viewer, follower.seat, framing, token, position
        )
    return Resume("account", follower.player_id, follower.player_id, None, None, framing, token, position)


def _replace_position(resume: Resume, position: int) -> Resume:
    fields = dict(resume.__dict__, position=position)
    return Resume(**fields)


def _links() -> Links:
    return Links(current_platform().settings.secret_key)
