"""A wake-up costs a process only what its streams need: none for a game nobody follows there, one
wake of the loop for the keys that come before it runs."""

from __future__ import annotations

from typing import Any

from api.stream_hub import StreamHub
from services.streams.heads import Heads
from services.streams.wakeups import Wakeups


class _Loop:
    """Records what is handed to the loop from other threads."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    def is_closed(self) -> bool:
        return False

    def call_soon_threadsafe(self, callback: Any, *args: Any) -> None:
        self.calls.append((callback, args))


class _Streams:
    def __init__(self) -> None:
        self.wakeups = Wakeups()


def _hub() -> tuple[StreamHub, _Loop, list[str]]:
    hub = StreamHub(_Streams(), executor=None)  # type: ignore[arg-type]
    loop = _Loop()
    hub.loop = loop  # type: ignore[assignment]
    woken: list[str] = []
    hub._woken = woken.append  # type: ignore[method-assign]
    return hub, loop, woken


def test_a_move_of_a_game_nobody_follows_here_does_not_wake_the_loop() -> None:
    hub, loop, _ = _hub()
    hub._observe("game:g1")
    hub._observe("account:p1")
    hub._observe("tokens:p1")
    assert loop.calls == []


def test_the_keys_delivered_before_the_loop_runs_wake_it_once() -> None:
    hub, loop, woken = _hub()
    hub._games["g1"] = set()
    hub._accounts["p1"] = set()
    for key in ("game:g1", "account:p1", "game:g1", "game:g2"):
        hub._observe(key)
    assert len(loop.calls) == 1
    callback, _ = loop.calls[0]
    callback()
    assert woken == ["game:g1", "account:p1"]
    hub._observe("game:g1")  # after the loop ran, the next key wakes it again
    assert len(loop.calls) == 2


def test_heads_count_only_the_games_their_streams_asked_for() -> None:
    reads: list[str] = []
    heads = Heads(lambda gid: reads.append(gid) or 7)
    for n in range(100):
        heads.observe(f"game:{n}")
    assert heads._generations == {}
    assert heads.head("g1") == 7 and heads.head("g1") == 7
    heads.observe("game:g1")  # a change: the next ask reads again
    assert heads.head("g1") == 7
    assert reads == ["g1", "g1"]


def test_heads_follow_the_games_they_hold_so_that_other_processes_wake_them(monkeypatch: Any) -> None:
    """A head is read again when its game is woken; other processes send a game's wake-up only to
    the processes that follow it, so a held head follows its game (before its read), and stops when
    it is dropped. A catch-up answered for the fan-out engine holds a head with no stream here."""
    from services.streams import heads as module

    monkeypatch.setattr(module, "HEADS_KEPT", 2)
    follows: list[tuple[str, bool]] = []
    heads = Heads(lambda gid: follows.append((f"read {gid}", True)) or 7, lambda key, on: follows.append((key, on)))
    for gid in ("g1", "g1", "g2", "g3"):
        heads.head(gid)
    assert follows == [
        ("game:g1", True), ("read g1", True),
        ("game:g2", True), ("read g2", True),
        ("game:g3", True), ("read g3", True), ("game:g1", False),
    ]  # fmt: skip


class _Sent:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def send(self, key: str) -> None:
        self.messages.append(key)

    def interested(self, key: str, following: bool) -> None:
        return None

    def close(self) -> None:
        return None


def test_a_batchs_keys_wake_here_once_each_and_travel_together() -> None:
    sent = _Sent()
    wakeups = Wakeups(lambda _deliver: sent)
    woken: list[str] = []
    wakeups.observers.append(woken.append)
    keys = [f"account:p{n}" for n in range(70)]
    wakeups.publish_all([*keys, "account:p1"])
    assert woken == keys
    assert [len(m.split("\n")) for m in sent.messages] == [64, 6]
    assert "\n".join(sent.messages).split("\n") == keys
