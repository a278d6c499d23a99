"""The page's intent vocabulary: every intent a control can send, parsed and checked once.

A control carries its intent as JSON (``data-intent``, ``data-change``,
``data-input``); the page hands the raw object to :func:`parse`, which returns
an :class:`Intent` whose fields have the types written here, or raises
:class:`IntentError` with a sentence for the player. Nothing downstream reads
an unchecked value: a tampered ``data-intent`` (an unknown kind, a card that
does not exist, a number that is not one) is refused with a message and
changes nothing, it never reaches the error panel.

Each kind names the part of the page that owns it (:data:`OWNERS`): the
table's controller, or one of the share features (replay viewer, notebook,
daily puzzle, challenge, archive) or the saved-games list. The app's one
router hands the intent to that owner.

>>> parse({"type": "play"}).kind
'play'
>>> parse({"type": "try_add", "card": "10H"}).get("card")
'10H'
>>> parse({"type": "try_add", "card": "1Z"})
Traceback (most recent call last):
...
eleusis_web.intents.IntentError: That card does not exist.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Final

from eleusis.cards import Card
from eleusis.i18n import _, available

#: What a field may hold once parsed.
Value = str | int | bool | None

#: Longest free text an intent carries (rules, guesses, hints, notes).
MAX_TEXT: Final = 600


class IntentError(ValueError):
    """An intent the page refuses; ``str(error)`` is a sentence for the player."""


# --------------------------------------------------------------------------- field types

Field = Callable[[object], Value]


def text(limit: int = MAX_TEXT) -> Field:
    """Free text, cut at ``limit`` characters."""

    def read(raw: object) -> str:
        if not isinstance(raw, str | int | float) or isinstance(raw, bool):
            raise IntentError(_("That text could not be read."))
        return str(raw)[:limit]

    return read


def number(low: int = -1, high: int = 1_000_000) -> Field:
    """A whole number from ``low`` to ``high`` (also given as digits in text)."""

    def read(raw: object) -> int:
        if isinstance(raw, bool):
            raise IntentError(_("That number could not be read."))
        if isinstance(raw, str) and raw.strip().lstrip("-").isdigit():
            raw = int(raw.strip())
        if not isinstance(raw, int) or not low <= raw <= high:
            raise IntentError(_("That number could not be read."))
        return raw

    return read


def flag(raw: object) -> bool:
    """Yes or no (``true``/``false``, ``1``/``0``, ``on``)."""
    if isinstance(raw, bool):
        return raw
    if isinstance(raw, int | str) and str(raw).lower() in ("1", "true", "on", "yes"):
        return True
    if isinstance(raw, int | str) and str(raw).lower() in ("0", "false", "off", "no", ""):
        return False
    raise IntentError(_("That choice could not be read."))


def card(raw: object) -> str:
    """A card's code (``10H``, ``QS``...), canonical."""
    if not isinstance(raw, str) or len(raw) > 8:
        raise IntentError(_("That card does not exist."))
    try:
        return Card.parse(raw).code
    except ValueError:
        raise IntentError(_("That card does not exist.")) from None


def maybe_card(raw: object) -> str | None:
    """A card's code, or nothing (empty or missing)."""
    return None if raw in (None, "") else card(raw)


def one_of(*choices: str) -> Field:
    """One of ``choices``."""

    def read(raw: object) -> str:
        if not isinstance(raw, str) or raw not in choices:
            raise IntentError(_("That choice is not offered here."))
        return raw

    return read


def bets(raw: object) -> str:
    """Royal Eleusis: a bet sequence, one letter a card (``A`` accepted, ``R`` refused)."""
    if not isinstance(raw, str) or not 1 <= len(raw) <= 4 or set(raw) - {"A", "R"}:
        raise IntentError(_("That bet could not be read."))
    return raw


def ident(raw: object) -> str:
    """A short identifier (a saved game's id)."""
    if not isinstance(raw, str) or not 0 < len(raw) <= 80:
        raise IntentError(_("That saved game could not be found."))
    return raw


# --------------------------------------------------------------------------- the vocabulary

#: Setup fields the new-game screen may change.
SETUP_FIELDS: Final = ("variant", "dealer", "difficulty", "match", "pace", "dealer_name",
                       "seat_name", "seat_kind", "seat_strength")

#: Pace names (the controller maps them to delays).
PACE_NAMES: Final = ("slow", "normal", "fast", "instant")

#: kind -> (owner, {field: (reader, required)})
_V = dict[str, tuple[Field, bool]]
VOCABULARY: Final[dict[str, tuple[str, _V]]] = {
    # the new-game screen and screens
    "show_setup": ("table", {}),
    "setup_change": ("table", {"field": (one_of(*SETUP_FIELDS), True),
                               "value": (text(80), True), "seat": (number(0, 20), False)}),
    "add_seat": ("table", {"kind": (one_of("person", "computer"), False)}),
    "remove_seat": ("table", {"seat": (number(0, 20), True)}),
    "new_game": ("table", {"variant": (text(40), False)}),
    "start": ("table", {"seed": (number(0, 2**63), False)}),
    "show_table": ("table", {}),
    "learn_start": ("table", {}),
    "lesson_next": ("table", {}),
    "lesson_leave": ("table", {}),
    "show_help": ("table", {}),
    "close_help": ("table", {}),
    "show_rule_help": ("table", {"field": (text(40), False)}),
    "try_rule": ("table", {"value": (text(), True)}),
    "pace": ("table", {"value": (one_of(*PACE_NAMES), True)}),
    "contrast": ("table", {"value": (flag, False)}),
    "language": ("language", {"value": (one_of(*available()), True)}),
    # a person writing the rule
    "rule_text": ("table", {"value": (text(), True)}),
    "try_add": ("table", {"card": (card, True)}),
    "try_suit": ("table", {"suit": (one_of("S", "H", "D", "C"), True)}),
    "try_clear": ("table", {}),
    "rule_accept": ("table", {}),
    "writer_ready": ("table", {}),
    # play
    "select": ("table", {"card": (card, True), "copy": (number(0, 7), False)}),
    "hand_focus": ("table", {"card": (card, True), "copy": (number(0, 7), False)}),
    "play": ("table", {}),
    "bet": ("table", {"kinds": (bets, False)}),
    "bet_mark": ("table", {"card": (card, True), "copy": (number(0, 7), False)}),
    "no_play": ("table", {}),
    "declare_prophet": ("table", {}),
    "call": ("table", {"right": (flag, True), "card": (maybe_card, False)}),
    "judge": ("table", {"right": (flag, True), "card": (maybe_card, False)}),
    "judge_card": ("table", {"card": (maybe_card, False)}),
    "pass": ("table", {}),
    "continue": ("table", {"auto": (flag, False)}),
    "dealer_ready": ("table", {}),
    "reveal": ("table", {}),
    "guess_open": ("table", {"open": (flag, False)}),
    "guess_close": ("table", {}),
    "guess_text": ("table", {"value": (text(), True)}),
    "guess": ("table", {"value": (text(), False)}),
    "hint_request": ("table", {}),
    "hint_text": ("table", {"value": (text(), True)}),
    "hint_give": ("table", {"value": (text(), False)}),
    "toggle_side": ("table", {"col": (number(0, 10_000), True)}),
    "next_round": ("table", {}),
    "end_match": ("table", {"confirm": (flag, False)}),
    "end_match_cancel": ("table", {}),
    # saved games
    "resume": ("saves", {"id": (ident, True)}),
    "delete_save": ("saves", {"id": (ident, True)}),
    "delete_save_undo": ("saves", {}),
    "delete_corrupt": ("saves", {}),
    # sharing
    "share_replay": ("share", {}),
    "copy_text": ("share", {"value": (text(4000), True), "field": (text(40), False)}),
    "replay_close": ("replay", {}),
    "replay_seek": ("replay", {"value": (number(0, 100_000), True)}),
    "replay_toggle": ("replay", {}),
    "nb_add": ("notebook", {}),
    "nb_text": ("notebook", {"value": (text(), True)}),
    "nb_tick": ("notebook", {"index": (number(0, 10_000), True), "value": (flag, False)}),
    "nb_up": ("notebook", {"index": (number(0, 10_000), True)}),
    "nb_down": ("notebook", {"index": (number(0, 10_000), True)}),
    "nb_remove": ("notebook", {"index": (number(0, 10_000), True)}),
    "nb_focus": ("notebook", {"id": (number(0, 10**9), True)}),
    "daily_start": ("daily", {}),
    "challenge_open": ("challenge", {}),
    "challenge_back": ("challenge", {}),
    "challenge_rule": ("challenge", {"value": (text(), True)}),
    "challenge_name": ("challenge", {"value": (text(40), True)}),
    "challenge_make": ("challenge", {}),
    "challenge_share": ("challenge", {}),
    "archive_export": ("archive", {}),
    "archive_file": ("archive", {"value": (text(), False)}),
    "archive_cancel": ("archive", {}),
    "archive_apply": ("archive", {"mode": (one_of("new", "overwrite", "both"), False)}),
}

#: The owner of each kind.
OWNERS: Final[dict[str, str]] = {kind: owner for kind, (owner, _) in VOCABULARY.items()}

#: Older spellings still sent by the page's shell (``index.html``) or old links.
ALIASES: Final[dict[str, str]] = {"new-game": "new_game"}


@dataclass(frozen=True, slots=True)
class Intent:
    """A checked intent: its kind, its owner and its typed fields."""

    kind: str
    owner: str
    fields: tuple[tuple[str, Value], ...] = ()

    def get(self, name: str, default: Value = None) -> Value:
        """A field's value (``default`` when the intent does not carry it).

        ``get("type")`` is the kind, as in the raw JSON.
        """
        if name == "type":
            return self.kind
        for key, value in self.fields:
            if key == name:
                return value
        return default

    def text(self, name: str, default: str = "") -> str:
        """A text field (``default`` when absent)."""
        value = self.get(name)
        return default if value is None else str(value)

    def number(self, name: str, default: int = -1) -> int:
        """A number field (``default`` when absent)."""
        value = self.get(name)
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def __contains__(self, name: object) -> bool:
        return any(key == name for key, _ in self.fields)


def parse(raw: Mapping[str, object] | Intent) -> Intent:
    """Check a raw intent (a JSON object from the page) against the vocabulary.

    Unknown fields are ignored; a missing required field, a value of the wrong
    kind or an unknown intent raises :class:`IntentError`.
    """
    if isinstance(raw, Intent):
        return raw
    if not isinstance(raw, Mapping):
        raise IntentError(_("That action could not be read."))
    kind = raw.get("type")
    if not isinstance(kind, str):
        raise IntentError(_("That action could not be read."))
    kind = ALIASES.get(kind, kind)
    spec = VOCABULARY.get(kind)
    if spec is None:
        raise IntentError(_("That action is not known to this page."))
    owner, fields = spec
    out: list[tuple[str, Value]] = []
    for name, (read, required) in fields.items():
        if name not in raw or raw[name] is None:
            if required:
                raise IntentError(_("That action is missing something: nothing was done."))
            continue
        out.append((name, read(raw[name])))
    return Intent(kind, owner, tuple(out))


__all__ = ["MAX_TEXT", "OWNERS", "VOCABULARY", "Intent", "IntentError", "parse"]
