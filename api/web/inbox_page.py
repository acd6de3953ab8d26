"""The inbox, in words: the games awaiting the viewer (a dispute's sandbox is none: it is reached from
its dispute), invitations, reminders and all the viewer's games, each named by its players."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from api.context import current_platform
from api.parser import page_contract
from api.web import words
from api.web.pages import STATUS_WORDS, render, sign_in_page, titles, web
from api.web.viewing import viewer
from domain.kernel import find_game
from domain.kernel.narration import Names, display_name
from domain.kernel.wording import listing
from services.common.errors import ServiceError
from services.common.visibility import ENDED
from services.reads.seat_names import OPEN, names_in

MINE = 50
"""The viewer's games the inbox lists, the newest first."""
DISPUTES = 10
"""The disputes opened on the viewer's games the inbox tells of, the newest first."""


@web.route("/inbox", methods=["GET"])
@page_contract(auth="optional", scope="read")
def inbox(errors: list[str] | None = None) -> str:
    """My games awaiting me (soonest deadline first), invitations received (to accept or decline)
    and sent (with their answers), tournament notices, reminders, all my games."""
    me = viewer()
    if me is None:
        return sign_in_page(why="Sign in to read your inbox.")
    p = current_platform()
    mine = p.queries.list_games(None, None, me.id, MINE, 0)
    known = {g["id"]: g for g in mine}
    box = p.timers.inbox_of(me.id)
    names = titles()
    games = _GamesOf(known, me.id)
    awaiting = [
        {**w, "text": f"{names.get(w['game'], w['game'])}: {turn_words(game, me.id, w['seat'])}"}
        for w in box["awaiting"]
        if (game := games.get(w["game_id"])) is not None
    ]
    return render(
        "inbox.html",
        awaiting=awaiting,
        received=p.invitations.received(me.id),
        sent=[{**i, "left": _left_after_accepting(i, games)} for i in p.invitations.sent(me.id)],
        left_tables=_left_tables(p.feed.recent(me.id, ("seat_given_up",)), games, names),
        disputes=_disputes(p.feed.recent(me.id, ("dispute_opened",)), games, names),
        tournament_notices=sorted(
            [{**n, "ended": _ended(known, n.get("game_id"))} for n in p.inbox.items(me.id, "tournament_round")]
            + p.inbox.items(me.id, "tournament_cancelled"),
            key=lambda i: i["at"],
            reverse=True,
        ),
        reminders=[{**r, "text": reminder_text(r, names)} for r in box["reminders"]],
        mine=[{**g, "text": game_text(g, me.id, names)} for g in mine],
        titles=names,
        words=words,
        errors=errors,
    )


def seat_names(game: Mapping[str, Any], player_id: str) -> Names:
    return names_in(game["game"], game["variant"], game.get("options") or {}, game["seats"], game["planned_seats"],
                    game["status"], player_id)  # fmt: skip


def turn_words(game: Mapping[str, Any], player_id: str, seat: int) -> str:
    """ "your turn (teal), against Level 3 bot"."""
    names = seat_names(game, player_id)
    others = [names.player(s) for s in names.seats if not names.you(s)]
    return f"your turn ({names.colour(seat)})" + (f", against {listing(others)}" if others else "")


def game_text(game: Mapping[str, Any], player_id: str, titles: Mapping[str, str]) -> str:
    """One of the viewer's games in a line: its players, its status, who won."""
    names = seat_names(game, player_id)
    players = listing(names.full(s, start=False) for s in names.seats) if names.seats else "no players yet"
    status = STATUS_WORDS.get(game["status"], game["status"])
    said = f"{titles.get(game['game'], game['game'])} with {players}: {status}"
    winners = (game.get("outcome") or {}).get("winners") or []
    if winners and game["status"] == "finished":
        said += f", {listing(names.object(s) if names.you(s) else names.full(s) for s in winners)} won"
    elif game["status"] == "active" and any(names.you(s) for s in game["awaiting"]):
        said += ", your turn"
    return said


def reminder_text(item: Mapping[str, Any], titles: Mapping[str, str]) -> str:
    deadline = item.get("deadline")
    game = titles.get(item.get("game", ""), "a game")
    if deadline:
        return f"Your turn in {game} runs out at {deadline[:16].replace('T', ' ')} UTC."
    return f"It is your turn in {game}."


class _GamesOf:
    """The viewer's games by id, each read once: from the inbox's list, else its document; None
    when gone."""

    def __init__(self, known: Mapping[str, Mapping[str, Any]], player_id: str) -> None:
        self.known, self.player_id = dict(known), player_id

    def get(self, game_id: str) -> Mapping[str, Any] | None:
        if game_id not in self.known:
            try:
                self.known[game_id] = current_platform().queries.document(game_id, self.player_id)
            except ServiceError:
                return None
        return self.known[game_id]

    def still_open(self, game_id: str) -> Mapping[str, Any] | None:
        game = self.get(game_id)
        return game if game is not None and game["status"] in OPEN else None


def _left_tables(entries: list[dict[str, Any]], games: _GamesOf, titles: Mapping[str, str]) -> list[dict[str, Any]]:
    """Who left a table of the viewer's that has not started yet ("Bruno left your table of
    Tarasque"), newest first: once the table starts or closes, it is news no more."""
    said, seen = [], set()
    for e in entries:
        key = (e["game_id"], e["version"])
        if key in seen or games.still_open(e["game_id"]) is None:
            continue
        seen.add(key)
        who = display_name({"seat": e["given_up_seat"], "name": e["name"], "bot": e.get("bot")},
                           find_game(e["game"]).bot_title)  # fmt: skip
        game = titles.get(e["game"], e["game"])
        text = f"{who} was taken off your table of {game}" if e.get("bot") else f"{who} left your table of {game}"
        said.append({"game_id": e["game_id"], "at": e["at"], "text": text})
    return said


def _disputes(entries: list[dict[str, Any]], games: _GamesOf, titles: Mapping[str, str]) -> list[dict[str, Any]]:
    """The disputes others opened on the viewer's games lately, newest first, each said by its game
    ("your game of Tarasque against Bruno"): where to read them, never what they claim (a dispute
    is its opener's while its game runs)."""
    said = []
    for e in entries[:DISPUTES]:
        game = games.get(e["game_id"])
        if game is None:
            continue
        names = seat_names(game, games.player_id)
        others = [names.player(s) for s in names.seats if not names.you(s)]
        against = f" against {listing(others)}" if others else ""
        text = f"A dispute was opened on your game of {titles.get(e['game'], e['game'])}{against}"
        said.append({"game_id": e["game_id"], "dispute_id": e["dispute_id"], "at": e["at"], "text": text})
    return said


def _left_after_accepting(invitation: Mapping[str, Any], games: _GamesOf) -> bool:
    """Whether an invitee who accepted has since left the table, which has not started."""
    if invitation["status"] != "accepted":
        return False
    game = games.still_open(invitation["game_id"])
    return game is not None and all(s.get("player_id") != invitation["invitee"]["id"] for s in game["seats"])


def _ended(known: Mapping[str, Mapping[str, Any]], game_id: str | None) -> bool:
    """Whether a notice's game is over, as the viewer's latest games say (an older one is told as sent)."""
    game = known.get(game_id or "")
    return game is not None and game["status"] in ENDED
