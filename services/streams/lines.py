"""The streams' lines: a game as one caller follows it, and an account's events.

A stream is opened in two steps. ``open_game`` and ``open_account`` check the
request at once (the game exists, the seat is the caller's, ``after`` is in
range), so a refusal is an ordinary error answer. The follower they return says
what to send first (``opening``) and builds each later line (``line_to``, ``since``),
as dicts; the one engine that follows a stream, ``api.stream_hub.StreamHub``, asks
it when the game or the account changes, and sends a keep-alive after
``KEEPALIVE`` seconds of silence. A stream with nothing to say
when it opens (an account with nothing pending, a game resumed at its head) starts
with a keep-alive at once: a WSGI server sends the status and headers with the first
bytes, and a client's read timeout (httpx's is 5 s) must not wait for the keep-alive
that ``KEEPALIVE`` seconds of silence bring. The gateway of ``dragonhall serve`` and Pushpin's path send
their first bytes at once the same way (``api.streams``, ``api.grip_streams``).

Every line is read from the stores, never from a notification: a stream is read
from the version (or cursor) it has sent up to whenever ``Wakeups`` wakes the hub,
and every ``POLL_FALLBACK`` seconds anyway. So no line is lost when a wake-up is, and
none is sent twice. Each line is what the REST endpoints answer the caller at
that version: the events as ``GET /games/{id}/events`` redacts them, the legal
moves of ``GET /legal-moves``, the clocks of ``GET /games/{id}``.
"""

from __future__ import annotations

import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

from services.accounts.account_feed import AccountFeed
from services.common.errors import InvalidRequest, NotAPlayer
from services.common.visibility import has_ended
from services.deadlines.timers import Timers
from services.play.aggregate import Game
from services.play.games import GameService
from services.play.invitations import Invitations
from services.reads.queries import GameQueries
from services.streams.wakeups import POLL_FALLBACK, Wakeups, game_key

KEEPALIVE = 5.0
"""Seconds of silence after which a stream sends a keep-alive line."""
RECHECK = 5.0
"""Seconds between two checks that the stream's token is still valid."""
STORED_KEPT = 256
"""Changes whose stored events are kept, read once for every viewer's line."""

Line = dict[str, Any]
StillValid = Callable[[], bool]


class GameFollower:
    """Follows one game for one caller: a ``game`` line (unless resumed), then an ``events``
    line per change, until the game ends."""

    def __init__(self, streams: Streams, game: Game, player_id: str | None, seat: int | None, after: int | None):
        self.streams = streams
        self.gid = str(game.id)
        self.player_id = player_id
        self.seat = seat
        self.after = after
        self.seated = player_id is not None and bool(game.seats_of(player_id))
        """Whether the caller holds a seat: a caller who holds none reads the spectator's lines,
        which every such stream of the process shares."""

    @property
    def viewer(self) -> str | None:
        """Whose view the lines show: the caller when seated, else None (the spectator's)."""
        return self.player_id if self.seated else None

    def opening(self) -> tuple[list[Line], int | None]:
        """The lines to send at once, and the version to follow on from (None: the stream is
        over). Without ``after``, the whole game; resumed behind the game, the change since
        ``after`` (so a client that comes back gets what it missed with the headers); resumed at
        the last version of an ended game, the line that ends it (no events), so the client does
        not come back; else nothing."""
        s = self.streams
        game = s.games.load(self.gid)
        if self.after is None:
            line = s.game_line(game, self.player_id, self.seat)
            ended = has_ended(game.status)
        elif self.after < game.version or has_ended(game.status):
            line = self.line_to(game, min(self.after, game.version))
            ended = has_ended(game.status)
        else:
            return [], self.after
        return [line], None if ended else game.version

    def line_to(self, game: Game, version: int) -> Line:
        """The change from ``version`` to ``game``'s (this game, loaded once for all its streams)."""
        return self.streams.events_line(game, version, self.viewer, self.seat)


class AccountFollower:
    """Follows one account: an ``awaiting`` line per game that awaits it, then its account
    events from the feed, for as long as the stream is held."""

    def __init__(self, streams: Streams, player_id: str, after: int | None) -> None:
        self.streams = streams
        self.player_id = player_id
        self.after = after

    def opening(self) -> tuple[list[Line], int]:
        """An ``awaiting`` line per game that awaits the account, an ``invitation`` line per
        invitation it may still accept (so a client that connects after being invited hears of
        it; the same invitation may come again from the feed when resumed: its
        ``invitation_id`` tells them apart), then, resumed with ``after``, the account's events
        since; and the cursor to follow on from."""
        s = self.streams
        lines: list[Line] = [{"type": "awaiting", **item} for item in s.timers.inbox_of(self.player_id)["awaiting"]]
        if s.invitations is not None:
            lines += [{"type": "invitation", **i} for i in s.invitations.pending(self.player_id)]
        if self.after is None:
            return lines, s.feed.last_cursor(self.player_id)
        missed, cursor = self.since_cursor(self.after)
        return lines + missed, cursor

    def since_cursor(self, cursor: int) -> tuple[list[Line], int]:
        """The account's events after ``cursor``, oldest first, and the cursor of the last."""
        lines = self.since(cursor)
        return lines, int(lines[-1]["cursor"]) if lines else cursor

    def since(self, cursor: int) -> list[Line]:
        """The account's events after ``cursor``, oldest first."""
        return list(self.streams.feed.since(self.player_id, cursor))


class Streams:
    """Opens game and account streams over the platform's services."""

    def __init__(
        self,
        games: GameService,
        queries: GameQueries,
        timers: Timers,
        feed: AccountFeed,
        wakeups: Wakeups,
        invitations: Invitations | None = None,
    ) -> None:
        self.games = games
        self.invitations = invitations
        self.queries = queries
        self.timers = timers
        self.feed = feed
        self.wakeups = wakeups
        self._lock = threading.Lock()
        self._stored_events: OrderedDict[tuple[uuid.UUID, int, int], list[Any]] = OrderedDict()

    def open_game(self, game_id: str, player_id: str | None, seat: int | None, after: int | None) -> GameFollower:
        game = self.games.load(game_id)
        if seat is not None and seat not in game.seats_of(player_id or ""):
            raise NotAPlayer(f"you do not hold seat {seat} in game {game_id}")
        if after is not None and not 0 <= after <= game.version:
            raise InvalidRequest(f"version {after} is outside 0..{game.version}", field="after")
        return GameFollower(self, game, player_id, seat, after)

    def open_account(self, player_id: str, after: int | None) -> AccountFollower:
        if after is not None and after < 0:
            raise InvalidRequest("a cursor is 0 or more", field="after")
        return AccountFollower(self, player_id, after)

    def wait_for_events(self, game_id: str, after: int, seconds: float) -> None:
        """Long polling: returns as soon as the game has an event after version ``after``, or after
        ``seconds`` without one."""
        gid = str(self.games.load(game_id).id)
        deadline = time.monotonic() + seconds
        with self.wakeups.subscribe(game_key(gid)) as woken:
            while self._head(gid) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                woken.wait(min(POLL_FALLBACK, left))

    def head(self, gid: str) -> int:
        """The game's last stored version (a long poll held by the fan-out engine asks it)."""
        return self._head(gid)

    def _head(self, gid: str) -> int:
        """The game's last stored version: as the processes writing the store have posted it
        when they share a version board (or this process is the only writer), else read."""
        known = self.games.known_version(gid)
        return known if known is not None else self.queries.head_version(gid)

    # ------------------------------------------------------------ lines

    def game_line(self, game: Game, player_id: str | None, seat: int | None) -> Line:
        """The whole game as the caller may see it: ``GET /games/{id}``, its legal moves, its clocks."""
        doc = self.queries.from_game(game, player_id, seat)
        return {"type": "game", "version": game.version, "game": doc, "legal_moves": self._legal(game, player_id, seat)}

    def events_line(self, game: Game, after: int, player_id: str | None, seat: int | None) -> Line:
        """The change from version ``after`` to ``game``'s, as the caller may see it."""
        stored = self._stored(game, after)
        return {
            "type": "events",
            "version": game.version,
            "events": self.queries.events_of(game, player_id, after, seat=seat, stored_events=stored),
            "awaiting": list(game.awaiting),
            "status": game.status,
            "legal_moves": self._legal(game, player_id, seat),
            "clocks": self.queries.clocks_of(game),
        }

    def _stored(self, game: Game, after: int) -> list[Any]:
        """The game's stored events from ``after`` to its version, read once for all viewers."""
        key = (game.id, after, game.version)
        with self._lock:
            held = self._stored_events.get(key)
        if held is None:
            held = self.games.recent_events(game.id, after, game.version)
        if held is None:
            held = [e for e in self.games.stored_events(game.id, after=after) if e.originator_version <= game.version]
            with self._lock:
                self._stored_events[key] = held
                while len(self._stored_events) > STORED_KEPT:
                    self._stored_events.popitem(last=False)
        return held

    def _legal(self, game: Game, player_id: str | None, seat: int | None) -> dict[str, Any] | None:
        """The caller's legal moves when one of its seats is awaited (a page, as ``GET /legal-moves``)."""
        if player_id is None or game.status != "active" or not game.seats_of(player_id):
            return None
        legal = self.queries.legal_moves_of(game, player_id, seat)
        return legal if legal["seat"] in game.awaiting and legal["total"] else None
