"""Each game's secret seed, and the generator a decision draws its chance from.

A game's seed is derived from the server's master key and the game's id
(HMAC-SHA256), so no seed is stored: the SHA-256 of the seed is published when the
game is created, and the seed itself is revealed when the game ends. Every
decision draws from ``Rng(seed, f"v{version}")``, the version the game stood at
before it, so an auditor re-derives every shuffle and roll from the record. A sandbox of an
ended game draws from that game's seed instead (``services.play.sandbox_chance``).
"""

from __future__ import annotations

import hashlib
import hmac
import uuid

from domain.kernel import Rng
from services.play import sandbox_chance
from services.play.aggregate import Game


class Seeds:
    """Derives seeds, and keeps those of recent games (every move asks for its game's)."""

    def __init__(self, secret_key: bytes, keep: int = 8000) -> None:
        self.secret_key = secret_key
        self._keep = keep
        self._known: dict[uuid.UUID, bytes] = {}

    def of(self, game_id: uuid.UUID) -> bytes:
        """The seed of ``game_id``."""
        seed = self._known.get(game_id)
        if seed is None:
            if len(self._known) > self._keep:
                self._known = {}
            seed = self._known[game_id] = hmac.new(
                self.secret_key, b"dragonhall-seed:" + game_id.bytes, hashlib.sha256
            ).digest()
        return seed

    def of_game(self, game: Game) -> bytes:
        """The seed ``game``'s chance draws from: its own, or for a sandbox of an ended game that
        game's (``services.play.sandbox_chance``)."""
        origin = sandbox_chance.seed_game(game.sandbox_of)
        return self.of(uuid.UUID(origin) if origin else game.id)

    def rng(self, game: Game, stream: str | None = None) -> Rng:
        """The generator of ``game``'s next decision (or of a named stream, such as ``setup``)."""
        return Rng(self.of_game(game), stream or sandbox_chance.label(game.version, game.sandbox_of))

    def revealed(self, game: Game) -> str:
        """The seed as the game's end reveals it."""
        return self.of_game(game).hex()
