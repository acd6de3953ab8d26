"""Which invitations a bot accepts: rules on the game, the variant, the clock and rating.

After Lichess's challenge flow: a bot answers every invitation it hears of, accepting those its
rules allow and declining the others with the server's reason that says why (``docs/api.md``,
Invitations), so the inviter reads "too fast", "only casual games"... rather than silence.

    rules = InvitationRules(games=frozenset({"tarasque"}), clock="timed", min_seconds=60, rated="casual")
    accept, reason = rules.answer(invitation)      # (False, "casual") for a rated one
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

Clock = Literal["any", "none", "timed"]
Rating = Literal["any", "rated", "casual"]


@dataclass(frozen=True)
class InvitationRules:
    """What a bot accepts; every rule left at its default accepts anything.

    ``games`` and ``variants``: the game slugs and variant names accepted (``None``: any).
    ``clock``: ``none`` accepts only games without a clock, ``timed`` only games with one.
    ``min_seconds`` and ``max_seconds``: the shortest and longest turn accepted in a timed game
    (a per-move clock's seconds, or a bank's starting time).
    ``rated``: ``rated`` accepts only rated games, ``casual`` only casual ones.
    """

    games: frozenset[str] | None = None
    variants: frozenset[str] | None = None
    clock: Clock = "any"
    min_seconds: float | None = None
    max_seconds: float | None = None
    rated: Rating = "any"

    def answer(self, invitation: Mapping[str, Any]) -> tuple[bool, str | None]:
        """``(True, None)`` to accept, or ``(False, reason)``: a reason the server knows
        (``generic``, ``variant``, ``time_control``, ``too_fast``, ``too_slow``, ``rated``, ``casual``)."""
        reason = self._game(invitation) or self._clock(invitation) or self._rating(invitation)
        return reason is None, reason

    def _game(self, invitation: Mapping[str, Any]) -> str | None:
        if self.games is not None and invitation.get("game") not in self.games:
            return "generic"
        if self.variants is not None and invitation.get("variant") not in self.variants:
            return "variant"
        return None

    def _clock(self, invitation: Mapping[str, Any]) -> str | None:
        seconds = turn_seconds(invitation.get("time_control") or {})
        if self.clock == "none" and seconds is not None:
            return "time_control"
        if self.clock == "timed" and seconds is None:
            return "time_control"
        if seconds is not None and self.min_seconds is not None and seconds < self.min_seconds:
            return "too_fast"
        if seconds is not None and self.max_seconds is not None and seconds > self.max_seconds:
            return "too_slow"
        return None

    def _rating(self, invitation: Mapping[str, Any]) -> str | None:
        rated = bool(invitation.get("rated", True))
        if self.rated == "casual" and rated:
            return "casual"
        if self.rated == "rated" and not rated:
            return "rated"
        return None


def turn_seconds(time_control: Mapping[str, Any]) -> float | None:
    """A turn's time in a game with this clock: a per-move clock's seconds, a bank's starting
    time; ``None`` for a game without a clock."""
    kind = time_control.get("kind", "none")
    if kind == "per_move":
        return float(time_control["seconds"])
    if kind == "bank":
        return float(time_control["initial"])
    return None
