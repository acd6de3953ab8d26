"""The dedicated stream engine's wiring (``DRAGONHALL_STREAM_ENGINE=pushpin``): a GRIP publisher fed
by every save, and where it posts each game's published mark (``services.streams.published_marks``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from infra.version_board import VersionBoard
from services.streams import grip
from services.streams.grip import GripPublisher
from services.streams.published_marks import LocalMarks, Marks

if TYPE_CHECKING:
    from wiring.platform import Platform


def attach_publisher(platform: Platform, closers: list[Callable[[], object]]) -> GripPublisher:
    """Publishes every save of ``platform`` to the engine; ``closers`` get what must be closed."""
    publisher = GripPublisher(platform.settings.grip_publish_url, platform.streams, published_marks(platform, closers))
    grip.attach(publisher, platform.uow, platform.feed, platform.accounts)
    closers.append(publisher.close)
    return publisher


def published_marks(platform: Platform, closers: list[Callable[[], object]]) -> Marks | None:
    """Where the publishers post each game's published mark: a board beside the version board when
    processes share a SQLite store, this process's own when it is the only writer, none when it
    cannot see the other writers' publishes (the holds then go to the head)."""
    if platform.uow.versions is not None:
        board = VersionBoard(platform.settings.data_dir / "published.board")
        closers.append(board.close)
        return board
    return LocalMarks() if platform.uow.single_writer else None
