"""Chevaliers des dragons (Drachenreiter): a dragon race in continuous geometry.

Where things live:

* ``dimensions``, ``cards``, ``layouts``: every designed value, as named data;
* ``track``, ``shapes``: the built geometry (shapely; cached per track), bases and templates;
* ``flight``, ``placement``, ``resolve``, ``magic``: what a move or a card does;
* ``race``: race order, speeds and notches; ``decide``, ``evolve``, ``legal``,
  ``view``, ``observe``: the decider; ``survey``, ``bots``: the bots; ``svg``: drawing.

A round is one secret ``set_speed`` per dragon (phases 1 and 2 merged: the speed
and an optional face-down card), then each dragon's turn in race order: ``move``
(or ``join`` with a forced alliance), a ``discard`` if its hand overflowed, and
a magic step (``aim``, ``lay_traps`` or ``hold``) while its laid card is face down.
"""

from domain.drachenreiter.ruleset import DRACHENREITER as RULESET

__all__ = ["RULESET"]
