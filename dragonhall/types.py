"""The shapes of the server's answers, as ``TypedDict``s: plain dicts at run time, typed for a reader and
a type checker. A server newer than this library may add keys; nothing here refuses them."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

Move = dict[str, Any]
"""A move in its wire form: ``{"type": "roll"}``, ``{"type": "take_tile", "tile": "red-forest", "dice": 2}``.
``GET /catalog`` lists each game's move types and fields; the legal moves are complete moves."""


class Player(TypedDict, total=False):
    id: str
    name: str
    kind: Literal["human", "bot"]
    created_at: str
    webhook_url: str | None
    webhook_events: list[str]
    """Only in the answer to ``set_webhook``: the event types the webhook receives."""
    webhook_secret: str
    """Only in the answer to ``set_webhook`` with a URL: the key that signs its POSTs."""


class PlayerWithToken(Player, total=False):
    token: str
    """Shown only in the answer to the registration: the server keeps its hash."""


class Token(TypedDict, total=False):
    id: str
    name: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


class TokenWithSecret(Token, total=False):
    token: str
    """The secret, shown once."""


class Seat(TypedDict, total=False):
    seat: int
    player_id: str
    name: str
    kind: str
    bot: str | None


class GameSummary(TypedDict, total=False):
    id: str
    game: str
    variant: str
    status: Literal["open", "scheduled", "active", "finished", "abandoned"]
    version: int
    seats: list[Seat]
    planned_seats: int
    awaiting: list[int]
    created_at: str
    updated_at: str
    starts_at: str | None
    outcome: dict[str, Any] | None


class GameDocument(GameSummary, total=False):
    options: dict[str, Any]
    view: dict[str, Any] | None
    """The board as the caller may see it (its seat's view, or a spectator's)."""
    creator: str
    time_control: dict[str, Any]
    clocks: dict[str, Any] | None
    seed_commitment: str
    sandbox: bool
    your_seats: list[int]
    current_version: int
    seat: int
    """Only in the document a bot runner hands a strategy: the seat it is choosing a move for."""


class LegalMoves(TypedDict):
    version: int
    seat: int
    total: int
    offset: int
    moves: list[Move]


class Advice(TypedDict):
    """``GET /games/{id}/advice``: the move a built-in bot of the server would play for ``seat``."""

    version: int
    seat: int
    bot: str
    move: Move


class Event(TypedDict, total=False):
    version: int
    type: str
    source: Literal["platform", "rules"]
    data: dict[str, Any]
    at: str
    awaiting: list[int]
    state_hash: str
    engine: str


class EventList(TypedDict):
    version: int
    events: list[Event]


class MoveResult(TypedDict, total=False):
    version: int
    events: list[Event]
    replayed: bool
    """True when the server had already applied this ``command_id``: this is the first result."""
    legal_moves: LegalMoves | None


class AwaitingGame(TypedDict, total=False):
    game_id: str
    game: str
    variant: str
    seat: int
    version: int
    deadline: str | None
    remaining: float | None


class Inbox(TypedDict, total=False):
    awaiting: list[AwaitingGame]
    reminders: list[dict[str, Any]]
    invitations: list[dict[str, Any]]


class Dispute(TypedDict, total=False):
    id: str
    game_id: str
    version: int
    claim: str
    move: Move | None
    seat: int | None
    opener: str
    opened_at: str
    answer: dict[str, Any] | None
    resolution: dict[str, Any] | None


class GameLine(TypedDict):
    """The first line of a game stream opened without ``after``."""

    type: Literal["game"]
    version: int
    game: GameDocument
    legal_moves: LegalMoves | None


class EventsLine(TypedDict, total=False):
    """One change on a game stream: the events saved since the last line, and where the game stands."""

    type: Literal["events"]
    version: int
    events: list[Event]
    awaiting: list[int]
    status: str
    legal_moves: LegalMoves | None
    clocks: dict[str, Any] | None


class AccountLine(TypedDict, total=False):
    """A line of the account stream: ``awaiting`` (sent on connect, one per game awaiting the caller, no
    cursor), or an account event (``game_started``, ``your_turn``, ``game_finished``, ``seat_given_up``,
    ``invitation``, ``reminder``, ``timeout``, ``dispute_opened``) with its ``cursor``."""

    type: str
    cursor: int
    at: str
    game_id: str
    game: str
    variant: str
    seat: int
    version: int
    deadline: str | None
