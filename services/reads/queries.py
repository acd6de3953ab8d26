"""The read side's questions, answered as dicts.

Lists and summaries come from the projections. A single game's document comes
from its read models when they have caught up with the game's last event, and
otherwise from the write model, so a client always reads its own writes: a move
acknowledged by ``POST /moves`` is in the next ``GET``.
"""

from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from typing import TYPE_CHECKING, Any

from domain.kernel import Viewer, decode, find_game
from domain.kernel.narration import Audience
from services.common import visibility
from services.common.errors import GameNotFound, InvalidRequest, NoPicture, NotAPlayer
from services.play.aggregate import Game
from services.play.games import GameService
from services.play.table_seats import reading_seat
from services.play.unit_of_work import game_uuid
from services.reads.board_names import name_seats
from services.reads.board_points import board_points
from services.reads.documents import Summary, document, public_seats
from services.reads.game_log import decision_choices, decision_texts
from services.reads.move_steps import LEGAL_MOVES_PAGE, narrowed_listing, say_next_steps
from services.reads.redaction import redact_stored_event
from services.reads.seat_names import names_in, names_of

if TYPE_CHECKING:
    from services.common.ports import GameRows
    from services.deadlines.timers import Timers
    from services.play.journal import Journal

STATE_CACHE = 256


class GameQueries:
    """Read models and history, rendered for one caller."""

    def __init__(self, games: GameService, views: GameRows, timers: Timers | None, journal: Journal) -> None:
        self.games = games
        self.views = views
        self.timers = timers
        self.journal = journal
        self._states: OrderedDict[tuple[str, int], Any] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------ documents

    def head_version(self, game_id: str) -> int:
        head = self.games.store.head_version(game_uuid(game_id))
        if head is None:
            raise GameNotFound(f"no game {game_id}")
        return head

    def document(self, game_id: str, player_id: str | None = None, seat: int | None = None) -> dict[str, Any]:
        """The game as the caller may see it now."""
        gid = str(game_uuid(game_id))
        head = self.head_version(gid)
        row = self.views.game_summary(gid)
        if row is not None and row["version"] == head and not row["sandbox"]:
            state = self._board_state(gid, row)
            if state is not _STALE:
                return self._from_row(row, state, player_id, seat)
        return self.from_game(self.games.load(gid), player_id, seat)

    def _board_state(self, gid: str, row: dict[str, Any]) -> Any:
        if row["status"] in ("open", "scheduled"):
            return None
        key = (gid, row["version"])
        with self._lock:
            if key in self._states:
                self._states.move_to_end(key)
                return self._states[key]
        board = self.views.board(gid)
        if board is None or board[1] is None or board[0] != row["version"]:
            return _STALE
        ruleset = find_game(row["game"])
        state = decode(ruleset.state_type, json.loads(board[1]))
        with self._lock:
            self._states[key] = state
            while len(self._states) > STATE_CACHE:
                self._states.popitem(last=False)
        return state

    def _from_row(self, row: dict[str, Any], state: Any, player_id: str | None, seat: int | None) -> dict[str, Any]:
        """The document from the read models (never a sandbox's: its visibility needs its origin)."""
        viewer = visibility.viewer(visibility.revealed(row["status"]), row["seats"], player_id, seat)
        return self._document(Summary.of_row(row, state), viewer, player_id)

    def from_game(self, game: Game, player_id: str | None, seat: int | None = None) -> dict[str, Any]:
        """The document built from the write model (or from a past version of it)."""
        return self._document(Summary.of_game(game), self.games.viewer(game, player_id, seat), player_id)

    def _document(self, summary: Summary, viewer: Viewer, player_id: str | None) -> dict[str, Any]:
        clocks = None
        if self.timers is not None:
            clocks = self.timers.clock_view(summary.time_control, summary.status, summary.seats, summary.turns,
                                            summary.banks)  # fmt: skip
        return document(summary, viewer, player_id, clocks)

    def svg(self, doc: dict[str, Any], player_id: str | None = None, seat: int | None = None) -> str:
        """The board of a document as SVG, where the game draws one, marked with the last
        decision as ``player_id`` (reading as ``seat``) may see it."""
        ruleset = find_game(doc["game"])
        picture = None
        if doc["view"] is not None:
            picture = ruleset.render_svg(doc["view"], self.last_decision(doc, player_id, seat))
        if picture is None:
            raise NoPicture(f"game {doc['id']} has no board picture")
        return name_seats(str(picture), names_of(doc, player_id))

    def last_decision(self, doc: dict[str, Any], player_id: str | None, seat: int | None) -> dict[str, Any] | None:
        """The last seat decision up to the document's version, its move redacted as ``GET /events``
        redacts it (``domain.kernel.picture`` says the shape). Redacted as for a running game unless
        the document's game has ended and is no sandbox, or, for a replay's past version (it names
        the ``current_version``), the game has ended since, as ``replay`` reveals its view: never
        more than the document reveals."""
        stored = self.games.last_decision(doc["id"], doc["version"])
        if stored is None:
            return None
        shown_all = visibility.revealed(doc["status"], origin_ended=not doc["sandbox"])
        if not shown_all and "current_version" in doc:
            shown_all = self.games.revealed(self.games.load(doc["id"]))
        viewer = visibility.viewer(shown_all, doc["seats"], player_id, seat)
        ruleset = find_game(doc["game"])
        shown = redact_stored_event(ruleset, stored, viewer)
        kind = {"Resigned": "resigned", "MoveMade": "move"}.get(shown["type"], "timed_out")
        data = shown["data"]
        names = names_of(doc, player_id)
        move = data.get("move")
        text = ruleset.narrator.move(move, Audience(names, doc["variant"]), data["seat"]) if move else None
        return {"version": shown["version"], "seat": data["seat"], "kind": kind, "move": move,
                "who": names(data["seat"]), "text": text}  # fmt: skip

    # ------------------------------------------------------------ lists

    def list_games(
        self, status: str | None, game: str | None, player: str | None, limit: int, offset: int
    ) -> list[dict[str, Any]]:
        rows = self.views.list_games(status=status, game=game, player=player, limit=limit, offset=offset)
        return [
            {
                "id": r["game_id"],
                "game": r["game"],
                "variant": r["variant"],
                "status": r["status"],
                "version": r["version"],
                "seats": public_seats(r["game"], r["seats"]),
                "planned_seats": r["planned_seats"],
                "awaiting": r["awaiting"],
                "created_at": r["created_at"],
                "updated_at": r["updated_at"],
                "starts_at": r["starts_at"],
                "outcome": r["outcome"],
            }
            for r in rows
        ]

    # ------------------------------------------------------------ moves and history

    def legal_moves(
        self,
        game_id: str,
        player_id: str,
        seat: int | None = None,
        offset: int = 0,
        limit: int = LEGAL_MOVES_PAGE,
        *,
        after_own_write: bool = False,
        words: bool = False,
        chosen: tuple[str, ...] | None = None,
    ) -> dict[str, Any]:
        """The caller's legal moves, with the version they belong to. ``after_own_write``
        (a move's answer) takes the game as this process last saved or loaded it, with
        no question to the store: it is at least the version just written. ``words`` adds
        each move's phrase (``texts``), for a person's buttons, its choices in words
        (``choices``), for a person's selects, and each move type's heading (``kinds``): only
        when asked, never on a move's answer. ``chosen`` (the refs a person clicked so far, maybe
        none) narrows the moves to those they begin (``move_steps``)."""
        game = self.games.remembered(game_id) if after_own_write else self.games.load(game_id)
        if chosen is not None:
            reader = reading_seat(game, player_id, seat)
            listed = named_listing(game, reader, narrowed_listing(game, reader, chosen, limit, words))
        else:
            listed = self.legal_moves_of(game, player_id, seat, offset, limit)
            if words:
                listed.update(board_points(game, listed["seat"], offset, len(listed["moves"])))
        if words:
            names = names_in(game.game, game.variant, game.options, game.seats, game.planned_seats, game.status,
                             player_id, game.state)  # fmt: skip
            listed["texts"] = decision_texts(game.ruleset, listed["moves"], names, game.variant, listed["seat"])
            listed["choices"] = decision_choices(game.ruleset, listed["moves"], names, game.variant, listed["seat"])
            listed["kinds"] = {m["type"]: game.ruleset.narrator.kind(m["type"]) for m in listed["moves"]}
            if "next" in listed:
                say_next_steps(game, listed, names)
        return listed

    def legal_moves_of(
        self, game: Game, player_id: str, seat: int | None = None, offset: int = 0, limit: int = LEGAL_MOVES_PAGE
    ) -> dict[str, Any]:
        """The legal moves of the caller's seat in ``game`` as loaded (``legal_moves``)."""
        seat = reading_seat(game, player_id, seat)
        listed: Any = []
        if game.status == "active" and seat in game.awaiting and seat not in game.left:
            listed = game.ruleset.legal_moves(game.state, seat)
        total = len(listed)
        dump = game.ruleset.commands.dump
        moves = [dump(listed[i]) for i in range(offset, min(total, offset + limit))]
        out = {"version": game.version, "seat": seat, "total": total, "offset": offset, "moves": moves}
        return named_listing(game, seat, out)

    def events(self, game_id: str, player_id: str | None, after: int, limit: int) -> dict[str, Any]:
        game = self.games.load(game_id)
        return {"version": game.version, "events": self.events_of(game, player_id, after, limit)}

    def events_of(
        self,
        game: Game,
        player_id: str | None,
        after: int,
        limit: int | None = None,
        seat: int | None = None,
        stored_events: Iterable[Any] | None = None,
    ) -> list[dict[str, Any]]:
        """The events of ``game`` after version ``after`` and up to its version, as the caller
        may see them at that version (``stored_events``: those events as stored, already read)."""
        viewer = self.games.viewer(game, player_id, seat)
        out: list[dict[str, Any]] = []
        if stored_events is None:
            stored_events = self.games.stored_events(str(game.id), after=after)
        for stored in stored_events:
            if stored.originator_version > game.version or (limit is not None and len(out) >= limit):
                break
            out.append(redact_stored_event(game.ruleset, stored, viewer))
        return out

    def clocks_of(self, game: Game) -> dict[str, Any] | None:
        """The clocks of ``game`` as its document shows them."""
        if self.timers is None:
            return None
        clocks: dict[str, Any] | None = self.timers.clock_view(
            game.time_control, game.status, game.seats, game.turns, game.banks
        )  # the game's own fields: a whole ``Summary`` cost a stream's line 40% more (issue 35)
        return clocks

    def journal_of(self, game_id: str, player_id: str | None) -> dict[str, Any]:
        """The refused commands of a game (``services.play.journal``): for its seats while it runs,
        for everyone once it has ended."""
        game = self.games.load(game_id)
        revealed = self.games.revealed(game)
        if not revealed and not visibility.seats_held(game.seats, player_id):
            raise NotAPlayer("the journal of a running game is for its seats")
        return {"game_id": str(game.id), "entries": self.journal.entries(str(game.id), revealed, player_id)}

    def replay(self, game_id: str, player_id: str | None, at: int, seat: int | None = None) -> dict[str, Any]:
        """The document as it stood at version ``at``; redacted as the caller saw it then,
        unless the game has finished since."""
        current = self.games.load(game_id)
        if not 1 <= at <= current.version:
            raise InvalidRequest(f"version {at} is outside 1..{current.version}", field="at")
        past = self.games.load_at(game_id, at)
        doc = self.from_game(past, player_id, seat)
        if self.games.revealed(current) and past.state is not None:
            doc["view"] = past.ruleset.view(past.state, Viewer.everyone())
        doc["current_version"] = current.version
        return doc


def named_listing(game: Game, seat: int, listed: dict[str, Any]) -> dict[str, Any]:
    """``listed`` (of ``seat``'s moves) with the ``listing`` that names it, where the game gives one."""
    key = game.ruleset.listing_key(game.state, seat) if listed["total"] else None
    if key is not None:
        listed["listing"] = listing_digest(seat, key)
    return listed


def listing_digest(seat: int, key: Hashable) -> str:
    """A seat's listing named apart from its version (``Ruleset.listing_key``): equal at two
    versions of the game when the seat's legal moves are the same. A digest of what the seat
    itself knows and nothing else (not even the game's id), so that it tells its reader nothing
    that reading the moves would not; only that seat reads it."""
    return hashlib.blake2b(f"{seat}/{key!r}".encode(), digest_size=8).hexdigest()


_STALE = object()
