"""Saved games over a fake localStorage: versioned, corruption fenced off, full storage."""

from __future__ import annotations

import json

from eleusis_web.controller import Controller
from eleusis_web.session import Setup
from eleusis_web.storage import (
    CORRUPT,
    CURRENT,
    FULL_MESSAGE,
    PREFIX,
    SHELF,
    MemoryStorage,
    Saves,
)


def game(seed: int = 3) -> Controller:
    c = Controller(lambda: seed)
    c.ui.setup = Setup(variant="solo", seed=seed, rule="card is red")
    c.dispatch({"type": "start", "seed": seed})
    assert c.ui.viewer is not None
    c.dispatch({"type": "select", "card": c.sorted_hand(c.ui.viewer)[0].code})
    c.dispatch({"type": "play"})
    return c


def test_write_load_resume() -> None:
    store = MemoryStorage()
    saves = Saves(store, clock=lambda: 100.0)
    c = game()
    assert c.session is not None
    assert saves.write(c.session.to_data(), "Solo")
    assert saves.current() == c.session.id
    entry = json.loads(store.data[PREFIX + c.session.id])
    assert entry["format"] == "eleusis-save" and entry["version"] == 1
    back = saves.load(c.session.id)
    assert back is not None and back.state == c.session.state
    assert [e["id"] for e in saves.entries()] == [c.session.id]


def test_corrupt_and_unknown_entries_are_set_aside_alone() -> None:
    store = MemoryStorage()
    saves = Saves(store)
    c = game()
    assert c.session is not None
    saves.write(c.session.to_data(), "Solo")
    store.setItem(PREFIX + "bad", "{not json")
    store.setItem(PREFIX + "future", json.dumps({"format": "eleusis-save", "version": 9,
                                                 "id": "future", "title": "t", "game": {}}))
    store.setItem("someone.else", "untouched")
    listed = saves.entries()
    assert [e["id"] for e in listed] == [c.session.id]
    assert store.data[CORRUPT + "bad"] == "{not json"
    assert CORRUPT + "future" in store.data and PREFIX + "bad" not in store.data
    assert store.data["someone.else"] == "untouched"
    assert len(saves.notes) == 2 and all("set aside" in n for n in saves.notes)
    assert saves.load(c.session.id) is not None


def test_moves_that_do_not_replay_are_set_aside() -> None:
    store = MemoryStorage()
    saves = Saves(store)
    c = game()
    assert c.session is not None
    data = c.session.to_data()
    data["rounds"] = ["AAAA"]
    saves.write(data, "tampered")
    assert saves.load(c.session.id) is None
    assert CORRUPT + c.session.id in store.data and saves.current() is None


def test_full_storage_gives_a_message_and_the_game_goes_on() -> None:
    store = MemoryStorage(quota=50)
    saves = Saves(store)
    c = game()
    assert c.session is not None
    assert saves.write(c.session.to_data(), "Solo") is False
    assert saves.notes == [FULL_MESSAGE] and saves.full
    assert saves.write(c.session.to_data(), "Solo") is False
    assert saves.notes == [FULL_MESSAGE]  # said once
    store.quota = None
    assert saves.write(c.session.to_data(), "Solo") is True
    assert saves.notes == [] and not saves.full


def test_delete_and_forget_current() -> None:
    store = MemoryStorage()
    saves = Saves(store)
    c = game()
    assert c.session is not None
    saves.write(c.session.to_data(), "Solo")
    saves.forget_current()
    assert CURRENT not in store.data
    saves.delete(c.session.id)
    assert saves.entries() == []


def test_the_shelf_lists_the_saved_games_for_the_shell_newest_first() -> None:
    """``eleusis.shelf``: what the page's shell lists before Python is up. It follows
    every save, delete, undo and set-aside; a damaged shelf is simply rewritten."""
    store = MemoryStorage()
    saves = Saves(store)
    first, second = game(3), game(4)
    assert first.session is not None and second.session is not None
    a, b = first.session.id, second.session.id
    saves.write(first.session.to_data(), "Solo, first")
    saves.write(second.session.to_data(), "Solo, second")

    def shelf() -> list[list[str]]:
        rows: list[list[str]] = json.loads(store.data[SHELF])
        return rows

    assert shelf() == [[b, "Solo, second"], [a, "Solo, first"]]
    saves.write(first.session.to_data(), "Solo, first")  # played on: first again
    assert [r[0] for r in shelf()] == [a, b]
    raw = saves.delete(a)
    assert raw is not None and shelf() == [[b, "Solo, second"]]
    assert saves.restore(a, raw) and [r[0] for r in shelf()] == [a, b]
    store.data[PREFIX + b] = "{not json"
    saves.entries()  # finds b unreadable: set aside, off the shelf
    assert shelf() == [[a, "Solo, first"]]
    store.data[SHELF] = '[["x", 1], "junk", ' + "[" * 50 + "]"  # damaged: rewritten
    saves.write(second.session.to_data(), "Solo, second")
    assert shelf() == [[b, "Solo, second"]]


def test_a_full_storage_never_fails_because_of_the_shelf() -> None:
    store = MemoryStorage()
    saves = Saves(store, clock=lambda: 100.0)
    c = game()
    assert c.session is not None
    assert saves.write(c.session.to_data(), "Solo")
    del store.data[SHELF]
    store.quota = sum(len(k) + len(v) for k, v in store.data.items())  # no room for a shelf
    assert saves.write(c.session.to_data(), "Solo") is True
    assert saves.delete(c.session.id) is not None
