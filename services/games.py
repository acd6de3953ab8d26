"""The write side: one application service, a short method per use case.

Each command loads the game, asks the game's decider, and saves what it
returned; it never names a particular game. Commands on one game are serialised
in-process by a lock, and across processes by optimistic concurrency: a save
that lost the race raises ``IntegrityError``, which becomes ``StaleVersion`` when
the caller named an ``expected_version`` and a retry otherwise.
"""

from __future__ import annotations

import hashlib
import hmac
import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from eventsourcing.application import AggregateNotFoundError, Application, ProcessingEvent
from eventsourcing.persistence import IntegrityError, Recording, Transcoder

from domain.kernel import ConfigError, Rng, RuleError, Viewer, find_game, seed_commitment
from services import clock, visibility
from services.accounts import server_bot_id
from services.aggregate import CAUSES, Game
from services.errors import (
    CommandReused,
    GameNotFound,
    InvalidRequest,
    NotAcceptingMoves,
    NotAPlayer,
    NotCreator,
    NotInvited,
    SeatUnavailable,
    ServiceError,
    StaleVersion,
)
from services.event_json import FastJSONTranscoder
from services.ports import NullWork, Work
from services.redaction import redact_stored_event
from services.timed_cases import TimedCases
from services.version_board import VersionBoard
from services.visibility import has_ended

RETRIES = 5


class GameService(TimedCases, Application):
    """Dragonhall's event-sourced application: every game is a ``Game`` aggregate."""

    name = "dragonhall"
    snapshotting_intervals = {Game: 50}

    def __init__(
        self,
        env: dict[str, str] | None = None,
        *,
        secret_key: bytes = b"",
        snapshot_interval: int = 50,
        cache_size: int = 2000,
    ) -> None:
        super().__init__(env)
        self.snapshotting_intervals = {Game: snapshot_interval}  # type: ignore[misc]
        self.secret_key = secret_key or uuid.uuid4().bytes
        self.work: Work = NullWork()
        self.vacations: Any = None
        self.inbox: Any = None
        self.journal: Any = None
        self.listeners: list[Callable[[], None]] = []
        self._cache: OrderedDict[uuid.UUID, Game] = OrderedDict()
        self._cache_size = cache_size
        self.single_writer = False
        self.versions: VersionBoard | None = None
        self._cache_lock = threading.Lock()
        self._locks: dict[uuid.UUID, threading.RLock] = {}
        self._locks_lock = threading.Lock()
        self._seeds: dict[uuid.UUID, bytes] = {}

    def configure(
        self, *, secret_key: bytes, snapshot_interval: int, cache_size: int, single_writer: bool = False
    ) -> None:
        """Settings the projection runner cannot pass when it builds this application.

        ``single_writer`` says that no other process writes this store (the embedded
        default), so a cached game is current without asking the store."""
        self.secret_key = secret_key or self.secret_key
        self._seeds = {}
        self.snapshotting_intervals = {Game: snapshot_interval}  # type: ignore[misc]
        self._cache_size = cache_size
        self.single_writer = single_writer

    def construct_transcoder(self) -> Transcoder:
        transcoder = FastJSONTranscoder()
        self.register_transcodings(transcoder)
        return transcoder

    # ------------------------------------------------------------ seeds

    def seed(self, game_id: uuid.UUID) -> bytes:
        """The game's secret seed, derived from the server key and the game id (kept for
        the games in the cache: every move asks for it, for its draws and its end)."""
        seed = self._seeds.get(game_id)
        if seed is None:
            if len(self._seeds) > 4 * self._cache_size:
                self._seeds = {}
            seed = self._seeds[game_id] = hmac.new(
                self.secret_key, b"dragonhall-seed:" + game_id.bytes, hashlib.sha256
            ).digest()
        return seed

    def rng(self, game: Game, stream: str | None = None) -> Rng:
        return Rng(self.seed(game.id), stream or f"v{game.version}")

    # ------------------------------------------------------------ loading

    def load(self, game_id: uuid.UUID | str) -> Game:
        """The current game, as a private copy the caller may record events on."""
        gid = _uuid(game_id)
        with self._cache_lock:
            cached = self._cache.get(gid)
            if cached is not None:
                self._cache.move_to_end(gid)
        if cached is None:
            game = self._get(gid, None, game_id)
        elif self.single_writer or (self.versions is not None and self.versions.is_current(gid, cached.version)):
            return _copy(cached)
        else:
            game = _copy(cached)
            for event in self.events.get(gid, gt=cached.version):
                event.mutate(game)
        self._remember(game)
        return _copy(game)

    def remembered(self, game_id: uuid.UUID | str) -> Game:
        """The game as this process last saved or loaded it (loaded now if it has not):
        current as of this process's own last write, without asking the store again."""
        cached = self._cached(_uuid(game_id))
        return cached if cached is not None else self.load(game_id)

    def _cached(self, gid: uuid.UUID) -> Game | None:
        """A private copy of the cached game, unchecked against the store (None if not cached)."""
        with self._cache_lock:
            cached = self._cache.get(gid)
        return None if cached is None else _copy(cached)

    def load_at(self, game_id: uuid.UUID | str, version: int) -> Game:
        """The game as it stood at ``version`` (snapshots make this cheap)."""
        return self._get(_uuid(game_id), version, game_id)

    def _get(self, gid: uuid.UUID, version: int | None, asked: object) -> Game:
        """The stored game ``gid`` (at ``version``); a dispute's id, which names another kind of
        aggregate in the same store, is no game either."""
        try:
            game = self.repository.get(gid, version=version)
        except AggregateNotFoundError:
            game = None
        if not isinstance(game, Game):
            raise GameNotFound(f"no game {asked}" + ("" if version is None else f" at version {version}"))
        return game

    def _remember(self, game: Game) -> None:
        with self._cache_lock:
            old = self._cache.get(game.id)
            if old is None or old.version <= game.version:
                self._cache[game.id] = game
                self._cache.move_to_end(game.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)

    def lock(self, game_id: uuid.UUID) -> threading.RLock:
        with self._locks_lock:
            lock = self._locks.get(game_id)
            if lock is None:
                if len(self._locks) > 4 * self._cache_size:
                    self._locks.clear()
                lock = self._locks[game_id] = threading.RLock()
            return lock

    def commit(self, game: Game) -> list[Any]:
        """Saves the game's new events, remembers it, tells the workers; returns the events."""
        self._settle_clocks(game)
        events = list(game._pending_events)
        self._save_game(game)
        self._remember(game)
        self.work.game_changed(self, game)
        return events

    def _save_game(self, game: Game) -> None:
        """``Application.save`` for one game, without its generic per-object checks
        (``isinstance`` against runtime protocols, slow on every save in Python 3.11)."""
        processing = ProcessingEvent[uuid.UUID]()
        processing.events.extend(game.collect_events())
        processing.aggregates[game.id] = game
        recordings = self._record(processing)
        if self.versions is not None:
            self.versions.post(game.id, game.version)
        self._take_snapshots(processing)
        self._notify(recordings)

    def _take_snapshots(self, processing_event: Any) -> None:
        """Snapshots a game when a save crosses a multiple of the interval, from the
        saved aggregate itself rather than by reloading it from the store."""
        interval = self.snapshotting_intervals.get(Game)
        if not interval or self.snapshots is None:
            return
        for aggregate in processing_event.aggregates.values():
            if not isinstance(aggregate, Game):
                continue  # disputes are short: they are never snapshotted
            versions = [e.originator_version for e in processing_event.events if e.originator_id == aggregate.id]
            if versions and (min(versions) - 1) // interval != max(versions) // interval:
                self.snapshots.put([Game.Snapshot.take(aggregate)])

    def _notify(self, recordings: list[Recording[Any]]) -> None:
        for listener in list(self.listeners):
            listener()

    # ------------------------------------------------------------ commands

    def create_game(
        self,
        creator: str,
        game: str,
        variant: str | None,
        options: dict[str, Any] | None,
        players: int,
        time_control: dict[str, Any] | None = None,
        starts_at: datetime | None = None,
        settings: dict[str, Any] | None = None,
        sandbox_of: dict[str, Any] | None = None,
        game_id: uuid.UUID | None = None,
    ) -> Game:
        """Opens a table for ``players`` seats; it starts when the last seat fills."""
        try:
            ruleset = find_game(game)
            config = ruleset.configure(variant, options, players)
        except ConfigError as e:
            raise InvalidRequest(e.message, field=e.field) from None
        if starts_at is not None and starts_at <= clock.now():
            raise InvalidRequest("starts_at must be in the future", field="starts_at")
        game_id = game_id or uuid.uuid4()
        table = Game._create(
            Game.Created,
            id=game_id,
            game=ruleset.slug,
            variant=config.variant,
            options=ruleset.options_json(config),
            seats=players,
            creator=creator,
            time_control=dict(time_control or {"kind": "none"}),
            starts_at=starts_at.isoformat() if starts_at else None,
            seed_commitment=seed_commitment(self.seed(game_id)),
            engine=ruleset.engine_version,
            settings=dict(settings or {}),
            sandbox_of=sandbox_of,
        )
        self.commit(table)
        self._invite(table)
        return table

    def _invite(self, game: Game) -> None:
        if self.inbox is None:
            return
        for player_id in game.settings.get("invite", []):
            self.inbox.add(
                player_id,
                "invitation",
                f"invitation:{game.id}:{player_id}",
                str(game.id),
                {
                    "type": "invitation",
                    "game_id": str(game.id),
                    "game": game.game,
                    "variant": game.variant,
                    "creator": game.creator,
                    "starts_at": game.starts_at,
                },
            )

    def take_seat(
        self, game_id: str, player_id: str, name: str, kind: str, seat: int | None = None, bot: str | None = None
    ) -> Game:
        """Seats a player (or a server bot); starts the game when it is full."""
        gid = _uuid(game_id)
        with self.lock(gid):
            game = self.load(gid)
            if game.status == "active" and bot is None and game.ruleset.can_join(game.state):
                return self._join(game, player_id, name, kind)
            if game.status not in ("open", "scheduled"):
                raise SeatUnavailable(f"game {game_id} is {game.status}; no seat can be taken")
            free = game.free_seats()
            if seat is None:
                if not free:
                    raise SeatUnavailable(f"game {game_id} has no free seat")
                seat = free[0]
            elif seat not in free:
                raise SeatUnavailable(f"seat {seat} of game {game_id} is not free")
            if bot is not None:
                try:
                    game.ruleset.bot(bot)
                except ConfigError as e:
                    raise InvalidRequest(e.message, field="bot") from None
            game.trigger_event(Game.SeatTaken, seat=seat, player_id=player_id, name=name, kind=kind, bot=bot)
            if not game.free_seats() and game.status == "open":
                self._start(game)
            self._save_or_conflict(game)
            return game

    def add_bot(self, game_id: str, player_id: str, bot: str, seat: int | None = None) -> Game:
        """The creator seats a server bot."""
        if self.load(game_id).creator != player_id:
            raise NotCreator("only the game's creator may add a server bot")
        return self.take_seat(game_id, server_bot_id(bot), f"{bot} bot", "bot", seat, bot=bot)

    def _join(self, game: Game, player_id: str, name: str, kind: str) -> Game:
        """A newcomer takes the next seat of a running game, where its rules allow it: the creator,
        or a player the creator invited (a stranger who joined could read the game's journal and
        open disputes on it)."""
        if game.seats_of(player_id):
            raise SeatUnavailable(f"you already hold a seat in game {game.id}")
        if player_id != game.creator and player_id not in game.settings.get("invite", []):
            raise NotInvited(f"game {game.id} is running: only its creator and the players it invited may join it")
        events = game.ruleset.join(game.state, self.rng(game))
        game.record(
            Game.Joined,
            {"seat": len(game.seats), "player_id": player_id, "name": name, "kind": kind, "bot": None},
            events,
        )
        game.finish_if_over(self.seed(game.id).hex())
        self._save_or_conflict(game)
        return game

    def start(self, game_id: str, player_id: str) -> Game:
        """The creator starts a game early, with the seats taken so far."""
        gid = _uuid(game_id)
        with self.lock(gid):
            game = self.load(gid)
            if game.creator != player_id:
                raise NotCreator("only the game's creator may start it early")
            self._start_now(game)
            self._save_or_conflict(game)
            return game

    def _start_now(self, game: Game) -> None:
        if game.status not in ("open", "scheduled"):
            raise NotAcceptingMoves(f"game {game.id} is {game.status}; it cannot be started")
        variant = game.ruleset.variant(game.variant)
        if not variant.min_seats <= len(game.seats) <= variant.max_seats:
            raise SeatUnavailable(
                f"{game.ruleset.title} needs {variant.min_seats} to {variant.max_seats} seated players "
                f"to start; {len(game.seats)} are seated"
            )
        self._start(game)

    def _start(self, game: Game) -> None:
        """Records ``Started`` with the seats renumbered 0..n-1, then the opening events."""
        seats = sorted(game.seats, key=lambda s: s["seat"])
        seats = [{**s, "seat": i} for i, s in enumerate(seats)]
        game.trigger_event(Game.Started, seats=seats)
        events = game.ruleset.setup(game.state, self.rng(game, "setup"))
        game.record(None, {}, events)
        game.finish_if_over(self.seed(game.id).hex())

    def submit_move(
        self,
        game_id: str,
        player_id: str,
        move: Any,
        expected_version: int | None = None,
        command_id: str | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Plays ``move`` for the caller's awaited seat; returns the new version and events.
        A refused move writes no event; it is entered in the journal of refusals."""
        try:
            return self._submit_move(game_id, player_id, move, expected_version, command_id, seat)
        except (RuleError, ServiceError) as e:
            self._journal_refusal(game_id, player_id, seat, move, e)
            raise

    def _journal_refusal(self, game_id: str, player_id: str, seat: int | None, move: Any, error: Exception) -> None:
        """Journals a refused move of a player seated in the game, under a seat they hold
        (the one they named, else their awaited one): an outsider's request is no entry."""
        if self.journal is None or isinstance(error, GameNotFound):
            return
        game = self.load(game_id)
        mine = game.seats_of(player_id)
        if seat not in mine:
            seat = next((s for s in mine if s in game.awaiting), mine[0] if mine else None)
        if seat is not None:
            self.journal.refused(str(game.id), player_id, seat, game.version, move, error)

    def _submit_move(
        self,
        game_id: str,
        player_id: str,
        move: Any,
        expected_version: int | None,
        command_id: str | None,
        seat: int | None,
    ) -> dict[str, Any]:
        gid = _uuid(game_id)
        with self.lock(gid):
            for attempt in range(RETRIES):
                cached = self._cached(gid) if attempt == 0 else None
                game = cached if cached is not None else self.load(gid)
                try:
                    result = self._decide_move(game, player_id, move, expected_version, command_id, seat)
                except (RuleError, ServiceError):
                    if cached is None:
                        raise
                    continue  # judged on a copy that may be behind the store: judge again on a current one
                if result is not None:
                    return result
            raise StaleVersion(f"game {game_id} kept changing; try again", current_version=game.version)

    def _decide_move(
        self,
        game: Game,
        player_id: str,
        move: Any,
        expected_version: int | None,
        command_id: str | None,
        seat: int | None,
    ) -> dict[str, Any] | None:
        """Judges and saves one move on ``game``; None when another writer saved first.

        ``game`` may be this process's cached copy, not checked against the store:
        a save succeeds only at the store's next version, so a move saved from it
        was judged on the current game; a refusal is re-judged on a checked copy.
        """
        if command_id is not None:
            done = game.commands.get(f"{player_id}:{command_id}")
            if done is not None:
                if done["move"] != move:
                    raise CommandReused(f"command_id {command_id!r} was already used for another move")
                return self.decision_result(game, done["version"], player_id)
        if expected_version is not None and expected_version != game.version:
            raise StaleVersion(
                f"expected version {expected_version}, but game {game.id} is at version {game.version}",
                current_version=game.version,
            )
        acting = self._acting_seat(game, player_id, seat)
        command = game.ruleset.parse_move(move)
        events = game.ruleset.decide(game.state, acting, command, self.rng(game))
        game.record(
            Game.MoveMade,
            {
                "seat": acting,
                "player_id": player_id,
                "move": game.ruleset.commands.dump(command),
                "command_id": command_id,
            },
            events,
        )
        game.finish_if_over(self.seed(game.id).hex())
        saved = self._try_save(game)
        return None if saved is None else self._result(game, saved, player_id)

    def _acting_seat(self, game: Game, player_id: str, seat: int | None) -> int:
        if game.status != "active":
            raise NotAcceptingMoves(f"game {game.id} is {game.status}; it accepts no moves")
        mine = [s for s in game.seats_of(player_id) if s not in game.left]
        if not mine:
            raise NotAPlayer(f"you hold no seat in game {game.id}")
        if seat is not None:
            if seat not in mine:
                raise NotAPlayer(f"you do not hold seat {seat} in game {game.id}")
            return seat
        awaited = [s for s in mine if s in game.awaiting]
        return awaited[0] if awaited else mine[0]

    def resign(self, game_id: str, player_id: str, seat: int | None = None) -> dict[str, Any]:
        """The caller's seat leaves the game; the others play on if the rules allow."""
        gid = _uuid(game_id)
        with self.lock(gid):
            for _attempt in range(RETRIES):
                game = self.load(gid)
                acting = self._acting_seat(game, player_id, seat)
                events = game.ruleset.leave(game.state, acting, self.rng(game))
                game.record(Game.Resigned, {"seat": acting, "player_id": player_id}, events)
                game.finish_if_over(self.seed(game.id).hex())
                saved = self._try_save(game)
                if saved is not None:
                    return self._result(game, saved, player_id)
            raise StaleVersion(f"game {game_id} kept changing; try again")

    def play_for(
        self,
        game_id: str,
        seat: int,
        version: int,
        choose: Callable[[Game], Any],
        cause: type | None = None,
        cause_fields: dict[str, Any] | None = None,
    ) -> bool:
        """Plays ``seat``'s decision with ``choose(game) -> command`` (a bot), but only if
        the game is still at ``version`` and still awaits ``seat``: a late or duplicate
        task writes nothing. The choice is made outside the game's lock; the version
        is checked again under it before anything is written."""
        gid = _uuid(game_id)
        if not self.awaits(self.load(gid), seat, version):
            return False
        command = choose(self.load(gid))
        with self.lock(gid):
            game = self.load(gid)
            if not self.awaits(game, seat, version):
                return False
            events = game.ruleset.decide(game.state, seat, command, self.rng(game))
            info = game.seat_info(seat)
            if cause is not None:
                game.trigger_event(cause, **(cause_fields or {}))
            game.record(
                Game.MoveMade,
                {
                    "seat": seat,
                    "player_id": info["player_id"],
                    "move": game.ruleset.commands.dump(command),
                    "command_id": None,
                },
                events,
            )
            game.finish_if_over(self.seed(game.id).hex())
            try:
                self.commit(game)
            except IntegrityError:
                with self._cache_lock:
                    self._cache.pop(game.id, None)
                return False
            return True

    # ------------------------------------------------------------ visibility

    def revealed(self, game: Game) -> bool:
        """Whether everything about ``game`` is open to everyone: it has ended, and so has the
        game a sandbox was forked from (``services.visibility``)."""
        if not has_ended(game.status):
            return False
        origin = (game.sandbox_of or {}).get("game_id")
        if origin is None:
            return True
        try:
            return has_ended(self.load(origin).status)
        except GameNotFound:
            return True

    def viewer(self, game: Game, player_id: str | None, seat: int | None = None) -> Viewer:
        """Who ``player_id`` is at ``game``'s table (the platform's one viewer rule)."""
        return visibility.viewer(self.revealed(game), game.seats, player_id, seat)

    @staticmethod
    def awaits(game: Game, seat: int, version: int) -> bool:
        """Whether ``game`` is still at ``version`` and awaits ``seat``: the guard of every task."""
        return game.version == version and game.status == "active" and seat in game.awaiting and seat not in game.left

    def _try_save(self, game: Game) -> list[Any] | None:
        """The saved events, or None when another writer got there first (the caller loads the
        game again and decides what that means: a retried command finds its first result)."""
        try:
            return self.commit(game)
        except IntegrityError:
            with self._cache_lock:
                self._cache.pop(game.id, None)
            return None

    def _save_or_conflict(self, game: Game) -> None:
        if self._try_save(game) is None:
            raise StaleVersion(f"game {game.id} changed at the same time; try again")

    # ------------------------------------------------------------ results

    def decision_result(self, game: Game, first: int, player_id: str | None) -> dict[str, Any]:
        """``{version, events, replayed}`` of the decision recorded from version ``first``."""
        events = []
        for stored in self.events.get(game.id, gt=first - 1):
            if stored.originator_version > first and isinstance(stored, CAUSES):
                break
            events.append(stored)
        return {**self._result(game, events, player_id), "replayed": True}

    def _result(self, game: Game, events: list[Any], player_id: str | None) -> dict[str, Any]:
        viewer = self.viewer(game, player_id)
        out = [redact_stored_event(game.ruleset, e, viewer) for e in events]
        return {"version": events[-1].originator_version if events else game.version, "events": out}

    @staticmethod
    def game_uuid(game_id: uuid.UUID | str) -> uuid.UUID:
        return _uuid(game_id)

    def stored_events(self, game_id: str, after: int = 0) -> Iterable[Any]:
        return self.events.get(_uuid(game_id), gt=after)


def _uuid(game_id: uuid.UUID | str) -> uuid.UUID:
    if isinstance(game_id, uuid.UUID):
        return game_id
    try:
        return uuid.UUID(str(game_id))
    except ValueError:
        raise GameNotFound(f"no game {game_id}") from None


def _copy(game: Game) -> Game:
    """A shallow copy: the aggregate's fields are replaced, never mutated, so sharing is safe."""
    clone = object.__new__(Game)
    clone.__dict__.update(game.__dict__)
    clone.__dict__["_pending_events"] = []
    return clone


__all__ = ["GameService", "RuleError"]
