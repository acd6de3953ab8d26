"""Where the processes of one ``dragonhall`` command write their metrics (``infra.metrics``), set before it loads.

prometheus_client chooses, when it is imported, whether a process keeps its samples
in memory or in files that several processes share; so the ``dragonhall`` command
calls ``setup`` first, before anything imports ``infra.metrics``, and its children
inherit the variable.

**One directory per command, not per machine.** Every command (``serve`` with its
HTTP processes and projection process, ``worker`` with its Celery child and beat,
``projections``) is one Prometheus target: it writes to
``DATA_DIR/metrics/<role>-<pid>@<host>`` and serves the sums of that directory alone
(``serve`` on ``/metrics``, the others on ``--metrics-port``). A directory shared by
several commands was added up by each of them (counted twice by Prometheus), and
one shared by several containers was worse: process ids repeat between containers,
so a starting container took another container's live files for those of dead
processes and deleted them. A command's directory is named by its machine, and
only directories of this machine whose command is gone are removed.

**Within a command, a dead child's counts stay.** Granian starts a new HTTP process
in place of one that crashed, and the supervisor a new Celery worker; the dead
process's counter and histogram files are kept, so the command's sums never drop
(a drop is a counter reset to Prometheus, and ``rate()`` spikes), while its live
gauges (``dragonhall_open_streams``...) leave the sums at the next scrape
(``forget_dead``, the client's ``mark_process_dead``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
from pathlib import Path

from infra.private_files import private_dir

MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"


def setup(data_dir: Path, role: str) -> Path:
    """Points this process and its children at a directory of their own under ``data_dir/metrics``
    (unless the variable is set already: then that one, as the operator chose), made 0700, and
    removes the directories of this machine's commands that are gone."""
    given = os.environ.get(MULTIPROC)
    if given:
        return private_dir(Path(given))
    root = private_dir(data_dir.resolve() / "metrics")
    remove_gone(root)
    path = private_dir(root / f"{role}-{os.getpid()}@{socket.gethostname()}")
    os.environ[MULTIPROC] = str(path)
    return path


def remove_gone(root: Path) -> list[Path]:
    """Removes the directories under ``root`` of this machine's commands that have ended (and
    the files an older version wrote there directly); those of other machines are left alone."""
    host = socket.gethostname()
    removed = []
    for entry in root.iterdir():
        if entry.is_file() and entry.suffix == ".db":  # an older version's files, one directory per machine
            pid = entry.stem.rpartition("_")[2]
            if pid.isdigit() and not alive(int(pid)):
                entry.unlink(missing_ok=True)
            continue
        name, at, where = entry.name.rpartition("@")
        pid = name.rpartition("-")[2]
        if entry.is_dir() and at and where == host and pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(entry, ignore_errors=True)
            removed.append(entry)
    return removed


def forget_dead(path: Path) -> list[int]:
    """Drops the live gauges of this command's processes that have died (their counters stay):
    an HTTP process that crashed holding streams no longer counts them as open."""
    from prometheus_client import multiprocess

    dead = set()
    for file in path.glob("gauge_live*_*.db"):
        number = file.stem.rpartition("_")[2]
        if number.isdigit() and not alive(int(number)):
            dead.add(int(number))
    for pid in dead:
        with contextlib.suppress(FileNotFoundError):  # another process's scrape removed it first
            multiprocess.mark_process_dead(pid, str(path))
    return sorted(dead)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs on this machine (in this pid namespace)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
