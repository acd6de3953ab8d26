"""The ``Dispute`` aggregate: one claim about one version of a game, its answer and its resolution.

Its events carry stable topics (``dragonhall:Dispute...``), so the stored disputes load
wherever the class lives; the use cases over it are ``services.audits.disputes``.
"""

from __future__ import annotations

from typing import Any

from eventsourcing.domain import Aggregate

from services.play.stored_game import Timed


class Dispute(Aggregate):
    """One claim about one version of a game, its answer and its resolution."""

    TOPIC = "dragonhall:Dispute"

    class Created(Timed, Aggregate.Created):
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

    class Answered(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Dispute.Answered"
        answer: dict[str, Any]

        def apply(self, dispute: Dispute) -> None:
            dispute.answer = dict(self.answer)
            dispute.sandbox_id = self.answer.get("sandbox_id")

    class SandboxForked(Timed, Aggregate.Event):
        """A sandbox was forked for a dispute opened while its game ran, once the game had ended."""

        TOPIC = "dragonhall:Dispute.SandboxForked"
        sandbox_id: str

        def apply(self, dispute: Dispute) -> None:
            dispute.sandbox_id = self.sandbox_id

    class Resolved(Timed, Aggregate.Event):
        TOPIC = "dragonhall:Dispute.Resolved"
        verdict: str
        note: str
        by: str

        def apply(self, dispute: Dispute) -> None:
            dispute.resolution = {
                "verdict": self.verdict,
                "note": self.note,
                "by": self.by,
                "at": self.timestamp.isoformat(),
            }

    def __init__(
        self,
        game_id: str,
        game_version: int,
        claim: str,
        move: dict[str, Any] | None,
        seat: int | None,
        opener: str,
        numbered_from: int | None = None,
    ) -> None:
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
        self.sandbox_id: str | None = None
        self.resolution: dict[str, Any] | None = None
