"""The streams of one process, held on an event loop rather than a thread each.

``dragonhall serve`` runs the API under Granian (``api.gateway``): a stream's request is
checked and opened by the Flask route, on a thread like any request, and handed
over here with its first lines sent. From then on the stream costs no thread: it
is a ``Feed`` with a queue of frames, and one task per stream writes them.

When a game changes (a wake-up of ``game:<id>``, or the poll every
``POLL_FALLBACK`` seconds that catches a lost one), the hub reads the game's head
and builds each distinct line once (one per viewer and version: every spectator
shares one, each seat has its own), all in one call (on the loop itself, or on a
worker thread when the hub has an executor: ``StreamHub.__init__``), and queues
it to every feed that waits for it; an account's streams that wait from one cursor
share one read of the feed, and the streams of one token one check of it. A writer
sends what was queued while it was sending in one piece. Before, each of a game's
streams woke its own thread, which read and built for itself: with a thousand
streams open, the threads' wake-ups and their fight for the GIL cost more than the
moves themselves. A plain WSGI server's streams are followed by a hub too, on a loop
of their app's own (``api.wsgi_streams``): this is the one engine that follows streams.

The lines are the ones ``services.streams.lines`` builds, so what a caller receives is
the same whichever way its stream is held.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Iterable
from concurrent.futures import Executor
from typing import Any, TypeVar, cast

from api.stream_feeds import END, Feed, Framed, Handoff, Write, keep_alive_when_quiet
from services.common.errors import STORE_UNAVAILABLE
from services.common.visibility import has_ended
from services.streams import lines as stream_lines
from services.streams import wakeups
from services.streams.lines import AccountFollower, GameFollower, Line, Streams
from services.streams.wakeups import account_key, game_key

log = logging.getLogger("dragonhall.api.streams")

T = TypeVar("T")
CATCH_UP = 0.02
CATCH_UP_TRIES = 50
"""A game read behind its announced head is read again every ``CATCH_UP`` seconds, this many
times at most (a second); past that, the poll catches it up."""
HUB_KEY = "dragonhall.stream_hub"
"""The WSGI environ's key under which ``api.gateway`` offers the hub to the routes."""
HANDOFF_KEY = "dragonhall.stream_handoff"
"""The environ's key under which a stream's route leaves its ``Handoff``."""


class StreamHub:
    """The feeds of this process, by game and by account, and what wakes them."""

    def __init__(self, streams: Streams, executor: Executor | None) -> None:
        """``executor``: the threads that read the stores and build the lines; None builds them on
        the loop itself (``dragonhall serve`` with one request thread, as the gateway answers the
        requests there: a SQLite read waits on no network, and a hand-over to a thread costs a
        future, a write to the loop's wake-up pipe and two passes of the GIL)."""
        self.streams = streams
        self.executor = executor
        self.loop: asyncio.AbstractEventLoop | None = None
        self._games: dict[str, set[Feed]] = defaultdict(set)
        self._accounts: dict[str, set[Feed]] = defaultdict(set)
        self._owners: dict[str, set[Feed]] = defaultdict(set)
        self._refreshing: dict[str, asyncio.Task[None]] = {}
        self._again: set[str] = set()
        self._poller: asyncio.Task[None] | None = None
        self._checks: set[asyncio.Future[None]] = set()
        self._waking = threading.Lock()
        self._woken_keys: dict[str, None] = {}
        """Keys delivered since the loop was last asked to wake, in order (``_observe``)."""
        self._wake_due = False

    # ------------------------------------------------------------ lifetime

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Starts on ``loop``: wake-ups delivered to this process reach the hub from any thread."""
        if self.loop is not None:
            return
        self.loop = loop
        self.streams.wakeups.observers.append(self._observe)
        self._poller = loop.create_task(self._poll())

    def _observe(self, key: str) -> None:
        """A key delivered to this process, on the thread that delivered it: the loop is woken only
        for a game, an account or an owner that one of its streams follows (a move of a game nobody
        follows here costs a few lookups), and once for the keys that come before it runs."""
        kind, _, name = key.partition(":")
        table = self._games if kind == "game" else self._accounts if kind == "account" else self._owners
        if name not in table:  # a lookup in a dict the loop changes: atomic under the GIL
            return
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        with self._waking:
            self._woken_keys[key] = None
            if self._wake_due:
                return
            self._wake_due = True
        loop.call_soon_threadsafe(self._wake)

    def _wake(self) -> None:
        with self._waking:
            keys, self._woken_keys, self._wake_due = self._woken_keys, {}, False
        for key in keys:
            self._woken(key)

    def held(self) -> int:
        """Streams held now."""
        return sum(len(feeds) for feeds in self._owners.values())

    def end_all(self) -> None:
        """Ends every held stream (the process is stopping): each sends what it has queued."""
        for feeds in list(self._owners.values()):
            for feed in list(feeds):
                feed.end()

    # ------------------------------------------------------------ one stream

    async def _follow(self, key: str) -> None:
        """Has the other processes send ``key`` here; off the loop's thread where that waits for a
        round trip (``Broadcast.follow_waits``), so the loop's other streams do not wait with it."""
        wakeups = self.streams.wakeups
        if wakeups.broadcast.follow_waits:
            await asyncio.get_running_loop().run_in_executor(None, wakeups.follow, key)
        else:
            wakeups.follow(key)

    async def follow(self, handoff: Handoff, write: Write, disconnected: Awaitable[object]) -> None:
        """Holds one stream until it ends, its client goes (``disconnected`` returns), or its token
        is revoked."""
        feed = Feed(handoff, handoff.position)
        follower = handoff.follower
        owner = follower.player_id or ""
        if isinstance(follower, GameFollower):
            await self._follow(game_key(follower.gid))  # before its first read (``_refresh``)
            self._games[follower.gid].add(feed)
            self._refresh(game_key(follower.gid))
        else:
            await self._follow(account_key(follower.player_id))  # before its first read too
            self._accounts[follower.player_id].add(feed)
            self._refresh(account_key(follower.player_id))
        self._owners[owner].add(feed)
        gone = asyncio.ensure_future(disconnected)
        gone.add_done_callback(lambda _: feed.end())  # a writer waiting for a frame stops when its client goes
        self._check([feed])  # at once: a token revoked before the hand-over ends the stream
        try:
            await self._write(feed, write, gone)
        finally:
            gone.cancel()
            self._forget(feed, owner)
            handoff.release()

    async def _write(self, feed: Feed, write: Write, gone: asyncio.Future[Any]) -> None:
        """Sends the feed's frames as they come; the frames queued while a send was under way go
        out together in the next, so a stream that fell behind catches up in one write."""
        outbox = feed.outbox
        while not gone.done():
            frames = [await outbox.get()]
            while not outbox.empty() and frames[-1] != END:
                frames.append(outbox.get_nowait())
            ending = frames[-1] == END
            body = b"".join(frames)
            if body:
                try:
                    await write(body)
                except Exception:  # the client went while we wrote
                    return
            if ending:
                return

    def _check(self, feeds: Iterable[Feed]) -> None:
        """Ends the streams whose token no longer holds (checked on the worker threads, in one go)."""
        due = list(feeds)
        now = time.monotonic()
        for feed in due:
            feed.last_checked = now
        task = asyncio.ensure_future(self._end_if_revoked(due))
        self._checks.add(task)  # held until done: the loop keeps only a weak reference
        task.add_done_callback(self._checks.discard)

    async def _end_if_revoked(self, feeds: list[Feed]) -> None:
        try:
            revoked = await self._run(_revoked, feeds)
        except STORE_UNAVAILABLE:
            return  # checked again within ``RECHECK`` seconds
        for feed in revoked:
            feed.end()

    def _forget(self, feed: Feed, owner: str) -> None:
        follower = feed.follower
        if isinstance(follower, GameFollower):
            self.streams.wakeups.unfollow(game_key(follower.gid))
        else:
            self.streams.wakeups.unfollow(account_key(follower.player_id))
        index = self._games if isinstance(follower, GameFollower) else self._accounts
        key = follower.gid if isinstance(follower, GameFollower) else follower.player_id
        for table, name in ((index, key), (self._owners, owner)):
            held = table.get(name)
            if held is not None:
                held.discard(feed)
                if not held:
                    del table[name]

    # ------------------------------------------------------------ wake-ups

    def _woken(self, key: str) -> None:
        kind, _, name = key.partition(":")
        if (kind == "game" and name in self._games) or (kind == "account" and name in self._accounts):
            self._refresh(key)
        elif kind == "tokens":
            self._check(self._owners.get(name, ()))

    async def _poll(self) -> None:
        """Every ``POLL_FALLBACK`` seconds: every followed game and account is read again (a
        wake-up that was lost costs a delay, never a line), a feed silent for ``KEEPALIVE``
        seconds gets a keep-alive, and one whose token was checked ``RECHECK`` seconds ago is
        checked again. One timer for all the feeds, rather than one per feed."""
        while True:
            every = wakeups.POLL_FALLBACK
            await asyncio.sleep(every)
            for gid in list(self._games):
                self._refresh(game_key(gid))
            for player_id in list(self._accounts):
                self._refresh(account_key(player_id))
            now = time.monotonic()
            due = []
            for feeds in list(self._owners.values()):
                for feed in list(feeds):
                    feed.keep_alive_if_quiet(now, stream_lines.KEEPALIVE - every / 2)
                    if now - feed.last_checked >= stream_lines.RECHECK:
                        due.append(feed)
            if due:
                self._check(due)

    def _refresh(self, key: str) -> None:
        """One refresh of a game or account at a time; a wake-up during it runs it once more."""
        if key in self._refreshing:
            self._again.add(key)
            return
        task = asyncio.ensure_future(self._refresh_now(key))
        self._refreshing[key] = task

    async def _refresh_now(self, key: str) -> None:
        tries = 0
        try:
            while True:
                self._again.discard(key)
                kind, _, name = key.partition(":")
                behind = False
                try:
                    if kind == "game":
                        behind = await self._refresh_game(name)
                    else:
                        await self._refresh_account(name)
                except STORE_UNAVAILABLE:
                    pass  # the next wake-up or poll reads again
                except Exception:
                    log.exception("streams of %s could not be refreshed", key)
                tries += 1
                if behind and tries < CATCH_UP_TRIES:
                    await asyncio.sleep(CATCH_UP)
                elif key not in self._again:
                    return
        finally:
            self._refreshing.pop(key, None)

    async def _refresh_game(self, gid: str) -> bool:
        """Queues each feed of the game the change it has not had; True when some feed is still
        behind the stored head (this process's copy of the game has not caught up with it yet:
        the save is announced as it is stored)."""
        feeds = self._games.get(gid)
        if not feeds:
            return False
        groups: dict[tuple[int, str | None, int | None], list[Feed]] = defaultdict(list)
        for feed in list(feeds):
            follower = feed.follower
            assert isinstance(follower, GameFollower)
            groups[(feed.position, follower.viewer, follower.seat)].append(feed)
        wanted = [(cast(GameFollower, waiting[0].follower), version) for (version, _, _), waiting in groups.items()]
        head, lines = await self._run(self._game_lines, gid, wanted)
        behind = False
        current: list[Feed] = []
        for waiting, line in zip(groups.values(), lines, strict=True):
            if line is None:
                if waiting[0].position < head:
                    behind = True
                else:
                    current += waiting
                continue
            framed, ended = Framed(line), has_ended(line["status"])
            for feed in waiting:
                feed.push(framed.to(feed))
                feed.position = line["version"]
                if ended:
                    feed.end()
            if line["version"] < head and not ended:
                behind = True
            elif not ended:
                current += waiting
        keep_alive_when_quiet(current)
        return behind

    def _game_lines(self, gid: str, wanted: list[tuple[GameFollower, int]]) -> tuple[int, list[Line | None]]:
        """On a worker thread, in one go: the game's head, and for each (follower, version) the line
        from that version to the game as stored now (one load for all its streams: no read of the
        store when this process's copy is known current), None when the follower has it. The head
        is the later of the loaded game's version and the one the version board shows (read first):
        a load that somehow came back older makes the followers "behind", and they are read again."""
        known = self.streams.games.known_version(gid)
        game = self.streams.games.load(gid)
        lines = [follower.line_to(game, version) if version < game.version else None for follower, version in wanted]
        return max(game.version, known or 0), lines

    async def _refresh_account(self, player_id: str) -> None:
        feeds = list(self._accounts.get(player_id, ()))
        if not feeds:
            return
        groups: dict[int, list[Feed]] = defaultdict(list)
        for feed in feeds:
            groups[feed.position].append(feed)
        follower = cast(AccountFollower, feeds[0].follower)
        found = await self._run(lambda: [follower.since(cursor) for cursor in groups])
        for waiting, lines in zip(groups.values(), found, strict=True):
            for line in lines:
                framed = Framed(line)
                for feed in waiting:
                    feed.push(framed.to(feed))
                    feed.position = line["cursor"]
        keep_alive_when_quiet(feeds)

    async def _run(self, call: Callable[..., T], *args: Any) -> T:
        if self.executor is None:
            return call(*args)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.executor, call, *args)


def _revoked(feeds: list[Feed]) -> list[Feed]:
    """The feeds whose token no longer holds, each token checked once however many streams it opened."""
    verdicts: dict[str | None, bool] = {}
    revoked = []
    for feed in feeds:
        token = feed.handoff.token
        valid = verdicts.get(token) if token is not None else None
        if valid is None:
            valid = feed.handoff.still_valid()
            if token is not None:
                verdicts[token] = valid
        if not valid:
            revoked.append(feed)
    return revoked
