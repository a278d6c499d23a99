"""Structure-aware fuzzing of every decoder: mutate valid inputs where they have structure.

Not only random text: each decoder gets valid inputs mutated inside their
structure -- a replay's log (actions dropped, doubled, moved, re-seated,
their cards and texts changed) and its bytes under the compression, a
challenge's author and rule under a valid check, a notebook token's JSON, an
archive's JSON tree (any value replaced by a hostile one), the daily history.
The property is the same everywhere: the decoder returns a value the page
can use, or raises its own documented error -- never another exception.
Each test counts the inputs it tried and prints the figure (``pytest -s``);
``ELEUSIS_FUZZ`` multiplies the counts (default 1). Seeds are fixed, so a
run is reproducible.
"""

from __future__ import annotations

import base64
import copy
import dataclasses
import datetime as dt
import json
import os
import random
import zlib
from collections.abc import Callable
from typing import Any

from tests.engine.helpers import random_action
from tests.share.hostile_support import b64, challenge_token, notebook_token, replay_text

from eleusis.archive import ArchivedGame, ArchiveError, export_archive, parse_archive
from eleusis.cards import ALL_CARDS
from eleusis.challenge import Challenge, ChallengeError, open_challenge
from eleusis.daily import best_streak, load_history, streak
from eleusis.game import (
    Action,
    Guess,
    Hint,
    Play,
    State,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from eleusis.notebook import Notebook, NotebookError
from eleusis.replay import ReplayError, decode, encode
from eleusis.rules import parse
from eleusis.rules.library import RULES
from eleusis.safejson import is_clean
from eleusis_web.controller import Controller
from eleusis_web.session import Setup
from eleusis_web.storage import MemoryStorage, Saves, check_archived, title_of

SCALE = max(1, int(os.environ.get("ELEUSIS_FUZZ", "1")))
HOSTILE_TEXTS = ["", " ", "\u202eevil\u202c", "<script>x</script>", "\x00\x1b[2J", "A" * 5000,
                 "\ud800", "card is red", "card is", "prev4 is K or prev3.suit == clubs",
                 "é" * 41, "\u2066x\u2069", "-- only a comment", "\n", "0001-01-01"]
#: What a binary link can carry (no lone surrogate: invalid UTF-8 comes from byte mutations).
LINK_TEXTS = [t for t in HOSTILE_TEXTS if t != "\ud800"]
HOSTILE_VALUES: list[Any] = [None, True, False, 0, -1, 1e300, -1e300, 2**64, 2**200, 0.5, "NaN",
                             "Infinity", [], {}, [[[[[[[[[[[]]]]]]]]]]], {"a": {"b": {"c": {}}}},
                             "9999-12-31", "0001-01-01", *HOSTILE_TEXTS[:8]]


def report(name: str, tried: int, outcomes: dict[str, int]) -> None:
    """Print the figures of one decoder's fuzzing."""
    print(f"\nfuzz {name}: {tried} inputs tried; " +
          ", ".join(f"{k}: {v}" for k, v in sorted(outcomes.items())))


# --------------------------------------------------------------------------- replay


def _real_rounds() -> list[State]:
    """A few real rounds of every kind to mutate (plays, hints, guesses, judges)."""
    r = random.Random(7)
    out = []
    for variant, names, dealer, options in (
        ("solo", ["You"], None, {"hints": True}),
        ("new_eleusis", ["Dealer", "Ada", "Bo"], 0, {}),
        ("express", ["Ada", "Bo", "Cy"], None, {"lives": 3}),
        ("royal", ["Ada", "Bo", "Cy"], None, {}),
        ("new_eleusis", ["Ada", "Bo", "Cy"], None, {}),
    ):
        state = new_game(make_config(variant, names, "card.color != prev.color", 11, dealer,
                                     **options))
        for _ in range(40):
            if state.over:
                break
            seat = next((i for i in range(state.config.seats)
                         if set(legal_actions(state, i).kinds) - {"request_hint"}), None)
            if seat is None:
                break
            legal = legal_actions(state, seat)
            if "hint" in legal.kinds and r.random() < 0.2:
                state = apply(state, Hint(seat, "look at colors"))
            elif "guess" in legal.kinds and r.random() < 0.15:
                state = apply(state, Guess(seat, r.choice(["card is red", "card.color != "
                                                           "prev.color"])))
            else:
                state = apply(state, random_action(state, r))
        out.append(state)
    return out


def _mutate_action(a: Action, r: random.Random) -> Action:
    cards = tuple(r.sample(ALL_CARDS, r.randint(0, 5)))
    choice = r.randrange(4)
    if choice == 0:
        return dataclasses.replace(a, seat=r.randrange(16))
    if choice == 1:
        return Play(a.seat, cards)
    if choice == 2:
        return Guess(a.seat, r.choice(LINK_TEXTS))
    return Hint(a.seat, r.choice(LINK_TEXTS))


def _mutate_log(state: State, r: random.Random) -> str:
    actions = list(state.actions)
    for _ in range(r.randint(1, 3)):
        op = r.randrange(6)
        if op == 0 and actions:
            del actions[r.randrange(len(actions))]
        elif op == 1 and actions:
            i = r.randrange(len(actions))
            actions[i:i] = [actions[i]] * r.randint(1, 30)
        elif op == 2 and len(actions) > 1:
            i, j = r.randrange(len(actions)), r.randrange(len(actions))
            actions[i], actions[j] = actions[j], actions[i]
        elif op == 3 and actions:
            i = r.randrange(len(actions))
            actions[i] = _mutate_action(actions[i], r)
        elif op == 4:
            actions.append(_mutate_action(actions[-1] if actions else Play(0), r))
        else:
            actions = actions[: r.randrange(len(actions) + 1)]
    actions = [a for a in actions if isinstance(a, Play | Guess | Hint)]
    cfg = state.config
    names = list(cfg.names)
    if r.random() < 0.3:
        names[r.randrange(len(names))] = r.choice(LINK_TEXTS)
    rule = cfg.rule if r.random() < 0.7 else r.choice([*LINK_TEXTS, RULES[0].text])
    dealer = cfg.dealer if r.random() < 0.8 else r.choice([None, 0, 5, 40])
    options = list(cfg.options) if r.random() < 0.8 else [("lives", r.choice([0, 3, -1, 99]))]
    return replay_text(cfg.variant.value, names, rule, actions, seed=cfg.seed, dealer=dealer,
                       options=options, count=None if r.random() < 0.9 else r.randrange(99999),
                       compress=r.random() < 0.7)


def _mutate_bytes(text: str, r: random.Random) -> str:
    raw = bytearray(base64.urlsafe_b64decode(text + "=" * (-len(text) % 4)))
    body = bytearray(zlib.decompress(bytes(raw[2:]))) if raw[1] & 1 else raw[2:]
    for _ in range(r.randint(1, 4)):
        if not body:
            break
        op, i = r.randrange(5), r.randrange(len(body))
        if op == 0:
            body[i] ^= 1 << r.randrange(8)
        elif op == 1:
            body[i] = r.choice([0, 0x7F, 0x80, 0xFF, 0x10, 0x20, 0x60])
        elif op == 2:
            body[i:i] = bytes([0xFF] * r.randint(1, 9) + [0x7F])
        elif op == 3:
            j = r.randrange(i, len(body))
            body[i:i] = body[i:j][:200]
        else:
            del body[i:i + r.randint(1, 8)]
    flag = r.choice([0, 1])
    packed = zlib.compress(bytes(body)) if flag else bytes(body)
    return b64(bytes((raw[0], flag)) + packed)


def _mutate_text(text: str, r: random.Random) -> str:
    op = r.randrange(3)
    if op == 0:
        return text[: r.randrange(len(text) + 1)]
    if op == 1:
        i = r.randrange(len(text))
        return text[:i] + r.choice("A_-=#&%\u202e ") + text[i + 1:]
    return text + text[: r.randrange(20)]


def test_fuzz_replay_decode() -> None:
    r = random.Random(190)
    seeds = _real_rounds()
    outcomes: dict[str, int] = {}
    tried = 0
    for _ in range(800 * SCALE):
        state = r.choice(seeds)
        kind = r.choice(["log", "bytes", "text"])
        if kind == "log":
            text = _mutate_log(state, r)
        elif kind == "bytes":
            text = _mutate_bytes(encode(state), r)
        else:
            text = _mutate_text(encode(state), r)
        tried += 1
        try:
            back = decode(text)
        except ReplayError:
            outcomes[f"{kind} refused"] = outcomes.get(f"{kind} refused", 0) + 1
            continue
        outcomes[f"{kind} decoded"] = outcomes.get(f"{kind} decoded", 0) + 1
        assert all(is_clean(n) for n in back.config.names)
        assert back.config.rule is None or parse(back.config.rule).text == back.config.rule
        assert decode(encode(back)) == back
    report("replay.decode", tried, outcomes)
    assert tried == 800 * SCALE and any("decoded" in k for k in outcomes)


# --------------------------------------------------------------------------- challenge


def test_fuzz_challenge_open() -> None:
    r = random.Random(191)
    outcomes: dict[str, int] = {}
    tried = 0
    for _ in range(1000 * SCALE):
        rule = r.choice(RULES).text
        author = r.choice(["Ann", "Zoë", "\u202eevil\u202c name", "x" * 40, "x" * 41, "a\x00",
                           "", " ", "\u200d", "\ufeffBOM"])
        op = r.randrange(4)
        if op == 0:
            rule = rule[: r.randrange(len(rule) + 1)]
        elif op == 1:
            rule = rule + r.choice([" -- c", "\n-- c\n", " and", "\u202e", " or card is red"])
        elif op == 2:
            i = r.randrange(len(rule))
            rule = rule[:i] + r.choice("()[]., \u202e9") + rule[i + 1:]
        token = challenge_token(author, rule, r.getrandbits(64))
        if r.random() < 0.3:
            token = _mutate_text(token, r)
        tried += 1
        try:
            c = open_challenge(token)
        except ChallengeError:
            outcomes["refused"] = outcomes.get("refused", 0) + 1
            continue
        outcomes["opened"] = outcomes.get("opened", 0) + 1
        assert isinstance(c, Challenge)
        assert is_clean(c.author) and 0 < len(c.author) <= 40
        assert parse(c.rule).text == c.rule
        c.start()
    report("challenge.open_challenge", tried, outcomes)
    assert tried == 1000 * SCALE and outcomes.get("opened") and outcomes.get("refused")


# --------------------------------------------------------------------------- JSON trees


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [at]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*at, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*at, i))
    return out


def mutate_json(doc: Any, r: random.Random) -> str:
    """One to three structural mutations of a JSON tree, as JSON text."""
    doc = copy.deepcopy(doc)
    for _ in range(r.randint(1, 3)):
        paths = _paths(doc)
        path = r.choice(paths[1:] or paths)
        if not path:
            break
        parent = doc
        for key in path[:-1]:
            parent = parent[key]
        key = path[-1]
        op = r.randrange(5)
        if op == 0:
            parent[key] = copy.deepcopy(r.choice(HOSTILE_VALUES))
        elif op == 1 and isinstance(parent, dict):
            del parent[key]
        elif op == 2 and isinstance(parent, list):
            parent.insert(key, copy.deepcopy(parent[key]))
        elif op == 3:
            parent[key] = [parent[key]]
        elif isinstance(parent, dict):
            parent[r.choice(["x", "extra", "kinds", "created", "id", "9999-12-31"])] = \
                copy.deepcopy(r.choice(HOSTILE_VALUES))
    text = json.dumps(doc)
    if r.random() < 0.05:
        text = text.replace("]", "]" * 0, 1).replace("[", "[" * 200, 1)
    return text


def _fuzz_json(name: str, doc: Any, n: int, seed: int,
               read: Callable[[str], Any], errors: tuple[type[Exception], ...]) -> None:
    r = random.Random(seed)
    outcomes: dict[str, int] = {}
    for _ in range(n):
        text = mutate_json(doc, r)
        try:
            read(text)
        except errors:
            outcomes["refused"] = outcomes.get("refused", 0) + 1
        else:
            outcomes["read"] = outcomes.get("read", 0) + 1
    report(name, n, outcomes)
    assert outcomes.get("read") and outcomes.get("refused")


def test_fuzz_notebook_token() -> None:
    nb = Notebook().add("card is red", "a note").add("prev is K\nor card is 2").tick(0)

    def read(text: str) -> None:
        back = Notebook.from_token(notebook_token(text))
        assert all(is_clean(e.text, True) and is_clean(e.note, True) for e in back.entries)

    _fuzz_json("notebook.from_token", nb.to_data(), 1500 * SCALE, 192, read, (NotebookError,))


def _page_archive() -> dict[str, Any]:
    games = []
    for variant, seats in (("solo", 0), ("express", 2)):
        c = Controller(lambda: 5)
        c.ui.setup = Setup(variant=variant, seed=5, rule="card is red")
        if seats:
            c.ui.setup.seats = c.ui.setup.seats[: seats + 1]
        c.dispatch({"type": "start", "seed": 5})
        assert c.session is not None
        games.append(c.session)
    arch = []
    for i, s in enumerate(games):
        data = s.to_data()
        extra = {k: v for k, v in data.items() if k not in ("id", "rounds")}
        arch.append(ArchivedGame(f"g{i}", title_of(s), tuple(data["rounds"]), 1.0, None, extra))
    doc: dict[str, Any] = json.loads(export_archive(arch))
    doc["daily"] = {"version": 1, "days": {"2026-11-20": {"solved": True, "score": 20,
                                                          "turns": 8, "wrong": 1}}}
    return doc


def test_fuzz_archive_import_then_load() -> None:
    """Whatever imports must load: the page's check, then saving and loading it again."""
    def read(text: str) -> None:
        archive = parse_archive(text, check_archived)
        saves = Saves(MemoryStorage())
        for g in archive.games:
            assert saves.write_archived(g)
            session = saves.load(g.id)
            assert session is not None, saves.notes
            session.computer_seats()
            title_of(session)
        if archive.daily is not None:
            streak(archive.daily, dt.date.max)
            best_streak(archive.daily)

    _fuzz_json("archive.parse_archive", _page_archive(), 600 * SCALE, 193, read,
               (ArchiveError,))


def test_fuzz_daily_history() -> None:
    doc = {"version": 1, "days": {d: {"solved": True, "score": 20, "turns": 8, "wrong": 1}
                                  for d in ("0001-01-01", "0001-01-02", "2026-11-20",
                                            "9999-12-30", "9999-12-31")}}
    r = random.Random(194)
    n = 2000 * SCALE
    reset = 0
    days = ["0001-01-01", "9999-12-31", "0000-01-01", "2026-02-29", "2024-02-29", "10000-01-01",
            "2026-W47-6", "2026-11-21T00:00", "+2026-11-21", "١٢٣٤-05-06"]
    for _ in range(n):
        if r.random() < 0.5:  # the keys: days the calendar has, or not
            mutated = copy.deepcopy(doc)
            old = r.choice(sorted(mutated["days"]))
            mutated["days"][r.choice(days)] = mutated["days"].pop(old)
            text = json.dumps(mutated)
        else:
            text = mutate_json(doc, r)
        history, message = load_history(text)
        reset += bool(message)
        for today in (dt.date.min, dt.date.max, dt.date(2026, 11, 21)):
            streak(history, today)
        best_streak(history)
    report("daily.load_history", n, {"reset": reset, "read": n - reset})
    assert 0 < reset < n
