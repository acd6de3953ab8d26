"""Display names: no two accounts hold names a person would read as the same (case, width,
letters that look alike), and a name is clean text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from services.accounts import names
from services.accounts.name_book import NameTaken
from services.common.errors import InvalidRequest

LOOKALIKES = [
    ("Bruno", "bruno"),
    ("Bruno", "BRUNO"),
    ("Bruno", "Вruno"),  # a Cyrillic capital Ve
    ("paypal", "pаypal"),  # a Cyrillic small a
    ("Ivan", "ivan"),
    ("Ivan", "lvan"),  # capital I and small l
    ("Bruno", "Ｂｒｕｎｏ"),  # fullwidth letters (NFKC)
    ("Zoë", "Zoe\u0308"),  # a precomposed and a combining diaeresis
    ("O0", "00"),
]


@pytest.mark.parametrize(("first", "second"), LOOKALIKES)
def test_names_that_read_alike_share_a_key(first: str, second: str) -> None:
    assert names.keys(first) & names.keys(second)


@pytest.mark.parametrize(("first", "second"), [("Ann", "Anne"), ("Bruno", "Bruna"), ("ada", "adam")])
def test_different_names_share_no_key(first: str, second: str) -> None:
    assert not names.keys(first) & names.keys(second)


@given(st.text(alphabet=st.characters(categories=["Lu", "Ll", "Nd"]), min_size=1, max_size=12))
def test_a_name_in_another_case_always_shares_a_key(name: str) -> None:
    assert names.keys(name) & names.keys(name.swapcase())


@given(st.text(min_size=1, max_size=20))
def test_a_skeleton_is_its_own_skeleton(text: str) -> None:
    """UTS #39: skeleton(skeleton(x)) == skeleton(x), so keys compare names, not spellings."""
    assert names.skeleton(names.skeleton(text)) == names.skeleton(text)


@pytest.mark.parametrize(
    "bad", ["", "   ", "a" * 41, "ann\u200dbob", "ann\u202ebob", "ann\tbob", "two  spaces", "!!!", "ann\nbob"]
)
def test_a_name_with_no_letter_or_hidden_characters_is_refused_in_words(bad: str) -> None:
    with pytest.raises(names.NameRefused) as refused:
        names.clean(bad)
    assert str(refused.value).startswith("a name")


def test_a_name_keeps_its_spelling_but_loses_its_outer_spaces() -> None:
    assert names.clean("  Zoë Smith ") == "Zoë Smith"


def test_registering_a_lookalike_name_is_refused_and_makes_nothing(platform: Any) -> None:
    platform.accounts.register("Bruno", "human")
    before = platform.db.query("SELECT COUNT(*) AS n FROM dh_players")[0]["n"]
    for twin in ("bruno", "Вruno", "BRUNO "):
        with pytest.raises(NameTaken) as taken:
            platform.accounts.register(twin, "human")
        assert "look" in taken.value.message
    assert platform.db.query("SELECT COUNT(*) AS n FROM dh_players")[0]["n"] == before
    with pytest.raises(InvalidRequest):
        platform.accounts.register("\u200b", "human")


def test_an_account_is_found_by_its_name_as_a_person_types_it(platform: Any) -> None:
    bruno, _ = platform.accounts.register("Bruno", "human")
    platform.accounts.register("Brunhilde", "bot")
    assert platform.accounts.names.find("BRUNO") == bruno.id
    assert platform.accounts.names.find("Вruno") == bruno.id
    assert platform.accounts.names.find("Bruna") is None
    found = platform.accounts.names.search("brun")
    assert [p["name"] for p in found] == ["Bruno", "Brunhilde"]  # shorter first
    assert platform.accounts.names.search("hild") == [{"id": found[1]["id"], "name": "Brunhilde", "kind": "bot"}]
    assert platform.accounts.names.search("%") == []  # a wildcard is a letter like any other


def test_a_name_with_control_characters_is_nobody_and_matches_nothing(platform: Any) -> None:
    platform.accounts.register("Bruno", "human")
    assert platform.accounts.names.find("Bru\x00no") is None
    assert platform.accounts.names.search("bru\x00") == []
