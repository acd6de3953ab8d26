"""One bot task per awaited bot seat: a claim in Redis, taken when a task is sent, kept while it lives.

After every save the service plans a bot task for each awaited bot seat
(``services.deadlines.timers.Timers.plan``). Where several seats decide at once, each
save by one of them planned the others' tasks again, although theirs were
still queued or running: about a tenth to a quarter of all bot tasks found
their decision already played and wrote nothing. So sending a task first takes
the seat's claim (``SET NX`` with a lifetime of ``LIFETIME`` seconds); a seat
already claimed gets no second task. The task gives the claim up just before it
saves its move (``before_save``, under the game's lock), so the plan that
follows its own save claims the seat's next decision afresh, and gives it up
when it writes nothing.

At least once still holds: a claim lasts only while its task may still run.
It is taken for ``SENDING`` seconds, and held for ``LIFETIME`` once the task is
in the broker; a worker that holds the task (running, or waiting for a thread)
extends it with its leases (``workers.leases``). A task lost before it reached
the broker (its sender killed between a save and the send), or with a dead
worker, leaves a claim that lapses within seconds, and ``nudge_bots``
(``workers.jobs``, every second) sends the turn again once it has waited
``services.deadlines.timers.BOT_NUDGE``. A broker that cannot answer claims nothing: the
task is sent. A task that waited in a queue longer than ``LIFETIME`` (workers
overloaded) may get a second one, which writes nothing.
"""

from __future__ import annotations

import logging

from services.common.config import Settings
from workers.broker_memory import redis_client

log = logging.getLogger("dragonhall.workers")
SENDING = 1
"""Seconds a claim lasts between its taking and its task's arrival in the broker."""
LIFETIME = 3
"""Seconds a claim lasts once its task is in the broker, unless a worker holding it extends it."""


def take(settings: Settings, game_id: str, seat: int, version: int) -> bool:
    """Whether a task for ``seat`` may be sent now (nobody holds its claim); takes the claim."""
    client = redis_client(settings.broker_url)
    if client is None:
        return True
    try:
        return bool(client.set(_key(settings, game_id, seat), str(version), nx=True, ex=SENDING))
    except Exception as e:  # sent anyway: a duplicate is harmless, a missing task is not
        log.warning("could not claim a bot turn: %s", e)
        return True


def hold(settings: Settings, game_id: str, seat: int) -> None:
    """Keeps the claim for ``LIFETIME`` seconds: its task is in the broker."""
    keep(settings, [(game_id, seat)])


def keep(settings: Settings, seats: list[tuple[str, int]]) -> None:
    """Extends the claims of ``seats`` (game, seat) that still stand, for ``LIFETIME`` seconds."""
    client = redis_client(settings.broker_url)
    if client is None or not seats:
        return
    try:
        with client.pipeline(transaction=False) as pipe:
            for game_id, seat in seats:
                pipe.expire(_key(settings, game_id, seat), LIFETIME)
            pipe.execute()
    except Exception as e:  # the claims lapse, and the turns are nudged: a duplicate at worst
        log.warning("could not keep bot turns' claims: %s", e)


def give_up(settings: Settings, game_id: str, seat: int, version: int) -> None:
    """Lets the next task for ``seat`` be sent, if the claim is the one taken for ``version``'s
    task (a task delivered twice must not give up the claim of the seat's next task)."""
    client = redis_client(settings.broker_url)
    if client is None:
        return
    try:
        client.eval(_GIVE_UP, 1, _key(settings, game_id, seat), str(version))
    except Exception as e:  # the claim lapses by itself
        log.warning("could not give a bot turn's claim up: %s", e)


_GIVE_UP = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0"


def _key(settings: Settings, game_id: str, seat: int) -> str:
    return f"{settings.queue_prefix}dragonhall:bot-claim:{game_id}:{seat}"
