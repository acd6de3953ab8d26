"""The game projection: keeps the list, the summaries and the boards from the events.

It matches on the stored event type and turns each event into row changes.
Within a batch the changes are coalesced (one summary update per game), then
written with the tracking record of the batch's last event in one transaction.

Boards are folded with the game's own ``evolve`` and kept in memory. A board row
is written when the game ends, when it has waited ``BOARD_LAG`` seconds, or when
the runner has been idle that long: most moves then cost no board write. A
row records the version it is folded up to, and readers use it only when that
is the game's last version (else they read the write model). After a restart, a
state not in memory is read back from its row if the row is current, or rebuilt
from the event store (``self.app``).
"""

from __future__ import annotations

import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from eventsourcing.domain import DomainEventProtocol
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.kernel import Ruleset, canonical_json, decode, find_game
from projections import set_aside
from projections.ratings import RatingBook
from projections.views import Change, GameViewsSQL
from services import clock, clocks
from services.account_feed import AccountFeed, Entry
from services.accounts import SERVER_BOT_PREFIX
from services.aggregate import Game
from services.event_store import EventStore
from services.timers import clocks_key

log = logging.getLogger(__name__)

STATE_CACHE = 4096
BOARD_LAG = 0.5
"""Seconds a board may wait in memory before its row is written, while the runner is busy."""


@dataclass
class Batch:
    """The row changes of a batch of events, coalesced per game."""

    inserts: list[Change] = field(default_factory=list)
    ended: set[str] = field(default_factory=set)
    timed: set[str] = field(default_factory=set)
    """Games whose awaited seats and clock columns are written once, after the batch's last event."""
    updates: dict[str, dict[str, Any]] = field(default_factory=dict)
    boards: dict[str, tuple[int, Any]] = field(default_factory=dict)
    feed: list[Entry] = field(default_factory=list)
    """The account events of the batch (``services.account_feed``)."""
    awaited_before: dict[str, list[int]] = field(default_factory=dict)
    """Each game's awaited seats before the batch's first change of them: a seat awaited after
    the batch and not before gets a ``your_turn``."""
    ratings: list[Change] = field(default_factory=list)
    """The rating tables' changes (``projections.ratings``), in event order: a player's rating
    after one game is the rating before the next."""

    def update(self, gid: str, e: Game.Event, **columns: Any) -> None:
        row = self.updates.setdefault(gid, {})
        row.update(version=e.originator_version, updated_at=e.timestamp.isoformat(), **columns)

    def write_board(self, gid: str, version: int, state: Any) -> None:
        self.boards[gid] = (version, state)

    def changes(self) -> list[Change]:
        out = list(self.inserts)
        for gid, columns in self.updates.items():
            sets = ", ".join(f"{k} = ?" for k in columns)
            out.append((f"UPDATE {{p}}dh_games SET {sets} WHERE game_id = ?", (*columns.values(), gid)))
        for gid, (version, state) in self.boards.items():
            out.append(
                (
                    "INSERT INTO {p}dh_boards (game_id, version, state) VALUES (?, ?, ?) "
                    "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state",
                    (gid, version, canonical_json(state)),
                )
            )
        out.extend(self.ratings)
        return out


class GameProjection(Projection[GameViewsSQL]):
    """Materialises ``dh_games``, ``dh_game_players`` and ``dh_boards``, and the rating tables
    through its ``RatingBook`` (``projections.ratings``)."""

    name = "dragonhall_views"
    feed: AccountFeed | None = None
    """Where the account events go: ``wiring`` runs a subclass that names its feed, so the
    projection has it from its first event. None keeps no feed."""

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self.app: EventStore | None = None
        """The event store, where a state that is neither in memory nor in its row is rebuilt from."""
        self.listeners: list[Callable[[], None]] = []
        """Called after every batch is written."""
        self._states: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._meta: dict[str, dict[str, Any]] = {}
        self._seats: dict[str, list[dict[str, Any]]] = {}
        self._clocks: dict[str, dict[str, Any]] = {}
        self._dirty: dict[str, float] = {}
        self.ratings = RatingBook(view)
        self._set_aside_games: set[str] | None = None
        self._caught_up: dict[str, int] = {}
        """The version up to which a game retried (``retry_set_aside``) was applied."""

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.process_batch([(domain_event, tracking)])

    def process_batch(self, items: Sequence[tuple[DomainEventProtocol[uuid.UUID], Tracking]]) -> None:
        """Applies a batch of events and records the position of its last one, atomically.

        A game whose event cannot be applied is set aside (``projections.set_aside``): the batch
        is projected again without that game's events, and the game's record is written with it.
        A write the database refuses for a reason other than itself (``set_aside.transient``) is
        tried again one event at a time, to find the game to set aside."""
        fresh: dict[str, tuple[int, str]] = {}
        while True:
            try:
                self._project(items, fresh)
                break
            except _Poisoned as p:
                self._forget(items)
                self._set_aside(fresh, items, p)
            except BaseException as e:
                self._forget(items)
                if set_aside.transient(e):
                    raise
                if len(items) > 1:
                    for item in items:
                        self.process_batch([item])
                    return
                self._set_aside(fresh, items, _Poisoned(str(items[0][0].originator_id), e))
        self._aside().update(fresh)
        for listener in list(self.listeners):
            listener()

    def _project(self, items: Sequence[tuple[DomainEventProtocol[uuid.UUID], Tracking]], fresh: Fresh) -> None:
        """One attempt at a batch, skipping the games set aside (before it, and ``fresh``)."""
        batch = Batch()
        aside = self._aside()
        skipped: dict[str, int] = {}
        gid = ""
        try:  # one handler for the batch, not a context per event: this loop is the runner's hot path
            for event, _tracking in items:
                gid, version = str(event.originator_id), event.originator_version
                if gid in aside or gid in fresh:
                    skipped[gid] = version
                    continue
                if version <= self._caught_up.get(gid, 0):  # applied when the game was retried
                    continue
                self.apply(event, batch)
                self._advance(gid, version)
        except Exception as e:
            if set_aside.transient(e):
                raise
            raise _Poisoned(gid, e) from e
        self._settle_timing(batch)
        self._announce_turns(batch)
        self._flush_boards(batch, idle=False)
        if self.feed is not None:  # first: written again, if the batch is, it is kept once
            self.feed.append(batch.feed)
        marks = set_aside.marks(fresh, skipped, clock.now().isoformat())
        self.view.apply([*batch.changes(), *marks], items[-1][1])

    def _set_aside(
        self, fresh: Fresh, items: Sequence[tuple[DomainEventProtocol[uuid.UUID], Tracking]], p: _Poisoned
    ) -> None:
        """Sets ``p``'s game aside from its first event in the batch (an error after the events,
        in the clocks or the board, may come of any of them)."""
        versions = [e.originator_version for e, _t in items if str(e.originator_id) == p.gid]
        held = self._states.get(p.gid)
        version = min(versions) if versions else (held[0] + 1 if held else 0)
        fresh[p.gid] = (version, set_aside.describe(p.error))
        self._forget_game(p.gid)
        log.error("the read models set aside game %s from version %s: %s", p.gid, version, fresh[p.gid][1])

    def _aside(self) -> set[str]:
        """The games set aside, read from the view on first use."""
        if self._set_aside_games is None:
            self._set_aside_games = {r["game_id"] for r in self.view.set_aside_games()}
        return self._set_aside_games

    def retry_set_aside(self, events_of: Callable[[str], Sequence[DomainEventProtocol[uuid.UUID]]]) -> None:
        """Applies every game set aside again from its first event (``events_of``), before the
        runner takes its first batch: a game the code now applies gets its rows back and leaves
        the record; its events the runner delivers later are skipped up to the version applied."""
        self._set_aside_games = None
        for gid in sorted(self._aside()):
            self._retry(gid, events_of)

    def _retry(self, gid: str, events_of: Callable[[str], Sequence[DomainEventProtocol[uuid.UUID]]]) -> None:
        self._forget_game(gid)
        events = list(events_of(gid))
        batch = Batch()
        try:
            with _blame(gid):
                for event in events:
                    self.apply(event, batch)
                    self._advance(gid, event.originator_version)
                self._settle_timing(batch)
                self._announce_turns(batch)
                self._flush_boards(batch, idle=True)
            if self.feed is not None:
                self.feed.append(batch.feed)
            self.view.write([*set_aside.cleared(gid), *batch.changes()])
        except _Poisoned as p:
            self._forget_game(gid)
            self.ratings.forget()
            last = events[-1].originator_version if events else 0
            self.view.write([set_aside.still(gid, set_aside.describe(p.error), last, clock.now().isoformat())])
            log.error("game %s is still set aside: %s", gid, set_aside.describe(p.error))
            return
        except BaseException:
            self._forget_game(gid)
            self.ratings.forget()
            raise
        self._aside().discard(gid)
        if events:
            self._caught_up[gid] = events[-1].originator_version
        log.warning("game %s, set aside, is back in the read models (version %s)", gid, len(events))

    def flush(self) -> None:
        """Writes out every board still held in memory (when the runner is idle, and at shutdown)."""
        if not self._dirty:
            return
        batch = Batch()
        self._flush_boards(batch, idle=True)
        if batch.boards:
            self.view.write(batch.changes())

    def _forget(self, items: Sequence[tuple[DomainEventProtocol[uuid.UUID], Tracking]]) -> None:
        """After a failed write, drops what memory learnt from the batch: the tables are the truth."""
        self.ratings.forget()
        for event, _tracking in items:
            self._forget_game(str(event.originator_id))

    def _forget_game(self, gid: str) -> None:
        self._states.pop(gid, None)
        self._meta.pop(gid, None)
        self._seats.pop(gid, None)
        self._clocks.pop(gid, None)
        self._dirty.pop(gid, None)

    def _advance(self, gid: str, version: int) -> None:
        """Every event of a game moves its board's version on, even those that leave it as it was."""
        held = self._states.get(gid)
        if held is not None and held[0] == version - 1:
            self._states[gid] = (version, held[1])
            self._touch(gid)

    def _flush_boards(self, batch: Batch, idle: bool) -> None:
        now = time.monotonic()
        for gid, since in list(self._dirty.items()):
            if idle or now - since >= BOARD_LAG or gid in batch.ended:
                held = self._states.get(gid)
                if held is not None:
                    batch.write_board(gid, held[0], held[1])
                self._dirty.pop(gid, None)  # flush() at shutdown may race the runner's own

    def apply(self, event: DomainEventProtocol[uuid.UUID], batch: Batch) -> None:
        """Turns one event into row changes. Events this projection does not use only
        move its position on. (A dict lookup per event type: ``singledispatchmethod``
        costs several times more per call, and this runs for every event.)"""
        handler = _handler(type(event))
        if handler is not None:
            handler(self, event, batch)

    def _created(self, e: Game.Created, batch: Batch) -> None:
        gid = str(e.originator_id)
        at = e.timestamp.isoformat()
        row = {
            "game_id": gid,
            "game": e.game,
            "variant": e.variant,
            "status": "scheduled" if e.starts_at else "open",
            "version": e.originator_version,
            "seats": "[]",
            "planned_seats": e.seats,
            "awaiting": "[]",
            "creator": e.creator,
            "options": json.dumps(e.options),
            "time_control": json.dumps(e.time_control),
            "starts_at": e.starts_at,
            "created_at": at,
            "updated_at": at,
            "outcome": None,
            "sandbox": 1 if e.sandbox_of else 0,
            "seed_commitment": e.seed_commitment,
        }
        self._meta[gid] = {
            "game": e.game,
            "variant": e.variant,
            "options": e.options,
            "tc": e.time_control,
            "sandbox": bool(e.sandbox_of),
        }
        self._seats[gid] = []
        self._clocks[gid] = {"turns": {}, "banks": {}, "awaiting": []}
        rated = bool(e.settings.get("rated", True))
        batch.ratings.extend(self.ratings.created(gid, e.game, e.variant, rated, bool(e.sandbox_of)))
        if e.starts_at:
            row["next_deadline"] = clocks_key(clocks.parse(e.starts_at))
        marks = ", ".join("?" for _ in row)
        batch.inserts.append((f"INSERT INTO {{p}}dh_games ({', '.join(row)}) VALUES ({marks})", tuple(row.values())))
        batch.inserts.append(_player(gid, e.creator))

    def _seat_taken(self, e: Game.SeatTaken, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _joined(self, e: Game.Joined, batch: Batch) -> None:
        self._seat_added(e, batch)

    def _seat_added(self, e: Game.SeatTaken | Game.Joined, batch: Batch) -> None:
        gid = str(e.originator_id)
        bank = clocks.initial_bank(self._game_meta(gid)["tc"])
        if bank is not None and isinstance(e, Game.Joined):
            self._clock_of(gid)["banks"][str(e.seat)] = bank
        seats = [
            *self._seats_of(gid),
            {"seat": e.seat, "player_id": e.player_id, "name": e.name, "kind": e.kind, "bot": e.bot},
        ]
        seats.sort(key=lambda s: s["seat"])
        self._seats[gid] = seats
        batch.update(gid, e, seats=json.dumps(seats))
        batch.inserts.append(_player(gid, e.player_id))

    def _started(self, e: Game.Started, batch: Batch) -> None:
        gid = str(e.originator_id)
        meta = self._game_meta(gid)
        ruleset = find_game(meta["game"])
        state = ruleset.initial(ruleset.configure(meta["variant"], meta["options"], len(e.seats)))
        self._seats[gid] = [dict(s) for s in e.seats]
        self._remember(gid, e.originator_version, state)
        bank = clocks.initial_bank(meta["tc"])
        if bank is not None:
            self._clock_of(gid)["banks"] = {str(s["seat"]): bank for s in e.seats}
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)
        batch.awaited_before.setdefault(gid, [])
        self._tell_seats(batch, gid, e, "game_started", {})
        self._touch(gid)

    def _forked(self, e: Game.Forked, batch: Batch) -> None:
        gid = str(e.originator_id)
        ruleset = find_game(self._game_meta(gid)["game"])
        state = decode(ruleset.state_type, e.state)
        self._seats[gid] = [dict(s) for s in e.seats]
        self._remember(gid, e.originator_version, state)
        held = self._clock_of(gid)
        held["turns"], _ended = clocks.turns_after(held["turns"], e.awaiting, e.timestamp.isoformat())
        held["awaiting"] = list(e.awaiting)
        batch.update(gid, e, seats=json.dumps(e.seats), status="active")
        batch.timed.add(gid)
        self._touch(gid)

    def _rule_event(self, e: Game.RuleEvent, batch: Batch) -> None:
        """Folds the board; at the event that closes its decision, moves the awaited seats
        and their turns (as the aggregate does: ``services.clocks``)."""
        gid = str(e.originator_id)
        ruleset = find_game(self._game_meta(gid)["game"])
        state = self._state_before(gid, e.originator_version, ruleset)
        state = ruleset.evolve(state, ruleset.load_event(e.KIND, e.data))
        self._remember(gid, e.originator_version, state)
        batch.update(gid, e)
        if clocks.closes_decision(e):
            held = self._clock_of(gid)
            batch.awaited_before.setdefault(gid, list(held["awaiting"]))
            held["turns"], _ended = clocks.turns_after(held["turns"], e.awaiting, e.timestamp.isoformat())
            held["awaiting"] = list(e.awaiting)
            batch.timed.add(gid)
        self._touch(gid)

    def _clock_settled(self, e: Game.ClockSettled, batch: Batch) -> None:
        gid = str(e.originator_id)
        held = self._clock_of(gid)
        held["banks"] = {**held["banks"], **e.banks}
        batch.update(gid, e)
        batch.timed.add(gid)

    def _finished(self, e: Game.Finished, batch: Batch) -> None:
        gid = str(e.originator_id)
        at = e.timestamp.isoformat()
        batch.ratings.extend(self.ratings.ended(gid, "finished", self._seats_of(gid), e.outcome["places"], at))
        batch.ended.add(str(e.originator_id))
        self._tell_seats(batch, str(e.originator_id), e, "game_finished", {"status": "finished", "outcome": e.outcome})
        batch.update(
            str(e.originator_id), e, status="finished", awaiting="[]", outcome=json.dumps(e.outcome), **_NO_TIMING
        )

    def _abandoned(self, e: Game.Abandoned, batch: Batch) -> None:
        outcome = e.outcome
        gid = str(e.originator_id)
        batch.ratings.extend(self.ratings.ended(gid, "abandoned", self._seats_of(gid), [], e.timestamp.isoformat()))
        batch.ended.add(str(e.originator_id))
        self._tell_seats(batch, str(e.originator_id), e, "game_finished", {"status": "abandoned", "outcome": outcome})
        batch.update(
            str(e.originator_id), e, status="abandoned", awaiting="[]", outcome=json.dumps(outcome), **_NO_TIMING
        )

    def _move(self, e: Game.MoveMade, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)
        batch.ratings.extend(self.ratings.decided(str(e.originator_id)))

    def _resigned(self, e: Game.Resigned, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)
        batch.ratings.extend(self.ratings.decided(str(e.originator_id)))

    def _timed_out(self, e: Game.TurnTimedOut, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)
        self._tell_seats(batch, str(e.originator_id), e, "timeout", {"timed_out_seat": e.seat, "policy": e.policy})

    def _policy_played(self, e: Game.PolicyPlayed, batch: Batch) -> None:
        batch.update(str(e.originator_id), e)

    # ------------------------------------------------------------ account events

    def _tell_seats(self, batch: Batch, gid: str, e: Game.Event, kind: str, facts: dict[str, Any]) -> None:
        """A ``kind`` account event for every account seated in the game (not server bots, not
        in sandboxes): facts every seat may know."""
        meta = self._game_meta(gid)
        if meta.get("sandbox"):
            return
        version = e.originator_version
        for s in self._seats_of(gid):
            pid = s["player_id"]
            if pid.startswith(SERVER_BOT_PREFIX):
                continue
            payload = {"game": meta["game"], "variant": meta["variant"], "seat": s["seat"], "version": version, **facts}
            batch.feed.append(Entry(pid, kind, f"{kind}:{gid}:{version}:{s['seat']}", gid, payload))

    def _announce_turns(self, batch: Batch) -> None:
        """A ``your_turn`` for each account seat awaited after the batch and not before it."""
        for gid, before in batch.awaited_before.items():
            with _blame(gid):
                self._announce_turns_of(batch, gid, before)

    def _announce_turns_of(self, batch: Batch, gid: str, before: list[int]) -> None:
        meta = self._game_meta(gid)
        if gid in batch.ended or meta.get("sandbox"):
            return
        held = self._clock_of(gid)
        seats = {s["seat"]: s for s in self._seats_of(gid)}
        version = batch.updates[gid]["version"]
        for seat in sorted(set(held["awaiting"]) - set(before)):
            pid = seats.get(seat, {}).get("player_id")
            if pid is None or pid.startswith(SERVER_BOT_PREFIX):
                continue
            payload = {
                "game": meta["game"],
                "variant": meta["variant"],
                "seat": seat,
                "version": version,
                "deadline": self._deadline(gid, seat),
                "turn_started": held["turns"].get(str(seat)),
            }
            batch.feed.append(Entry(pid, "your_turn", f"your_turn:{gid}:{version}:{seat}", gid, payload))

    def _deadline(self, gid: str, seat: int) -> str | None:
        """When the seat's turn times out, before vacation days (which only push it later): the
        feed pushes it by the player's vacation days when it is read (``AccountFeed.since``)."""
        held = self._clock_of(gid)
        due = clocks.deadline(self._game_meta(gid)["tc"], held["turns"].get(str(seat)), held["banks"].get(str(seat)))
        return due.isoformat() if due else None

    # ------------------------------------------------------------ clocks

    def _clock_of(self, gid: str) -> dict[str, Any]:
        if gid not in self._clocks:
            row = self.view.game_summary(gid)
            held = (row or {}).get("clock") or {}
            self._clocks[gid] = {
                "turns": dict(held.get("turns", {})),
                "banks": dict(held.get("banks", {})),
                "awaiting": list((row or {}).get("awaiting", [])),
            }
        return self._clocks[gid]

    def _settle_timing(self, batch: Batch) -> None:
        """Writes each timed game's awaited seats and clock columns as they stand after
        the batch: a move's several rule events then cost one computation, not one each."""
        for gid in batch.timed:
            with _blame(gid):
                columns = {"awaiting": json.dumps(self._clock_of(gid)["awaiting"]), **self._timing(gid)}
            if gid in batch.ended:  # the clock as it stopped; nothing awaited, nothing due
                columns.update(awaiting="[]", **_NO_TIMING)
            batch.updates[gid].update(columns)

    def _timing(self, gid: str) -> dict[str, Any]:
        """The clock columns: turn starts and banks, and the next deadline and reminder
        (without vacation days, which only ever push them later) for the sweep's index."""
        held = self._clock_of(gid)
        tc = self._game_meta(gid)["tc"]
        turns, banks = held["turns"].items(), held["banks"]
        deadlines = [d for seat, since in turns if (d := clocks.deadline(tc, since, banks.get(seat))) is not None]
        reminders = [r for seat, since in turns if (r := clocks.reminder(tc, since, banks.get(seat))) is not None]
        seats = {s["seat"]: s for s in self._seats_of(gid)}
        bots = any(seats.get(s, {}).get("bot") for s in held["awaiting"])
        return {
            "clock": json.dumps({"turns": held["turns"], "banks": held["banks"]}),
            "next_deadline": clocks_key(min(deadlines)) if deadlines else None,
            "next_reminder": clocks_key(min(reminders)) if reminders else None,
            "bots_awaited": 1 if bots else 0,
        }

    # ------------------------------------------------------------ memory

    def _game_meta(self, gid: str) -> dict[str, Any]:
        meta = self._meta.get(gid)
        if meta is None:
            row = self.view.game_summary(gid)
            if row is None:
                raise LookupError(f"no summary row for game {gid}")
            meta = self._meta[gid] = {
                "game": row["game"],
                "variant": row["variant"],
                "options": row["options"],
                "tc": row["time_control"],
                "sandbox": bool(row["sandbox"]),
            }
        return meta

    def _seats_of(self, gid: str) -> list[dict[str, Any]]:
        if gid not in self._seats:
            row = self.view.game_summary(gid)
            self._seats[gid] = list(row["seats"]) if row else []
        return self._seats[gid]

    def _touch(self, gid: str) -> None:
        self._dirty.setdefault(gid, time.monotonic())

    def _remember(self, gid: str, version: int, state: Any) -> None:
        self._states[gid] = (version, state)
        self._states.move_to_end(gid)
        while len(self._states) > STATE_CACHE:
            old = next(iter(self._states))
            if old in self._dirty:  # write it out before forgetting it
                self._states.move_to_end(old)
                self._dirty[old] = 0.0
                break
            self._states.popitem(last=False)

    def _state_before(self, gid: str, version: int, ruleset: Ruleset[Any]) -> Any:
        """The game's state just before ``version``. Events reach this projection in
        order and every batch is written whole, so the state in memory, or else the
        board row, is the state after every earlier event of the game."""
        held = self._states.get(gid)
        if held is not None:
            return held[1]
        board = self.view.board(gid)
        if board is not None and board[0] == version - 1 and board[1] is not None:
            return decode(ruleset.state_type, json.loads(board[1]))
        if self.app is None:  # set by the runner that feeds this projection (``wiring``)
            raise LookupError(f"no event store to rebuild game {gid} at version {version - 1} from")
        return self.app.repository.get(uuid.UUID(gid), version=version - 1).state


Fresh = dict[str, tuple[int, str]]
"""Games set aside during a batch: from which version, and why."""


class _Poisoned(Exception):
    """One game's events cannot be projected: ``error`` came of them, not of the database."""

    def __init__(self, gid: str, error: BaseException) -> None:
        super().__init__(gid, error)
        self.gid = gid
        self.error = error


@contextmanager
def _blame(gid: str) -> Iterator[None]:
    """Turns an error that is not ``set_aside.transient`` into one that names game ``gid``."""
    try:
        yield
    except _Poisoned:
        raise
    except Exception as e:
        if set_aside.transient(e):
            raise
        raise _Poisoned(gid, e) from e


_NO_TIMING = {"next_deadline": None, "next_reminder": None, "bots_awaited": 0}


def _player(gid: str, player_id: str) -> Change:
    return (
        "INSERT INTO {p}dh_game_players (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (gid, player_id),
    )


_Handler = Callable[[GameProjection, Any, Batch], None]
_HANDLERS: dict[type, _Handler] = {
    Game.Created: GameProjection._created,
    Game.SeatTaken: GameProjection._seat_taken,
    Game.Joined: GameProjection._joined,
    Game.Started: GameProjection._started,
    Game.Forked: GameProjection._forked,
    Game.RuleEvent: GameProjection._rule_event,
    Game.ClockSettled: GameProjection._clock_settled,
    Game.Finished: GameProjection._finished,
    Game.Abandoned: GameProjection._abandoned,
    Game.MoveMade: GameProjection._move,
    Game.Resigned: GameProjection._resigned,
    Game.TurnTimedOut: GameProjection._timed_out,
    Game.PolicyPlayed: GameProjection._policy_played,
}


@cache
def _handler(cls: type) -> _Handler | None:
    """The handler of an event class: its own, or its nearest base's (rule events are
    subclasses of ``Game.RuleEvent`` made per game)."""
    return next((_HANDLERS[base] for base in cls.__mro__ if base in _HANDLERS), None)
