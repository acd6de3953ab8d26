"""A board picture names its seats as the viewer does, not as "Seat 1 (teal)"."""

from __future__ import annotations

from domain.kernel.narration import Names
from services.reads.board_names import name_seats

NAMES = Names.of([{"seat": 0, "name": "ann"}, {"seat": 1, "name": "Bruno & co"}], ("teal", "orange"), yours=[0])


def test_a_seat_is_written_as_its_player_in_a_list_and_within_a_sentence() -> None:
    picture = "<text>Seat 1 (teal): 3 points</text><text>Tarasque: seat 2 (orange) to roll</text>"
    assert name_seats(picture, NAMES) == (
        "<text>You (teal): 3 points</text><text>Tarasque: Bruno &amp; co (orange) to roll</text>"
    )


def test_what_is_not_a_seat_of_the_game_stays_as_drawn() -> None:
    picture = "<text>Seat 3 (navy)</text><text>seat 1 (orange)</text><text>seat 0 (teal)</text>"
    assert name_seats(picture, NAMES) == picture
