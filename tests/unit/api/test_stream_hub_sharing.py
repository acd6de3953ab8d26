"""What the streams of one process share in the ``StreamHub``: a token's check, an account's read
from one cursor, a writer's send of the frames queued meanwhile."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from api.stream_feeds import END, Feed, Handoff
from api.stream_hub import StreamHub, _revoked
from services.streams.lines import AccountFollower


def _handoff(
    follower: Any = None, token: str | None = None, valid: bool = True, checks: list[str] | None = None
) -> Handoff:
    def still_valid() -> bool:
        if checks is not None:
            checks.append(token or "-")
        return valid

    return Handoff(follower, 0, lambda line: b"x\n", still_valid, lambda: None, token)


def test_the_streams_of_one_token_share_its_check() -> None:
    checks: list[str] = []
    feeds = [Feed(_handoff(token="t1", checks=checks), 0) for _ in range(5)]
    feeds += [Feed(_handoff(token="t2", valid=False, checks=checks), 0) for _ in range(3)]
    feeds += [Feed(_handoff(token=None, checks=checks), 0) for _ in range(2)]

    async def run() -> list[Feed]:
        return _revoked(feeds)

    revoked = asyncio.run(run())
    assert revoked == feeds[5:8]
    assert sorted(checks) == ["-", "-", "t1", "t2"]


class _Follower(AccountFollower):
    """An account follower whose feed is a list, counting its reads."""

    def __init__(self, lines: list[dict[str, Any]], reads: list[int]) -> None:
        self.player_id = "p1"
        self._lines = lines
        self._reads = reads

    def since(self, cursor: int) -> list[dict[str, Any]]:
        self._reads.append(cursor)
        return [line for line in self._lines if line["cursor"] > cursor]


def test_an_account_streams_waiting_from_one_cursor_share_one_read() -> None:
    reads: list[int] = []
    lines = [{"type": "your_turn", "cursor": c} for c in (3, 4, 5)]
    follower = _Follower(lines, reads)

    async def run() -> list[list[bytes]]:
        hub = StreamHub(streams=None, executor=ThreadPoolExecutor(1))  # type: ignore[arg-type]
        feeds = [Feed(_handoff(follower), position) for position in (2, 2, 2, 4)]
        for feed in feeds:
            hub._accounts["p1"].add(feed)
        await hub._refresh_account("p1")
        return [[feed.outbox.get_nowait() for _ in range(feed.outbox.qsize())] for feed in feeds]

    got = asyncio.run(run())
    assert sorted(reads) == [2, 4]
    assert [len(frames) for frames in got] == [3, 3, 3, 1]


def test_a_writer_sends_the_frames_queued_during_a_send_in_one_piece() -> None:
    bodies: list[bytes] = []

    async def run() -> None:
        hub = StreamHub(streams=None, executor=ThreadPoolExecutor(1))  # type: ignore[arg-type]
        feed = Feed(_handoff(), 0)
        first_sent = asyncio.Event()
        release = asyncio.Event()

        async def send(body: bytes) -> None:
            bodies.append(body)
            if len(bodies) == 1:
                first_sent.set()
                await release.wait()  # a slow client: the next frames queue meanwhile

        gone: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        writer = asyncio.ensure_future(hub._write(feed, send, gone))
        feed.push(b"a\n")
        await asyncio.wait_for(first_sent.wait(), 5)
        for frame in (b"b\n", b"c\n", b"d\n"):
            feed.push(frame)
        feed.outbox.put_nowait(END)
        release.set()
        await asyncio.wait_for(writer, 5)

    asyncio.run(run())
    assert bodies == [b"a\n", b"b\nc\nd\n"]
