"""Choosing the stores: the eventsourcing environment of the events and the read models, the
SQL database of the service tables, the lock under which one process creates the tables, and what
the processes share to keep tokens' answers."""

from __future__ import annotations

import uuid
from contextlib import AbstractContextManager, nullcontext

from infra import postgres_events, sqlite_events
from infra.private_files import private_dir
from infra.shared_generation import LocalGeneration, SharedGeneration
from projections.views import GameViewsSQL, PostgresGameViews, SQLiteGameViews
from services.accounts.player import Player
from services.accounts.token_cache import TokenCache
from services.common.config import Settings
from services.common.sqlstore import PostgresStore, SQLiteStore, SqlStore, file_lock, postgres_ddl_lock

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


def creating_tables(settings: Settings) -> AbstractContextManager[None]:
    """Serialises table creation between the processes of one store, which may start at once:
    a lock file in the data directory for SQLite (``sqlstore.file_lock``), an advisory lock
    per schema for PostgreSQL (``sqlstore.postgres_ddl_lock``)."""
    if settings.store == "memory" or not settings.create_tables:
        return nullcontext()
    if settings.store == "sqlite":
        return file_lock(settings.data_dir / "tables.lock")
    return postgres_ddl_lock(settings.session_url, settings.postgres_schema)


def token_cache(settings: Settings) -> TokenCache[Player]:
    """The tokens' answers a process keeps (``services.accounts.token_cache``): behind a generation in a
    file of the data directory on SQLite, whose processes share one host, in memory for the in-memory
    store's one process; on PostgreSQL, whose processes may run on several hosts, the process's own
    and not final: they serve the moves, whose saves check the token."""
    if settings.store == "sqlite":
        return TokenCache(SharedGeneration(settings.data_dir / "accounts.generation"))
    return TokenCache(LocalGeneration(), final=settings.store == "memory")
