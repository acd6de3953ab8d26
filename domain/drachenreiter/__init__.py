"""Chevaliers des dragons (Drachenreiter): a dragon race in continuous geometry.

Where things live:

* ``dimensions``, ``cards``, ``layouts``: every designed value, as named data;
* ``track``, ``shapes``: the built geometry (shapely; cached per track), bases and templates;
* ``flight``, ``placement``, ``resolve``, ``magic``, ``alliance``, ``facing``: what a
  move or a card does, and how a placed dragon is turned;
* ``race``: race order, speeds and notches; ``decide``, ``evolve``, ``legal``,
  ``view``, ``observe``: the decider; ``survey``, ``bots``: the bots; ``svg``: drawing.

A round is one secret ``set_speed`` per dragon (phases 1 and 2 merged: the speed
and an optional face-down card), then each dragon's turn in race order. As a
dragon shows its speed, the dragons yet to move with a card face down answer in
secret whether they turn a forced alliance (``ally``). Then it moves (``move``),
is turned by its player after a template crash (``face``), chooses how many cards
its symbols give it (``draw``), discards if its hand overflowed (``discard``),
and plays or holds its laid card (``aim``, ``lay_traps`` or ``hold``; a lassoed
dragon's player then turns it, ``face``). A turned alliance then joins behind it
(``face`` again, by the joining player) instead of moving. The designed rules are
documented in ``docs/rules/drachenreiter.md``.
"""

from domain.drachenreiter.ruleset import DRACHENREITER as RULESET

__all__ = ["RULESET"]
