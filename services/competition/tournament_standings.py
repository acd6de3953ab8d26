"""A tournament as it reads: its standings with their tie-breaks, and its rows as the API shows them."""

from __future__ import annotations

import json
from typing import Any

from services.competition import pairing


def tournament_view(
    t: dict[str, Any], players: list[dict[str, Any]], tables: list[dict[str, Any]], notice: int
) -> dict[str, Any]:
    """The tournament as ``GET /tournaments/{id}`` shows it: its facts, players, rounds and standings."""
    rounds: dict[int, list[dict[str, Any]]] = {}
    for r in tables:
        rounds.setdefault(r["round"], []).append(table_json(r))
    return {
        **tournament_json(t),
        "notice_seconds": notice,
        "players": [{k: p[k] for k in ("player_id", "name", "kind", "bot")} for p in players],
        "rounds": [{"round": n, "tables": rounds[n]} for n in sorted(rounds)],
        "standings": standings(players, tables),
    }


def table_result(game: Any, seats: int, late: bool) -> dict[str, Any] | None:
    """A table's result from its game: its places once finished; a tie for every seat when it was
    abandoned, or is still running past the round's deadline (``late``); None while it plays on."""
    if game.status == "finished" and game.outcome is not None:
        return {"places": list(game.outcome["places"])}
    if game.status == "abandoned" or late:
        return {"places": [1] * seats, "unfinished": True}
    return None


def standings(players: list[dict[str, Any]], tables: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Players ranked by points, then by the tie-breaks, in this order:

    1. **points**: the sum of each table's points (``pairing.points``: the share of the table
       placed below you, ties half; a bye 1, a table unfinished at its round's deadline 0.5 each);
    2. **Buchholz**: the sum of the points of every opponent, once per table shared with them
       (who you met counts: the score of your opposition);
    3. **wins**: tables won outright: first alone (a first place shared is not a win; byes and
       tables unfinished at the deadline are not counted);
    4. registration order (earlier first).
    """
    order = {p["player_id"]: i for i, p in enumerate(players)}
    score = {p: 0.0 for p in order}
    wins = dict.fromkeys(order, 0)
    opponents: dict[str, list[str]] = {p: [] for p in order}
    for row in tables:
        if row["result"] is None:
            continue
        result = json.loads(row["result"])
        seated = json.loads(row["players"])
        for pid, got, place in zip(seated, pairing.points(result["places"]), result["places"], strict=True):
            score[pid] += got
            if _won_outright(place, result):
                wins[pid] += 1
            opponents[pid].extend(q for q in seated if q != pid)
    buchholz = {p: sum(score[q] for q in opponents[p]) for p in order}
    ranked = sorted(order, key=lambda p: (-score[p], -buchholz[p], -wins[p], order[p]))
    return [
        {"rank": i + 1, "player_id": p, "points": score[p], "buchholz": buchholz[p], "wins": wins[p]}
        for i, p in enumerate(ranked)
    ]


def _won_outright(place: int, result: dict[str, Any]) -> bool:
    return place == 1 and result["places"].count(1) == 1 and not result.get("bye") and not result.get("unfinished")


def tournament_json(t: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": t["tournament_id"],
        "name": t["name"],
        "game": t["game"],
        "variant": t["variant"],
        "seats": t["seats"],
        "format": t["format"],
        "rounds_planned": t["rounds"],
        "capacity": t["capacity"],
        "time_control": json.loads(t["time_control"]),
        "starts_at": t["starts_at"],
        "round_seconds": t["round_seconds"],
        "creator": t["creator"],
        "status": t["status"],
        "round": t["round"],
        "round_deadline": t["round_deadline"],
    }


def table_json(row: dict[str, Any]) -> dict[str, Any]:
    result = json.loads(row["result"]) if row["result"] else None
    return {
        "table": row["table_no"],
        "game_id": row["game_id"],
        "players": json.loads(row["players"]),
        "bye": bool(result and result.get("bye")),
        "places": result["places"] if result else None,
        "unfinished": bool(result and result.get("unfinished")),
    }
