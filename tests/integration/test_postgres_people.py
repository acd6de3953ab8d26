"""People's tables on PostgreSQL: names kept apart, suggestions, passwords, recovery codes and
invitations, as on SQLite (the SQL is written once for both)."""

from __future__ import annotations

from typing import Any

import pytest

from services.accounts.name_book import NameTaken
from tests.conftest import make_settings


@pytest.fixture
def pg_platform(pg_url: str, pg_schema: str) -> Any:
    from services.common.ports import NullWork
    from wiring import bootstrap

    settings = make_settings("postgres", database_url=pg_url, postgres_schema=pg_schema)
    platform = bootstrap(settings, work=NullWork())
    yield platform
    platform.close()


def test_names_passwords_codes_and_invitations_on_postgres(pg_platform: Any) -> None:
    p = pg_platform
    ann, _ = p.accounts.register("Ann", "human")
    bruno, _ = p.accounts.register("Bruno", "human")
    with pytest.raises(NameTaken):
        p.accounts.register("BRUNO", "human")
    assert [f["name"] for f in p.accounts.names.search("100%_brü")] == []
    assert [f["name"] for f in p.accounts.names.search("run")] == ["Bruno"]
    assert p.accounts.names.find("bruno\x00") is None
    p.credentials.set_password(ann.id, "ann's password")
    assert p.credentials.sign_in("ann", "ann's password")[0].id == ann.id
    code = p.credentials.new_recovery_codes(ann.id)[0]
    assert p.credentials.recover("ANN", code)[0].id == ann.id
    game = p.games.create_game(ann.id, "tarasque", None, None, 2, settings={"invite": [bruno.id], "rated": True})
    [invitation] = p.invitations.pending(bruno.id)
    assert invitation["game_id"] == str(game.id) and invitation["inviter"]["name"] == "Ann"
    assert p.invitations.decline(invitation["invitation_id"], bruno, "later")["status"] == "declined"


def test_a_seat_given_up_leaves_the_players_list_on_postgres(pg_platform: Any) -> None:
    """The game list's projection takes a table off the list of a player who left it (not its
    creator's), in SQL written once for both stores."""
    p = pg_platform
    ann, _ = p.accounts.register("Ann", "human")
    bruno, _ = p.accounts.register("Bruno", "human")
    gid = str(p.games.create_game(ann.id, "tarasque", None, None, 3).id)
    p.games.take_seat(gid, ann.id, "Ann", "human")
    p.games.take_seat(gid, bruno.id, "Bruno", "human")
    p.wait_for_projections()

    def listed(player_id: str) -> list[dict[str, Any]]:
        return list(p.queries.views.list_games(status=None, game=None, player=player_id, limit=10, offset=0))

    assert [g["game_id"] for g in listed(bruno.id)] == [gid]
    p.seating.leave(gid, bruno.id)
    p.wait_for_projections()
    assert listed(bruno.id) == []
    [row] = listed(ann.id)
    assert [s["name"] for s in row["seats"]] == ["Ann"]
