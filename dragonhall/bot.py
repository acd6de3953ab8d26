"""Bots over the client: a strategy chooses a move, a ``BotRunner`` plays every game that awaits the account.

A strategy is any function ``(view, legal_moves, game) -> move``: the seat's view (the board as its
seat sees it), every move it may play now, and the whole game document, with ``game["seat"]`` the
seat to play; it returns one of the moves (a move of its own making is sent as is, and the server
judges it).

    from dragonhall import BotRunner, Client

    def first(view, legal_moves, game):
        return legal_moves[0]

    BotRunner(Client(server, token), first).run()          # every game that awaits this token, until stopped

``AdviceStrategy("greedy")`` plays as the server's built-in bot of that name: it asks the server
(``GET /games/{id}/advice``) for the move that bot would play for the seat, deciding on what the seat
may know. A strategy with a ``client`` attribute left ``None`` is given the runner's client.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import random
import re
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dragonhall import errors
from dragonhall.client import Client
from dragonhall.invitations import InvitationRules
from dragonhall.streams import Line
from dragonhall.types import GameDocument, LegalMoves, Move

Strategy = Callable[[dict[str, Any], list[Move], GameDocument], Move]
BOT_NAME = re.compile(r"[a-z][a-z0-9_-]{0,63}")
"""How the server's bots are named (``GET /catalog`` lists each game's)."""
STARTING = ("awaiting", "your_turn", "game_started")
"""Account lines that name a game to play."""
ATTEMPTS = 3
"""Moves tried for one decision: the strategy's, then after each refusal one chosen again."""

log = logging.getLogger("dragonhall.bot")


class Stopped(Exception):
    """Raised inside a stream's idle hook to stop following it."""


class RandomStrategy:
    """Uniform over the legal moves; ``seed`` makes it repeatable."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: dict[str, Any], legal_moves: list[Move], game: GameDocument) -> Move:
        return self.rng.choice(legal_moves)


class AdviceStrategy:
    """Plays as one of the server's built-in bots (``bot``; each game's default bot when None): asks the
    server which move that bot would play for the seat (``Client.advice``). The bot decides on the seat's
    observation, so it plays as it would in a seat of its own. ``seed`` makes each answer repeatable;
    ``client`` is the runner's when left None."""

    def __init__(self, bot: str | None = None, client: Client | None = None, seed: int | None = None) -> None:
        self.bot = bot
        self.client = client
        self.seed = seed

    def __call__(self, view: dict[str, Any], legal_moves: list[Move], game: GameDocument) -> Move:
        if self.client is None:
            raise ValueError("an AdviceStrategy needs a client: give one, or play it with a BotRunner")
        return self.client.advice(game["id"], self.bot, game.get("seat"), self.seed)["move"]

    def __repr__(self) -> str:
        return f"AdviceStrategy({self.bot or 'default'!r})"


def load_strategy(spec: str) -> Strategy:
    """``random`` (uniform, in the client), a built-in bot's name (``greedy``, ``planner``...: the server's
    bot of that name, through ``AdviceStrategy``; ``default``: each game's default bot), or
    ``module:function`` (``package.module:choose``, or ``path/to/file.py:choose``)."""
    if spec == "random":
        return RandomStrategy()
    if ":" not in spec:
        if not BOT_NAME.fullmatch(spec):
            raise ValueError(
                f"a strategy is 'random', a built-in bot's name (greedy, planner..., or 'default'), or "
                f"'module:function', not {spec!r}"
            )
        return AdviceStrategy(None if spec == "default" else spec)
    module_name, _, name = spec.partition(":")
    if not name:
        raise ValueError(f"a strategy is 'random', a built-in bot's name or 'module:function', not {spec!r}")
    if module_name.endswith(".py"):
        location = importlib.util.spec_from_file_location(Path(module_name).stem, module_name)
        if location is None or location.loader is None:
            raise ValueError(f"cannot load {module_name}")
        module = importlib.util.module_from_spec(location)
        location.loader.exec_module(module)
    else:
        module = importlib.import_module(module_name)
    strategy = getattr(module, name, None)
    if not callable(strategy):
        raise ValueError(f"{module_name} has no function {name!r}")
    return strategy


class GamePlayer:
    """Plays the caller's seats in one game, from its stream, until it ends."""

    def __init__(self, client: Client, strategy: Strategy, stop: threading.Event | None = None) -> None:
        self.client = client
        self.strategy = strategy
        self.stop = stop or threading.Event()
        self.moves = 0
        self.played: set[tuple[int, int]] = set()
        """The (seat, version) decisions made."""
        if getattr(strategy, "client", False) is None:
            strategy.client = client  # type: ignore[attr-defined]

    def play(self, game_id: str) -> GameDocument | None:
        """The game as it ended (None when stopped before)."""
        game: GameDocument | None = None
        for line in self.client.game_stream(game_id, idle=self._idle):
            if self.stop.is_set():
                return None
            game = line["game"] if line["type"] == "game" else _updated(game, line)
            legal = line.get("legal_moves")
            if legal and legal["moves"] and legal["version"] == line["version"]:
                self._decide(game_id, line, legal)
        return self.client.game(game_id) if game is not None else None

    def _idle(self) -> None:
        if self.stop.is_set():
            raise Stopped

    def _decide(self, game_id: str, line: Line, legal: LegalMoves) -> None:
        """Chooses and sends the seat's move; a refusal is answered by reading the game again:
        409 ``stale_version`` (the game moved on: a simultaneous phase's other seat, a timeout) by
        choosing again at the new version, 400 and 422 (a move of the strategy's own making that the
        server cannot read or the rules refuse) by a random move of the list read again."""
        seat, version = legal["seat"], legal["version"]
        game = line["game"] if line["type"] == "game" else self.client.game(game_id, seat)
        if game["version"] != version or (seat, version) in self.played:
            return  # the game moved on (the stream brings what happened), or this decision was made
        fallback = False
        for _ in range(ATTEMPTS):
            moves = self._all(game_id, seat, legal)
            try:
                move = (
                    random.choice(moves)
                    if fallback
                    else self.strategy(game.get("view") or {}, moves, {**game, "seat": seat})
                )
            except errors.Conflict as late:  # an adviser heard that the game moved on
                log.info("game %s: no move chosen at version %s: %s", game_id, version, late.code)
                return
            refused = self._send(game_id, move, seat, version, f"s{seat}v{version}{'r' if fallback else ''}")
            if refused is None or (isinstance(refused, errors.Conflict) and refused.code != "stale_version"):
                return
            fallback = not isinstance(refused, errors.Conflict)
            if fallback:
                log.warning(
                    "game %s: move at version %s refused (%s); reading the game again", game_id, version, refused
                )
            else:  # a simultaneous phase's other seat, or a timeout, moved first: part of the game
                log.info(
                    "game %s: the game moved on from version %s (stale_version); reading it again", game_id, version
                )
            legal = self.client.legal_moves(game_id, seat)
            if not legal["moves"] or (seat, legal["version"]) in self.played:
                return  # the seat is not awaited now: the stream brings what happened
            version = legal["version"]
            game = self.client.game(game_id, seat)

    def _all(self, game_id: str, seat: int, legal: LegalMoves) -> list[Move]:
        if legal["total"] > len(legal["moves"]):
            return self.client.all_legal_moves(game_id, seat, first=legal)["moves"]
        return legal["moves"]

    def _send(
        self, game_id: str, move: Move, seat: int, version: int, command_id: str
    ) -> errors.DragonhallError | None:
        """Sends the move; the refusal (400, 409 or 422), or None when it was played."""
        try:
            self.client.move(game_id, move, expected_version=version, command_id=command_id, seat=seat)
        except (errors.BadRequest, errors.Conflict, errors.RuleViolation) as refused:
            if isinstance(refused, errors.Conflict) and refused.code != "stale_version":
                log.info("game %s: move at version %s not played: %s", game_id, version, refused.code)
            return refused
        self.moves += 1
        self.played.add((seat, version))
        return None


def _updated(game: GameDocument | None, line: Line) -> GameDocument:
    """The game document as an ``events`` line changes it (all but the view, which needs a read)."""
    known: dict[str, Any] = dict(game or {})
    known.update({k: line[k] for k in ("version", "status", "awaiting", "clocks") if k in line})
    return known  # type: ignore[return-value]


class BotRunner:
    """Plays every game that awaits the account (one thread per game), from the account stream, or
    one game with ``run(game_id)``; ``stop()`` ends it (from a signal handler or another thread).

    With ``invitations`` (``InvitationRules``), it answers each pending invitation the account
    stream brings (once, though the stream repeats it on each connect): accepts it and plays its
    game, or declines it with the reason the rules give. Without, invitations are left pending.
    A move the server refuses is handled by ``GamePlayer``: it reads the game again and says so in
    the ``dragonhall.bot`` log (409 ``stale_version``: chooses again; 400, 422: a random legal move)."""

    def __init__(self, client: Client, strategy: Strategy, invitations: InvitationRules | None = None) -> None:
        self.client = client
        self.strategy = strategy
        self.invitations = invitations
        """The rules invitations are answered by; None leaves them unanswered (``dragonhall.invitations``)."""
        self._answered: set[str] = set()
        self.stopping = threading.Event()
        self.finished: dict[str, GameDocument] = {}
        self.failed: dict[str, Exception] = {}
        """The games the bot stopped playing before they ended, with why (logged too)."""
        self._playing: dict[str, threading.Thread] = {}
        self._lock = threading.Lock()

    def run(self, game_id: str | None = None) -> None:
        """Until stopped; with ``game_id``, until that game ends."""
        if game_id is not None:
            self._play(game_id)
            return
        try:
            for line in self.client.account_stream(idle=self._idle):
                if self.stopping.is_set():
                    break
                if line.get("type") in STARTING and line.get("game_id"):
                    self._start(line["game_id"])
                elif line.get("type") == "invitation" and self.invitations is not None:
                    self._answer(line)
        except Stopped:
            pass
        finally:
            self.stop()

    def stop(self, timeout: float = 10.0) -> None:
        """Stops following the streams; each game's thread ends at its next line or keep-alive."""
        self.stopping.set()
        with self._lock:
            threads = list(self._playing.values())
        for thread in threads:
            thread.join(timeout)

    def _idle(self) -> None:
        if self.stopping.is_set():
            raise Stopped

    def _answer(self, invitation: Line) -> None:
        """Accepts the invitation (and plays its game) or declines it with the reason the rules give."""
        invitation_id = str(invitation.get("invitation_id"))
        if invitation_id in self._answered or invitation.get("status", "pending") != "pending":
            return  # the account stream sends a pending invitation again on each connect
        self._answered.add(invitation_id)
        assert self.invitations is not None
        accept, reason = self.invitations.answer(invitation)
        inviter = (invitation.get("inviter") or {}).get("name")
        what = f"{invitation.get('game')} ({invitation.get('variant')}) from {inviter}"
        try:
            if accept:
                game = self.client.accept_invitation(invitation_id)
                log.info("accepted the invitation to %s: game %s", what, game["id"])
                self._start(game["id"])
            else:
                self.client.decline_invitation(invitation_id, reason)
                log.info("declined the invitation to %s: %s", what, reason)
        except errors.Conflict as closed:
            log.info("the invitation to %s is closed: %s", what, closed.code)

    def _start(self, game_id: str) -> None:
        with self._lock:
            if game_id in self._playing or game_id in self.finished:  # a late line about a game played out
                return
            thread = threading.Thread(target=self._play, args=(game_id,), name=f"game-{game_id[:8]}", daemon=True)
            self._playing[game_id] = thread
        thread.start()

    def _play(self, game_id: str) -> None:
        log.info("playing game %s", game_id)
        player = GamePlayer(self.client, self.strategy, self.stopping)
        try:
            ended = player.play(game_id)
        except Stopped:
            ended = None
        except Exception as e:
            log.exception("game %s: the bot stopped playing it", game_id)
            self.failed[game_id] = e
            ended = None
        with self._lock:
            self._playing.pop(game_id, None)
            if ended is not None:
                self.finished[game_id] = ended
        if ended is not None:
            log.info("game %s %s after %d moves: %s", game_id, ended["status"], player.moves, ended.get("outcome"))
