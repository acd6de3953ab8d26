"""Streams under load: how soon a move reaches every stream that follows it, and what the streams cost.

Starts `dragonhall serve` (the embedded default: SQLite in a temporary directory, two HTTP processes
and the projection process; or ``--store postgres`` with ``--database-url``, and with ``--redis-url``
Redis as the broker and the wake-ups' carrier, beside a `dragonhall worker`). It registers two players
per game slot (``--games``, 32) and creates each slot's two-player Tarasque games ahead of time, so that
the streams know which games to follow. Then, in each round:

* **without streams**: the slots' games are played for ``--seconds`` by the bench's own clients, as
  ``bench/http_load.py`` plays them (``game_driver.play_script`` over the lean clients of
  ``http_client.py``, in ``--processes`` client processes): post a random legal move, take the next from
  the answer's legal moves;
* **with streams**: ``--game-streams`` game streams (1,000) and ``--account-streams`` account streams
  (200) are opened first, from ``--stream-processes`` client processes (asyncio, reading raw HTTP with
  ``raw_streams.py``), then the next games of the same slots are played for as long. Each slot's game
  streams are its two players' own seats (``?seat=``) and spectators, half of them anonymous and half
  signed in as players of other slots; the account streams are the playing players' own (three or four
  each). A game stream that sees its game end opens the slot's next game (``?after=`` its first version).

Every 201 is timed where the client that posted it reads it (``time.monotonic``, one clock for every
process of the machine), and every stream line where its client reads it. For each move the bench takes,
on every game stream that follows its game (and was open before the 201), the delay to the first line
whose version reaches the move's; and for each move that hands the turn to the other seat, the delay to
the ``your_turn`` line on that player's account streams. (The read models announce a turn once per batch
of events: when the other seat has already moved on within the batch, no ``your_turn`` is due, and the
move counts as "merged".) It prints count, p50, p99 and max of each, and the moves per second of both
halves of each round, with the clients' CPU (they share the server's cores).

Before the rounds it measures memory per idle stream: the RSS summed over the server's process tree
before and after ``--idle`` spectator streams are opened on games nobody plays, over their number.

**Targets** (issue 21): a move reaches every stream that follows it with p99 under 50 ms after its 201;
moves/s with the streams open at least 85% of moves/s without them, in the same run.

    python bench/streams.py                                  # embedded default
    python bench/streams.py --rounds 3 --seconds 20          # halves interleaved, both orders
    python bench/streams.py --store postgres --database-url postgresql://postgres@127.0.0.1:5432/test
    python bench/streams.py --store postgres --redis-url redis://127.0.0.1:6379/15
    python bench/streams.py --engine pushpin                 # the streams held by Pushpin (services.streams.grip)

With ``--engine pushpin`` (issue 35) the server runs with ``DRAGONHALL_STREAM_ENGINE=pushpin`` and a
Pushpin of its own (``tests.support.pushpin``, Debian's package) in front of it: the streams' clients
connect to Pushpin, the moves go to the server as before. The table then shows Pushpin's CPU per move
beside the server's, and the ratio of moves/s counts both (not the clients').
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import multiprocessing as mp
import os
import random
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import orjson
from rich.console import Console
from rich.table import Table

from bench import line_cost
from bench.game_driver import play_script
from bench.http_client import Play, drive
from bench.http_load import _tree_cpu_seconds, _wait_for_listeners, drop_schema
from bench.raw_streams import Record, lines, open_stream
from dragonhall.streams import RECONNECT
from services.streams.grip import NEXT_PATH
from tests.support.processes import Proc, Server, free_port
from tests.support.pushpin import SIG_KEY, running_pushpin

console = Console(width=200)

TARGET_P99_MS = 50.0
TARGET_RATIO = 0.85
QUIET_LONGEST = 120.0
"""Seconds the streams may take, after play stops, to deliver what was played; a move whose line has
not come by then counts as missing."""
ENDED = ("finished", "abandoned")
MOVES_PER_GAME = 130
"""Fewer moves than a two-player Tarasque game takes (about 170 on average, 136 the fewest seen)."""
MOST_MOVES_PER_S = 1500
"""More moves a second than the bench's clients can get from the server, for sizing the games."""


@dataclass
class Slot:
    """Two players and the games they play one after the other (each game's version once both sat)."""

    tokens: list[str]
    players: list[str]
    games: list[tuple[str, int]] = field(default_factory=list)


# ------------------------------------------------------------------ set-up


def prepare(port: int, slots: int, games_per_slot: int) -> list[Slot]:
    """Registers two players per slot and creates each slot's games, all started and awaiting."""
    made: list[Slot] = [Slot([], []) for _ in range(slots)]

    def one(k: int) -> Play:
        slot = made[k]
        for name in ("a", "b"):
            _, p, _ = yield ("POST", "/api/v1/players", {"name": f"{name}{k}"}, None)
            slot.tokens.append(p["token"])
            slot.players.append(p["id"])
        for _ in range(games_per_slot):
            slot.games.append((yield from _new_game(slot.tokens)))

    drive(port, [one(k) for k in range(slots)])
    return made


def more_games(port: int, slots: list[Slot], games_per_slot: int) -> None:
    def one(slot: Slot) -> Play:
        for _ in range(games_per_slot):
            slot.games.append((yield from _new_game(slot.tokens)))

    drive(port, [one(s) for s in slots])


def _new_game(tokens: list[str]) -> Any:
    status, g, _ = yield ("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, tokens[0])
    assert status == 201, g
    for t in tokens:
        status, seat, _ = yield ("POST", f"/api/v1/games/{g['id']}/seats", {}, t)
        assert status == 201, seat
    _, doc, _ = yield ("GET", f"/api/v1/games/{g['id']}", None, None)
    return g["id"], int(doc["version"])


# ------------------------------------------------------------------ the movers


def move(
    port: int, plan: list[tuple[list[str], list[str]]], seconds: float, seed: int, out: Any, pace: float = 0.0
) -> None:
    """A client process: plays each slot's games (``plan``: (tokens, game ids)) one after the other
    until time is up, a move every ``pace`` seconds at most per slot (0: as fast as answered);
    reports every acknowledged move with the time its 201 was read."""
    acks: list[tuple[str, int, float, list[int]]] = []
    posts: list[float] = []
    refused = [0]
    started = time.monotonic()
    stop_at = started + seconds
    cpu = time.process_time()
    ran_out = 0

    def on_ack(game_id: str, version: int, awaiting: list[int]) -> None:
        acks.append((game_id, version, time.monotonic(), awaiting))

    def slot_play(k: int, tokens: list[str], games: list[str]) -> Play:
        nonlocal ran_out
        rng = random.Random(seed * 1000 + k)
        for gid in games:
            played = yield from play_script(gid, tokens, rng, lambda _n: time.monotonic() < stop_at, on_ack)
            posts.extend(played.moves)
            refused[0] += played.errors
            if time.monotonic() >= stop_at:
                return
        ran_out += 1

    reconnects = 0
    try:
        clients = drive(port, [slot_play(k, tokens, games) for k, (tokens, games) in enumerate(plan)], pace)
        reconnects = sum(c.reconnects for c in clients)
    finally:
        out.put(
            {
                "acks": acks,
                "posts": posts,
                "seconds": time.monotonic() - started,
                "cpu": time.process_time() - cpu,
                "ran_out": ran_out,
                "reconnects": reconnects,
                "refused": refused[0],
            }
        )


def play_round(
    port: int, slots: list[Slot], first: int, count: int, seconds: float, processes: int, rate: float = 0.0
) -> dict[str, Any]:
    """Plays games ``first .. first+count-1`` of every slot for ``seconds`` (at ``rate`` moves a second
    in all, or as fast as answered); merges the movers' reports."""
    pace = len(slots) / rate if rate else 0.0
    queue: Any = mp.Queue()
    plans: list[list[tuple[list[str], list[str]]]] = [[] for _ in range(processes)]
    for k, s in enumerate(slots):
        plans[k % processes].append((s.tokens, [g for g, _ in s.games[first : first + count]]))
    procs = [mp.Process(target=move, args=(port, plan, seconds, i, queue, pace)) for i, plan in enumerate(plans)]
    for p in procs:
        p.start()
    reports = [queue.get() for _ in procs]
    for p in procs:
        p.join()
    return {
        "acks": [a for r in reports for a in r["acks"]],
        "posts": [t for r in reports for t in r["posts"]],
        "seconds": max(r["seconds"] for r in reports),
        "cpu": sum(r["cpu"] for r in reports),
        "ran_out": sum(r["ran_out"] for r in reports),
        "reconnects": sum(r["reconnects"] for r in reports),
        "refused": sum(r["refused"] for r in reports),
    }


# ------------------------------------------------------------------ the streams' clients


@dataclass
class GameWatch:
    """One game stream: a slot's games in turn, as a seat (with its token) or a spectator."""

    games: list[tuple[str, int]]
    token: str | None
    seat: int | None


@dataclass
class AccountWatch:
    token: str
    player: str


def hold_streams(
    port: int, games: list[GameWatch], accounts: list[AccountWatch], ready: Any, stop: Any, out: Any, last: Any
) -> None:
    """A client process: opens every stream, says so on ``ready``, records each line's arrival until
    ``stop`` is set, then reports them on ``out``."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    out.put(asyncio.run(_hold(port, games, accounts, ready, stop, last)))


async def _hold(
    port: int, games: list[GameWatch], accounts: list[AccountWatch], ready: Any, stop: Any, last: Any
) -> dict[str, Any]:
    """Holds the streams with ``raw_streams``' lean readers: while play goes on each read is only
    recorded (and ``last`` set), so the clients take as little of the shared cores as they can;
    the lines are taken apart once ``stop`` is set."""
    total = len(games) + len(accounts)
    state = {"open": 0, "refused": 0, "errors": 0, "signalled": False}
    cpu = [0.0, 0.0]
    game_records: list[tuple[int, str, Record]] = []
    account_records: list[tuple[str, Record]] = []
    kinds: dict[str, int] = {}

    def counted(ok: bool) -> None:
        state["open" if ok else "refused"] += 1
        if not state["signalled"] and state["open"] + state["refused"] >= total:
            state["signalled"] = True
            cpu[0] = time.process_time()
            ready.put((state["open"], state["refused"]))

    def touch(when: float) -> None:
        last.value = when

    def first_only() -> Any:
        seen = [False]

        def on_head(ok: bool) -> None:
            if not seen[0]:
                seen[0] = True
                counted(ok)

        return on_head

    async def follow_games(i: int, watch: GameWatch) -> None:
        on_head = first_only()
        for gid, after in watch.games:
            params: dict[str, object] = {"after": after}
            if watch.seat is not None:
                params["seat"] = watch.seat
            path = f"/api/v1/games/{gid}/stream"
            for attempt in range(1, RECONNECT.attempts + 1):
                stream, record = await open_stream(port, path, params, watch.token, on_head, touch)
                game_records.append((i, gid, record))
                await stream.done
                if not record.lost and record.reads[0][1].startswith(b"HTTP/1.1 200"):
                    break
                kind = "lost" if record.lost else record.reads[0][1].split(b"\r\n", 1)[0].decode(errors="replace")
                kinds[kind] = kinds.get(kind, 0) + 1
                if record.lost or attempt == RECONNECT.attempts or not _for_now(kind):
                    state["errors"] += 1
                    return
                await asyncio.sleep(RECONNECT.delay(attempt))  # as the client library opens it again

    async def follow_account(watch: AccountWatch) -> None:
        stream, record = await open_stream(port, "/api/v1/stream/events", {}, watch.token, first_only(), touch)
        account_records.append((watch.player, record))
        await stream.done

    async def guarded(coro: Any) -> None:
        try:
            await coro
        except asyncio.CancelledError:
            raise
        except Exception as e:  # counted and reported: one stream's failure must not end the others
            state["errors"] += 1
            kinds[type(e).__name__] = kinds.get(type(e).__name__, 0) + 1
            if not state["signalled"]:
                counted(False)

    tasks = [asyncio.create_task(guarded(follow_games(i, w))) for i, w in enumerate(games)]
    tasks += [asyncio.create_task(guarded(follow_account(w))) for w in accounts]
    while not stop.is_set():
        await asyncio.sleep(0.05)
    cpu[1] = time.process_time()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    taken = _taken_apart(game_records, account_records)
    counts = {"refused": state["refused"], "errors": state["errors"], "error_kinds": kinds}
    return {**taken, **counts, "cpu": cpu[1] - cpu[0]}


def _for_now(status_line: str) -> bool:
    """A refusal a client opens the stream again after (``dragonhall.streams``): a 429, or a 5xx
    (a fan-out engine refuses part of a burst of openings at once: 502, or 500 from its handler)."""
    code = status_line.split(" ")[1] if status_line.count(" ") else ""
    return code == "429" or code.startswith("5")


def _taken_apart(
    game_records: list[tuple[int, str, Record]], account_records: list[tuple[str, Record]]
) -> dict[str, Any]:
    """The recorded reads as the bench's figures want them: when each game stream's head came,
    each game line's version and time, and each ``your_turn``."""
    opened: list[tuple[int, str, float]] = []  # (stream, game id, when its answer's head arrived)
    found: list[tuple[int, str, int, float]] = []  # (stream, game id, version, when)
    turns: list[tuple[str, str, int, int, float]] = []  # (player, game id, seat, version, when)
    account_lines = line_bytes = 0
    for i, gid, record in game_records:
        status, head_at, got = lines(record)
        if status != 200 or head_at is None:
            continue
        opened.append((i, gid, head_at))
        found += [(i, gid, orjson.loads(text)["version"], when) for text, when in got]
        line_bytes += sum(len(text) for text, _ in got)
    for player, record in account_records:
        status, _, got = lines(record)
        for text, when in got if status == 200 else []:
            account_lines += 1
            line_bytes += len(text)
            line = orjson.loads(text)
            if line["type"] == "your_turn":
                turns.append((player, line["game_id"], line["seat"], line["version"], when))
    return {"opened": opened, "lines": found, "turns": turns, "account_lines": account_lines, "line_bytes": line_bytes}


class StreamClients:
    """The streams' client processes: ``open`` waits until every stream is open, ``close`` gathers
    what they recorded."""

    def __init__(self, port: int, games: list[GameWatch], accounts: list[AccountWatch], processes: int) -> None:
        self.ready: Any = mp.Queue()
        self.out: Any = mp.Queue()
        self.stop = mp.Event()
        self.last: Any = mp.RawValue("d", 0.0)  # when a client last read a line (``time.monotonic``)
        self.procs = [
            mp.Process(
                target=hold_streams,
                args=(port, games[i::processes], accounts[i::processes], self.ready, self.stop, self.out, self.last),
            )
            for i in range(processes)
        ]

    def open(self, timeout: float = 120) -> tuple[int, int]:
        for p in self.procs:
            p.start()
        got = [self.ready.get(timeout=timeout) for _ in self.procs]
        self.opened_at = time.monotonic()
        return sum(o for o, _ in got), sum(r for _, r in got)

    def quiet(self, seconds: float, longest: float) -> float:
        """Waits until no line has come for ``seconds`` (at most ``longest``); returns the wait."""
        started = time.monotonic()
        while time.monotonic() - started < longest and time.monotonic() - max(self.last.value, started) < seconds:
            time.sleep(0.1)
        return time.monotonic() - started

    def close(self) -> dict[str, Any]:
        self.stop.set()
        reports = [self.out.get(timeout=120) for _ in self.procs]
        for p in self.procs:
            p.join()
        merged: dict[str, Any] = {
            "opened": [],
            "lines": [],
            "turns": [],
            "account_lines": 0,
            "line_bytes": 0,
            "refused": 0,
            "errors": 0,
            "cpu": 0.0,
            "error_kinds": {},
        }
        for n, r in enumerate(reports):  # streams are numbered within their process: tell the processes apart
            tag = n * 1_000_000
            merged["opened"] += [(tag + i, g, t) for i, g, t in r["opened"]]
            merged["lines"] += [(tag + i, g, v, t) for i, g, v, t in r["lines"]]
            merged["turns"] += r["turns"]
            for key in ("refused", "errors", "cpu", "account_lines", "line_bytes"):
                merged[key] += r[key]
            for kind, n in r["error_kinds"].items():
                merged["error_kinds"][kind] = merged["error_kinds"].get(kind, 0) + n
        return merged


def watches(
    slots: list[Slot], first: int, count: int, game_streams: int, account_streams: int
) -> tuple[list[GameWatch], list[AccountWatch]]:
    """Spreads the streams over the slots: each slot's two seats, then spectators (every other one
    signed in as a player of another slot); account streams round the playing players."""
    n = len(slots)
    games: list[GameWatch] = []
    per_slot = [game_streams // n + (1 if k < game_streams % n else 0) for k in range(n)]
    for k, s in enumerate(slots):
        mine = s.games[first : first + count]
        for i in range(per_slot[k]):
            if i < 2:
                games.append(GameWatch(mine, s.tokens[i], i))
            elif i % 2:
                other = slots[(k + i) % n] if n > 1 else s
                games.append(GameWatch(mine, other.tokens[i % 2], None))
            else:
                games.append(GameWatch(mine, None, None))
    players = [(s.tokens[i], s.players[i]) for s in slots for i in (0, 1)]
    accounts = [AccountWatch(*players[j % len(players)]) for j in range(account_streams)]
    return games, accounts


# ------------------------------------------------------------------ the delays


def game_delays(acks: list[tuple[str, int, float, list[int]]], seen: dict[str, Any]) -> dict[str, Any]:
    """For every move and every game stream open on its game before its 201: the seconds from the 201
    to the first line that reaches the move's version."""
    acked: dict[str, list[tuple[int, float]]] = defaultdict(list)
    for gid, version, at, _ in acks:
        acked[gid].append((version, at))
    per_stream: dict[tuple[int, str], tuple[list[int], list[float]]] = {}
    for stream, gid, version, at in seen["lines"]:
        versions, times = per_stream.setdefault((stream, gid), ([], []))
        versions.append(version)
        times.append(at)
    delays: list[float] = []
    missing = before_open = 0
    for stream, gid, opened in seen["opened"]:
        versions, times = per_stream.get((stream, gid), ([], []))
        for version, at in acked.get(gid, []):
            if at < opened:
                before_open += 1
                continue
            i = bisect.bisect_left(versions, version)
            if i == len(versions):
                missing += 1
            else:
                delays.append(times[i] - at)
    return {"delays": delays, "missing": missing, "before_open": before_open}


def turn_delays(
    acks: list[tuple[str, int, float, list[int]]], seen: dict[str, Any], slots: list[Slot], accounts: list[AccountWatch]
) -> dict[str, Any]:
    """For every move that hands the turn to the other seat: the seconds from its 201 to the ``your_turn``
    line on each of that player's account streams. A ``your_turn`` announces the seat awaited after a
    batch of events; when the seat had moved on within the batch, none is due ("merged"). A line that
    reached some of the player's account streams and not the others is "missing" on those."""
    player_of: dict[tuple[str, int], str] = {}
    for s in slots:
        for gid, _ in s.games:
            player_of[(gid, 0)], player_of[(gid, 1)] = s.players[0], s.players[1]
    streams_of: dict[str, int] = defaultdict(int)
    for w in accounts:
        streams_of[w.player] += 1
    by_game: dict[str, list[tuple[int, float, list[int]]]] = defaultdict(list)
    for gid, version, at, awaiting in acks:
        by_game[gid].append((version, at, awaiting))
    turns: dict[tuple[str, str, int], list[tuple[int, float]]] = defaultdict(list)
    for player, gid, seat, version, at in seen["turns"]:
        turns[(player, gid, seat)].append((version, at))
    delays: list[float] = []
    merged = missing = 0
    for gid, moves in by_game.items():
        moves.sort()
        for k in range(1, len(moves)):
            version, at, awaiting = moves[k]
            for seat in set(awaiting) - set(moves[k - 1][2]):
                player = player_of[(gid, seat)]
                end = next((v for v, _, a in moves[k + 1 :] if seat not in a), None)
                announced = sorted(turns.get((player, gid, seat), []))
                hits = [(v, t) for v, t in announced if v >= version and (end is None or v < end)]
                if not hits:
                    merged += 1
                    continue
                # every account stream of the player receives the same line: its first arrivals
                first = hits[0][0]
                arrivals = [t for v, t in hits if v == first][: streams_of[player]]
                delays += [t - at for t in arrivals]
                missing += streams_of[player] - len(arrivals)
    return {"delays": delays, "merged": merged, "missing": missing}


# ------------------------------------------------------------------ memory


def tree_rss_bytes(pid: int) -> int:
    """Resident memory of a process and its descendants, summed (Linux ``/proc``)."""
    try:
        pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0
    return pages * os.sysconf("SC_PAGE_SIZE") + sum(tree_rss_bytes(int(c)) for c in children)


def tree_threads(pid: int) -> int:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    except OSError:
        return 0
    own = next(int(line.split()[1]) for line in status.splitlines() if line.startswith("Threads:"))
    return own + sum(tree_threads(int(c)) for c in children)


def idle_memory(
    server: Server, slots: list[Slot], idle: int, processes: int, engine: tuple[int, int] | None = None
) -> dict[str, Any]:
    """Server RSS before, with ``idle`` spectator streams open on games nobody plays, and after;
    with ``engine`` (its port and process id) the streams go through the fan-out engine, whose RSS
    is given apart."""
    idle_games = [s.games[-1] for s in slots]  # the last game of each slot is never played
    engine_pid = engine[1] if engine else None
    before = _settled_rss(server.popen.pid)
    engine_before = _settled_rss(engine_pid) if engine_pid else 0
    threads_before = tree_threads(server.popen.pid)
    cpu_quiet = _cpu_cores(server.popen.pid, IDLE_CPU_WINDOW)
    watch = [GameWatch([idle_games[i % len(idle_games)]], None, None) for i in range(idle)]
    clients = StreamClients(engine[0] if engine else server.port, watch, [], processes)
    opened, refused = clients.open()
    time.sleep(2)
    during = _settled_rss(server.popen.pid)
    engine_during = _settled_rss(engine_pid) if engine_pid else 0
    threads_during = tree_threads(server.popen.pid)
    cpu_idle_streams = _cpu_cores(server.popen.pid, IDLE_CPU_WINDOW)
    clients.close()
    time.sleep(2)
    after = tree_rss_bytes(server.popen.pid)
    engine_figures = (
        {
            "engine_rss_before_mb": engine_before / 2**20,
            "engine_rss_open_mb": engine_during / 2**20,
            "engine_kb_per_stream": (engine_during - engine_before) / max(1, opened) / 1024,
        }
        if engine_pid
        else {}
    )
    return {
        **engine_figures,
        "idle_streams": opened,
        "refused": refused,
        "rss_before_mb": before / 2**20,
        "rss_open_mb": during / 2**20,
        "rss_after_close_mb": after / 2**20,
        "kb_per_stream": (during - before) / max(1, opened) / 1024,
        "threads_before": threads_before,
        "threads_open": threads_during,
        "server_cpu_cores_quiet": cpu_quiet,
        "server_cpu_cores_idle_streams": cpu_idle_streams,
    }


IDLE_CPU_WINDOW = 5.0
"""Seconds over which the server's CPU is measured with and without the idle streams: each idle
stream reads the store every ``POLL_FALLBACK`` seconds and sends a keep-alive every 5."""


def _cpu_cores(pid: int, seconds: float) -> float:
    """The server's CPU over ``seconds`` from now, in cores."""
    before = _tree_cpu_seconds(pid)
    time.sleep(seconds)
    return (_tree_cpu_seconds(pid) - before) / seconds


def _settled_rss(pid: int) -> int:
    """The tree's RSS, the median of five samples a fifth of a second apart."""
    samples = []
    for _ in range(5):
        samples.append(tree_rss_bytes(pid))
        time.sleep(0.2)
    return int(statistics.median(samples))


# ------------------------------------------------------------------ the run


def _pct_ms(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return 1000 * ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def figures(delays: list[float]) -> dict[str, float | int]:
    return {
        "count": len(delays),
        "p50_ms": _pct_ms(delays, 50),
        "p99_ms": _pct_ms(delays, 99),
        "max_ms": 1000 * max(delays) if delays else float("nan"),
        "min_ms": 1000 * min(delays) if delays else float("nan"),
    }


def half(
    server: Server,
    slots: list[Slot],
    first: int,
    count: int,
    args: argparse.Namespace,
    streams: bool,
) -> dict[str, Any]:
    """One half of a round: the slots' games ``first..`` played for ``--seconds``, with or without
    the streams open."""
    clients = None
    opened = refused = 0
    if streams:
        games, accounts = watches(slots, first, count, args.game_streams, args.account_streams)
        clients = StreamClients(args.stream_port or server.port, games, accounts, args.stream_processes)
        opened, refused = clients.open()
    cpu_before = _tree_cpu_seconds(server.popen.pid)
    engine_before = _tree_cpu_seconds(args.engine_pid) if args.engine_pid else 0.0
    recoveries_before = _recoveries(args.engine_log)
    played = play_round(server.port, slots, first, count, args.seconds, args.processes, args.rate)
    server_cpu = _tree_cpu_seconds(server.popen.pid) - cpu_before
    engine_cpu = _tree_cpu_seconds(args.engine_pid) - engine_before if args.engine_pid else 0.0
    out: dict[str, Any] = {
        "streams": streams,
        "moves": len(played["acks"]),
        "moves_per_s": len(played["acks"]) / played["seconds"],
        "post_p50_ms": _pct_ms(played["posts"], 50),
        "post_p99_ms": _pct_ms(played["posts"], 99),
        "server_cpu_ms_per_move": 1000 * server_cpu / max(1, len(played["acks"])),
        "engine_cpu_ms_per_move": 1000 * engine_cpu / max(1, len(played["acks"])),
        "movers_cpu_cores": played["cpu"] / played["seconds"],
        "slots_out_of_games": played["ran_out"],
        "movers_reconnects": played["reconnects"],
        "moves_refused": played["refused"],
    }
    if clients is not None:
        waited = clients.quiet(args.settle, QUIET_LONGEST)
        seen = clients.close()
        _, accounts = watches(slots, first, count, args.game_streams, args.account_streams)
        g = game_delays(played["acks"], seen)
        t = turn_delays(played["acks"], seen, slots, accounts)
        out.update(
            streams_open=opened,
            streams_refused=refused,
            stream_errors=seen["errors"],
            stream_error_kinds=seen["error_kinds"],
            stream_clients_cpu_cores=seen["cpu"] / (played["seconds"] + waited),
            drained_after_play_s=waited,
            engine_recoveries=_recoveries(args.engine_log) - recoveries_before,
            game_lines=len(seen["lines"]),
            account_lines=seen["account_lines"],
            line_bytes=seen["line_bytes"],
            game=figures(g["delays"]),
            game_missing=g["missing"],
            game_before_open=g["before_open"],
            turn=figures(t["delays"]),
            turn_missing=t["missing"],
            turn_merged=t["merged"],
        )
    return out


def _recoveries(handler_log: Path | None) -> int:
    """Pushpin's requests so far for what a held stream missed (its ``Grip-Link``, ``NEXT_PATH``):
    its handler logs each. With no publish lost, a stream still asks once when its channel is newly
    subscribed, and once when it opens on a game whose next publish reached Pushpin before its hold
    (docs/operations.md, "Where the seconds go")."""
    if handler_log is None or not handler_log.exists():
        return 0
    with handler_log.open("rb") as log:
        return sum(1 for line in log if b" GET " in line and NEXT_PATH.encode() in line)


def streams_env(workdir: Path, store: str, engine: str, publish_port: int) -> dict[str, str]:
    """The server's environment for a streams bench: a data directory of its own, none of the
    caller's databases or broker, the limits that would refuse the bench's many streams from one
    address raised, and with ``engine`` "pushpin" the streams held by a Pushpin publishing on
    ``publish_port``."""
    env = {**os.environ, "DRAGONHALL_DATA_DIR": str(workdir / "var"), "DRAGONHALL_STORE": store}
    env["DRAGONHALL_RATE_LIMITS"] = "0"  # 1,200 streams opened at once from one address: measure the streams
    env["DRAGONHALL_MAX_STREAMS_PER_CALLER"] = "100000"  # the spectators are one caller (one address)
    for key in ("DRAGONHALL_DATABASE_URL", "DRAGONHALL_BROKER_URL", "DRAGONHALL_POSTGRES_SCHEMA"):
        env.pop(key, None)
    if engine == "pushpin":
        env.update(
            DRAGONHALL_STREAM_ENGINE="pushpin",
            DRAGONHALL_GRIP_PUBLISH_URL=f"http://127.0.0.1:{publish_port}",
            DRAGONHALL_GRIP_KEY=SIG_KEY,
        )
    return env


def run(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="dh-streams-"))
    publish_port = free_port()
    env = streams_env(workdir, args.store, args.engine, publish_port)
    schema = None
    if args.store == "postgres":
        schema = f"bench_{uuid.uuid4().hex[:8]}"
        env.update(DRAGONHALL_DATABASE_URL=args.database_url, DRAGONHALL_POSTGRES_SCHEMA=schema)
    if args.redis_url:
        env.update(DRAGONHALL_BROKER_URL=args.redis_url, DRAGONHALL_QUEUE_PREFIX=f"bench{uuid.uuid4().hex[:6]}.")
    server = Server(env, workdir, ("--workers", str(args.workers)))
    engine = None
    if args.engine == "pushpin":
        engine = running_pushpin(server.port, publish_port, keep=args.keep_engine_logs)
    if engine is not None:
        pushpin = engine.__enter__()
        if args.keep_engine_logs:
            console.print(f"Pushpin's logs: {pushpin.dir / 'log'}", style="dim")
        args.stream_port = int(pushpin.url.rsplit(":", 1)[1])
        args.engine_pid = pushpin.popen.pid
        args.engine_log = pushpin.dir / "log" / "pushpin-handler.log"
    worker = (
        Proc(["worker", "--concurrency", "2", "--beat"], env, workdir / "worker.log", workdir)
        if args.redis_url
        else None
    )
    try:
        _wait_for_listeners(server.popen.pid, server.port, args.workers)
        per_slot_per_s = max(40, MOST_MOVES_PER_S / args.games)  # one client plays a slot's moves in turn
        per_half = int(args.seconds * per_slot_per_s / MOVES_PER_GAME) + 2
        halves = 2 * args.rounds
        console.print(f"creating {args.games} x {per_half * halves + 1} games", style="dim")
        slots = prepare(server.port, args.games, per_half * halves + 1)
        result: dict[str, Any] = {
            "store": args.store,
            "broker": "redis" if args.redis_url else "embedded",
            "http_processes": args.workers,
            "engine": args.engine,
        }
        if args.idle:
            result["memory"] = idle_memory(
                server,
                slots,
                args.idle,
                args.stream_processes,
                (args.stream_port, args.engine_pid) if args.engine_pid else None,
            )
            console.print(result["memory"])
        rounds = []
        for r in range(args.rounds):
            order = (False, True) if r % 2 == 0 else (True, False)
            pair: dict[bool, Any] = {}
            for k, streams in enumerate(order):
                first = (2 * r + k) * per_half
                pair[streams] = half(server, slots, first, per_half, args, streams)
                print(json.dumps({"round": r, **pair[streams]}), flush=True)
            rounds.append({"without": pair[False], "with": pair[True]})
        result["rounds"] = rounds
        if args.floor:
            result["floor"] = line_cost.floor(rounds, args.game_streams)
        return result
    finally:
        server.stop()
        if engine is not None:
            engine.__exit__(None, None, None)
        if worker:
            worker.stop()
        if schema:
            drop_schema(args.database_url, schema)


def report(result: dict[str, Any], args: argparse.Namespace) -> None:
    offered = f"{args.rate:.0f} moves/s offered" if args.rate else "as fast as answered"
    title = (
        f"Streams: {args.game_streams} game and {args.account_streams} account streams, "
        f"{args.games} games in flight, {offered} ({result['store']}, {result['broker']} broker, "
        f"{result['http_processes']} HTTP processes, streams held by {result['engine']})"
    )
    delivery = Table(title=title)
    for col in (
        "round",
        "stream",
        "deliveries",
        "p50 ms",
        "p99 ms",
        "max ms",
        "min ms",
        "missing",
        "other",
        "p99 < 50",
    ):
        delivery.add_column(col, justify="right")
    through = Table(title="Moves/s with and without the streams, same run")
    for col in (
        "round",
        "streams",
        "moves/s",
        "POST p50 ms",
        "POST p99 ms",
        "server CPU ms/move",
        "Pushpin CPU ms/move",
        "movers' CPU (cores)",
        "streams' clients CPU (cores)",
        "ratio",
        "CPU ratio",
        ">= 85%",
    ):
        through.add_column(col, justify="right")
    for r, pair in enumerate(result["rounds"]):
        w = pair["with"]
        before_open = f"{w['game_before_open']} before open"
        if args.engine_log is not None:  # a recovery is a line Pushpin did not take from its channel
            before_open += f", {w['engine_recoveries']} Grip-Link requests"
        for kind, extra in (("game", before_open), ("turn", f"{w['turn_merged']} merged")):
            f = w[kind]
            delivery.add_row(
                str(r),
                "game streams" if kind == "game" else "your_turn",
                str(f["count"]),
                f"{f['p50_ms']:.1f}",
                f"{f['p99_ms']:.1f}",
                f"{f['max_ms']:.1f}",
                f"{f['min_ms']:.1f}",
                str(w[f"{kind}_missing"]),
                extra,
                "yes" if f["p99_ms"] < TARGET_P99_MS else "no",
            )
        ratio = w["moves_per_s"] / pair["without"]["moves_per_s"]
        # the server's CPU per move (Pushpin's counted with the API's, the clients' not), without over with
        cost = [h["server_cpu_ms_per_move"] + h["engine_cpu_ms_per_move"] for h in (pair["without"], w)]
        cpu_ratio = cost[0] / cost[1] if cost[1] else 0.0
        judged = not args.rate  # at an offered load both halves play the same moves/s: no ratio to judge
        for h in (pair["without"], w):
            shown = h["streams"] and judged
            through.add_row(
                str(r),
                f"{h.get('streams_open', 0)} open" if h["streams"] else "none",
                f"{h['moves_per_s']:.0f}",
                f"{h['post_p50_ms']:.1f}",
                f"{h['post_p99_ms']:.1f}",
                f"{h['server_cpu_ms_per_move']:.2f}",
                f"{h['engine_cpu_ms_per_move']:.2f}" if args.engine_pid else "-",
                f"{h['movers_cpu_cores']:.2f}",
                f"{h['stream_clients_cpu_cores']:.2f}" if h["streams"] else "-",
                f"{ratio:.0%}" if shown else "",
                f"{cpu_ratio:.0%}" if h["streams"] else "",
                ("yes" if max(ratio, cpu_ratio) >= TARGET_RATIO else "no") if shown else "",
            )
    console.print(delivery)
    console.print(through)
    console.print(line_cost.table(result, bool(args.engine_pid)))
    m = result.get("memory")
    if m:
        mem = Table(title="Memory per idle stream (RSS summed over the server's processes)")
        for col in (
            "idle streams",
            "RSS before MB",
            "RSS open MB",
            "RSS after close MB",
            "KB per stream",
            "threads",
            "server CPU (cores) quiet / idle streams",
        ):
            mem.add_column(col, justify="right")
        mem.add_row(
            str(m["idle_streams"]),
            f"{m['rss_before_mb']:.1f}",
            f"{m['rss_open_mb']:.1f}",
            f"{m['rss_after_close_mb']:.1f}",
            f"{m['kb_per_stream']:.1f}",
            f"{m['threads_before']} -> {m['threads_open']}",
            f"{m['server_cpu_cores_quiet']:.2f} / {m['server_cpu_cores_idle_streams']:.2f}",
        )
        console.print(mem)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--store", choices=("sqlite", "postgres"), default="sqlite")
    parser.add_argument(
        "--database-url",
        default=os.environ.get("DRAGONHALL_TEST_DATABASE_URL", "postgresql://postgres@127.0.0.1:5432/test"),
    )
    parser.add_argument("--redis-url", default=None, help="Redis as the broker and the wake-ups' carrier")
    parser.add_argument("--games", type=int, default=32, help="games in flight")
    parser.add_argument("--seconds", type=float, default=20, help="of play in each half of a round")
    parser.add_argument(
        "--rate", type=float, default=0.0, help="moves a second in all, offered (0: each slot as fast as answered)"
    )
    parser.add_argument("--rounds", type=int, default=1, help="each a half without streams and one with")
    parser.add_argument("--game-streams", type=int, default=1000)
    parser.add_argument("--account-streams", type=int, default=200)
    parser.add_argument("--idle", type=int, default=1000, help="idle streams for the memory figure (0: skip)")
    parser.add_argument("--processes", type=int, default=2, help="client processes playing the games")
    parser.add_argument("--stream-processes", type=int, default=2, help="client processes holding the streams")
    parser.add_argument("--workers", type=int, default=2, help="HTTP processes")
    parser.add_argument(
        "--settle", type=float, default=2.0, help="the streams close after play once silent this many seconds"
    )
    parser.add_argument("--engine", choices=("embedded", "pushpin"), default="embedded", help="who holds the streams")
    parser.add_argument("--keep-engine-logs", action="store_true", help="leave Pushpin's logs in /tmp for a look")
    parser.add_argument(
        "--no-floor", dest="floor", action="store_false", help="skip fanout_floor.py's floor, measured after the rounds"
    )
    args = parser.parse_args()
    args.stream_port = args.engine_pid = args.engine_log = None
    result = run(args)
    print(json.dumps(result), flush=True)
    report(result, args)


if __name__ == "__main__":
    main()
