"""The three track layouts, as data (all **designed**: no public source gives them).

The rulebook's board is a frame holding 15 printed track elements, with a start
grid for four and one for six, energy fields, magic-card symbols and yellow
distance lines. A layout here lists its 15 elements in race order (each a
straight or a curve; a curve turns left for a positive angle), and places its
energy fields and symbols by progress ``s`` along the centre line and offset
``u`` from it (positive to the left). Everything else is built from these in
``track.py``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Straight:
    """A straight element of the given length."""

    length: float


@dataclass(frozen=True, slots=True)
class Curve:
    """A curve of centre-line ``radius`` turning ``angle`` degrees (positive: left)."""

    radius: float
    angle: float


Element = Straight | Curve

START = Straight(400.0)
"""The start-finish element (both grids are printed on a 400 straight)."""
LONG = Straight(300.0)
SHORT = Straight(150.0)
BEND = Curve(250.0, 90.0)
HAIRPIN = Curve(175.0, 90.0)
WIDE = Curve(350.0, 90.0)
SWEEP = Curve(350.0, 45.0)


def _right(curve: Curve) -> Curve:
    return Curve(curve.radius, -curve.angle)


@dataclass(frozen=True, slots=True)
class Layout:
    """One track: its elements, whether it closes on itself, and what is printed on it."""

    name: str
    title: str
    closed: bool
    elements: tuple[Element, ...]
    fields: tuple[tuple[float, float], ...]
    """Energy fields as ``(s, u)`` in the forward direction."""
    symbols: tuple[tuple[float, float], ...]
    """Magic-card symbols as ``(s, u)`` in the forward direction."""
    description: str


RING = Layout(
    "ring",
    "The ring (closed circuit)",
    True,
    (START, SHORT, SWEEP, SWEEP, LONG, SHORT, BEND, LONG, LONG, SHORT, BEND, LONG, SHORT, SWEEP, SWEEP),
    ((620.0, 55.0), (1350.0, -55.0), (2050.0, 55.0), (2750.0, -55.0), (3450.0, 55.0)),
    ((950.0, -50.0), (1700.0, 50.0), (2400.0, -50.0), (3100.0, 50.0), (3800.0, -50.0)),
    "The default circuit: a rounded rectangle, two wide corners and two tight ones, run anticlockwise.",
)

HOOK = Layout(
    "hook",
    "The hook (closed circuit)",
    True,
    (START, SHORT, BEND, SHORT, LONG, LONG, BEND, SHORT, HAIRPIN, SHORT, _right(BEND), SHORT, HAIRPIN, SHORT, WIDE),
    ((640.0, 55.0), (1400.0, -55.0), (2100.0, 55.0), (2800.0, -55.0), (3550.0, 55.0)),
    ((980.0, -50.0), (1750.0, 50.0), (2450.0, -50.0), (3150.0, 50.0), (3900.0, -50.0)),
    "A second circuit shaped like a hook: two hairpins and a right-hand bend.",
)

FLIGHT = Layout(
    "flight",
    "The long flight (start and finish apart)",
    False,
    (
        START,
        LONG,
        BEND,
        LONG,
        _right(BEND),
        SHORT,
        _right(BEND),
        LONG,
        SHORT,
        BEND,
        LONG,
        SWEEP,
        _right(SWEEP),
        SHORT,
        START,
    ),
    ((700.0, 55.0), (1450.0, -55.0), (2150.0, 55.0), (2850.0, -55.0), (3600.0, 55.0)),
    ((1050.0, -50.0), (1800.0, 50.0), (2500.0, -50.0), (3250.0, 50.0), (3950.0, -50.0)),
    "A point-to-point course using both start grids: up to four players start on the grid for four "
    "and finish on the grid for six; five or six players run it the other way.",
)

LAYOUTS: dict[str, Layout] = {layout.name: layout for layout in (RING, HOOK, FLIGHT)}
DEFAULT_LAYOUT = RING.name
