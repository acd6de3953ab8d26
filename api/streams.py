"""Streams: a game, and the caller's account events, pushed as they happen.

NDJSON by default (``application/x-ndjson``: one JSON object a line, an empty line
as a keep-alive), or Server-Sent Events when the client accepts
``text/event-stream`` (``id`` is the version or the cursor, ``event`` the line's
type, a comment as a keep-alive). Both resume with ``?after=`` (or
``Last-Event-ID``). The lines come from ``services.streams.lines``; this module only
checks the request, counts the streams the process holds and writes the bytes.

A route sends a stream's first lines and hands it to a ``StreamHub``, the one
engine that follows streams: under ``dragonhall serve`` (Granian, ``api.gateway``)
the process's, which holds it on the event loop; under a plain WSGI server one
on a thread of the app's own, whose lines the body passes on (``api.wsgi_streams``).
Either way a process holds at most ``DRAGONHALL_MAX_STREAMS`` streams;
past that many, a stream is refused with 503 and ``Retry-After``. One caller (an
account, or a client address without a token) holds at most
``DRAGONHALL_MAX_STREAMS_PER_CALLER`` of them; past that, 429 and ``Retry-After``.
Long polling (``GET /games/{id}/events?wait=S``) counts as a stream while it waits.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Any

from flask import Flask, Response, current_app, request

from api import game_schemas, grip_streams, wsgi_streams
from api.auth import optional_player, required_player
from api.context import current_platform, platform_of
from api.parser import blueprint
from api.stream_feeds import Handoff
from api.stream_hub import HANDOFF_KEY, HUB_KEY
from infra import metrics
from services.common.errors import CallerStreamsBusy, InvalidRequest, StreamsBusy
from services.streams.lines import AccountFollower, GameFollower
from services.streams.stream_frames import ndjson_frame, sse_frame

blp = blueprint("streams", "Follow a game, or your account, as it changes (NDJSON or Server-Sent Events).")

NDJSON = "application/x-ndjson"
SSE = "text/event-stream"
_STREAM_DOC = {
    "200": {
        "description": (
            "A stream of JSON lines (NDJSON), or Server-Sent Events when `Accept: text/event-stream`; "
            "a keep-alive every 5 seconds of silence."
        ),
        "content": {NDJSON: {"schema": {"type": "string"}}, SSE: {"schema": {"type": "string"}}},
    }
}


class Slots:
    """The streams one process holds, up to its limit, and up to ``per_caller`` for each caller
    (an account, or an address without a token): the streams held are counted, not those
    opened, so one caller holding its share leaves the rest of the slots to the others."""

    def __init__(self, limit: int, per_caller: int | None = None) -> None:
        self.limit = limit
        self.per_caller = limit if per_caller is None else per_caller
        self.held = 0
        self.by_caller: dict[str, int] = {}
        self._lock = threading.Lock()

    def take(self, caller: str = "") -> Callable[[], None]:
        """Takes a slot for ``caller``; returns the function that gives it back (once, however
        often called). ``CallerStreamsBusy`` (429) when the caller holds its share,
        ``StreamsBusy`` (503) when the process holds its most."""
        with self._lock:
            mine = self.by_caller.get(caller, 0)
            if mine >= self.per_caller:
                raise CallerStreamsBusy(
                    f"you hold {mine} streams on this server, the most one caller may hold "
                    f"(DRAGONHALL_MAX_STREAMS_PER_CALLER={self.per_caller}); close one and try again"
                )
            if self.held >= self.limit:
                raise StreamsBusy(
                    f"this server holds {self.limit} streams, its most (DRAGONHALL_MAX_STREAMS); try again shortly"
                )
            self.held += 1
            self.by_caller[caller] = mine + 1
        metrics.OPEN_STREAMS.inc()
        given_back = threading.Event()

        def give_back() -> None:
            if not given_back.is_set():
                given_back.set()
                with self._lock:
                    self.held -= 1
                    left = self.by_caller.pop(caller, 1) - 1
                    if left > 0:
                        self.by_caller[caller] = left
                metrics.OPEN_STREAMS.dec()

        return give_back


SLOTS = "dragonhall.stream_slots"
"""Where an app keeps its ``Slots`` (``Flask.extensions``): one count of streams per process."""


def install(app: Flask) -> None:
    """Gives ``app`` the slots of its streams, as its platform's settings size them."""
    settings = platform_of(app).settings
    app.extensions[SLOTS] = Slots(settings.max_streams, settings.max_streams_per_caller)


def slots() -> Slots:
    held: Slots = current_app.extensions[SLOTS]
    return held


def take_slot() -> Callable[[], None]:
    """A slot for this request's caller: its account, else its client address (a stream, or a
    long poll while it waits)."""
    player = optional_player()
    caller = f"account:{player.id}" if player is not None else f"address:{request.remote_addr or ''}"
    return slots().take(caller)


@blp.route("/games/<game_id>/stream", methods=["GET"])
@blp.contract(auth="optional", scope="read", errors=[403, 404])
@blp.arguments(game_schemas.GameStreamArgs(), location="query")
@blp.doc(responses=_STREAM_DOC)
def game_stream(args: dict[str, Any], game_id: str) -> Response:
    """The game as the caller may see it: a `game` line (the document of `GET /games/{id}`, the
    caller's legal moves when awaited, the clocks) unless resumed with `after`, then an `events` line
    per change (the new events as the caller may see them, version, awaited seats, legal moves, clocks),
    until the game ends. Spectators and anonymous callers follow the spectator's view."""
    player = optional_player()
    follower = current_platform().streams.open_game(
        game_id, player.id if player else None, args.get("seat"), _after(args)
    )
    return _respond(follower, _still_valid())


@blp.route("/stream/events", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.arguments(game_schemas.AccountStreamArgs(), location="query")
@blp.doc(responses=_STREAM_DOC)
def account_stream(args: dict[str, Any]) -> Response:
    """Your account: first an `awaiting` line per game that awaits you, then each account event as it
    happens (`game_started`, `your_turn`, `game_finished`, `timeout`, `seat_given_up`, `invitation`,
    `reminder`, `dispute_opened`), each with its `cursor`; resume with `after` = the last cursor received."""
    player = required_player()
    follower = current_platform().streams.open_account(player.id, _after(args))
    return _respond(follower, _still_valid())


def _after(args: dict[str, Any]) -> int | None:
    """``?after=``, else the SSE ``Last-Event-ID`` header, else None (from the start)."""
    if args.get("after") is not None:
        return int(args["after"])
    last = request.headers.get("Last-Event-ID", "").strip()
    if not last:
        return None
    if not last.isdigit() or len(last) > 18:
        raise InvalidRequest("Last-Event-ID must be a version or a cursor", field="Last-Event-ID")
    return int(last)


def _still_valid() -> Callable[[], bool]:
    """Whether the request's token still holds (a revoked token ends the streams it opened)."""
    player = optional_player()
    token_id = player.token_id if player is not None else None
    if token_id is None:
        return lambda: True
    accounts = current_platform().accounts
    return lambda: accounts.still_valid(token_id)


def _respond(follower: GameFollower | AccountFollower, still_valid: Callable[[], bool]) -> Response:
    """The stream's answer: its first lines, then what the process's ``StreamHub`` follows on with.
    Served by ``dragonhall serve`` (``api.gateway``), the hub takes the stream on its event loop
    once the first lines are sent; under a plain WSGI server the body passes on what a hub of the
    app's own writes (``api.wsgi_streams``)."""
    sse = _wants_sse()
    if grip_streams.engine_request():
        return grip_streams.held(follower, sse)  # Pushpin holds it: no slot of this process's
    frame = sse_frame if sse else ndjson_frame
    release = take_slot()
    try:
        opening, position = follower.opening()
    except BaseException:
        release()
        raise
    # with no opening line, a keep-alive at once: the status and headers go out with the first
    # bytes, so a client's read timeout never waits for the hub's first keep-alive
    first = b"".join(frame(line) for line in opening) or frame(None)
    if position is None:
        release()
        body: bytes | Iterable[bytes] = first
    else:
        player = optional_player()
        token = player.token_id if player is not None else None
        handoff = Handoff(follower, position, frame, still_valid, release, token)
        if request.environ.get(HUB_KEY) is None:
            body = wsgi_streams.follow_on(first, handoff)
        else:
            request.environ[HANDOFF_KEY] = handoff
            body = iter([first])  # a body of unknown length: the stream is not over with these lines
    response = Response(body, mimetype=SSE if sse else NDJSON)
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"  # a proxy must pass each line on at once
    return response


def _wants_sse() -> bool:
    return request.accept_mimetypes[SSE] > request.accept_mimetypes[NDJSON]
