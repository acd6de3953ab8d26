"""The API's half of the streams Pushpin holds (``services.streams.grip`` says how they work).

A stream's request that came through Pushpin (``Grip-Sig``) is answered here: its first lines,
the catch-up from ``after``, and the headers that hold it on its channels. ``next_lines`` answers
Pushpin's own requests for what a held stream missed, from the position Pushpin names
(``Grip-Last``). Both answer a game's lines only up to its published mark, so that what the
channel brings next follows them. A long poll with nothing new is held on the game's channel of
hints. Every line is built by the same followers as the process's own
streams (``services.streams.lines``), so what a caller receives is the same whichever holds it.
"""

from __future__ import annotations

import math

from flask import Flask, Response, jsonify, request

from api.auth import optional_player
from api.context import current_platform, platform_of
from services.common import clock
from services.common.errors import ServiceError
from services.common.visibility import has_ended
from services.play.aggregate import Game
from services.streams.grip import (
    NEXT_PATH,
    Links,
    Resume,
    from_pushpin,
    hold_headers,
    last_position,
    stream_seat,
    waits_channel,
)
from services.streams.lines import AccountFollower, GameFollower
from services.streams.stream_frames import FRAMES, Line

STALE_MARK = 10.0
"""Seconds after a save beyond which its publish is no longer waited for: a game's mark left behind
(a process that ended between a save and its publish) holds its streams back no longer."""
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
        lines, position = game_catch_up(follower, follower.after)
    else:
        lines, position = follower.opening()
    player = optional_player()
    token = player.token_id if player is not None else None
    return _answer(lines, position, _resume(follower, framing, token), sse, opening=True)


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
    position = last_position(request.headers.get("Grip-Last", ""), resume.channels()[0])
    if position is None:  # Pushpin names the position of every hold it asks for: not one of ours
        return Response(b"", mimetype=SSE if sse else NDJSON)
    try:
        if resume.kind == "game":
            follower = platform.streams.open_game(resume.key, resume.player_id, resume.seat, position)
            lines, held_at = game_catch_up(follower, position)
        else:
            account = platform.streams.open_account(resume.key, position)
            lines, held_at = account.since_cursor(position)
    except ServiceError:
        return Response(b"", mimetype=SSE if sse else NDJSON)
    return _answer(lines, held_at, resume, sse)


def game_catch_up(follower: GameFollower, after: int | None) -> tuple[list[Line], int | None]:
    """The lines of a stream that had the game up to ``after`` (None: nothing yet, the whole game),
    up to the game's published mark; the version the stream goes on from (None: the game has
    ended, the stream with it). A line beyond the mark would be ahead of the channel: the publish
    of it, still on its way, would not follow the stream's position, and Pushpin would ask again."""
    streams = follower.streams
    head = streams.games.load(follower.gid)
    if after is not None and has_ended(head.status) and after >= head.version:
        return [follower.line_to(head, head.version)], None  # the line that ends it: the client stays away
    mark = _published(follower.gid)
    if mark is None or mark < 1 or _saved_before(head, STALE_MARK):
        mark = head.version
    upto = min(mark, head.version)
    if after is not None and after >= upto:
        return [], after
    game = head if upto == head.version else streams.games.load_at(follower.gid, upto)
    if after is None:
        line = streams.game_line(game, follower.player_id, follower.seat)
    else:
        line = follower.line_to(game, after)
    return [line], None if has_ended(game.status) else game.version


def _saved_before(game: Game, seconds: float) -> bool:
    """Whether ``game`` was last saved more than ``seconds`` ago (by the services' clock, which
    stamps the events)."""
    return (clock.now() - game.modified_on).total_seconds() > seconds


def _published(gid: str) -> int | None:
    """The game's published mark (``GripPublisher.published``); None when not known here."""
    publisher = current_platform().grip_publisher
    return None if publisher is None else publisher.published(gid)


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
        response.headers.update(hold_headers(resume, _links(), position))
    return response


def _resume(follower: GameFollower | AccountFollower, framing: str, token: str | None) -> Resume:
    if isinstance(follower, GameFollower):
        return Resume("game", follower.gid, follower.player_id, follower.viewer, follower.seat, framing, token)
    return Resume("account", follower.player_id, follower.player_id, None, None, framing, token)


def _links() -> Links:
    return Links(current_platform().settings.secret_key)
