"""What the workers use of the platform, as protocols.

The composition root builds the platform (``wiring.Platform``) and hands it to the
workers; ``workers`` may not import ``wiring`` (``DEVELOPERS.md``), so it names here
what it reads of it, and ``Platform`` matches both protocols by its shape.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from services.accounts.account_feed import AccountFeed
from services.accounts.inbox import Inbox
from services.accounts.players import Accounts
from services.accounts.webhook_subscriptions import WebhookSubscriptions
from services.common.config import Settings
from services.competition.tournaments import Tournaments
from services.deadlines.timers import Timers
from services.operations.heartbeats import Heartbeats
from services.play.games import GameService
from services.play.seeds import Seeds
from services.play.unit_of_work import GameUnitOfWork


class JobPlatform(Protocol):
    """What a job (``workers.jobs``) calls: the services, and the sweep's lease."""

    @property
    def settings(self) -> Settings: ...

    @property
    def seeds(self) -> Seeds: ...

    @property
    def games(self) -> GameService: ...

    @property
    def timers(self) -> Timers: ...

    @property
    def inbox(self) -> Inbox: ...

    @property
    def accounts(self) -> Accounts: ...

    @property
    def tournaments(self) -> Tournaments: ...

    @property
    def heartbeats(self) -> Heartbeats: ...

    def sweep_lock(self) -> bool:
        """Whether this process may sweep now (one sweep per interval across all processes)."""
        ...


class WorkPlatform(JobPlatform, Protocol):
    """What ``workers.dispatch.attach_celery`` plugs the background work into."""

    @property
    def uow(self) -> GameUnitOfWork: ...

    @property
    def feed(self) -> AccountFeed: ...

    @property
    def webhooks(self) -> WebhookSubscriptions: ...

    def on_close(self, *closers: Callable[[], object]) -> None:
        """Has the platform's ``close`` call each of ``closers``."""
        ...
