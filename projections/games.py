"""The game projection: keeps the list, the summaries and the boards from the events.

It matches on the stored event type and turns each event into row changes,
written with the event's tracking record in one transaction. Boards are folded
with the game's own ``evolve``; the latest states are kept in memory, and a
state that is not at hand is rebuilt from the event store (``self.app``).
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from eventsourcing.dispatch import singledispatchmethod
from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain.kernel import canonical_json, decode, find_game
from projections.views import Change, GameViewsSQL
from services.aggregate import Game

STATE_CACHE = 512


class GameProjection(Projection[GameViewsSQL]):
    """Materialises ``dh_games``, ``dh_game_players`` and ``dh_boards``."""

    name = "dragonhall_views"

    def __init__(self, view: GameViewsSQL) -> None:
        super().__init__(view)
        self.app: Any = None
        self._states: OrderedDict[str, tuple[int, Any]] = OrderedDict()
        self._meta: dict[str, dict[str, Any]] = {}
        self.listeners: list[Any] = []

    def _done(self, changes: list[Change], tracking: Tracking) -> None:
        self.view.apply(changes, tracking)
        for listener in list(self.listeners):
            listener()

    @singledispatchmethod
    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        """Events this projection does not use still move its position on."""
        self._done([], tracking)

    @process_event.register
    def _created(self, e: Game.Created, tracking: Tracking) -> None:
        gid = str(e.originator_id)
        at = e.timestamp.isoformat()
        row = {
            "game_id": gid, "game": e.game, "variant": e.variant,
            "status": "scheduled" if e.starts_at else "open", "version": e.originator_version,
            "seats": "[]", "planned_seats": e.seats, "awaiting": "[]", "creator": e.creator,
            "options": json.dumps(e.options), "time_control": json.dumps(e.time_control),
            "starts_at": e.starts_at, "created_at": at, "updated_at": at, "outcome": None,
            "sandbox": 1 if e.sandbox_of else 0, "seed_commitment": e.seed_commitment,
        }
        self._meta[gid] = {"game": e.game, "variant": e.variant, "options": e.options}
        cols = ", ".join(row)
        marks = ", ".join("?" for _ in row)
        self._done([(f"INSERT INTO {{p}}dh_games ({cols}) VALUES ({marks})", tuple(row.values())),
                    _touch_player(gid, e.creator)], tracking)

    @process_event.register
    def _seat_taken(self, e: Game.SeatTaken, tracking: Tracking) -> None:
        self._seats_changed(e, tracking, e.player_id, None)

    @process_event.register
    def _joined(self, e: Game.Joined, tracking: Tracking) -> None:
        self._seats_changed(e, tracking, e.player_id, None)

    def _seats_changed(self, e: Any, tracking: Tracking, player_id: str, status: str | None) -> None:
        gid = str(e.originator_id)
        seats = self._seats(gid)
        seats.append({"seat": e.seat, "player_id": e.player_id, "name": e.name, "kind": e.kind, "bot": e.bot})
        changes = [_update(gid, e, seats=json.dumps(sorted(seats, key=lambda s: s["seat"]))),
                   _touch_player(gid, player_id)]
        self._done(changes, tracking)

    @process_event.register
    def _started(self, e: Game.Started, tracking: Tracking) -> None:
        gid = str(e.originator_id)
        meta = self._game_meta(gid)
        ruleset = find_game(meta["game"])
        config = ruleset.configure(meta["variant"], meta["options"], len(e.seats))
        state = ruleset.initial(config)
        self._remember(gid, e.originator_version, state)
        changes = [_update(gid, e, seats=json.dumps(e.seats), status="active"),
                   _board(gid, e.originator_version, state)]
        self._done(changes, tracking)

    @process_event.register
    def _rule_event(self, e: Game.RuleEvent, tracking: Tracking) -> None:
        gid = str(e.originator_id)
        ruleset = find_game(self._game_meta(gid)["game"])
        state = self._state_before(gid, e.originator_version, ruleset)
        state = ruleset.evolve(state, ruleset.load_event(e.KIND, e.data))
        self._remember(gid, e.originator_version, state)
        changes = [_update(gid, e, awaiting=json.dumps(list(e.awaiting))), _board(gid, e.originator_version, state)]
        self._done(changes, tracking)

    @process_event.register
    def _finished(self, e: Game.Finished, tracking: Tracking) -> None:
        self._ended(e, tracking, "finished", e.outcome)

    @process_event.register
    def _abandoned(self, e: Game.Abandoned, tracking: Tracking) -> None:
        outcome = {"reason": e.reason, "places": [], "winners": [], "scores": None}
        self._ended(e, tracking, "abandoned", outcome)

    def _ended(self, e: Any, tracking: Tracking, status: str, outcome: dict[str, Any]) -> None:
        gid = str(e.originator_id)
        change = _update(gid, e, status=status, awaiting="[]", outcome=json.dumps(outcome))
        self._done([change], tracking)

    @process_event.register
    def _cause(self, e: Game.MoveMade, tracking: Tracking) -> None:
        self._bump(e, tracking)

    @process_event.register
    def _resigned(self, e: Game.Resigned, tracking: Tracking) -> None:
        self._bump(e, tracking)

    @process_event.register
    def _timed_out(self, e: Game.TurnTimedOut, tracking: Tracking) -> None:
        self._bump(e, tracking)

    def _bump(self, e: Any, tracking: Tracking) -> None:
        self._done([_update(str(e.originator_id), e)], tracking)

    # ------------------------------------------------------------ helpers

    def _game_meta(self, gid: str) -> dict[str, Any]:
        meta = self._meta.get(gid)
        if meta is None:
            row = self.view.game_summary(gid)
            assert row is not None, f"no summary row for game {gid}"
            meta = self._meta[gid] = {"game": row["game"], "variant": row["variant"], "options": row["options"]}
        return meta

    def _seats(self, gid: str) -> list[dict[str, Any]]:
        row = self.view.game_summary(gid)
        return list(row["seats"]) if row else []

    def _remember(self, gid: str, version: int, state: Any) -> None:
        self._states[gid] = (version, state)
        self._states.move_to_end(gid)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    def _state_before(self, gid: str, version: int, ruleset: Any) -> Any:
        held = self._states.get(gid)
        if held is not None and held[0] == version - 1:
            return held[1]
        board = self.view.board(gid)
        if board is not None and board[0] == version - 1 and board[1] is not None:
            return decode(ruleset.state_type, json.loads(board[1]))
        return self.app.repository.get(self.app_id(gid), version=version - 1).state

    @staticmethod
    def app_id(gid: str) -> Any:
        import uuid

        return uuid.UUID(gid)


def _update(gid: str, e: Any, **columns: Any) -> Change:
    columns = {"version": e.originator_version, "updated_at": e.timestamp.isoformat(), **columns}
    sets = ", ".join(f"{k} = ?" for k in columns)
    return f"UPDATE {{p}}dh_games SET {sets} WHERE game_id = ?", (*columns.values(), gid)


def _board(gid: str, version: int, state: Any) -> Change:
    return (
        "INSERT INTO {p}dh_boards (game_id, version, state) VALUES (?, ?, ?) "
        "ON CONFLICT (game_id) DO UPDATE SET version = excluded.version, state = excluded.state",
        (gid, version, canonical_json(state)),
    )


def _touch_player(gid: str, player_id: str) -> Change:
    return (
        "INSERT INTO {p}dh_game_players (game_id, player_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
        (gid, player_id),
    )
