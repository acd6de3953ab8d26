"""Ratings: a projection of the game events, with OpenSkill's Plackett-Luce model.

The rating projection (``projections.rating_projection``) hands this book the events that
matter to ratings; the book turns them into row changes of ``projections.rating_views``, written
with the projection's own tracking record. A finished game is therefore rated exactly
once, in the order of the event stream, and a rebuild from zero replays the same games in the
same order to the same numbers.

**Which games are rated** (``verdict``): a game is rated when it was created ``rated`` (the
default) and, when it finishes, it is not a sandbox, it seats at least two players and no
player holds two seats (a contest between players, not self-play), and some seat made a
decision of its own (a move or a resignation). Otherwise its verdict names the reason:
``casual``, ``sandbox``, ``solo``, ``no_decision``. A game abandoned at its scheduled start
ranks nobody (``abandoned``). A seat that timed out is rated at the place its time control's
policy left it: ``forfeit`` makes it a leaver, ranked last; ``auto`` and ``skip`` play on
for it, and it ranks where that play ends.

**One rating per game**, shared by its variants: variants change the table (seats, board,
options) but not the skill the game rewards, and splitting would leave each variant's
rating with a few games each, so mostly provisional.

**Model.** ``PlackettLuce()`` with its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300):
every seat is a one-player team ranked by ``Outcome.places`` (1 first, ties share, leavers
last), so the order of the losers counts and ties are ties. The ordinal ``mu - 3 sigma``
is the conservative rating leaderboards sort by. A player with few rated games of a game is
provisional there (``services.reads.profiles.PROVISIONAL_GAMES``).

The book keeps the ratings it has read or written in memory; after a failed write the
projection calls ``forget`` and the tables are the truth again.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from openskill.models import PlackettLuce

from projections.views import Change, GameViewsSQL

MODEL = PlackettLuce()


class RatingBook:
    """The rating projection's rules: what it remembers of the ratings and the changes it writes."""

    def __init__(self, view: GameViewsSQL) -> None:
        self.view = view
        self._games: dict[str, dict[str, Any]] = {}
        self._ratings: dict[tuple[str, str], dict[str, Any]] = {}

    def forget(self) -> None:
        self._games.clear()
        self._ratings.clear()

    def created(self, gid: str, game: str, variant: str, rated: bool, sandbox: bool) -> list[Change]:
        self._games[gid] = {"game": game, "variant": variant, "rated": rated, "sandbox": sandbox, "decided": False}
        return [
            (
                "INSERT INTO {p}dh_rating_games (game_id, game, variant, rated, sandbox, decided) "
                "VALUES (?, ?, ?, ?, ?, 0)",
                (gid, game, variant, int(rated), int(sandbox)),
            )
        ]

    def decided(self, gid: str) -> list[Change]:
        """A seat made a decision of its own: written once per game."""
        meta = self._meta(gid)
        if meta is None or meta["decided"]:
            return []
        meta["decided"] = True
        return [("UPDATE {p}dh_rating_games SET decided = 1 WHERE game_id = ?", (gid,))]

    def ended(
        self, gid: str, status: str, seats: Sequence[dict[str, Any]], places: Sequence[int], at: str
    ) -> list[Change]:
        """The game ended (``finished`` with ``places``, or ``abandoned``): its verdict, its
        results, and if it is rated the new ratings of its players."""
        meta = self._meta(gid)
        if meta is None:
            return []
        verdict = self.verdict(meta, status, seats, places)
        out: list[Change] = [("UPDATE {p}dh_rating_games SET verdict = ? WHERE game_id = ?", (verdict, gid))]
        if meta["sandbox"]:
            return out
        rated = verdict == "rated"
        for s in seats:
            place = places[s["seat"]] if s["seat"] < len(places) else None
            out.append(
                (
                    "INSERT INTO {p}dh_results (player_id, game_id, seat, game, variant, status, place, seats, "
                    "rated, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                    (s["player_id"], gid, s["seat"], meta["game"], meta["variant"], status, place, len(seats),
                     int(rated), at),
                )
            )  # fmt: skip
        if rated:
            out.extend(self._rate(gid, meta["game"], seats, places, at))
        return out

    @staticmethod
    def verdict(meta: dict[str, Any], status: str, seats: Sequence[dict[str, Any]], places: Sequence[int]) -> str:
        """``rated``, or why the game is not (the rules are in the module's docstring)."""
        if status != "finished" or len(places) != len(seats):
            return "abandoned"
        if meta["sandbox"]:
            return "sandbox"
        if not meta["rated"]:
            return "casual"
        players = [s["player_id"] for s in seats]
        if len(players) < 2 or len(set(players)) != len(players):
            return "solo"
        if not meta["decided"]:
            return "no_decision"
        return "rated"

    def _rate(
        self, gid: str, game: str, seats: Sequence[dict[str, Any]], places: Sequence[int], at: str
    ) -> list[Change]:
        before = [self._rating(s, game) for s in seats]
        teams = [[MODEL.create_rating([r["mu"], r["sigma"]])] for r in before]
        ranks = [float(places[s["seat"]]) for s in seats]
        after = MODEL.rate(teams, ranks=ranks)
        out: list[Change] = []
        for s, old, (new,) in zip(seats, before, after, strict=True):
            place = places[s["seat"]]
            row = {
                **old,
                "name": s["name"],
                "kind": s["kind"],
                "bot": s.get("bot"),
                "mu": new.mu,
                "sigma": new.sigma,
                "ordinal": new.ordinal(),
                "games": old["games"] + 1,
                "wins": old["wins"] + (1 if place == 1 else 0),
                "updated_at": at,
            }
            self._ratings[(s["player_id"], game)] = row
            out.append(_upsert(row))
            out.append(
                (
                    "INSERT INTO {p}dh_rating_history (player_id, game, n, game_id, place, seats, mu_before, "
                    "sigma_before, mu, sigma, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (s["player_id"], game, row["games"], gid, place, len(seats), old["mu"], old["sigma"],
                     new.mu, new.sigma, at),
                )
            )  # fmt: skip
        return out

    def _rating(self, seat: dict[str, Any], game: str) -> dict[str, Any]:
        key = (seat["player_id"], game)
        held = self._ratings.get(key)
        if held is None:
            held = self.view.rating(*key) or {
                "player_id": seat["player_id"],
                "game": game,
                "mu": MODEL.mu,
                "sigma": MODEL.sigma,
                "games": 0,
                "wins": 0,
            }
            self._ratings[key] = held
        return held

    def _meta(self, gid: str) -> dict[str, Any] | None:
        meta = self._games.get(gid)
        if meta is None:
            row = self.view.rating_game(gid)
            if row is None:  # a game created before ratings existed: by the default rules
                summary = self.view.game_summary(gid)
                if summary is None:
                    return None
                row = {**summary, "rated": 1, "decided": 1}
            meta = self._games[gid] = {
                "game": row["game"],
                "variant": row["variant"],
                "rated": bool(row["rated"]),
                "sandbox": bool(row["sandbox"]),
                "decided": bool(row["decided"]),
            }
        return meta


def _upsert(row: dict[str, Any]) -> Change:
    columns = ("player_id", "game", "name", "kind", "bot", "mu", "sigma", "ordinal", "games", "wins", "updated_at")
    updates = ", ".join(f"{c} = excluded.{c}" for c in columns[2:])
    return (
        f"INSERT INTO {{p}}dh_ratings ({', '.join(columns)}) VALUES ({', '.join('?' for _ in columns)}) "
        f"ON CONFLICT (player_id, game) DO UPDATE SET {updates}",
        tuple(row[c] for c in columns),
    )


__all__ = ["MODEL", "RatingBook"]
