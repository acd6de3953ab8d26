"""What a delivered stream line costs the server, beside the least it can cost (issue 35).

``streams.py`` plays the same games with and without the streams open; the server's CPU per
move with them, less without, over the lines the streams received per move, is what a line
costs the API's processes (and, apart, Pushpin's, with ``--engine pushpin``). The stream
clients run on the same cores, but their CPU is their own processes' and is not counted.
The floor is ``fanout_floor.py``'s, measured in the same run right after the rounds, at the
line rate the streams received: Granian sending from Python with nothing else to do. It is measured
twice: with its own 260-byte line, and with lines as long as the streams' own on average (each move's
lines carry the seat's view, its legal moves and clocks), so that it sends the bytes the server sent.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table

from bench.fanout_app import FRAME
from bench.fanout_floor import measure

FLOOR_SECONDS = 6.0
TARGET_TIMES_FLOOR = 2.0
"""Issue 35's target for the embedded hub: the API's CPU per delivered line within twice the floor."""


def delivered(half: dict[str, Any]) -> int:
    """Every line the streams received in a half with streams (their opening lines too, about one in 70)."""
    return int(half["game_lines"]) + int(half.get("account_lines", 0))


def floor(rounds: list[dict[str, Any]], streams: int) -> dict[str, float]:
    """``fanout_floor.measure`` at the line rate of the first round's half with streams, with its own
    short line and then with lines of the streams' mean length (``sized_us_per_line``)."""
    w = rounds[0]["with"]
    seconds = w["moves"] / max(w["moves_per_s"], 1e-9)
    rate = max(1000, round(delivered(w) / max(seconds, 1e-9)))
    mean_bytes = round(w.get("line_bytes", 0) / max(1, delivered(w)))
    short = measure(rate, streams, FLOOR_SECONDS)
    sized = measure(rate, streams, FLOOR_SECONDS, frame_bytes=mean_bytes)
    return {**short, "line_bytes": mean_bytes, "sized_us_per_line": sized["server_us_per_line"]}


def per_line_us(pair: dict[str, Any], key: str) -> float:
    """``key``'s CPU (``server`` or ``engine``) per delivered line, in µs: with the streams less without."""
    w, wo = pair["with"], pair["without"]
    extra_ms = w[f"{key}_cpu_ms_per_move"] - wo[f"{key}_cpu_ms_per_move"]
    return 1000 * extra_ms * w["moves"] / max(1, delivered(w))


def table(result: dict[str, Any], engine: bool) -> Table:
    got = result.get("floor")
    short = got["server_us_per_line"] if got else None
    sized = got.get("sized_us_per_line") if got else None
    title = "Server CPU per delivered line, beside the floor"
    if got:
        title += f" ({got['lines_per_s']:.0f} lines/s; floor {short:.1f} µs a {len(FRAME)}-byte line"
        title += f", {sized:.1f} µs a {got['line_bytes']}-byte line, same run)" if sized else ", same run)"
    out = Table(title=title)
    ratio = "API + Pushpin" if engine else "API"
    for col in ("round", "lines", "lines/move", "bytes/line", "API µs/line", "Pushpin µs/line"):
        out.add_column(col, justify="right")
    for col in (f"{ratio} / short floor", f"{ratio} / same-bytes floor", "<= 2x"):
        out.add_column(col, justify="right")
    for r, pair in enumerate(result["rounds"]):
        w = pair["with"]
        api = per_line_us(pair, "server")
        server = api + (per_line_us(pair, "engine") if engine else 0.0)
        times = [server / f if f else None for f in (short, sized)]
        judged = times[1] if times[1] is not None else times[0]
        out.add_row(
            str(r),
            str(delivered(w)),
            f"{delivered(w) / max(1, w['moves']):.1f}",
            f"{w.get('line_bytes', 0) / max(1, delivered(w)):.0f}",
            f"{api:.1f}",
            f"{per_line_us(pair, 'engine'):.1f}" if engine else "-",
            *(f"{t:.1f}x" if t is not None else "-" for t in times),
            ("yes" if judged <= TARGET_TIMES_FLOOR else "no") if judged is not None and not engine else "",
        )
    return out
