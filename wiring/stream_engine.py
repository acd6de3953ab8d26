"""The dedicated stream engine's wiring (``DRAGONHALL_STREAM_ENGINE=pushpin``): a GRIP publisher fed
by every save, and where it posts each game's published mark (``services.streams.published_marks``)."""

from __future__ import annotations

from collections.abc import Callable

from infra.version_board import VersionBoard
from services.accounts.account_feed import AccountFeed
from services.accounts.players import Accounts
from services.common.config import Settings
from services.play.unit_of_work import GameUnitOfWork
from services.streams import grip
from services.streams.grip import GripPublisher
from services.streams.lines import Streams
from services.streams.published_marks import LocalMarks, Marks


def attach_publisher(
    settings: Settings,
    streams: Streams,
    uow: GameUnitOfWork,
    feed: AccountFeed,
    accounts: Accounts,
    closers: list[Callable[[], object]],
) -> GripPublisher:
    """Publishes every save of ``uow`` and entry of ``feed`` to the engine; ``closers`` get what
    must be closed."""
    publisher = GripPublisher(settings.grip_publish_url, streams, published_marks(settings, uow, closers))
    grip.attach(publisher, uow, feed, accounts)
    closers.append(publisher.close)
    return publisher


def published_marks(settings: Settings, uow: GameUnitOfWork, closers: list[Callable[[], object]]) -> Marks | None:
    """Where the publishers post each game's published mark: a board beside the version board when
    processes share a SQLite store, this process's own when it is the only writer, none when it
    cannot see the other writers' publishes (the holds then go to the head)."""
    if uow.versions is not None:
        board = VersionBoard(settings.data_dir / "published.board")
        closers.append(board.close)
        return board
    return LocalMarks() if uow.single_writer else None
