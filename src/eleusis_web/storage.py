"""Saved games in ``localStorage``: versioned, one entry per game, corruption fenced off.

Pure Python over a small storage protocol (``getItem``, ``setItem``,
``removeItem``, ``key``, ``length``: what ``window.localStorage`` offers), so
pytest drives it with :class:`MemoryStorage`.

Format: key ``eleusis.save.<id>``, value JSON
``{"format": "eleusis-save", "version": 1, "id", "title", "updated", "game"}``
where ``game`` is :meth:`eleusis_web.controller.Session.to_data` (the setup and
each round as a replay text, re-checked move by move on load). The key
``eleusis.current`` names the game to resume on reload.

* An entry that is not JSON, has another format or an unknown version, or whose
  moves do not replay, is reported and **set aside**: moved to
  ``eleusis.corrupt.<id>`` (kept for a bug report), never touching any other
  entry.
* A full storage (``setItem`` raising, e.g. ``QuotaExceededError``) gives a
  clear message; the game goes on in memory.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

PREFIX: Final = "eleusis.save."
CORRUPT: Final = "eleusis.corrupt."
CURRENT: Final = "eleusis.current"
FORMAT: Final = "eleusis-save"
VERSION: Final = 1
FULL_MESSAGE: Final = (
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
                self.notes.append(FULL_MESSAGE)
            self.full = True
            return False
        if self.full:
            self.full = False
            self.notes = [n for n in self.notes if n != FULL_MESSAGE]
        return True

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
            entry = json.loads(str(raw))
        except ValueError:
            self.set_aside(sid, "it is not readable")
            return None
        if not isinstance(entry, dict) or entry.get("format") != FORMAT:
            self.set_aside(sid, "it is not an Eleusis save")
            return None
        if entry.get("version") != VERSION:
            self.set_aside(sid, f"it has an unknown format version ({entry.get('version')!r})")
            return None
        if not isinstance(entry.get("game"), dict) or not isinstance(entry.get("title"), str):
            self.set_aside(sid, "it is incomplete")
            return None
        if not isinstance(entry.get("updated"), int | float):
            entry["updated"] = 0
        entry["id"] = sid
        return entry

    def load(self, sid: str) -> Any:
        """The :class:`~eleusis_web.controller.Session` saved as ``sid``, or None (noted)."""
        from eleusis_web.session import Session

        entry = self._read(sid)
        if entry is None:
            return None
        try:
            return Session.from_data(entry["game"])
        except (ValueError, KeyError, TypeError):
            self.set_aside(sid, "its moves do not replay")
            return None

    def set_aside(self, sid: str, why: str) -> None:
        """Move an unreadable save out of the list, keeping its text; note why."""
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
        self.notes.append(f"A saved game ({sid}) was set aside because {why}.")

    def delete(self, sid: str) -> str | None:
        """Delete a saved game; return its stored text (for "Undo"), None if there was none."""
        raw = _text(self.store.getItem(PREFIX + sid))
        self.store.removeItem(PREFIX + sid)
        if _text(self.store.getItem(CURRENT)) == sid:
            self.store.removeItem(CURRENT)
        return None if raw is None else str(raw)

    def restore(self, sid: str, raw: str) -> bool:
        """Put back a game deleted a moment ago ("Undo"); False (and a note) when full."""
        try:
            self.store.setItem(PREFIX + sid, raw)
        except Exception:  # QuotaExceededError
            self.notes.append(FULL_MESSAGE)
            return False
        return True

    def current(self) -> str | None:
        """The id of the game to resume on reload."""
        return _text(self.store.getItem(CURRENT))

    def forget_current(self) -> None:
        """Nothing to resume on reload (the player left the table)."""
        with contextlib.suppress(Exception):  # storage unavailable: nothing to forget
            self.store.removeItem(CURRENT)


def title_of(session: Any) -> str:
    """A short title for the saved-games list."""
    from eleusis_web.session import VARIANTS

    st = session.state
    names = ", ".join(st.config.names[:4])
    rounds = f", round {len(session.rounds)}" if session.planned_rounds > 1 else ""
    when = time.strftime("%d %b %H:%M", time.localtime(session.created or 0))
    return f"{VARIANTS.get(session.setup.variant, '')} — {names}{rounds} · {when} · " \
        f"{len(st.actions)} move{'' if len(st.actions) == 1 else 's'}"
