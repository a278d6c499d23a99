"""Hints the computer dealer phrases from what the secret rule reads.

The seeds make hints part of the game (000: "Before play starts, the dealer
may give a hint about the rule", and later hints "if ... no one can figure out
the rule"; 002: "If you like, give a hint about the rule"; 004: a hint before
the game and a second one "just before the beginning of sudden death"). A
person writes their own hint (:class:`eleusis.game.Hint`); the computer
dealer answers :class:`eleusis.game.RequestHint` with :func:`phrase_hint`,
more specific at each level:

1. which cards the rule looks at ("the card being played and the previous card");
2. which of their properties ("the previous card's color and the card's rank");
3. and beyond: a worked example on the current mainline ("after 7♠ the 3♦ would
   be accepted, the K♣ would not"), a different example each time.

The analysis reads the rule's canonical text, so it works on any rule the
language accepts; it never reveals the rule itself.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from eleusis.cards import ALL_CARDS, Card
from eleusis.i18n import N_, _
from eleusis.rules import Rule, parse

_SLOTS: Final = ("card", "prev", "prev2", "prev3", "prev4")
# The words are translated when a hint is said (eleusis.i18n).
_SLOT_WORDS: Final = {
    "card": N_("the card being played"),
    "prev": N_("the previous card"),
    "prev2": N_("the card two back"),
    "prev3": N_("the card three back"),
    "prev4": N_("the card four back"),
}
_SLOT_POSSESSIVE: Final = {
    "card": N_("the card's {property}"),
    "prev": N_("the previous card's {property}"),
    "prev2": N_("the card two back's {property}"),
    "prev3": N_("the card three back's {property}"),
    "prev4": N_("the card four back's {property}"),
}
_ATTRIBUTE_WORDS: Final = {
    "rank": N_("rank"),
    "suit": N_("suit"),
    "color": N_("color"),
    "red": N_("color"),
    "black": N_("color"),
    "face": N_("being a face card or not"),
    "numeral": N_("being a face card or not"),
    "even": N_("being odd or even"),
    "odd": N_("being odd or even"),
    "prime": N_("being prime or not"),
}
_SUIT_WORDS: Final = {"spades", "hearts", "diamonds", "clubs", "♠", "♥", "♦", "♣"}
_RANK_WORDS: Final = {"A", "J", "Q", "K", *(str(i) for i in range(2, 11))}

_ATTR_RE: Final = re.compile(r"\b(card|prev[234]?)\s*\.\s*(\w+)")
_IS_RE: Final = re.compile(r"\b(card|prev[234]?)\s+is\s+(?:not\s+)?(\S+)")
_SLOT_RE: Final = re.compile(r"\b(card|prev[234]?|pos)\b")


def reads(text: str) -> dict[str, list[str]]:
    """What the rule text reads: slot (``card``, ``prev``, ..., ``pos``) -> properties.

    >>> reads("card.color != prev.color")
    {'card': ['color'], 'prev': ['color']}
    >>> reads("if prev is red then card.rank > 6 else card is hearts")
    {'card': ['rank', 'suit'], 'prev': ['color']}
    """
    found: dict[str, list[str]] = {}

    def note(slot: str, what: str) -> None:
        props = found.setdefault(slot, [])
        if what and what not in props:
            props.append(what)

    for m in _ATTR_RE.finditer(text):
        note(m.group(1), _ATTRIBUTE_WORDS.get(m.group(2), m.group(2)))
    for m in _IS_RE.finditer(text):
        word = m.group(2).rstrip(")")
        if word in _ATTRIBUTE_WORDS:
            note(m.group(1), _ATTRIBUTE_WORDS[word])
        elif word.lower() in _SUIT_WORDS:
            note(m.group(1), "suit")
        elif word.upper() in _RANK_WORDS:
            note(m.group(1), "rank")
    for m in _SLOT_RE.finditer(text):
        note(m.group(1), "")
    ordered: dict[str, list[str]] = {k: found[k] for k in (*_SLOTS, "pos") if k in found}
    for slot, props in ordered.items():
        if not props and slot != "pos":
            props.append("whole card")
    return ordered


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return _("{items} and {last}").format(items=", ".join(words[:-1]), last=words[-1])


def _level1(found: dict[str, list[str]]) -> str:
    looked = [_(_SLOT_WORDS[s]) for s in _SLOTS if s in found]
    if "pos" in found:
        looked.append(_("the card's position in the line"))
    if not looked:
        return _("The rule looks at nothing in particular: think simple.")
    if list(found) == ["card"]:
        return _("The rule looks only at the card being played, not at the cards before it.")
    return _("The rule looks at {things}.").format(things=_join(looked))


def _level2(found: dict[str, list[str]]) -> str:
    parts = []
    for s in _SLOTS:
        for prop in found.get(s, []):
            if prop == "whole card":
                parts.append(_("{slot} as a whole").format(slot=_(_SLOT_WORDS[s])))
            else:
                parts.append(_(_SLOT_POSSESSIVE[s]).format(property=_(prop)))
    if "pos" in found:
        parts.append(_("the position in the line"))
    if not parts:
        return _("The rule does not depend on the cards at all.")
    return _("The rule depends on {things}.").format(things=_join(parts))


@lru_cache(maxsize=64)
def _parsed(text: str) -> Rule:
    return parse(text)


def _example(text: str, level: int, mainline: Sequence[Card]) -> str:
    """A worked example: after some last card, one card accepted and one refused.

    The example keeps the real mainline and tries, as the last card, the real
    one first and then others in a fixed order, until the rule accepts some
    cards and refuses others there (an example where everything is accepted
    teaches nothing). Each level starts the search at a different place.
    """
    rule = _parsed(text)
    line = tuple(mainline)
    k = level - 3
    lasts: list[Card | None] = [line[-1]] if line else [None]
    lasts += [ALL_CARDS[(k * 19 + i * 7) % 52] for i in range(52)]
    if k % 2:
        lasts = lasts[1:] + lasts[:1]
    for last in lasts:
        context = (*line[:-1], last) if last is not None else ()
        yes = [c for c in ALL_CARDS if rule.accepts(context, c)]
        no = [c for c in ALL_CARDS if not rule.accepts(context, c)]
        if yes and no:
            good, bad = yes[(k * 7) % len(yes)], no[(k * 11) % len(no)]
            said = (_("For example, after {last} the {good} would be accepted and the {bad} "
                      "would not ({count} of the 52 cards would be).") if last is not None else
                    _("For example, to start the line the {good} would be accepted and the "
                      "{bad} would not ({count} of the 52 cards would be)."))
            return said.format(last=last.symbol if last is not None else "", good=good.symbol,
                               bad=bad.symbol, count=len(yes))
    return _("Whatever the cards before, the rule answers the same way for every card here.")


def phrase_hint(text: str, level: int, mainline: Sequence[Card] = ()) -> str:
    """A hint about the rule ``text`` at ``level`` (1, 2, 3, ...), given the mainline."""
    found = reads(text)
    if level <= 1:
        return _level1(found)
    if level == 2:
        return _level2(found)
    return _example(text, level, mainline)
