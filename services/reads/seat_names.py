"""Each seat of a game named one way, for one viewer: by player and colour (``domain.kernel.narration``).

A server bot of the game's ladder is named by its level ("Level 4 bot"), and two seats whose
names read alike are numbered apart ("Level 2 bot (1)", "Level 2 bot (2)"), on pages, in
sentences and in the API's seats (``services.reads.documents.public_seats``) alike. Only the server's
own bot (``server-bot:NAME``) is named by its level: an account whose seats the server plays with
one of its bots (a bot account entered in a tournament) keeps its account's name, as its profile,
the standings and the leaderboards call it.

The colours are the game's own where it has them (Mékong's villages, the racers' dragons) and the
platform's seat colours otherwise, as the boards draw them; they are known from the table's
configuration, so an open table's seats are named before its game starts.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from domain.kernel import ConfigError, find_game
from domain.kernel.narration import BotTitle, Names, display_name
from services.accounts.players import SERVER_BOT_PREFIX
from services.common.visibility import seats_held

OPEN = ("open", "scheduled")


def as_named(seats: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    """The seats as ``domain.kernel.narration.seat_names`` should name them: the ``bot`` that plays
    a seat names it only when the server's bot is the seat's player itself."""
    return [
        {**s, "bot": None} if s.get("bot") and not str(s.get("player_id", SERVER_BOT_PREFIX)).startswith(
            SERVER_BOT_PREFIX) else s
        for s in seats
    ]  # fmt: skip


def colours(game: str, variant: str, options: Mapping[str, Any], seats: int, state: Any = None) -> tuple[str, ...]:
    """The seats' colours of a table of ``seats`` seats (its state's, once it has one)."""
    ruleset = find_game(game)
    try:
        config = ruleset.configure(variant, options, seats)
    except ConfigError:  # a table started with more seats than configured (a newcomer joined)
        return ()
    return ruleset.seat_colours(config, state)


def names_of(doc: Mapping[str, Any], player_id: str | None, state: Any = None) -> Names:
    """The names of a game document's seats (``GET /games/{id}``) for ``player_id``."""
    count = doc["planned_seats"] if doc["status"] in OPEN else len(doc["seats"])
    held = seats_held(doc["seats"], player_id)
    shades = colours(doc["game"], doc["variant"], doc["options"], count, state)
    return Names.of(as_named(doc["seats"]), shades, held, find_game(doc["game"]).bot_title)


def names_in(
    game: str, variant: str, options: Mapping[str, Any], seats: Sequence[Mapping[str, Any]], planned: int,
    status: str, player_id: str | None, state: Any = None,
) -> Names:  # fmt: skip
    """The names of a game's seats from its parts (the write model's, a list row's)."""
    doc = {"game": game, "variant": variant, "options": options, "seats": seats, "planned_seats": planned,
           "status": status}  # fmt: skip
    return names_of(doc, player_id, state)


def seat_holder(
    seats: Sequence[Mapping[str, Any]], player_id: str | None, names: Names, title: BotTitle | None
) -> Callable[[Mapping[str, Any]], str]:
    """Who a seat's event (``SeatTaken``, ``SeatGivenUp``) names, as ``player_id`` reads it: the
    seat as ``names`` names it while the same player still holds it; else (a seat given up, or
    numbered anew when the game started) the player the event itself names, "You" for the reader."""
    holders = {int(s["seat"]): s.get("player_id") for s in seats}

    def who(data: Mapping[str, Any]) -> str:
        seat, holder = int(data["seat"]), data.get("player_id")
        if holder is not None and holders.get(seat) == holder:
            return names.full(seat)
        if player_id is not None and holder == player_id:
            return "You"
        return display_name(as_named([data])[0], title)

    return who
