"""Challenge links: write a rule, send a link, a friend plays Solo against it.

:func:`make_challenge` packs a rule, the deal's seed and the author's name in
one URL-safe token; :func:`open_challenge` reads it back as a
:class:`Challenge`, or raises :class:`ChallengeError` with a clear message --
never another exception, whatever the text (truncated, altered, random).
The friend plays the Solo game :meth:`Challenge.start` gives; at the end the
page shows the rule, and :func:`computer_result` plays the **same deal**
with a computer scientist (:mod:`eleusis.ai`) so both can compare.

The rule must not be readable in the link, so that the friend is not
spoiled by a glance at the address bar. This is **obfuscation, not
security**: anyone with this code can read the rule (the key is in the token).

Format, version 1: base64url without padding of::

    version byte (1) | seed (8 bytes, big-endian) | XOR(deflate(body) | check, keystream)

``body`` is ``len(author) byte | author UTF-8 | rule UTF-8`` (the rule in its
canonical form, the author's name cleaned by :func:`eleusis.safejson.clean_text`;
both are canonicalised again when a link is opened, so a hand-made link cannot
show comments or reorder the name); ``check`` is the first 4 bytes of ``sha256("eleusis-challenge:"
| seed | body)``, so a damaged or edited link is refused instead of giving a
garbled rule; the keystream is the SplitMix64 sequence (:mod:`eleusis.rng`)
started from the seed mixed with a constant, 8 bytes per step, big-endian.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import zlib
from dataclasses import dataclass
from typing import Final

from eleusis import rng
from eleusis.game import (
    Config,
    Pass,
    State,
    Variant,
    apply,
    legal_actions,
    make_config,
    new_game,
)
from eleusis.i18n import _
from eleusis.safejson import clean_text

VERSION: Final = 1
MAX_TOKEN: Final = 2048  # characters
MAX_AUTHOR: Final = 40  # characters, like a seat's name
MAX_RULE: Final = 600  # characters, the rule language's limit
_KEY_MIX: Final = 0x5EED_E1E0_5150_C0DE
_ALPHABET: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


class ChallengeError(ValueError):
    """A challenge that cannot be made or read; the message is for people."""


@dataclass(frozen=True, slots=True)
class Challenge:
    """A friend's challenge: the secret rule, the deal's seed and who wrote it."""

    rule: str
    seed: int
    author: str

    def config(self, player: str = "You") -> Config:
        """The Solo set-up for the friend (the name changes nothing but the label)."""
        return make_config(Variant.SOLO, [player], self.rule, self.seed)

    def start(self, player: str = "You") -> State:
        """The first state of the friend's game."""
        return new_game(self.config(player))

    @property
    def token(self) -> str:
        """The link token of this challenge."""
        return make_challenge(self.rule, self.seed, self.author)


def _keystream(seed: int, n: int) -> bytes:
    state = rng.seed_state(seed ^ _KEY_MIX)
    out = bytearray()
    while len(out) < n:
        value, state = rng.next_u64(state)
        out += value.to_bytes(8, "big")
    return bytes(out[:n])


def _xor(data: bytes, seed: int) -> bytes:
    return bytes(a ^ b for a, b in zip(data, _keystream(seed, len(data)), strict=True))


def _check(seed_bytes: bytes, body: bytes) -> bytes:
    return hashlib.sha256(b"eleusis-challenge:" + seed_bytes + body).digest()[:4]


def _author(author: object) -> str:
    if not isinstance(author, str):
        raise ChallengeError(_("the author's name must be a text"))
    if not author.strip():
        raise ChallengeError(_("the author's name is empty"))
    if len(author) > MAX_AUTHOR:
        raise ChallengeError(_("the author's name is too long (at most {count} characters)")
                             .format(count=MAX_AUTHOR))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in author):
        raise ChallengeError(_("the author's name holds a control character"))
    # as every name from outside: a right-to-left override cannot turn "X's challenge" around
    return clean_text(author)


def _rule(text: object, seed: int) -> str:
    """The canonical text of a rule fit for a Solo game, or :class:`ChallengeError`."""
    from eleusis.rules import RuleSyntaxError, parse

    if not isinstance(text, str):
        raise ChallengeError(_("the rule must be a text"))
    if len(text) > MAX_RULE:
        raise ChallengeError(_("the rule is too long (at most {count} characters)").format(
            count=MAX_RULE))
    try:
        canonical = parse(text).text
    except RuleSyntaxError as exc:
        raise ChallengeError(_("the rule does not parse: {problem}").format(
            problem=exc.message)) from None
    try:
        make_config(Variant.SOLO, ["You"], canonical, seed)
    except ValueError as exc:
        raise ChallengeError(_("this rule cannot be played: {problem}").format(
            problem=exc)) from None
    return canonical


def _seed(seed: object) -> int:
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise ChallengeError("the seed must be a whole number from 0 to 2**64 - 1")
    return seed


def make_challenge(rule_text: str, seed: int, author_name: str) -> str:
    """The URL-safe token of a challenge (the rule is checked and stored canonical).

    Raises :class:`ChallengeError` for a rule that does not parse or accepts
    no first card, a bad seed or a bad name.
    """
    s = _seed(seed)
    author = _author(author_name).encode("utf-8")
    rule = _rule(rule_text, s).encode("utf-8")
    body = bytes((len(author),)) + author + rule
    seed_bytes = s.to_bytes(8, "big")
    comp = zlib.compressobj(9, zlib.DEFLATED, -15)  # raw deflate: no recognisable header
    packed = comp.compress(body) + comp.flush()
    secret = _xor(packed + _check(seed_bytes, body), s)
    raw = bytes((VERSION,)) + seed_bytes + secret
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def open_challenge(token: str) -> Challenge:
    """Read a challenge token: a :class:`Challenge`, or :class:`ChallengeError` only."""
    try:
        return _open(token)
    except ChallengeError:
        raise
    except Exception as exc:  # never let another exception out of a link
        raise ChallengeError(f"this challenge link cannot be read ({type(exc).__name__})") from None


def _open(token: object) -> Challenge:
    if not isinstance(token, str):
        raise ChallengeError("a challenge link is a text")
    t = token.strip()
    if not t:
        raise ChallengeError("the challenge link is empty")
    if len(t) > MAX_TOKEN:
        raise ChallengeError("this challenge link is too long")
    if any(ch not in _ALPHABET for ch in t):
        raise ChallengeError("this is not a challenge link (unexpected characters)")
    if len(t) % 4 == 1:  # no base64 text has this length: a link cut in the middle
        raise ChallengeError("the challenge link is cut short")
    try:
        raw = base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
    except (binascii.Error, ValueError):
        raise ChallengeError("this is not a challenge link (bad base64)") from None
    if not raw:
        raise ChallengeError("the challenge link is cut short")
    if raw[0] != VERSION:
        raise ChallengeError(
            f"challenge format {raw[0]} is not known to this version (it reads format {VERSION})"
        )
    if len(raw) < 1 + 8 + 4 + 2:
        raise ChallengeError("the challenge link is cut short")
    seed_bytes = raw[1:9]
    seed = int.from_bytes(seed_bytes, "big")
    plain = _xor(raw[9:], seed)
    packed, check = plain[:-4], plain[-4:]
    d = zlib.decompressobj(-15)
    try:
        body = d.decompress(packed, 4 * MAX_RULE)
    except zlib.error:
        raise ChallengeError("the challenge link is damaged") from None
    if d.unconsumed_tail or not d.eof or d.unused_data:
        raise ChallengeError("the challenge link is damaged")
    if _check(seed_bytes, body) != check:
        raise ChallengeError("the challenge link is damaged (its check does not match)")
    n = body[0] if body else 0
    if len(body) < 1 + n:
        raise ChallengeError("the challenge link is damaged")
    try:
        author = body[1 : 1 + n].decode("utf-8")
        rule = body[1 + n :].decode("utf-8")
    except UnicodeDecodeError:
        raise ChallengeError("the challenge link is damaged (not UTF-8)") from None
    return Challenge(_rule(rule, seed), seed, _author(author))


# --------------------------------------------------------------------------- the computer's game


@dataclass(frozen=True, slots=True)
class ComputerResult:
    """The computer scientist's game on the challenge's deal."""

    strength: str
    solved: bool
    score: int
    turns: int
    wrong_guesses: int
    game: State  # the whole game (its replay: ``eleusis.replay.encode(game)``)


MAX_DECISIONS: Final = 400  # far above a Solo game's 30 turns and a few guesses


def computer_result(challenge: Challenge, strength: str = "strong") -> ComputerResult:
    """Play the challenge's deal with a computer scientist of ``strength``.

    Deterministic: the scientist is seeded with the challenge's seed. Raises
    ``ValueError`` for an unknown strength.
    """
    from eleusis.ai import Scientist
    from eleusis.ai import strength as preset
    from eleusis.views import view

    level = preset(strength)
    state = new_game(make_config(Variant.SOLO, ["Computer"], challenge.rule, challenge.seed))
    sci = Scientist(level.name, challenge.seed)
    for _step in range(MAX_DECISIONS):
        if state.over:
            break
        state = apply(state, sci.choose_action(view(state, 0)))
    return finish_result(level.name, state)


def finish_result(strength: str, state: State) -> ComputerResult:
    """The computer's result once its decisions are played (``state``): a game
    still open (the decision cap, a safety net only) is ended by passing.
    Shared by :func:`computer_result` and the page's sliced run."""
    if not state.over and "pass" in legal_actions(state, 0).kinds:
        state = apply(state, Pass(0))
    seat = state.seats[0]
    score = state.result.scores[0] if state.result is not None else -2 * seat.wrong_guesses
    return ComputerResult(
        strength, bool(seat.right_guess), score, state.turns, seat.wrong_guesses, state
    )


def compare_text(friend: State, computer: ComputerResult) -> str:
    """One sentence comparing the friend's finished game with the computer's."""
    strength = _(computer.strength)
    if friend.result is None:
        return _("The computer ({strength}) scored {score}.").format(
            strength=strength, score=computer.score)
    mine = friend.result.scores[0]
    if mine > computer.score:
        text = _("You scored {mine}, the computer ({strength}) {score}: you beat the computer.")
    elif mine < computer.score:
        text = _("You scored {mine}, the computer ({strength}) {score}: "
                 "the computer did better.")
    else:
        text = _("You scored {mine}, the computer ({strength}) {score}: a tie.")
    return text.format(mine=mine, strength=strength, score=computer.score)


__all__ = [
    "Challenge",
    "ChallengeError",
    "ComputerResult",
    "compare_text",
    "computer_result",
    "finish_result",
    "make_challenge",
    "open_challenge",
]
