"""How a game ended: places per seat (ties share), optional scores, and why."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Outcome:
    """The final ranking. ``places[s]`` is seat ``s``'s place: 1 is first; ties share a place."""

    places: tuple[int, ...]
    reason: str
    scores: tuple[float, ...] | None = None

    @property
    def winners(self) -> tuple[int, ...]:
        return tuple(s for s, p in enumerate(self.places) if p == 1)

    def to_json(self) -> dict[str, Any]:
        return {
            "reason": self.reason,
            "places": list(self.places),
            "winners": list(self.winners),
            "scores": None if self.scores is None else list(self.scores),
        }

    @classmethod
    def abandoned(cls, reason: str) -> Outcome:
        """A game ended before its rules ended it (a scheduled start with empty seats): nobody
        ranks and nobody wins."""
        return cls((), reason)

    @classmethod
    def from_scores(
        cls,
        scores: Sequence[float],
        reason: str,
        *,
        higher_is_better: bool = True,
        out: Iterable[int] = (),
    ) -> Outcome:
        """Ranks seats by score; equal scores share a place (1, 1, 3, ...).

        Seats in ``out`` (those who left the game) rank below everyone else,
        the first to leave ranking last.
        """
        left = list(out)
        keyed = [(s if higher_is_better else -s) for s in scores]
        staying = [s for s in range(len(scores)) if s not in left]
        places = [0] * len(scores)
        for seat in staying:
            places[seat] = 1 + sum(1 for o in staying if keyed[o] > keyed[seat])
        for i, seat in enumerate(reversed(left)):
            places[seat] = len(staying) + i + 1
        return cls(tuple(places), reason, tuple(float(s) for s in scores))

    @classmethod
    def from_order(cls, order: Sequence[Sequence[int]], reason: str) -> Outcome:
        """Ranks seats from groups listed best first: ``[[2], [0, 1]]`` gives 2 first, 0 and 1 second."""
        n = sum(len(g) for g in order)
        places = [0] * n
        place = 1
        for group in order:
            for seat in group:
                places[seat] = place
            place += len(group)
        return cls(tuple(places), reason)
