"""Where the processes of a deployment write their metrics (``infra.metrics``): set before the client loads.

prometheus_client chooses, when it is imported, whether a process keeps its samples
in memory or in files that every process of the machine shares; so the ``dragonhall``
command calls ``setup`` first, before anything imports ``infra.metrics``, and its
children inherit the variable.
"""

from __future__ import annotations

import os
from pathlib import Path

MULTIPROC = "PROMETHEUS_MULTIPROC_DIR"


def setup(data_dir: Path) -> Path:
    """Points this process and its children at ``data_dir/metrics`` (unless the variable is
    set already), and removes the files of processes that are gone, which would otherwise be
    added up for ever (a gone process's counts leave the sums: Prometheus reads a reset)."""
    path = Path(os.environ.setdefault(MULTIPROC, str(data_dir.resolve() / "metrics")))
    path.mkdir(parents=True, exist_ok=True)
    for file in path.glob("*.db"):
        pid = file.stem.rsplit("_", 1)[-1]
        if pid.isdigit() and not _alive(int(pid)):
            file.unlink(missing_ok=True)
    return path


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
