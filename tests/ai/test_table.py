"""Computer scientists at a New Eleusis table: rounds finish, prophets call plays."""

from __future__ import annotations

from eleusis.bench import play_table


def test_new_eleusis_rounds_of_computer_players_end_with_prophets() -> None:
    # four tables on a simple rule: every round ends; in most a prophet is
    # declared and calls plays while it lasts (one game in several can end
    # before any scientist is sure enough: seed 2 since the families of
    # 2026-11-29, which weigh more rules against "card is red")
    prophets = 0
    for seed in range(4):
        state, times = play_table("card is red", seed=seed, players=3)
        assert state.over
        assert times
        kinds = [e.kind for e in state.events]
        assert kinds.count("play") >= 5
        assert kinds.count("overthrow") <= kinds.count("prophet")
        if "prophet" in kinds:
            prophets += 1
            assert "call" in kinds, seed
    assert prophets >= 3


def test_express_round_of_computer_players_ends() -> None:
    state, _ = play_table("card.suit != prev.suit", seed=5, players=3, variant="express")
    assert state.over
