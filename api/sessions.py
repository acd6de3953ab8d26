"""A person's way in by name: sign in with a password or a recovery code, change the password,
make new recovery codes (``services.accounts.credentials``). Bots keep their tokens; these routes are
how the pages sign people in, open to any client that holds a name and a password."""

from __future__ import annotations

from typing import Any

from api import people_schemas
from api.auth import required_player
from api.context import current_platform
from api.parser import blueprint

blp = blueprint("sessions", "Sign in by name with a password or a recovery code; change the password.")


@blp.route("/sessions", methods=["POST"])
@blp.contract(auth="none", scope=None, rate_limit="register", errors=[401])
@blp.arguments(people_schemas.SignIn())
@blp.response(201, people_schemas.Session())
def sign_in(body: dict[str, Any]) -> dict[str, Any]:
    """Sign in with the account's name (as a person reads it: case and letters that look alike
    ignored) and its password: a new token of the account, shown once. 401 for a wrong name or
    password (one answer for both)."""
    player, token = current_platform().credentials.sign_in(body["name"], body["password"])
    return {**player.to_json(), "token": token}


@blp.route("/sessions/recovery", methods=["POST"])
@blp.contract(auth="none", scope=None, rate_limit="register", errors=[401])
@blp.arguments(people_schemas.Recovery())
@blp.response(201, people_schemas.Session())
def recover(body: dict[str, Any]) -> dict[str, Any]:
    """Sign in with one of the account's recovery codes, which is spent: a new token, shown once,
    and the codes left. Set a new password next (PUT /me/password). 401 for a wrong name, a
    wrong code or a code already used (one answer for all)."""
    credentials = current_platform().credentials
    player, token = credentials.recover(body["name"], body["code"])
    return {**player.to_json(), "token": token, "recovery_codes_left": credentials.codes_left(player.id)}


@blp.route("/me/password", methods=["PUT"])
@blp.contract(auth="required", scope="account")
@blp.arguments(people_schemas.PasswordChange())
@blp.response(204)
def set_password(body: dict[str, Any]) -> None:
    """Set or change your password (8 to 256 characters). A token with the account scope already
    controls the account, so the old password is not asked for: after a recovery code, this is
    how a person chooses a new one."""
    current_platform().credentials.set_password(required_player().id, body["password"])


@blp.route("/me/recovery-codes", methods=["POST"])
@blp.contract(auth="required", scope="account")
@blp.response(201, people_schemas.RecoveryCodes())
def new_recovery_codes() -> dict[str, Any]:
    """Ten new recovery codes, shown only in this response; your older codes stop working."""
    return {"recovery_codes": current_platform().credentials.new_recovery_codes(required_player().id)}
