"""A typed client of the Dragonhall HTTP API, over httpx.

    from dragonhall import Client

    with Client("http://127.0.0.1:8000", token) as dh:
        page = dh.legal_moves(game_id)
        dh.move(game_id, page["moves"][0], expected_version=page["version"])

Every call returns the server's JSON answer (typed in ``dragonhall.types``) or raises a
``dragonhall.errors.DragonhallError`` of the status's class, carrying the server's error body; a server
that cannot be reached, after the retries, raises ``dragonhall.errors.Unreachable`` (never httpx's own
errors). Waits longer than ``LONG_WAIT`` seconds are logged on ``dragonhall.client``. Reads, and
moves, are retried with backoff on a lost connection, a 503 and a 429 (after its ``Retry-After``); a move
is retried with the same ``command_id``, so the server applies it once and answers a retry with the
first result. Other writes are retried only when the request cannot have reached the server.

This package imports nothing of the server: it is what a bot author installs, and it speaks to any
Dragonhall server over HTTP.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from datetime import date
from typing import Any, cast

from dragonhall import errors
from dragonhall.transport import Transport
from dragonhall.types import (
    Advice,
    Dispute,
    EventList,
    GameDocument,
    GameSummary,
    Inbox,
    LegalMoves,
    Move,
    MoveResult,
    Player,
    PlayerWithToken,
    Token,
    TokenWithSecret,
)

PAGE = 1000
"""The most legal moves the server lists in one page."""


def new_command_id() -> str:
    """A fresh ``command_id``: the server keeps ids per player and game, so any unique string will do."""
    return uuid.uuid4().hex


class Client(Transport):
    """One server, one token (or none: a spectator). Thread-safe as an ``httpx.Client`` is.

    ``server``: the server's root URL. ``token``: the player's bearer token (``register`` and
    ``for_new_player`` set it). ``timeout``: seconds a request may take (connect, read, write), 30 by
    default; streams read with their own longer timeout. ``retry``: how reads, moves, refused 429s
    and 503s and unsent writes are retried (``Retry``). ``transport``: an httpx transport (tests use
    ``httpx.MockTransport``). ``sleep``: how the client waits between tries (tests record them).

    Errors: every refusal raises the ``DragonhallError`` of its status (``BadRequest`` 400,
    ``Unauthenticated`` 401, ``Forbidden`` 403, ``NotFound`` 404, ``Conflict`` 409, ``RuleViolation``
    422, ``RateLimited`` 429, ``Unavailable`` 503, ``ServerError`` otherwise); a server that cannot be
    reached raises ``Unreachable`` after the retries.
    """

    player: PlayerWithToken | None = None
    """The player ``for_new_player`` registered."""

    @classmethod
    def for_new_player(cls, server: str, name: str, kind: str = "human", **options: Any) -> Client:
        """A client holding the token of a player it has just registered (``client.player`` says who)."""
        client = cls(server, **options)
        client.player = client.register(name, kind)
        client.token = client.player["token"]
        return client

    # ------------------------------------------------------------ players and tokens

    def register(self, name: str, kind: str = "human") -> PlayerWithToken:
        """``POST /players``: a new player and its token (shown only in this answer)."""
        return cast(PlayerWithToken, self._call("POST", "/players", {"name": name, "kind": kind}))

    def me(self) -> Player:
        """The caller's player: id, name, kind, the token's scopes."""
        return cast(Player, self._call("GET", "/me"))

    def create_token(self, name: str, scopes: list[str]) -> TokenWithSecret:
        """``POST /me/tokens``: another token of this account with ``scopes`` (``read``, ``play``, ``bot``);
        its secret is in this answer only."""
        return cast(TokenWithSecret, self._call("POST", "/me/tokens", {"name": name, "scopes": scopes}))

    def tokens(self) -> list[Token]:
        """``GET /me/tokens``: this account's tokens, without their secrets."""
        answer = self._call("GET", "/me/tokens")
        return cast(list[Token], answer["tokens"] if isinstance(answer, dict) else answer)

    def revoke_token(self, token_id: str) -> None:
        """``DELETE /me/tokens/{id}``: refused at once, also on the streams it had opened."""
        self._call("DELETE", f"/me/tokens/{token_id}")

    # ------------------------------------------------------------ games

    def create_game(
        self,
        game: str,
        players: int = 2,
        *,
        variant: str | None = None,
        options: dict[str, Any] | None = None,
        time_control: dict[str, Any] | None = None,
        starts_at: str | None = None,
        fill: str | None = None,
        fill_bot: str | None = None,
        invite: list[str] | None = None,
    ) -> GameDocument:
        """``POST /games``: a new table, the caller its creator; it starts when its last seat fills."""
        body = _present(
            game=game,
            players=players,
            variant=variant,
            options=options,
            time_control=time_control,
            starts_at=starts_at,
            fill=fill,
            fill_bot=fill_bot,
            invite=invite,
        )
        return cast(GameDocument, self._call("POST", "/games", body))

    def games(
        self,
        *,
        status: str | None = None,
        game: str | None = None,
        player: str | None = None,
        limit: int | None = None,
        offset: int | None = None,
    ) -> list[GameSummary]:
        """Games by ``status`` (open, active, finished, abandoned), ``game`` and ``player``, a page at a time."""
        params = _present(status=status, game=game, player=player, limit=limit, offset=offset)
        return cast(list[GameSummary], self._call("GET", "/games", params=params)["games"])

    def game(self, game_id: str, seat: int | None = None) -> GameDocument:
        """The game, its board (``view``) as the caller may see it."""
        return cast(GameDocument, self._call("GET", f"/games/{game_id}", params=_present(seat=seat)))

    def take_seat(self, game_id: str, seat: int | None = None) -> GameDocument:
        """Takes a seat (the first free one when ``seat`` is None); ``Conflict`` ``seat_unavailable`` when taken."""
        return cast(GameDocument, self._call("POST", f"/games/{game_id}/seats", _present(seat=seat)))

    def add_bot(self, game_id: str, bot: str, seat: int | None = None) -> GameDocument:
        """The creator seats one of the server's bots (``GET /catalog`` lists each game's)."""
        return cast(GameDocument, self._call("POST", f"/games/{game_id}/seats", _present(bot=bot, seat=seat)))

    def start(self, game_id: str) -> GameDocument:
        """Starts an open game now (its creator only), with the seats it has."""
        return cast(GameDocument, self._call("POST", f"/games/{game_id}/start"))

    def legal_moves(
        self, game_id: str, seat: int | None = None, offset: int | None = None, limit: int | None = None
    ) -> LegalMoves:
        """One page of the caller's legal moves (none when its seat is not awaited); ``total`` counts them all."""
        params = _present(seat=seat, offset=offset, limit=limit)
        return cast(LegalMoves, self._call("GET", f"/games/{game_id}/legal-moves", params=params))

    def all_legal_moves(self, game_id: str, seat: int | None = None, first: LegalMoves | None = None) -> LegalMoves:
        """Every legal move in one list, paging as needed from ``first`` (a page already read). Starts
        again if the game moves on between two pages, so the list is of one version."""
        page = first or self.legal_moves(game_id, seat)
        for _ in range(self.retry.attempts):
            moves = list(page["moves"])
            while len(moves) < page["total"]:
                more = self.legal_moves(game_id, page["seat"] if seat is None else seat, len(moves), PAGE)
                if more["version"] != page["version"] or not more["moves"]:
                    break
                moves.extend(more["moves"])
            else:
                return {**page, "offset": 0, "moves": moves}
            page = self.legal_moves(game_id, seat)
        raise errors.Conflict(409, "moving_target", f"game {game_id} kept moving while its legal moves were paged")

    def advice(self, game_id: str, bot: str | None = None, seat: int | None = None, seed: int | None = None) -> Advice:
        """``GET /games/{id}/advice``: the move the server's built-in ``bot`` (the game's default bot when
        None) would play now for the caller's awaited seat; it decides on what the seat may know. ``seed``
        makes it repeatable. ``BadRequest`` for a bot the game lacks (its message lists the game's bots),
        ``Conflict`` when the seat is not awaited (any more)."""
        params = _present(bot=bot, seat=seat, seed=seed)
        return cast(Advice, self._call("GET", f"/games/{game_id}/advice", params=params))

    def move(
        self,
        game_id: str,
        move: Move,
        *,
        expected_version: int | None = None,
        command_id: str | None = None,
        seat: int | None = None,
        include_legal_moves: bool = False,
    ) -> MoveResult:
        """``POST /games/{id}/moves``. Sent again with the same ``command_id`` (a fresh one when not
        given) after a lost connection, a 503 or a 429, so it is played once: a retry of a move the server
        had applied answers its first result, with ``replayed`` true."""
        body = _present(
            move=move,
            expected_version=expected_version,
            command_id=command_id or new_command_id(),
            seat=seat,
            include_legal_moves=include_legal_moves or None,
        )
        return cast(MoveResult, self._call("POST", f"/games/{game_id}/moves", body, safe=True))

    def resign(self, game_id: str, seat: int | None = None) -> MoveResult:
        """Leaves the game from the seat (ranked last; the game goes on for the others where the rules allow)."""
        return cast(MoveResult, self._call("POST", f"/games/{game_id}/resign", _present(seat=seat)))

    def events(self, game_id: str, after: int = 0, limit: int | None = None, wait: float | None = None) -> EventList:
        """The events after version ``after``, as the caller may see them. With ``wait`` (seconds, at most
        60), the server answers as soon as one exists, or after ``wait`` with none (long polling)."""
        if wait is not None and float(wait).is_integer():
            wait = int(wait)  # a whole number of seconds is sent as an integer, which any schema takes
        params = _present(after=after, limit=limit, wait=wait)
        timeout = self.timeout + (wait or 0)
        return cast(EventList, self._call("GET", f"/games/{game_id}/events", params=params, timeout=timeout))

    def replay(self, game_id: str, at: int, seat: int | None = None) -> GameDocument:
        """The game as it stood at version ``at``, as the caller saw it then."""
        return cast(GameDocument, self._call("GET", f"/games/{game_id}/replay", params=_present(at=at, seat=seat)))

    def board_svg(self, game_id: str, at: int | None = None, seat: int | None = None) -> str:
        """The board as an SVG document (``NotFound`` with code ``no_picture`` for games that draw none)."""
        response = self._send("GET", f"/games/{game_id}/board.svg", params=_present(at=at, seat=seat))
        return response.text

    def steps(self, game_id: str) -> dict[str, Any]:
        """The game decision by decision: actor, decision, rules applied, events (as the caller may see them)."""
        return cast(dict[str, Any], self._call("GET", f"/games/{game_id}/steps"))

    def audit(self, game_id: str) -> dict[str, Any]:
        """The steps with the server's verification of every one."""
        return cast(dict[str, Any], self._call("GET", f"/games/{game_id}/audit"))

    def record(self, game_id: str) -> dict[str, Any]:
        """The signed record of a game that has ended (``Conflict`` while it runs)."""
        return cast(dict[str, Any], self._call("GET", f"/games/{game_id}/record"))

    def journal(self, game_id: str) -> dict[str, Any]:
        """The refused commands of the game: who, when, what, and the rule that refused it."""
        return cast(dict[str, Any], self._call("GET", f"/games/{game_id}/journal"))

    # ------------------------------------------------------------ disputes

    def open_dispute(
        self, game_id: str, version: int, claim: str, move: Move | None = None, seat: int | None = None
    ) -> Dispute:
        """Disputes a game at ``version``: ``claim`` in words, with the ``move`` the seat says it could play."""
        body = _present(version=version, claim=claim, move=move, seat=seat)
        return cast(Dispute, self._call("POST", f"/games/{game_id}/disputes", body))

    def disputes(self, game_id: str) -> list[Dispute]:
        """The disputes opened on a game."""
        return cast(list[Dispute], self._call("GET", f"/games/{game_id}/disputes")["disputes"])

    def dispute(self, dispute_id: str) -> Dispute:
        """One dispute."""
        return cast(Dispute, self._call("GET", f"/disputes/{dispute_id}"))

    def dispute_legal_moves(self, dispute_id: str, offset: int | None = None, limit: int | None = None) -> LegalMoves:
        """The moves that were legal at a dispute's version, for the seat it names."""
        params = _present(offset=offset, limit=limit)
        return cast(LegalMoves, self._call("GET", f"/disputes/{dispute_id}/legal-moves", params=params))

    def sandbox(self, dispute_id: str) -> Dispute:
        """Forks a dispute's game at its version into a sandbox (never rated), to try the claim out."""
        return cast(Dispute, self._call("POST", f"/disputes/{dispute_id}/sandbox"))

    def resolve_dispute(self, dispute_id: str, verdict: str, note: str | None = None) -> Dispute:
        """An arbiter's verdict on a dispute, with an optional note."""
        body = _present(verdict=verdict, note=note)
        return cast(Dispute, self._call("POST", f"/disputes/{dispute_id}/resolve", body))

    # ------------------------------------------------------------ the caller's account

    def inbox(self) -> Inbox:
        """Games awaiting the caller (soonest deadline first), its reminders and invitations."""
        return cast(Inbox, self._call("GET", "/me/inbox"))

    def invitations(self) -> dict[str, list[dict[str, Any]]]:
        """The caller's invitations, ``{received, sent}``, pending ones first (``docs/api.md``)."""
        return cast(dict[str, list[dict[str, Any]]], self._call("GET", "/me/invitations"))

    def accept_invitation(self, invitation_id: str) -> GameDocument:
        """Takes the seat an invitation offers; answers the game. ``Conflict`` (``invitation_closed``)
        when it was answered already or its table has no seat left."""
        return cast(GameDocument, self._call("POST", f"/invitations/{invitation_id}/accept"))

    def decline_invitation(self, invitation_id: str, reason: str | None = None) -> dict[str, Any]:
        """Declines an invitation with one of the server's reasons (``generic`` when None:
        ``later``, ``too_fast``, ``too_slow``, ``time_control``, ``rated``, ``casual``, ``standard``,
        ``variant``, ``no_bot``, ``only_bot``); answers the invitation."""
        return cast(
            dict[str, Any], self._call("POST", f"/invitations/{invitation_id}/decline", _present(reason=reason))
        )

    def vacation(self) -> dict[str, Any]:
        """The caller's declared vacation days (clocks stop for them)."""
        return cast(dict[str, Any], self._call("GET", "/me/vacation"))

    def declare_vacation(self, start: date | str, days: int) -> dict[str, Any]:
        """Declares ``days`` of vacation from ``start``: the caller's clocks stop for them."""
        body = {"start": start.isoformat() if isinstance(start, date) else start, "days": days}
        return cast(dict[str, Any], self._call("POST", "/me/vacation", body))

    def set_webhook(self, url: str | None, events: list[str] | None = None) -> Player:
        """Where the account events of the ``events`` types are POSTed (the server's default,
        reminders, when None; ``url=None`` clears it); the answer's ``webhook_secret`` signs them."""
        body: dict[str, Any] = {"url": url} if events is None else {"url": url, "events": events}
        return cast(Player, self._call("PUT", "/me/webhook", body))

    # ------------------------------------------------------------ the server

    def catalog(self) -> list[dict[str, Any]]:
        """Every game: variants, seat ranges, options, bots, move shapes, event names."""
        return cast(list[dict[str, Any]], self._call("GET", "/catalog")["games"])

    def keys(self) -> list[dict[str, Any]]:
        """The public keys that sign this server's game records."""
        return cast(list[dict[str, Any]], self._call("GET", "/keys")["keys"])

    def health(self) -> dict[str, Any]:
        """The server's health (``/healthz``): ``ok`` or ``degraded``, with each check."""
        return cast(dict[str, Any], self._send("GET", "/healthz", prefix="").json())

    # ------------------------------------------------------------ streams

    def game_stream(self, game_id: str, after: int | None = None, **options: Any) -> Iterator[dict[str, Any]]:
        """The game's lines as the caller may see them (``dragonhall.streams.game_stream``)."""
        from dragonhall.streams import game_stream

        return game_stream(self, game_id, after, **options)

    def account_stream(self, after: int | None = None, **options: Any) -> Iterator[dict[str, Any]]:
        """The caller's account events (``dragonhall.streams.account_stream``)."""
        from dragonhall.streams import account_stream

        return account_stream(self, after, **options)


def _present(**values: Any) -> dict[str, Any]:
    """The values given: the server refuses a parameter it does not take, so absent ones are left out."""
    return {k: v for k, v in values.items() if v is not None}
