"""The pieces of the Pushpin engine that need no Pushpin (``services.streams.grip``): the signed links a
hold gives Pushpin, the channels a change publishes to, and the headers of a hold."""

from __future__ import annotations

from typing import Any

import pytest

from services.streams.grip import (
    Links,
    Resume,
    account_channel,
    game_channel,
    hold_headers,
    last_position,
    stream_seat,
    tokens_channel,
    viewer_classes,
)

RESUME = Resume("game", "g1", "ann", "ann", None, "sse", "tok-1")


def test_a_signed_link_opens_to_what_was_signed() -> None:
    links = Links(b"k" * 32)
    assert links.open(links.sign(RESUME)) == RESUME


@pytest.mark.parametrize("forge", ["other key", "changed body", "no mac", "garbage"])
def test_a_forged_or_altered_link_opens_to_nothing(forge: str) -> None:
    """A link names whose stream it is: one not signed with the server's key is refused, so nobody
    reads another viewer's lines by making one up."""
    links = Links(b"k" * 32)
    signed = links.sign(RESUME)
    body, _, mac = signed.partition(".")
    forged = {
        "other key": Links(b"x" * 32).sign(RESUME),
        "changed body": Links(b"x" * 32).sign(Resume("game", "g1", "bob", "bob", None, "sse", None)).split(".")[0]
        + "."
        + mac,
        "no mac": body,
        "garbage": "not-a-link",
    }[forge]
    assert links.open(forged) is None


def test_the_last_id_pushpin_delivered_is_read_for_the_stream_s_channel_only() -> None:
    header = "dh.t.ann, dh.g.g1.ann.all.sse; last-id=12, other; last-id=99"
    assert last_position(header, "dh.g.g1.ann.all.sse") == 12
    assert last_position(header, "dh.t.ann") is None
    assert last_position("dh.g.g1.ann.all.sse; last-id=12-end", "dh.g.g1.ann.all.sse") is None
    assert last_position("", "c") is None


class _Game:
    def __init__(self, seats: list[dict[str, Any]]) -> None:
        self.seats = seats

    def seats_of(self, player_id: str) -> list[int]:
        return [s["seat"] for s in self.seats if s["player_id"] == player_id]


def test_a_change_publishes_one_line_per_viewer_class() -> None:
    """The spectators, each seat holder, and each seat of a holder of several: never one per stream."""
    game = _Game([{"seat": 0, "player_id": "ann"}, {"seat": 1, "player_id": "bob"}, {"seat": 2, "player_id": "bob"}])
    assert viewer_classes(game) == [(None, None), ("ann", None), ("bob", None), ("bob", 1), ("bob", 2)]  # type: ignore[arg-type]
    assert stream_seat(game, "ann", 0) is None, "the one seat of its holder: the holder's channel"  # type: ignore[arg-type]
    assert stream_seat(game, "bob", 2) == 2  # type: ignore[arg-type]


def test_each_viewer_class_and_framing_has_a_channel_of_its_own() -> None:
    names = {
        game_channel("g1", None, None, "sse"),
        game_channel("g1", None, None, "ndjson"),
        game_channel("g1", "ann", None, "sse"),
        game_channel("g1", "ann", 0, "sse"),
        game_channel("g1", "bob", None, "sse"),
        game_channel("g2", "ann", None, "sse"),
        account_channel("ann", "sse"),
        account_channel("bob", "sse"),
        tokens_channel("ann"),
    }
    assert len(names) == 9


def test_a_hold_names_where_its_catch_up_ended_and_how_to_recover() -> None:
    links = Links(b"k" * 32)
    headers = hold_headers(RESUME, links, 7)
    assert headers["Grip-Hold"] == "stream"
    assert headers["Grip-Channel"] == "dh.g.g1.ann.all.sse; prev-id=7, dh.t.ann"
    assert headers["Grip-Keep-Alive"].startswith(": keep-alive\\n\\n; format=cstring; timeout=")
    link = headers["Grip-Link"]
    signed = link[link.index("/api/v1/streams/next/") + len("/api/v1/streams/next/") : link.index(">")]
    assert links.open(signed) == RESUME and "rel=next" in link


def test_the_streams_of_one_viewer_class_share_one_link_and_others_have_their_own() -> None:
    """The link names the viewer, never the position (Pushpin sends that as ``Grip-Last`` and
    shares a request only between streams at the same one): holds at different positions share a
    link, holds of other viewers, seats, framings or tokens do not."""
    links = Links(b"k" * 32)
    link = hold_headers(RESUME, links, 7)["Grip-Link"]
    assert hold_headers(RESUME, links, 12)["Grip-Link"] == link
    others = [
        Resume("game", "g1", "bob", "bob", None, "sse", "tok-2"),
        Resume("game", "g1", "ann", "ann", 0, "sse", "tok-1"),
        Resume("game", "g1", "ann", "ann", None, "ndjson", "tok-1"),
        Resume("game", "g1", "ann", "ann", None, "sse", "tok-3"),
        Resume("game", "g1", "ann", None, None, "sse", "tok-1"),
    ]
    assert len({link, *(hold_headers(r, links, 7)["Grip-Link"] for r in others)}) == 6
