"""The bots. ``random`` is the kernel's ``RandomBot``, uniform over the listed moves
(programmes and resolution choices alike). ``planner`` programs its 5 cards by
searching their likely resolution.

Programming is a beam search over the order of the action cards. Each partial
programme is played out position by position, in turn order, together with the
programmes the bot expects from the others (found by the same search, each on
its own), every card played as its owner's policy would (``policy``), and
scored by the work the bot's pawn still needs (``routes.work_to_go``) in the
worse of two worlds: the others idle, and the others playing as forecast (the
bot counts neither on their help nor on their absence). A programme that
crosses scores best, the earlier the better; one that lets another pawn cross
first scores worst.

The forecast of the others is, for ``planner``, what each would programme if it
played alone (the same search with no forecast of its own). With ``foresight``
(Level 4) it is what ``planner`` itself would programme from each other seat,
threats and dragons included: everything that search reads is public (the board
and the hands; never a face-down card), so it is what a careful opponent may be
expected to play, and where it expects the bot's own dragon, the bot's card at
that position is counted as cancelled.

Dragons go where an opponent's threat is: when the expected resolution lets
another pawn cross first, the bot tries that colour's dragon at the position of
the crossing, searches the rest again, and keeps it if it does better.

In resolution, the bot plays each card by its policy, weighing every option
where it matters (planks, removals, moves).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from domain.kernel import Command, RuleError
from domain.mekong.cards import ACTIONS, PROGRAMME_LENGTH, Card, dragon_of
from domain.mekong.commands import Program
from domain.mekong.decide import decide
from domain.mekong.legal import legal_moves
from domain.mekong.policy import choose, play_out, sim_root
from domain.mekong.routes import work_to_go
from domain.mekong.state import MekongState, Phase

BEAM_WIDTH = 6
"""Designed: partial programmes kept at each position of the search."""
WIN = -1000.0
"""Score of a programme whose pawn crosses (plus its position: earlier is better)."""
LOSS = 1000.0
"""Score of a programme during which another pawn crosses first (minus its position: later is better)."""
RISK = {Card.JUMP: 0.02, Card.MOVE_2: 0.01, Card.MOVE_1: 0.01}
"""Designed: after a planned crossing, the cards that follow are chosen to fall least if it fails."""
SPARE = 0.2
"""Designed: the value of each plank kept in reserve (spent planks narrow the routes left)."""

Forecast = dict[int, tuple[Card | None, ...]]
"""The cards expected from other seats, by seat (None where a card is cancelled)."""


@dataclass(frozen=True, slots=True)
class _Node:
    """A partial programme played out in two worlds: the others idle, and the others playing as forecast."""

    cards: tuple[Card, ...]
    idle: MekongState
    busy: MekongState
    score: float
    over: bool = False
    """True once someone has crossed in this line of play (in either world)."""


def _quick(state: MekongState, seat: int, card: Card) -> Command | None:
    return choose(state, seat, card, thorough=False)


def _score(state: MekongState, seat: int) -> float:
    """Work still needed, less a little for each plank still in reserve."""
    return work_to_go(state, seat) - SPARE * len(state.reserves[seat])


def _crossed(state: MekongState, seat: int) -> bool:
    return state.pawns[seat] == state.destination(seat)


def _others_play(node: _Node, position: int, mine: Card | None, seats: list[int], forecast: Forecast) -> _Node:
    """``node`` after the expected cards of ``seats`` at ``position`` (0-based) in the busy world,
    unless the bot's card there (``mine``) is their dragon."""
    if node.over or position < 0:
        return node
    state = node.busy
    for other in seats:
        card = forecast[other][position]
        if card is None or card.dragon is not None or mine is dragon_of(state.colours[other]):
            continue
        state = play_out(state, other, card, _quick)
        if _crossed(state, other):
            return replace(node, busy=state, score=LOSS - position, over=True)
    return replace(node, busy=state)


def _search(root: MekongState, seat: int, fixed: dict[int, Card], forecast: Forecast, width: int) -> _Node:
    """The best programme found for ``seat``, with ``fixed`` cards (position -> card) kept in place.

    Each programme is scored by the worse of its two worlds: the bot neither
    counts on the others' help nor ignores their harm."""
    mine = dragon_of(root.colours[seat])
    cancelled = {p for cards in forecast.values() for p, card in enumerate(cards) if card is mine}
    order = [s for s in root.turn_order() if s == seat or s in forecast]
    before = order[: order.index(seat)]
    after = order[order.index(seat) + 1 :]
    beam = [_Node((), root, root, _score(root, seat))]
    for position in range(PROGRAMME_LENGTH):
        beam = [
            _others_play(
                _others_play(n, position - 1, n.cards[-1] if n.cards else None, after, forecast),
                position,
                fixed.get(position),
                before,
                forecast,
            )
            for n in beam
        ]
        if position in fixed:
            beam = [replace(n, cards=(*n.cards, fixed[position])) for n in beam]
            continue
        children: dict[tuple[Card, ...], _Node] = {}
        for node in beam:
            for card in ACTIONS:
                if card not in node.cards:
                    cards = (*node.cards, card)
                    children[cards] = _expand(node, seat, card, cards, position, bool(forecast), position in cancelled)
        beam = sorted(children.values(), key=lambda n: (n.score, [c.value for c in n.cards]))[:width]
    return beam[0]


def _expand(
    node: _Node, seat: int, card: Card, cards: tuple[Card, ...], position: int, busy: bool, cancelled: bool
) -> _Node:
    """``node`` after the bot's ``card``; in the busy world (if any) the card does nothing where
    it is ``cancelled`` (a forecast programme holds the bot's dragon there)."""
    if node.over:
        return replace(node, cards=cards, score=node.score + RISK.get(card, 0.0))
    idle = play_out(node.idle, seat, card, _quick)
    if not busy:
        other = idle
    elif cancelled:
        other = node.busy
    else:
        other = play_out(node.busy, seat, card, _quick)
    if _crossed(idle, seat) and _crossed(other, seat):
        return _Node(cards, idle, other, WIN + position, True)
    score = max(_score(idle, seat), _score(other, seat))
    return _Node(cards, idle, other, score)


def _rival_crossing(
    root: MekongState, seat: int, programme: tuple[Card, ...], forecast: Forecast
) -> tuple[int, int] | None:
    """The first other seat expected to cross while ``programme`` is played, and the position."""
    order = [s for s in root.turn_order() if s == seat or s in forecast]
    mine = dragon_of(root.colours[seat])
    state = root
    for position in range(PROGRAMME_LENGTH):
        for other in order:
            card = programme[position] if other == seat else forecast[other][position]
            if card is None or card.dragon is not None:
                continue
            if other == seat and any(forecast[o][position] is mine for o in forecast):
                continue
            if other != seat and programme[position] is dragon_of(state.colours[other]):
                continue
            state = play_out(state, other, card, _quick)
            if _crossed(state, other):
                return None if other == seat else (other, position)
    return None


def plan_programme(state: MekongState, seat: int, width: int = BEAM_WIDTH, foresight: bool = False) -> tuple[Card, ...]:
    """The 5 cards the planner programs for ``seat``, searching ``width`` partial programmes at
    each position (for the others' expected programmes as for its own). With ``foresight``, the
    others are expected to programme as ``planner`` would from their seats."""
    root = sim_root(state)
    others = [o for o in state.turn_order() if o != seat]
    if not foresight:
        return _plan(root, seat, {o: _search(root, o, {}, {}, width).cards for o in others}, width)
    alone: Forecast = {s: _search(root, s, {}, {}, BEAM_WIDTH).cards for s in state.turn_order()}
    forecast: Forecast = {o: _plan(root, o, {s: p for s, p in alone.items() if s != o}, BEAM_WIDTH) for o in others}
    return _plan(root, seat, forecast, width)


def _plan(root: MekongState, seat: int, forecast: Forecast, width: int) -> tuple[Card, ...]:
    """The best programme against ``forecast``, with a dragon where it stops a rival's crossing."""
    best = _search(root, seat, {}, forecast, width)
    threat = _rival_crossing(root, seat, best.cards, forecast)
    if threat is not None:
        rival, position = threat
        dragon = dragon_of(root.colours[rival])
        if dragon in root.hand(seat):
            guarded = _search(root, seat, {position: dragon}, forecast, width)
            if guarded.score < best.score:
                best = guarded
    return best.cards


class PlannerBot:
    """Searches programmes over likely resolutions; plays each card toward its shortest bridge route."""

    def __init__(self, ruleset: object | None = None, width: int = BEAM_WIDTH, foresight: bool = False) -> None:
        self.ruleset = ruleset
        self.width = width
        self.foresight = foresight

    def choose(self, state: MekongState, seat: int, rng: random.Random, budget: float | None = None) -> Command:
        if state.phase is Phase.PROGRAMMING:
            return Program(plan_programme(state, seat, self.width, self.foresight))
        moves = legal_moves(state, seat)
        if not moves:
            raise LookupError(f"seat {seat} has no legal move")
        card = state.card(seat)
        assert card is not None
        pick = choose(state, seat, card, thorough=True)
        if pick is not None and (pick in moves or _accepted(state, seat, pick)):
            return pick
        return moves[0]


def _accepted(state: MekongState, seat: int, command: Command) -> bool:
    """Whether the rules take ``command``: listings of plank attempts are a sample, not all of them."""
    try:
        decide(state, seat, command)
    except RuleError:
        return False
    return True
