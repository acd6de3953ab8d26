"""Three ways to a seat: by hand, by accepting an invitation, and by "play now"; and the way out.

* **Taking a seat by hand** (``take``) leaves a seat for each invitee who has not answered (the
  ``UNIQUE (game_id, player_id)`` index of the invitations finds them).
* **Accepting an invitation** (``accept``) seats its invitee as taking a seat does (the game
  starts when its last seat fills); an invitation whose table has no seat left for them is
  closed, and says so.
* **Play now** (``play_now``) seats a person at the table of a game that has waited longest
  for players, or opens one and seats them there. Only public tables count: open, not
  scheduled, with nobody invited, outside tournaments and sandboxes, not already theirs. A
  table opened this way has the variant's fewest seats, no clock and is rated, and waits for
  the next person who plays now (or for its creator to add a server bot).
* **Inviting more** (``invite``): the creator of a table not started invites players after
  opening it (another, when one declined); the free seats wait for them as for those invited
  when it was opened.
* **Giving a seat up** (``leave``): before the game starts, a player leaves the table (a seat
  taken by mistake, a table nobody else came to), or its creator takes off a server bot it
  seated; the seat is free for the next comer. The creator closes the table rather than leave
  it, and a tournament's seat is given up by withdrawing (``services.play.table_seats``).
"""

from __future__ import annotations

from contextlib import suppress
from typing import Any

from domain.kernel import ConfigError, find_game
from services.accounts.player import Player
from services.common.errors import InvalidRequest, NotAcceptingMoves, SeatUnavailable
from services.common.ports import GameRows
from services.play.aggregate import Game
from services.play.games import GameService
from services.play.invitations import InvitationClosed, Invitations, invitation_id_of
from services.play.table_seats import invitees_to_add, seat_left, seat_to_give_up

CANDIDATES = 50
"""Open tables looked at, oldest first, before play now opens one."""


class Seating:
    """Accepts invitations and seats people who want to play now."""

    def __init__(self, games: GameService, invitations: Invitations, views: GameRows) -> None:
        self.games = games
        self.invitations = invitations
        self.views = views

    def take(self, game_id: str, player: Player, seat: int | None = None) -> Game:
        """Seats ``player`` by hand, in a seat nobody invited is waiting for: while invitees have
        not answered, a table keeps a seat for each (the lobby's promise). An invitee who takes a
        seat by hand has accepted, and their inviter is told so."""
        waiting = self.invitations.waiting(game_id)
        invited = player.id in waiting
        held = frozenset() if invited else waiting  # the invited take the kept seats
        game = self.games.take_seat(game_id, player.id, player.name, player.kind, seat, held=held)
        if invited:
            with suppress(InvitationClosed):  # answered meanwhile, as the seat was taken
                self.invitations.accepted(invitation_id_of(game_id, player.id))
        return game

    def leave(self, game_id: str, player_id: str, seat: int | None = None) -> Game:
        """``player_id`` gives up their seat (``seat``, else their last) at a table not started, or
        its creator takes off the server bot at ``seat``."""

        def give_up(game: Game) -> None:
            game.trigger_event(Game.SeatGivenUp, **seat_to_give_up(game, player_id, seat))

        return self.games.uow.change(game_id, give_up).game

    def invite(self, game_id: str, player_id: str, invited: list[str]) -> list[dict[str, Any]]:
        """The creator of a table not started invites more players or bot accounts (names or
        ids) after opening it (another, when one declined, say): as when it is opened, the free
        seats wait for the invitees, the first to accept taking them. Returns those invitations
        as the inviter reads them."""
        game = self.games.load(game_id)
        ids = self.invitations.resolve(player_id, invited)
        answered = {i["who"]["id"]: i["status"] for i in self.invitations.at_table(game_id)}
        named = {pid: self.invitations.name_of(pid) for pid in ids}
        self.invitations.send(game, invitees_to_add(game, player_id, named, answered))
        return [self.invitations.get(invitation_id_of(game_id, pid), player_id) for pid in ids]

    def offers_seat(self, game: dict[str, Any], player_id: str) -> bool:
        """Whether ``take`` would find a seat for ``player_id`` at the open table ``game`` (its
        document): what a page offers."""
        waiting = self.invitations.waiting(game["id"])
        if player_id in waiting:
            return True
        free = range(game["planned_seats"] - len(game["seats"]))
        return seat_left(waiting, [s["player_id"] for s in game["seats"]], free)

    def accept(self, invitation_id: str, player: Player) -> Game:
        """Seats the invitee at the invitation's table; ``InvitationClosed`` when it has no seat
        for them any more (full, started or ended)."""
        invitation = self.invitations.pending_for(invitation_id, player)
        try:
            game = self.games.take_seat(invitation["game_id"], player.id, player.name, player.kind)
        except (SeatUnavailable, NotAcceptingMoves) as e:
            self.invitations.closed(invitation_id)
            raise InvitationClosed(f"this table has no seat for you any more: {e.message}") from None
        self.invitations.accepted(invitation_id)
        return game

    def play_now(self, player: Player, game: str, variant: str | None = None) -> Game:
        """Seats ``player`` at the public table of ``game`` (of ``variant``, if named) that has
        waited longest, or opens one; ``InvalidRequest`` for a game or variant not in the catalog."""
        try:
            ruleset = find_game(game)
            chosen = ruleset.variant(variant)
        except ConfigError as e:
            raise InvalidRequest(e.message, field=e.field or "game") from None
        for row in self._open_tables(ruleset.slug, chosen.name if variant else None, player.id):
            if self.invitations.waiting(row["game_id"]):  # invited since it was opened: not public
                continue
            try:
                return self.games.take_seat(row["game_id"], player.id, player.name, player.kind)
            except (SeatUnavailable, NotAcceptingMoves):  # taken by someone faster: try the next
                continue
        table = self.games.create_game(
            player.id, ruleset.slug, chosen.name, None, chosen.min_seats,
            settings={"fill": "bot", "fill_bot": None, "invite": [], "rated": True, "play_now": True},
        )  # fmt: skip
        return self.games.take_seat(str(table.id), player.id, player.name, player.kind)

    def _open_tables(self, game: str, variant: str | None, player_id: str) -> list[dict[str, Any]]:
        rows = self.views.list_games(status="open", game=game, player=None, limit=CANDIDATES, offset=0)
        found = []
        for row in sorted(rows, key=lambda r: (r["created_at"], r["game_id"])):
            if variant is not None and row["variant"] != variant:
                continue
            if row["sandbox"] or any(s["player_id"] == player_id for s in row["seats"]):
                continue
            if len(row["seats"]) >= row["planned_seats"]:
                continue
            settings = self.games.load(row["game_id"]).settings
            if settings.get("invite") or settings.get("tournament"):
                continue
            found.append(row)
        return found
