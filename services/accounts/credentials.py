"""A person's way in: a name and a password, and recovery codes for when both cookie and password are gone.

Bots keep their bearer tokens (``services.accounts.players``); a person signs in with the name of
the account and its password, and each sign-in mints a token of its own for the browser's
session (``Accounts.open_session``), revoked again at sign-out.

* **Passwords** are hashed with Argon2id (``argon2-cffi``'s ``PasswordHasher``, with its
  defaults: RFC 9106's low-memory profile), the encoded hash holding its own salt and
  parameters; a hash made with older parameters is made again at the next sign-in.
* **Recovery codes**: ten, shown once when made (at sign-up, and again on request, which
  voids the older ones); each signs in once. A code is 16 characters from an alphabet of
  30 that leaves out letters people mix up (0/O, 1/I/L, U/V): about 78 bits of chance, so,
  as for tokens, a SHA-256 of it (under its account's id) is enough to store.

A wrong name, a wrong password and a used code all get the same answer, and a name that
does not exist costs the same time as a wrong password: the answer tells nothing of which.
"""

from __future__ import annotations

import hashlib
import secrets
from functools import cache

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from services.accounts.player import Player
from services.accounts.players import Accounts
from services.common import clock
from services.common.errors import InvalidRequest, NotAuthenticated
from services.common.sqlstore import SqlStore

TABLES = [
    """CREATE TABLE IF NOT EXISTS dh_passwords (
        player_id TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        updated_at TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS dh_recovery_codes (
        code_hash TEXT PRIMARY KEY,
        player_id TEXT NOT NULL,
        created_at TEXT NOT NULL,
        used_at TEXT
    )""",
    "CREATE INDEX IF NOT EXISTS dh_recovery_codes_player ON dh_recovery_codes (player_id)",
]
MIN_PASSWORD = 8
"""The shortest password (NIST SP 800-63B's floor for a password a person chose)."""
MAX_PASSWORD = 256
RECOVERY_CODES = 10
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTWXYZ23456789"
CODE_LENGTH = 16
WRONG = "the name or the password is wrong"
WRONG_CODE = "the name or the recovery code is wrong (each code works once)"


class Credentials:
    """Sets and checks passwords, makes and spends recovery codes, and signs people in."""

    def __init__(self, db: SqlStore, accounts: Accounts) -> None:
        self.db = db
        self.accounts = accounts
        self.db.script(TABLES)

    # ------------------------------------------------------------ passwords

    def set_password(self, player_id: str, password: str) -> None:
        """Sets (or replaces) the account's password; ``InvalidRequest`` for one too short or long."""
        check_password(password)
        self.db.execute(
            "INSERT INTO dh_passwords (player_id, hash, updated_at) VALUES (?, ?, ?) "
            "ON CONFLICT (player_id) DO UPDATE SET hash = excluded.hash, updated_at = excluded.updated_at",
            (player_id, _hasher().hash(password), clock.now().isoformat()),
        )

    def has_password(self, player_id: str) -> bool:
        return self.db.one("SELECT 1 AS x FROM dh_passwords WHERE player_id = ?", (player_id,)) is not None

    def sign_in(self, name: str, password: str) -> tuple[Player, str]:
        """The account named ``name`` and a new session token, if ``password`` is its password;
        ``NotAuthenticated`` otherwise (the same answer for an unknown name)."""
        player_id = self.accounts.names.find(name)
        row = self.db.one("SELECT hash FROM dh_passwords WHERE player_id = ?", (player_id or "",))
        stored = row["hash"] if row else _decoy()
        try:
            _hasher().verify(stored, password)
        except (VerificationError, InvalidHashError):
            raise NotAuthenticated(WRONG) from None
        if row is None or player_id is None:  # the decoy verified: the password was the decoy's
            raise NotAuthenticated(WRONG)
        if _hasher().check_needs_rehash(stored):
            self.set_password(player_id, password)
        return self.accounts.get(player_id), self.accounts.open_session(player_id)

    # ------------------------------------------------------------ recovery codes

    def new_recovery_codes(self, player_id: str) -> list[str]:
        """Ten new codes (returned once, stored hashed); the account's older codes stop working."""
        codes = [new_code() for _ in range(RECOVERY_CODES)]
        now = clock.now().isoformat()
        with self.db.tx() as t:
            t.execute("DELETE FROM dh_recovery_codes WHERE player_id = ?", (player_id,))
            for code in codes:
                t.execute(
                    "INSERT INTO dh_recovery_codes (code_hash, player_id, created_at) VALUES (?, ?, ?)",
                    (_code_hash(player_id, code), player_id, now),
                )
        return codes

    def codes_left(self, player_id: str) -> int:
        row = self.db.one(
            "SELECT COUNT(*) AS n FROM dh_recovery_codes WHERE player_id = ? AND used_at IS NULL", (player_id,)
        )
        return int(row["n"]) if row else 0

    def recover(self, name: str, code: str) -> tuple[Player, str]:
        """Signs in with a recovery code, which is spent; ``NotAuthenticated`` for a wrong name,
        a wrong code or a code already used."""
        player_id = self.accounts.names.find(name)
        if player_id is None:
            raise NotAuthenticated(WRONG_CODE)
        spent = self.db.execute(
            "UPDATE dh_recovery_codes SET used_at = ? WHERE code_hash = ? AND player_id = ? AND used_at IS NULL",
            (clock.now().isoformat(), _code_hash(player_id, code), player_id),
        )
        if not spent:
            raise NotAuthenticated(WRONG_CODE)
        return self.accounts.get(player_id), self.accounts.open_session(player_id)


def check_password(password: str) -> None:
    if len(password) < MIN_PASSWORD:
        raise InvalidRequest(f"a password has at least {MIN_PASSWORD} characters", field="password")
    if len(password) > MAX_PASSWORD:
        raise InvalidRequest(f"a password has at most {MAX_PASSWORD} characters", field="password")


def new_code() -> str:
    """A recovery code as shown: four groups of four (``ABCD-EFGH-JKMN-PQRS``)."""
    raw = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
    return "-".join(raw[i : i + 4] for i in range(0, CODE_LENGTH, 4))


def normal_code(code: str) -> str:
    """A code as typed, with its case, spaces and dashes ignored."""
    return "".join(ch for ch in code.upper() if ch.isalnum())


def _code_hash(player_id: str, code: str) -> str:
    return hashlib.sha256(f"{player_id}:{normal_code(code)}".encode()).hexdigest()


@cache
def _hasher() -> PasswordHasher:
    return PasswordHasher()


@cache
def _decoy() -> str:
    """A hash of a random password, verified against when the name is unknown (so that answer
    costs what a wrong password costs)."""
    return _hasher().hash(secrets.token_urlsafe(24))
