"""Builders of hostile inputs shared by the hostile-input tests (engine and browser).

Each builds what an attacker can put in a link, a file or the browser's
storage: raw replay bodies with any log, notebook tokens inflating to any
JSON text, challenge tokens with a valid check around any body.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Sequence

from eleusis import challenge as ch
from eleusis.game import (
    Action,
    Guess,
    Hint,
    NoPlay,
    Play,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from eleusis.replay import _CODES, _VARIANTS, VERSION, _Writer, encode
from eleusis.rules import parse

#: The rule a Solo guess is judged against in the worst links: it reads four cards back,
#: so every exact comparison with it explores many states.
DEEP_RULE = "card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != 20 or " \
    "card.suit == prev4.suit"


def b64(raw: bytes) -> str:
    """URL-safe base64 without padding (the links' alphabet)."""
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def replay_text(
    variant: str,
    names: Sequence[str],
    rule: str | None,
    actions: Sequence[Action],
    *,
    seed: int = 1,
    dealer: int | None = None,
    options: Sequence[tuple[str, bool | int | str]] = (),
    count: int | None = None,
    compress: bool = True,
) -> str:
    """A replay text with any log (not applied: it need not be legal).

    ``count`` overrides the number of actions written in the header (a lie).
    """
    w = _Writer()
    w.uint([v.value for v in _VARIANTS].index(variant))
    w.sint(seed)
    w.uint(0 if dealer is None else dealer + 1)
    w.uint(len(names))
    for n in names:
        w.text(n)
    if rule is None:
        w.uint(0)
    else:
        data = rule.encode("utf-8")
        w.uint(len(data) + 1)
        w.out += data
    w.uint(len(options))
    for key, value in options:
        w.text(key)
        w.out.append(0 if isinstance(value, bool) else 1 if isinstance(value, int) else 2)
        w.value(value)
    w.uint(len(actions) if count is None else count)
    for a in actions:
        w.out.append(_CODES[type(a)] << 4 | a.seat)
        if isinstance(a, Play):
            w.value(a.cards)
        elif isinstance(a, Guess | Hint):
            w.text(a.text)
        else:
            raise TypeError("only plays, guesses and hints are built here")
    body = bytes(w.out)
    if compress:
        return b64(bytes((VERSION, 1)) + zlib.compress(body, 9))
    return b64(bytes((VERSION, 0)) + body)


def notebook_token(json_text: str) -> str:
    """A notebook token (``&n=``) inflating to ``json_text``, whatever it is."""
    return b64(zlib.compress(json_text.encode("utf-8"), 9))


def deep_notebook_link() -> tuple[str, str]:
    """The short replay link of the issue: a valid one-move replay and a notebook token
    that inflates to 20,000 ``[`` (``(replay text, notebook token)``)."""
    return replay_text("solo", ["You"], "card is red", []), notebook_token("[" * 20000)


def challenge_token(author: str, rule: str, seed: int = 7) -> str:
    """A challenge token with a valid check around any author and rule bytes (not checked)."""
    seed_bytes = seed.to_bytes(8, "big")
    a = author.encode("utf-8")
    body = bytes((len(a),)) + a + rule.encode("utf-8")
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = c.compress(body) + c.flush()
    plain = packed + ch._check(seed_bytes, body)
    return b64(bytes((ch.VERSION,)) + seed_bytes + ch._xor(plain, seed))


def hint_flood(n: int) -> str:
    """A New Eleusis replay with a person dealer giving ``n`` hints (legal one by one)."""
    return replay_text("new_eleusis", ["Dealer", "Ada", "Bo", "Cy"], "card is red",
                       [Hint(0, "x")] * n, dealer=0)


def guess_flood(n: int, rule: str = DEEP_RULE) -> str:
    """A Solo replay of ``n`` different wrong guesses, each judged by an exact comparison."""
    guesses = [Guess(0, f"card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != {k}")
               for k in range(21, 21 + n)]
    return replay_text("solo", ["You"], rule, guesses, seed=5)


def wrong_play_marathon(moves: int) -> str:
    """An Express round of endless wrong plays (legal one by one: a wrong card draws one,
    a "no play" when no card is wrong): decks are shuffled in as long as the log goes on."""
    rule = parse("card is red")
    state = new_game(make_config("express", ["A", "B", "C"], rule.text, 7,
                                 stock_out="new_deck", lives=0))
    while not state.over and len(state.actions) < moves:
        seat = next(i for i in range(3)
                    if {"play", "no_play"} & set(legal_actions(state, i).kinds))
        line = [c.card.card for c in state.layout]
        wrong = [c for c in state.hand(seat) if not rule.accepts(line, c)]
        state = apply(state, Play(seat, (wrong[0],)) if wrong else NoPlay(seat))
    return encode(state)


def deep_guess_save(guesses: int) -> dict[str, str]:
    """The ``localStorage`` items of a saved Solo game (the page's own format, the current
    game) on :data:`DEEP_RULE` holding ``guesses`` wrong guesses: loading it replays
    each guess's exact comparison."""
    from eleusis_web.controller import Controller
    from eleusis_web.session import Setup
    from eleusis_web.storage import CURRENT, PREFIX, MemoryStorage, Saves

    c = Controller(lambda: 5)
    c.ui.setup = Setup(variant="solo", seed=5, rule=DEEP_RULE)
    c.dispatch({"type": "start", "seed": 5})
    assert c.session is not None
    for k in range(guesses):
        c.act(Guess(0, f"card.rank + prev.rank + prev2.rank + prev3.rank + prev4.rank != "
                       f"{21 + k}"))
    store = MemoryStorage()
    Saves(store).write(c.session.to_data(), "Solo")
    sid = c.session.id
    return {CURRENT: sid, PREFIX + sid: str(store.getItem(PREFIX + sid))}
