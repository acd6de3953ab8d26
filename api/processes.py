"""How the child processes of ``dragonhall serve`` and ``dragonhall worker`` end with their parent.

``serve`` runs Granian, which forks the HTTP processes, and starts the projection
process; ``worker`` supervises the Celery worker as a child (``workers.supervisor``),
which forks the beat with ``--beat``. Two things went wrong:

* A child whose parent was killed outright (SIGKILL, the OOM killer, a crash) was
  not told: the HTTP processes went on serving the port, the projection process on
  holding the projections' lead, the Celery worker and its beat on taking tasks and
  ticking beside the ones a new supervisor starts. So each child asks
  the kernel for SIGTERM when its parent dies (``die_with_parent``, Linux's
  ``PR_SET_PDEATHSIG``) and stops as it does on any SIGTERM. A flag the kernel keeps
  needs no thread, no polling and no pipe that other forked processes might hold
  open; the kernel sends the signal the moment the parent is gone. Two limits: it
  fires when the *thread* that started the child ends (every child here is started
  by its parent's main thread, which lives as long as the parent), and it exists
  only on Linux, the platform Dragonhall is deployed on; elsewhere children are not
  tied to their parent, as before.
* A SIGTERM or Ctrl-C that reached an HTTP process while it was still building its
  app was lost: Granian forks its workers with the parent's signal handlers, which
  only set a flag in the copy of the parent's state, until the worker installs its
  own. The worker then served on until Granian killed it ten seconds later, saying
  it "refused to gracefully stop". ``HttpServer`` makes that inherited handler end a
  worker still starting at once, as SIGTERM's default would: it serves nothing yet.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

from granian.server import Server

if TYPE_CHECKING:
    from api.gateway import Gateway

PR_SET_PDEATHSIG = 1
"""``prctl`` option: the signal this process gets when its parent dies (linux/prctl.h)."""


def die_with_parent(parent_pid: int, signum: int = signal.SIGTERM) -> bool:
    """Has the kernel send ``signum`` to this process when its parent, ``parent_pid``, dies;
    if the parent died already (before this call), sends it now. False where the kernel
    cannot (not Linux): the process then outlives its parent, as any process does."""
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_PDEATHSIG, int(signum), 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), "prctl(PR_SET_PDEATHSIG) failed")
    if os.getppid() != parent_pid:  # orphaned between fork and here: the kernel will send nothing
        os.kill(os.getpid(), signum)
    return True


def die_with_multiprocessing_parent() -> None:
    """``die_with_parent`` for a child started by ``multiprocessing`` (forked or spawned)."""
    parent = multiprocessing.parent_process()
    if parent is not None and parent.pid is not None:
        die_with_parent(parent.pid)


def http_process_app() -> Gateway:
    """The app of one HTTP process of ``serve`` (Granian's factory): tied to its parent first."""
    die_with_multiprocessing_parent()
    _configure_logging()
    from api.app import serving_gateway

    return serving_gateway()


def _configure_logging() -> None:
    """The command's logging in a child it spawned (a spawned process starts with none): JSON lines."""
    from infra import log_lines

    log_lines.configure(os.environ.get("DRAGONHALL_LOG_LEVEL", "WARNING").upper())


# granian binds Server at import to MPServer or MTServer (a variable, not a class, to mypy).
class HttpServer(Server):  # type: ignore[misc, valid-type]
    """Granian's server, whose workers still starting end at once on SIGTERM or SIGINT."""

    def signal_handler_interrupt(self, *args: Any, **kwargs: Any) -> None:
        if self.pid is not None and os.getpid() != self.pid:  # a worker, before its own handlers
            signum = int(args[0]) if args else signal.SIGTERM
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
            return
        super().signal_handler_interrupt(*args, **kwargs)
