"""What a table not started says of its invitations, viewer by viewer: whom its free seats wait
for, the viewer's own invitation to answer there, the answers its creator reads, and what
starting early would leave unanswered.

Invitees' names are public at an open table (the game's creation names those invited then, and
a kept seat is a fact of the table as a taken one is); why someone declined is told to the
inviter only, as the inbox tells it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from api.context import current_platform
from domain.kernel.wording import listing


@dataclass(frozen=True)
class TableInvitations:
    """What a table's page says of its invitations (``invited``); a started table says nothing."""

    kept_for: list[str] = field(default_factory=list)
    invitation: dict[str, Any] | None = None
    you_declined: str = ""
    declined: list[dict[str, Any]] = field(default_factory=list)
    start_confirm: str = ""
    answers_awaited: bool = False
    invite_known: list[str] = field(default_factory=list)


def invited(doc: dict[str, Any], player_id: str | None) -> TableInvitations:
    """``kept_for``: the words of each free seat kept for invitees, in seat order; ``invitation``:
    the viewer's own, pending (its id, its inviter, whether a seat is surely theirs), or
    ``you_declined``: its inviter's name, once the viewer declined it;
    ``declined``: for the creator, who declined and why; ``start_confirm``: what starting now
    asks first while invitees have not answered; ``answers_awaited``: whether the creator's page
    waits for an invitee's answer (a decline redraws it; an acceptance is a seat taken, which the
    game's stream brings); ``invite_known``: the names the creator's invite form need
    not suggest (the seated, the invited)."""
    if doc["status"] not in ("open", "scheduled"):
        return TableInvitations()
    sent = current_platform().invitations.at_table(doc["id"])
    seated = {s["player_id"] for s in doc["seats"]}
    waiting = [i for i in sent if i["status"] == "pending" and i["who"]["id"] not in seated]
    mine = next((i for i in waiting if i["who"]["id"] == player_id), None)
    free = doc["planned_seats"] - len(doc["seats"])
    creator = player_id is not None and doc["creator"] == player_id
    return TableInvitations(
        kept_for=_kept_for(waiting, mine, free),
        invitation=mine and _answerable(mine, len(waiting) <= free),
        you_declined=next(
            (i["inviter"]["name"] for i in sent if i["status"] == "declined" and i["who"]["id"] == player_id), ""
        ),
        declined=[i for i in sent if i["status"] == "declined" and i["who"]["id"] not in seated] if creator else [],
        start_confirm=_start_confirm(waiting),
        answers_awaited=creator and bool(waiting),
        invite_known=[s["name"] for s in doc["seats"]] + [i["who"]["name"] for i in sent] if creator else [],
    )


def _answerable(mine: dict[str, Any], sure: bool) -> dict[str, Any]:
    """The viewer's own invitation: its id, its inviter, whether a seat is surely theirs."""
    return {"id": mine["invitation_id"], "inviter": mine["inviter"]["name"], "sure": sure}


def _kept_for(waiting: list[dict[str, Any]], mine: dict[str, Any] | None, free: int) -> list[str]:
    """Each invitee's own seat while there are seats enough; else every free seat waits for the
    first of them to accept."""
    if len(waiting) <= free:
        return ["kept for you" if i is mine else f"kept for {i['who']['name']}, who is invited" for i in waiting]
    names = listing(("you" if i is mine else i["who"]["name"] for i in waiting), last="or")
    return [f"kept for whichever of {names} accepts first"] * free


def _start_confirm(waiting: list[dict[str, Any]]) -> str:
    """Starting early closes the invitations not answered: the creator is asked first."""
    if not waiting:
        return ""
    verb = "has" if len(waiting) == 1 else "have"
    return f"Start now? {listing(i['who']['name'] for i in waiting)} {verb} not answered yet and will not play."
