"""Building a platform: settings in, a running ``Platform`` out.

It chooses the event store (memory, SQLite or PostgreSQL), the read models and
their projection runner (inside this process, or left to a ``dragonhall
projections`` process), and the background work (an in-process Celery worker,
Redis-backed Celery, or nothing for unit tests).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import TypeVar

from celery import Celery
from eventsourcing.persistence import InfrastructureFactory
from eventsourcing.utils import Environment

from infra import postgres_events, sqlite_events
from infra.private_files import private_dir, private_file
from infra.version_board import VersionBoard
from projections import set_aside
from projections.games import GameProjection
from projections.leader import ProjectionLeader
from projections.leader_locks import FileLeaderLock, LeaderLock, PostgresLeaderLock
from projections.runner import BatchingProjectionRunner
from projections.views import GameViewsSQL, PostgresGameViews, SQLiteGameViews
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
from services.common.sqlstore import PostgresStore, SQLiteStore, SqlStore, file_lock, postgres_ddl_lock
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
from services.streams.wakeups import Wakeups, game_key, tokens_key
from wiring import stream_engine
from wiring.games import register_games
from wiring.wakeups import wake_broadcast

log = logging.getLogger("dragonhall")
T = TypeVar("T")


POOL_MIN, POOL_MAX = 2, 10
"""Connections of each eventsourcing pool (a process has several: the events, the read models, and in
the projection process the runner's own), opened at start and at most. The pool grows under load and
shrinks after ten idle minutes. Opening 8 of each at start took 80 of PostgreSQL's default 100
connections for two HTTP processes, a projection process and one worker, before any load."""


def eventsourcing_env(settings: Settings, session: bool = False) -> dict[str, str]:
    """The ``eventsourcing`` environment of the application and of its read models; with ``session``,
    on direct connections (a projection runner's, which listens for saves)."""
    env = _store_env(settings.direct() if session else settings)
    if not settings.create_tables:
        env["CREATE_TABLE"] = "n"
    return env


def _store_env(settings: Settings) -> dict[str, str]:
    app, views = "DRAGONHALL_", "DRAGONHALL_VIEWS_"
    if settings.store == "memory":
        return {
            app + "PERSISTENCE_MODULE": "eventsourcing.popo",
            views + "PERSISTENCE_MODULE": "eventsourcing.sqlite",
            views + "SQLITE_DBNAME": f"file:dhviews-{uuid.uuid4().hex}?mode=memory&cache=shared",
        }
    if settings.store == "sqlite":
        private_dir(settings.data_dir)
        return {
            app + "PERSISTENCE_MODULE": sqlite_events.FACTORY_TOPIC,
            app + "SQLITE_DBNAME": str(settings.data_dir / "events.db"),
            app + "SQLITE_LOCK_TIMEOUT": "30",
            app + "SQLITE_CHECKPOINT_INTERVAL": "1",  # off the request path (sqlite_events.WalCheckpointer)
            views + "PERSISTENCE_MODULE": sqlite_events.FACTORY_TOPIC,
            views + "SQLITE_DBNAME": str(settings.data_dir / "views.db"),
            views + "SQLITE_LOCK_TIMEOUT": "30",
        }
    pg = settings.postgres
    env = {
        "PERSISTENCE_MODULE": postgres_events.FACTORY_TOPIC,
        "POSTGRES_DBNAME": pg.dbname,
        "POSTGRES_HOST": pg.host,
        "POSTGRES_PORT": pg.port,
        "POSTGRES_USER": pg.user,
        "POSTGRES_PASSWORD": pg.password,
        "POSTGRES_POOL_SIZE": str(POOL_MIN),
        "POSTGRES_MAX_OVERFLOW": str(POOL_MAX - POOL_MIN),
    }
    if settings.postgres_schema:
        env["POSTGRES_SCHEMA"] = settings.postgres_schema
    if settings.pooled:
        env[postgres_events.POOLED] = "y"  # no prepared statement outlives its transaction's server connection
    return env


def sql_store(settings: Settings) -> SqlStore:
    """The database of accounts and other service tables."""
    store: SqlStore
    if settings.store == "memory":
        store = SQLiteStore(":memory:")
    elif settings.store == "sqlite":
        store = SQLiteStore(settings.data_dir / "service.db", create_tables=settings.create_tables)
    else:
        store = PostgresStore(
            settings.database_url or "",
            schema=settings.postgres_schema,
            create_tables=settings.create_tables,
            pooled=settings.pooled,
        )
    return store


def views_class(settings: Settings) -> type[GameViewsSQL]:
    return PostgresGameViews if settings.store == "postgres" else SQLiteGameViews


def single_writer(settings: Settings, run_projections: bool) -> bool:
    """Whether this process is the only writer of its store: the embedded default,
    where the server runs the workers and the read models itself."""
    return settings.store != "postgres" and settings.embedded and run_projections and settings.http_workers == 1


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
    celery: Celery | None = None
    """The Celery app the background work is sent through (``workers.dispatch``); None when the
    process was given other work (the tests' ``NullWork``)."""
    grip_publisher: GripPublisher | None = field(init=False, default=None)
    """What publishes each saved event to Pushpin, when the streams are served through it."""
    _closers: list[Callable[[], object]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.inbox = Inbox(self.db, self.feed)
        self.journal = Journal(self.db)
        self.uow.before_save.append(ClockSettler(self.vacations.days))
        self.invitations = Invitations(self.db, self.accounts, self.inbox, self.feed, self.views)
        self.games = GameService(self.uow, self.seeds, self.journal, self.invitations)
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
        self._closers.append(self.advice.close)
        if self.settings.stream_engine == "pushpin":
            self.grip_publisher = stream_engine.attach_publisher(self, self._closers)

    def head(self) -> int:
        """The position of the last event saved."""
        return self.store.recorder.max_notification_id() or 0

    def tracked(self) -> int:
        """The position of the last event the read models have processed."""
        return self.views.max_tracking_id(self.store.name) or 0

    def on_close(self, *closers: Callable[[], object]) -> None:
        """Has ``close`` call each of ``closers``: the last added first."""
        self._closers.extend(closers)

    def sweep_lock(self) -> bool:
        """Whether this process may sweep now (one sweep per interval across all processes)."""
        return self.leases.take("sweep", 0.8 * self.settings.sweep_interval)

    def close(self) -> None:
        """Lets the read models catch up and write out their boards, then stops everything."""
        runner = self._local_runner()
        if runner is not None:
            try:
                self.wait_for_projections(timeout=5.0)
                runner.projection.flush()
            except Exception:
                log.exception("the read models could not catch up before closing")
        for close in reversed(self._closers):
            try:
                close()
            except Exception:
                log.exception("error while closing")
        self._closers.clear()

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
            platform = _build(settings, projections, undo)
            _attach_work(platform, work, worker)
        undo.pop_all()
    if platform.leader is not None:
        platform.leader.wait_first_try()  # it starts the runner once the tables' lock above is free
    return platform


def creating_tables(settings: Settings) -> AbstractContextManager[None]:
    """Serialises table creation between the processes of one store, which may start at once:
    a lock file in the data directory for SQLite (``sqlstore.file_lock``), an advisory lock
    per schema for PostgreSQL (``sqlstore.postgres_ddl_lock``)."""
    if settings.store == "memory" or not settings.create_tables:
        return nullcontext()
    if settings.store == "sqlite":
        return file_lock(settings.data_dir / "tables.lock")
    return postgres_ddl_lock(settings.session_url, settings.postgres_schema)


def _build(settings: Settings, projections: bool | None, undo: ExitStack) -> Platform:
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
        factory = InfrastructureFactory[GameViewsSQL].construct(Environment(GameProjection.name, env))
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
    uow.on_saved.append(lambda game_id: wakeups.publish(game_key(game_id)))
    if settings.store == "sqlite":
        store.listeners.append(sqlite_events.wake)
    accounts = Accounts(db, settings.secret_key, WebhookTargets(settings.webhook_allow_networks))
    accounts.on_revoked.append(lambda player_id: wakeups.publish(tokens_key(player_id)))
    seeds = Seeds(settings.secret_key, keep=4 * settings.cache_size)
    platform = Platform(
        settings, store, uow, seeds, accounts, view, db, wakeups, feed, vacations, runner=runner, leader=leader
    )
    platform._closers.extend(closers)
    if runner is None:
        platform._closers.append(store.close)  # closed last (closers run in reverse); a runner closes its own
    if runner is not None:
        platform._closers.append(lambda: runner.__exit__(None, None, None))
    if leader is not None:
        platform._closers.append(leader.stop)
    platform._closers.append(db.close)
    platform._closers.append(wakeups.close)
    if uow.versions is not None:
        platform._closers.append(uow.versions.close)
    return platform


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


def start_runner(env: dict[str, str], vclass: type[GameViewsSQL], feed: AccountFeed) -> BatchingProjectionRunner:
    fed = type("FedGameProjection", (GameProjection,), {"feed": feed, "name": GameProjection.name})
    runner = BatchingProjectionRunner(application_class=EventStore, projection_class=fed, view_class=vclass, env=env)
    runner.__enter__()
    runner.projection.app = runner.app
    return runner


def _attach_work(platform: Platform, work: Work | None, worker: bool | None) -> None:
    if work is not None:
        platform.uow.after_save.append(work.game_changed)
        return
    from workers.dispatch import attach_celery  # the composition root may reach every layer

    platform.celery = attach_celery(platform, start_worker=worker)
