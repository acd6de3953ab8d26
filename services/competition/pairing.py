"""Tournament pairings for tables of 2 to 6 seats, and the points a table's places give.

Pure functions of the standings and of who has met whom; ``services.competition.tournaments`` stores
what they return. Everything here is deterministic: the same history gives the same tables.

**Table sizes.** ``n`` players and tables of ``k`` seats make ``ceil(n / k)`` tables, filled
as evenly as possible (8 players at 3 seats: 3, 3, 2), never below the game's least seats;
players who cannot be seated at all (an odd number at two-seat tables) get a bye.

**Swiss** (FIDE Handbook C.04.1, "Basic rules for Swiss Systems": the number of rounds is
declared beforehand; players do not meet twice; an odd player out gets a bye; players are
paired with others of the same score), carried from two seats to ``k``: players are ranked
by score, then by the standings' tie-breaks; each table takes the best-ranked player not yet
seated, then fills its other seats walking down the ranking, taking the first player who has
met none of the table's players before; if no one is left who qualifies, the one who has met
them least. Walking down from the top keeps each table within a score group, or as close as
the count allows. Where that greedy seating repeats a pair, a bounded depth-first search over
the same choices, in the same order of preference, looks for a seating with fewer repeats
(``_Search``). The bye goes to the lowest-ranked player who has not had one.

**Owners and their bots.** A player and a bot account they own count as having met once already
(``stablemates``), so a Swiss round, and a round-robin's at more than two seats, keep them apart
while any other seating repeats fewer pairs: nobody opens a tournament against their own bot when
someone else could sit there. (Two bots of one owner may meet: a league of one author's bots is
all one stable.) A two-seat round-robin still has every pair meet once.

**Round-robin.** At two-seat tables, the circle method (Berger tables): ``n - 1`` rounds for
``n`` players (a bye each round when ``n`` is odd), every pair meeting once. At larger tables
no such schedule exists for most ``n``; each round is built as a Swiss round ranked by fewest
meetings instead of score, so the pairs who have not met come first, until every pair has met.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

Met = Counter[frozenset[str]]
"""How often each pair of players has sat at one table."""
SEARCH_STEPS = 20_000
"""How far the Swiss search looks for a round with fewer repeated pairs than the greedy one."""


def table_sizes(players: int, seats: int, least: int) -> tuple[list[int], int]:
    """The sizes of a round's tables, and how many players get a bye."""
    tables = -(-players // seats)
    while tables and players // tables < least:
        tables -= 1
    seated = min(players, tables * seats)
    if tables == 0:
        return [], players
    q, r = divmod(seated, tables)
    return [q + 1] * r + [q] * (tables - r), players - seated


def swiss(ranked: Sequence[str], met: Met, seats: int, least: int, byes: set[str]) -> tuple[list[list[str]], list[str]]:
    """The tables of a Swiss round for players ``ranked`` best first, and the players with a bye."""
    sizes, nbyes = table_sizes(len(ranked), seats, least)
    out_of_play = _byes(list(ranked), nbyes, byes)
    pool = [p for p in ranked if p not in out_of_play]
    return _Search(sizes, met).run(pool), out_of_play


class _Search:
    """Depth-first over the seatings the top-down rule tries first: each table opens with the
    best-ranked player left, and each further seat tries the players left by fewest meetings
    with the table, then by rank. Its first complete seating is the greedy one; it stops at
    the first seating with no repeated pair, or after ``SEARCH_STEPS`` steps with the best found."""

    def __init__(self, sizes: list[int], met: Met) -> None:
        self.sizes = sizes
        self.met = met
        self.steps = SEARCH_STEPS
        self.best: list[list[str]] = []
        self.best_repeats: int | None = None

    def run(self, pool: list[str]) -> list[list[str]]:
        self._seat([], pool, 0)
        return self.best

    def _seat(self, tables: list[list[str]], pool: list[str], repeats: int) -> None:
        if self.steps <= 0 or (self.best_repeats is not None and repeats >= self.best_repeats):
            return
        self.steps -= 1
        if not pool:
            self.best, self.best_repeats = [list(t) for t in tables], repeats
            return
        if not tables or len(tables[-1]) == self.sizes[len(tables) - 1]:
            self._seat([*tables, [pool[0]]], pool[1:], repeats)
            return
        table = tables[-1]
        scored = sorted(range(len(pool)), key=lambda i: (sum(self.met[frozenset((pool[i], q))] for q in table), i))
        for i in scored:
            extra = sum(self.met[frozenset((pool[i], q))] for q in table)
            self._seat([*tables[:-1], [*table, pool[i]]], pool[:i] + pool[i + 1 :], repeats + extra)
            if self.best_repeats == 0 or self.steps <= 0:
                return


def _byes(ranked: list[str], count: int, had: set[str]) -> list[str]:
    """The lowest-ranked players who have not had a bye (if all have, the lowest-ranked)."""
    order = [p for p in reversed(ranked) if p not in had] + [p for p in reversed(ranked) if p in had]
    return order[:count]


def round_robin(
    players: Sequence[str], round_no: int, met: Met, seats: int, least: int, byes: set[str]
) -> tuple[list[list[str]], list[str]]:
    """The tables of round ``round_no`` (from 1) of a round-robin of ``players`` (in registration order)."""
    if seats == 2:
        return _circle(players, round_no)
    newest = sorted(players, key=lambda p: (sum(met[frozenset((p, q))] for q in players if q != p), players.index(p)))
    return swiss(newest, met, seats, least, byes)


def _circle(players: Sequence[str], round_no: int) -> tuple[list[list[str]], list[str]]:
    """Berger tables: the first player stays put, the others turn one place each round."""
    ring: list[str | None] = list(players)
    if len(ring) % 2:
        ring.append(None)
    n = len(ring)
    turn = (round_no - 1) % (n - 1)
    rest = ring[1:]
    rest = rest[-turn:] + rest[:-turn] if turn else rest
    ring = [ring[0], *rest]
    tables, byes = [], []
    for i in range(n // 2):
        a, b = ring[i], ring[n - 1 - i]
        if a is None or b is None:
            byes.append(a or b)
        else:
            tables.append([a, b])
    return tables, [p for p in byes if p is not None]


def round_robin_rounds(players: int, seats: int) -> int:
    """Rounds that let every pair meet: ``n - 1`` (``n`` rounded up to even) at two seats; at
    more seats, enough that each player meets the ``n - 1`` others ``seats - 1`` at a time."""
    if seats == 2:
        return players - 1 if players % 2 == 0 else players
    return -(-(players - 1) // (seats - 1))


def points(places: Sequence[int]) -> list[float]:
    """Each seat's points from its table: the share of the other seats it placed above, a tie
    counting half (first of n: 1; last: 0; all tied: 0.5 each)."""
    n = len(places)
    if n < 2:
        return [1.0] * n
    return [(sum(1 for q in places if q > p) + 0.5 * (sum(1 for q in places if q == p) - 1)) / (n - 1) for p in places]


def stablemates(owners: dict[str, str | None]) -> Met:
    """One meeting for each player and a bot account of theirs among the players (``owners`` maps
    each player to the account that owns it, or to None)."""
    return Counter(frozenset((bot, owner)) for bot, owner in owners.items() if owner in owners)


def meetings(tables: Sequence[Sequence[str]]) -> Met:
    met: Met = Counter()
    for table in tables:
        for a, b in combinations(table, 2):
            met[frozenset((a, b))] += 1
    return met
