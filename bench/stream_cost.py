"""What a stream line costs one HTTP process, measured without the network and the other processes.

``streams.py`` measures the whole machine, and on a busy machine its figures move a lot. This script
plays one two-player Tarasque game through the WSGI app in this process (set up as one of the two HTTP
processes of ``dragonhall serve``, as ``request_cost.py`` sets it up), with ``--streams`` game streams
open on it (its two seats, then spectators, every other one signed in as a player of no seat), and
prints the CPU time per move and per line:

* by default each stream's response is read in turn, in this thread, one line per stream after each
  move: the process's CPU but the move's requests, so the lines' work alone, whose building the app's
  ``StreamHub`` does on threads of its own (``api.wsgi_streams``); ``--profile`` prints the cProfile
  of this thread's reads;
* with ``--threads`` each stream is read by a thread of its own, as a WSGI server's blocking threads
  read them, and the process's CPU per move counts the threads' waking and their contention for the GIL;
* with ``--building`` no stream is opened: after each move this thread builds the change's line for
  each viewer class the hub groups the streams by (the two seats and the spectators) as the hub does
  (``StreamHub._game_lines``: the game loaded once, then each line), and prints the CPU of the load
  and of the lines, without the framing and the sending.

    python bench/stream_cost.py                    # 30 streams, 150 moves, in turn
    python bench/stream_cost.py --threads          # the same, a thread per stream
    python bench/stream_cost.py --profile | head -60
    python bench/stream_cost.py --building         # the hub's building of the lines alone
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.request_cost import _configure, _serving_app, wsgi_caller


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", type=int, default=30)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--threads", action="store_true", help="a thread per stream, as the server has them")
    parser.add_argument("--profile", action="store_true", help="print the lines' cProfile (not with --threads)")
    parser.add_argument("--building", action="store_true", help="the lines' building alone, no stream open")
    args = parser.parse_args()
    _configure("sqlite", Path(tempfile.mkdtemp(prefix="dh-stream-cost-")), None, False)
    app, _platform = _serving_app()
    call = wsgi_caller(app)
    tokens = [call("POST", "/api/v1/players", {"name": n})[1]["token"] for n in "ab"]
    others = [call("POST", "/api/v1/players", {"name": f"s{i}"})[1]["token"] for i in range(4)]
    gid = call("POST", "/api/v1/games", {"game": "tarasque", "players": 2}, tokens[0])[1]["id"]
    for t in tokens:
        call("POST", f"/api/v1/games/{gid}/seats", {}, t)
    after = call("GET", f"/api/v1/games/{gid}")[1]["version"]
    watchers = [(tokens[0], 0), (tokens[1], 1)] + [
        (None if i % 2 == 0 else others[i % 4], None) for i in range(args.streams - 2)
    ]
    rng = random.Random(1)
    if args.building:
        moves, load, lines = _building(_platform, call, gid, tokens, rng, args.moves)
        print(
            f"{moves} moves, the lines of two seats and the spectators built as the hub builds them: the game's "
            f"load {1e6 * load / moves:.1f} µs, the three lines {1e6 * lines / moves:.1f} µs per move"
        )
        return
    streams = [_open(app, gid, after, token, seat) for token, seat in watchers[: args.streams]]
    if args.threads:
        moves, cpu = _threaded(call, gid, tokens, streams, rng, args.moves)
        print(
            f"{moves} moves, {len(streams)} streams, a thread each: {1000 * cpu / moves:.2f} ms of process CPU "
            f"per move (its requests included), {1000 * cpu / moves / len(streams):.3f} ms per line all in"
        )
        return
    profile = cProfile.Profile()
    moves, move_cpu, line_cpu, size = _in_turn(call, gid, tokens, streams, rng, args.moves, profile, args.profile)
    print(
        f"{moves} moves, {len(streams)} streams read in turn: a move's requests {1000 * move_cpu / moves:.2f} ms; "
        f"the lines {1000 * line_cpu / moves:.2f} ms per move, {1000 * line_cpu / moves / len(streams):.3f} ms "
        f"per line ({size / moves / len(streams):.0f} bytes)"
    )
    if args.profile:
        pstats.Stats(profile).sort_stats("cumulative").print_stats(40)


def _open(app: Any, gid: str, after: int, token: str | None, seat: int | None) -> Iterator[bytes]:
    """A game stream through the WSGI app, as an iterator of its chunks."""
    from werkzeug.test import EnvironBuilder

    query = f"after={after}" + ("" if seat is None else f"&seat={seat}")
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    environ = EnvironBuilder(path=f"/api/v1/games/{gid}/stream", query_string=query, headers=headers).get_environ()
    return iter(app.wsgi_app(environ, lambda *_: None))


def _move(call: Any, gid: str, tokens: list[str], rng: random.Random) -> tuple[bool, float]:
    """One random legal move; whether the game went on, and the CPU of the move's own POST."""
    doc = call("GET", f"/api/v1/games/{gid}")[1]
    if not doc["awaiting"]:
        return False, 0.0
    seat = doc["awaiting"][0]
    legal = call("GET", f"/api/v1/games/{gid}/legal-moves", None, tokens[seat])[1]
    body = {"move": rng.choice(legal["moves"]), "expected_version": legal["version"]}
    return True, call("POST", f"/api/v1/games/{gid}/moves", body, tokens[seat])[2]


def _in_turn(
    call: Any,
    gid: str,
    tokens: list[str],
    streams: list[Iterator[bytes]],
    rng: random.Random,
    moves: int,
    profile: cProfile.Profile,
    profiling: bool,
) -> tuple[int, float, float, int]:
    done, move_cpu, line_cpu, size = 0, 0.0, 0.0, 0
    while done < moves:
        started, requests_started = time.process_time(), time.thread_time()
        going, took = _move(call, gid, tokens, rng)
        if not going:
            break
        requests = time.thread_time() - requests_started
        move_cpu += took
        if profiling:
            profile.enable()
        for stream in streams:
            chunk = next(stream)
            while not chunk.strip():  # a keep-alive
                chunk = next(stream)
            size += len(chunk)
        if profiling:
            profile.disable()
        # the process's CPU but the move's requests: the hub's threads build the lines, this one reads them
        line_cpu += time.process_time() - started - requests
        done += 1
    return done, move_cpu, line_cpu, size


def _building(
    platform: Any, call: Any, gid: str, tokens: list[str], rng: random.Random, moves: int
) -> tuple[int, float, float]:
    """After each move, the game loaded and each viewer class's line from the version before it."""
    from services.streams.lines import GameFollower

    streams = platform.streams
    game = streams.games.load(gid)
    followers = [GameFollower(streams, game, s["player_id"], s["seat"], None) for s in game.seats] + [
        GameFollower(streams, game, None, None, None)
    ]
    done, load, lines = 0, 0.0, 0.0
    while done < moves:
        before = game.version
        going, _ = _move(call, gid, tokens, rng)
        if not going:
            break
        started = time.thread_time()
        game = streams.games.load(gid)
        loaded = time.thread_time()
        for follower in followers:
            follower.line_to(game, before)
        load, lines = load + loaded - started, lines + time.thread_time() - loaded
        done += 1
    return done, load, lines


def _threaded(
    call: Any, gid: str, tokens: list[str], streams: list[Iterator[bytes]], rng: random.Random, moves: int
) -> tuple[int, float]:
    got = [0]
    arrived = threading.Condition()

    def read(stream: Iterator[bytes]) -> None:
        for chunk in stream:
            if chunk.strip():
                with arrived:
                    got[0] += 1
                    arrived.notify_all()

    for stream in streams:
        threading.Thread(target=read, args=(stream,), daemon=True).start()
    done = 0
    started = time.process_time()
    while done < moves:
        going, _ = _move(call, gid, tokens, rng)
        if not going:
            break
        done += 1
        expected = done * len(streams)
        with arrived:  # every stream's line for this move, before the next move
            arrived.wait_for(lambda expected=expected: got[0] >= expected, timeout=10)
    return done, time.process_time() - started


if __name__ == "__main__":
    main()
