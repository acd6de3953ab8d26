"""The write side's use cases, on top of the unit of work.

Each use case reads like the others: the unit of work loads the game under its
lock (``services.play.unit_of_work``), the use case checks who may do what, asks the
game's decider, records what it returned on the aggregate, and the unit of work
saves it (loading again and asking once more if another writer saved first). No
use case names a particular game.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import datetime
from typing import Any

from domain.kernel import (
    Command,
    ConfigError,
    GameConfig,
    RuleError,
    Ruleset,
    find_game,
    seed_commitment,
)
from services.accounts.players import server_bot_id
from services.common import clock
from services.common.date_rules import check_moment
from services.common.errors import (
    CommandReused,
    GameNotFound,
    InvalidRequest,
    NotAcceptingMoves,
    NotCreator,
    NotInvited,
    SeatUnavailable,
    ServiceError,
    StaleVersion,
)
from services.deadlines import timed_cases
from services.play.aggregate import Game
from services.play.game_reads import ACTS, GameReads
from services.play.invitations import Invitations
from services.play.journal import Journal
from services.play.results import decision_result, move_result
from services.play.seeds import Seeds
from services.play.table_seats import acting_seat, awaits, free_seat, seat_left
from services.play.unit_of_work import GameUnitOfWork


class GameService(GameReads):
    """Creating, seating, starting and playing games; the time-driven cases are at the end."""

    def __init__(
        self,
        uow: GameUnitOfWork,
        seeds: Seeds,
        journal: Journal | None = None,
        invitations: Invitations | None = None,
        confirm_caller: Callable[[], None] = lambda: None,
    ) -> None:
        """``confirm_caller``: checks the caller's token where no save has checked it yet
        (``Accounts.confirm``), before a refused move is journaled: a revoked token's move writes
        nothing, not even its refusal."""
        self.uow = uow
        self.seeds = seeds
        self.journal = journal
        self.invitations = invitations
        self.confirm_caller = confirm_caller

    # ------------------------------------------------------------ tables

    def create_game(
        self,
        creator: str,
        game: str,
        variant: str | None,
        options: dict[str, Any] | None,
        players: int,
        time_control: dict[str, Any] | None = None,
        starts_at: datetime | None = None,
        settings: dict[str, Any] | None = None,
        game_id: uuid.UUID | None = None,
    ) -> Game:
        """Opens a table for ``players`` seats; it starts when the last seat fills."""
        ruleset, config = _configured(game, variant, options, players)
        if starts_at is not None:
            check_moment("starts_at", starts_at, clock.now())
        table = self._new_table(game_id or uuid.uuid4(), ruleset, config, creator, time_control, starts_at, settings)
        self.uow.add(table)
        if self.invitations is not None:
            self.invitations.send(table)
        return table

    def _new_table(
        self,
        game_id: uuid.UUID,
        ruleset: Ruleset[Any],
        config: GameConfig,
        creator: str,
        time_control: dict[str, Any] | None,
        starts_at: datetime | None,
        settings: dict[str, Any] | None,
    ) -> Game:
        """The ``Created`` game: its rules' configuration, its clock, its settings, and the
        commitment to its secret seed."""
        return Game._create(
            Game.Created,
            id=game_id,
            game=ruleset.slug,
            variant=config.variant,
            options=ruleset.options_json(config),
            seats=config.seats,
            creator=creator,
            time_control=dict(time_control or {"kind": "none"}),
            starts_at=starts_at.isoformat() if starts_at else None,
            seed_commitment=seed_commitment(self.seeds.of(game_id)),
            engine=ruleset.engine_version,
            settings=dict(settings or {}),
            sandbox_of=None,
        )

    def take_seat(
        self,
        game_id: str,
        player_id: str,
        name: str,
        kind: str,
        seat: int | None = None,
        bot: str | None = None,
        held: frozenset[str] = frozenset(),
    ) -> Game:
        """Seats a player (or a server bot); starts the game when it is full. A running game
        takes a newcomer where its rules allow it. ``held``: players invited who have not
        answered; a seat is kept for each of them not seated yet (the creator's own seat aside)."""

        def sit(game: Game) -> None:
            if game.status == "active" and bot is None and game.ruleset.can_join(game.state):
                return self._join(game, player_id, name, kind)
            if player_id != game.creator and not seat_left(
                held, [s["player_id"] for s in game.seats], game.free_seats()
            ):
                raise SeatUnavailable("the free seats of this table are kept for the players invited to it")
            taken = free_seat(game, seat)
            if bot is not None and bot not in game.ruleset.bots:
                raise InvalidRequest(f"unknown bot {bot!r} for {game.game}", field="bot")
            game.trigger_event(Game.SeatTaken, seat=taken, player_id=player_id, name=name, kind=kind, bot=bot)
            if not game.free_seats() and game.status == "open":
                self._start(game)
            return None

        return self.uow.change(game_id, sit).game

    def add_bot(self, game_id: str, player_id: str, bot: str, seat: int | None = None) -> Game:
        """The creator seats a server bot."""
        if self.load(game_id).creator != player_id:
            raise NotCreator("only the game's creator may add a server bot")
        return self.take_seat(game_id, server_bot_id(bot), f"{bot} bot", "bot", seat, bot=bot)

    def _join(self, game: Game, player_id: str, name: str, kind: str) -> None:
        """A newcomer takes the next seat of a running game: the creator, or a player the
        creator invited (a stranger who joined could read the journal and open disputes)."""
        if game.seats_of(player_id):
            raise SeatUnavailable(f"you already hold a seat in game {game.id}")
        if player_id != game.creator and player_id not in game.settings.get("invite", []):
            raise NotInvited(f"game {game.id} is running: only its creator and the players it invited may join it")
        newcomer = {"seat": len(game.seats), "player_id": player_id, "name": name, "kind": kind, "bot": None}
        game.record(Game.Joined, newcomer, game.ruleset.join(game.state, self.seeds.rng(game)))
        game.finish_if_over(self.seeds.revealed(game))

    def start(self, game_id: str, player_id: str) -> Game:
        """The creator starts a game early, with the seats taken so far."""

        def begin(game: Game) -> None:
            if game.creator != player_id:
                raise NotCreator("only the game's creator may start it early")
            self._start_now(game)

        return self.uow.change(game_id, begin).game

    def close(self, game_id: str, player_id: str) -> Game:
        """The creator closes a table that has not started (a table opened by mistake, or nobody
        came): the game ends abandoned, nobody ranks, and its invitations read closed."""

        def shut(game: Game) -> None:
            if game.creator != player_id:
                raise NotCreator("only the table's creator may close it")
            if game.status not in ("open", "scheduled"):
                raise NotAcceptingMoves(f"game {game.id} is {game.status}: only a table not started can be closed")
            if game.settings.get("tournament"):
                raise NotAcceptingMoves("a tournament's table is the tournament's: its organiser may cancel that")
            game.trigger_event(Game.Abandoned, reason="its creator closed the table", seed=self.seeds.revealed(game))

        return self.uow.change(game_id, shut).game

    def _start_now(self, game: Game) -> None:
        if game.status not in ("open", "scheduled"):
            raise NotAcceptingMoves(f"game {game.id} is {game.status}; it cannot be started")
        variant = game.ruleset.variant(game.variant)
        if not variant.min_seats <= len(game.seats) <= variant.max_seats:
            raise SeatUnavailable(
                f"{game.ruleset.title} needs {variant.min_seats} to {variant.max_seats} seated players "
                f"to start; {len(game.seats)} {'is' if len(game.seats) == 1 else 'are'} seated"
            )
        self._start(game)

    def _start(self, game: Game) -> None:
        """Records ``Started`` with the seats renumbered 0..n-1, then the opening events."""
        seats = [{**s, "seat": i} for i, s in enumerate(sorted(game.seats, key=lambda s: s["seat"]))]
        game.trigger_event(Game.Started, seats=seats)
        game.record(None, {}, game.ruleset.setup(game.state, self.seeds.rng(game, "setup")))
        game.finish_if_over(self.seeds.revealed(game))

    # ------------------------------------------------------------ decisions

    def submit_move(
        self,
        game_id: str,
        player_id: str,
        move: Any,
        expected_version: int | None = None,
        command_id: str | None = None,
        seat: int | None = None,
    ) -> dict[str, Any]:
        """Plays ``move`` for the caller's awaited seat; returns the new version and events.
        Repeating a ``command_id`` returns the first result and writes nothing. A refused
        move writes no event; it is entered in the journal of refusals."""

        def play(game: Game) -> dict[str, Any] | None:
            if (first := self._first_result(game, player_id, command_id, move)) is not None:
                return first
            _check_version(game, expected_version)
            acting = acting_seat(game, player_id, seat)
            self._record_move(game, acting, player_id, game.ruleset.parse_move(move), command_id)
            return None

        with self._refusals_journaled(game_id, player_id, seat, move):
            done = self.uow.change(game_id, play, cached_first=True)
        return done.value or move_result(done.game, done.events, self.viewer(done.game, player_id))

    def _first_result(self, game: Game, player_id: str, command_id: str | None, move: Any) -> dict[str, Any] | None:
        """The first result of a command whose ``command_id`` was already recorded, if it was."""
        if command_id is None or (done := _done(game, player_id, command_id, move)) is None:
            return None
        return decision_result(self.store, game, done, self.viewer(game, player_id))

    def _record_move(self, game: Game, seat: int, player_id: str, command: Command, command_id: str | None) -> None:
        events = game.ruleset.decide(game.state, seat, command, self.seeds.rng(game))
        made = {"seat": seat, "player_id": player_id, "move": game.ruleset.commands.dump(command),
                "command_id": command_id}  # fmt: skip
        game.record(Game.MoveMade, made, events)
        game.finish_if_over(self.seeds.revealed(game))

    @contextmanager
    def _refusals_journaled(self, game_id: str, player_id: str, seat: int | None, move: Any) -> Iterator[None]:
        """Journals the move refused inside (``_journal_refusal``), and lets the refusal through."""
        try:
            yield
        except (RuleError, ServiceError) as e:
            self._journal_refusal(game_id, player_id, seat, move, e)
            raise

    def _journal_refusal(self, game_id: str, player_id: str, seat: int | None, move: Any, error: Exception) -> None:
        """Journals a refused move of a player seated in the game, under a seat they hold
        (the one they named, else their awaited one): an outsider's request is no entry."""
        if self.journal is None or isinstance(error, GameNotFound):
            return
        self.confirm_caller()
        game = self.load(game_id)
        mine = game.seats_of(player_id)
        if seat not in mine:
            seat = next((s for s in mine if s in game.awaiting), mine[0] if mine else None)
        if seat is not None:
            self.journal.refused(str(game.id), player_id, seat, game.version, move, error)

    def resign(self, game_id: str, player_id: str, seat: int | None = None) -> dict[str, Any]:
        """The caller's seat leaves the game; the others play on if the rules allow."""

        def leave(game: Game) -> None:
            acting = acting_seat(game, player_id, seat)
            events = game.ruleset.leave(game.state, acting, self.seeds.rng(game))
            game.record(Game.Resigned, {"seat": acting, "player_id": player_id}, events)
            game.finish_if_over(self.seeds.revealed(game))

        done = self.uow.change(game_id, leave)
        return move_result(done.game, done.events, self.viewer(done.game, player_id))

    def play_for(
        self,
        game_id: str,
        seat: int,
        version: int,
        choose: Callable[[Game], Command],
        before_save: Callable[[], object] | None = None,
    ) -> bool:
        """Plays ``seat``'s decision that was pending at ``version`` with ``choose(game) -> command``
        (a bot), if the seat is still awaited and has not acted since: a task that another seat's
        move overtook (simultaneous turns) still plays, on the game as it is now; a late or
        duplicate task writes nothing. The bot chooses outside the game's lock; under it, the
        game must still be where the bot saw it, else it chooses again. ``before_save`` runs
        under the lock just before the move is saved (``workers.bot_claims``)."""
        for _ in range(CHOICES):
            game = self.load(game_id)
            if not self._still_pending(game, seat, version):
                return False
            played = self._play_if_unmoved(game_id, seat, game.version, choose(game), before_save)
            if played is not None:
                return played
        return False

    def _play_if_unmoved(
        self, game_id: str, seat: int, seen: int, command: Command, before_save: Callable[[], object] | None
    ) -> bool | None:
        """Under the game's lock, records ``command`` for ``seat`` if the game is still at
        ``seen``, the version the bot chose on: True; None if it has moved on since."""

        def play(game: Game) -> bool | None:
            if game.version != seen:
                return None  # moved on while the bot chose: choose again on the new game
            if before_save is not None:
                before_save()
            self._record_move(game, seat, game.holder(seat), command, None)
            return True

        return self.uow.change(game_id, play).value

    def _still_pending(self, game: Game, seat: int, version: int) -> bool:
        """Whether the decision ``seat`` was awaited for at ``version`` is still to be made."""
        if game.version < version or not awaits(game, seat, game.version):
            return False
        if game.version == version:
            return True
        since = self.store.stored_events(game.id, after=version)
        return not any(isinstance(e, ACTS) and e.seat == seat for e in since)

    # ------------------------------------------------------------ time-driven cases

    def time_out(
        self, game_id: str, seat: int, version: int, deadline: datetime, bot: Callable[[Game], Command]
    ) -> bool:
        """Records one ``TurnTimedOut`` for ``seat``'s missed deadline, then every further
        decision its turn holds as its policy plays it (``services.deadlines.timed_cases``), if the game
        is still at ``version``. The bot thinks on a private copy, outside the lock."""
        game = self.load(game_id)
        if not awaits(game, seat, version):
            return False
        timed_cases.play_out_turn(game, seat, deadline, bot, self.seeds)
        return self.uow.save_if_at(game, version)

    def start_scheduled(self, game_id: str, now: datetime) -> bool:
        """At its time, a scheduled game fills its empty seats with bots (or is cancelled) and
        starts. A start that another process made first writes nothing and returns False."""

        def begin(game: Game) -> bool:
            if game.status != "scheduled" or not game.starts_at or datetime.fromisoformat(game.starts_at) > now:
                return False
            if timed_cases.fill_or_cancel(game, self.seeds):
                self._start_now(game)
            return True

        return self.uow.change(game_id, begin).value


CHOICES = 5
"""Times a bot task chooses again when other seats keep moving while it thinks."""


def _configured(
    game: str, variant: str | None, options: dict[str, Any] | None, players: int
) -> tuple[Ruleset[Any], GameConfig]:
    """The game's rules and its checked configuration; one that does not hold is an
    ``InvalidRequest`` naming the field at fault."""
    try:
        ruleset = find_game(game)
        return ruleset, ruleset.configure(variant, options, players)
    except ConfigError as e:
        raise InvalidRequest(e.message, field=e.field) from None


def _check_version(game: Game, expected_version: int | None) -> None:
    """Refuses a move sent for another version than the game's (``StaleVersion``), if it names one."""
    if expected_version is not None and expected_version != game.version:
        raise StaleVersion(
            f"expected version {expected_version}, but game {game.id} is at version {game.version}",
            current_version=game.version,
        )


def _done(game: Game, player_id: str, command_id: str, move: Any) -> int | None:
    """The version a command with this id was recorded at, if it was (and with this move)."""
    done = game.commands.get(f"{player_id}:{command_id}")
    if done is None:
        return None
    if done["move"] != move:
        raise CommandReused(f"command_id {command_id!r} was already used for another move")
    return int(done["version"])


__all__ = ["GameService"]
