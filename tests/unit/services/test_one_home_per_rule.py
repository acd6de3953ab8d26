"""Small rules with one home each: which statuses are ended, when a turn times out, what is revealed.

Each rule used to be copied where it was needed, and the copies drifted (a page took the
tournament status ``cancelled`` for a game's). Each now lives in one function or constant;
these tests hold the rule and every place that must agree with it.
"""

from __future__ import annotations

import ast
import re
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from services.common import visibility
from services.deadlines import clocks
from services.deadlines.timers import clocks_key
from tests.support.names import fresh

ROOT = Path(__file__).parents[3]
PRODUCTION = ("domain", "infra", "services", "projections", "workers", "api", "wiring", "dragonhall")
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


# ------------------------------------------------------------ ended


def test_a_game_has_ended_once_finished_or_abandoned_and_cancelled_is_no_game_status() -> None:
    assert {"finished", "abandoned"} == visibility.ENDED
    assert [s for s in ("open", "scheduled", "active", "finished", "abandoned") if visibility.has_ended(s)] == [
        "finished",
        "abandoned",
    ]
    assert not visibility.has_ended("cancelled"), "a tournament's status, never a game's"


def test_the_pages_and_the_client_library_end_a_game_where_the_server_does() -> None:
    from api.web import pages
    from dragonhall import streams

    assert pages.ENDED is visibility.ENDED
    assert set(streams.ENDED) == visibility.ENDED  # the client library imports nothing of the server


def _status_lists(path: Path) -> list[int]:
    """Lines of ``path`` holding a literal tuple, list or set of exactly the ended statuses (or
    those plus ``cancelled``): a copy of ``visibility.ENDED``."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Tuple | ast.List | ast.Set):
            words = {e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)}
            if len(words) == len(node.elts) and words in ({"finished", "abandoned"}, {*visibility.ENDED, "cancelled"}):
                found.append(node.lineno)
    return found


def test_no_production_module_keeps_its_own_list_of_ended_statuses() -> None:
    # the rule, and the client library's copy
    held = {ROOT / "services" / "common" / "visibility.py", ROOT / "dragonhall" / "streams.py"}
    copies = [
        f"{path.relative_to(ROOT)}:{line}"
        for layer in PRODUCTION
        for path in sorted((ROOT / layer).rglob("*.py"))
        if path not in held
        for line in _status_lists(path)
    ]
    assert not copies, "import services.common.visibility.ENDED instead: " + ", ".join(copies)


WEB_LIST = re.compile(r"""[\[(]\s*(["'](?:finished|abandoned|cancelled)["']\s*,?\s*){2,3}[\])]""")
"""A list or tuple of two or three of the ending statuses, quoted, in a script or a template."""


def test_no_page_script_or_template_keeps_its_own_list_of_ended_statuses() -> None:
    """The pages' scripts read them from the page's data (``ended_statuses``), the templates from
    the layout's context: a game ends on the page where it ends on the server."""
    web = ROOT / "api" / "web"
    copies = [
        f"{path.relative_to(ROOT)}:{text[: m.start()].count(chr(10)) + 1}"
        for path in sorted([*web.rglob("*.js"), *web.rglob("*.html")])
        for text in [path.read_text()]
        for m in WEB_LIST.finditer(text)
    ]
    assert not copies, "read ended_statuses instead: " + ", ".join(copies)


# ------------------------------------------------------------ deadlines


PER_MOVE = {"kind": "per_move", "seconds": 60}
BANK = {"kind": "bank", "initial": 90, "increment": 20, "cap": 150}


def test_a_turn_times_out_its_budget_after_it_started_and_is_reminded_at_eighty_percent() -> None:
    since = START.isoformat()
    assert clocks.deadline(PER_MOVE, since, None) == START + timedelta(seconds=60)
    assert clocks.reminder(PER_MOVE, since, None) == START + timedelta(seconds=48)
    assert clocks.deadline(BANK, since, 30.0) == START + timedelta(seconds=30), "a bank turn has the bank left"
    assert clocks.deadline(BANK, since, None) == START + timedelta(seconds=90), "else the initial bank"
    assert clocks.deadline({"kind": "none"}, since, None) is None
    assert clocks.deadline(PER_MOVE, None, None) is None, "a seat not awaited has no deadline"


def test_vacation_days_push_a_deadline_and_a_reminder_past_them() -> None:
    since = datetime(2026, 3, 2, 23, 59, 30, tzinfo=UTC).isoformat()
    off = frozenset({date(2026, 3, 3)})
    assert clocks.deadline(PER_MOVE, since, None, off) == datetime(2026, 3, 4, 0, 0, 30, tzinfo=UTC)
    assert clocks.reminder(PER_MOVE, since, None, off) == datetime(2026, 3, 4, 0, 0, 18, tzinfo=UTC)


def _dice_race(platform: Any, tc: dict[str, Any]) -> str:
    ids = [platform.accounts.register(fresh(f"p{i}"), "human")[0].id for i in range(2)]
    game = platform.games.create_game(ids[0], "dice-race", None, None, 2, time_control=tc)
    for pid in ids:
        platform.games.take_seat(str(game.id), pid, "p", "human")
    return str(game.id)


@pytest.mark.parametrize("tc", [PER_MOVE, BANK], ids=["per-move", "bank"])
def test_the_sweeps_index_holds_the_deadlines_and_reminders_the_timers_fire_at(platform: Any, tc: Any) -> None:
    """The deadline index's ``next_deadline`` and ``next_reminder`` (the sweep's index) are the
    timers' own deadline and reminder of the soonest seat, not a copy of their arithmetic."""
    gid = _dice_race(platform, {**tc, "timeout_policy": "auto"})
    game = platform.games.load(gid)
    platform.wait_for_projections()
    row = platform.views.deadline_row(gid)
    assert row is not None
    seats = [int(s) for s in game.turns]
    assert seats, "the bid is simultaneous: every seat's clock runs"
    assert row["next_deadline"] == clocks_key(min(platform.timers.deadline(game, s) for s in seats))
    assert row["next_reminder"] == clocks_key(min(platform.timers.reminder_time(game, s) for s in seats))


# ------------------------------------------------------------ revealed


def test_a_game_is_revealed_once_it_has_ended_and_a_sandbox_once_its_origin_has_too() -> None:
    assert visibility.revealed("finished") and visibility.revealed("abandoned")
    assert not visibility.revealed("active") and not visibility.revealed("open")
    assert not visibility.revealed("finished", origin_ended=False), "a sandbox of a running game"
    assert not visibility.revealed("active", origin_ended=True)


def test_a_sandbox_of_a_running_game_reveals_nothing_after_it_ends(platform: Any) -> None:
    """The service's rule for a stored game is the same rule, its origin's status loaded."""
    gid = _dice_race(platform, {"kind": "none"})
    sandbox = platform.games.load(gid)
    sandbox.status = "finished"  # as a sandbox forked from ``gid`` and played out would be
    sandbox.sandbox_of = {"game_id": gid}
    assert not platform.games.revealed(sandbox), "its origin still runs"
    for seat in platform.games.load(gid).seats:  # every seat leaves: the game is over
        if not visibility.has_ended(platform.games.load(gid).status):
            platform.games.resign(gid, seat["player_id"])
    assert visibility.has_ended(platform.games.load(gid).status)
    assert platform.games.revealed(sandbox)
