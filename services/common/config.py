"""Settings, read once from the environment.

Persistence is chosen by ``DRAGONHALL_STORE``:

* ``sqlite`` (the embedded default): files under ``DRAGONHALL_DATA_DIR`` (``./var``);
* ``postgres``: the database at ``DRAGONHALL_DATABASE_URL``
  (``postgresql://user:password@host:port/dbname``); setting the URL alone selects it;
* ``memory``: in-process only, for unit tests.

Work is run by ``DRAGONHALL_BROKER_URL``: unset (embedded), the Celery jobs run on
threads of the server process (``workers.local``); ``redis://...`` sends them to
separate ``dragonhall worker`` processes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from urllib.parse import quote, unquote, urlparse

from infra.private_files import private_dir
from services.accounts.webhook_targets import Network, parse_networks


@dataclass(frozen=True)
class PostgresParams:
    dbname: str
    host: str
    port: str
    user: str
    password: str

    @classmethod
    def from_url(cls, url: str) -> PostgresParams:
        u = urlparse(url)
        if u.scheme not in ("postgres", "postgresql"):
            raise ValueError(f"DRAGONHALL_DATABASE_URL must be postgresql://..., not {url!r}")
        return cls(
            dbname=(u.path or "/").lstrip("/") or "postgres",
            host=u.hostname or "127.0.0.1",
            port=str(u.port or 5432),
            user=unquote(u.username or os.environ.get("USER", "postgres")),
            password=unquote(u.password or ""),
        )


@dataclass(frozen=True)
class Settings:
    store: str = "sqlite"
    data_dir: Path = Path("var")
    database_url: str | None = None
    database_direct_url: str | None = None
    """The database without a pooler (``DRAGONHALL_DATABASE_DIRECT_URL``), where ``database_url`` goes
    through PgBouncer in transaction mode: for what needs a session of its own (``session_url``)."""
    postgres_schema: str | None = None
    broker_url: str | None = None
    secret_key: bytes = b""
    snapshot_interval: int = 50
    cache_size: int = 2000
    bot_budget: float = 2.0
    sweep_interval: float = 5.0
    queue_prefix: str = ""
    vacation_days: int = 30
    visibility_timeout: int = 2
    http_workers: int = 1
    create_tables: bool = True
    embedded_projections: bool = True
    arbiters: frozenset[str] = frozenset()
    """Accounts that arbitrate disputes of every game (``services.audits.disputes``)."""
    webhook_allow_networks: tuple[Network, ...] = ()
    """Networks webhooks may reach besides public addresses (``services.accounts.webhook_targets``)."""
    max_body_bytes: int = 1 << 20
    """The largest request body the API reads (``DRAGONHALL_MAX_BODY_BYTES``); larger ones are 413."""
    max_streams: int = 1500
    """Streams one HTTP process holds at once (``DRAGONHALL_MAX_STREAMS``); more are refused with 503."""
    max_streams_per_caller: int = 20
    """Streams (and long polls) one caller holds at once in one HTTP process: an account, or a
    client address without a token (``DRAGONHALL_MAX_STREAMS_PER_CALLER``); more are refused with
    429, so one caller cannot hold every slot of ``max_streams``."""
    stream_engine: str = "embedded"
    """Who holds the streams (``DRAGONHALL_STREAM_ENGINE``): ``embedded``, this process; ``pushpin``,
    a Pushpin in front of the API, to which each change is published (``services.streams.grip``)."""
    grip_publish_url: str = "http://127.0.0.1:5561"
    """Pushpin's publish endpoint (``DRAGONHALL_GRIP_PUBLISH_URL``), with ``stream_engine=pushpin``."""
    grip_key: str = ""
    """Pushpin's ``sig_key`` (``DRAGONHALL_GRIP_KEY``, or the file ``DRAGONHALL_GRIP_KEY_FILE`` names): a
    stream's request signed with it (``Grip-Sig``) is held by Pushpin; any other is held here."""
    trusted_proxies: int = 0
    """Reverse proxies in front of the server (``DRAGONHALL_TRUSTED_PROXIES``): the client's address
    is then the one the nearest of them saw (``X-Forwarded-For``), so limits count clients, not proxies."""
    rate_limits: bool = True
    """Whether the API enforces its rate limits (``DRAGONHALL_RATE_LIMITS``; ``api.limits``)."""
    rate_limit_register: str = "600/minute"
    """Registrations per client address (``DRAGONHALL_RATE_LIMIT_REGISTER``), in the syntax of ``limits``."""
    rate_limit_moves: str = "6000/minute"
    """Requests that change something (moves, seats, new games...) per token (``DRAGONHALL_RATE_LIMIT_MOVES``)."""
    rate_limit_reads: str = "12000/minute"
    """Reads per token, or per address without one (``DRAGONHALL_RATE_LIMIT_READS``)."""
    rate_limit_streams: str = "300/minute"
    """Streams opened per account, or per address without a token (``DRAGONHALL_RATE_LIMIT_STREAMS``)."""
    extra: dict[str, str] = field(default_factory=dict)

    @property
    def postgres(self) -> PostgresParams:
        if not self.database_url:
            raise ValueError("DRAGONHALL_DATABASE_URL is not set")
        return PostgresParams.from_url(self.database_url)

    @property
    def pooled(self) -> bool:
        """Whether ``database_url`` leads to a transaction pooler: no session state may outlive a
        transaction there (no prepared statement, no ``search_path`` at connection, no lock, no LISTEN)."""
        return bool(self.database_direct_url)

    @property
    def session_url(self) -> str:
        """The URL of connections that hold a session: the leader lock, the tables' lock, LISTEN/NOTIFY
        and the projection runner's subscription. The direct URL when there is one."""
        return self.database_direct_url or self.database_url or ""

    def direct(self) -> Settings:
        """These settings with every connection made directly: for processes that hold sessions."""
        return replace(self, database_url=self.session_url or None, database_direct_url=None)

    @property
    def rate_limit_storage(self) -> str:
        """Where the rate limits count: the Redis broker when one is configured, shared by every
        process; otherwise this process's memory."""
        if self.broker_url and self.broker_url.startswith(("redis://", "rediss://")):
            return self.broker_url
        return "memory://"

    @property
    def embedded(self) -> bool:
        """Whether background work runs inside the server process (no broker)."""
        return self.broker_url is None or self.broker_url.startswith("memory://")

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None, **overrides: object) -> Settings:
        e = dict(os.environ if env is None else env)
        url = _with_password(
            e.get("DRAGONHALL_DATABASE_URL") or None, _read_file(e, "DRAGONHALL_DATABASE_PASSWORD_FILE")
        )
        store = e.get("DRAGONHALL_STORE") or ("postgres" if url else "sqlite")
        if store not in ("sqlite", "postgres", "memory"):
            raise ValueError(f"DRAGONHALL_STORE must be sqlite, postgres or memory, not {store!r}")
        data_dir = Path(e.get("DRAGONHALL_DATA_DIR") or "var")
        broker = e.get("DRAGONHALL_BROKER_URL") or None
        values: dict[str, object] = {
            "store": store,
            "data_dir": data_dir,
            "database_url": url,
            "database_direct_url": _with_password(
                e.get("DRAGONHALL_DATABASE_DIRECT_URL") or None, _read_file(e, "DRAGONHALL_DATABASE_PASSWORD_FILE")
            ),
            "postgres_schema": e.get("DRAGONHALL_POSTGRES_SCHEMA") or None,
            "broker_url": broker,
            "secret_key": _secret_key(e, data_dir, store),
            "snapshot_interval": int(e.get("DRAGONHALL_SNAPSHOT_INTERVAL", "50")),
            "cache_size": int(e.get("DRAGONHALL_CACHE_SIZE", "2000")),
            "bot_budget": float(e.get("DRAGONHALL_BOT_BUDGET", "2.0")),
            "sweep_interval": float(e.get("DRAGONHALL_SWEEP_INTERVAL", "5.0")),
            "queue_prefix": e.get("DRAGONHALL_QUEUE_PREFIX", ""),
            "vacation_days": int(e.get("DRAGONHALL_VACATION_DAYS", "30")),
            "visibility_timeout": int(e.get("DRAGONHALL_BROKER_VISIBILITY_TIMEOUT", "2")),
            "http_workers": int(e.get("DRAGONHALL_HTTP_WORKERS", "1")),
            "create_tables": _flag(e.get("DRAGONHALL_CREATE_TABLES"), default=True),
            "embedded_projections": _flag(e.get("DRAGONHALL_EMBEDDED_PROJECTIONS"), default=True),
            "arbiters": frozenset(a.strip() for a in e.get("DRAGONHALL_ARBITERS", "").split(",") if a.strip()),
            "webhook_allow_networks": parse_networks(e.get("DRAGONHALL_WEBHOOK_ALLOW_NETWORKS")),
            "max_body_bytes": int(e.get("DRAGONHALL_MAX_BODY_BYTES", str(1 << 20))),
            "max_streams": int(e.get("DRAGONHALL_MAX_STREAMS", "1500")),
            "max_streams_per_caller": int(e.get("DRAGONHALL_MAX_STREAMS_PER_CALLER", "20")),
            "stream_engine": _engine(e.get("DRAGONHALL_STREAM_ENGINE") or "embedded"),
            "grip_publish_url": e.get("DRAGONHALL_GRIP_PUBLISH_URL") or cls.grip_publish_url,
            "grip_key": e.get("DRAGONHALL_GRIP_KEY") or _read_file(e, "DRAGONHALL_GRIP_KEY_FILE") or "",
            "trusted_proxies": int(e.get("DRAGONHALL_TRUSTED_PROXIES") or 0),
            "rate_limits": _flag(e.get("DRAGONHALL_RATE_LIMITS"), default=True),
            "rate_limit_register": e.get("DRAGONHALL_RATE_LIMIT_REGISTER") or cls.rate_limit_register,
            "rate_limit_moves": e.get("DRAGONHALL_RATE_LIMIT_MOVES") or cls.rate_limit_moves,
            "rate_limit_reads": e.get("DRAGONHALL_RATE_LIMIT_READS") or cls.rate_limit_reads,
            "rate_limit_streams": e.get("DRAGONHALL_RATE_LIMIT_STREAMS") or cls.rate_limit_streams,
        }
        values.update(overrides)
        return cls(**values)  # type: ignore[arg-type]


def _engine(value: str) -> str:
    if value not in ("embedded", "pushpin"):
        raise ValueError(f"DRAGONHALL_STREAM_ENGINE must be embedded or pushpin, not {value!r}")
    return value


def _flag(value: str | None, *, default: bool) -> bool:
    if value is None or value == "":
        return default
    return value.strip().lower() in ("1", "y", "yes", "true", "on")


def _read_file(e: dict[str, str], variable: str) -> str | None:
    """The content of the file ``variable`` names (a secret kept in a file: compose's secrets), stripped."""
    path = e.get(variable)
    if not path:
        return None
    try:
        return Path(path).read_text().strip()
    except OSError as error:
        raise ValueError(f"{variable}={path}: cannot read it ({error.strerror})") from error


def _with_password(url: str | None, password: str | None) -> str | None:
    """``url`` with ``password`` in place of the one it holds, if any is given."""
    if url is None or password is None:
        return url
    u = urlparse(url)
    user = u.username or os.environ.get("USER", "postgres")
    host = u.hostname or "127.0.0.1"
    netloc = f"{quote(user, safe='')}:{quote(password, safe='')}@{host}" + (f":{u.port}" if u.port else "")
    return u._replace(netloc=netloc).geturl()


def _secret_key(e: dict[str, str], data_dir: Path, store: str) -> bytes:
    """The server's master key, from which every game's secret seed is derived.

    ``DRAGONHALL_SECRET_KEY`` (hex) wins, then the file ``DRAGONHALL_SECRET_KEY_FILE`` names
    (compose's secret, made once by ``deploy/make-secrets.sh``). Otherwise the embedded store keeps one
    in ``DATA_DIR/secret.key``, created on first use; the memory store makes a
    fresh one per process. Production must set the variable, shared by the
    server and its workers.
    """
    if e.get("DRAGONHALL_SECRET_KEY"):
        return bytes.fromhex(e["DRAGONHALL_SECRET_KEY"])
    from_file = _read_file(e, "DRAGONHALL_SECRET_KEY_FILE")
    if from_file is not None:
        return bytes.fromhex(from_file)
    if store == "memory":
        return secrets.token_bytes(32)
    path = data_dir / "secret.key"
    if not path.exists():
        private_dir(data_dir)
        fd, tmp = tempfile.mkstemp(dir=data_dir, prefix=".secret.key.")  # 0600, and this process's own
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        with contextlib.suppress(FileExistsError):
            os.link(tmp, path)  # atomic: two processes starting at once agree on one key
        os.unlink(tmp)
    return bytes.fromhex(path.read_text().strip())
