"""The game's own words: how a game tells its events, moves, refusals and results.

(A variant's options are worded where they are declared, in their dataclass fields'
metadata: ``domain.kernel.options``.)

Every page a person reads says what happened in sentences ("Bruno rolled two reds and a
green"), never in the wire form. Each game gives its ``Ruleset`` a ``Narrator`` built from
tables of small functions (``domain/<game>/narration.py``); the platform's own events are
told by the services' platform narrator.

A narrator only ever reads a record **as its viewer may see it**: the redacted data that
``GET /events`` answers, in which a secret field reads ``{"hidden": ...}``
(``wording.is_hidden``). So a sentence can never tell more than the viewer may know: what
it is not handed, it cannot say.

Seats are named by ``Names``, made for one viewer: "You" for the viewer's own seat, the
player's name otherwise ("Bruno"), with the seat's colour where a seat is named in full
("Bruno (red)"); a server bot of the game's ladder by its level ("Level 2 bot"), and players who
share a name, bots of one level above all, are numbered apart in seat order ("Level 2 bot (1)",
"Level 2 bot (2)"). No sentence carries a seat's index.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from domain.kernel.game_config import GameConfig
from domain.kernel.picture import SEAT_COLOURS
from domain.kernel.wording import listing, ordinal, sentence, upper_first, words

# ------------------------------------------------------------------ names


@dataclass(frozen=True, slots=True)
class SeatName:
    """One seat as a viewer reads it."""

    seat: int
    player: str
    """The player's name, numbered when another seat's player has the same one."""
    colour: str
    you: bool
    """Whether the viewer holds this seat."""


class Names:
    """How one viewer names every seat of one game.

    ``names(seat)`` is the seat in a sentence ("You", "Bruno"), ``names.full(seat)`` the
    seat in a list or a result ("You (red)", "Bruno (red)").
    """

    def __init__(self, seats: Sequence[SeatName]) -> None:
        self._seats = {s.seat: s for s in seats}
        self._mine = [s.seat for s in seats if s.you]

    @classmethod
    def of(
        cls,
        players: Sequence[Mapping[str, Any]],
        colours: Sequence[str] = (),
        yours: Iterable[int] = (),
        title: BotTitle | None = None,
    ) -> Names:
        """From the platform's seats (``{seat, name, kind, bot}``), the seats' colours in seat
        order, the seats the viewer holds and the game's bot titles (``Ruleset.bot_title``)."""
        mine = set(yours)
        shown = seat_names(players, title)
        return cls([SeatName(s, shown[s], colour_of(colours, s), s in mine) for s in sorted(shown)])

    @classmethod
    def numbered(cls, count: int, colours: Sequence[str] = (), yours: Iterable[int] = ()) -> Names:
        """Seats named by their number counted from 1 ("Seat 2"), for a game read without its
        players (a record checked offline, a test)."""
        return cls.of([{"seat": s, "name": f"Seat {s + 1}"} for s in range(count)], colours, yours)

    def _get(self, seat: int) -> SeatName:
        found = self._seats.get(seat)
        return found if found is not None else SeatName(seat, f"Seat {seat + 1}", colour_of((), seat), False)

    def __call__(self, seat: int) -> str:
        """The seat as the subject of a sentence: "You" (with its colour when the viewer holds
        several seats), else the player's name."""
        s = self._get(seat)
        if s.you:
            return "You" if len(self._mine) < 2 else f"You ({s.colour})"
        return s.player

    def object(self, seat: int) -> str:
        """The seat after a verb or a preposition: "you", "Bruno"."""
        said = self(seat)
        return "you" + said[3:] if said.startswith("You") else said

    def possessive(self, seat: int, start: bool = False) -> str:
        """ "your" ("Your" at the start of a sentence), "Bruno's"."""
        s = self._get(seat)
        if s.you:
            own = "Your" if start else "your"
            return own if len(self._mine) < 2 else f"{own} ({s.colour})"
        return f"{s.player}'" if s.player.endswith("s") else f"{s.player}'s"

    def was(self, seat: int) -> str:
        """The past of "to be" after the seat's name: "were" for "You", else "was"."""
        return "were" if self(seat).startswith("You") else "was"

    def their(self, seat: int) -> str:
        """The seat's possessive pronoun after its name: "your", "their"."""
        return "your" if self._get(seat).you else "their"

    def full(self, seat: int, start: bool = True) -> str:
        """The seat named in full: "Bruno (red)", "You (red)" ("you (red)" within a sentence)."""
        s = self._get(seat)
        return f"{('You' if start else 'you') if s.you else s.player} ({s.colour})"

    def player(self, seat: int) -> str:
        """The player's name even for the viewer's own seat ("ann"), for titles."""
        return self._get(seat).player

    def colour(self, seat: int) -> str:
        return self._get(seat).colour

    def you(self, seat: int) -> bool:
        return self._get(seat).you

    def listed(self, seats: Iterable[int], how: Callable[[int], str] | None = None) -> str:
        """Several seats in a sentence: "Bruno, ann and you"."""
        name = how or self.object
        return listing(name(s) for s in seats)

    @property
    def seats(self) -> tuple[int, ...]:
        return tuple(sorted(self._seats))

    @property
    def mine(self) -> tuple[int, ...]:
        """The seats the viewer holds."""
        return tuple(self._mine)

    def to_json(self) -> list[dict[str, Any]]:
        """Each seat's words, for a page's scripts: ``{seat, number, name, full, colour, you}``."""
        return [
            {"seat": s, "number": s + 1, "name": self(s), "full": self.full(s), "colour": self.colour(s),
             "you": self.you(s), "player": self.player(s)}
            for s in self.seats
        ]  # fmt: skip


BotTitle = Callable[[str], str]
"""A server bot's name to its title in the game's ladder (``Ruleset.bot_title``: "Level 4")."""


def display_name(player: Mapping[str, Any], title: BotTitle | None = None) -> str:
    """A seat's player as people read the name: a server bot of the game's ladder by its level
    ("Level 4 bot"), another server bot by its name ("Greedy bot"), a person or a client bot by
    the account's name. (A server bot's seat is named from its bot alone, so a name already
    shown, numbered or not, reads the same again.)"""
    name = str(player.get("name") or "").strip() or f"Seat {int(player['seat']) + 1}"
    bot = player.get("bot")
    if not bot:
        return name
    return upper_first(f"{title(str(bot)) if title is not None else bot} bot")


def seat_names(players: Sequence[Mapping[str, Any]], title: BotTitle | None = None) -> dict[int, str]:
    """Each seat's player as people read it (``display_name``), the seats whose names read alike
    (case ignored) numbered apart in seat order: "Level 2 bot (1)", "Level 2 bot (2)"."""
    shown = {int(p["seat"]): display_name(p, title) for p in players}
    taken: dict[str, list[int]] = {}
    for seat in sorted(shown):
        taken.setdefault(shown[seat].casefold(), []).append(seat)
    for same in taken.values():
        if len(same) > 1:
            for n, seat in enumerate(same, 1):
                shown[seat] = f"{shown[seat]} ({n})"
    return shown


def colour_of(colours: Sequence[str], seat: int) -> str:
    """The seat's colour: the game's own, else the platform's seat colours
    (``picture.SEAT_COLOURS``, as the boards draw them), else its number."""
    if 0 <= seat < len(colours):
        return colours[seat]
    if 0 <= seat < len(SEAT_COLOURS):
        return SEAT_COLOURS[seat]
    return f"seat {seat + 1}"


@dataclass(frozen=True, slots=True)
class Audience:
    """Who a sentence is told to: their names for the seats, and the variant they play."""

    names: Names
    variant: str = ""
    config: GameConfig | None = None
    """The game's configuration, where the reader's page knows it: a sentence may then say what a
    figure means in this game (Drachenreiter tells a distance against its track's finish)."""


# ------------------------------------------------------------------ the narrator

EventWords = Callable[[Mapping[str, Any], Audience], str]
"""An event's data (as the viewer may see it) to a sentence."""
MoveWords = Callable[[Mapping[str, Any], Audience, int], str]
"""A move (as the viewer may see it) and its mover to a phrase: "set aside the two reds"."""
ChoiceWords = Callable[[Mapping[str, Any], Audience, int], Sequence[tuple[str, str]]]
"""A move (as the viewer may see it) and its mover to the choices a person makes to name it among
the moves of its type, in order, each a question and its answer in words: (("Card", "the red dragon
card"), ("Where", "right of the centre"), ("Turned", "upright"))."""
ScoreWords = Callable[[float, Audience], str]
"""A seat's final score to words: "31 points"."""


class Narrator:
    """A game's words. Built from tables of small functions, one per record type; a type the
    tables lack is still told, in general words and without any of its values."""

    def __init__(
        self,
        events: Mapping[str, EventWords] | None = None,
        moves: Mapping[str, MoveWords] | None = None,
        turns: Mapping[str, EventWords] | None = None,
        quiet: Iterable[str] = (),
        reasons: Mapping[str, str] | None = None,
        score: ScoreWords | None = None,
        choices: Mapping[str, ChoiceWords] | None = None,
        kinds: Mapping[str, str] | None = None,
    ) -> None:
        self.events: Mapping[str, EventWords] = dict(events or {})
        self.moves: Mapping[str, MoveWords] = dict(moves or {})
        self.turns: Mapping[str, EventWords] = dict(turns or {})
        """Event types that open a new turn of the log, with the turn's heading ("" where this
        event opens none after all)."""
        self.quiet = frozenset(quiet)
        """Event types a log may leave out: bookkeeping that another sentence already says."""
        self.reasons: Mapping[str, str] = dict(reasons or {})
        """An outcome's reason (as the game words it) to the words a result shows."""
        self.score = score
        self.choices_of: Mapping[str, ChoiceWords] = dict(choices or {})
        """Move types to their choices in words (``choices``): the move controls' questions and
        answers, for a type with too many legal moves for one button each."""
        self.kinds: Mapping[str, str] = dict(kinds or {})
        """Move types to what they do, as a heading over their moves ("Lay a dragon card")."""

    def event(self, kind: str, data: Mapping[str, Any], audience: Audience) -> str:
        """The event in one sentence for its viewer."""
        told = self.events.get(kind)
        return sentence(told(data, audience) if told else upper_first(_in_words(kind)))

    def move(self, move: Mapping[str, Any], audience: Audience, seat: int) -> str:
        """A move as a short phrase, lower case, for a button or a log: "roll again"."""
        kind = str(move.get("type", ""))
        told = self.moves.get(kind)
        return told(move, audience, seat) if told else words(kind)

    def choices(self, move: Mapping[str, Any], audience: Audience, seat: int) -> list[tuple[str, str]]:
        """The move as the choices that name it among its type's legal moves, each a question and
        its answer ("Card", "the red dragon card"), in the order a person makes them; none when the
        game gives none for its type (a page then lists its moves by their whole phrases). Every
        move of one type has as many choices, with the same questions, and no two legal moves of a
        seat have the same answers."""
        told = self.choices_of.get(str(move.get("type", "")))
        return [(str(q), str(a)) for q, a in told(move, audience, seat)] if told else []

    def kind(self, kind: str) -> str:
        """A move type as a heading over its moves: "Lay a dragon card" (else its name in words)."""
        return self.kinds.get(kind) or upper_first(words(kind))

    def turn(self, kind: str, data: Mapping[str, Any], audience: Audience) -> str | None:
        """The heading of a new turn when this event opens one, else None: also when its words are
        empty, for an event that opens a turn only where another follows (Mékong's round ending)."""
        told = self.turns.get(kind)
        heading = told(data, audience) if told else ""
        return sentence(heading).rstrip(".") if heading else None

    def refusal(self, move: Mapping[str, Any] | None, code: str, rule_text: str, audience: Audience, seat: int) -> str:
        """Why a move was refused, in one sentence: what the seat tried and the rule."""
        who = audience.names(seat)
        what = self.move(move, audience, seat) if move else "do that"
        why = {
            "not_your_turn": "it is not your turn" if audience.names.you(seat) else "it was not their turn",
            "game_over": "the game is over",
            "malformed_move": "that is not a move of this game",
        }.get(code, "")
        rule = rule_text.rstrip(".")
        return sentence(f"{who} cannot {what} now: {why + ' (' + rule + ')' if why else rule}")

    def reason(self, reason: str) -> str:
        """Why the game ended, in the result's words."""
        return self.reasons.get(reason, words(reason))

    def outcome(self, outcome: Mapping[str, Any], audience: Audience, why: str | None = None) -> str:
        """The result in sentences: who won and why (``why`` instead of the outcome's reason, when
        the platform knows better: a resignation), then the other places."""
        places = list(outcome.get("places") or [])
        reason = why if why is not None else self.reason(str(outcome.get("reason") or ""))
        if not places:
            return sentence(f"The game was abandoned{': ' + reason if reason else ''}")
        scores = outcome.get("scores")
        names = audience.names

        def named(seats: list[int]) -> str:
            return listing(names.full(seat, start=i == 0) for i, seat in enumerate(seats))

        def scored(seats: list[int]) -> str:
            if not self.score or not scores:
                return ""
            told = [self.score(scores[s], audience) for s in seats if s < len(scores)]
            if not told:
                return ""
            return f" with {told[0]}" + (" each" if len(told) > 1 else "") if len(set(told)) == 1 else ""

        winners = [s for s, p in enumerate(places) if p == 1]
        verb = "won" if len(winners) == 1 else "shared the win"
        said = [sentence(f"{named(winners)} {verb}{scored(winners)}{': ' + reason if reason else ''}")]
        for place in sorted(set(places) - {1}):
            at = [s for s, p in enumerate(places) if p == place]
            tie = " (tied)" if len(at) > 1 else ""
            said.append(sentence(f"{named(at)} came {ordinal(place)}{tie}{scored(at)}"))
        return " ".join(said)


def _in_words(kind: str) -> str:
    """A record type's name in words (``DiceRolled`` → "dice rolled"): a sentence for a type
    the game's tables lack, which shows none of its values."""
    spaced = "".join(f" {c.lower()}" if c.isupper() else c for c in kind).strip()
    return spaced or "something happened"


DEFAULT_NARRATOR = Narrator()
"""The words of a game that gives none of its own: every record told in general terms."""
