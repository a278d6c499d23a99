"""The names the page gives by default are in the player's language.

A new game's seat for the player and the person dealing are named by the page
("You", "Dealer"); in Polish they are "Ty" and "Krupier" (a name a player typed
is theirs and stays as typed).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from eleusis.i18n import set_language
from eleusis_web.controller import Controller
from eleusis_web.session import Setup


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def test_a_new_game_in_polish_names_the_player_and_the_dealer_in_polish() -> None:
    english = Setup(variant="express", dealer="writer")
    assert english.seats[0].name == "You" and english.dealer_name == "Dealer"
    set_language("pl")
    setup = Setup(variant="express", dealer="writer")
    assert setup.seats[0].name == "Ty" and setup.dealer_name == "Krupier"


def test_a_name_the_player_typed_is_kept() -> None:
    set_language("fr")
    assert Setup(dealer_name="Zeus").dealer_name == "Zeus"


def test_the_dealer_writing_the_rule_is_named_in_the_players_language() -> None:
    set_language("it")
    c = Controller(lambda: 3)
    c.ui.setup = Setup(variant="express", dealer="writer", seed=3)
    c.dispatch({"type": "start", "seed": 3})
    assert c.writer_name() == "Mazziere"
