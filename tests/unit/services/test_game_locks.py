"""The unit of work's per-game lock: commands on one game, one at a time, in this process."""

from __future__ import annotations

import gc
import threading
import uuid
from typing import cast

from services.common.event_store import EventStore
from services.play.unit_of_work import GameUnitOfWork

NO_STORE = cast(EventStore, None)  # locks need no store


def test_a_held_lock_stays_the_game_s_lock_across_any_number_of_other_games() -> None:
    """A clean-up of the lock table must never hand a second command a new lock for a game whose
    lock a first command holds (the table once cleared itself past a size, locks held or not)."""
    work = GameUnitOfWork(NO_STORE, cache_size=2)
    gid = uuid.uuid4()
    entered = threading.Event()
    with work.locked(gid):
        for _ in range(50):  # many more games than the cache holds, each lock let go
            with work.locked(uuid.uuid4()):
                pass
        gc.collect()
        second = threading.Thread(target=lambda: _enter(work, gid, entered))
        second.start()
        assert not entered.wait(0.2), "a second command entered a game whose lock is held"
    second.join(5)
    assert entered.is_set()


def test_the_table_keeps_no_lock_nobody_holds() -> None:
    work = GameUnitOfWork(NO_STORE, cache_size=2)
    for _ in range(100):
        with work.locked(uuid.uuid4()):
            pass
    gc.collect()
    assert len(work._locks) == 0


def _enter(work: GameUnitOfWork, gid: uuid.UUID, entered: threading.Event) -> None:
    with work.locked(gid):
        entered.set()
