"""Ratings are a projection of the game events: which games count, how places move ratings, and
that a rebuild from zero gives the very same tables as the incremental projection."""

from __future__ import annotations

import gzip
import json
import random
import uuid
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest

from projections.ratings import MODEL, RatingBook
from services.common import clock
from services.common.ports import NullWork
from services.reads.profiles import PROVISIONAL_GAMES
from tests.conftest import make_settings
from tests.support.rated_games import (
    corpus_events,
    corpus_players,
    fresh_views,
    play_population,
    play_table,
    population,
    rating_tables,
    rebuild,
)
from wiring import bootstrap

CORPUS = Path(__file__).parents[2] / "regression" / "corpus"


@pytest.fixture
def rated() -> Iterator[Any]:
    p = bootstrap(make_settings("memory"), work=NullWork())
    yield p
    p.close()


def _seats(*players: str) -> list[dict[str, Any]]:
    return [{"seat": i, "player_id": p, "name": p, "kind": "human", "bot": None} for i, p in enumerate(players)]


def _book_game(book: RatingBook, gid: str, rated: bool = True, sandbox: bool = False) -> list[Any]:
    changes = book.created(gid, "tarasque", "numbered", rated, sandbox)
    return changes + book.decided(gid)


def _apply(views: Any, changes: list[Any]) -> None:
    views.write(changes)


class TestWhichGamesCount:
    @pytest.mark.parametrize(
        ("meta", "status", "players", "places", "verdict"),
        [
            ({}, "finished", ("a", "b"), [1, 2], "rated"),
            ({"rated": False}, "finished", ("a", "b"), [1, 2], "casual"),
            ({"sandbox": True}, "finished", ("a", "b"), [1, 2], "sandbox"),
            ({}, "finished", ("a", "a"), [1, 2], "solo"),
            ({}, "finished", ("a",), [1], "solo"),
            ({"decided": False}, "finished", ("a", "b"), [1, 2], "no_decision"),
            ({}, "abandoned", ("a", "b"), [], "abandoned"),
        ],
    )
    def test_the_verdict_follows_the_documented_rules(
        self, meta: dict[str, Any], status: str, players: tuple[str, ...], places: list[int], verdict: str
    ) -> None:
        full = {"rated": True, "sandbox": False, "decided": True, **meta}
        assert RatingBook.verdict(full, status, _seats(*players), places) == verdict

    def test_a_casual_game_is_a_result_but_moves_no_rating(self) -> None:
        views = fresh_views()
        book = RatingBook(views)
        changes = _book_game(book, "g1", rated=False)
        changes += book.ended("g1", "finished", _seats("a", "b"), [1, 2], "2026-01-01T00:00:00+00:00")
        _apply(views, changes)
        assert views.rating("a", "tarasque") is None
        assert [r["rated"] for r in views.results_of("a", 10)] == [0]
        assert views.record_of("a") == {"played": 1, "won": 1}

    def test_a_sandbox_leaves_no_result(self) -> None:
        views = fresh_views()
        book = RatingBook(views)
        changes = _book_game(book, "g1", sandbox=True)
        changes += book.ended("g1", "finished", _seats("a", "b"), [1, 2], "2026-01-01T00:00:00+00:00")
        _apply(views, changes)
        assert views.results_of("a", 10) == []
        assert views.rating_game("g1")["verdict"] == "sandbox"


class TestHowPlacesMoveRatings:
    def test_every_place_counts_and_ties_move_alike(self) -> None:
        """Four seats: a first, b and c tied second, d last. The order of the losers counts (d
        loses more than b and c), and a tie is a tie (b and c move alike)."""
        views = fresh_views()
        book = RatingBook(views)
        changes = _book_game(book, "g1")
        changes += book.ended("g1", "finished", _seats("a", "b", "c", "d"), [1, 2, 2, 4], "2026-01-01T00:00:00+00:00")
        _apply(views, changes)
        mu = {p: views.rating(p, "tarasque")["mu"] for p in "abcd"}
        assert mu["a"] > MODEL.mu > mu["d"]
        assert mu["b"] == mu["c"]
        assert mu["a"] > mu["b"] > mu["d"]

    def test_each_rated_game_is_one_history_row_per_seat_and_a_player_is_provisional_at_first(self) -> None:
        views = fresh_views()
        book = RatingBook(views)
        for n in range(PROVISIONAL_GAMES):
            gid = f"g{n}"
            changes = _book_game(book, gid)
            changes += book.ended(gid, "finished", _seats("a", "b"), [1, 2], f"2026-01-01T00:00:{n:02d}+00:00")
            _apply(views, changes)
        history = views.rating_history("a", "tarasque", 100, 0)
        assert [h["n"] for h in history] == list(range(PROVISIONAL_GAMES, 0, -1))
        assert history[0]["mu"] == views.rating("a", "tarasque")["mu"]
        assert history[-1]["mu_before"] == MODEL.mu
        assert views.rating("a", "tarasque")["sigma"] < MODEL.sigma
        assert views.leaderboard("tarasque", PROVISIONAL_GAMES, 10, 0)[0]["player_id"] == "a"
        assert views.leaderboard("tarasque", PROVISIONAL_GAMES + 1, 10, 0) == []

    def test_a_book_that_forgot_reads_the_ratings_back_from_its_tables(self) -> None:
        """After a failed write the projection forgets; its next game starts from the tables'
        ratings, which are those it had in memory."""
        views = fresh_views()
        book = RatingBook(views)
        _apply(views, _book_game(book, "g1") + book.ended("g1", "finished", _seats("a", "b"), [1, 2], "t1"))
        forgetful = RatingBook(views)
        forgetful.forget()
        one = _book_game(book, "g2") + book.ended("g2", "finished", _seats("a", "b"), [2, 1], "t2")
        two = _book_game(forgetful, "g2") + forgetful.ended("g2", "finished", _seats("a", "b"), [2, 1], "t2")
        assert one == two


class TestAPopulationSortsItself:
    @pytest.mark.slow
    def test_the_stronger_bots_rank_above_the_random_ones_after_sixty_games(self, rated: Any) -> None:
        """Four greedy and four random players of Seven Dragons, 60 rated games of 2 to 4 seats
        drawn at random (a fixed seed): every greedy player's rating ends above every random
        player's. ``bench/ratings.py`` runs the same over a few hundred games of every game."""
        play_population(rated, "seven-dragons", population("greedy"), 60, seed=7)
        rated.wait_for_projections()
        board = [r["player_id"] for r in rated.views.leaderboard("seven-dragons", 0, 20, 0)]
        assert len(board) == 8
        assert all(p.startswith("greedy") for p in board[:4]), board


class TestRebuildFromZero:
    @pytest.mark.slow
    def test_random_games_rebuild_to_identical_ratings(self, rated: Any) -> None:
        """Seeded bot games of every game, 2 to 6 seats, some casual, one abandoned at its
        scheduled start: the rating tables rebuilt from the events equal the incremental ones."""
        rng = random.Random(23)
        pool = [f"p{k}" for k in range(8)]
        for n in range(12):
            game = ["tarasque", "seven-dragons", "drachenreiter", "mekong"][n % 4]
            seats = 2 + n % 4 if game != "seven-dragons" else 2 + n % 3
            bots = ["random", "greedy" if game in ("tarasque", "seven-dragons") else "random"]
            players = [(p, bots[k % 2]) for k, p in enumerate(rng.sample(pool, seats))]
            play_table(rated, game, players, rng, rated=n % 5 != 4)
        starts = clock.now() + timedelta(hours=1)
        cancelled = rated.games.create_game(
            "p0", "tarasque", None, None, 3, starts_at=starts, settings={"fill": "cancel"}
        )
        rated.games.take_seat(str(cancelled.id), "p1", "p1", "human")
        rated.games.start_scheduled(str(cancelled.id), starts + timedelta(seconds=1))
        rated.wait_for_projections()
        incremental = rating_tables(rated.views)
        verdicts = {r["verdict"] for r in incremental["dh_rating_games"]}
        assert verdicts == {"rated", "casual", "abandoned"}
        assert rating_tables(rebuild(rated.store)) == incremental
        assert rating_tables(rebuild(rated.store, batch=7)) == incremental

    def test_dropping_the_read_models_drops_the_ratings_with_them(self, rated: Any) -> None:
        """``dragonhall rebuild-projections`` drops every read model, then rebuilds from zero: the
        rating tables are among them, so a rebuild never counts a game twice."""
        play_table(rated, "seven-dragons", [("a", "greedy"), ("b", "random")], random.Random(3))
        rated.wait_for_projections()
        views = fresh_views()
        rebuild(rated.store, views)
        assert all(rows for table, rows in rating_tables(views).items() if table != "dh_rating_seats")  # game ended
        views.drop_views()
        assert not any(rating_tables(views).values())
        assert rating_tables(rebuild(rated.store, views)) == rating_tables(rated.views)

    def test_each_finished_game_counts_once(self, rated: Any) -> None:
        rng = random.Random(5)
        for _ in range(4):
            play_table(rated, "seven-dragons", [("a", "greedy"), ("b", "random"), ("c", "random")], rng)
        rated.wait_for_projections()
        tables = rating_tables(rated.views)
        assert len(tables["dh_rating_history"]) == 4 * 3
        assert {r["games"] for r in tables["dh_ratings"]} == {4}

    @pytest.mark.slow
    def test_the_regression_corpus_rebuilds_to_identical_ratings(self, rated: Any) -> None:
        """Every recorded game of ``tests/regression/corpus``, its seats held by a pool of distinct
        players (``corpus_players``), projected as it is stored, then rebuilt from zero."""
        for path in sorted(CORPUS.glob("*/*.json.gz")):
            with gzip.open(path, "rt", encoding="utf-8") as f:
                record = json.load(f)
            gid = uuid.uuid5(uuid.NAMESPACE_URL, f"{path.parent.name}/{path.name}")
            rated.store.save(*corpus_events(record, corpus_players(record), gid))
        rated.wait_for_projections(timeout=120)
        incremental = rating_tables(rated.views)
        assert {r["verdict"] for r in incremental["dh_rating_games"]} == {"rated"}
        assert len(incremental["dh_rating_games"]) == len(list(CORPUS.glob("*/*.json.gz")))
        assert rating_tables(rebuild(rated.store)) == incremental
