"""What the API's routes and the web client's forms both do: open a table, register a person.

Both entry points call these, so neither imports the other's module (the forms once imported
route modules for them).
"""

from __future__ import annotations

from typing import Any

from api.context import current_platform
from services.accounts.credentials import check_password
from services.play.aggregate import Game


def open_table(creator: str, body: dict[str, Any]) -> Game:
    """A new game from a loaded ``GameCreate`` body (the API's and the web lobby's); the players
    it invites, named or by id, are found first, so a name that is nobody's opens nothing."""
    invited = current_platform().invitations.resolve(creator, body["invite"])
    settings = {"fill": body["fill"], "fill_bot": body["fill_bot"], "invite": invited, "rated": body["rated"]}
    return current_platform().games.create_game(
        creator,
        body["game"],
        body["variant"],
        body["options"],
        body["players"],
        time_control=body["time_control"],
        starts_at=body["starts_at"],
        settings=settings,
    )


def register_person(name: str, kind: str, password: str | None, token_name: str = "registration") -> dict[str, Any]:
    """Registers an account (with a password and recovery codes when one is given): the API's
    registration and the pages' sign-up. A password refused refuses the account: nothing is made."""
    p = current_platform()
    if password is not None:
        check_password(password)
    player, token = p.accounts.register(name, kind, token_name=token_name)
    body: dict[str, Any] = {**player.to_json(), "token": token}
    if password is not None:
        p.credentials.set_password(player.id, password)
        body["recovery_codes"] = p.credentials.new_recovery_codes(player.id)
    return body
