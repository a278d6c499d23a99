"""Saved games in ``localStorage``: versioned, one entry per game, corruption fenced off.

Pure Python over a small storage protocol (``getItem``, ``setItem``,
``removeItem``, ``key``, ``length``: what ``window.localStorage`` offers), so
pytest drives it with :class:`MemoryStorage`.

This module is the page's one writer of ``localStorage``: saved games, the
current game, the daily streak history (:meth:`Saves.read_daily`,
:meth:`Saves.write_daily`), imported games (:meth:`Saves.write_archived`)
and the copies set aside (:meth:`Saves.corrupt_entries`,
:meth:`Saves.delete_corrupt`). Everything read back is untrusted (another
version of the page, an extension, a hand edit): JSON goes through
:func:`eleusis.safejson.loads` (a deeply nested value would otherwise kill
the browser's Python), and a game is only handed over once it loads whole
(:func:`check_game`).

Format: key ``eleusis.save.<id>``, value JSON
``{"format": "eleusis-save", "version": 1, "id", "title", "updated", "game"}``
where ``game`` is :meth:`eleusis_web.session.Session.to_data` (the setup and
each round as a replay text, re-checked move by move on load). The key
``eleusis.current`` names the game to resume on reload.

* An entry that is not JSON (or too deeply nested), has another format or an
  unknown version, whose moves do not replay, or whose set-up the page cannot
  continue (seats and kinds that disagree, an unknown computer strength, a
  time that is not a time), is reported and **set aside**: moved to
  ``eleusis.corrupt.<id>`` (kept for a bug report, listed and deleted with
  :meth:`Saves.corrupt_entries` and :meth:`Saves.delete_corrupt`), never
  touching any other entry; it is never resumed as the current game.
* A full storage (``setItem`` raising, e.g. ``QuotaExceededError``) gives a
  clear message; the game goes on in memory.
"""

from __future__ import annotations

import contextlib
import json
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from eleusis.archive import ArchivedGame, save_from_game
from eleusis.daily import empty_history, load_history
from eleusis.i18n import N_, _, available, ngettext
from eleusis.safejson import JsonError, clean_text, loads
from eleusis_web.session import (
    DEALERS,
    HUMAN_KINDS,
    PACES,
    STRENGTHS,
    VARIANTS,
    Session,
    engine_variant,
)

PREFIX: Final = "eleusis.save."
CORRUPT: Final = "eleusis.corrupt."
CURRENT: Final = "eleusis.current"
DAILY: Final = "eleusis.daily"
#: The language the player picked (``index.html`` reads it before Python is up).
LANGUAGE: Final = "eleusis.language"
#: The saved games' ids and titles, newest first, for the page's shell to list
#: before Python is up (``index.html``): JSON ``[[id, title], ...]``. Kept by
#: :class:`Saves` as games are saved and deleted; a convenience only (the shell
#: checks it and shows text only; Python reads the saves themselves).
SHELF: Final = "eleusis.shelf"
#: Saved games the shelf lists at most.
SHELF_SIZE: Final = 12
FORMAT: Final = "eleusis-save"
VERSION: Final = 1
#: Characters of one saved game's JSON read back (a long match is far smaller).
MAX_ENTRY: Final = 2_000_000
#: Nesting of a saved game's JSON (the entry, the game, its set-up, the seats, extras).
MAX_ENTRY_DEPTH: Final = 24
#: Seat kinds a saved game may use (the computer plays "computer" seats).
KINDS: Final = frozenset(HUMAN_KINDS | {"computer"})
#: (English here; noted in the player's language.)
FULL_MESSAGE: Final = N_(
    "This browser's storage is full, so the game is not being saved. It goes on in memory: "
    "delete old saved games to save again."
)


class StorageLike(Protocol):
    """The part of the Web Storage API used here."""

    def getItem(self, key: str) -> Any: ...

    def setItem(self, key: str, value: str) -> None: ...

    def removeItem(self, key: str) -> None: ...

    def key(self, index: int) -> Any: ...


class MemoryStorage:
    """An in-memory Web Storage (tests; or the fallback when the page has none)."""

    def __init__(self, quota: int | None = None) -> None:
        self.data: dict[str, str] = {}
        self.quota = quota

    @property
    def length(self) -> int:
        """Number of keys."""
        return len(self.data)

    def getItem(self, key: str) -> str | None:
        """The value or None."""
        return self.data.get(key)

    def setItem(self, key: str, value: str) -> None:
        """Store, raising like a browser when over quota."""
        size = sum(len(k) + len(v) for k, v in self.data.items() if k != key)
        if self.quota is not None and size + len(key) + len(value) > self.quota:
            raise OSError("QuotaExceededError: the quota has been exceeded")
        self.data[key] = value

    def removeItem(self, key: str) -> None:
        """Forget a key."""
        self.data.pop(key, None)

    def key(self, index: int) -> str | None:
        """The key at ``index`` (insertion order)."""
        keys = list(self.data)
        return keys[index] if 0 <= index < len(keys) else None


def _text(value: Any) -> str | None:
    """A stored value as text; None for null (the page's ``JsNull`` included)."""
    if value is None or type(value).__name__ in ("JsNull", "JsUndefined"):
        return None
    return str(value)


@dataclass
class Saves:
    """The saved games of this browser."""

    store: StorageLike
    notes: list[str] = field(default_factory=list)  # messages for the player
    full: bool = False
    clock: Callable[[], float] = time.time

    def _keys(self) -> list[str]:
        n = int(getattr(self.store, "length", 0) or 0)
        out = []
        for i in range(n):
            k = _text(self.store.key(i))
            if k is not None:
                out.append(k)
        return out

    def write(self, game: dict[str, Any], title: str) -> bool:
        """Save ``game`` (a session's data); False (and a note) when storage is full."""
        sid = str(game["id"])
        entry = {"format": FORMAT, "version": VERSION, "id": sid, "title": title,
                 "updated": self.clock(), "game": game}
        try:
            self.store.setItem(PREFIX + sid, json.dumps(entry, separators=(",", ":")))
            self.store.setItem(CURRENT, sid)
        except Exception:  # QuotaExceededError (a JS exception in the page), or no storage
            if not self.full:
                self.notes.append(_(FULL_MESSAGE))
            self.full = True
            return False
        if self.full:
            self.full = False
            self.notes = [n for n in self.notes if n != _(FULL_MESSAGE)]
        self._shelve(sid, title)
        return True

    def _shelf(self) -> list[list[str]]:
        """The shelf as stored (see :data:`SHELF`), its malformed rows left out."""
        raw = _text(self.store.getItem(SHELF))
        try:
            rows = loads(raw or "[]", max_depth=3, max_chars=20_000, what="it")
        except JsonError:
            return []
        if not isinstance(rows, list):
            return []
        return [[r[0], r[1]] for r in rows
                if isinstance(r, list) and len(r) == 2 and all(isinstance(x, str) for x in r)]

    def _shelve(self, sid: str, title: str | None) -> None:
        """Put ``sid`` first on the shelf with ``title``, or take it off (None).

        Never fails: the shelf is a convenience, and storage may be full."""
        rows = [r for r in self._shelf() if r[0] != sid]
        if title is not None:
            rows.insert(0, [sid, clean_text(title[:120])])
        with contextlib.suppress(Exception):
            self.store.setItem(SHELF, json.dumps(rows[:SHELF_SIZE], separators=(",", ":")))

    def entries(self) -> list[dict[str, Any]]:
        """Readable saved games, newest first: ``{"id", "title", "updated"}``.

        Unreadable ones are set aside on the way (see :meth:`set_aside`).
        """
        out = []
        for k in self._keys():
            if not k.startswith(PREFIX):
                continue
            entry = self._read(k[len(PREFIX):])
            if entry is not None:
                out.append({"id": entry["id"], "title": entry["title"],
                            "updated": entry["updated"]})
        out.sort(key=lambda e: -float(e["updated"]))
        return out

    def _read(self, sid: str) -> dict[str, Any] | None:
        raw = _text(self.store.getItem(PREFIX + sid))
        if raw is None:
            return None
        try:
            entry = loads(str(raw), max_depth=MAX_ENTRY_DEPTH, max_chars=MAX_ENTRY,
                          what="it")
        except JsonError as exc:
            self.set_aside(sid, _("It is not readable.") if exc.line
                           else _("It cannot be read safely ({detail}).").format(
                               detail=exc.message))
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            self.set_aside(sid, _("It is not an Eleusis save."))
            return None
        if entry.get("version") != VERSION:
            self.set_aside(sid, _("It has an unknown format version ({version}).").format(
                version=repr(entry.get("version"))[:40]))
            return None
        if not isinstance(entry.get("game"), dict) or not isinstance(entry.get("title"), str):
            self.set_aside(sid, _("It is incomplete."))
            return None
        updated = entry.get("updated")
        if (not isinstance(updated, int | float) or isinstance(updated, bool)
                or not math.isfinite(updated)):
            entry["updated"] = 0
        entry["title"] = clean_text(entry["title"][:400])
        entry["id"] = sid
        return entry

    def load(self, sid: str) -> Session | None:
        """The :class:`~eleusis_web.session.Session` saved as ``sid``, or None (noted)."""
        entry = self._read(sid)
        if entry is None:
            return None
        try:
            return check_game(entry["game"])
        except ValueError as exc:
            self.set_aside(sid, _("It cannot be continued ({detail}).").format(detail=exc))
            return None
        except Exception as exc:  # anything else a stored value can do: still set aside
            self.set_aside(sid, _("It cannot be continued ({detail}).").format(
                detail=type(exc).__name__))
            return None

    def round_texts(self, sid: str) -> list[str]:
        """The replay texts of the rounds saved as ``sid`` (read, not decoded), so a page
        can decode them in slices before :meth:`load` (which then finds them decoded:
        :func:`eleusis.replay.decode` remembers). Empty when the entry is unreadable."""
        entry = self._read(sid)
        rounds = entry["game"].get("rounds") if entry is not None else None
        if not isinstance(rounds, list):
            return []
        return [t for t in rounds if isinstance(t, str)]

    def set_aside(self, sid: str, why: str) -> None:
        """Move an unreadable save out of the list, keeping its text; note why
        (``why``: a sentence in the player's language)."""
        key = PREFIX + sid
        raw = _text(self.store.getItem(key))
        try:
            if raw is not None:
                self.store.setItem(CORRUPT + sid, str(raw))
        except Exception:  # no room to keep a copy: it is still removed from the list
            pass
        self.store.removeItem(key)
        if _text(self.store.getItem(CURRENT)) == sid:
            self.store.removeItem(CURRENT)
        self._shelve(sid, None)
        self.notes.append(_("A saved game ({id}) was set aside. {reason} A copy is kept for a "
                            "bug report.").format(id=clean_text(sid[:64]), reason=why))

    def delete(self, sid: str) -> str | None:
        """Delete a saved game; return its stored text (for "Undo"), None if there was none."""
        raw = _text(self.store.getItem(PREFIX + sid))
        self.store.removeItem(PREFIX + sid)
        if _text(self.store.getItem(CURRENT)) == sid:
            self.store.removeItem(CURRENT)
        self._shelve(sid, None)
        return None if raw is None else str(raw)

    def restore(self, sid: str, raw: str) -> bool:
        """Put back a game deleted a moment ago ("Undo"); False (and a note) when full."""
        try:
            self.store.setItem(PREFIX + sid, raw)
        except Exception:  # QuotaExceededError
            self.notes.append(_(FULL_MESSAGE))
            return False
        entry = self._read(sid)
        if entry is not None:
            self._shelve(sid, entry["title"])
        return True

    def current(self) -> str | None:
        """The id of the game to resume on reload."""
        return _text(self.store.getItem(CURRENT))

    def forget_current(self) -> None:
        """Nothing to resume on reload (the player left the table)."""
        with contextlib.suppress(Exception):  # storage unavailable: nothing to forget
            self.store.removeItem(CURRENT)

    # -- the copies set aside ----------------------------------------------------------

    def corrupt_entries(self) -> list[dict[str, Any]]:
        """The copies set aside (``eleusis.corrupt.<id>``): ``{"id", "size"}``, by id.

        ``id`` is cleaned for showing (a stored key is untrusted too); pass the
        ``key`` field to :meth:`delete_corrupt`.
        """
        out = []
        for k in self._keys():
            if k.startswith(CORRUPT):
                raw = _text(self.store.getItem(k)) or ""
                out.append({"key": k, "id": clean_text(k[len(CORRUPT):][:64]),
                            "size": len(raw)})
        out.sort(key=lambda e: str(e["key"]))
        return out

    def delete_corrupt(self, key: str | None = None) -> int:
        """Delete one copy set aside (its ``key``, or its id), or all of them; how many went."""
        keys = [e["key"] for e in self.corrupt_entries()]
        if key is not None:
            wanted = key if key.startswith(CORRUPT) else CORRUPT + key
            keys = [k for k in keys if k == wanted]
        for k in keys:
            with contextlib.suppress(Exception):
                self.store.removeItem(k)
        return len(keys)

    # -- the daily streak history --------------------------------------------------------

    def read_daily(self, repair: bool = True) -> tuple[dict[str, Any], str]:
        """The daily streak history, and a message when the stored one was damaged.

        A damaged history (not JSON, too deep, a day the calendar does not
        have, ...) reads as an empty one; with ``repair`` (never while drawing)
        it is also replaced in storage, its text kept under
        ``eleusis.corrupt.daily``. This never raises.
        """
        try:
            raw = _text(self.store.getItem(DAILY))
        except Exception:  # storage unavailable: no history
            return empty_history(), ""
        history, message = load_history(raw)
        if message and repair:
            with contextlib.suppress(Exception):
                if raw is not None:
                    self.store.setItem(CORRUPT + "daily", raw)
            self.write_daily(history)
        return history, message

    def write_daily(self, history: dict[str, Any]) -> bool:
        """Store the daily history; False when the storage refuses (a full one only loses it)."""
        try:
            self.store.setItem(DAILY, json.dumps(history, separators=(",", ":"),
                                                 allow_nan=False))
        except Exception:
            return False
        return True

    # -- archives ------------------------------------------------------------------------

    def read_language(self) -> str | None:
        """The language the player picked, if it is one the page speaks."""
        value = _text(self.store.getItem(LANGUAGE))
        return value if value in available() else None

    def write_language(self, lang: str) -> bool:
        """Remember the player's language; False when storage refuses it."""
        if lang not in available():
            return False
        try:
            self.store.setItem(LANGUAGE, lang)
        except Exception:
            return False
        return True

    def saved_data(self) -> dict[str, dict[str, Any]]:
        """Every readable saved entry by id (what an export writes); unreadable ones set aside."""
        out: dict[str, dict[str, Any]] = {}
        for e in self.entries():
            entry = self._read(str(e["id"]))
            if entry is not None:
                out[str(e["id"])] = entry
        return out

    def write_archived(self, game: ArchivedGame) -> bool:
        """Save an imported game (checked by :func:`check_archived` at import); False if full."""
        try:
            self.store.setItem(PREFIX + game.id, json.dumps(save_from_game(game),
                                                            separators=(",", ":"),
                                                            allow_nan=False))
        except Exception:
            if not self.full:
                self.notes.append(_(FULL_MESSAGE))
            self.full = True
            return False
        self._shelve(game.id, game.title)
        return True


def check_game(data: Any) -> Session:
    """The session a saved game's data holds, checked the way the page will use it.

    Raises ``ValueError`` with a short reason when the page could not continue
    it: moves that do not replay, seat kinds that do not match the seats, a
    computer strength, variant, dealer or pace the page does not know, a
    creation time that is not a time, or data that would not save again.
    """
    if not isinstance(data, dict):
        raise ValueError(_("the game data is not an object"))
    session = Session.from_data(data)
    setup = session.setup
    if setup.variant not in VARIANTS:
        raise ValueError(_("unknown variant {name}").format(name=repr(setup.variant[:20])))
    if setup.dealer not in DEALERS:
        raise ValueError(_("unknown dealer {name}").format(name=repr(setup.dealer[:20])))
    if setup.pace not in PACES:
        raise ValueError(_("unknown pace {name}").format(name=repr(setup.pace[:20])))
    if not setup.seats or len(setup.seats) > 16:
        raise ValueError(_("the set-up has no seats or too many"))
    for seat in setup.seats:
        if seat.strength not in STRENGTHS:
            raise ValueError(_("unknown computer strength {name}").format(
                name=repr(seat.strength[:20])))
        if seat.kind not in KINDS or len(seat.name) > 40:
            raise ValueError(_("a seat of the set-up is not valid"))
    if any(k not in KINDS for k in session.kinds):
        raise ValueError(_("a seat has an unknown kind"))
    if len(session.kinds) - len(setup.seats) not in (0, 1):
        raise ValueError(_("the seats and the set-up disagree"))
    if any(r.config.variant.value != engine_variant(setup.variant) for r in session.rounds):
        raise ValueError(_("a round is not of the game's variant"))
    if not (math.isfinite(session.created) and 0 <= session.created <= 1e13):
        raise ValueError(_("its creation time is not a time"))
    session.computer_seats()
    json.dumps(session.to_data(), allow_nan=False)
    title_of(session)
    return session


def check_archived(game: ArchivedGame) -> Session:
    """:func:`check_game` for an archived game (the hook of ``eleusis.archive.parse_archive``)."""
    return check_game(save_from_game(game)["game"])


def title_of(session: Session) -> str:
    """A short title for the saved-games list."""
    st = session.state
    names = ", ".join(st.config.names[:4])
    if session.planned_rounds > 1:
        names = _("{names}, round {number}").format(names=names, number=len(session.rounds))
    created = session.created if isinstance(session.created, int | float) else 0
    if not (math.isfinite(created) and 0 <= created <= 1e13):
        created = 0  # a time from outside that is not one (checked on load; this is a fence)
    when = time.strftime("%d %b %H:%M", time.localtime(created))
    variant = VARIANTS.get(session.setup.variant, "")
    moves = ngettext("{count} move", "{count} moves", len(st.actions)).format(
        count=len(st.actions))
    return f"{_(variant) if variant else ''} — {names} · {when} · {moves}"
