"""Which seat a caller is at a table: the seat a command is for, the seat a reader reads for,
the seat a newcomer takes or a player gives up, and whether a task's seat is still awaited.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from services.accounts.players import SERVER_BOT_PREFIX
from services.common import visibility
from services.common.errors import NotAcceptingMoves, NotAPlayer, NotCreator, SeatUnavailable
from services.play.aggregate import Game


def awaits(game: Game, seat: int, version: int) -> bool:
    """Whether ``game`` is still at ``version`` and awaits ``seat``: the guard of every task."""
    return game.version == version and game.status == "active" and seat in game.awaiting and seat not in game.left


def acting_seat(game: Game, player_id: str, seat: int | None) -> int:
    """The seat a player's command is for: the one they name, else their awaited seat, else
    their first; only seats they hold and have not left, in a running game."""
    if game.status != "active":
        raise NotAcceptingMoves(f"game {game.id} is {game.status}; it accepts no moves")
    mine = [s for s in game.seats_of(player_id) if s not in game.left]
    if not mine:
        raise NotAPlayer(f"you hold no seat in game {game.id}")
    if seat is not None and seat not in mine:
        raise NotAPlayer(f"you do not hold seat {seat} in game {game.id}")
    return seat if seat is not None else visibility.chosen_seat(mine, game.awaiting)


def reading_seat(game: Game, player_id: str, seat: int | None) -> int:
    """The seat a player reads its legal moves or advice for: the one they name, else the first
    of theirs that is awaited (seats they have left come last), in a game of any status."""
    mine = game.seats_of(player_id)
    if not mine:
        raise NotAPlayer(f"you hold no seat in game {game.id}")
    if seat is not None and seat not in mine:
        raise NotAPlayer(f"you do not hold seat {seat} in game {game.id}")
    return (
        seat
        if seat is not None
        else visibility.chosen_seat([s for s in mine if s not in game.left] or mine, game.awaiting)
    )


def free_seat(game: Game, seat: int | None) -> int:
    """The seat a newcomer takes: the one they name if it is free, else the first free one."""
    if game.status not in ("open", "scheduled"):
        raise SeatUnavailable(f"game {game.id} is {game.status}; no seat can be taken")
    free = game.free_seats()
    if seat is None and free:
        return free[0]
    if seat is None or seat not in free:
        raise SeatUnavailable(f"game {game.id} has no free seat" if seat is None else f"seat {seat} is not free")
    return seat


def seat_left(held: frozenset[str], seated: Sequence[str], free: Sequence[int]) -> bool:
    """Whether a free seat is left once one is kept for each invitee in ``held`` not seated yet
    (True when none is kept: a full table is refused for being full, not for an invitee)."""
    kept = held - set(seated)
    return not kept or len(free) > len(kept)


def seat_to_give_up(game: Game, player_id: str, seat: int | None) -> dict[str, Any]:
    """The seat ``player_id`` gives up at a table not started: the one they name, else their last.
    The creator may name a server bot's seat (a bot seated by mistake) but gives up no seat of
    their own (they close the table instead); a tournament's seat is given up by withdrawing."""
    if game.status not in ("open", "scheduled"):
        raise NotAcceptingMoves(f"game {game.id} is {game.status}: a seat is given up only before the game starts")
    if game.settings.get("tournament"):
        raise SeatUnavailable("a tournament game's seat is given up by withdrawing from the tournament")
    mine = game.seats_of(player_id)
    if seat is None:
        if not mine:
            raise NotAPlayer(f"you hold no seat at the table of game {game.id}")
        seat = mine[-1]
    held = next((s for s in game.seats if s["seat"] == seat), None)
    if held is None:
        raise SeatUnavailable("that seat is free already")
    creator = player_id == game.creator
    if held["player_id"] == player_id and creator:
        raise SeatUnavailable("you opened this table: close it instead of leaving it")
    if held["player_id"] != player_id and not (creator and held["player_id"].startswith(SERVER_BOT_PREFIX)):
        raise NotAPlayer("you do not hold that seat: only its player (or the creator, for a server bot) gives it up")
    return dict(held)  # the SeatTaken's fields: what the SeatGivenUp repeats


def invitees_to_add(game: Game, player_id: str, invited: dict[str, str], answered: dict[str, str]) -> list[str]:
    """Of ``invited`` (account ids to names), those to invite now to ``game``, a table not started
    that ``player_id`` opened, not a tournament's, with a free seat. ``answered``: each invitee's
    invitation status so far. Pending already: nothing more to do; seated, or a decline (final, as
    a declined challenge is: nobody is asked twice): an error naming them. As when a table is
    opened, there may be more invitees than free seats: the first to accept take them."""
    if game.creator != player_id:
        raise NotCreator("only the table's creator invites players to it")
    if game.status not in ("open", "scheduled"):
        raise NotAcceptingMoves(f"game {game.id} is {game.status}: players are invited only before it starts")
    if game.settings.get("tournament") or game.sandbox_of:
        raise SeatUnavailable("a tournament's or a dispute's table seats its own players: nobody is invited to it")
    if len(game.seats) >= game.planned_seats:
        raise SeatUnavailable("this table has no free seat to invite anyone to")
    seated = {s["player_id"] for s in game.seats}
    for pid, name in invited.items():
        if pid in seated:
            raise SeatUnavailable(f"{name} is seated at this table already")
        if answered.get(pid) == "declined":
            raise SeatUnavailable(f"{name} declined an invitation to this table already: nobody is asked twice")
        if answered.get(pid) == "closed":
            raise SeatUnavailable(f"{name}'s invitation to this table was closed; {name} may still take a free seat")
    return [pid for pid in invited if answered.get(pid) != "pending"]
