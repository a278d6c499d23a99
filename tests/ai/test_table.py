"""Computer scientists at a New Eleusis table: rounds finish, prophets call plays."""

from __future__ import annotations

from eleusis.bench import play_table


def test_a_new_eleusis_round_of_computer_players_ends() -> None:
    state, times = play_table("card is red", seed=2, players=3)
    assert state.over
    assert times
    kinds = [e.kind for e in state.events]
    assert kinds.count("play") >= 5
    # a prophet was declared, and calls were made while it lasted
    assert "prophet" in kinds
    assert "call" in kinds
    assert kinds.count("overthrow") <= kinds.count("prophet")


def test_express_round_of_computer_players_ends() -> None:
    state, _ = play_table("card.suit != prev.suit", seed=5, players=3, variant="express")
    assert state.over
