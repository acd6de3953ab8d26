"""A batch of events is written in one transaction for every read model, and alone when that fails.

The runner's read models (``projections.runner.ReadModels``) leave their changes and tracking records
staged and write them together: a commit per batch instead of one per read model
(``bench/projection_cost.py``). Each read model must still end exactly as if it had written alone,
and a transaction that fails must leave no read model ahead of what is stored.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from eventsourcing.persistence import OperationalError, Tracking

from projections.read_models import projections
from projections.runner import ReadModels
from projections.views import READ_MODELS
from tests.support.rated_games import play_table

PLAYERS = [("a", "greedy"), ("b", "random")]
BATCH = 8


def _items(platform: Any) -> list[Any]:
    rng = random.Random(11)
    for game in ("seven-dragons", "tarasque"):
        play_table(platform, game, PLAYERS, rng)
    platform.games.create_game("a", "mekong", None, None, 2)
    store = platform.store
    notes = store.recorder.select_notifications(1, 10_000)
    return [(store.mapper.to_domain_event(n), Tracking(store.name, n.id)) for n in notes]


def _alone(platform: Any, items: list[Any]) -> dict[str, Any]:
    """What each read model writes on its own, batch by batch: the reference."""
    built = projections(platform.views, platform.store, None)
    for start in range(0, len(items), BATCH):
        for projection in built:
            projection.process_batch(items[start : start + BATCH])
    for projection in built:
        projection.flush()
    written = platform.views.dump()
    platform.views.drop_views()
    return written


def _together(platform: Any, items: list[Any]) -> ReadModels:
    models = ReadModels(projections(platform.views, platform.store, None))
    for start in range(0, len(items), BATCH):
        models.process_batch(items[start : start + BATCH])
    models.flush()
    return models


def test_every_read_model_of_a_batch_is_written_in_one_transaction(deployment: Any, monkeypatch: Any) -> None:
    items = _items(deployment)
    reference = _alone(deployment, items)
    views = deployment.views
    transactions: list[int] = []
    apply_all = views.apply_all

    def counted(writes: Any) -> None:
        transactions.append(len(writes))
        apply_all(writes)

    monkeypatch.setattr(views, "apply_all", counted)
    _together(deployment, items)
    batches = -(-len(items) // BATCH)
    assert transactions == [len(READ_MODELS)] * batches  # each read model's changes and record, once a batch
    assert views.dump() == reference
    assert views.positions() == dict.fromkeys(READ_MODELS, items[-1][1].notification_id)


def test_a_batch_whose_one_transaction_fails_is_written_by_each_read_model_alone(
    deployment: Any, monkeypatch: Any
) -> None:
    """A refusal of the combined write (here, every third one) must neither lose a read model's
    changes nor apply one twice: each read model is set back to before the batch and writes it alone."""
    items = _items(deployment)
    reference = _alone(deployment, items)
    views = deployment.views
    apply_all = views.apply_all
    refused: list[int] = []

    def sometimes(writes: Any) -> None:
        if len(writes) > 1 and len(refused) % 3 == 0:
            refused.append(len(writes))
            raise OperationalError("the combined write was refused")
        refused.append(0)
        apply_all(writes)

    monkeypatch.setattr(views, "apply_all", sometimes)
    _together(deployment, items)
    assert refused.count(len(READ_MODELS)) >= 3
    assert views.dump() == reference
    assert views.positions() == dict.fromkeys(READ_MODELS, items[-1][1].notification_id)


@pytest.mark.parametrize("where", ["the combined write", "a read model mid-batch"])
def test_a_database_lost_during_a_batch_moves_no_read_model_and_the_next_try_applies_it(
    deployment: Any, monkeypatch: Any, where: str
) -> None:
    """Lost at the one transaction, or by the ratings once the game list and the boards have staged
    the batch: nothing is written, no position moves, the runner stops (its leader starts another),
    and the batch tried again reaches every read model once."""
    items = _items(deployment)
    reference = _alone(deployment, items)
    views = deployment.views
    models = ReadModels(projections(views, deployment.store, None))
    models.process_batch(items[:BATCH])
    before = views.dump()

    def lost(*args: Any) -> None:
        raise OperationalError("connection lost")

    if where == "the combined write":
        monkeypatch.setattr(views, "apply_all", lost)
    else:
        monkeypatch.setattr(next(p for p in models.projections if p.read_model == "ratings"), "process_batch", lost)
    with pytest.raises(OperationalError):
        models.process_batch(items[BATCH : 2 * BATCH])
    monkeypatch.undo()
    assert views.dump() == before
    assert {p.position() for p in models.projections} == {items[BATCH - 1][1].notification_id}
    assert all(p.staged is None for p in models.projections)
    for start in range(BATCH, len(items), BATCH):  # the same runner tried again: nothing lost, nothing twice
        models.process_batch(items[start : start + BATCH])
    models.flush()
    assert views.dump() == reference
