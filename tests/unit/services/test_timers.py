"""Time controls, timeouts, reminders, vacations and scheduled games, on a clock the tests move.

Dice Race stands in for a game: every round opens with a simultaneous secret bid
(each seat runs its own clock), then seats roll in turn.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from typing import Any

import pytest

from services.common import clock
from services.common.clock import FakeClock
from services.common.errors import InvalidRequest
from services.deadlines import clocks
from services.deadlines.timers import (
    BOT_NUDGE,
    BOT_STALL,
    LOST_DELIVERY,
    FireDeadline,
    PlayBot,
    PostWebhook,
    Remind,
    StartGame,
)
from services.play.aggregate import Game
from tests.support.names import fresh


def first_move(game: Any, seat: int) -> Any:
    return game.ruleset.legal_moves(game.state, seat)[0]


def _game(platform: Any, tc: dict[str, Any], players: int = 2) -> tuple[str, list[str]]:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(players)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, players, time_control=tc)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, "p", "human")
    return str(game.id), ids


def _deliver(platform: Any, delivery_id: str) -> str:
    """Runs the webhook job: the delivery's status, or ``"retry"`` where the job asks to run again."""
    from workers import jobs

    try:
        return jobs.webhook(platform, lambda actions: None, delivery_id)
    except jobs.RetryLater:
        return "retry"


def _timeouts(platform: Any, gid: str) -> list[Any]:
    return [e for e in platform.games.stored_events(gid) if isinstance(e, Game.TurnTimedOut)]


def test_a_per_move_deadline_fires_once_at_its_time_and_a_bot_stands_in(platform: Any, fake_clock: FakeClock) -> None:
    gid, _ = _game(platform, {"kind": "per_move", "seconds": 60, "timeout_policy": "auto"})
    game = platform.games.load(gid)
    assert platform.timers.deadline(game, 0) == fake_clock.now() + timedelta(seconds=60)
    fake_clock.advance(59)
    assert platform.timers.fire_deadline(gid, 0, game.version, lambda g: first_move(g, 0))[0] == "early"
    fake_clock.advance(2)
    assert platform.timers.fire_deadline(gid, 0, game.version, lambda g: first_move(g, 0))[0] == "fired"
    assert platform.timers.fire_deadline(gid, 0, game.version, lambda g: first_move(g, 0))[0] == "stale"
    (timeout,) = _timeouts(platform, gid)
    assert (timeout.seat, timeout.policy, timeout.applied) == (0, "auto", "auto")
    assert timeout.move == {"type": "bid", "amount": 0}
    assert platform.games.load(gid).awaiting == [1]


def test_a_timer_that_runs_after_the_seat_has_moved_writes_nothing(platform: Any, fake_clock: FakeClock) -> None:
    gid, ids = _game(platform, {"kind": "per_move", "seconds": 30, "timeout_policy": "auto"})
    version = platform.games.load(gid).version
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 1})
    fake_clock.advance(3600)
    before = [e.originator_version for e in platform.games.stored_events(gid)]
    assert platform.timers.fire_deadline(gid, 0, version, lambda g: first_move(g, 0))[0] == "stale"
    assert [e.originator_version for e in platform.games.stored_events(gid)] == before


def test_each_seat_of_a_simultaneous_phase_runs_its_own_clock(platform: Any, fake_clock: FakeClock) -> None:
    gid, ids = _game(platform, {"kind": "per_move", "seconds": 100, "timeout_policy": "auto"})
    fake_clock.advance(40)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 0})
    game = platform.games.load(gid)
    assert platform.timers.deadline(game, 0) is None
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    assert platform.timers.deadline(game, 1) == start + timedelta(seconds=100)
    view = platform.timers.clock_view(game.time_control, game.status, game.seats, game.turns, game.banks)
    assert view["0"]["running"] is False and view["1"]["remaining"] == 60.0


def test_forfeit_removes_the_seat_and_the_game_goes_on(platform: Any, fake_clock: FakeClock) -> None:
    gid, _ = _game(platform, {"kind": "per_move", "seconds": 10, "timeout_policy": "forfeit"}, players=3)
    version = platform.games.load(gid).version
    fake_clock.advance(11)
    assert platform.timers.fire_deadline(gid, 1, version, lambda g: first_move(g, 1))[0] == "fired"
    game = platform.games.load(gid)
    assert game.status == "active" and game.left == [1] and 1 not in game.awaiting
    assert _timeouts(platform, gid)[0].applied == "forfeit"
    platform.timers.fire_deadline(gid, 0, game.version, lambda g: first_move(g, 0))
    game = platform.games.load(gid)
    assert game.status == "finished" and game.outcome["places"][1] == 3


def test_skip_loses_what_the_rules_let_be_lost_and_falls_back_to_the_bot(platform: Any, fake_clock: FakeClock) -> None:
    gid, _ids = _game(platform, {"kind": "per_move", "seconds": 10, "timeout_policy": "skip"})
    version = platform.games.load(gid).version
    fake_clock.advance(11)
    platform.timers.fire_deadline(gid, 0, version, lambda g: first_move(g, 0))
    assert _timeouts(platform, gid)[-1].applied == "skip"
    game = platform.games.load(gid)
    platform.timers.fire_deadline(gid, 1, game.version, lambda g: first_move(g, 1))
    game = platform.games.load(gid)  # both bids are in: now seats roll, which cannot be skipped
    roller = game.awaiting[0]
    fake_clock.advance(11)
    platform.timers.fire_deadline(gid, roller, game.version, lambda g: first_move(g, roller))
    last = _timeouts(platform, gid)[-1]
    assert (last.policy, last.applied, last.move) == ("skip", "auto", {"type": "roll"})


def test_a_bank_clock_takes_the_time_used_adds_its_increment_and_respects_its_cap(
    platform: Any, fake_clock: FakeClock
) -> None:
    tc = {"kind": "bank", "initial": 100, "increment": 50, "cap": 120, "timeout_policy": "auto"}
    gid, ids = _game(platform, tc)
    fake_clock.advance(30)
    platform.games.submit_move(gid, ids[0], {"type": "bid", "amount": 0})
    settled = [e for e in platform.games.stored_events(gid) if isinstance(e, Game.ClockSettled)]
    assert settled[-1].used == {"0": 30.0} and settled[-1].banks == {"0": 120.0}  # 70 + 50, capped at 120
    fake_clock.advance(90)  # seat 1 has been thinking for 120 s of its 100 s bank
    game = platform.games.load(gid)
    assert platform.timers.deadline(game, 1) == datetime(2026, 3, 2, 9, 1, 40, tzinfo=UTC)
    platform.timers.fire_deadline(gid, 1, game.version, lambda g: first_move(g, 1))
    settled = [e for e in platform.games.stored_events(gid) if isinstance(e, Game.ClockSettled)]
    assert settled[-1].used == {"1": 120.0} and settled[-1].banks == {"1": 50.0}  # empty, plus the increment


def test_vacation_days_stop_the_clock(platform: Any, fake_clock: FakeClock) -> None:
    gid, ids = _game(platform, {"kind": "per_move", "seconds": 86_400, "timeout_policy": "auto"})
    platform.vacations.declare(ids[0], date(2026, 3, 3), 2)
    game = platform.games.load(gid)
    # Monday 09:00 plus a day of clock time, with Tuesday and Wednesday off: Thursday 09:00.
    assert platform.timers.deadline(game, 0) == datetime(2026, 3, 5, 9, 0, tzinfo=UTC)
    assert platform.timers.deadline(game, 1) == datetime(2026, 3, 3, 9, 0, tzinfo=UTC)
    fake_clock.set(datetime(2026, 3, 4, 12, 0, tzinfo=UTC))
    view = platform.timers.clock_view(game.time_control, game.status, game.seats, game.turns, game.banks)
    assert view["0"]["on_vacation"] is True and view["0"]["remaining"] == 9 * 3600  # 15 h ran on Monday


def test_a_your_turn_deadline_on_the_account_feed_is_pushed_past_vacation_days(
    platform: Any, fake_clock: FakeClock
) -> None:
    """The feed's ``your_turn`` says when the turn really times out, as the game's clock does, even
    for vacation days declared after the turn began."""
    gid, ids = _game(platform, {"kind": "per_move", "seconds": 86_400, "timeout_policy": "auto"})
    platform.wait_for_projections()

    def turn_deadline(player_id: str) -> str:
        turns = [e for e in platform.feed.since(player_id, 0) if e["type"] == "your_turn" and e["game_id"] == gid]
        assert turns and "turn_started" not in turns[-1]
        return str(turns[-1]["deadline"])

    assert turn_deadline(ids[0]) == datetime(2026, 3, 3, 9, 0, tzinfo=UTC).isoformat()
    platform.vacations.declare(ids[0], date(2026, 3, 3), 2)
    game = platform.games.load(gid)
    assert turn_deadline(ids[0]) == platform.timers.deadline(game, 0).isoformat() == "2026-03-05T09:00:00+00:00"


def test_vacation_has_a_yearly_allowance_and_no_past_days(platform: Any, fake_clock: FakeClock) -> None:
    pid = platform.accounts.register("v", "human")[0].id
    platform.vacations.declare(pid, date(2026, 4, 1), 20)
    with pytest.raises(InvalidRequest):
        platform.vacations.declare(pid, date(2026, 6, 1), 11)
    with pytest.raises(InvalidRequest):
        platform.vacations.declare(pid, date(2026, 3, 1), 1)
    summary = platform.vacations.declare(pid, date(2026, 12, 31), 2)  # spans two years
    assert summary["allowance"]["2026"]["used"] == 21 and summary["allowance"]["2027"]["used"] == 1


def test_elapsed_and_advance_agree_around_vacation_days() -> None:
    start = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    off = frozenset({date(2026, 3, 3)})
    end = clocks.advance(start, 10 * 3600, off)
    assert end == datetime(2026, 3, 4, 4, 0, tzinfo=UTC)
    assert clocks.elapsed(start, end, off) == 10 * 3600


def test_a_reminder_is_recorded_once_at_eighty_percent_and_posted_once(
    platform: Any, fake_clock: FakeClock, webhook_server: Any
) -> None:
    gid, ids = _game(platform, {"kind": "per_move", "seconds": 100, "timeout_policy": "auto"})
    platform.accounts.set_webhook(ids[0], webhook_server.url)
    platform.webhooks.subscribe(ids[0], ["reminder"])  # as PUT /me/webhook does by default
    game = platform.games.load(gid)
    since = game.turns["0"]
    planned = [a for a in platform.timers.plan(game) if isinstance(a, Remind) and a.seat == 0]
    assert planned and planned[0].eta == fake_clock.now() + timedelta(seconds=80)
    fake_clock.advance(79)
    assert platform.timers.remind(gid, 0, since)[0].eta == planned[0].eta  # too early: try again later
    fake_clock.advance(1)
    (post,) = platform.timers.remind(gid, 0, since)
    assert platform.timers.remind(gid, 0, since) == []
    assert not [a for a in platform.timers.sweep() if isinstance(a, PostWebhook)]  # its feed entry: claimed already
    assert _deliver(platform, post.delivery_id) == "sent"
    assert _deliver(platform, post.delivery_id) == "gone"
    assert len(webhook_server.received) == 1 and webhook_server.received[0]["game_id"] == gid
    reminders = platform.timers.inbox_of(ids[0])["reminders"]
    assert len(reminders) == 1 and reminders[0]["seat"] == 0


def test_a_refused_connection_is_retried_but_an_answered_post_is_not(
    platform: Any, fake_clock: FakeClock, webhook_server: Any
) -> None:
    pid = platform.accounts.register("w", "human")[0].id
    item = platform.inbox.add(pid, "reminder", "k1", "g", {"x": 1})
    refused = platform.inbox.claim_delivery(item, "http://127.0.0.1:9/hook")
    assert _deliver(platform, refused) == "retry"
    item2 = platform.inbox.add(pid, "reminder", "k2", "g", {"x": 2})
    failing = platform.inbox.claim_delivery(item2, webhook_server.url + "?status=500")
    assert _deliver(platform, failing) == "failed"
    assert _deliver(platform, failing) == "gone"
    assert platform.inbox.claim_delivery(item2, webhook_server.url) is None


def test_a_delivery_whose_task_was_lost_is_sent_again_by_the_sweep(
    platform: Any, fake_clock: FakeClock, webhook_server: Any
) -> None:
    """A broker that could not be reached when the reminder was made: nobody sends the delivery
    but the sweep, once it has waited longer than the delivery's own retries would."""
    pid = platform.accounts.register("w", "human")[0].id
    item = platform.inbox.add(pid, "reminder", "lost", "g", {"x": 1})
    delivery = platform.inbox.claim_delivery(item, webhook_server.url)
    fake_clock.advance(LOST_DELIVERY.total_seconds() - 1)
    assert PostWebhook(delivery) not in platform.timers.sweep()
    fake_clock.advance(2)
    assert PostWebhook(delivery) in platform.timers.sweep()
    assert _deliver(platform, delivery) == "sent"
    assert PostWebhook(delivery) not in platform.timers.sweep()
    assert len(webhook_server.received) == 1


def test_a_receiver_that_keeps_refusing_ends_the_delivery_and_the_sweep_leaves_it(
    platform: Any, fake_clock: FakeClock
) -> None:
    """Its retries (and a task the sweep sends) count on the delivery row; after the last try
    it is failed, so the sweep does not start its retries over every ten minutes."""
    from workers.webhooks import ATTEMPTS

    pid = platform.accounts.register("w", "human")[0].id
    delivery = platform.inbox.claim_delivery(
        platform.inbox.add(pid, "reminder", "dead", "g", {"x": 1}), "http://127.0.0.1:9/hook"
    )
    assert [_deliver(platform, delivery) for _ in range(ATTEMPTS - 1)] == ["retry"] * (ATTEMPTS - 1)
    fake_clock.advance(LOST_DELIVERY.total_seconds() + 1)
    assert PostWebhook(delivery) in platform.timers.sweep()  # pending, its task lost: one more try
    assert _deliver(platform, delivery) == "failed"
    fake_clock.advance(LOST_DELIVERY.total_seconds() + 1)
    assert PostWebhook(delivery) not in platform.timers.sweep()
    assert platform.inbox.delivery(delivery)["status"] == "failed"


def test_two_tasks_for_one_delivery_post_it_once(platform: Any, fake_clock: FakeClock, webhook_server: Any) -> None:
    """The sweep may resend a delivery whose first task was only late: the first to take it sends."""
    pid = platform.accounts.register("w", "human")[0].id
    delivery = platform.inbox.claim_delivery(
        platform.inbox.add(pid, "reminder", "twice", "g", {"x": 1}), webhook_server.url
    )
    assert platform.inbox.take_delivery(delivery)  # the first task, about to POST
    assert _deliver(platform, delivery) == "gone"  # the second finds it taken
    assert webhook_server.received == []


def test_a_delivery_whose_secret_cannot_be_read_stays_pending_for_a_retry(
    platform: Any, fake_clock: FakeClock, webhook_server: Any
) -> None:
    """The secret is read before the delivery is taken: a database that fails then costs a try, not the POST."""
    from workers.webhooks import deliver

    def unreadable(player_id: str) -> str | None:
        raise OSError("the database cannot be reached")

    pid = platform.accounts.register("w", "human")[0].id
    delivery = platform.inbox.claim_delivery(
        platform.inbox.add(pid, "reminder", "unread", "g", {"x": 1}), webhook_server.url
    )
    with pytest.raises(OSError):
        deliver(platform.inbox, delivery, unreadable)
    assert platform.inbox.delivery(delivery)["status"] == "pending" and webhook_server.received == []
    assert _deliver(platform, delivery) == "sent"


def test_the_inbox_lists_my_turns_soonest_deadline_first_and_my_invitations(
    platform: Any, fake_clock: FakeClock
) -> None:
    me = platform.accounts.register("me", "human")[0].id
    other = platform.accounts.register("o", "human")[0].id
    games = []
    for seconds in (500, 100):
        g = platform.games.create_game(
            other,
            "dice-race",
            None,
            None,
            2,
            time_control={"kind": "per_move", "seconds": seconds},
            settings={"invite": [me]},
        )
        platform.games.take_seat(str(g.id), me, "me", "human")
        platform.games.take_seat(str(g.id), other, "o", "human")
        games.append(str(g.id))
    platform.wait_for_projections()
    inbox = platform.timers.inbox_of(me)
    assert [w["game_id"] for w in inbox["awaiting"]] == [games[1], games[0]]
    assert inbox["awaiting"][0]["remaining"] == 100.0
    assert sorted(i["game_id"] for i in inbox["invitations"]) == sorted(games)


def test_a_scheduled_game_starts_at_its_time_with_bots_in_empty_seats(platform: Any, fake_clock: FakeClock) -> None:
    me = platform.accounts.register("me", "human")[0].id
    at = fake_clock.now() + timedelta(hours=2)
    g = platform.games.create_game(me, "dice-race", None, None, 3, starts_at=at, settings={"fill": "bot"})
    gid = str(g.id)
    platform.games.take_seat(gid, me, "me", "human")
    assert platform.timers.plan(platform.games.load(gid)) == []
    assert platform.timers.start_scheduled(gid) is False
    fake_clock.advance(7200)
    platform.wait_for_projections()
    assert StartGame(gid, at) in platform.timers.sweep()
    assert platform.timers.start_scheduled(gid) is True
    game = platform.games.load(gid)
    assert game.status == "active" and [s["kind"] for s in game.seats] == ["human", "bot", "bot"]
    assert {PlayBot(gid, 1, game.version), PlayBot(gid, 2, game.version)} <= set(platform.timers.plan(game))


def test_a_scheduled_game_with_empty_seats_can_be_cancelled_instead(platform: Any, fake_clock: FakeClock) -> None:
    me = platform.accounts.register("me", "human")[0].id
    at = fake_clock.now() + timedelta(minutes=5)
    g = platform.games.create_game(me, "dice-race", None, None, 2, starts_at=at, settings={"fill": "cancel"})
    fake_clock.advance(300)
    platform.timers.start_scheduled(str(g.id))
    game = platform.games.load(str(g.id))
    assert game.status == "abandoned" and "empty" in game.outcome["reason"]
    with pytest.raises(InvalidRequest):
        platform.games.create_game(me, "dice-race", None, None, 2, starts_at=fake_clock.now() - timedelta(1))


def test_the_sweep_finds_deadlines_that_came_near_or_were_missed(platform: Any, fake_clock: FakeClock) -> None:
    gid, _ = _game(platform, {"kind": "per_move", "seconds": 3 * 86_400, "timeout_policy": "auto"})
    game = platform.games.load(gid)
    assert not [a for a in platform.timers.plan(game) if isinstance(a, FireDeadline)]  # days away: no ETA task
    platform.wait_for_projections()
    assert not [a for a in platform.timers.sweep() if isinstance(a, FireDeadline)]
    fake_clock.advance(3 * 86_400 - 60)
    due = [a for a in platform.timers.sweep() if isinstance(a, FireDeadline)]
    assert {(a.seat, a.version) for a in due} == {(0, game.version), (1, game.version)}
    fake_clock.advance(5)
    assert not [a for a in platform.timers.sweep() if isinstance(a, FireDeadline)], "scheduled once, not twice"
    fake_clock.advance(60)  # past the deadline and its grace, and the seats still awaited: the tasks were lost
    again = [a for a in platform.timers.sweep() if isinstance(a, FireDeadline)]
    assert {a.seat for a in again} == {0, 1} and all(a.eta == fake_clock.now() for a in again)


def _bot_game(platform: Any) -> str:
    """A running Dice Race between two server bots, which nothing plays (the platform sends no tasks)."""
    owner = platform.accounts.register("o", "human")[0].id
    game = platform.games.create_game(owner, "dice-race", None, None, 2)
    for _ in range(2):
        platform.games.take_seat(str(game.id), "server-bot:random", "random bot", "bot", bot="random")
    platform.wait_for_projections()
    return str(game.id)


def test_an_awaited_bot_turn_is_sent_again_once_it_stalls(platform: Any) -> None:
    gid = _bot_game(platform)
    assert not [a for a in platform.timers.sweep() if isinstance(a, PlayBot)], "its task may still be queued"
    previous = clock.use(FakeClock(datetime.now(UTC) + BOT_STALL + timedelta(seconds=1)))
    try:
        bots = [a for a in platform.timers.sweep() if isinstance(a, PlayBot)]
    finally:
        clock.use(previous)
    game = platform.games.load(gid)
    assert {(a.game_id, a.seat, a.version) for a in bots} == {(gid, s, game.version) for s in game.awaiting}


def test_when_the_broker_lost_its_tasks_the_sweep_sends_every_awaited_bot_turn_and_near_deadline_at_once(
    platform: Any, fake_clock: FakeClock
) -> None:
    gid = _bot_game(platform)
    timed, _ = _game(platform, {"kind": "per_move", "seconds": 60, "timeout_policy": "auto"})
    platform.wait_for_projections()
    platform.timers.sweep()
    fake_clock.advance(5)
    assert not platform.timers.sweep(), "bot turns not stalled, deadlines scheduled by the first sweep"
    again = platform.timers.sweep(tasks_lost=True)
    game, other = platform.games.load(gid), platform.games.load(timed)
    assert {(a.seat, a.version) for a in again if isinstance(a, PlayBot)} == {(s, game.version) for s in game.awaiting}
    assert {(a.game_id, a.seat) for a in again if isinstance(a, FireDeadline)} == {(timed, s) for s in other.awaiting}


def test_the_bot_turns_awaited_since_an_instant_are_listed_for_the_nudge(platform: Any) -> None:
    gid = _bot_game(platform)
    game = platform.games.load(gid)
    assert platform.timers.stalled_bots(clock.now() - BOT_NUDGE) == [], "it has just moved"
    wanted = {(gid, s, game.version) for s in game.awaiting}
    later = platform.timers.stalled_bots(clock.now() + timedelta(seconds=1))
    assert {(a.game_id, a.seat, a.version) for a in later} == wanted
    assert {(a.game_id, a.seat, a.version) for a in platform.timers.stalled_bots(None)} == wanted
