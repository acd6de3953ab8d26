"""A wake-up costs a process only what its streams need: none for a game nobody follows there, one
wake of the loop for the keys that come before it runs."""

from __future__ import annotations

from typing import Any

from api.stream_hub import StreamHub
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


class _Sent:
    follow_waits = False

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
