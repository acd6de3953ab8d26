"""The bots: ``random`` over the sampled legal moves, and ``racer``.

``racer`` searches two moves deep: each candidate move (speed and both turns on a
grid of the notches) is scored by the progress its front point makes, less
penalties for touching a border, a dragon or a trap and plus small bonuses for
fields and symbols, plus the best progress still open from where it lands (so
that it brakes before a bend). It sets the speed whose best line scores most,
flies that line refined on a finer grid of whole 5° steps, and plays its cards by simple rules.
A dragon placed by a rule (template crash, lasso, alliance) is turned to the
heading from which the best next move goes furthest. It draws every card its
symbols offer: drawing never hurts the drawer, who, over the hand limit,
discards the card it values least. It turns a laid forced alliance when the
dragon about to move is within 400 and joining it promises more than its own move.

Every decision is taken on ``observe``'s state: positions and geometry are
public, so the bot measures ranges and reaches as any player may; what is hidden
(others' cards, set speeds, trap values) it sees only resampled.
"""

from __future__ import annotations

import random

import numpy as np

from domain.drachenreiter.cards import (
    ALLIANCE_RANGE,
    CARD_SHIFT,
    DEBILITATUS_SPEED_CAP,
    ENERGY_LIMIT,
    ENERGY_RANGE,
    FIREBALL_RANGE,
    HAND_LIMIT,
    LASSO_RANGE,
    Magic,
)
from domain.drachenreiter.commands import Aim, Ally, Discard, Draw, Face, Hold, LayTraps, Move, SetSpeed
from domain.drachenreiter.dimensions import BASE_LENGTH, MAX_SPEED_CHANGE, NOTCH, SPEEDS, TEMPLATE_LENGTH
from domain.drachenreiter.facing import placements
from domain.drachenreiter.magic import in_range, trap_layouts
from domain.drachenreiter.race import ahead, overfull, settable_speeds, template_speeds
from domain.drachenreiter.resolve import CRASH_SPEED
from domain.drachenreiter.state import Dragon, Facing, Phase, RaceState, Step
from domain.drachenreiter.survey import Scene, grid, scene, survey
from domain.kernel import Command, RandomBot

CRASH_PENALTY = 500.0
"""Designed bot weights, in units of progress."""
STRUCK_PENALTY = 150.0
TRAP_PENALTY = 120.0
FIELD_BONUS = 40.0
DEBILITATUS_FIELD_BONUS = 200.0
SYMBOL_BONUS = 25.0
LOOKAHEAD = 0.9
"""Weight of the best next move from where a candidate lands."""
FIRST_PLY = np.linspace(-1.0, 1.0, 9)
TURN_STEP = 5.0
"""Designed: ``racer`` flies its turns in whole 5° steps, the grid on which every notch's limit
lies, so that each flight it makes is one a person can name in whole steps, and one the learning
environments' action grid holds (``rl/games/drachenreiter.py``)."""
FINE_TURNS = 8
"""About how many turns each way of straight ``racer`` tries when it refines its flight."""
SECOND_PLY = np.linspace(-1.0, 1.0, 5)
FORCE_MARGIN = 40.0
"""Dragon force is laid when a faster template promises this much more."""
KEEP = 3
"""Candidates per speed explored a second move deep."""
ALLY_MARGIN = 30.0
"""A forced alliance is laid or turned when joining promises this much more progress."""
ALLY_GUESS = 0.9
"""The share of its template and base the dragon about to move is guessed to gain."""
CARD_VALUE = {
    Magic.FORCE: 9,
    Magic.LASSO: 8,
    Magic.FIREBALL_800: 7,
    Magic.FIREBALL_600: 6,
    Magic.ENERGY: 5,
    Magic.FIREBALL_400: 4,
    Magic.AMULET: 3,
    Magic.TRAP: 2,
    Magic.ALLIANCE: 1,
    Magic.COUNTER_WIND: 0,
}
"""Designed: how much the racer wants to keep each card."""


class SampledRandomBot(RandomBot[RaceState]):
    """Uniform over the listed (sampled) legal moves: the kernel's random bot."""


def _next_speeds(dial: int, exhausted: bool) -> list[int]:
    top = DEBILITATUS_SPEED_CAP if exhausted else max(SPEEDS)
    return sorted({max(min(SPEEDS), dial - MAX_SPEED_CHANGE), dial, min(top, dial + MAX_SPEED_CHANGE)})


def whole_steps(speed: int) -> np.ndarray:
    """The fractions of ``speed``'s notch that turn by whole multiples of ``TURN_STEP``, both
    limits included (they lie on the grid), about ``FINE_TURNS`` each way."""
    notch = NOTCH[speed]
    step = TURN_STEP * max(1, round(notch / (FINE_TURNS * TURN_STEP)))
    turns = np.arange(-notch, notch + TURN_STEP / 2, step)
    return np.unique(np.append(turns, notch)) / notch


def gaps(state: RaceState, seat: int, speed: int) -> dict[int, float]:
    """A guess of how far each dragon ahead of ``seat`` will lead it once all have moved, with
    ``seat`` flying ``speed`` and each other its last speed."""
    me = state.dragons[seat]
    mine = TEMPLATE_LENGTH[speed] + BASE_LENGTH
    return {
        t: state.dragons[t].pose.progress
        - me.pose.progress
        - mine
        + TEMPLATE_LENGTH[state.dragons[t].speed]
        + BASE_LENGTH
        for t in ahead(state, seat)
    }


class RacerBot(SampledRandomBot):
    """Two moves deep over a grid of turns; see the module doc."""

    def choose(self, state: RaceState, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        me = state.dragons[seat]
        if state.phase is Phase.SPEED:
            return self._set_speed(state, seat, me)
        if state.step is Step.ALLY:
            return self._ally(state, seat, me)
        if state.step is Step.FLY:
            return self._fly(state, seat, me)
        if state.step is Step.FACE:
            return self._face(state, seat, me)
        if state.step is Step.DRAW:
            return Draw(state.draws)
        if state.step is Step.DISCARD:
            keep = sorted(me.hand, key=lambda c: (CARD_VALUE[c], c.value))
            return Discard(tuple(keep[: overfull(me)]))
        return self._cast(state, seat, me)

    # ---------------------------------------------------------------- search

    def _values(
        self, sc: Scene, state: RaceState, me: Dragon, speeds: np.ndarray, ins: np.ndarray, outs: np.ndarray, dial: int
    ) -> np.ndarray:
        """Two-move scores of candidate moves from ``me``'s pose."""
        p = me.pose
        n = len(speeds)
        first = survey(
            sc, np.full(n, p.x), np.full(n, p.y), np.full(n, p.heading), np.full(n, p.progress), speeds, ins, outs
        )
        value = first.progress - p.progress
        value -= first.crash * (CRASH_PENALTY + value)
        value -= first.struck * STRUCK_PENALTY + first.traps * TRAP_PENALTY * (me.laid is not Magic.AMULET)
        if me.exhausted:
            value += first.field * DEBILITATUS_FIELD_BONUS
        elif me.energy < ENERGY_LIMIT:
            value += first.field * FIELD_BONUS
        if len(me.hand) < HAND_LIMIT and not me.exhausted:
            value += first.symbol * SYMBOL_BONUS
        ok = np.flatnonzero(~first.crash)
        if not len(ok):
            return value
        keep: list[int] = []
        for v in np.unique(speeds[ok]):
            idx = ok[speeds[ok] == v]
            keep += idx[np.argsort(-value[idx], kind="stable")[:KEEP]].tolist()
        ns, na, nb = grid(_next_speeds(dial, me.exhausted), SECOND_PLY)
        m = len(ns)
        rep = np.repeat(np.array(keep), m)
        second = survey(
            sc,
            first.x[rep],
            first.y[rep],
            first.heading[rep],
            first.progress[rep],
            np.tile(ns, len(keep)),
            np.tile(na, len(keep)),
            np.tile(nb, len(keep)),
        )
        gain = second.progress - first.progress[rep] - second.crash * CRASH_PENALTY
        best = gain.reshape(len(keep), m).max(axis=1)
        bonus = np.full(n, -CRASH_PENALTY)
        bonus[keep] = best
        return value + LOOKAHEAD * bonus

    def _best(
        self, sc: Scene, state: RaceState, me: Dragon, speeds: list[int], fractions: np.ndarray, dial: int | None = None
    ) -> tuple[float, int, float, float]:
        sp, a, b = grid(speeds, fractions)
        values = np.empty(len(sp))
        for v in speeds:
            idx = sp == v
            values[idx] = self._values(sc, state, me, sp[idx], a[idx], b[idx], dial if dial is not None else v)
        i = int(np.argmax(values))
        return float(values[i]), int(sp[i]), float(a[i]), float(b[i])

    # ---------------------------------------------------------------- decisions

    def _set_speed(self, state: RaceState, seat: int, me: Dragon) -> Command:
        sc = scene(state, seat)
        values = {v: self._best(sc, state, me, [v], FIRST_PLY)[0] for v in settable_speeds(me)}
        speed = max(values, key=lambda v: (values[v], v))
        card = self._card_to_lay(sc, state, seat, me, speed, values)
        return SetSpeed(speed, card)

    def _card_to_lay(
        self, sc: Scene, state: RaceState, seat: int, me: Dragon, speed: int, values: dict[int, float]
    ) -> Magic | None:
        hand = set(me.hand)
        if not hand:
            return None
        if Magic.FORCE in hand and speed < max(SPEEDS):
            faster = [v for v in SPEEDS if speed < v <= speed + CARD_SHIFT]
            if self._best(sc, state, me, faster, FIRST_PLY, dial=speed)[0] > values[speed] + FORCE_MARGIN:
                return Magic.FORCE
        front = ahead(state, seat)
        gap = gaps(state, seat, speed)

        def near(reach: int) -> list[int]:
            """Dragons ahead likely within ``reach`` once all have moved (a guess)."""
            return [t for t in front if 0 < gap[t] < TEMPLATE_LENGTH[reach] + BASE_LENGTH / 2]

        if Magic.LASSO in hand and near(LASSO_RANGE):
            return Magic.LASSO
        for card in (Magic.FIREBALL_800, Magic.FIREBALL_600, Magic.FIREBALL_400):
            if card in hand and near(FIREBALL_RANGE[card]):
                return card
        rich = [t for t in near(ENERGY_RANGE) if state.dragons[t].energy]
        if Magic.ENERGY in hand and me.energy < ENERGY_LIMIT and rich:
            return Magic.ENERGY
        own = TEMPLATE_LENGTH[speed] + BASE_LENGTH
        if Magic.ALLIANCE in hand and any(
            in_range(state, seat, state.dragons[t].pose, ALLIANCE_RANGE)
            and state.dragons[t].pose.progress - me.pose.progress + TEMPLATE_LENGTH[state.dragons[t].speed]
            > own + ALLY_MARGIN
            for t in front
        ):
            return Magic.ALLIANCE
        behind = [s for s in state.alive() if s != seat and s not in front]
        if Magic.TRAP in hand and behind:
            return Magic.TRAP
        if Magic.AMULET in hand and me.energy <= 1:
            return Magic.AMULET
        return None

    def _fly(self, state: RaceState, seat: int, me: Dragon) -> Command:
        speeds = list(template_speeds(me))
        dial = me.set_speed if me.set_speed is not None else me.speed
        sc = scene(state, seat)
        best = [self._best(sc, state, me, [v], whole_steps(v), dial=dial) for v in speeds]
        _, v, a, b = max(best, key=lambda found: found[0])
        return Move(v, round(a, 6), round(b, 6))

    def _reach(self, sc: Scene, me: Dragon, speeds: list[int]) -> float:
        """The most progress one clean move at one of ``speeds`` makes from ``me``'s pose."""
        sp, a, b = grid(speeds, FIRST_PLY)
        p = me.pose
        n = len(sp)
        first = survey(sc, np.full(n, p.x), np.full(n, p.y), np.full(n, p.heading), np.full(n, p.progress), sp, a, b)
        gain = first.progress - p.progress - first.crash * CRASH_PENALTY
        return float(gain.max())

    def _ally(self, state: RaceState, seat: int, me: Dragon) -> Command:
        """Turns a laid alliance when the dragon about to move (its speed shown) is within 400
        and joining it is guessed to go further than its own best move."""
        target = state.mover
        if me.laid is not Magic.ALLIANCE or target is None:
            return Ally(False)
        t = state.dragons[target]
        if not in_range(state, seat, t.pose, ALLIANCE_RANGE):
            return Ally(False)
        speed = t.set_speed if t.set_speed is not None else t.speed
        joined = t.pose.progress + ALLY_GUESS * (TEMPLATE_LENGTH[speed] + BASE_LENGTH) - BASE_LENGTH
        own = self._reach(scene(state, seat), me, list(template_speeds(me)))
        return Ally(joined - me.pose.progress > own + ALLY_MARGIN)

    def _face(self, state: RaceState, seat: int, me: Dragon) -> Command:
        """The listed heading from which the best next move (next round's speeds) goes furthest;
        the heading as placed on a tie."""
        options = placements(state, seat)
        dial = CRASH_SPEED if state.face_cause is Facing.CRASH else me.speed
        ns, na, nb = grid(_next_speeds(dial, me.exhausted), SECOND_PLY)
        m, k = len(ns), len(options)

        def each(field: str) -> np.ndarray:
            return np.repeat(np.array([getattr(p, field) for p in options]), m)

        start = each("progress")
        sv = survey(
            scene(state, seat),
            each("x"),
            each("y"),
            each("heading"),
            start,
            np.tile(ns, k),
            np.tile(na, k),
            np.tile(nb, k),
        )
        gain = sv.progress - me.pose.progress - sv.crash * CRASH_PENALTY
        return Face(options[int(np.argmax(gain.reshape(k, m).max(axis=1)))].heading)

    def _cast(self, state: RaceState, seat: int, me: Dragon) -> Command:
        card = me.laid
        front = ahead(state, seat)
        if card is Magic.TRAP:
            layouts = trap_layouts(state)
            return LayTraps(layouts[0]) if layouts else Hold()
        reach = FIREBALL_RANGE.get(card) if card is not None else None
        if card is Magic.LASSO:
            reach = LASSO_RANGE
        if card is Magic.ENERGY:
            reach = ENERGY_RANGE
        if reach is None:
            return Hold()
        targets = [t for t in front if in_range(state, seat, state.dragons[t].pose, reach)]
        if card is Magic.ENERGY:
            targets = [t for t in targets if state.dragons[t].energy]
        if card is Magic.LASSO:
            targets.reverse()
        return Aim(targets[0]) if targets else Hold()
