"""Replay links: a whole round in one URL-safe string, and back.

``encode(game) -> str`` packs the configuration (variant, options, seed, seat
names, dealer seat, the secret rule's text) and the full action log. Computer
players' decisions are simply actions in the log: they are recorded, never
re-derived, so old links survive smarter computers. The deal and every draw
come from the seed through the game's own generator (:mod:`eleusis.rng`).

``decode(text) -> State`` rebuilds the round by re-applying every action
through :func:`eleusis.game.apply`, so a tampered log is refused; anything
wrong raises :class:`ReplayError` with a clear message, never another
exception. :func:`decode_states` gives the state after every action from the
same single pass (the replay viewer needs them all), and :func:`decode_steps`
the same in steps of a few milliseconds, for a page that must not block.

A link is untrusted, so before anything is applied the whole log is read and
its size checked: at most :data:`MAX_ACTIONS` actions, :data:`MAX_HINTS`
hints and :data:`MAX_GUESSES` guesses (each judged by an exact comparison of
rules) -- far above any real round, and small enough that decoding stays
short; while applying, at most :data:`MAX_DECKS` decks. What a link shows
is cleaned the same way: seat names through
:func:`eleusis.safejson.clean_text` (no right-to-left override can reorder a
sentence), hints likewise (newlines kept), and the secret rule in its
canonical printed form (no ``--`` comments, no layout from the link); none of
this changes how the round plays.

Format (version 1): base64url without padding of ``version byte`` +
``flags byte`` (bit 0: the rest is zlib-compressed) + body. The body is a
sequence of unsigned LEB128 varints and strings (varint length + UTF-8):
variant index, zigzag seed, dealer seat + 1 (0: computer dealer), names,
rule (0 = none, else length + 1 and UTF-8), options, then the actions. An
action is one byte ``type code << 4 | seat`` followed by its fields: cards as
a count and one byte per card (its index 0..51), a card or none as one byte
(0 = none, else index + 1), booleans as a byte, texts as strings.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections import OrderedDict
from collections.abc import Generator, Iterator, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final

from eleusis.cards import Card
from eleusis.game import (
    ACTION_TYPES,
    Action,
    ActionError,
    Config,
    Guess,
    Hint,
    RequestHint,
    State,
    Variant,
    apply,
    apply_steps,
    make_config,
    new_game,
)
from eleusis.rules.compare import SLICE_WORK
from eleusis.safejson import clean_text

VERSION: Final = 1
_FLAG_ZLIB: Final = 1
_VARIANTS: Final = (Variant.NEW_ELEUSIS, Variant.EXPRESS, Variant.SOLO, Variant.ROYAL)
_CODES: Final = {cls: code for code, cls in ACTION_TYPES.items()}
MAX_TEXT_BYTES: Final = 4096
#: Actions in one round (a real round takes a few hundred). The engine's work per action
#: grows with the log, so this also bounds the time a link can ask for.
MAX_ACTIONS: Final = 2000
#: Decks shuffled into one round (a real round uses two to six; a link of endless wrong
#: plays adds one every twenty-odd moves, and each makes every later move slower).
MAX_DECKS: Final = 16
#: Hints in one round (a dealer's own words and hints asked of the computer dealer).
MAX_HINTS: Final = 100
#: Guesses in one round: each is judged by an exact comparison of two rules, which can
#: take a second for rules that read several cards back.
MAX_GUESSES: Final = 24


class ReplayError(ValueError):
    """A replay text that cannot be read, or whose log is not a legal game."""


# --------------------------------------------------------------------------- writing


class _Writer:
    def __init__(self) -> None:
        self.out = bytearray()

    def uint(self, n: int) -> None:
        if n < 0:
            raise ValueError("negative varint")
        while True:
            b = n & 0x7F
            n >>= 7
            if n:
                self.out.append(b | 0x80)
            else:
                self.out.append(b)
                return

    def sint(self, n: int) -> None:
        self.uint(n * 2 if n >= 0 else -n * 2 - 1)

    def text(self, s: str) -> None:
        data = s.encode("utf-8")
        self.uint(len(data))
        self.out += data

    def value(self, v: object) -> None:
        if isinstance(v, bool):
            self.out.append(int(v))
        elif isinstance(v, int):
            self.sint(v)
        elif isinstance(v, str):
            self.text(v)
        elif v is None:
            self.out.append(0)
        elif isinstance(v, Card):
            self.out.append(v.index + 1)
        elif isinstance(v, tuple):
            self.uint(len(v))
            for c in v:
                if not isinstance(c, Card):
                    raise TypeError("only tuples of cards can be encoded")
                self.out.append(c.index)
        else:
            raise TypeError(f"cannot encode {type(v).__name__}")


def _field_kind(cls: type[Action], name: str) -> str:
    """How a field is written: by its default value's type (``card``: Card or None)."""
    for f in fields(cls):
        if f.name == name:
            default = f.default
            if isinstance(default, bool):
                return "bool"
            if isinstance(default, int):
                return "int"
            if isinstance(default, str):
                return "str"
            if isinstance(default, tuple):
                return "cards"
            return "card"
    raise KeyError(name)


def encode(game: State) -> str:
    """The URL-safe replay text of a round (any state: the log so far)."""
    cfg = game.config
    w = _Writer()
    w.uint(_VARIANTS.index(cfg.variant))
    w.sint(cfg.seed)
    w.uint(0 if cfg.dealer is None else cfg.dealer + 1)
    w.uint(len(cfg.names))
    for name in cfg.names:
        w.text(name)
    if cfg.rule is None:
        w.uint(0)
    else:
        data = cfg.rule.encode("utf-8")
        w.uint(len(data) + 1)
        w.out += data
    w.uint(len(cfg.options))
    for key, value in cfg.options:
        w.text(key)
        tag = 0 if isinstance(value, bool) else 1 if isinstance(value, int) else 2
        w.out.append(tag)
        w.value(value)
    w.uint(len(game.actions))
    for a in game.actions:
        code = _CODES[type(a)]
        w.out.append(code << 4 | a.seat)
        for f in fields(a)[1:]:
            w.value(getattr(a, f.name))
    body = bytes(w.out)
    packed = zlib.compress(body, 9)
    if len(packed) < len(body):
        raw = bytes((VERSION, _FLAG_ZLIB)) + packed
    else:
        raw = bytes((VERSION, 0)) + body
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


# --------------------------------------------------------------------------- reading


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def byte(self) -> int:
        if self.at >= len(self.data):
            raise ReplayError("the replay is cut short")
        b = self.data[self.at]
        self.at += 1
        return b

    def uint(self) -> int:
        n = shift = 0
        while True:
            b = self.byte()
            n |= (b & 0x7F) << shift
            if not b & 0x80:
                return n
            shift += 7
            if shift > 70:
                raise ReplayError("a number in the replay is too long")

    def sint(self) -> int:
        n = self.uint()
        return n // 2 if n % 2 == 0 else -(n + 1) // 2

    def raw(self, n: int) -> bytes:
        if n > MAX_TEXT_BYTES or self.at + n > len(self.data):
            raise ReplayError("the replay is cut short")
        out = self.data[self.at : self.at + n]
        self.at += n
        return out

    def text(self) -> str:
        try:
            return self.raw(self.uint()).decode("utf-8")
        except UnicodeDecodeError:
            raise ReplayError("a text in the replay is not UTF-8") from None

    def card(self, index: int) -> Card:
        if not 0 <= index < 52:
            raise ReplayError(f"no card has number {index}")
        return Card.from_index(index)

    def field(self, kind: str) -> object:
        if kind == "bool":
            b = self.byte()
            if b > 1:
                raise ReplayError("a yes/no value in the replay is neither")
            return bool(b)
        if kind == "int":
            return self.sint()
        if kind == "str":
            return self.text()
        if kind == "card":
            b = self.byte()
            return None if b == 0 else self.card(b - 1)
        n = self.uint()
        if n > 52 * 8:
            raise ReplayError("too many cards in one action")
        return tuple(self.card(self.byte()) for _ in range(n))


def _b64(text: str) -> bytes:
    if not isinstance(text, str):
        raise ReplayError("a replay is a text")
    t = text.strip()
    if not t or any(c not in _ALPHABET for c in t):
        raise ReplayError("this is not a replay link (unexpected characters)")
    try:
        return base64.urlsafe_b64decode(t + "=" * (-len(t) % 4))
    except (binascii.Error, ValueError):
        raise ReplayError("this is not a replay link (bad base64)") from None


_ALPHABET: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")


def _read_config(r: _Reader) -> Config:
    k = r.uint()
    if k >= len(_VARIANTS):
        raise ReplayError("the replay names an unknown variant")
    variant = _VARIANTS[k]
    seed = r.sint()
    dealer_code = r.uint()
    count = r.uint()
    if count > 16:
        raise ReplayError("too many seats")
    names = [r.text() for _ in range(count)]
    rule_len = r.uint()
    rule = None if rule_len == 0 else r.raw(rule_len - 1).decode("utf-8", errors="strict")
    if rule is not None:
        rule = _canonical(rule)
    options: dict[str, Any] = {}
    for _ in range(r.uint()):
        key = r.text()
        tag = r.byte()
        if tag not in (0, 1, 2):
            raise ReplayError("an option in the replay has an unknown type")
        options[key] = r.field(("bool", "int", "str")[tag])
    dealer = None if dealer_code == 0 else dealer_code - 1
    names = [clean_text(n) for n in names]
    try:
        return make_config(variant, names, rule, seed, dealer, **options)
    except ValueError as exc:  # ConfigError and friends
        raise ReplayError(f"the replay's set-up is not valid: {exc}") from None


def _canonical(rule: str) -> str:
    """The printed form of a rule from a link (what is shown and played)."""
    from eleusis.rules import RuleSyntaxError, parse

    try:
        return parse(rule).text
    except RuleSyntaxError as exc:
        raise ReplayError(f"the replay's secret rule does not parse: {exc.message}") from None


#: Replay texts decoded lately and their last state (see :func:`decode`).
REMEMBERED: Final = 64
_DECODED: OrderedDict[str, State] = OrderedDict()


def decode(text: str) -> State:
    """The round a replay text holds (re-validated action by action), or :class:`ReplayError`.

    The last :data:`REMEMBERED` texts decoded (here or by :func:`decode_steps`)
    are remembered: a page that decoded a saved game's rounds in slices then
    loads the game at once.
    """
    found = _DECODED.get(text) if isinstance(text, str) else None
    if found is not None:
        _DECODED.move_to_end(text)
        return found
    state = decode_states(text)[-1]
    _remember(text, state)
    return state


def _remember(text: str, state: State) -> None:
    _DECODED[text] = state
    while len(_DECODED) > REMEMBERED:
        _DECODED.popitem(last=False)


def decode_states(text: str) -> tuple[State, ...]:
    """The first state and the state after each action of a replay text (one pass).

    Raises :class:`ReplayError` only; the log's size is checked before any
    action is applied.
    """
    return tuple(decode_iter(text))


def decode_iter(text: str) -> Iterator[State]:
    """:func:`decode_states` one state at a time.

    The text is read and its log checked (size, counts) before the first
    state is given; each further ``next`` applies one action. Raises
    :class:`ReplayError` only, at the first ``next`` or later.
    """
    try:
        cfg, actions = _read(text)
        for state in _states(cfg, actions, slice_work=None):
            if state is not None:
                yield state
    except ReplayError:
        raise
    except Exception as exc:  # never let another exception out of a link
        raise ReplayError(f"this replay cannot be read ({type(exc).__name__})") from None


@dataclass(frozen=True, slots=True)
class Progress:
    """How far :func:`decode_steps` has gone: ``done`` of the log's ``total`` moves."""

    done: int
    total: int


def decode_steps(text: str, *, slice_work: int = SLICE_WORK
                 ) -> Generator[Progress, None, tuple[State, ...]]:
    """:func:`decode_states` in small steps, for a page that must not block.

    Yields a :class:`Progress` after reading the text (set-up and log, checked
    and counted: linear in the text), after each action applied and after each
    slice of ``slice_work`` units of the exact comparison a recorded guess
    asks for (:func:`eleusis.game.apply_steps`): each step is a few
    milliseconds of work at most. Returns the same states as :func:`decode_states`. Raises
    :class:`ReplayError` only.

        >>> from eleusis.game import make_config, new_game
        >>> text = encode(new_game(make_config("solo", ["You"], "card is red", 3)))
        >>> steps = decode_steps(text)
        >>> next(steps)
        Progress(done=0, total=0)
        >>> while True:
        ...     try:
        ...         next(steps)
        ...     except StopIteration as end:
        ...         states = end.value
        ...         break
        Progress(done=0, total=0)
        >>> len(states)
        1
    """
    try:
        cfg, actions = _read(text)
        total = len(actions)
        states: list[State] = []
        yield Progress(0, total)
        for state in _states(cfg, actions, slice_work=slice_work):
            if state is not None:
                states.append(state)
            yield Progress(max(0, len(states) - 1), total)
        _remember(text, states[-1])
        return tuple(states)
    except ReplayError:
        raise
    except Exception as exc:  # never let another exception out of a link
        raise ReplayError(f"this replay cannot be read ({type(exc).__name__})") from None


def _read_actions(r: _Reader) -> list[Action]:
    """Every action of the log, read and counted before any is applied."""
    count = r.uint()
    if count > MAX_ACTIONS:
        raise ReplayError(
            f"the replay holds too many moves ({count}; a round has at most {MAX_ACTIONS})"
        )
    out: list[Action] = []
    hints = guesses = 0
    for i in range(count):
        head = r.byte()
        cls = ACTION_TYPES.get(head >> 4)
        if cls is None:
            raise ReplayError(f"action {i + 1} has an unknown type")
        values = [r.field(_field_kind(cls, f.name)) for f in fields(cls)[1:]]
        action = cls(head & 15, *values)
        if isinstance(action, Hint | RequestHint):
            hints += 1
            if hints > MAX_HINTS:
                raise ReplayError(
                    f"the replay holds too many hints (at most {MAX_HINTS} in a round)")
            if isinstance(action, Hint):
                action = Hint(action.seat, clean_text(action.text, multiline=True))
        elif isinstance(action, Guess):
            guesses += 1
            if guesses > MAX_GUESSES:
                raise ReplayError(
                    f"the replay holds too many guesses (at most {MAX_GUESSES} in a round)")
        out.append(action)
    if r.at != len(r.data):
        raise ReplayError("the replay has trailing data")
    return out


@dataclass(frozen=True, slots=True)
class LogSize:
    """What a replay asks of the engine, read without applying anything."""

    moves: int
    hints: int
    guesses: int


def log_size(text: str) -> LogSize:
    """Read a replay text whole (set-up and log, checked as :func:`decode` does) but apply
    nothing: how many moves, hints and guesses it holds. :class:`ReplayError` only.

    Cheap (linear in the text), so a caller holding many replays -- an archive --
    can refuse too much work in total before decoding any.
    """
    try:
        _, actions = _read(text)
    except ReplayError:
        raise
    except Exception as exc:  # never let another exception out of a link
        raise ReplayError(f"this replay cannot be read ({type(exc).__name__})") from None
    return LogSize(
        len(actions),
        sum(isinstance(a, Hint | RequestHint) for a in actions),
        sum(isinstance(a, Guess) for a in actions),
    )


def _read(text: str) -> tuple[Config, list[Action]]:
    """The set-up and the log of a replay text, read and counted, nothing applied."""
    data = _b64(text)
    if len(data) < 2:
        raise ReplayError("the replay is cut short")
    if data[0] != VERSION:
        raise ReplayError(
            f"replay format {data[0]} is not known to this version (it reads format {VERSION})"
        )
    flags, body = data[1], data[2:]
    if flags & ~_FLAG_ZLIB:
        raise ReplayError("the replay has unknown flags")
    if flags & _FLAG_ZLIB:
        try:
            d = zlib.decompressobj()
            body = d.decompress(body, 1 << 20)
            if d.unconsumed_tail:
                raise ReplayError("the replay is too large")
            if not d.eof:
                raise ReplayError("the replay is cut short: the link is incomplete")
            if d.unused_data:
                raise ReplayError("the replay has trailing data")
        except zlib.error:
            raise ReplayError("the replay is damaged (compressed data)") from None
    r = _Reader(body)
    try:
        cfg = _read_config(r)
    except UnicodeDecodeError:
        raise ReplayError("a text in the replay is not UTF-8") from None
    return cfg, _read_actions(r)


def _states(cfg: Config, actions: Sequence[Action], *, slice_work: int | None
            ) -> Iterator[State | None]:
    """The first state, then the state after each action (with ``slice_work``: a None
    after each slice of a guess's comparison, see :func:`eleusis.game.apply_steps`)."""
    try:
        state = new_game(cfg)
    except ValueError as exc:
        raise ReplayError(f"the replay's set-up is not valid: {exc}") from None
    yield state
    for i, action in enumerate(actions):
        try:
            if slice_work is not None:
                steps = apply_steps(state, action, slice_work=slice_work)
                while True:
                    try:
                        next(steps)
                    except StopIteration as done:
                        state = done.value
                        break
                    yield None
            else:
                state = apply(state, action)
        except ActionError as exc:
            raise ReplayError(
                f"action {i + 1} ({action.kind.replace('_', ' ')} by seat {action.seat})"
                f" is refused: {exc.message}"
            ) from None
        if state.decks > MAX_DECKS:
            raise ReplayError(
                f"the replay's round uses too many decks (at most {MAX_DECKS}; "
                f"action {i + 1} shuffles in deck {state.decks})"
            )
        yield state
