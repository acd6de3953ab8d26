"""Records prove themselves: an untouched record verifies; any tampering names its first bad step."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

from domain.kernel import choose_move
from services.audits.records import game_record
from services.audits.verification import verify_record


def finished_record(platform: Any, game: str, seats: int = 2, seed: int = 3, variant: str | None = None) -> dict:
    """Plays a game of server bots to its end and exports its record."""
    rng = random.Random(seed)
    owner = platform.accounts.register("owner", "human")[0].id
    g = platform.games.create_game(owner, game, variant, None, seats)
    gid = str(g.id)
    for _ in range(seats):
        platform.games.take_seat(gid, "server-bot:random", "random bot", "bot", bot="random")
    while True:
        g = platform.games.load(gid)
        if g.status != "active":
            return game_record(platform.games, gid)
        seat = g.awaiting[0]
        command = choose_move(g.ruleset, g.ruleset.bot("random"), g.state, seat, rng)
        platform.games.play_for(gid, seat, g.version, lambda _g, c=command: c)


def first_event(record: dict[str, Any], kind: str, nth: int = 0) -> dict[str, Any]:
    return [e for e in record["events"] if e["type"] == kind][nth]


def rejected_at(record: dict[str, Any]) -> int:
    report = verify_record(record)
    assert not report["ok"], "a tampered record was accepted"
    return report["first_bad_step"]["version"]


def test_an_untouched_record_verifies_step_by_step(platform: Any) -> None:
    record = finished_record(platform, "dice-race")
    report = verify_record(json.loads(json.dumps(record)))
    assert report["ok"], report["verdict"]
    assert all(report["checks"].values())
    assert report["steps"][0]["summary"] == "Created" and all(s["ok"] for s in report["steps"])
    assert record["audit"]["ok"] and record["header"]["seed"]
    moves = [d for d in record["decisions"] if d["decision"]["type"] == "MoveMade"]
    assert moves and all(d["actor"]["kind"] == "seat" and d["at"] for d in moves)


def test_one_changed_die_is_caught_at_its_roll(platform: Any) -> None:
    record = finished_record(platform, "dice-race")
    roll = first_event(record, "DieRolled", 2)
    roll["data"]["value"] = roll["data"]["value"] % 6 + 1
    cause = max(e["version"] for e in record["events"] if e["type"] == "MoveMade" and e["version"] < roll["version"])
    assert rejected_at(record) == cause


def test_a_changed_die_in_tarasque_is_caught_at_its_roll(platform: Any) -> None:
    record = finished_record(platform, "tarasque")
    roll = first_event(record, "DiceRolled", 5)
    values = roll["data"]["values"]
    values[0] = "black" if values[0] != "black" else "red"
    assert rejected_at(record) == max(
        e["version"] for e in record["events"] if e["source"] == "platform" and e["version"] < roll["version"]
    )


def test_a_swapped_card_is_caught_at_the_deal(platform: Any) -> None:
    record = finished_record(platform, "seven-dragons", seats=3)
    deals = [e for e in record["events"] if e["type"] == "CardsDealt"]
    first, second = deals[0]["data"]["cards"], deals[1]["data"]["cards"]
    first[0], second[0] = second[0], first[0]
    started = first_event(record, "Started")["version"]
    assert rejected_at(record) == started


def test_one_edited_move_is_caught_at_that_move(platform: Any) -> None:
    record = finished_record(platform, "dice-race")
    bid = first_event(record, "MoveMade", 3)
    assert bid["data"]["move"]["type"] == "bid" or bid["data"]["move"]["type"] == "roll"
    if bid["data"]["move"]["type"] == "bid":
        bid["data"]["move"]["amount"] = (bid["data"]["move"]["amount"] + 1) % 3
    else:
        bid["data"]["move"] = {"type": "bid", "amount": 1}
    assert rejected_at(record) == bid["version"]


def test_edited_hashes_outcomes_seeds_and_gaps_are_all_caught(platform: Any) -> None:
    record = finished_record(platform, "dice-race")
    cases = []
    r = copy.deepcopy(record)
    first_event(r, "BidPlaced")["state_hash"] = "0" * 64
    cases.append(r)
    r = copy.deepcopy(record)
    outcome = first_event(r, "Finished")["data"]["outcome"]
    places = outcome["places"]  # the game's id, so its seed, is random: a tie is reversed into itself
    outcome["places"] = places[::-1] if len(places) > 1 else [[seat] for seat in places[0]]
    cases.append(r)
    r = copy.deepcopy(record)
    seed = r["header"]["seed"]
    r["header"]["seed"] = ("1" if seed[0] == "0" else "0") + seed[1:]  # "00..." would keep one seed in 256
    cases.append(r)
    r = copy.deepcopy(record)
    del r["events"][len(r["events"]) // 2]
    cases.append(r)
    r = copy.deepcopy(record)
    r["header"]["engine"] = "999"
    cases.append(r)
    for tampered in cases:
        assert not verify_record(tampered)["ok"]


def test_the_verify_command_works_offline_and_prints_a_verdict_per_step(platform: Any, tmp_path: Path) -> None:
    record = finished_record(platform, "tarasque")
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    bad_record = copy.deepcopy(record)
    bad_record["events"][len(record["events"]) // 2]["data"] = {"tampered": True}
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_record))
    cli = Path(sys.executable).parent / "dragonhall"
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}  # no database, no broker, no server
    ok = subprocess.run([str(cli), "verify", str(good)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert ok.stdout.count("\nok ") > 10 and "VERIFIED" in ok.stdout
    nok = subprocess.run([str(cli), "verify", str(bad)], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert nok.returncode == 1 and "REJECTED" in nok.stdout and "FAIL" in nok.stdout
    assert not (tmp_path / "var").exists()


def test_a_record_with_a_newcomer_and_a_resignation_verifies(platform: Any) -> None:
    rng = random.Random(5)
    owner = platform.accounts.register("owner", "human")[0].id
    g = platform.games.create_game(owner, "seven-dragons", None, None, 2)
    gid = str(g.id)
    for _ in range(2):
        platform.games.take_seat(gid, "server-bot:random", "random bot", "bot", bot="random")
    platform.games.take_seat(gid, owner, "owner", "human")  # joins the running game as seat 2
    assert platform.games.load(gid).seats[-1]["player_id"] == owner
    platform.games.resign(gid, owner)
    while (g := platform.games.load(gid)).status == "active":
        seat = g.awaiting[0]
        command = choose_move(g.ruleset, g.ruleset.bot("random"), g.state, seat, rng)
        platform.games.play_for(gid, seat, g.version, lambda _g, c=command: c)
    record = game_record(platform.games, gid)
    kinds = {e["type"] for e in record["events"]}
    assert {"Joined", "Resigned"} <= kinds
    assert verify_record(json.loads(json.dumps(record)))["ok"]


def test_a_card_moved_late_in_a_shuffled_deck_is_named_where_it_differs(platform: Any) -> None:
    """A deck of some fifty cards printed whole is cut off long before its last cards: the verdict
    names the first place the recorded deck differs from the one the seed gives."""
    record = finished_record(platform, "seven-dragons", seats=3)
    order = first_event(record, "DeckShuffled")["data"]["order"]
    order[-1], order[-2] = order[-2], order[-1]
    report = verify_record(record)
    assert not report["ok"]
    said = json.dumps(report["first_bad_step"])
    assert f"data.order[{len(order) - 2}]" in said, said
