"""Deadlines, reminders, scheduled starts and the sweep: the time-driven use cases.

Workers call these; each is idempotent. A deadline task carries the game
version it was scheduled for and writes nothing if the game has moved on. After
every save, ``plan`` says which timed tasks to send now: only deadlines within
``NEAR`` get an ETA task (a worker holds an ETA task until it is due: deadlines
days away wait in the index rather than in the workers' memory); the periodic
``sweep`` reads the index (a projection) and catches what is near, overdue or lost.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

from infra import metrics
from services.common import clock
from services.common.errors import GameNotFound
from services.deadlines import clocks
from services.play.aggregate import Game
from services.play.table_seats import awaits

if TYPE_CHECKING:
    from services.accounts.inbox import Inbox
    from services.accounts.players import Accounts
    from services.accounts.webhook_subscriptions import WebhookSubscriptions
    from services.common.ports import GameRows
    from services.competition.tournaments import Tournaments
    from services.deadlines.vacations import Vacations
    from services.play.games import GameService

log = logging.getLogger("dragonhall.timers")

NEAR = timedelta(minutes=10)
"""Deadlines closer than this get an ETA task; the sweep schedules the others when they come near."""
GRACE = timedelta(seconds=2)
"""A deadline this far past with the seat still awaited means its task was lost: the sweep fires it."""
BOT_STALL = timedelta(seconds=30)
"""An awaited server bot that has not moved for this long is nudged again by the sweep."""
BOT_NUDGE = timedelta(seconds=2.5)
"""Where bot tasks are claimed (``workers.bot_claims``), a bot turn awaited this long gets a task
again unless a live task claims it (``nudge_bots``, every second)."""
LOST_DELIVERY = timedelta(minutes=10)
"""A webhook delivery still pending this long after its last try lost its task: longer than the
longest wait between two tries of its own task (``workers.jobs.webhook``, 300 s)."""


@dataclass(frozen=True)
class PlayBot:
    game_id: str
    seat: int
    version: int


@dataclass(frozen=True)
class FireDeadline:
    game_id: str
    seat: int
    version: int
    eta: datetime


@dataclass(frozen=True)
class Remind:
    game_id: str
    seat: int
    since: str
    eta: datetime


@dataclass(frozen=True)
class StartGame:
    game_id: str
    eta: datetime


@dataclass(frozen=True)
class PostWebhook:
    delivery_id: str


@dataclass(frozen=True)
class AdvanceTournament:
    tournament_id: str


Action = PlayBot | FireDeadline | Remind | StartGame | PostWebhook | AdvanceTournament


@dataclass(frozen=True)
class Window:
    """What a sweep schedules: instants in ``(low, high]``, or at or before ``overdue``."""

    low: datetime
    high: datetime
    overdue: datetime

    def wants(self, at: datetime) -> bool:
        return self.low < at <= self.high or at <= self.overdue


class Timers:
    """Time-driven use cases over the games, the players' vacations and inboxes."""

    def __init__(
        self,
        games: GameService,
        vacations: Vacations,
        inbox: Inbox,
        accounts: Accounts,
        views: GameRows,
        near: timedelta = NEAR,
        webhooks: WebhookSubscriptions | None = None,
        tournaments: Tournaments | None = None,
    ) -> None:
        self.near = near
        self.webhooks = webhooks
        """Claims the deliveries of new feed entries (``services.accounts.webhook_subscriptions``);
        None: no webhooks."""
        self._last_sweep: datetime | None = None
        self.tournaments = tournaments
        """Whose ``due`` tournaments each sweep moves on (``services.competition.tournaments``); None: none."""
        self.games = games
        self.vacations = vacations
        self.inbox = inbox
        self.accounts = accounts
        self.views = views

    # ------------------------------------------------------------ clocks

    def _vacation(self, game: Game, seat: int) -> frozenset[Any]:
        days: frozenset[Any] = self.vacations.days(game.holder(seat))
        return days

    def deadline(self, game: Game, seat: int) -> datetime | None:
        """When ``seat``'s running turn times out, vacation days not counted."""
        if str(seat) not in game.turns or not clocks.is_timed(game.time_control):
            return None  # before asking the store for vacation days: most moves have no clock
        return self._deadline(game.time_control, game.turns, game.banks, seat, self._vacation(game, seat))

    @staticmethod
    def _deadline(
        tc: dict[str, Any], turns: dict[str, str], banks: dict[str, float], seat: int, vacation: frozenset[Any]
    ) -> datetime | None:
        return clocks.deadline(tc, turns.get(str(seat)), banks.get(str(seat)), vacation)

    def reminder_time(self, game: Game, seat: int) -> datetime | None:
        since, bank = game.turns.get(str(seat)), game.banks.get(str(seat))
        if since is None:
            return None
        return clocks.reminder(game.time_control, since, bank, self._vacation(game, seat))

    def clock_view(
        self,
        tc: dict[str, Any],
        status: str,
        seats: list[dict[str, Any]],
        turns: dict[str, str],
        banks: dict[str, float],
    ) -> dict[str, Any] | None:
        """Each seat's clock for the game document: deadline, time left, bank, vacation."""
        if not clocks.is_timed(tc) or status != "active":
            return None
        now = clock.now()
        out: dict[str, Any] = {}
        for info in seats:
            seat = info["seat"]
            vacation = self.vacations.days(info["player_id"])
            deadline = self._deadline(tc, turns, banks, seat, vacation)
            out[str(seat)] = {
                "running": deadline is not None,
                "since": turns.get(str(seat)),
                "deadline": deadline.isoformat() if deadline else None,
                "remaining": None
                if deadline is None
                else round(clocks.elapsed(now, deadline, vacation) if deadline > now else 0.0, 3),
                "bank": banks.get(str(seat)),
                "on_vacation": now.date() in vacation,
            }
        return out

    def inbox_of(self, player_id: str) -> dict[str, Any]:
        """The caller's games awaiting a decision (soonest deadline first), reminders and invitations.
        A dispute's sandbox is no turn to play: it is reached from its dispute."""
        waiting = []
        for row in self.views.games_of_player(player_id, "active"):
            if row.get("sandbox"):
                continue
            held = row.get("clock") or {}
            clock_view = (
                self.clock_view(
                    row["time_control"], row["status"], row["seats"], held.get("turns", {}), held.get("banks", {})
                )
                or {}
            )
            for info in row["seats"]:
                seat = info["seat"]
                if info["player_id"] != player_id or seat not in row["awaiting"]:
                    continue
                c = clock_view.get(str(seat), {})
                waiting.append(
                    {
                        "game_id": row["game_id"],
                        "game": row["game"],
                        "variant": row["variant"],
                        "seat": seat,
                        "version": row["version"],
                        "deadline": c.get("deadline"),
                        "remaining": c.get("remaining"),
                    }
                )
        waiting.sort(key=lambda w: (w["deadline"] is None, w["deadline"] or "", w["game_id"]))
        return {
            "awaiting": waiting,
            "reminders": self.inbox.items(player_id, "reminder"),
            "invitations": self.inbox.items(player_id, "invitation"),
        }

    # ------------------------------------------------------------ planning

    def plan(self, game: Game) -> list[Action]:
        """The tasks to send after ``game`` was saved: bot turns, near deadlines and reminders."""
        now = clock.now()
        gid = str(game.id)
        actions: list[Action] = []
        if game.status == "scheduled" and game.starts_at:
            at = clocks.parse(game.starts_at)
            if at - now <= self.near:
                actions.append(StartGame(gid, max(at, now)))
            return actions
        if game.status != "active":
            return actions
        for seat in game.awaiting:
            if seat in game.left:
                continue
            if game.seat_info(seat).get("bot"):
                actions.append(PlayBot(gid, seat, game.version))
            actions.extend(self._timed(game, seat, now))
        return actions

    def _timed(self, game: Game, seat: int, now: datetime, window: Window | None = None) -> list[Action]:
        """The deadline and reminder tasks of ``seat``'s running turn: after a save, those
        within ``near``; in a sweep, those that came near since the last sweep or are overdue."""
        out: list[Action] = []
        deadline = self.deadline(game, seat)
        if deadline is None:
            return out
        due = window.wants if window is not None else (lambda at: at - now <= self.near)
        if due(deadline):
            out.append(FireDeadline(str(game.id), seat, game.version, max(deadline, now)))
        remind = self.reminder_time(game, seat)
        since = game.turns[str(seat)]
        if remind is not None and due(remind) and not self.inbox.has(_reminder_key(game, seat, since)):
            out.append(Remind(str(game.id), seat, since, max(remind, now)))
        return out

    # ------------------------------------------------------------ deadlines

    def fire_deadline(self, game_id: str, seat: int, version: int, bot: Any) -> tuple[str, datetime | None]:
        """Times out ``seat`` if the game is still at ``version``, awaits the seat and its
        deadline has passed. Returns ``("fired"|"stale"|"early", deadline)``."""
        try:
            game = self.games.load(game_id)
        except GameNotFound:
            return "stale", None
        if not awaits(game, seat, version):
            return "stale", None
        deadline = self.deadline(game, seat)
        if deadline is None:
            return "stale", None
        if clock.now() < deadline:
            return "early", deadline
        done = self.games.time_out(game_id, seat, version, deadline, bot)
        return ("fired" if done else "stale"), deadline

    # ------------------------------------------------------------ reminders

    def remind(self, game_id: str, seat: int, since: str) -> list[Action]:
        """Records the reminder of a running turn once (in the inbox and the account feed),
        and claims its webhook delivery once if the player's webhook subscribes to reminders."""
        try:
            game = self.games.load(game_id)
        except GameNotFound:
            return []
        if game.status != "active" or game.turns.get(str(seat)) != since:
            return []
        at = self.reminder_time(game, seat)
        if at is None or clock.now() < at:
            return [Remind(game_id, seat, since, at)] if at is not None else []
        player_id = game.holder(seat)
        deadline = self.deadline(game, seat)
        payload = {
            "type": "reminder",
            "game_id": game_id,
            "game": game.game,
            "seat": seat,
            "version": game.version,
            "deadline": deadline.isoformat() if deadline else None,
            "message": f"your turn in game {game_id} times out at {deadline.isoformat() if deadline else '?'}",
        }
        if self.inbox.add(player_id, "reminder", _reminder_key(game, seat, since), game_id, payload) is None:
            return []
        metrics.REMINDERS.inc()
        return self._webhooks_due([player_id])

    def _webhooks_due(self, player_ids: list[str] | None = None) -> list[Action]:
        """The POSTs of new feed entries that webhooks subscribe to (a reminder is one such
        entry: it is delivered by the same path as every other, once)."""
        if self.webhooks is None:
            return []
        return [PostWebhook(d) for d in self.webhooks.due(player_ids)]

    # ------------------------------------------------------------ scheduled games

    def start_scheduled(self, game_id: str) -> bool:
        """Starts a scheduled game at its time: empty seats get bots, or the game is cancelled."""
        return bool(self.games.start_scheduled(game_id, clock.now()))

    # ------------------------------------------------------------ the sweep

    def sweep(self, tasks_lost: bool = False) -> list[Action]:
        """What the read models say is due: deadlines, reminders and starts that came within
        ``near`` since the last sweep (each gets its task once), and those overdue by more
        than ``GRACE`` (their task was lost with a broker or a worker); bot turns awaited
        longer than ``BOT_STALL``; the tournaments to move on (started, or running: a step
        records ended tables and pairs the next round); the webhook deliveries of feed entries no process has claimed
        yet (appended where no worker runs, say), and those pending longer than ``LOST_DELIVERY``.

        ``tasks_lost`` says the broker lost its queues (a Redis restarted without persistence,
        ``workers.broker_memory``): then every task they could have held is sent again at once,
        every near deadline and every awaited bot turn, rather than once it is overdue or stalled.
        A task sent twice writes nothing the second time."""
        now = clock.now()
        if tasks_lost:
            self._last_sweep = None
        overdue = now - GRACE
        low = self._last_sweep + self.near if self._last_sweep else overdue  # the first sweep takes all
        window = Window(low=low, high=now + self.near, overdue=overdue)
        self._last_sweep = now
        actions: list[Action] = []
        for row in self.views.due_games(clocks_key(window.high), clocks_key(window.low), clocks_key(window.overdue)):
            try:
                game = self.games.load(row["game_id"])
            except GameNotFound:
                continue
            if game.status == "scheduled" and game.starts_at and window.wants(clocks.parse(game.starts_at)):
                actions.append(StartGame(str(game.id), max(clocks.parse(game.starts_at), now)))
                continue
            if game.status != "active":
                continue
            for seat in game.awaiting:
                if seat not in game.left:
                    actions.extend(self._timed(game, seat, now, window))
        actions.extend(self.stalled_bots(None if tasks_lost else now - BOT_STALL))
        actions.extend(self._webhooks_due())
        actions.extend(PostWebhook(d) for d in self.inbox.lost_deliveries(now - LOST_DELIVERY))
        if self.tournaments is not None:
            actions.extend(AdvanceTournament(t) for t in self.tournaments.due(now))
        return actions

    def stalled_bots(self, before: datetime | None) -> list[Action]:
        """The bot tasks of running games whose awaited server bot has not moved since ``before``
        (with None, of every such game)."""
        actions: list[Action] = []
        for row in self.views.stalled_bot_games(None if before is None else clocks_key(before)):
            try:
                game = self.games.load(row["game_id"])
            except GameNotFound:
                continue
            actions.extend(a for a in self.plan(game) if isinstance(a, PlayBot))
        return actions


def _reminder_key(game: Game, seat: int, since: str) -> str:
    return f"reminder:{game.id}:{seat}:{since}"


def clocks_key(when: datetime) -> str:
    """A sortable text form of an instant, for the deadline index."""
    return when.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%f")
