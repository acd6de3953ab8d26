"""What a tournament tells its players: each round's table before its game starts, and a
cancellation. Each notice is an inbox item of the player's, so it reaches their inbox page, their
account stream and their webhook (``services.accounts.inbox``), once per player and round.

**The notice before a game.** A round's games are scheduled to start ``notice_seconds`` after the
round is paired (five minutes unless the organiser chose otherwise; ``Tournaments.create``), and
each player is told at the pairing: the round, the table's game, its start time, whom they meet.
So a player whose tournament starts while they are away has that long to arrive before a clock
runs; the tournament's page counts it down to each of its players. A clock that then runs out
plays by the tournament's timeout policy, as in any game.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from services.accounts.inbox import Inbox
from services.common.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_tournament_notice (
        tournament_id TEXT PRIMARY KEY,
        notice_seconds INTEGER NOT NULL
    )""",
]
DEFAULT_NOTICE = 300
"""Seconds from a round's pairing to its games' start, unless the organiser chose otherwise."""
LEAST_NOTICE = 5
MOST_NOTICE = 86_400


class TournamentNotices:
    """Keeps each tournament's notice time and tells its players of rounds and cancellations."""

    def __init__(self, db: SqlStore, inbox: Inbox | None) -> None:
        self.db = db
        self.inbox = inbox
        self.db.script(TABLES)

    def set_notice(self, tid: str, seconds: int) -> None:
        self.db.execute(
            "INSERT INTO dh_tournament_notice (tournament_id, notice_seconds) VALUES (?, ?) "
            "ON CONFLICT (tournament_id) DO NOTHING",
            (tid, seconds),
        )

    def notice(self, tid: str) -> int:
        """Seconds from a round's pairing to its games' start (the default for tournaments announced
        before notices existed)."""
        row = self.db.one("SELECT notice_seconds FROM dh_tournament_notice WHERE tournament_id = ?", (tid,))
        return int(row["notice_seconds"]) if row else DEFAULT_NOTICE

    def round_paired(
        self, t: dict[str, Any], round_no: int, tables: list[list[str]], games: list[str], starts: datetime
    ) -> None:
        """Tells each seated player of a round their table: its game, its start and whom they meet."""
        if self.inbox is None:
            return
        names = self._names(t["tournament_id"])
        for table, game_id in zip(tables, games, strict=True):
            for pid in table:
                others = [names.get(q, "a player") for q in table if q != pid]
                facts = {"tournament_id": t["tournament_id"], "tournament": t["name"], "round": round_no,
                         "starts_at": starts.isoformat(), "opponents": others,
                         "message": f"{t['name']}, round {round_no}: your game against {', '.join(others)} "
                                    f"starts at {starts.strftime('%H:%M')} UTC"}  # fmt: skip
                dedupe = f"tournament-round:{t['tournament_id']}:{round_no}:{pid}"
                self.inbox.add(pid, "tournament_round", dedupe, game_id, facts)

    def cancelled(self, t: dict[str, Any], players: list[str]) -> None:
        """Tells each entrant that the organiser cancelled the tournament."""
        if self.inbox is None:
            return
        for pid in players:
            facts = {"tournament_id": t["tournament_id"], "tournament": t["name"],
                     "message": f"{t['name']} was cancelled by its organiser"}  # fmt: skip
            self.inbox.add(pid, "tournament_cancelled", f"tournament-cancelled:{t['tournament_id']}:{pid}", "", facts)

    def _names(self, tid: str) -> dict[str, str]:
        rows = self.db.query("SELECT player_id, name FROM dh_tournament_players WHERE tournament_id = ?", (tid,))
        return {r["player_id"]: r["name"] for r in rows}
