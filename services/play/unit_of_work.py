"""The unit of work of the write side: load a game, let a use case decide, save what it recorded.

Everything a use case should not have to think about lives here:

* **A lock per game** serialises the commands on one game within this process;
  across processes, optimistic concurrency does: a save that lost the race raises
  ``IntegrityError``, and ``change`` loads the game again and asks once more (a
  retried command then finds its first result; a stale ``expected_version`` is
  then refused).
* **A cache of games.** Loading a game folds its events since its last snapshot;
  the cache keeps the games this process last saved or loaded. A cached game is
  current without asking the store when this process is the store's only writer
  (the embedded default), or when the version board that the processes of one
  SQLite store share says so (``infra.version_board``); otherwise the events
  after it are read from the store and folded on.
* **Hooks around a save:** bank clocks are charged just before (``before_save``);
  the background work (bot turns, deadlines) is planned just after (``work``).

Games handed to a use case are private copies: the aggregate's fields are replaced,
never mutated, so a shallow copy shares safely.
"""

from __future__ import annotations

import threading
import uuid
import weakref
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from eventsourcing.domain import Aggregate
from eventsourcing.persistence import IntegrityError

from domain.kernel import RuleError
from infra.version_board import VersionBoard
from services.common.errors import GameNotFound, ServiceError, StaleVersion
from services.common.event_store import EventStore
from services.play.aggregate import Game

T = TypeVar("T")
RETRIES = 5
"""Saves lost to other writers before a change gives up with ``StaleVersion``."""
RECENT = 16
"""Events kept per cached game, the last this process saved or read (``recent_events``)."""


@dataclass(frozen=True)
class Changed(Generic[T]):
    """What ``change`` did: the game as saved, the events saved (none if the use case
    recorded nothing), and what the use case returned."""

    game: Game
    events: list[Any]
    value: T


class GameUnitOfWork:
    """Loading, locking, caching and saving games, for the use cases of ``services.play.games``."""

    def __init__(
        self,
        store: EventStore,
        *,
        cache_size: int = 2000,
        single_writer: bool = False,
        versions: VersionBoard | None = None,
    ) -> None:
        """``versions``: the board where the processes of one SQLite store post each game's last
        saved version, so a cached game is known current without a read; None: no such board."""
        self.store = store
        self.single_writer = single_writer
        """No other process writes this store: a cached game is current as it is."""
        self.versions = versions
        self.before_save: list[Callable[[Game], None]] = []
        self.on_saved: list[Callable[[str], None]] = []
        """Told a game's id once its save is stored and this process's copy and the version board
        show it: whoever it wakes (a stream) and loads the game sees the saved version."""
        self.after_save: list[Callable[[Game], None]] = []
        """Told each saved game after ``on_saved``: the background work plans its tasks from it
        (bot turns, deadlines: ``services.common.ports.Work``)."""
        self._cache: OrderedDict[uuid.UUID, Game] = OrderedDict()
        self._recent: dict[uuid.UUID, list[Any]] = {}
        self._cache_size = cache_size
        self._cache_lock = threading.Lock()
        self._locks: weakref.WeakValueDictionary[uuid.UUID, threading.RLock] = weakref.WeakValueDictionary()
        """A game's lock lives while a command holds it or waits for it (each keeps a reference), and
        goes with the last: the table never hands out a second lock for a game whose first is held."""
        self._locks_lock = threading.Lock()

    # ------------------------------------------------------------ reading

    def load(self, game_id: uuid.UUID | str) -> Game:
        """The current game, as a private copy the caller may record events on."""
        gid = game_uuid(game_id)
        cached = self._cached(gid)
        if cached is None:
            game = self._stored(gid, None, game_id)
        elif self.single_writer or (self.versions is not None and self.versions.is_current(gid, cached.version)):
            return cached
        else:
            game = cached
            caught_up = list(self.store.stored_events(gid, after=cached.version))
            for event in caught_up:
                event.mutate(game)
            self._keep_recent(gid, caught_up)
        self._remember(game)
        return copy(game)

    def known_version(self, game_id: uuid.UUID | str) -> int | None:
        """The game's last version as known without asking the store: the cached copy's when
        this process is the store's only writer, the version board's when one is shared; None
        when unknown."""
        gid = game_uuid(game_id)
        if self.single_writer:
            with self._cache_lock:
                cached = self._cache.get(gid)
            return None if cached is None else cached.version
        return None if self.versions is None else self.versions.version(gid)

    def recent_events(self, game_id: uuid.UUID | str, after: int, upto: int) -> list[Any] | None:
        """The game's events from ``after`` (exclusive) to ``upto`` when they are among the last
        this process saved or read (a change's events, read once for its streams by every
        viewer's line); None when they are not."""
        with self._cache_lock:
            held = self._recent.get(game_uuid(game_id))
            if not held or held[0].originator_version > after + 1 or held[-1].originator_version < upto:
                return None
            start = after + 1 - held[0].originator_version
            return held[start : start + upto - after]

    def _keep_recent(self, gid: uuid.UUID, events: list[Any]) -> None:
        """Adds events to the game's recent ones; a gap before them starts the list afresh."""
        if not events:
            return
        with self._cache_lock:
            held = self._recent.get(gid)
            if held and held[-1].originator_version + 1 == events[0].originator_version:
                events = held + events
            self._recent[gid] = events[-RECENT:]

    def load_at(self, game_id: uuid.UUID | str, version: int) -> Game:
        """The game as it stood at ``version`` (snapshots make this cheap)."""
        return self._stored(game_uuid(game_id), version, game_id)

    def remembered(self, game_id: uuid.UUID | str) -> Game:
        """The game as this process last saved or loaded it (loaded now if it has not):
        current as of this process's own last write, without asking the store again."""
        return self._cached(game_uuid(game_id)) or self.load(game_id)

    def _stored(self, gid: uuid.UUID, version: int | None, asked: object) -> Game:
        """The stored game ``gid``; a dispute's id, which names another kind of aggregate
        in the same store, is no game either."""
        game = self.store.aggregate(gid, version)
        if not isinstance(game, Game):
            raise GameNotFound(f"no game {asked}" + ("" if version is None else f" at version {version}"))
        return game

    def _cached(self, gid: uuid.UUID) -> Game | None:
        """A private copy of the cached game, unchecked against the store (None if not cached)."""
        with self._cache_lock:
            cached = self._cache.get(gid)
            if cached is not None:
                self._cache.move_to_end(gid)
        return None if cached is None else copy(cached)

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            old = self._cache.get(game.id)
            if old is None or old.version <= game.version:
                self._cache[game.id] = game
                self._cache.move_to_end(game.id)
            while len(self._cache) > self._cache_size:
                gone, _ = self._cache.popitem(last=False)
                self._recent.pop(gone, None)

    def _forget(self, gid: uuid.UUID) -> None:
        with self._cache_lock:
            self._cache.pop(gid, None)
            self._recent.pop(gid, None)

    # ------------------------------------------------------------ changing

    def change(self, game_id: uuid.UUID | str, step: Callable[[Game], T], *, cached_first: bool = False) -> Changed[T]:
        """Runs ``step`` on the game under its lock and saves what it recorded.

        ``step`` records events on the game it is given (or none, and returns at once)
        and raises a rule or service error to refuse. If the save is lost to another
        writer, the game is loaded again and ``step`` runs again. With
        ``cached_first`` the first try runs on the cached copy without asking the store
        (a move's common case): a save succeeds only at the store's next version, so a
        change saved from it was decided on the current game, and a refusal is decided
        again on a game loaded from the store."""
        gid = game_uuid(game_id)
        with self.locked(gid):
            game: Game | None = None
            for attempt in range(RETRIES):
                cached = self._cached(gid) if cached_first and attempt == 0 else None
                game = cached or self.load(gid)
                try:
                    value = step(game)
                except (RuleError, ServiceError):
                    if cached is None:
                        raise
                    continue
                saved = self._save(game) if game.pending_events else []
                if saved is not None:
                    return Changed(game, saved, value)
            version = None if game is None else game.version
            raise StaleVersion(f"game {game_id} kept changing; try again", current_version=version)

    def save_if_at(self, game: Game, version: int) -> bool:
        """Saves ``game``, recorded on a private copy outside the lock, if the stored game is
        still at ``version`` (then the copy was current when it was decided on)."""
        with self.locked(game.id):
            return self.load(game.id).version == version and self._save(game) is not None

    def add(self, aggregate: Aggregate) -> list[Any]:
        """Saves a new aggregate: a game just created, a dispute, a sandbox."""
        if isinstance(aggregate, Game):
            saved = self._save(aggregate)
            if saved is None:
                raise StaleVersion(f"game {aggregate.id} exists already")
            return saved
        self.store.save(aggregate)
        return []

    def _save(self, game: Game) -> list[Any] | None:
        """The saved events, or None when another writer saved first (nothing is saved then)."""
        for hook in self.before_save:
            hook(game)
        try:
            saved = self.store.save_game(game)
        except IntegrityError:
            self._forget(game.id)
            return None
        if self.versions is not None:
            self.versions.post(game.id, game.version)
        self._keep_recent(game.id, saved)
        self._remember(game)
        for announce in self.on_saved:
            announce(str(game.id))
        for plan in self.after_save:
            plan(game)
        return saved

    @contextmanager
    def locked(self, gid: uuid.UUID) -> Iterator[None]:
        """Holds the game's lock of this process (commands on one game, one at a time)."""
        with self._locks_lock:
            lock = self._locks.get(gid)
            if lock is None:
                lock = self._locks[gid] = threading.RLock()
        with lock:
            yield


def game_uuid(game_id: uuid.UUID | str) -> uuid.UUID:
    """A game id as a UUID; anything else names no game."""
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise GameNotFound(f"no game {game_id}") from None


def copy(game: Game) -> Game:
    """A private copy: the aggregate's fields are replaced, never mutated, so sharing is safe."""
    clone = object.__new__(Game)
    clone.__dict__.update(game.__dict__)
    clone.__dict__["_pending_events"] = []
    return clone


__all__ = ["RETRIES", "Changed", "GameUnitOfWork", "copy", "game_uuid"]
