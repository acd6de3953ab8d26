"""A person's way in over HTTP: a password chosen at registration, sign-in by name, recovery
codes that work once each, a new password after one; bots' tokens untouched."""

from __future__ import annotations

from typing import Any

PASSWORD = "correct horse battery"


def _register(client: Any, name: str, password: str = PASSWORD) -> dict[str, Any]:
    r = client.call("POST", "/api/v1/players", {"name": name, "password": password})
    assert r.status == 201, r.body
    return dict(r.body)


def test_registering_with_a_password_gives_ten_codes_and_the_token_as_before(client: Any) -> None:
    ann = _register(client, "Ann")
    assert len(ann["recovery_codes"]) == 10 and len(set(ann["recovery_codes"])) == 10
    assert client.call("GET", "/api/v1/me", token=ann["token"]).body["name"] == "Ann"
    bot = client.call("POST", "/api/v1/players", {"name": "Rusty", "kind": "bot"}).body
    assert "recovery_codes" not in bot and bot["token"].startswith("dh_")


def test_signing_in_by_name_ignores_case_and_makes_a_new_token(client: Any) -> None:
    ann = _register(client, "Ann")
    r = client.call("POST", "/api/v1/sessions", {"name": "aNN", "password": PASSWORD})
    assert r.status == 201 and r.body["id"] == ann["id"] and r.body["token"] != ann["token"]
    assert client.call("GET", "/api/v1/me", token=r.body["token"]).status == 200


def test_a_wrong_password_and_an_unknown_name_get_one_answer(client: Any) -> None:
    _register(client, "Ann")
    wrong = client.call("POST", "/api/v1/sessions", {"name": "Ann", "password": "not it at all"})
    nobody = client.call("POST", "/api/v1/sessions", {"name": "Nobody", "password": PASSWORD})
    assert wrong.status == nobody.status == 401
    assert wrong.body == nobody.body


def test_an_account_made_without_a_password_cannot_sign_in_by_name(client: Any) -> None:
    client.player("Bruno")
    assert client.call("POST", "/api/v1/sessions", {"name": "Bruno", "password": PASSWORD}).status == 401


def test_a_short_password_is_refused_in_words_and_no_account_is_made(client: Any) -> None:
    r = client.call("POST", "/api/v1/players", {"name": "Ann", "password": "short"})
    assert r.status == 400 and r.body["error"]["fields"]["password"] == ["a password has 8 to 256 characters"]
    assert client.call("POST", "/api/v1/players", {"name": "Ann"}).status == 201  # the name was not taken


def test_a_recovery_code_signs_in_once_then_a_new_password_works(client: Any) -> None:
    ann = _register(client, "Ann")
    code = ann["recovery_codes"][3]
    back = client.call("POST", "/api/v1/sessions/recovery", {"name": "ann", "code": code.lower().replace("-", " ")})
    assert back.status == 201 and back.body["recovery_codes_left"] == 9
    again = client.call("POST", "/api/v1/sessions/recovery", {"name": "Ann", "code": code})
    assert again.status == 401
    other = client.call("POST", "/api/v1/sessions/recovery", {"name": "Ann", "code": "AAAA-BBBB-CCCC-DDDD"})
    assert other.status == 401
    assert client.call("PUT", "/api/v1/me/password", {"password": "a brand new one"}, back.body["token"]).status == 204
    assert client.call("POST", "/api/v1/sessions", {"name": "Ann", "password": PASSWORD}).status == 401
    assert client.call("POST", "/api/v1/sessions", {"name": "Ann", "password": "a brand new one"}).status == 201


def test_another_accounts_code_does_not_open_this_one(client: Any) -> None:
    ann, bea = _register(client, "Ann"), _register(client, "Bea")
    r = client.call("POST", "/api/v1/sessions/recovery", {"name": "Ann", "code": bea["recovery_codes"][0]})
    assert r.status == 401
    assert (
        client.call("POST", "/api/v1/sessions/recovery", {"name": "Bea", "code": bea["recovery_codes"][0]}).status
        == 201
    )
    assert ann["id"] != bea["id"]


def test_new_recovery_codes_void_the_old_ones(client: Any) -> None:
    ann = _register(client, "Ann")
    fresh = client.call("POST", "/api/v1/me/recovery-codes", None, ann["token"]).body["recovery_codes"]
    old = client.call("POST", "/api/v1/sessions/recovery", {"name": "Ann", "code": ann["recovery_codes"][0]})
    assert old.status == 401
    assert client.call("POST", "/api/v1/sessions/recovery", {"name": "Ann", "code": fresh[0]}).status == 201


def test_passwords_and_codes_are_stored_only_hashed(client: Any) -> None:
    ann = _register(client, "Ann")
    stored = str(client.platform.db.query("SELECT * FROM dh_passwords")) + str(
        client.platform.db.query("SELECT * FROM dh_recovery_codes")
    )
    assert PASSWORD not in stored and "$argon2id$" in stored
    assert not any(code.replace("-", "") in stored or code in stored for code in ann["recovery_codes"])


def test_a_name_in_another_case_or_with_a_lookalike_letter_is_taken(client: Any) -> None:
    _register(client, "Bruno")
    for twin in ("bruno", "BRUNO", "Вruno"):
        r = client.call("POST", "/api/v1/players", {"name": twin})
        assert r.status == 409 and r.body["error"]["code"] == "name_taken", twin
