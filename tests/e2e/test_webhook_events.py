"""Webhooks by event type: ``PUT /me/webhook {url, events}`` has the account events of those types
POSTed, each once, signed as reminders are, with the account stream's line as the body."""

from __future__ import annotations

import json
import time
from typing import Any

from services.deadlines.timers import PostWebhook
from tests.e2e.test_webhook_signatures import verify
from workers import jobs


def _put(client: Any, player: dict[str, Any], body: dict[str, Any]) -> Any:
    return client.call("PUT", "/api/v1/me/webhook", body, player["token"])


def _play_against_a_server_bot(client: Any, me: dict[str, Any]) -> str:
    """A dice race between ``me`` and the server's random bot, ``me`` playing its first legal
    move whenever it is awaited, until the game ends; the game's id."""
    game_id = client.new_game(me["token"])["id"]
    assert client.seat(game_id, me["token"]).status == 201
    assert client.seat(game_id, me["token"], bot="random").status == 201
    deadline = time.monotonic() + 120
    while (doc := client.game(game_id, me["token"]))["status"] == "active" or doc["status"] == "open":
        assert time.monotonic() < deadline, "the game did not end"
        mine = next(s["seat"] for s in doc["seats"] if s.get("player_id") == me["id"])
        moves = client.legal(game_id, me["token"])["moves"] if mine in doc["awaiting"] else []
        if moves:  # the read document may lag a move: then the move is refused, and read again
            assert client.move(game_id, me["token"], moves[0]).status in (201, 409, 422)
        else:
            time.sleep(0.02)
    return game_id


def _settled(platform: Any, bound: float = 60) -> list[dict[str, Any]]:
    """The delivery rows once none is waiting to be POSTed (the embedded worker sends them)."""
    deadline = time.monotonic() + bound
    while True:
        rows = platform.db.query("SELECT * FROM dh_webhook_deliveries")
        if all(r["status"] not in ("pending", "sending") for r in rows):
            return rows
        assert time.monotonic() < deadline, rows
        time.sleep(0.05)


def test_a_game_against_a_server_bot_posts_each_subscribed_event_once_signed(
    live_client: Any, webhook_server: Any
) -> None:
    platform = live_client.platform
    me = live_client.player("hooked")
    put = _put(live_client, me, {"url": webhook_server.url, "events": ["your_turn", "game_finished"]})
    assert put.status == 200, put.body
    assert put.body["webhook_events"] == ["your_turn", "game_finished"]
    secret = put.body["webhook_secret"]

    game_id = _play_against_a_server_bot(live_client, me)
    platform.wait_for_projections()
    rows = _settled(platform)
    feed = [line for line in platform.feed.since(me["id"], 0) if line["game_id"] == game_id]
    wanted = [line for line in feed if line["type"] in ("your_turn", "game_finished")]
    assert {line["type"] for line in wanted} == {"your_turn", "game_finished"}
    assert any(line["type"] == "game_started" for line in feed)  # recorded, but not subscribed to

    bodies = [json.loads(body) for _, body in webhook_server.requests]
    assert sorted(bodies, key=lambda b: b["cursor"]) == wanted  # each once, the stream's line as body
    assert all(r["status"] == "sent" for r in rows) and len(rows) == len(wanted)
    ids = [headers["X-Dragonhall-Delivery"] for headers, _ in webhook_server.requests]
    assert sorted(ids) == sorted(r["delivery_id"] for r in rows)
    assert all(verify(secret, headers, body) for headers, body in webhook_server.requests)

    assert not [a for a in platform.timers.sweep() if isinstance(a, PostWebhook)]  # nothing left to send


def test_unknown_event_types_are_refused_and_change_nothing(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    for events in (["your_turn", "teatime"], "your_turn", [1], None):
        r = _put(client, ann, {"url": webhook_server.url, "events": events})
        assert r.status == 400, (events, r.body)
        assert r.body["error"]["code"] == "invalid_request" and "events" in r.body["error"]["fields"]
    assert client.call("GET", "/api/v1/me", token=ann["token"]).body["webhook_url"] is None
    assert client.platform.webhooks.events_of(ann["id"]) == []


def test_without_events_a_webhook_receives_reminders_only(client: Any, webhook_server: Any) -> None:
    ann = client.player("ann")
    put = _put(client, ann, {"url": webhook_server.url})
    assert put.status == 200 and put.body["webhook_events"] == ["reminder"]
    cleared = _put(client, ann, {"url": None, "events": ["your_turn"]})
    assert cleared.body["webhook_events"] == [] and cleared.body["webhook_url"] is None
    assert client.platform.webhooks.events_of(ann["id"]) == []


def test_a_reminder_is_posted_once_as_its_feed_entry(client: Any, webhook_server: Any) -> None:
    """A reminder is an account feed entry like the others: one path, one POST, however many
    sweeps look at the feed."""
    platform = client.platform
    ann = client.player("ann")
    secret = _put(client, ann, {"url": webhook_server.url, "events": ["reminder"]}).body["webhook_secret"]
    platform.inbox.add(ann["id"], "reminder", "r1", "g1", {"type": "reminder", "seat": 0, "message": "hurry"})
    posts = [a for a in platform.timers.sweep() if isinstance(a, PostWebhook)]
    assert len(posts) == 1
    assert not [a for a in platform.timers.sweep() if isinstance(a, PostWebhook)]
    assert jobs.webhook(platform, lambda actions: None, posts[0].delivery_id) == "sent"
    ((headers, body),) = webhook_server.requests
    assert verify(secret, headers, body)
    (line,) = platform.feed.since(ann["id"], 0)
    assert json.loads(body) == line and line["type"] == "reminder" and line["message"] == "hurry"


def test_events_before_the_subscription_and_of_other_accounts_are_not_posted(client: Any, webhook_server: Any) -> None:
    platform = client.platform
    ann, bob = client.player("ann"), client.player("bob")
    platform.inbox.add(ann["id"], "invitation", "before", "g1", {"type": "invitation"})
    _put(client, ann, {"url": webhook_server.url, "events": ["invitation"]})
    platform.inbox.add(bob["id"], "invitation", "bob's", "g1", {"type": "invitation"})
    platform.inbox.add(ann["id"], "reminder", "not subscribed", "g1", {"type": "reminder"})
    platform.inbox.add(ann["id"], "invitation", "after", "g2", {"type": "invitation"})
    (post,) = [a for a in platform.timers.sweep() if isinstance(a, PostWebhook)]
    assert jobs.webhook(platform, lambda actions: None, post.delivery_id) == "sent"
    assert [(b["type"], b["game_id"]) for b in webhook_server.received] == [("invitation", "g2")]
