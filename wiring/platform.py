"""Building a platform: settings in, a running ``Platform`` out.

It chooses the event store (memory, SQLite or PostgreSQL), the read models and
their projection runner (inside this process, or left to a ``dragonhall
projections`` process), and the background work (an in-process Celery worker,
Redis-backed Celery, or nothing for unit tests).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from contextlib import ExitStack
from dataclasses import InitVar, dataclass, field
from functools import partial
from typing import TypeVar

from celery import Celery
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from infra import sqlite_events
from infra.private_files import private_file
from infra.version_board import VersionBoard
from projections import set_aside
from projections.leader import ProjectionLeader
from projections.leader_locks import FileLeaderLock, LeaderLock, PostgresLeaderLock
from projections.read_models import builder
from projections.runner import BatchingProjectionRunner
from projections.views import READ_MODELS, VIEWS, GameViewsSQL, tracking_name
from services.accounts.account_feed import AccountFeed
from services.accounts.credentials import Credentials
from services.accounts.inbox import Inbox
from services.accounts.players import Accounts
from services.accounts.webhook_subscriptions import WebhookSubscriptions, webhook_url
from services.accounts.webhook_targets import WebhookTargets
from services.audits.disputes import Disputes
from services.common.config import Settings
from services.common.event_store import EventStore
from services.common.locks import Leases
from services.common.ports import Work
from services.common.sqlstore import SqlStore
from services.competition.tournaments import Tournaments
from services.deadlines.timed_cases import ClockSettler
from services.deadlines.timers import NEAR, Timers
from services.deadlines.vacations import Vacations
from services.operations.health import HealthModel, ProjectionProgress, Sweep, Workers
from services.operations.heartbeats import Heartbeats
from services.play.advice import Advisor
from services.play.games import GameService
from services.play.invitations import Invitations
from services.play.journal import Journal
from services.play.seating import Seating
from services.play.seeds import Seeds
from services.play.unit_of_work import GameUnitOfWork
from services.reads.profiles import Profiles
from services.reads.queries import GameQueries
from services.streams.grip import GripPublisher
from services.streams.lines import Streams
from services.streams.wakeups import Wakeups, tokens_key
from wiring import stream_engine
from wiring.games import register_games
from wiring.stores import creating_tables, eventsourcing_env, single_writer, sql_store, token_cache, views_class
from wiring.wakeups import save_announcer, wake_broadcast

log = logging.getLogger("dragonhall")
T = TypeVar("T")


@dataclass
class Platform:
    """Everything a process needs: the write side, the read side and the background work."""

    settings: Settings
    store: EventStore
    uow: GameUnitOfWork
    seeds: Seeds
    accounts: Accounts
    views: GameViewsSQL
    db: SqlStore
    wakeups: Wakeups
    feed: AccountFeed
    vacations: Vacations
    games: GameService = field(init=False)
    queries: GameQueries = field(init=False)
    inbox: Inbox = field(init=False)
    invitations: Invitations = field(init=False)
    seating: Seating = field(init=False)
    credentials: Credentials = field(init=False)
    webhooks: WebhookSubscriptions = field(init=False)
    timers: Timers = field(init=False)
    leases: Leases = field(init=False)
    journal: Journal = field(init=False)
    disputes: Disputes = field(init=False)
    streams: Streams = field(init=False)
    advice: Advisor = field(init=False)
    profiles: Profiles = field(init=False)
    tournaments: Tournaments = field(init=False)
    heartbeats: Heartbeats = field(init=False)
    health: HealthModel = field(init=False)
    runner: BatchingProjectionRunner | None = None
    """The projection runner of this process, when it alone runs the projections."""
    leader: ProjectionLeader[BatchingProjectionRunner] | None = None
    """The projections' leader of this process, when another process may run them."""
    closers: list[Callable[[], object]] = field(default_factory=list)
    """What ``close`` closes, the last first: the stores and runners it was built with, then what
    it builds itself."""
    work: InitVar[Work | None] = None
    """The background work that plans from each save; None: Celery (``workers.dispatch``)."""
    worker: InitVar[bool | None] = None
    """Whether this process runs the jobs itself, with Celery (default: as the settings say)."""
    celery: Celery | None = field(init=False, default=None)
    """The Celery app the background work is sent through; None when the process was given
    other work (the tests' ``NullWork``)."""
    grip_publisher: GripPublisher | None = field(init=False, default=None)
    """What publishes each saved event to Pushpin, when the streams are served through it."""

    def __post_init__(self, work: Work | None, worker: bool | None) -> None:
        self.inbox = Inbox(self.db, self.feed)
        self.journal = Journal(self.db)
        self.uow.before_save.append(ClockSettler(self.vacations.days))
        self.invitations = Invitations(self.db, self.accounts, self.inbox, self.feed, self.views)
        self.games = GameService(self.uow, self.seeds, self.journal, self.invitations, self.accounts.confirm)
        self.seating = Seating(self.games, self.invitations, self.views)
        self.credentials = Credentials(self.db, self.accounts)
        near = NEAR  # a worker renews the broker's lease on the ETA tasks it holds (``workers.leases``)
        self.webhooks = WebhookSubscriptions(self.db, self.feed, self.inbox, webhook_url(self.accounts))
        self.tournaments = Tournaments(self.db, self.games, self.accounts, self.inbox)
        self.timers = Timers(
            self.games, self.vacations, self.inbox, self.accounts, self.views, near, self.webhooks, self.tournaments
        )
        self.leases = Leases(self.db)
        self.disputes = Disputes(self.games, self.db, self.settings.arbiters, self.feed)
        self.queries = GameQueries(self.games, self.views, self.timers, self.journal)
        self.streams = Streams(self.games, self.queries, self.timers, self.feed, self.wakeups, self.invitations)
        self.advice = Advisor(self.games, self.settings.bot_budget)
        self.profiles = Profiles(self.accounts, self.views)
        self.heartbeats = Heartbeats(self.db)
        self.health = HealthModel()
        self.health.add("projections", ProjectionProgress(self.head, self.tracked))
        self.health.add("workers", Workers(self.settings, self.heartbeats))
        self.health.add("sweep", Sweep(self.settings, self.heartbeats))
        self.health.add(set_aside.CHECK, set_aside.SetAsideCheck(self.views))
        self.closers.append(self.advice.close)
        if self.settings.stream_engine == "pushpin":
            self.grip_publisher = stream_engine.attach_publisher(
                self.settings, self.streams, self.uow, self.feed, self.accounts, self.closers
            )
        self.celery = self._attach_work(work, worker)

    def _attach_work(self, work: Work | None, worker: bool | None) -> Celery | None:
        """Has the background work plan from every save: ``work`` if given, else Celery, whose
        app is returned."""
        if work is not None:
            self.uow.after_save.append(work.game_changed)
            return None
        from workers.dispatch import attach_celery  # the composition root may reach every layer

        return attach_celery(self, start_worker=worker)

    def head(self) -> int:
        """The position of the last event saved."""
        return self.store.recorder.max_notification_id() or 0

    def tracked(self) -> int:
        """The position of the last event every read model has processed (each has its own). One
        with none yet, while no runner of this version has started, holds the game list's, which
        it shared before (``projections.board_projection``, ``projections.rating_projection``,
        ``projections.deadline_projection``)."""
        shared = self.views.max_tracking_id(tracking_name("games", self.store.name))
        positions = [self.views.max_tracking_id(tracking_name(m, self.store.name)) for m in READ_MODELS]
        return min((shared if p is None else p) or 0 for p in positions)

    def on_close(self, *closers: Callable[[], object]) -> None:
        """Has ``close`` call each of ``closers``: the last added first."""
        self.closers.extend(closers)

    def sweep_lock(self) -> bool:
        """Whether this process may sweep now (one sweep per interval across all processes)."""
        return self.leases.take("sweep", 0.8 * self.settings.sweep_interval)

    def close(self) -> None:
        """Lets the read models catch up and write out their boards, then stops everything."""
        runner = self._local_runner()
        if runner is not None:
            try:
                self.wait_for_projections(timeout=5.0)
                runner.flush()
            except Exception:
                log.exception("the read models could not catch up before closing")
        for close in reversed(self.closers):
            try:
                close()
            except Exception:
                log.exception("error while closing")
        self.closers.clear()

    def _local_runner(self) -> BatchingProjectionRunner | None:
        leader = self.leader
        return self.runner or (leader.runner if leader is not None else None)

    def wait_for_projections(self, timeout: float = 10.0) -> None:
        """Blocks until the read models have caught up with every event saved so far."""
        runner = self._local_runner()
        if runner is None:
            return
        head = self.store.recorder.max_notification_id()
        if head:
            runner.wait(head, timeout=timeout)


def bootstrap(
    settings: Settings | None = None,
    *,
    projections: bool | None = None,
    work: Work | None = None,
    worker: bool | None = None,
) -> Platform:
    """Builds a platform. ``projections`` runs the runner in-process (default: as settings say);
    ``work`` overrides the background work; ``worker`` starts the embedded Celery worker.

    If a step fails, what the earlier steps started is closed again before the error
    propagates: a projection runner left running would keep the process from exiting."""
    settings = settings or Settings.from_env()
    register_games()
    with ExitStack() as undo:  # unwound after the tables' lock is released: a leader may be waiting for it
        with creating_tables(settings):
            platform = _build(settings, projections, undo, work, worker)
        undo.pop_all()
    if platform.leader is not None:
        platform.leader.wait_first_try()  # it starts the runner once the tables' lock above is free
    return platform


def _build(
    settings: Settings, projections: bool | None, undo: ExitStack, work: Work | None, worker: bool | None
) -> Platform:
    db = sql_store(settings)  # first: it creates the PostgreSQL schema the event store uses
    undo.callback(db.close)
    wakeups = Wakeups(partial(wake_broadcast, settings))
    undo.callback(wakeups.close)
    vacations = Vacations(db, settings.vacation_days)
    feed = AccountFeed(db, wakeups, vacations.days)
    env = eventsourcing_env(settings)
    runner_env = eventsourcing_env(settings, session=True)
    run_projections = settings.embedded_projections if projections is None else projections
    if settings.store == "memory":
        run_projections = True  # the in-memory store lives in the runner's application
    vclass = views_class(settings)
    closers: list[Callable[[], object]] = []
    runner: BatchingProjectionRunner | None = None
    leader: ProjectionLeader[BatchingProjectionRunner] | None = None
    led = run_projections and settings.store != "memory"
    if run_projections and not led:
        runner = start_runner(runner_env, vclass, feed)
        undo.callback(runner.__exit__, None, None, None)
        store = runner.app
        view = runner.view
    else:
        store = EventStore(env)
        undo.callback(store.close)
        factory = InfrastructureFactory[GameViewsSQL].construct(Environment(VIEWS, env))
        undo.callback(factory.close)  # its checkpointer's thread (``sqlite_events.WalCheckpointer``) too
        closers.append(factory.close)
        view = factory.tracking_recorder(vclass)
        if led:
            leader = ProjectionLeader(
                leader_lock(settings), _locked(settings, lambda: start_runner(runner_env, vclass, feed))
            )
            undo.callback(leader.stop)
    store.configure(snapshot_interval=settings.snapshot_interval)
    alone = single_writer(settings, run_projections)
    versions = VersionBoard(settings.data_dir / "versions.board") if settings.store == "sqlite" and not alone else None
    if versions is not None:
        undo.callback(versions.close)
    uow = GameUnitOfWork(store, cache_size=settings.cache_size, single_writer=alone, versions=versions)
    uow.on_saved.append(save_announcer(store.recorder, wakeups))
    if settings.store == "sqlite":
        store.listeners.append(sqlite_events.wake)
    accounts = Accounts(db, settings.secret_key, WebhookTargets(settings.webhook_allow_networks), token_cache(settings))
    accounts.on_revoked.append(lambda player_id: wakeups.publish(tokens_key(player_id)))
    seeds = Seeds(settings.secret_key, keep=4 * settings.cache_size)
    if runner is None:
        closers.append(store.close)  # closed last (closers run in reverse); a runner closes its own
    if runner is not None:
        closers.append(lambda: runner.__exit__(None, None, None))
    if leader is not None:
        closers.append(leader.stop)
    closers += [db.close, wakeups.close] + ([versions.close] if versions is not None else [])
    return Platform(
        settings, store, uow, seeds, accounts, view, db, wakeups, feed, vacations, runner, leader, closers, work, worker
    )


def leader_lock(settings: Settings) -> LeaderLock:
    """The lock that elects the projections' leader: in the database for PostgreSQL, whose
    processes may run on several machines; in the data directory for SQLite."""
    if settings.store == "postgres":
        return PostgresLeaderLock(settings.session_url, settings.postgres_schema)
    return FileLeaderLock(private_file(settings.data_dir / "projections.lock"))


def _locked(settings: Settings, start: Callable[[], T]) -> Callable[[], T]:
    """``start``, run under the table-creation lock: a runner started later, when this
    process takes the projections' lead, may create its tables too."""

    def run() -> T:
        with creating_tables(settings):
            return start()

    return run


def start_runner(
    env: dict[str, str], vclass: type[GameViewsSQL], feed: AccountFeed, only: Sequence[str] = READ_MODELS
) -> BatchingProjectionRunner:
    """A running projection runner of the read models ``only`` (all of them by default), each
    projection built with what it needs (``projections.read_models``)."""
    runner = BatchingProjectionRunner(build=builder(feed, only), view_class=vclass, env=env)
    return runner.__enter__()
