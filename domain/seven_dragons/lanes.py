"""Matching a card against every frontier cell at once: many small ints side by side in one big int.

A frontier cell's packed reach (``board.pack``) holds 20 bits; a card fits there,
one matching panel being enough, when its packed panels ``&`` the reach is not 0.
Testing the cells one by one costs a Python call each, and a listing tests every
dragon in hand, and every layout card for Move a Card. Instead the reaches of a
board's frontier sit in *lanes* of one int (lane ``j`` is bits ``[j*W, (j+1)*W)``,
``W`` at least 32), built once per board, and one test is a few big-int operations:

1. ``lanes & panels * ONE`` ands the card into every lane (``ONE`` has bit 0 of each lane);
2. adding ``2**20 - 1`` to each lane sets its bit 20 exactly when the lane is not 0, and
   never carries into the next lane (a lane stays below ``2**21``);
3. keeping bit 20 of each lane and reading one byte per lane gives 1 where the card fits,
   0 elsewhere: the selectors ``itertools.compress`` takes to pick the cells, in order.

The answers are those of the cell-by-cell test, exactly; only the speed differs.
"""

from __future__ import annotations

import sys
from array import array
from collections.abc import Sequence

REACH_BITS = 20
"""Bits of a packed reach (5 colours x 4 panels)."""
_CODE = "L"
_LANE_BYTES = array(_CODE).itemsize
"""Bytes per lane: those of a C unsigned long, at least 4, so a lane holds the 21 bits a test needs."""
_LOW = (1 << REACH_BITS) - 1
_SPREADS: dict[int, tuple[int, int, int]] = {}
"""Per lane count: (ONE, 2**20 - 1 in each lane, bit 20 of each lane). Constants; a race only computes one twice."""


def lanes(reaches: Sequence[int]) -> int:
    """The reaches side by side, the first in the lowest lane."""
    packed = array(_CODE, reaches)
    if sys.byteorder == "big":
        packed.byteswap()
    return int.from_bytes(packed.tobytes(), "little")


def matching(packed: int, count: int, panels: int) -> bytes:
    """One byte per lane of ``packed`` (``count`` lanes): 1 where the lane shares a bit with ``panels``, else 0."""
    spread = _SPREADS.get(count)
    if spread is None:
        one = lanes([1] * count)
        spread = _SPREADS[count] = (one, one * _LOW, one << REACH_BITS)
    one, low, carry = spread
    hits = ((packed & panels * one) + low) & carry
    return (hits >> REACH_BITS).to_bytes(count * _LANE_BYTES, "little")[::_LANE_BYTES]
