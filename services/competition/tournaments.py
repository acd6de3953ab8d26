"""Tournaments of scheduled games: registration, rounds of tables, standings.

A tournament lives in service tables, not in an event stream. Its own facts are few: who
registered, and which tables each round seated; everything that happens at a table is a game,
event-sourced like any other, and a table's result is read from its game. The steps move a
tournament on with guarded updates (``round = ?`` in the ``WHERE``), so two sweeps, or a
step run twice, never pair a round twice; the games of a round have ids derived from the
tournament, round and table, so a step that stopped half way is finished by the next one.

The steps are time-driven: the sweep (``services.deadlines.timers``) asks ``due`` for the tournaments
to look at, and a worker runs ``advance`` for each. ``advance`` starts a tournament at its
start time (round 1), records each table's result as its game ends, and pairs the next round
once every table of the current one has a result, or its deadline has passed: a table still
running then scores as a tie for all its seats (its game goes on, and is rated when it ends).
Standings and their tie-breaks: ``standings``. Pairings: ``services.competition.pairing``.
"""

from __future__ import annotations

import json
import uuid
from datetime import datetime, timedelta
from typing import Any

from domain.kernel import ConfigError, find_game
from services.accounts.inbox import Inbox
from services.accounts.player import Player
from services.accounts.players import Accounts
from services.common import clock
from services.common.date_rules import check_moment
from services.common.errors import GameNotFound, InvalidRequest, SeatUnavailable
from services.common.sqlstore import SqlStore
from services.competition import pairing
from services.competition.tournament_errors import (
    NotOrganiser,
    NotOwner,
    RegistrationClosed,
    TooFewPlayers,
    TournamentNotFound,
    past,
)
from services.competition.tournament_notices import DEFAULT_NOTICE, TournamentNotices
from services.competition.tournament_standings import standings, table_result, tournament_json, tournament_view
from services.play.games import GameService

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_tournaments (
        tournament_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        game TEXT NOT NULL,
        variant TEXT NOT NULL,
        options TEXT NOT NULL,
        seats INTEGER NOT NULL,
        format TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        capacity INTEGER NOT NULL,
        time_control TEXT NOT NULL,
        starts_at TEXT NOT NULL,
        round_seconds INTEGER NOT NULL,
        creator TEXT NOT NULL,
        status TEXT NOT NULL,
        round INTEGER NOT NULL DEFAULT 0,
        round_deadline TEXT,
        created_at TEXT NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS dh_tournaments_status ON dh_tournaments (status, starts_at)",
    """CREATE TABLE IF NOT EXISTS dh_tournament_players (
        tournament_id TEXT NOT NULL REFERENCES dh_tournaments (tournament_id),
        player_id TEXT NOT NULL,
        name TEXT NOT NULL,
        kind TEXT NOT NULL,
        bot TEXT,
        registered_at TEXT NOT NULL,
        PRIMARY KEY (tournament_id, player_id)
    )""",
    """CREATE TABLE IF NOT EXISTS dh_tournament_tables (
        tournament_id TEXT NOT NULL REFERENCES dh_tournaments (tournament_id),
        round INTEGER NOT NULL,
        table_no INTEGER NOT NULL,
        game_id TEXT,
        players TEXT NOT NULL,
        result TEXT,
        PRIMARY KEY (tournament_id, round, table_no)
    )""",
]
ROUND_GAP = timedelta(seconds=2)
"""From pairing a round to its games' scheduled start: time for every seat to be taken."""
FORMATS = ("swiss", "round_robin")


class Tournaments:
    """Creating and joining tournaments, and the steps that run them."""

    def __init__(self, db: SqlStore, games: GameService, accounts: Accounts, inbox: Inbox | None = None) -> None:
        self.db = db
        self.games = games
        self.accounts = accounts
        self.db.script(TABLES)
        self.notices = TournamentNotices(db, inbox)

    # ------------------------------------------------------------ commands

    def create(self, creator: Player, spec: dict[str, Any], tournament_id: uuid.UUID | None = None) -> dict[str, Any]:
        """A tournament open for registration until ``starts_at``. ``InvalidRequest`` for a game,
        variant or seat count the catalog refuses, or a start outside ``date_rules.MOMENT``."""
        try:
            ruleset = find_game(spec["game"])
            config = ruleset.configure(spec.get("variant"), spec.get("options"), spec["seats"])
        except ConfigError as e:
            raise InvalidRequest(e.message, field=e.field or "game") from None
        starts_at: datetime = spec["starts_at"]
        check_moment("starts_at", starts_at, clock.now())
        tid = str(tournament_id or uuid.uuid4())
        row = {
            "tournament_id": tid,
            "name": spec["name"],
            "game": ruleset.slug,
            "variant": config.variant,
            "options": json.dumps(ruleset.options_json(config)),
            "seats": spec["seats"],
            "format": spec["format"],
            "rounds": spec["rounds"],
            "capacity": spec["capacity"],
            "time_control": json.dumps(spec.get("time_control") or {"kind": "none"}),
            "starts_at": starts_at.isoformat(),
            "round_seconds": spec["round_seconds"],
            "creator": creator.id,
            "status": "registering",
            "created_at": clock.now().isoformat(),
        }
        marks = ", ".join("?" for _ in row)
        self.db.execute(f"INSERT INTO dh_tournaments ({', '.join(row)}) VALUES ({marks})", tuple(row.values()))
        self.notices.set_notice(tid, spec.get("notice_seconds") or DEFAULT_NOTICE)
        return self.get(tid)

    def register(
        self, tid: str, caller: Player, player_id: str | None = None, bot: str | None = None
    ) -> dict[str, Any]:
        """Registers the caller, or a bot account the caller owns (``player_id``); with ``bot``, the
        server plays that bot account's seats with one of the game's bots. Registering twice is no
        error. ``RegistrationClosed`` once the tournament has started or is full."""
        t = self._row(tid)
        entrant = caller if player_id in (None, caller.id) else self.accounts.get(str(player_id))
        if entrant.id != caller.id and getattr(self.accounts.owner_of(entrant.id), "id", None) != caller.id:
            raise NotOwner(f"only {entrant.id} or its owner may register it")
        if bot is not None and (entrant.kind != "bot" or bot not in find_game(t["game"]).bots):
            raise InvalidRequest(f"the server plays only bot accounts, with one of {t['game']}'s bots", field="bot")
        with self.db.tx() as tx:
            open_ = tx.query("SELECT status, capacity FROM dh_tournaments WHERE tournament_id = ?", (tid,))[0]
            count = tx.query("SELECT COUNT(*) AS n FROM dh_tournament_players WHERE tournament_id = ?", (tid,))
            if open_["status"] != "registering" or clock.now() >= datetime.fromisoformat(t["starts_at"]):
                raise RegistrationClosed(f"tournament {tid} {past(open_['status'])}: registration is closed")
            if count[0]["n"] >= open_["capacity"]:
                raise RegistrationClosed(f"tournament {tid} is full ({open_['capacity']} players)")
            tx.execute(
                "INSERT INTO dh_tournament_players (tournament_id, player_id, name, kind, bot, registered_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tid, entrant.id, entrant.name, entrant.kind, bot, clock.now().isoformat()),
            )
        return self.get(tid)

    def withdraw(self, tid: str, caller: Player, player_id: str | None = None) -> dict[str, Any]:
        """Takes the caller (or a bot account the caller owns) off the tournament before it starts;
        withdrawing someone not registered is no error. ``RegistrationClosed`` once it has started."""
        t = self._row(tid)
        entrant = player_id or caller.id
        if entrant != caller.id:
            self.accounts.get(entrant)  # PlayerNotFound (404) for no such player, before whose it is
        if entrant != caller.id and getattr(self.accounts.owner_of(entrant), "id", None) != caller.id:
            raise NotOwner(f"only {entrant} or its owner may withdraw it")
        with self.db.tx() as tx:
            status = tx.query("SELECT status FROM dh_tournaments WHERE tournament_id = ?", (tid,))[0]["status"]
            if status != "registering" or clock.now() >= datetime.fromisoformat(t["starts_at"]):
                raise RegistrationClosed(f"tournament {tid} {past(status)}: its players stay registered")
            tx.execute("DELETE FROM dh_tournament_players WHERE tournament_id = ? AND player_id = ?", (tid, entrant))
        return self.get(tid)

    def start_now(self, tid: str, caller: Player) -> dict[str, Any]:
        """The organiser starts the tournament before its time: registration closes and round 1 is
        paired now (its games start after the notice). ``TooFewPlayers`` below the game's fewest
        seats; ``RegistrationClosed`` once it has started."""
        t = self._organised(tid, caller)
        least = find_game(t["game"]).variant(t["variant"]).min_seats
        if len(self._players(tid)) < least:
            raise TooFewPlayers(f"{t['name']} needs at least {least} registered players to start")
        moved = self.db.execute(
            "UPDATE dh_tournaments SET starts_at = ? WHERE tournament_id = ? AND status = 'registering' AND round = 0",
            (clock.now().isoformat(), tid),
        )
        if not moved:
            raise RegistrationClosed(f"tournament {tid} has started already")
        self.advance(tid)
        return self.get(tid)

    def cancel(self, tid: str, caller: Player) -> dict[str, Any]:
        """The organiser cancels the tournament, before or during it: no round is paired any more
        (games already made play on, as ordinary rated games); every entrant is told."""
        t = self._organised(tid, caller)
        moved = self.db.execute(
            "UPDATE dh_tournaments SET status = 'cancelled' "
            "WHERE tournament_id = ? AND status IN ('registering', 'running')",
            (tid,),
        )
        if not moved:
            raise RegistrationClosed(f"tournament {tid} is {t['status']}: it cannot be cancelled")
        self.notices.cancelled(t, [p["player_id"] for p in self._players(tid)])
        return self.get(tid)

    def _organised(self, tid: str, caller: Player) -> dict[str, Any]:
        t = self._row(tid)
        if t["creator"] != caller.id:
            raise NotOrganiser("only the tournament's organiser may start it early or cancel it")
        return t

    # ------------------------------------------------------------ the steps

    def due(self, now: datetime) -> list[str]:
        """Tournaments a step may move on: those past their start, and those running."""
        rows = self.db.query(
            "SELECT tournament_id FROM dh_tournaments WHERE (status = 'registering' AND starts_at <= ?) "
            "OR status = 'running' ORDER BY starts_at",
            (now.isoformat(),),
        )
        return [r["tournament_id"] for r in rows]

    def advance(self, tid: str) -> str:
        """One step: start, record results, pair the next round, or finish. Returns the status."""
        t = self._row(tid)
        now = clock.now()
        if t["status"] == "registering" and now >= datetime.fromisoformat(t["starts_at"]):
            players = self._players(tid)
            least = find_game(t["game"]).variant(t["variant"]).min_seats
            if len(players) < least:
                self._set_status(tid, t["round"], "cancelled")
                return "cancelled"
            self._pair(t, 1, now)
        elif t["status"] == "running":
            planned = datetime.fromisoformat(t["round_deadline"]) - timedelta(seconds=t["round_seconds"])
            self._create_games(t, t["round"], planned)
            self._seat_all(t)
            if self._record_results(t, now):
                if t["round"] >= t["rounds"]:
                    self._set_status(tid, t["round"], "finished")
                else:
                    self._pair(t, t["round"] + 1, now)
        t = self._row(tid)
        self._seat_all(t)
        return str(t["status"])

    def _pair(self, t: dict[str, Any], round_no: int, now: datetime) -> None:
        tid = t["tournament_id"]
        least = find_game(t["game"]).variant(t["variant"]).min_seats
        order = [p["player_id"] for p in self._players(tid)]
        past = self._tables(tid)
        met = pairing.meetings([json.loads(r["players"]) for r in past if r["game_id"]])
        met.update(pairing.stablemates({p: getattr(self.accounts.owner_of(p), "id", None) for p in order}))
        byes = {json.loads(r["players"])[0] for r in past if r["game_id"] is None}
        if t["format"] == "round_robin":
            tables, bye = pairing.round_robin(order, round_no, met, t["seats"], least, byes)
        else:
            ranked = [s["player_id"] for s in standings(self._players(tid), past)]
            tables, bye = pairing.swiss(ranked, met, t["seats"], least, byes)
        starts = now + max(ROUND_GAP, timedelta(seconds=self.notices.notice(tid)))
        deadline = starts + timedelta(seconds=t["round_seconds"])
        with self.db.tx() as tx:
            moved = tx.execute(
                "UPDATE dh_tournaments SET status = 'running', round = ?, round_deadline = ? "
                "WHERE tournament_id = ? AND round = ?",
                (round_no, deadline.isoformat(), tid, round_no - 1),
            )
            if not moved:
                return  # another step paired it
            for n, table in enumerate(tables):
                gid = str(uuid.uuid5(uuid.UUID(tid), f"round-{round_no}-table-{n}"))
                tx.execute(
                    "INSERT INTO dh_tournament_tables (tournament_id, round, table_no, game_id, players) "
                    "VALUES (?, ?, ?, ?, ?)",
                    (tid, round_no, n, gid, json.dumps(table)),
                )
            for k, player in enumerate(bye):
                tx.execute(
                    "INSERT INTO dh_tournament_tables (tournament_id, round, table_no, game_id, players, result) "
                    "VALUES (?, ?, ?, NULL, ?, ?)",
                    (tid, round_no, len(tables) + k, json.dumps([player]), json.dumps({"bye": True, "places": [1]})),
                )
        self._create_games(t, round_no, starts)
        games = [str(uuid.uuid5(uuid.UUID(tid), f"round-{round_no}-table-{n}")) for n in range(len(tables))]
        self.notices.round_paired(t, round_no, tables, games, starts)

    def _create_games(self, t: dict[str, Any], round_no: int, starts: datetime) -> None:
        """Creates the round's games, scheduled at ``starts``, where they do not exist yet."""
        for row in self._tables(t["tournament_id"], round_no):
            if row["game_id"] is None or self.games.store.head_version(uuid.UUID(row["game_id"])) is not None:
                continue
            settings = {"rated": True, "fill": "bot", "fill_bot": None, "invite": [], "tournament": t["tournament_id"]}
            self.games.create_game(
                t["creator"], t["game"], t["variant"], json.loads(t["options"]), len(json.loads(row["players"])),
                time_control=json.loads(t["time_control"]), starts_at=max(starts, clock.now() + timedelta(seconds=1)),
                settings=settings, game_id=uuid.UUID(row["game_id"]),
            )  # fmt: skip

    def _seat_all(self, t: dict[str, Any]) -> None:
        """Seats each player of the current round at their table, where not yet seated."""
        if t["status"] != "running":
            return
        entrants = {p["player_id"]: p for p in self._players(t["tournament_id"])}
        for row in self._tables(t["tournament_id"], t["round"]):
            if row["game_id"] is None:
                continue
            try:
                game = self.games.load(row["game_id"])
            except GameNotFound:  # a step pairing the round at the same time has yet to create it
                continue
            if game.status != "scheduled":
                continue
            taken = {s["player_id"] for s in game.seats}
            for seat, pid in enumerate(json.loads(row["players"])):
                if pid not in taken:
                    p = entrants[pid]
                    try:
                        self.games.take_seat(row["game_id"], pid, p["name"], p["kind"], seat, bot=p["bot"])
                    except SeatUnavailable:  # a step running at the same time seated them
                        continue

    def _record_results(self, t: dict[str, Any], now: datetime) -> bool:
        """Records the result of each ended table of the current round (every table, past the
        round's deadline); True once every table has one."""
        late = t["round_deadline"] is not None and now >= datetime.fromisoformat(t["round_deadline"])
        done = True
        for row in self._tables(t["tournament_id"], t["round"]):
            if row["result"] is not None:
                continue
            result = table_result(self.games.load(row["game_id"]), len(json.loads(row["players"])), late)
            if result is None:
                done = False
                continue
            self.db.execute(
                "UPDATE dh_tournament_tables SET result = ? WHERE tournament_id = ? AND round = ? AND table_no = ? "
                "AND result IS NULL",
                (json.dumps(result), t["tournament_id"], t["round"], row["table_no"]),
            )
        return done

    def _set_status(self, tid: str, round_no: int, status: str) -> None:
        self.db.execute(
            "UPDATE dh_tournaments SET status = ? WHERE tournament_id = ? AND round = ?", (status, tid, round_no)
        )

    # ------------------------------------------------------------ reads

    def get(self, tid: str) -> dict[str, Any]:
        """The tournament, its players, its rounds' tables and its standings."""
        return tournament_view(self._row(tid), self._players(tid), self._tables(tid), self.notices.notice(tid))

    def listing(self, status: str | None, limit: int, offset: int) -> list[dict[str, Any]]:
        where, params = ("WHERE status = ?", [status]) if status else ("", [])
        rows = self.db.query(
            f"SELECT * FROM dh_tournaments {where} ORDER BY starts_at DESC, tournament_id LIMIT ? OFFSET ?",
            (*params, limit, offset),
        )
        return [tournament_json(r) for r in rows]

    def _row(self, tid: str) -> dict[str, Any]:
        row = self.db.one("SELECT * FROM dh_tournaments WHERE tournament_id = ?", (tid,))
        if row is None:
            raise TournamentNotFound(f"no tournament {tid}")
        return row

    def _players(self, tid: str) -> list[dict[str, Any]]:
        return self.db.query(
            "SELECT * FROM dh_tournament_players WHERE tournament_id = ? ORDER BY registered_at, player_id", (tid,)
        )

    def _tables(self, tid: str, round_no: int | None = None) -> list[dict[str, Any]]:
        if round_no is None:
            return self.db.query(
                "SELECT * FROM dh_tournament_tables WHERE tournament_id = ? ORDER BY round, table_no", (tid,)
            )
        return self.db.query(
            "SELECT * FROM dh_tournament_tables WHERE tournament_id = ? AND round = ? ORDER BY table_no",
            (tid, round_no),
        )
