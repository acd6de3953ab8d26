"""The streams' lines: a game as one caller follows it, and an account's events.

A stream is opened in two steps. ``open_game`` and ``open_account`` check the
request at once (the game exists, the seat is the caller's, ``after`` is in
range), so a refusal is an ordinary error answer; the follower they return then
yields the lines, as dicts, and None for a keep-alive.

Every line is read from the stores, never from a notification: a follower reads
from the version (or cursor) it has sent up to whenever ``Wakeups`` wakes it, and
every ``POLL_FALLBACK`` seconds anyway. So no line is lost when a wake-up is, and
none is sent twice. Each line is what the REST endpoints answer the caller at
that version: the events as ``GET /games/{id}/events`` redacts them, the legal
moves of ``GET /legal-moves``, the clocks of ``GET /games/{id}``.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from typing import Any

from services.account_feed import AccountFeed
from services.aggregate import Game
from services.errors import InvalidRequest, NotAPlayer
from services.games import GameService
from services.queries import GameQueries
from services.timers import Timers
from services.visibility import has_ended
from services.wakeups import POLL_FALLBACK, Subscription, Wakeups, account_key, game_key, tokens_key

KEEPALIVE = 5.0
"""Seconds of silence after which a stream sends a keep-alive line."""
RECHECK = 5.0
"""Seconds between two checks that the stream's token is still valid."""
LINE_CACHE = 512
"""Lines kept for reuse: every spectator of a game receives the same line for a change."""

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

    def lines(self, still_valid: StillValid) -> Iterator[Line | None]:
        s = self.streams
        keys = [game_key(self.gid)] + ([tokens_key(self.player_id)] if self.player_id else [])
        with s.wakeups.subscribe(*keys) as woken:
            if self.after is None:
                game = s.games.load(self.gid)
                line = s.game_line(game, self.player_id, self.seat)
                yield line
                if has_ended(game.status):
                    return
                version = game.version
            else:
                end = self.ended_at()
                if end is not None:
                    yield end
                    return
                version = self.after

            def newer() -> bool:
                return s.queries.head_version(self.gid) > version

            for fresh in _paced(woken, still_valid, newer):
                if not fresh:
                    yield None
                    continue
                game = s.games.load(self.gid)
                if game.version <= version:
                    continue  # the store said newer; this process's copy catches up on the next pass
                line = s.events_line(game, version, self.player_id, self.seat)
                yield line
                version = game.version
                if has_ended(game.status):
                    return

    def ended_at(self) -> Line | None:
        """For a stream resumed at the last version of an ended game: the line that ends it
        (no events), so the client knows not to come back."""
        game = self.streams.games.load(self.gid)
        if self.after is None or not has_ended(game.status) or self.after < game.version:
            return None
        return self.streams.events_line(game, game.version, self.player_id, self.seat)


class AccountFollower:
    """Follows one account: an ``awaiting`` line per game that awaits it, then its account
    events from the feed, for as long as the stream is held."""

    def __init__(self, streams: Streams, player_id: str, after: int | None) -> None:
        self.streams = streams
        self.player_id = player_id
        self.after = after

    def lines(self, still_valid: StillValid) -> Iterator[Line | None]:
        s = self.streams
        with s.wakeups.subscribe(account_key(self.player_id), tokens_key(self.player_id)) as woken:
            cursor = s.feed.last_cursor(self.player_id) if self.after is None else self.after
            for item in s.timers.inbox_of(self.player_id)["awaiting"]:
                yield {"type": "awaiting", **item}
            pending: list[Line] = []

            def more() -> bool:
                pending.extend(s.feed.since(self.player_id, cursor))
                return bool(pending)

            for fresh in _paced(woken, still_valid, more):
                if not fresh:
                    yield None
                    continue
                for line in pending:
                    yield line
                    cursor = line["cursor"]
                pending.clear()


def _paced(woken: Subscription, still_valid: StillValid, changed: Callable[[], bool]) -> Iterator[bool]:
    """Yields True whenever ``changed()`` says there is something to send, False when a
    keep-alive is due; returns when the token is no longer valid. ``changed`` is asked after
    each wake-up, every ``POLL_FALLBACK`` seconds, and right after each True. The token is
    checked every ``RECHECK`` seconds, and at once after a wake-up that brought nothing (a
    revocation publishes ``tokens_key``)."""
    last_line = last_check = time.monotonic()
    woke = False
    while True:
        if changed():
            yield True
            last_line = time.monotonic()
            woke = False
            continue
        now = time.monotonic()
        if woke or now - last_check >= RECHECK:
            if not still_valid():
                return
            last_check = now
        if now - last_line >= KEEPALIVE:
            yield False
            last_line = now
            continue
        woke = woken.wait(min(POLL_FALLBACK, KEEPALIVE - (now - last_line)))


class Streams:
    """Opens game and account streams over the platform's services."""

    def __init__(
        self, games: GameService, queries: GameQueries, timers: Timers, feed: AccountFeed, wakeups: Wakeups
    ) -> None:
        self.games = games
        self.queries = queries
        self.timers = timers
        self.feed = feed
        self.wakeups = wakeups
        self._lines: OrderedDict[tuple[Any, ...], Line] = OrderedDict()
        self._lock = threading.Lock()

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
            while self.queries.head_version(gid) <= after:
                left = deadline - time.monotonic()
                if left <= 0:
                    return
                woken.wait(min(POLL_FALLBACK, left))

    # ------------------------------------------------------------ lines

    def game_line(self, game: Game, player_id: str | None, seat: int | None) -> Line:
        """The whole game as the caller may see it: ``GET /games/{id}``, its legal moves, its clocks."""
        doc = self.queries.from_game(game, player_id, seat)
        return {"type": "game", "version": game.version, "game": doc, "legal_moves": self._legal(game, player_id, seat)}

    def events_line(self, game: Game, after: int, player_id: str | None, seat: int | None) -> Line:
        """The change from version ``after`` to ``game``'s, as the caller may see it."""
        key = (str(game.id), after, game.version, player_id, seat)
        with self._lock:
            cached = self._lines.get(key)
        if cached is not None:
            return cached
        line = {
            "type": "events",
            "version": game.version,
            "events": self.queries.events_of(game, player_id, after, seat=seat),
            "awaiting": list(game.awaiting),
            "status": game.status,
            "legal_moves": self._legal(game, player_id, seat),
            "clocks": self.queries.clocks_of(game),
        }
        with self._lock:
            self._lines[key] = line
            while len(self._lines) > LINE_CACHE:
                self._lines.popitem(last=False)
        return line

    def _legal(self, game: Game, player_id: str | None, seat: int | None) -> dict[str, Any] | None:
        """The caller's legal moves when one of its seats is awaited (a page, as ``GET /legal-moves``)."""
        if player_id is None or game.status != "active" or not game.seats_of(player_id):
            return None
        legal = self.queries.legal_moves_of(game, player_id, seat)
        return legal if legal["seat"] in game.awaiting and legal["total"] else None
