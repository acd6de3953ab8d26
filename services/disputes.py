"""Disputes: a claim about one version of a game, answered from the rules, with a sandbox.

A seat (or anyone, once the game has ended) opens a dispute on version N with a
claim and, optionally, the move they say should have been legal or illegal. The
server answers from the rules at N: whether that move is legal there (and what
it would have caused, or the rule that refuses it), the legal moves at N, the
decision actually taken, and the game's verification. It forks a *sandbox*: a
new game, marked as such and kept out of lists, that starts from the state at N,
where the claim can be played out. While the game runs, the sandbox starts from
what the opener could know (everything hidden from them resampled), so it
reveals no secret and no future card or roll.

A dispute is its own event stream. Resolving it is an event in the dispute,
never an edit of the game's history.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import uuid
from typing import Any

from eventsourcing.application import AggregateNotFoundError
from eventsourcing.domain import Aggregate

from domain.kernel import Rng, RuleError, Viewer, encode, seed_commitment, state_hash
from services.aggregate import Game, _Timed
from services.errors import InvalidRequest, NotAPlayer, NotCreator, ServiceError
from services.records import audit_trail
from services.redaction import redact_stored_event
from services.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_disputes (
        dispute_id TEXT PRIMARY KEY,
        game_id TEXT NOT NULL,
        opener TEXT NOT NULL,
        opened_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS dh_disputes_game ON dh_disputes (game_id)",
]
VERDICTS = ("upheld", "rejected", "withdrawn")


class DisputeNotFound(ServiceError):
    code = "dispute_not_found"


class Dispute(Aggregate):
    """One claim about one version of a game, its answer and its resolution."""

    TOPIC = "dragonhall:Dispute"

    class Created(_Timed, Aggregate.Created):
        """The dispute was opened about ``game_version`` of its game.

        Version 1 of this event named that field ``version``, which also set the
        dispute's own version (an aggregate's ``version`` attribute), so the events
        after it were numbered from the game version, and a dispute about a late
        version of a game crossed the snapshot interval and failed to save. A stored
        version 1 event is read with both numbers (``upcast_v1_v2``), so the disputes
        it opened still load.
        """

        TOPIC = "dragonhall:Dispute.Opened"
        class_version = 2
        game_id: str
        game_version: int
        claim: str
        move: dict[str, Any] | None
        seat: int | None
        opener: str
        numbered_from: int | None = None

        @staticmethod
        def upcast_v1_v2(state: dict[str, Any]) -> None:
            state["game_version"] = state["numbered_from"] = state.pop("version")

    class Answered(_Timed, Aggregate.Event):
        TOPIC = "dragonhall:Dispute.Answered"
        answer: dict[str, Any]

        def apply(self, dispute: Dispute) -> None:
            dispute.answer = dict(self.answer)

    class Resolved(_Timed, Aggregate.Event):
        TOPIC = "dragonhall:Dispute.Resolved"
        verdict: str
        note: str
        by: str

        def apply(self, dispute: Dispute) -> None:
            dispute.resolution = {"verdict": self.verdict, "note": self.note, "by": self.by,
                                  "at": self.timestamp.isoformat()}

    def __init__(self, game_id: str, game_version: int, claim: str, move: dict[str, Any] | None, seat: int | None,
                 opener: str, numbered_from: int | None = None) -> None:
        self.game_id = game_id
        self.game_version = game_version
        if numbered_from is not None:
            self.version = numbered_from  # a version 1 event's numbering (see Created)
        self.claim = claim
        self.move = move
        self.seat = seat
        self.opener = opener
        self.opened_at = self.created_on.isoformat()
        self.answer: dict[str, Any] | None = None
        self.resolution: dict[str, Any] | None = None


class Disputes:
    """Opens, answers, shows and resolves disputes."""

    def __init__(self, games: Any, db: SqlStore) -> None:
        self.games = games
        self.db = db
        self.db.script(TABLES)

    def open(self, game_id: str, opener: str, version: int, claim: str, move: dict[str, Any] | None,
             seat: int | None) -> dict[str, Any]:
        game = self.games.load(game_id)
        over = game.status in ("finished", "abandoned")
        mine = game.seats_of(opener)
        if not over and not mine:
            raise NotAPlayer("while a game runs, only its seats may open a dispute")
        if not 1 <= version <= game.version:
            raise InvalidRequest(f"version {version} is outside 1..{game.version}", field="version")
        past = self.games.load_at(game_id, version)
        if past.state is None:
            raise InvalidRequest(f"the game had not started at version {version}", field="version")
        seat = self._seat(past, mine, seat, over)
        dispute = Dispute(game_id=str(game.id), game_version=version, claim=claim, move=move, seat=seat,
                          opener=opener)
        answer = self._answer(dispute, game, past, seat, move, over)
        dispute.trigger_event(Dispute.Answered, answer=answer)
        self.games.save(dispute)
        self.db.execute("INSERT INTO dh_disputes (dispute_id, game_id, opener, opened_at) VALUES (?, ?, ?, ?)",
                        (str(dispute.id), str(game.id), opener, dispute.opened_at))
        return self.document(str(dispute.id), opener)

    @staticmethod
    def _seat(past: Game, mine: list[int], seat: int | None, over: bool) -> int:
        if seat is None:
            awaited = [s for s in past.awaiting if s in mine] or list(past.awaiting) or mine or [0]
            seat = awaited[0] if over or awaited[0] in mine else mine[0]
        if not over and seat not in mine:
            raise NotAPlayer("while a game runs, a dispute may only be about your own seat")
        if not any(s["seat"] == seat for s in past.seats):
            raise InvalidRequest(f"there is no seat {seat}", field="seat")
        return seat

    def _answer(self, dispute: Dispute, game: Game, past: Game, seat: int, move: dict[str, Any] | None,
                over: bool) -> dict[str, Any]:
        ruleset = past.ruleset
        seed = self._seed(dispute)
        legal = [ruleset.commands.dump(m) for m in ruleset.legal_moves(past.state, seat)]
        answer: dict[str, Any] = {"seat": seat, "legal_moves": legal, "awaiting": list(past.awaiting),
                                  "move": self._judge(ruleset, past, seat, move, seed)}
        audit = audit_trail(self.games, str(game.id), dispute.opener if not over else None)
        answer["verification"] = {"verified": audit["verified"], "verdict": audit["verdict"],
                                  "first_bad_step": audit["first_bad_step"]}
        answer["actual"] = self._actual(game, past.version, dispute.opener)
        answer["sandbox_id"] = self._fork(dispute, game, past, seat, over, seed)
        return answer

    @staticmethod
    def _judge(ruleset: Any, past: Game, seat: int, move: dict[str, Any] | None, seed: bytes) -> dict[str, Any]:
        if move is None:
            return {"evaluated": False}
        try:
            events = ruleset.decide(past.state, seat, ruleset.parse_move(move), Rng(seed, "claim"))
        except RuleError as e:
            return {"evaluated": True, "legal": False, "code": e.code, "message": e.message, "rule": e.rule.to_json()}
        return {"evaluated": True, "legal": True,
                "events": [{"type": e.TYPE, "data": e.visible_data(Viewer.of(seat))} for e in events],
                "rules": [e.rule().to_json() for e in events]}

    def _actual(self, game: Game, version: int, opener: str) -> list[dict[str, Any]]:
        """The decision actually taken right after ``version``, as the opener may see it."""
        viewer = game.viewer_for(opener)
        out = []
        for stored in self.games.stored_events(str(game.id), after=version):
            e = redact_stored_event(game.ruleset, stored, viewer)
            if out and e["source"] == "platform" and e["type"] != "ClockSettled":
                break
            out.append(e)
        return out

    def _fork(self, dispute: Dispute, game: Game, past: Game, seat: int, over: bool, seed: bytes) -> str:
        """A sandbox game from the state at the disputed version, every seat held by the opener."""
        state = past.state if over else past.ruleset.observe(past.state, seat, random.Random(seed))
        sandbox_id = uuid.uuid5(dispute.id, "sandbox")
        sandbox_seed = self.games.seed(sandbox_id)
        seats = [{**s, "player_id": dispute.opener, "name": f"{s['name']} (sandbox)"} for s in past.seats]
        table = Game._create(
            Game.Created, id=sandbox_id, game=game.game, variant=game.variant, options=game.options,
            seats=len(seats), creator=dispute.opener, time_control={"kind": "none"}, starts_at=None,
            seed_commitment=seed_commitment(sandbox_seed), engine=game.engine, settings={},
            sandbox_of={"game_id": str(game.id), "version": past.version, "dispute_id": str(dispute.id)},
        )
        table.trigger_event(Game.Forked, seats=seats, state=encode(state), state_hash=state_hash(state),
                            awaiting=list(past.ruleset.awaiting(state)))
        table.finish_if_over(sandbox_seed.hex())
        self.games.commit(table)
        return str(sandbox_id)

    def _seed(self, dispute: Dispute) -> bytes:
        return hmac.new(self.games.secret_key, b"dragonhall-dispute:" + dispute.id.bytes, hashlib.sha256).digest()

    # ------------------------------------------------------------ reads and resolution

    def _load(self, dispute_id: str) -> Dispute:
        try:
            return self.games.repository.get(uuid.UUID(str(dispute_id)))  # type: ignore[no-any-return]
        except (AggregateNotFoundError, ValueError):
            raise DisputeNotFound(f"no dispute {dispute_id}") from None

    def document(self, dispute_id: str, player_id: str | None) -> dict[str, Any]:
        """The dispute; while its game runs, only the opener sees the answer (it shows their hand)."""
        dispute = self._load(dispute_id)
        if not isinstance(dispute, Dispute):
            raise DisputeNotFound(f"no dispute {dispute_id}")
        game = self.games.load(dispute.game_id)
        over = game.status in ("finished", "abandoned")
        visible = over or player_id == dispute.opener
        return {"id": str(dispute.id), "game_id": dispute.game_id, "version": dispute.game_version,
                "claim": dispute.claim, "move": dispute.move if visible else None, "seat": dispute.seat,
                "opener": dispute.opener, "opened_at": dispute.opened_at,
                "answer": dispute.answer if visible else None, "resolution": dispute.resolution}

    def of_game(self, game_id: str, player_id: str | None) -> list[dict[str, Any]]:
        rows = self.db.query("SELECT dispute_id FROM dh_disputes WHERE game_id = ? ORDER BY opened_at", (game_id,))
        return [self.document(r["dispute_id"], player_id) for r in rows]

    def resolve(self, dispute_id: str, player_id: str, verdict: str, note: str) -> dict[str, Any]:
        """The game's creator (its arbiter) upholds or rejects; the opener may withdraw."""
        dispute = self._load(dispute_id)
        game = self.games.load(dispute.game_id)
        if dispute.resolution is not None:
            raise InvalidRequest("the dispute is already resolved", field="verdict")
        if verdict == "withdrawn" and player_id != dispute.opener:
            raise NotCreator("only the opener may withdraw a dispute")
        if verdict != "withdrawn" and player_id != game.creator:
            raise NotCreator("only the game's creator may uphold or reject a dispute")
        dispute.trigger_event(Dispute.Resolved, verdict=verdict, note=note, by=player_id)
        self.games.save(dispute)
        return self.document(dispute_id, player_id)
