"""Invitations (challenges), one flow for people and bots (``services.play.invitations``): the ones you
received and sent; accept (you are seated) or decline with a reason; and "play now"."""

from __future__ import annotations

from typing import Any

from api import game_schemas, people_schemas
from api.auth import required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("invitations", "Invitations to games: accept or decline them; or play now at an open table.")


@blp.route("/me/invitations", methods=["GET"])
@blp.contract(auth="required", scope="read")
@blp.response(200, people_schemas.InvitationList())
def my_invitations() -> dict[str, Any]:
    """The invitations you received (pending first) and sent, each saying who invites whom to what:
    the game, variant, options, seats, clock, rated or casual, and, once answered, the answer and
    its reason. Pending invitations also come on the account stream each time it connects."""
    p, me = current_platform(), required_player()
    return {"received": p.invitations.received(me.id), "sent": p.invitations.sent(me.id)}


@blp.route("/invitations/<invitation_id>", methods=["GET"])
@blp.contract(auth="required", scope="read", errors=[404])
@blp.response(200, people_schemas.Invitation())
def get_invitation(invitation_id: str) -> dict[str, Any]:
    """One invitation, to its invitee or its inviter (404 for anyone else)."""
    return current_platform().invitations.get(invitation_id, required_player().id)


@blp.route("/invitations/<invitation_id>/accept", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[404, 409])
@blp.response(200, game_schemas.GameDocument())
def accept(invitation_id: str) -> dict[str, Any]:
    """Accept an invitation: you take a seat at its table, which starts when its last seat fills;
    the inviter is told (``invitation_accepted``). 409 ``invitation_closed`` when it was answered
    already or its table has no seat for you any more."""
    p, me = current_platform(), required_player()
    return p.queries.from_game(p.seating.accept(invitation_id, me), me.id)


@blp.route("/invitations/<invitation_id>/decline", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[404, 409])
@blp.arguments(people_schemas.Decline())
@blp.response(200, people_schemas.Invitation())
def decline(body: dict[str, Any], invitation_id: str) -> dict[str, Any]:
    """Decline an invitation, with a reason (``generic`` when none is given); the inviter is told
    (``invitation_declined``, with the reason and its words)."""
    return current_platform().invitations.decline(invitation_id, required_player(), body["reason"])


@blp.route("/games/<game_id>/invitations", methods=["POST"])
@blp.contract(auth="required", scope="play", errors=[403, 404, 409])
@blp.arguments(game_schemas.InviteRequest())
@blp.response(201, people_schemas.Invitations())
def invite(body: dict[str, Any], game_id: str) -> dict[str, Any]:
    """Invite more players to a table you opened that has not started (another, when one declined):
    each is sent an invitation, and the free seats wait for the invitees, the first to accept
    taking them. Inviting someone already invited changes nothing; 409 for someone seated, someone
    who declined (a decline is final) or whose invitation closed, or a table with no free seat;
    403 for anyone but the table's creator."""
    p, me = current_platform(), required_player()
    return {"invitations": p.seating.invite(game_id, me.id, body["invite"])}


@blp.route("/play-now", methods=["POST"])
@blp.contract(auth="required", scope="play")
@blp.arguments(people_schemas.PlayNow())
@blp.response(200, game_schemas.GameDocument())
def play_now(body: dict[str, Any]) -> dict[str, Any]:
    """Take a seat at the open table of a game that has waited longest for players (public tables
    only: nobody invited, not a tournament's), or open one (the variant's fewest seats, no clock,
    rated) and sit there until someone else plays now."""
    p, me = current_platform(), required_player()
    return p.queries.from_game(p.seating.play_now(me, body["game"], body["variant"]), me.id)
