"""Challenge links: round trip, the rule hidden in the link, fuzzed links, the computer's game."""

from __future__ import annotations

import base64
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eleusis.challenge import (
    VERSION,
    Challenge,
    ChallengeError,
    compare_text,
    computer_result,
    make_challenge,
    open_challenge,
)
from eleusis.game import new_game, state_hash
from eleusis.replay import decode, encode

RULE = "if prev is red then card.rank > prev.rank else card is red"
HOSTILE = [
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "Zoë 🃏 ♥",
    "x" * 40,
]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def test_round_trip() -> None:
    for seed in (0, 1, 12345, 2**64 - 1):
        for author in HOSTILE:
            token = make_challenge(RULE, seed, author)
            assert open_challenge(token) == Challenge(RULE, seed, author)
            assert open_challenge(f"  {token}\n") == Challenge(RULE, seed, author)


def test_the_rule_is_stored_in_its_canonical_form() -> None:
    c = open_challenge(make_challenge("CARD IS RED  -- easy", 7, "Ada"))
    assert c.rule == "card is red"
    assert c.token == make_challenge("card is red", 7, "Ada")


def test_the_rule_is_not_readable_in_the_link() -> None:
    rule = "card.rank in {2, 3, 5, 7} or card.suit == prev.suit"
    token = make_challenge(rule, 99, "Ada")
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    data = rule.encode()
    assert data not in raw and rule.lower() not in token.lower()
    for word in ("card", "rank", "suit", "prev"):
        assert word.encode() not in raw and word not in token
    # nor as base64 of the text, at any alignment, standard or URL-safe
    for shift in range(3):
        for enc in (base64.b64encode, base64.urlsafe_b64encode):
            text = enc(b"\0" * shift + data).decode()
            middle = text[4:-4]
            assert middle not in token
            assert middle[:12] not in token


def test_the_friend_and_the_computer_get_the_same_deal() -> None:
    c = open_challenge(make_challenge(RULE, 4242, "Ada"))
    mine = c.start("Bo")
    theirs = computer_result(c, "novice")
    first = decode(encode(theirs.game)).config
    assert first.rule == c.rule and first.seed == c.seed
    assert mine.config.rule == c.rule and mine.config.seed == c.seed
    assert mine.mainline[0] == theirs.game.mainline[0]
    assert mine.stock == new_game(theirs.game.config).stock  # names change no card


def test_the_computer_result_is_deterministic_and_scored() -> None:
    c = open_challenge(make_challenge(RULE, 77, "Ada"))
    a, b = computer_result(c, "strong"), computer_result(c, "strong")
    assert state_hash(a.game) == state_hash(b.game)
    assert a.game.over and a.game.result is not None
    assert a.score == a.game.result.scores[0]
    assert a.solved == a.game.seats[0].right_guess
    assert a.turns == a.game.turns and a.wrong_guesses == a.game.seats[0].wrong_guesses
    if a.solved:
        assert a.score == 30 - a.turns - 2 * a.wrong_guesses
    text = compare_text(a.game, a)
    assert text == f"You scored {a.score}, the computer (strong) {a.score}: a tie."
    with pytest.raises(ValueError, match="unknown strength"):
        computer_result(c, "godlike")


@pytest.mark.parametrize(
    ("rule", "seed", "author", "message"),
    [
        ("card is", 1, "Ada", "does not parse"),
        ("false", 1, "Ada", "cannot be played"),
        ("x" * 601, 1, "Ada", "too long"),
        (RULE, -1, "Ada", "seed"),
        (RULE, 2**64, "Ada", "seed"),
        (RULE, True, "Ada", "seed"),
        (RULE, 1, "", "empty"),
        (RULE, 1, "   ", "empty"),
        (RULE, 1, "x" * 41, "too long"),
        (RULE, 1, "a\nb", "control character"),
        (RULE, 1, None, "must be a text"),
        (None, 1, "Ada", "must be a text"),
    ],
)
def test_bad_challenges_cannot_be_made(rule: object, seed: object, author: object,
                                       message: str) -> None:
    with pytest.raises(ChallengeError, match=message):
        make_challenge(rule, seed, author)  # type: ignore[arg-type]


def test_clear_messages_for_bad_links() -> None:
    token = make_challenge(RULE, 5, "Ada")
    raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
    cases = {
        "": "empty",
        "not a link!": "unexpected characters",
        token[:5]: "cut short",
        "x" * 3000: "too long",
        _b64(bytes((VERSION + 1,)) + raw[1:]): "format 2 is not known",
        _b64(raw[:-1] + bytes((raw[-1] ^ 1,))): "damaged",
    }
    for text, message in cases.items():
        with pytest.raises(ChallengeError, match=message):
            open_challenge(text)
    with pytest.raises(ChallengeError, match="is a text"):
        open_challenge(None)  # type: ignore[arg-type]


def test_every_truncation_and_every_single_change_is_refused_or_harmless() -> None:
    token = make_challenge(RULE, 31337, "Ada")
    original = open_challenge(token)
    for n in range(len(token)):
        try:
            got = open_challenge(token[:n])
        except ChallengeError:
            continue
        assert got == original  # only the unused padding bits may go
    r = random.Random(3)
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    changed = 0
    for i in range(len(token)):
        ch = r.choice([c for c in alphabet if c != token[i]])
        try:
            got = open_challenge(token[:i] + ch + token[i + 1 :])
        except ChallengeError:
            changed += 1
            continue
        assert got == original  # the last character's unused bits
    assert changed >= len(token) - 1


_TOKEN = make_challenge(RULE, 2024, "Ada")


@settings(max_examples=300, deadline=None)
@given(
    st.text(max_size=120)
    | st.binary(max_size=120).map(_b64)
    | st.binary(max_size=80).map(lambda b: _b64(bytes((VERSION,)) + b))
    | st.builds(lambda n, junk: _TOKEN[:n] + junk, st.integers(0, len(_TOKEN)),
                st.text("AZaz09-_", max_size=6))
    | st.builds(lambda i, b: _b64(bytearray(base64.urlsafe_b64decode(_TOKEN + "=="))[:i]
                                  + bytes((b,))
                                  + base64.urlsafe_b64decode(_TOKEN + "==")[i + 1 :]),
                st.integers(0, 60), st.integers(0, 255))
)
def test_fuzzed_links_give_a_challenge_error_only(text: str) -> None:
    try:
        c = open_challenge(text)
    except ChallengeError as exc:
        assert str(exc)
        return
    assert open_challenge(c.token) == c
