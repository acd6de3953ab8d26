"""The variant and its options: the layout of the track."""

from __future__ import annotations

from dataclasses import dataclass, field

from domain.drachenreiter.layouts import DEFAULT_LAYOUT, LAYOUTS
from domain.kernel import OptionError, Variant


@dataclass(frozen=True, slots=True)
class RaceOptions:
    track: str = field(
        default=DEFAULT_LAYOUT,
        metadata={
            "label": "Track",
            "doc": "The course the dragons race on.",
            "choices": {name: layout.title for name, layout in LAYOUTS.items()},
        },
    )

    def __post_init__(self) -> None:
        if self.track not in LAYOUTS:
            raise OptionError("track", f"unknown track {self.track!r}; expected one of: {', '.join(LAYOUTS)}")


STANDARD = Variant(
    "standard",
    "Standard race",
    2,
    6,
    RaceOptions,
    "The full game: eight speeds, magic cards, traps, crashes and Debilitatus, on a chosen track.",
)
VARIANTS = (STANDARD,)
