"""Tournament pairings (``services.competition.pairing``): table sizes, Swiss, round-robin and table points."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from services.competition import pairing


@pytest.mark.parametrize(
    ("players", "seats", "least", "sizes", "byes"),
    [
        (8, 3, 2, [3, 3, 2], 0),
        (9, 3, 2, [3, 3, 3], 0),
        (7, 2, 2, [2, 2, 2], 1),
        (13, 6, 2, [5, 4, 4], 0),
        (5, 4, 2, [3, 2], 0),
        (4, 6, 3, [4], 0),
        (1, 2, 2, [], 1),
    ],
)
def test_tables_are_as_even_as_possible_and_never_below_the_least_seats(
    players: int, seats: int, least: int, sizes: list[int], byes: int
) -> None:
    assert pairing.table_sizes(players, seats, least) == (sizes, byes)


def test_the_first_swiss_round_seats_the_ranking_top_down() -> None:
    ranked = [f"p{k}" for k in range(8)]
    tables, byes = pairing.swiss(ranked, Counter(), 3, 2, set())
    assert tables == [["p0", "p1", "p2"], ["p3", "p4", "p5"], ["p6", "p7"]]
    assert byes == []


def test_swiss_avoids_repeat_opponents_where_it_can() -> None:
    """After round 1 (p0 p1 p2 / p3 p4 p5) the same ranking would repeat both tables. p0's table
    takes p3, the first who has not met p0; no one left has met neither, so it takes the first
    of those who met them least (p1). Two repeated pairs instead of six."""
    ranked = [f"p{k}" for k in range(6)]
    met = pairing.meetings([["p0", "p1", "p2"], ["p3", "p4", "p5"]])
    tables, _ = pairing.swiss(ranked, met, 3, 2, set())
    assert tables == [["p0", "p3", "p1"], ["p2", "p4", "p5"]]
    assert sum(met[frozenset(pair)] for t in tables for pair in combinations(t, 2)) == 2


def test_swiss_keeps_equal_scores_together() -> None:
    """Ranked by score (a b c d on 1 point, e f g h on 0), nobody has met: tables of two pair
    within each score group."""
    ranked = list("abcdefgh")
    tables, _ = pairing.swiss(ranked, Counter(), 2, 2, set())
    assert tables == [["a", "b"], ["c", "d"], ["e", "f"], ["g", "h"]]


def test_the_bye_goes_to_the_lowest_ranked_player_without_one() -> None:
    tables, byes = pairing.swiss(list("abcde"), Counter(), 2, 2, {"e"})
    assert byes == ["d"]
    assert sorted(p for t in tables for p in t) == list("abce")


def test_a_two_seat_round_robin_meets_every_pair_exactly_once() -> None:
    players = [f"p{k}" for k in range(6)]
    met: Counter[frozenset[str]] = Counter()
    for r in range(1, pairing.round_robin_rounds(6, 2) + 1):
        tables, byes = pairing.round_robin(players, r, met, 2, 2, set())
        assert byes == []
        met += pairing.meetings(tables)
    assert set(met) == {frozenset(p) for p in combinations(players, 2)}
    assert set(met.values()) == {1}


def test_an_odd_round_robin_gives_each_player_one_bye() -> None:
    players = list("abcde")
    byes: list[str] = []
    for r in range(1, pairing.round_robin_rounds(5, 2) + 1):
        _tables, bye = pairing.round_robin(players, r, Counter(), 2, 2, set())
        byes += bye
    assert sorted(byes) == players


def test_a_larger_table_round_robin_meets_every_pair() -> None:
    players = [f"p{k}" for k in range(9)]
    met: Counter[frozenset[str]] = Counter()
    rounds = 0
    while len(met) < 36 and rounds < 12:
        rounds += 1
        tables, _ = pairing.round_robin(players, rounds, met, 3, 2, set())
        met += pairing.meetings(tables)
    assert len(met) == 36
    assert rounds <= 6


def test_points_share_the_table_ties_counting_half() -> None:
    assert pairing.points([1, 2, 3]) == [1.0, 0.5, 0.0]
    assert pairing.points([1, 1, 3, 4]) == [pytest.approx(2.5 / 3)] * 2 + [pytest.approx(1 / 3), 0.0]
    assert pairing.points([1, 1]) == [0.5, 0.5]


def test_a_player_and_their_own_bot_count_as_having_met() -> None:
    met = pairing.stablemates({"ann": None, "ann-bot": "ann", "bob": None, "cid-bot": "cid"})
    assert met == Counter({frozenset(("ann", "ann-bot")): 1}), "cid is not playing: no pair"


def test_swiss_keeps_a_player_from_their_own_bot_where_it_can() -> None:
    """Ranked ann, her bot, bob, cid: the top-down rule would seat ann against her bot."""
    met = pairing.stablemates({"ann": None, "ann-bot": "ann", "bob": None, "cid": None})
    tables, _ = pairing.swiss(["ann", "ann-bot", "bob", "cid"], met, 2, 2, set())
    assert tables == [["ann", "bob"], ["ann-bot", "cid"]]
    tables, _ = pairing.swiss(["ann", "ann-bot"], met, 2, 2, set())
    assert tables == [["ann", "ann-bot"]], "with nobody else, they play"
