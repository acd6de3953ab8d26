"""The narrated log (``services.reads.game_log``): a game told in words to each reader, step by step.

Dice Race stands in for a game: a simultaneous secret bid opens each round, then the seats roll in
turn. The log is built from the events as the reader may see them, so a bid stays secret to the
others while the round runs; it numbers the steps as people count them (0 is the start of play);
read piece by piece as a page follows the game, it says exactly what it says read whole; and its
status line and result say whose turn it is and how the game ended, a resignation as one.
"""

from __future__ import annotations

import random
from typing import Any

from services.common.clock import FakeClock
from services.reads.game_log import narrated_log, status_line
from services.reads.platform_words import clock_words, duration
from services.reads.seat_names import names_in
from services.reads.step_index import before_step, step_index
from tests.support.page_text import narration_faults


def _table(
    platform: Any, players: int = 2, options: dict[str, Any] | None = None, **extra: Any
) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(name, "human")[0].id for name in ("ann", "bea", "cai")[:players]]
    game = platform.games.create_game(ids[0], "dice-race", None, options, players, **extra)
    for pid, name in zip(ids, ("ann", "bea", "cai"), strict=False):
        platform.games.take_seat(str(game.id), pid, name, "human")
    return str(game.id), ids


def _lines(log: dict[str, Any]) -> list[str]:
    return [line["text"] for step in log["steps"] for line in step["lines"]]


def _play(platform: Any, gid: str, ids: list[str], decisions: int, seed: int = 3) -> None:
    rng = random.Random(seed)
    for _ in range(decisions):
        game = platform.games.load(gid)
        if game.status != "active":
            return
        seat = rng.choice(game.awaiting)
        move = rng.choice(list(game.ruleset.legal_moves(game.state, seat)))
        platform.games.submit_move(gid, ids[seat], game.ruleset.commands.dump(move))


def test_the_log_numbers_the_steps_from_the_start_of_play_and_names_the_reader_you(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    log = narrated_log(platform.queries, gid, ids[0])
    assert [s["step"] for s in log["steps"]] == [0, 0, 0, 0, 1]
    assert log["steps"][1]["title"] == "You (teal) took a seat"
    assert log["steps"][-1]["title"] == "You: bid two" and log["steps"][-1]["kind"] == "move"
    assert "You bid two." in _lines(log)
    assert log["status_line"] == "Waiting for bea (orange)."
    assert narrated_log(platform.queries, gid, ids[1])["status_line"] == "Your turn."
    for line in _lines(log):
        assert not narration_faults(line), line


def test_a_secret_bid_is_told_to_the_others_without_its_amount(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 2})
    theirs = _lines(narrated_log(platform.queries, gid, ids[1]))
    watching = _lines(narrated_log(platform.queries, gid, None))
    assert "ann bid in secret." in theirs and "ann bid in secret." in watching
    assert not any("bid two" in line for line in theirs + watching)
    assert "You bid two." in _lines(narrated_log(platform.queries, gid, ids[0]))


def test_the_log_read_piece_by_piece_says_what_it_says_read_whole(platform: Any) -> None:
    """What a page shows live (each change's steps, ``after`` the last version it read) is what
    a reload shows: the same lines, in the same order. (While the game runs: once it ends, a reload
    reveals what the live page was rightly not shown, so the goal is far enough that it never ends
    within these decisions, whatever the deal and the dice.)"""
    gid, ids = _table(platform, 3, {"goal": 100})
    live: list[str] = []
    seen = 0
    for _ in range(12):
        _play(platform, gid, ids, 1)
        piece = narrated_log(platform.queries, gid, ids[1], after=seen)
        live += _lines(piece)
        seen = piece["version"]
    assert platform.games.load(gid).status == "active"
    assert live and live == _lines(narrated_log(platform.queries, gid, ids[1]))


def test_a_window_of_the_log_tells_those_steps_as_the_whole_log_tells_them(platform: Any) -> None:
    """The audit narrates the page of steps it shows, not the whole game: each window is the same
    slice of the whole log, for a player and a spectator, while the game runs and once it ended
    (whose result names the decision that ended it, outside the window)."""
    gid, ids = _table(platform, 3)
    for decisions in (9, 400):
        _play(platform, gid, ids, decisions)
        for reader in (ids[0], None):
            whole = narrated_log(platform.queries, gid, reader)
            steps = len(whole["steps"])
            for window in (slice(0, 5), slice(5, 11), slice(steps - 3, steps + 20), slice(steps, steps + 5)):
                part = narrated_log(platform.queries, gid, reader, window=window)
                assert part["steps"] == whole["steps"][window], window
                assert part["result"] == whole["result"] and part["status_line"] == whole["status_line"]
    assert platform.games.load(gid).status == "finished" and whole["result"]


def test_a_resignation_ends_the_game_in_its_own_words(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.resign(gid, ids[1])
    log = narrated_log(platform.queries, gid, ids[0])
    assert log["status"] == "finished"
    assert log["result"] == "You (teal) won: bea resigned. bea (orange) came second."
    assert log["status_line"] == log["result"]
    assert "bea resigned." in _lines(log)


def test_a_timeout_is_told_as_a_notice_of_what_the_server_played(platform: Any, fake_clock: FakeClock) -> None:
    gid, ids = _table(platform, time_control={"kind": "per_move", "seconds": 60, "timeout_policy": "auto"})
    game = platform.games.load(gid)
    fake_clock.advance(61)
    fired = platform.timers.fire_deadline(gid, 0, game.version, lambda g: g.ruleset.legal_moves(g.state, 0)[1])
    assert fired[0] == "fired"
    log = narrated_log(platform.queries, gid, ids[0])
    notices = [line for step in log["steps"] for line in step["lines"] if line["notice"]]
    assert [n["text"] for n in notices] == ["You ran out of time; the server played 'bid one' for you."]
    started = next(s for s in log["steps"] if s["kind"] == "started")
    assert started["title"] == "The game started: you (teal) and bea (orange); each turn has 60 seconds; the " \
                               "server plays for a player whose time runs out"  # fmt: skip
    others = narrated_log(platform.queries, gid, ids[1])
    assert "ann ran out of time; the server played 'bid in secret' for ann." in _lines(others)


def test_a_step_names_the_position_its_decision_was_taken_on(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1})
    platform.games.submit_move(gid, ids[1], {"type": "bid", "amount": 0})
    index = step_index(platform.games.stored_events(gid))
    first, second = before_step(index, 1), before_step(index, 2)
    assert first is not None and second is not None and before_step(index, 0) is None
    assert (first["seat"], second["seat"]) == (0, 1)
    assert second["version"] == next(s["until"] for s in index if s["step"] == 1)
    assert first["version"] == max(s["until"] for s in index if s["step"] == 0)


def test_the_status_line_waits_for_players_says_whose_turn_and_never_waits_for_the_reader() -> None:
    names = names_in("dice-race", "standard", {}, [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bea"}], 3,
                     "active", None)  # fmt: skip
    assert status_line("open", [], names, 2, 3, None) == "Waiting for players: 2 of 3 seats taken."
    assert status_line("active", [1], names, 2, 2, None) == "Waiting for bea (orange)."
    seats = [{"seat": 0, "name": "ann", "player_id": "a"}, {"seat": 1, "name": "bea", "player_id": "b"}]
    mine = names_in("dice-race", "standard", {}, seats, 2, "active", "a")
    assert status_line("active", [0, 1], mine, 2, 2, None) == "Your turn; bea (orange) also to play."
    assert status_line("finished", [], mine, 2, 2, "You won.") == "You won."


def test_seats_take_their_game_colours_before_the_game_starts() -> None:
    seats = [{"seat": 0, "name": "ann"}]
    assert names_in("mekong", "classic", {}, seats, 3, "open", None).full(0) == "ann (red)"
    assert names_in("mekong", "river-dragons", {}, seats, 2, "open", None).full(0) == "ann (pink)"
    assert names_in("tarasque", "dragon-dice", {}, seats, 2, "open", None).full(0) == "ann (teal)"


def test_clocks_are_told_in_round_words() -> None:
    assert duration(20) == "20 seconds" and duration(180) == "three minutes" and duration(86_400) == "24 hours"
    assert duration(9_000) == "two hours 30 minutes" and duration(5 * 86_400) == "five days"
    assert clock_words({"kind": "none"}) == ""
    assert clock_words({"kind": "bank", "initial": 600, "increment": 10, "cap": 900, "timeout_policy": "forfeit"}) == (
        "each player has ten minutes in the bank, plus ten seconds a turn; a player whose time runs out leaves the game"
    )


def test_a_disputes_sandbox_is_no_turn_in_the_inbox(platform: Any) -> None:
    gid, ids = _table(platform)
    platform.games.resign(gid, ids[1])
    at = before_step(step_index(platform.games.stored_events(gid)), 1)
    assert at is not None
    dispute = platform.disputes.open(gid, ids[0], at["version"], "a claim", None, None)
    sandbox = dispute["answer"]["sandbox_id"]
    assert platform.games.load(sandbox).awaiting, "the sandbox awaits its seats, all the opener's"
    assert not platform.timers.inbox_of(ids[0])["awaiting"]


def test_every_platform_event_has_its_sentence() -> None:
    """The platform's events are told by one narrator: a new one without words fails here."""
    from domain.kernel.narration import Audience, Narrator
    from services.play.aggregate import Game
    from services.reads.platform_words import PlatformWords

    kinds = {name for name, cls in vars(Game).items() if isinstance(cls, type) and issubclass(cls, Game.Event)}
    kinds -= {"Event", "RuleEvent", "SeatEvent", "Snapshot"}  # bases, never stored
    words = PlatformWords(Narrator(), Audience(names_in("dice-race", "standard", {}, [], 2, "open", None)), {})
    assert kinds and not kinds - set(words.told), "platform events told in no words"


def test_a_place_on_the_track_is_told_against_the_finish_of_the_games_own_track(platform: Any) -> None:
    """The log knows the game's configuration, so a Drachenreiter distance says what is left to fly."""
    ids = [platform.accounts.register(name, "human")[0].id for name in ("ann", "bea")]
    gid = str(platform.games.create_game(ids[0], "drachenreiter", None, None, 2).id)
    for pid, name in zip(ids, ("ann", "bea"), strict=True):
        platform.games.take_seat(gid, pid, name, "human")
    rng = random.Random(5)
    placed: list[str] = []
    while not placed:
        game = platform.games.load(gid)
        seat = rng.choice(game.awaiting)
        move = rng.choice(list(game.ruleset.legal_moves(game.state, seat)))
        platform.games.submit_move(gid, ids[seat], game.ruleset.commands.dump(move))
        placed = [line for line in _lines(narrated_log(platform.queries, gid, ids[0])) if "along the track" in line]
    assert all("short of the finish" in line or "past the finish line" in line for line in placed), placed


def test_a_game_whose_options_todays_code_refuses_is_still_told(platform: Any, monkeypatch: Any) -> None:
    """The log's configuration is a nicety: a stored game that no longer configures (an option since
    retired) is told without it, never refused."""
    from domain.kernel import ConfigError
    from services.play.aggregate import Game

    ids = [platform.accounts.register(name, "human")[0].id for name in ("ann", "bea")]
    gid = str(platform.games.create_game(ids[0], "drachenreiter", None, None, 2).id)
    for pid, name in zip(ids, ("ann", "bea"), strict=True):
        platform.games.take_seat(gid, pid, name, "human")

    def refused(self: Any) -> Any:
        raise ConfigError("options.track", "unknown track")

    monkeypatch.setattr(Game, "config", refused)
    lines = _lines(narrated_log(platform.queries, gid, ids[0]))
    assert any("The game started" in line for line in lines), lines
