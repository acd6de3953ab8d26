"""Disputes: a claim about one version of a game, answered from the rules.

A seat (or anyone, once the game has ended) opens a dispute on version N with a
claim and, optionally, the move they say should have been legal or illegal. The
answer depends on whether the game is still running:

* **While it runs**, the answer may give the opener nothing they could not learn
  by playing. It says whether the claimed decision is legal at N for the
  opener's own seat, citing the rule that refuses it, decided on a position the
  opener cannot tell from the true one (``observe``: everything hidden from them
  resampled); it shows no consequence of the decision (no automatic event, no
  chance outcome, no geometric outcome: the rulebooks forbid trying a plank, a
  trajectory or a fireball's range before deciding), and no sandbox. While the
  game runs only the opener reads the dispute's move and answer.
* **Once it has ended**, everything is open: the claimed decision is judged on
  the true position with the events it would have caused, and a *sandbox* is
  forked from the state at N, a game of its own where the claim can be played
  out. A dispute opened while the game ran gets its sandbox on request once the
  game has ended (``fork``).

A dispute is its own event stream. Resolving it is an event in the dispute,
never an edit of the game's history. Its arbiters are the accounts the operator
names (``DRAGONHALL_ARBITERS``) and the game's creator when the creator holds no
seat in the game; nobody who holds a seat in the game arbitrates it. The opener
may withdraw their own dispute.
"""

from __future__ import annotations

import hashlib
import hmac
import random
import uuid
from typing import TYPE_CHECKING, Any

from domain.kernel import Rng, RuleError, Viewer, encode, seed_commitment, state_hash
from domain.kernel.narration import seat_names
from services.accounts.account_feed import AccountFeed, Entry
from services.accounts.players import SERVER_BOT_PREFIX
from services.audits.dispute_aggregate import Dispute
from services.audits.dispute_errors import DisputeNotFound, DisputeResolved
from services.audits.records import audit_trail
from services.common.errors import InvalidRequest, NotAcceptingMoves, NotAPlayer, NotArbiter, NotCreator
from services.common.sqlstore import SqlStore
from services.play import sandbox_chance
from services.play.aggregate import Game
from services.reads.redaction import redact_stored_event
from services.reads.seat_names import as_named

if TYPE_CHECKING:
    from services.play.games import GameService

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
MAX_PER_OPENER = 20
"""Disputes one account may open about one game."""
RUNNING = (
    "while the game runs, a dispute says only whether the decision is legal for your seat: "
    "what it would cause, and a sandbox to play it out, come once the game has ended"
)


class Disputes:
    """Opens, answers, shows and resolves disputes."""

    def __init__(
        self, games: GameService, db: SqlStore, arbiters: frozenset[str] = frozenset(), feed: AccountFeed | None = None
    ) -> None:
        self.games = games
        self.feed = feed
        self.db = db
        self.arbiters = arbiters
        self.db.script(TABLES)

    # ------------------------------------------------------------ opening

    def open(
        self, game_id: str, opener: str, version: int, claim: str, move: dict[str, Any] | None, seat: int | None
    ) -> dict[str, Any]:
        game = self.games.load(game_id)
        revealed = self.games.revealed(game)
        mine = game.seats_of(opener)
        if not revealed and not mine:
            raise NotAPlayer("while a game runs, only its seats may open a dispute")
        if not 1 <= version <= game.version:
            raise InvalidRequest(f"version {version} is outside 1..{game.version}", field="version")
        if self._opened_by(str(game.id), opener) >= MAX_PER_OPENER:
            raise InvalidRequest(
                f"you have opened {MAX_PER_OPENER} disputes about this game, the most one "
                "account may open about one game"
            )
        past = self.games.load_at(game_id, version)
        if past.state is None:
            raise InvalidRequest(f"the game had not started at version {version}", field="version")
        seat = self._seat(past, mine, seat, revealed)
        dispute = Dispute(game_id=str(game.id), game_version=version, claim=claim, move=move, seat=seat, opener=opener)
        answer = self._answer(dispute, game, past, seat, move, revealed)
        dispute.trigger_event(Dispute.Answered, answer=answer)
        self.games.uow.add(dispute)
        self.db.execute(
            "INSERT INTO dh_disputes (dispute_id, game_id, opener, opened_at) VALUES (?, ?, ?, ?)",
            (str(dispute.id), str(game.id), opener, dispute.opened_at),
        )
        self._announce(game, str(dispute.id), version, opener)
        return self.document(str(dispute.id), opener)

    def _announce(self, game: Game, dispute_id: str, version: int, opener: str) -> None:
        """A ``dispute_opened`` account event for the game's other accounts: which dispute and which
        version, never its claim or move (the dispute is the opener's while the game runs)."""
        if self.feed is None:
            return
        facts = {"dispute_id": dispute_id, "version": version, "game": game.game, "variant": game.variant}
        entries = [
            Entry(
                s["player_id"],
                "dispute_opened",
                f"dispute_opened:{dispute_id}:{s['seat']}",
                str(game.id),
                {**facts, "seat": s["seat"]},
            )
            for s in game.seats
            if s["player_id"] != opener and not s["player_id"].startswith(SERVER_BOT_PREFIX)
        ]
        self.feed.append(entries)

    def _opened_by(self, game_id: str, opener: str) -> int:
        row = self.db.one("SELECT COUNT(*) AS n FROM dh_disputes WHERE game_id = ? AND opener = ?", (game_id, opener))
        return int(row["n"]) if row else 0

    @staticmethod
    def _seat(past: Game, mine: list[int], seat: int | None, revealed: bool) -> int:
        if seat is None:
            awaited = [s for s in past.awaiting if s in mine] or list(past.awaiting) or mine or [0]
            seat = awaited[0] if revealed or awaited[0] in mine else mine[0]
        if not revealed and seat not in mine:
            raise NotAPlayer("while a game runs, a dispute may only be about your own seat")
        if not any(s["seat"] == seat for s in past.seats):
            raise InvalidRequest(f"there is no seat {seat}", field="seat")
        return seat

    def _answer(
        self, dispute: Dispute, game: Game, past: Game, seat: int, move: dict[str, Any] | None, revealed: bool
    ) -> dict[str, Any]:
        position = self._position(past, seat, revealed)
        rng = self._chance(dispute, game, past, revealed)
        answer: dict[str, Any] = {
            "seat": seat,
            "awaiting": list(past.awaiting),
            "legal_moves_total": len(past.ruleset.legal_moves(position, seat)),
            "move": self._judge(past.ruleset, position, seat, move, rng, revealed),
        }
        audit = audit_trail(self.games, str(game.id), None if revealed else dispute.opener)
        answer["verification"] = {
            "verified": audit["verified"],
            "verdict": audit["verdict"],
            "first_bad_step": audit["first_bad_step"],
        }
        answer["actual"] = self._actual(game, past.version, dispute.opener)
        answer["sandbox_id"] = self._fork(dispute, game, past) if revealed else None
        if not revealed:
            answer["note"] = RUNNING
        return answer

    @staticmethod
    def _position(past: Game, seat: int, revealed: bool) -> Any:
        """The state a dispute is judged on: the true one once the game has ended; while it runs,
        one that ``seat`` cannot tell from it, resampled by a generator that depends only on what
        the dispute names (so the same question always gets the same answer)."""
        if revealed:
            return past.state
        return past.ruleset.observe(past.state, seat, random.Random(f"dispute:{past.version}:{seat}"))

    def _chance(self, dispute: Dispute, game: Game, past: Game, revealed: bool) -> Rng:
        """The chance a claimed decision is judged with. Once the game has ended, the game's own,
        on the stream its decision at the disputed version drew from: the decision actually taken
        there causes the events recorded. While it runs, the dispute's own (only legality is
        shown then, never what the decision would cause)."""
        if not revealed:
            return Rng(self._seed(dispute), "claim")
        return Rng(self.games.seeds.of_game(game), sandbox_chance.label(past.version, game.sandbox_of))

    @staticmethod
    def _judge(
        ruleset: Any, position: Any, seat: int, move: dict[str, Any] | None, rng: Rng, revealed: bool
    ) -> dict[str, Any]:
        if move is None:
            return {"evaluated": False}
        try:
            events = ruleset.decide(position, seat, ruleset.parse_move(move), rng)
        except RuleError as e:
            return {"evaluated": True, "legal": False, "code": e.code, "message": e.message, "rule": e.rule.to_json()}
        if not revealed:
            return {"evaluated": True, "legal": True}
        return {
            "evaluated": True,
            "legal": True,
            "events": [{"type": e.TYPE, "data": e.visible_data(Viewer.everyone())} for e in events],
            "rules": [e.rule().to_json() for e in events],
        }

    def _actual(self, game: Game, version: int, opener: str) -> list[dict[str, Any]]:
        """The decision actually taken right after ``version``, as the opener may see it."""
        viewer = self.games.viewer(game, opener)
        out: list[dict[str, Any]] = []
        for stored in self.games.stored_events(str(game.id), after=version):
            e = redact_stored_event(game.ruleset, stored, viewer)
            if out and e["source"] == "platform" and e["type"] != "ClockSettled":
                break
            out.append(e)
        return out

    def _fork(self, dispute: Dispute, game: Game, past: Game) -> str:
        """A sandbox game from the state at the disputed version of an ended game, every seat
        held by the opener. It draws from the game's own revealed seed, so replaying the recorded
        decisions reproduces the recorded events; a sandbox of a game not ended, or of another
        sandbox, has a seed of its own (``services.play.sandbox_chance``)."""
        sandbox_id = uuid.uuid5(dispute.id, "sandbox")
        ended = self.games.revealed(game) and not game.sandbox_of
        settled = (
            [e.originator_version for e in self.games.stored_events(str(game.id), after=past.version)
             if isinstance(e, Game.ClockSettled)]
            if ended else []
        )  # fmt: skip
        terms = sandbox_chance.terms(str(game.id), past.version, str(dispute.id), ended, settled)
        sandbox_seed = self.games.seeds.of(game.id if ended else sandbox_id)
        named = seat_names(as_named(past.seats), game.ruleset.bot_title)  # "Level 1 bot", as the game named it
        seats = [{**s, "player_id": dispute.opener, "name": f"{named[s['seat']]} (sandbox)"} for s in past.seats]
        table = Game._create(
            Game.Created,
            id=sandbox_id,
            game=game.game,
            variant=game.variant,
            options=game.options,
            seats=len(seats),
            creator=dispute.opener,
            time_control={"kind": "none"},
            starts_at=None,
            seed_commitment=seed_commitment(sandbox_seed),
            engine=game.engine,
            settings={},
            sandbox_of=terms,
        )
        table.trigger_event(
            Game.Forked,
            seats=seats,
            state=encode(past.state),
            state_hash=state_hash(past.state),
            awaiting=list(past.ruleset.awaiting(past.state)),
        )
        table.finish_if_over(sandbox_seed.hex())
        self.games.uow.add(table)
        return str(sandbox_id)

    def fork(self, dispute_id: str, player_id: str) -> dict[str, Any]:
        """The sandbox of a dispute opened while its game ran, forked once the game has ended
        (by its opener; the same sandbox every time)."""
        dispute = self._load(dispute_id)
        if player_id != dispute.opener:
            raise NotCreator("only the opener of a dispute may ask for its sandbox")
        if dispute.sandbox_id is None:
            game = self.games.load(dispute.game_id)
            if not self.games.revealed(game):
                raise NotAcceptingMoves(
                    f"game {game.id} is {game.status}: a dispute's sandbox is forked once the game has ended"
                )
            past = self.games.load_at(dispute.game_id, dispute.game_version)
            dispute.trigger_event(Dispute.SandboxForked, sandbox_id=self._fork(dispute, game, past))
            self.games.uow.add(dispute)
        return self.document(dispute_id, player_id)

    def _seed(self, dispute: Dispute) -> bytes:
        return hmac.new(self.games.seeds.secret_key, b"dragonhall-dispute:" + dispute.id.bytes, hashlib.sha256).digest()

    # ------------------------------------------------------------ reads

    def _load(self, dispute_id: str) -> Dispute:
        try:
            dispute = self.games.store.aggregate(uuid.UUID(str(dispute_id)))
        except ValueError:
            dispute = None
        if not isinstance(dispute, Dispute):  # a game's id names another kind of aggregate
            raise DisputeNotFound(f"no dispute {dispute_id}")
        return dispute

    def document(self, dispute_id: str, player_id: str | None) -> dict[str, Any]:
        """The dispute; while its game runs, only the opener reads its move and answer (they may
        show the opener's own hand)."""
        dispute = self._load(dispute_id)
        revealed = self.games.revealed(self.games.load(dispute.game_id))
        visible = revealed or player_id == dispute.opener
        return {
            "id": str(dispute.id),
            "game_id": dispute.game_id,
            "version": dispute.game_version,
            "claim": dispute.claim,
            "move": dispute.move if visible else None,
            "seat": dispute.seat,
            "opener": dispute.opener,
            "opened_at": dispute.opened_at,
            "answer": _shown(dispute, revealed, self._sandbox_chance(dispute)) if visible else None,
            "resolution": dispute.resolution,
        }

    def _sandbox_chance(self, dispute: Dispute) -> str | None:
        """Which chance the dispute's sandbox draws (``services.play.sandbox_chance``), None without one."""
        if dispute.sandbox_id is None:
            return None
        return sandbox_chance.chance(self.games.load(dispute.sandbox_id).sandbox_of)

    def of_game(self, game_id: str, player_id: str | None) -> list[dict[str, Any]]:
        game_id = str(self.games.load(game_id).id)
        rows = self.db.query(
            "SELECT dispute_id FROM dh_disputes WHERE game_id = ? ORDER BY opened_at, dispute_id", (game_id,)
        )
        return [self.document(r["dispute_id"], player_id) for r in rows]

    def legal_moves(self, dispute_id: str, player_id: str | None, offset: int, limit: int) -> dict[str, Any]:
        """The disputed seat's legal moves at the disputed version, a page at a time, for whoever
        may read the answer (they are computed again, not stored)."""
        dispute = self._load(dispute_id)
        game = self.games.load(dispute.game_id)
        revealed = self.games.revealed(game)
        if not revealed and player_id != dispute.opener:
            raise NotAPlayer("while the game runs, only the opener reads a dispute's answer")
        past = self.games.load_at(dispute.game_id, dispute.game_version)
        seat = int(dispute.seat if dispute.seat is not None else 0)
        listed = past.ruleset.legal_moves(self._position(past, seat, revealed), seat)
        dump = past.ruleset.commands.dump
        moves = [dump(listed[i]) for i in range(offset, min(len(listed), offset + limit))]
        return {"version": dispute.game_version, "seat": seat, "total": len(listed), "offset": offset, "moves": moves}

    def choices(
        self, game_id: str, player_id: str | None, version: int, seat: int, offset: int = 0, limit: int = 1000
    ) -> dict[str, Any]:
        """The legal moves ``seat`` had at ``version``, which a dispute about the decision taken
        there may name: while the game runs only for the caller's own seat, judged on a position it
        cannot tell from the true one, as the dispute's answer would be."""
        game = self.games.load(game_id)
        revealed = self.games.revealed(game)
        if not revealed and seat not in game.seats_of(player_id or ""):
            raise NotAPlayer("while the game runs, a dispute may only be about your own seat")
        past = self.games.load_at(game_id, version)
        if past.state is None:
            raise InvalidRequest(f"the game had not started at step {version}", field="step")
        listed = past.ruleset.legal_moves(self._position(past, seat, revealed), seat)
        dump = past.ruleset.commands.dump
        moves = [dump(listed[i]) for i in range(offset, min(len(listed), offset + limit))]
        return {"version": version, "seat": seat, "total": len(listed), "offset": offset, "moves": moves}

    # ------------------------------------------------------------ resolution

    def resolve(self, dispute_id: str, player_id: str, verdict: str, note: str) -> dict[str, Any]:
        """An arbiter upholds or rejects; the opener may withdraw."""
        dispute = self._load(dispute_id)
        game = self.games.load(dispute.game_id)
        if dispute.resolution is not None:
            raise DisputeResolved(f"the dispute is already resolved ({dispute.resolution['verdict']})")
        if verdict == "withdrawn" and player_id != dispute.opener:
            raise NotCreator("only the opener may withdraw a dispute")
        if verdict != "withdrawn" and not self.arbitrates(game, player_id):
            raise NotArbiter(
                "only an arbiter of the game may uphold or reject a dispute: an account the "
                "operator names, or the game's creator when it holds no seat in the game"
            )
        dispute.trigger_event(Dispute.Resolved, verdict=verdict, note=note, by=player_id)
        self.games.uow.add(dispute)
        return self.document(dispute_id, player_id)

    def arbitrates(self, game: Game, player_id: str) -> bool:
        """Whether ``player_id`` is a neutral arbiter of ``game``: never one of its players."""
        if game.seats_of(player_id):
            return False
        return player_id in self.arbiters or player_id == game.creator


def _shown(dispute: Dispute, revealed: bool, chance: str | None) -> dict[str, Any] | None:
    """The answer as its reader may see it. Disputes answered before the rule above held a
    running game's consequences and every legal move: those stay unshown until the game ends."""
    if dispute.answer is None:
        return None
    answer = {**dispute.answer, "sandbox_id": dispute.sandbox_id, "sandbox_chance": chance}
    if revealed:
        return answer
    answer.pop("legal_moves", None)
    judged = answer.get("move") or {}
    answer["move"] = {k: v for k, v in judged.items() if k not in ("events", "rules")}
    return answer
