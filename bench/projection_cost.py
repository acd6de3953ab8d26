"""What a move costs the projection process, read model by read model, measured in this process.

``http_load.py`` prints the projection process's CPU per move, but not where it goes, and it
moves with the machine. This script plays fixed two-player Tarasque games through the WSGI app
(as ``request_cost.py`` does, the read models left unprojected), then hands the stored events to
every read model's projection in batches of ``--batch`` events, as the runner hands them over
under load (a few events a batch: ``http_load.py``'s projection process pulls every few
milliseconds), and prints each projection's CPU time per move and per batch. The batches run
twice, the second time into emptied read models, and only the second is counted: the first warms
the caches that a running process has warm.

    python bench/projection_cost.py                  # 2,000 moves, batches of 8
    python bench/projection_cost.py --batch 1        # a pull per event: what a quiet server pays
    DRAGONHALL_SRC=/tmp/old python bench/projection_cost.py   # another checkout's code
    python bench/projection_cost.py --instructions   # instructions per move, under callgrind

Thread CPU time moves by a fifth from one run to the next on a shared machine, more than most
changes to a projection; ``--instructions`` counts the read models' pass under callgrind instead
(its main thread only, instrumented for that pass alone), which repeats to a fraction of a percent.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.request_cost import (  # sets sys.path (DRAGONHALL_SRC)
    ROOT,
    _collected,
    _configure,
    _instrument,
    _play,
    _serving_app,
    wsgi_caller,
)


def measure(moves: int, batch: int, data_dir: Path, by_model: bool = False, counted: bool = False) -> dict[str, Any]:
    import random
    import uuid

    ids = random.Random(7)
    uuid.uuid4 = lambda: uuid.UUID(int=ids.getrandbits(128), version=4)
    _configure("sqlite", data_dir, None, deterministic=True)
    app, platform = _serving_app()
    try:
        _play(wsgi_caller(app), random.Random(1), moves)
        project = _each_model if by_model else _read_models
        read, items = _read(platform.store, batch)
        project(platform, items, batch)  # warm: fills the caches a running process holds
        platform.views.drop_views()
        if counted:
            _instrument("on")
        spent = {"read and decode": read, **project(platform, items, batch)}
        if counted:
            _instrument("off")
    finally:
        platform.close()
    total = sum(spent.values())
    return {
        "moves": moves,
        "events": len(items),
        "batch": batch,
        "cpu_ms_per_move": 1000 * total / moves,
        "by_part_ms_per_move": {name: round(1000 * s / moves, 4) for name, s in spent.items()},
        "cpu_us_per_batch": 1e6 * total / -(-len(items) // batch),
        "code": str(ROOT),
    }


def _read(store: Any, batch: int) -> tuple[float, list[Any]]:
    """Every stored event, decoded, with its tracking record, read ``batch`` at a time as the
    runner pulls them; and the thread CPU seconds that took."""
    from eventsourcing.persistence import Tracking

    items: list[Any] = []
    began = time.thread_time()
    while True:
        notes = store.recorder.select_notifications(len(items) + 1, batch)
        if not notes:
            return time.thread_time() - began, items
        items += [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]


def _read_models(platform: Any, items: list[Any], batch: int) -> dict[str, float]:
    """The thread CPU seconds of the runner's read models (``projections.runner.ReadModels``) over
    ``items``, handed over ``batch`` at a time."""
    from projections.read_models import projections
    from projections.runner import ReadModels

    models = ReadModels(projections(platform.views, platform.store, platform.feed))
    began = time.thread_time()
    for start in range(0, len(items), batch):
        models.process_batch(items[start : start + batch])
    models.flush()
    return {"read models": time.thread_time() - began}


def _each_model(platform: Any, items: list[Any], batch: int) -> dict[str, float]:
    """Each read model's thread CPU seconds over ``items``, its projection handed each batch alone."""
    from projections.read_models import projections

    built = projections(platform.views, platform.store, platform.feed)
    spent = {p.read_model: 0.0 for p in built}
    for start in range(0, len(items), batch):
        chunk = items[start : start + batch]
        for projection in built:
            began = time.thread_time()
            projection.process_batch(chunk)
            spent[projection.read_model] += time.thread_time() - began
    for projection in built:
        projection.flush()
    return spent


def instructions_per_move(moves: int, batch: int, by_model: bool) -> dict[str, Any]:
    """The read models' instructions per move under callgrind, counted on the main thread while it
    hands the batches over (the second pass, as ``measure`` times it)."""
    with tempfile.TemporaryDirectory(prefix="dh-projection-instr-") as tmp:
        out = Path(tmp) / "callgrind"
        cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--separate-threads=yes"]
        cmd += [f"--callgrind-out-file={out}", sys.executable, __file__, "--moves", str(moves)]
        cmd += ["--batch", str(batch), "--counted", "--json", *(["--by-model"] if by_model else [])]
        run = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}
        )
        count = _collected(run, out)
    return {"moves": moves, "batch": batch, "instructions_per_move": count / moves, "code": str(ROOT)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--moves", type=int, default=2000)
    parser.add_argument("--batch", type=int, default=8, help="events handed over at once (default 8)")
    parser.add_argument("--by-model", action="store_true", help="each read model's projection on its own")
    parser.add_argument("--json", action="store_true", help="print the JSON line only")
    parser.add_argument("--instructions", action="store_true", help="count instructions per move under callgrind")
    parser.add_argument("--counted", action="store_true", help=argparse.SUPPRESS)  # run by --instructions
    args = parser.parse_args()
    from infra import log_lines

    log_lines.configure("WARNING")
    if args.instructions:
        print(json.dumps(instructions_per_move(args.moves, args.batch, args.by_model)))
        return
    with tempfile.TemporaryDirectory(prefix="dh-projection-cost-") as tmp:
        result = measure(args.moves, args.batch, Path(tmp), args.by_model, args.counted)
    print(json.dumps(result))
    if not args.json:
        _report(result)


def _report(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(
        title=f"What a move costs the projection process ({result['moves']} moves, {result['events']} events, "
        f"batches of {result['batch']}, code in {result['code']})"
    )
    table.add_column("part")
    table.add_column("CPU ms per move", justify="right")
    for name, ms in result["by_part_ms_per_move"].items():
        table.add_row(name, f"{ms:.4f}")
    table.add_row("all", f"{result['cpu_ms_per_move']:.4f}")
    table.add_row("CPU µs per batch", f"{result['cpu_us_per_batch']:.1f}")
    Console().print(table)


if __name__ == "__main__":
    main()
