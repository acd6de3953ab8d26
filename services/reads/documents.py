"""A game's document: one builder, fed by a read-model row or by the write model.

``GET /games/{id}`` answers from the read models when they have caught up with the
game, and from the write model otherwise (and for replays of a past version). Both
sources say the same things; ``Summary`` takes them from either, and ``document``
writes the answer once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel import Viewer, find_game
from domain.kernel.narration import seat_names
from services.common.visibility import seats_held
from services.play.aggregate import Game
from services.reads.seat_names import as_named


@dataclass(frozen=True)
class Summary:
    """What a game's document says, whichever model it comes from."""

    id: str
    game: str
    variant: str
    options: dict[str, Any]
    status: str
    version: int
    seats: list[dict[str, Any]]
    planned_seats: int
    awaiting: list[int]
    outcome: dict[str, Any] | None
    creator: str
    created_at: str
    updated_at: str
    starts_at: str | None
    time_control: dict[str, Any]
    seed_commitment: str
    sandbox: bool
    state: Any
    """The rules state, or None before the game starts."""
    turns: dict[str, str]
    banks: dict[str, float]

    @classmethod
    def of_row(cls, row: dict[str, Any], state: Any) -> Summary:
        """From a ``dh_games`` row (``projections.views``) and the board folded to its version."""
        held = row.get("clock") or {}
        names = ("game", "variant", "options", "status", "version", "seats", "planned_seats", "awaiting", "outcome",
                 "creator", "created_at", "updated_at", "starts_at", "time_control", "seed_commitment")  # fmt: skip
        return cls(id=row["game_id"], **{k: row[k] for k in names}, sandbox=bool(row["sandbox"]), state=state,
                   turns=held.get("turns", {}), banks=held.get("banks", {}))  # fmt: skip

    @classmethod
    def of_game(cls, game: Game) -> Summary:
        """From the ``Game`` aggregate, as it stands now or stood at a past version."""
        return cls(
            id=str(game.id), game=game.game, variant=game.variant, options=game.options, status=game.status,
            version=game.version, seats=game.seats, planned_seats=game.planned_seats, awaiting=list(game.awaiting),
            outcome=game.outcome, creator=game.creator, created_at=game.created_at,
            updated_at=game.modified_on.isoformat(), starts_at=game.starts_at, time_control=game.time_control,
            seed_commitment=game.seed_commitment, sandbox=bool(game.sandbox_of), state=game.state,
            turns=game.turns, banks=game.banks,
        )  # fmt: skip


def document(summary: Summary, viewer: Viewer, player_id: str | None, clocks: dict[str, Any] | None) -> dict[str, Any]:
    """The game as ``viewer`` may see it; ``clocks`` as ``Timers.clock_view`` gives them."""
    view = None if summary.state is None else find_game(summary.game).view(summary.state, viewer)
    return {
        "id": summary.id,
        "game": summary.game,
        "variant": summary.variant,
        "options": summary.options,
        "status": summary.status,
        "version": summary.version,
        "seats": public_seats(summary.game, summary.seats),
        "planned_seats": summary.planned_seats,
        "awaiting": summary.awaiting,
        "view": view,
        "outcome": summary.outcome,
        "creator": summary.creator,
        "created_at": summary.created_at,
        "updated_at": summary.updated_at,
        "starts_at": summary.starts_at,
        "time_control": summary.time_control,
        "seed_commitment": summary.seed_commitment,
        "sandbox": summary.sandbox,
        "your_seats": seats_held(summary.seats, player_id),
        "clocks": clocks,
    }


def public_seats(game: str, seats: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The seats as every document and list shows them, each named as people read it
    (``domain.kernel.narration.seat_names``): a server bot of the ladder by its level, two
    seats whose names read alike numbered apart ("Level 2 bot (1)", "Level 2 bot (2)"); an account
    the server plays for by its account's name (``services.reads.seat_names.as_named``)."""
    shown = seat_names(as_named(seats), find_game(game).bot_title)
    return [
        {"seat": s["seat"], "player_id": s["player_id"], "name": shown[int(s["seat"])], "kind": s["kind"],
         "bot": s.get("bot")}
        for s in seats
    ]  # fmt: skip
