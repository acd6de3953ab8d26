"""The read models' projections, one per read model, as a runner builds them (``projections.runner``)."""

from __future__ import annotations

from collections.abc import Sequence

from projections.board_projection import BoardProjection
from projections.deadline_projection import DeadlineProjection
from projections.games import GameProjection
from projections.inbox_projection import InboxProjection
from projections.rating_projection import RatingProjection
from projections.runner import Build
from projections.tracked import TrackedProjection
from projections.views import READ_MODELS, GameViewsSQL
from services.accounts.account_feed import AccountFeed
from services.common.event_store import EventStore


def projections(
    view: GameViewsSQL, app: EventStore | None, feed: AccountFeed | None, only: Sequence[str] = READ_MODELS
) -> list[TrackedProjection]:
    """The projection of each read model in ``only`` (``views.READ_MODELS``), over ``view``:
    the boards' with the event store, the inbox's with the players' feed and the store."""
    unknown = set(only) - set(READ_MODELS)
    if unknown:
        raise ValueError(f"no read model named {', '.join(sorted(unknown))}: they are {', '.join(READ_MODELS)}")
    built: list[TrackedProjection] = []
    if "games" in only:
        built.append(GameProjection(view))
    if "boards" in only:
        built.append(BoardProjection(view, app))
    if "ratings" in only:
        built.append(RatingProjection(view))
    if "deadlines" in only:
        built.append(DeadlineProjection(view))
    if "inbox" in only:
        built.append(InboxProjection(view, app, feed))
    return built


def builder(feed: AccountFeed | None, only: Sequence[str] = READ_MODELS) -> Build:
    """What a runner calls to build the projections of ``only``, with the store it opened."""

    def build(view: GameViewsSQL, app: EventStore) -> list[TrackedProjection]:
        return projections(view, app, feed, only)

    return build
