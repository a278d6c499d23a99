"""The scientist's notebook: candidate rules checked against the evidence on the table.

While playing, a player writes candidate rules in the rule language. Each one
is checked against what the table shows (:func:`check`): every mainline card
must be accepted by the candidate at its position, after the mainline before
it, and every sideline card must be rejected after the mainline it tried to
follow. The result lists the contradicting cards with their places on the
layout (:class:`Location`: column and sideline index) so the page can
highlight them, and says each contradiction in a sentence.

Honesty about what is known:

* a wrong play of **several cards** (New Eleusis) is wrong *as a whole*: the
  dealer did not say which card broke the rule. It contradicts a candidate
  only when the candidate accepts the whole sequence, card after card;
* the **starter** is evidence only when the rule judged it (the engine drew
  until the rule accepted a card); a starter turned up under a dealer judging
  by hand says nothing. Starters the rule refused are evidence too (they are
  not on the layout: their :attr:`Observation.locations` is empty);
* a **right "no play"** says that no card of the hand shown could be played:
  each of those cards is rejected at that moment (no location either);
* **Royal Eleusis**: face-down cards (bets after a wrong one) and horizontal
  cards were never judged and are skipped; a card bet "refused" that was
  right is a rejected card; in rule 3.2 the dealer's correct card goes on
  the mainline *before* the refused bet card is put in its sideline, so that
  bet card was judged one position earlier than where it lies.

The evidence is read from a :class:`~eleusis.game.State` or, on the page, from
what a seat sees (:func:`eleusis.views.view`), by :func:`evidence`. Hand-built
layouts (tests, tutorials) use :func:`evidence_from_layout`.

The :class:`Notebook` itself is an immutable value: a list of
:class:`Entry` (text, a short note, ticked off or not, a stable id) with
add / remove / tick / move / edit operations that return a new notebook, and
:meth:`Notebook.to_data` / :meth:`Notebook.from_data` for saving (bad data
raises :class:`NotebookError` with a clear message, never anything else).
"""

from __future__ import annotations

import base64
import binascii
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from eleusis import safejson
from eleusis.cards import Card
from eleusis.game import Column, Event, State, Variant
from eleusis.i18n import N_, _, language, ngettext
from eleusis.variants.base import VariantRules
from eleusis.views import SeatView, ViewColumn

FORMAT_VERSION: Final = 1
MAX_ENTRIES: Final = 40
MAX_TEXT: Final = 600  # the rule language's own limit
MAX_NOTE: Final = 280
_MAX_TOKEN: Final = 64 * 1024


class NotebookError(ValueError):
    """Bad notebook data or a bad operation (index out of range, text too long, ...)."""


# --------------------------------------------------------------------------- evidence


@dataclass(frozen=True, slots=True)
class Location:
    """Where a card lies on the layout.

    ``column`` is the mainline index (0 = the starter); ``side`` is ``None`` for
    the mainline card itself, else the index in that column's sideline.
    """

    column: int
    side: int | None = None


@dataclass(frozen=True, slots=True)
class Observation:
    """One verdict of the dealer, as evidence.

    ``cards`` followed the first ``after`` mainline cards (so the first of them
    was at position ``after + 1``) and were ``accepted`` or not. Several cards
    are one play judged as a whole. ``kind`` says where the verdict comes from:
    ``"mainline"``, ``"sideline"``, ``"starter"`` (a refused starter) or
    ``"no_play"`` (a card of a hand rightly declared "no play").
    ``locations`` are the cards' places on the layout (empty when they are not
    on it).
    """

    cards: tuple[Card, ...]
    after: int
    accepted: bool
    kind: str
    locations: tuple[Location, ...] = ()


@dataclass(frozen=True, slots=True)
class Evidence:
    """The mainline and every verdict a candidate rule must agree with.

    ``approximate`` is set when the public events could not be matched with the
    layout (it should not happen); the sideline is then read card by card.
    """

    mainline: tuple[Card, ...]
    observations: tuple[Observation, ...]
    approximate: bool = False


def evidence_from_layout(
    mainline: Sequence[Card],
    sidelines: Mapping[int, Sequence[Sequence[Card]]] | None = None,
    starter_judged: bool = True,
) -> Evidence:
    """Evidence from a hand-built layout.

    ``sidelines`` maps a column (mainline index) to the wrong plays under it,
    in order, each a sequence of cards (one card, or several played together).
    """
    line = tuple(mainline)
    obs = [
        Observation((c,), j, True, "mainline", (Location(j),))
        for j, c in enumerate(line)
        if j > 0 or starter_judged
    ]
    side = dict(sidelines or {})
    for col in sorted(side):
        if not 0 <= col < len(line):
            raise ValueError(f"no column {col}: the mainline has {len(line)} cards")
        k = 0
        for group in side[col]:
            cards = tuple(group)
            if not cards:
                raise ValueError("a wrong play has at least one card")
            locs = tuple(Location(col, k + i) for i in range(len(cards)))
            k += len(cards)
            obs.append(Observation(cards, col + 1, False, "sideline", locs))
    return Evidence(line, tuple(obs))


@dataclass(slots=True)
class _Placed:
    card: Card | None
    face_down: bool
    horizontal: bool


def evidence(source: State | SeatView, starter_judged: bool | None = None) -> Evidence:
    """The evidence on the table of a game state or of a seat's view.

    ``starter_judged``: whether the starter was accepted by the rule (default:
    from a state, whether the engine held a written rule; from a view, whether
    the dealer is the computer, a refused starter was seen or the rule is
    shown).
    """
    events = source.events
    columns: Sequence[Column] | Sequence[ViewColumn] = source.layout
    if isinstance(source, State):
        variant = source.config.variant
        if starter_judged is None:
            starter_judged = source.config.rule is not None
    else:
        variant = Variant(source.variant)
        if starter_judged is None:
            starter_judged = (
                source.dealer is None
                or source.rule is not None
                or any(e.kind == "starter" and e.right is False for e in events)
            )
    layout: list[tuple[_Placed, list[_Placed]]] = []
    for col in columns:
        main = _Placed(col.card.card, col.card.face_down, col.card.horizontal)
        side = [_Placed(x.card, x.face_down, x.horizontal) for x in col.sideline]
        layout.append((main, side))
    return _read(variant, layout, events, bool(starter_judged))


def _read(
    variant: Variant,
    layout: list[tuple[_Placed, list[_Placed]]],
    events: Sequence[Event],
    starter_judged: bool,
) -> Evidence:
    mainline: list[Card] = []
    for main, _side in layout:
        if main.card is None:  # never happens: mainline cards are face up
            break
        mainline.append(main.card)
    line = tuple(mainline)
    obs = [
        Observation((c,), j, True, "mainline", (Location(j),))
        for j, c in enumerate(line)
        if j > 0 or starter_judged
    ]
    walk = _walk(variant, events)
    extra: list[Observation] = []
    groups: list[tuple[tuple[Card, ...], int]] = []
    if walk is not None and walk[0] == len(line):
        groups, extra = walk[1], walk[2]
        side = _match_sidelines(layout, groups)
        approximate = side is None
    else:
        side = None
        approximate = True
    if side is None:  # read the sideline card by card (never expected)
        side = []
        for j, (_main, sideline) in enumerate(layout[: len(line)]):
            for k, p in enumerate(sideline):
                if p.card is not None and not p.face_down and not p.horizontal:
                    side.append(Observation((p.card,), j + 1, False, "sideline", (Location(j, k),)))
        extra = []
    return Evidence(line, (*obs, *side, *extra), approximate)


def _walk(
    variant: Variant, events: Sequence[Event]
) -> tuple[int, list[tuple[tuple[Card, ...], int]], list[Observation]] | None:
    """Replay the public events: mainline length, wrong plays (cards, after), other verdicts."""
    length = 0
    groups: list[tuple[tuple[Card, ...], int]] = []
    extra: list[Observation] = []
    royal = variant is Variant.ROYAL
    for i, e in enumerate(events):
        if e.kind == "starter":
            if e.right is False:
                extra.append(Observation(e.cards, 0, False, "starter"))
            else:
                length += 1
        elif e.kind == "play" and not royal:
            if e.right is True:
                length += len(e.cards)
            elif e.right is False:
                groups.append((e.cards, length))
        elif e.kind == "dealer_plays":
            length += 1
        elif e.kind == "no_play" and e.right is True:
            extra.extend(Observation((c,), length, False, "no_play") for c in e.cards)
        elif e.kind == "verdict" and royal:
            if len(e.cards) != 1 or e.text not in ("A", "R") or e.right is None:
                return None
            if e.text == "A" and e.right:
                length += 1
            elif e.text == "A" or e.right:  # wrong A bet, right R bet: a refused card
                groups.append((e.cards, length))
            else:  # a wrong R bet: rule 3.2 (the dealer plays a card first) or 3.1 (mainline)
                nxt = events[i + 1] if i + 1 < len(events) else None
                if nxt is not None and nxt.kind == "dealer_plays":
                    groups.append((e.cards, length))
                else:
                    length += 1
    return length, groups, extra


def _match_sidelines(
    layout: list[tuple[_Placed, list[_Placed]]], groups: list[tuple[tuple[Card, ...], int]]
) -> list[Observation] | None:
    """Pair the wrong plays, in order, with the judged sideline cards, in layout order."""
    slots = [
        (j, k, p.card)
        for j, (_main, sideline) in enumerate(layout)
        for k, p in enumerate(sideline)
        if not p.face_down and not p.horizontal
    ]
    out: list[Observation] = []
    at = 0
    for cards, after in groups:
        chunk = slots[at : at + len(cards)]
        at += len(cards)
        if len(chunk) != len(cards) or tuple(c for _, _, c in chunk) != cards:
            return None
        cols = {j for j, _, _ in chunk}
        if len(cols) != 1 or not 0 <= after <= chunk[0][0] + 1 or after < chunk[0][0]:
            return None
        locs = tuple(Location(j, k) for j, k, _ in chunk)
        out.append(Observation(cards, after, False, "sideline", locs))
    if at != len(slots):
        return None
    return out


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True, slots=True)
class Contradiction:
    """One verdict the candidate rule disagrees with, and a sentence saying so."""

    observation: Observation
    sentence: str

    @property
    def locations(self) -> tuple[Location, ...]:
        """Where the cards lie on the layout (empty when they are not on it)."""
        return self.observation.locations


@dataclass(frozen=True, slots=True)
class NotebookCheck:
    """The result of checking one candidate rule.

    ``error`` is the parser's message when the text is not a rule (then nothing
    was checked); otherwise ``canonical`` and ``english`` describe the rule
    (``english`` says it in the player's language: :func:`eleusis.i18n.language`),
    ``checked`` counts the verdicts tested and ``contradictions`` lists those
    it disagrees with, in table order.
    """

    text: str
    error: str | None = None
    canonical: str = ""
    english: str = ""
    checked: int = 0
    contradictions: tuple[Contradiction, ...] = ()

    @property
    def parsed(self) -> bool:
        """Whether the text is a rule."""
        return self.error is None

    @property
    def consistent(self) -> bool:
        """A rule that agrees with every verdict on the table."""
        return self.error is None and not self.contradictions

    @property
    def locations(self) -> tuple[Location, ...]:
        """Every layout place to highlight."""
        return tuple(loc for c in self.contradictions for loc in c.locations)


def _cards_text(cards: Sequence[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _sentence(o: Observation) -> str:
    """The contradiction said in the player's language (the cards as symbols)."""
    pos = o.after + 1
    card = o.cards[0].symbol
    if o.kind == "mainline":
        return _("your rule rejects {card} at position {position}, but the dealer accepted it"
                 ).format(card=card, position=pos)
    if o.kind == "starter":
        return _("your rule accepts {card} as the first card, but the dealer refused it as "
                 "the starter").format(card=card)
    if o.kind == "no_play":
        return _("your rule accepts {card} at position {position}, but it was in a hand the "
                 "dealer agreed had no card to play").format(card=card, position=pos)
    if len(o.cards) == 1:
        return _("your rule accepts {card} at position {position}, but the dealer rejected it"
                 ).format(card=card, position=pos)
    last = pos + len(o.cards) - 1
    return _("your rule accepts {cards} played together at positions {first} to {last}, but "
             "the dealer rejected that play").format(cards=_cards_text(o.cards), first=pos,
                                                     last=last)


def check(entry_text: str, evidence: Evidence) -> NotebookCheck:
    """Check a candidate rule against the evidence; a text that is not a rule is reported.

    Never raises for a bad text: the parser's message is in
    :attr:`NotebookCheck.error`.
    """
    from eleusis.rules import RuleSyntaxError, parse

    if not isinstance(entry_text, str):
        return NotebookCheck("", error=_("a candidate rule is a text"))
    try:
        rule = parse(entry_text)
    except RuleSyntaxError as exc:
        return NotebookCheck(entry_text, error=str(exc))
    except Exception as exc:  # the parser promises RuleSyntaxError only; stay safe
        return NotebookCheck(entry_text, error=_("this rule cannot be read ({detail})").format(
            detail=type(exc).__name__))
    line = evidence.mainline
    found = []
    for o in evidence.observations:
        agrees = VariantRules.accepts_all(rule, line[: o.after], o.cards) == o.accepted
        if not agrees:
            found.append(Contradiction(o, _sentence(o)))
    try:
        english = rule.describe(language())
    except Exception:  # the words are a courtesy; never let them break the check
        english = ""
    return NotebookCheck(
        entry_text, None, rule.text, english, len(evidence.observations), tuple(found)
    )


# --------------------------------------------------------------------------- the notebook


#: What :func:`_check_text` says, by what is checked: a candidate rule, a note (as
#: the player typed them) or a field of a notebook read from a link.
_TEXT_PROBLEMS: Final[Mapping[str, tuple[str, str, str, str]]] = {
    "rule": (N_("a candidate rule must be a text, not {kind}"),
             N_("a candidate rule is too long ({count} characters; at most {limit})"),
             N_("a candidate rule is empty"),
             N_("a candidate rule holds a control character")),
    "note": (N_("a note must be a text, not {kind}"),
             N_("a note is too long ({count} characters; at most {limit})"),
             N_("a note is empty"),
             N_("a note holds a control character")),
    # the fields of a notebook in a file or link: the file's own words, for its details
    "'text'": ("'text' must be a text, not {kind}",
               "'text' is too long ({count} characters; at most {limit})",
               "'text' is empty", "'text' holds a control character"),
    "'note'": ("'note' must be a text, not {kind}",
               "'note' is too long ({count} characters; at most {limit})",
               "'note' is empty", "'note' holds a control character"),
}


def _check_text(value: object, what: str, limit: int, empty_ok: bool) -> str:
    """``value`` if it is a text fit for the notebook (``what``: a key of ``_TEXT_PROBLEMS``)."""
    not_text, too_long, empty, control = _TEXT_PROBLEMS[what]
    if not isinstance(value, str):
        raise NotebookError(_(not_text).format(kind=type(value).__name__))
    if len(value) > limit:
        raise NotebookError(_(too_long).format(count=len(value), limit=limit))
    if not empty_ok and not value.strip():
        raise NotebookError(_(empty))
    bad = next((ch for ch in value if ord(ch) < 32 and ch not in "\n\t"), None)
    if bad is not None or "\x7f" in value:
        raise NotebookError(_(control))
    return value


@dataclass(frozen=True, slots=True)
class Entry:
    """A candidate rule in the notebook.

    ``id`` is stable across edits and moves (for the page's keys); ``ticked``
    means the player ticked it off (ruled out, or done with it).
    """

    id: int
    text: str
    note: str = ""
    ticked: bool = False

    def to_data(self) -> dict[str, Any]:
        """A JSON-friendly dict."""
        return {"id": self.id, "text": self.text, "note": self.note, "ticked": self.ticked}


@dataclass(frozen=True, slots=True)
class Notebook:
    """A player's candidate rules, in the player's order. Operations return a new notebook."""

    entries: tuple[Entry, ...] = ()
    next_id: int = 1

    def __len__(self) -> int:
        return len(self.entries)

    def _index(self, index: int) -> int:
        if not isinstance(index, int) or isinstance(index, bool):
            raise NotebookError(_("an entry is chosen by its position (a whole number)"))
        if not 0 <= index < len(self.entries):
            raise NotebookError(ngettext("no entry {index}: the notebook has {count} entry",
                                         "no entry {index}: the notebook has {count} entries",
                                         len(self.entries)).format(index=index,
                                                                   count=len(self.entries)))
        return index

    def find(self, entry_id: int) -> int:
        """The position of the entry with this id."""
        for i, e in enumerate(self.entries):
            if e.id == entry_id:
                return i
        raise NotebookError(_("no entry has id {id}").format(id=repr(entry_id)))

    def add(self, text: str, note: str = "") -> Notebook:
        """Add a candidate rule at the end (it need not parse yet: :func:`check` says)."""
        if len(self.entries) >= MAX_ENTRIES:
            raise NotebookError(ngettext("The notebook is full ({count} entry).",
                                         "The notebook is full ({count} entries).",
                                         MAX_ENTRIES).format(count=MAX_ENTRIES))
        entry = Entry(
            self.next_id,
            _check_text(text, "rule", MAX_TEXT, False),
            _check_text(note, "note", MAX_NOTE, True),
        )
        return Notebook((*self.entries, entry), self.next_id + 1)

    def remove(self, index: int) -> Notebook:
        """Remove the entry at ``index``."""
        i = self._index(index)
        return replace(self, entries=self.entries[:i] + self.entries[i + 1 :])

    def tick(self, index: int, ticked: bool = True) -> Notebook:
        """Tick an entry off (or back on with ``ticked=False``)."""
        i = self._index(index)
        if not isinstance(ticked, bool):
            raise NotebookError(_("ticked must be true or false"))
        return self._put(i, replace(self.entries[i], ticked=ticked))

    def edit(self, index: int, text: str | None = None, note: str | None = None) -> Notebook:
        """Change an entry's text and/or note (its id and place stay)."""
        i = self._index(index)
        e = self.entries[i]
        if text is not None:
            e = replace(e, text=_check_text(text, "rule", MAX_TEXT, False))
        if note is not None:
            e = replace(e, note=_check_text(note, "note", MAX_NOTE, True))
        return self._put(i, e)

    def move(self, index: int, to: int) -> Notebook:
        """Move the entry at ``index`` to position ``to``."""
        i = self._index(index)
        j = self._index(to)
        items = list(self.entries)
        items.insert(j, items.pop(i))
        return replace(self, entries=tuple(items))

    def move_up(self, index: int) -> Notebook:
        """Move an entry one place up (the first stays first)."""
        i = self._index(index)
        return self.move(i, max(0, i - 1))

    def move_down(self, index: int) -> Notebook:
        """Move an entry one place down (the last stays last)."""
        i = self._index(index)
        return self.move(i, min(len(self.entries) - 1, i + 1))

    def _put(self, i: int, entry: Entry) -> Notebook:
        return replace(self, entries=(*self.entries[:i], entry, *self.entries[i + 1 :]))

    @property
    def active(self) -> tuple[Entry, ...]:
        """Entries not ticked off."""
        return tuple(e for e in self.entries if not e.ticked)

    def check_all(self, evidence: Evidence) -> tuple[NotebookCheck, ...]:
        """:func:`check` every entry, in order."""
        return tuple(check(e.text, evidence) for e in self.entries)

    # -- saving -------------------------------------------------------------------

    def to_data(self) -> dict[str, Any]:
        """A JSON-friendly dict (``{"version": 1, "next_id", "entries": [...]}``)."""
        return {
            "version": FORMAT_VERSION,
            "next_id": self.next_id,
            "entries": [e.to_data() for e in self.entries],
        }

    @classmethod
    def from_data(cls, data: object) -> Notebook:
        """Rebuild from :meth:`to_data`; :class:`NotebookError` says what is wrong and where."""
        if not isinstance(data, Mapping):
            raise NotebookError("a notebook must be an object")
        version = data.get("version")
        if version != FORMAT_VERSION:
            raise NotebookError(
                f"notebook format {version!r} is not known (this version reads {FORMAT_VERSION})"
            )
        entries = data.get("entries")
        if not isinstance(entries, list):
            raise NotebookError("notebook: 'entries' must be a list")
        if len(entries) > MAX_ENTRIES:
            raise NotebookError(f"notebook: {len(entries)} entries (at most {MAX_ENTRIES})")
        out: list[Entry] = []
        seen: set[int] = set()
        for n, raw in enumerate(entries, start=1):
            try:
                out.append(_entry(raw, seen))
            except NotebookError as exc:
                raise NotebookError(f"notebook entry {n}: {exc}") from None
        next_id = data.get("next_id", max(seen, default=0) + 1)
        if not _whole(next_id) or next_id <= max(seen, default=0) or next_id > 2**31:
            raise NotebookError("notebook: 'next_id' must be a whole number above every id")
        return cls(tuple(out), next_id)

    # -- links --------------------------------------------------------------------

    def to_token(self) -> str:
        """A compact URL-safe text of the notebook (to ride along with a replay link)."""
        raw = json.dumps(self.to_data(), separators=(",", ":"), ensure_ascii=False)
        packed = zlib.compress(raw.encode("utf-8"), 9)
        return base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")

    @classmethod
    def from_token(cls, token: str) -> Notebook:
        """Read :meth:`to_token`'s text; :class:`NotebookError` for anything else."""
        if not isinstance(token, str) or not token or len(token) > _MAX_TOKEN:
            raise NotebookError("this is not a notebook link")
        try:
            packed = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            d = zlib.decompressobj()
            raw = d.decompress(packed, _MAX_TOKEN * 4)
            if d.unconsumed_tail or not d.eof:
                raise NotebookError("this notebook link is damaged or too large")
            data = safejson.loads(raw, max_depth=4, what="the notebook link")
        except NotebookError:
            raise
        except (binascii.Error, ValueError, zlib.error, RecursionError):
            # JsonError included: 20,000 "[" inflated from a short link must not reach
            # the parser (it would overflow the browser's stack, see eleusis.safejson)
            raise NotebookError("this notebook link is damaged") from None
        return cls.from_data(data)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _entry(raw: object, seen: set[int]) -> Entry:
    if not isinstance(raw, Mapping):
        raise NotebookError("must be an object")
    unknown = set(raw) - {"id", "text", "note", "ticked"}
    if unknown:
        raise NotebookError(f"unknown field {sorted(map(str, unknown))[0]!r}")
    eid = raw.get("id")
    if not _whole(eid) or not 1 <= eid <= 2**31:  # type: ignore[operator]
        raise NotebookError("'id' must be a whole number from 1")
    assert isinstance(eid, int)
    if eid in seen:
        raise NotebookError(f"id {eid} is used twice")
    seen.add(eid)
    # cleaned like every text from outside: no bidi override reorders what is shown
    text = safejson.clean_text(_check_text(raw.get("text"), "'text'", MAX_TEXT, False), True)
    note = safejson.clean_text(_check_text(raw.get("note", ""), "'note'", MAX_NOTE, True), True)
    ticked = raw.get("ticked", False)
    if not isinstance(ticked, bool):
        raise NotebookError("'ticked' must be true or false")
    return Entry(eid, text, note, ticked)


__all__ = [
    "Contradiction",
    "Entry",
    "Evidence",
    "Location",
    "Notebook",
    "NotebookCheck",
    "NotebookError",
    "Observation",
    "check",
    "evidence",
    "evidence_from_layout",
]
