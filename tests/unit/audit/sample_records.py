"""Records of the four games to check the verifier with, and the ways a forger changes them."""

from __future__ import annotations

import copy
import random
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from domain.kernel import choose_move, find_game
from services.audits.record_signing import signer_for
from services.audits.records import game_record
from services.common import clock
from services.common.clock import FakeClock
from services.reads.steps import decisions
from tests.support.names import fresh

GAMES = ("tarasque", "seven-dragons", "mekong", "drachenreiter")
BANK = {"kind": "bank", "initial": 90, "increment": 20, "cap": 150, "timeout_policy": "auto"}
FORGER = signer_for(b"a forger's own secret")


def bot_record(platform: Any, game: str, seats: int = 2, seed: int = 3) -> dict[str, Any]:
    """A game of random server bots played to its end, exported."""
    rng = random.Random(seed)
    g = platform.games.create_game(
        "owner", game, None, None, seats, game_id=uuid.uuid5(uuid.NAMESPACE_URL, f"bots:{game}:{seed}")
    )
    gid = str(g.id)
    for _ in range(seats):
        platform.games.take_seat(gid, "server-bot:random", "random bot", "bot", bot="random")
    while (g := platform.games.load(gid)).status == "active":
        seat = g.awaiting[0]
        command = choose_move(g.ruleset, g.ruleset.bot("random"), g.state, seat, rng)
        platform.games.play_for(gid, seat, g.version, lambda _g, c=command: c)
    return game_record(platform.games, gid)


def timed_record(platform: Any, game: str, number: int = 1, moves: int = 8, policy: str = "auto") -> dict[str, Any]:
    """A short game of humans on a bank clock: some moves, a missed deadline that the timeout
    ``policy`` plays out (``TurnTimedOut``, ``PolicyPlayed``...), bank charges (``ClockSettled``), a
    newcomer where the game takes one (``Joined``), then resignations to the end."""
    previous = clock.use(FakeClock(datetime(2026, 3, 2, 9, 0, tzinfo=UTC)))
    try:
        return _timed_record(platform, game, number, moves, {**BANK, "timeout_policy": policy})
    finally:
        clock.use(previous)


def _timed_record(platform: Any, game: str, number: int, moves: int, time_control: dict[str, Any]) -> dict[str, Any]:
    fake = clock._clock
    assert isinstance(fake, FakeClock)
    rng = random.Random(number)
    ids = [platform.accounts.register(fresh(f"player {i}"), "human")[0].id for i in range(3)]
    g = platform.games.create_game(
        ids[0],
        game,
        None,
        None,
        2,
        time_control=time_control,
        game_id=uuid.uuid5(uuid.NAMESPACE_URL, f"timed:{game}:{number}{_policy_mark(time_control)}"),
        settings={"invite": [ids[2]]},
    )  # a running game takes invited newcomers
    gid = str(g.id)
    for pid in ids[:2]:
        platform.games.take_seat(gid, pid, f"name of {pid[:6]}", "human")
    if platform.games.load(gid).ruleset.can_join(platform.games.load(gid).state):
        platform.games.take_seat(gid, ids[2], "newcomer", "human")
    for step in range(find_game(game).max_decisions):
        g = platform.games.load(gid)
        if g.status != "active":
            break
        seat = rng.choice([s for s in g.awaiting if s not in g.left])
        if step >= moves:
            platform.games.resign(gid, g.holder(seat), seat=seat)
        elif step == moves // 2:
            deadline = platform.timers.deadline(g, seat)
            fake.set(max(fake.now(), deadline) + timedelta(seconds=1))
            assert platform.timers.fire_deadline(gid, seat, g.version, _stand_in(seat))[0] == "fired"
        else:
            fake.advance(rng.choice((2, 9, 31)))
            command = choose_move(g.ruleset, g.ruleset.bot("random"), g.state, seat, rng)
            platform.games.submit_move(gid, g.holder(seat), g.ruleset.commands.dump(command), seat=seat)
    return game_record(platform.games, gid)


def _policy_mark(time_control: dict[str, Any]) -> str:
    """What sets a game's id apart under another timeout policy than ``auto`` (whose ids are as before)."""
    policy = time_control["timeout_policy"]
    return "" if policy == "auto" else f":{policy}"


def _stand_in(seat: int) -> Any:
    def choose(game: Any) -> Any:
        ruleset = game.ruleset
        return choose_move(
            ruleset, ruleset.bot(ruleset.default_bot), game.state, seat, random.Random(game.version), 0.05
        )

    return choose


# ------------------------------------------------------------------ forging


def changed(value: Any) -> Any:
    """Another JSON value of the same kind: a number moved, a time a second later, a hash with
    another last digit, a flag flipped, a list or object changed in its first item."""
    if isinstance(value, bool):
        return not value
    if isinstance(value, int):
        return value + 1
    if isinstance(value, float):
        return value + 0.5
    if isinstance(value, str):
        return _changed_text(value)
    if isinstance(value, list):
        return [changed(value[0]), *value[1:]] if value else [0]
    if isinstance(value, dict):
        if not value:
            return {"forged": True}
        key = sorted(value)[0]
        return {**value, key: changed(value[key])}
    return "forged"


def _changed_text(text: str) -> str:
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        pass
    else:
        return (when + timedelta(seconds=1)).isoformat()
    if text and all(c in "0123456789abcdef" for c in text):
        return text[:-1] + ("0" if text[-1] != "0" else "1")
    return text + "!"


def fields_of(record: dict[str, Any], every_event: bool) -> Iterator[tuple[Any, ...]]:
    """Paths of the record's fields: the format, each header field, the audit, each part of the
    signature, and each field of every event and every decision; or, as a sample, each field of
    the first event of each platform type, of the first rule event and of the first decision
    of each kind, and the data of the first event of each rule type."""
    yield ("format",)
    for key in record["header"]:
        yield ("header", key)
    seen: set[str] = set()
    for i, event in enumerate(record["events"]):
        first = event["type"] not in seen
        seen.add(event["type"])
        if every_event or (first and (event["source"] == "platform" or "rules" not in seen)):
            yield from (("events", i, key) for key in event)
        elif first:
            yield ("events", i, "data")
        seen.add(event["source"])
    kinds: set[str] = set()
    for i, decision in enumerate(record["decisions"]):
        if every_event or decision["decision"]["type"] not in kinds:
            kinds.add(decision["decision"]["type"])
            yield from (("decisions", i, key) for key in decision)
    yield ("audit",)
    for key in record["signature"]:
        if key != "manifest":
            yield ("signature", key)
    for key in record["signature"]["manifest"]:
        yield ("signature", "manifest", key)


def forged(record: dict[str, Any], path: tuple[str, ...], resign: bool = False) -> dict[str, Any]:
    """``record`` with the field at ``path`` changed (and, with ``resign``, signed again by a forger)."""
    out = copy.deepcopy(record)
    holder: Any = out
    for part in path[:-1]:
        holder = holder[part]
    holder[path[-1]] = changed(holder[path[-1]])
    if resign:
        out.pop("signature")
        out["signature"] = FORGER.sign(out)
    return out


def resigned(record: dict[str, Any], relist: bool = True) -> dict[str, Any]:
    """A forger's consistent record: events renumbered, decisions listed again from them, signed again."""
    out = copy.deepcopy(record)
    for i, event in enumerate(out["events"]):
        event["version"] = i + 1
    if relist:
        ruleset = find_game(out["header"]["game"])
        out["decisions"] = decisions(out["events"], ruleset, out["header"]["seats"])
    out.pop("signature", None)
    out["signature"] = FORGER.sign(out)
    return out
