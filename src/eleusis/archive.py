"""Export and import: every saved game, the notebook and the daily history in one JSON file.

:func:`export_archive` writes the document; :func:`parse_archive` reads one
back and checks **everything** before anything is used -- the format and
version, sizes, types, every game's every round (each replay text is decoded
and re-validated move by move with :func:`eleusis.replay.decode`), every
notebook entry, the daily history -- and raises :class:`ArchiveError` saying
what is wrong and where (``games[2] (id 'g7').rounds[0]: the replay is cut
short``). :func:`merge_plan` compares an archive with the games already
saved: new games, games already there unchanged, and **conflicts** (same id,
different content), so the page can import the new ones and *ask* before
overwriting anything (:meth:`Plan.to_write`).

Document, version 1 (the page saves it as ``eleusis-games.json``)::

    {"format": "eleusis-archive", "version": 1, "exported": "2026-11-21T08:00:00Z",
     "games": [{"id": "g1", "title": "Solo - You", "updated": 1763700000.0,
                "rounds": ["<replay text>", ...], "notebook": {...} | null,
                "extra": {...}}],
     "notebook": {...} | null, "daily": {...} | null}

A game is one or more rounds, each an engine replay text
(:mod:`eleusis.replay`), the same as the web face's saved games; ``extra`` is
a small JSON object the page may use for what the engine does not know (its
set-up choices, who is a computer), kept as is and size-checked; the
notebooks are :meth:`eleusis.notebook.Notebook.to_data`; ``daily`` is the
streak history of :mod:`eleusis.daily`. :func:`game_from_save` and
:func:`save_from_game` convert from and to the page's saved-game entries.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from eleusis.daily import DailyError, validate_history
from eleusis.game import State
from eleusis.i18n import _
from eleusis.notebook import Notebook, NotebookError
from eleusis.replay import ReplayError, decode_steps, encode, log_size
from eleusis.safejson import JsonError, clean_text, loads
from eleusis.state import run_steps

FORMAT: Final = "eleusis-archive"
VERSION: Final = 1
MAX_DOCUMENT: Final = 8_000_000  # characters
MAX_GAMES: Final = 1000
MAX_ROUNDS: Final = 64
MAX_REPLAY: Final = 200_000  # characters of one replay text
MAX_TITLE: Final = 400
MAX_EXTRA: Final = 64_000  # characters of a game's extra object, as JSON
MAX_DEPTH: Final = 8  # nesting of a game's extra object
MAX_FILE_DEPTH: Final = 24  # nesting of the whole file (games, extra, notebooks)
#: Work a whole file may ask for, counted before any round is replayed (each round is also
#: bounded by :mod:`eleusis.replay`): moves, and guesses judged by comparing rules.
MAX_FILE_MOVES: Final = 300_000
MAX_FILE_GUESSES: Final = 5000
_ID: Final = re.compile(r"[A-Za-z0-9_.:\-]{1,64}")
_TOP_KEYS: Final = frozenset({"format", "version", "exported", "games", "notebook", "daily"})
_GAME_KEYS: Final = frozenset({"id", "title", "updated", "rounds", "notebook", "extra"})


class ArchiveError(ValueError):
    """An archive that cannot be written or read; the message says what and where."""


@dataclass(frozen=True)
class ArchivedGame:
    """One saved game: its rounds as replay texts, and what goes with it.

    ``states`` holds the decoded rounds when the game came from
    :func:`parse_archive` (empty otherwise).
    """

    id: str
    title: str
    rounds: tuple[str, ...]
    updated: float = 0.0
    notebook: Notebook | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    states: tuple[State, ...] = field(default=(), compare=False, repr=False)

    @classmethod
    def from_states(
        cls,
        id: str,
        title: str,
        rounds: Sequence[State],
        updated: float = 0.0,
        notebook: Notebook | None = None,
        extra: Mapping[str, Any] | None = None,
    ) -> ArchivedGame:
        """A game from its round states (encoded with :func:`eleusis.replay.encode`)."""
        return cls(id, title, tuple(encode(s) for s in rounds), updated, notebook,
                   dict(extra or {}), tuple(rounds))

    def to_data(self) -> dict[str, Any]:
        """The game's JSON object."""
        return {
            "id": self.id,
            "title": self.title,
            "updated": self.updated,
            "rounds": list(self.rounds),
            "notebook": None if self.notebook is None else self.notebook.to_data(),
            "extra": dict(self.extra),
        }


@dataclass(frozen=True)
class Archive:
    """A checked archive."""

    games: tuple[ArchivedGame, ...]
    notebook: Notebook | None = None
    daily: Mapping[str, Any] | None = None
    exported: str | None = None

    def game(self, gid: str) -> ArchivedGame:
        """The game with this id (``KeyError`` if none)."""
        for g in self.games:
            if g.id == gid:
                return g
        raise KeyError(gid)


# --------------------------------------------------------------------------- writing


def export_archive(
    games: Sequence[ArchivedGame],
    notebook: Notebook | None = None,
    daily: Mapping[str, Any] | None = None,
    exported: str | None = None,
) -> str:
    """The archive document (JSON text). Checks its parts (:class:`ArchiveError`).

    Replay texts are not re-decoded here (they come from the engine); use
    :func:`parse_archive` on the result to check everything.
    """
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "exported": exported,
        "games": [],
        "notebook": None,
        "daily": None,
    }
    if exported is not None:
        _text(exported, "exported", 64, False)
    if len(games) > MAX_GAMES:
        raise ArchiveError(f"too many games ({len(games)}; at most {MAX_GAMES})")
    seen: set[str] = set()
    for n, g in enumerate(games):
        if not isinstance(g, ArchivedGame):
            raise ArchiveError(f"games[{n}]: not an ArchivedGame")
        item = g.to_data()
        _game(item, f"games[{n}]", seen, decode_rounds=False)
        data["games"].append(item)
    if notebook is not None:
        if not isinstance(notebook, Notebook):
            raise ArchiveError("notebook: not a Notebook")
        data["notebook"] = notebook.to_data()
    if daily is not None:
        try:
            data["daily"] = validate_history(daily)
        except DailyError as exc:
            raise ArchiveError(f"daily: {exc}") from None
    text = json.dumps(data, ensure_ascii=False, indent=1, allow_nan=False)
    if len(text) > MAX_DOCUMENT:
        raise ArchiveError(f"the archive would be too large ({len(text)} characters)")
    return text


# --------------------------------------------------------------------------- reading


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise ArchiveError(f"the key {k[:40]!r} appears twice in one object")
        out[k] = v
    return out


def _kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a text"
    if isinstance(value, list):
        return "a list"
    return "an object"


def _text(value: object, where: str, limit: int, empty_ok: bool) -> str:
    if not isinstance(value, str):
        raise ArchiveError(f"{where}: must be a text, found {_kind(value)}")
    if len(value) > limit:
        raise ArchiveError(f"{where}: too long ({len(value)} characters; at most {limit})")
    if not empty_ok and not value.strip():
        raise ArchiveError(f"{where}: is empty")
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
        raise ArchiveError(f"{where}: holds a control character")
    return value


def _depth(value: object, limit: int) -> int:
    if limit < 0:
        return 1
    if isinstance(value, Mapping):
        return 1 + max((_depth(v, limit - 1) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v, limit - 1) for v in value), default=0)
    return 0


def _game(item: object, where: str, seen: set[str], decode_rounds: bool) -> ArchivedGame:
    return run_steps(_game_steps(item, where, seen, decode_rounds))



def _decoded(text: str) -> Generator[None, None, State]:
    """:func:`eleusis.replay.decode` in steps (:func:`eleusis.replay.decode_steps`)."""
    steps = decode_steps(text)
    while True:
        try:
            next(steps)
        except StopIteration as end:
            last: State = end.value[-1]
            return last
        yield None


def _game_steps(item: object, where: str, seen: set[str], decode_rounds: bool
                ) -> Generator[None, None, ArchivedGame]:
    if not isinstance(item, Mapping):
        raise ArchiveError(f"{where}: a game must be an object, found {_kind(item)}")
    unknown = sorted(str(k) for k in item if k not in _GAME_KEYS)
    if unknown:
        raise ArchiveError(f"{where}: unknown field {unknown[0][:40]!r}")
    gid = item.get("id")
    if not isinstance(gid, str) or not _ID.fullmatch(gid):
        raise ArchiveError(
            f"{where}.id: must be 1 to 64 letters, digits or '_.:-', found {_kind(gid)}"
        )
    where = f"{where} (id {gid!r})"
    if gid in seen:
        raise ArchiveError(f"{where}: this id is used by another game of the file")
    seen.add(gid)
    title = clean_text(_text(item.get("title"), f"{where}.title", MAX_TITLE, True))
    updated = item.get("updated", 0.0)
    if (
        not isinstance(updated, int | float)
        or isinstance(updated, bool)
        or not math.isfinite(updated)
        or not 0 <= updated <= 1e13
    ):
        raise ArchiveError(f"{where}.updated: must be a time in seconds, found {_kind(updated)}")
    rounds = item.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise ArchiveError(f"{where}.rounds: must be a list of at least one replay text")
    if len(rounds) > MAX_ROUNDS:
        raise ArchiveError(f"{where}.rounds: too many rounds ({len(rounds)}; at most {MAX_ROUNDS})")
    states: list[State] = []
    for k, r in enumerate(rounds):
        text = _text(r, f"{where}.rounds[{k}]", MAX_REPLAY, False)
        if decode_rounds:
            try:
                states.append((yield from _decoded(text)))
            except ReplayError as exc:
                raise ArchiveError(f"{where}.rounds[{k}]: {exc}") from None
    nb_data = item.get("notebook")
    notebook = None
    if nb_data is not None:
        try:
            notebook = Notebook.from_data(nb_data)
        except NotebookError as exc:
            raise ArchiveError(f"{where}.notebook: {exc}") from None
    extra = item.get("extra", {})
    if extra is None:
        extra = {}
    if not isinstance(extra, Mapping):
        raise ArchiveError(f"{where}.extra: must be an object, found {_kind(extra)}")
    if _depth(extra, MAX_DEPTH + 1) > MAX_DEPTH:
        raise ArchiveError(f"{where}.extra: nested too deeply (at most {MAX_DEPTH} levels)")
    try:
        size = len(json.dumps(extra, allow_nan=False))
    except (TypeError, ValueError):
        raise ArchiveError(f"{where}.extra: is not plain JSON data") from None
    if size > MAX_EXTRA:
        raise ArchiveError(f"{where}.extra: too large ({size} characters; at most {MAX_EXTRA})")
    if states:
        _session_fields(extra, states[-1], f"{where}.extra")
    return ArchivedGame(gid, title, tuple(rounds), float(updated), notebook, dict(extra),
                        tuple(states))


def _number(value: object, where: str, low: float, high: float) -> None:
    if (
        not isinstance(value, int | float)
        or isinstance(value, bool)
        or not math.isfinite(value)
        or not low <= value <= high
    ):
        raise ArchiveError(f"{where}: must be a number from {low:g} to {high:g}, found "
                           f"{_kind(value)}")


def _session_fields(extra: Mapping[str, Any], last: State, where: str) -> None:
    """Check the page's fields of a game (``extra``) against its rounds.

    The page keeps its set-up there (``setup``), the kind of each seat
    (``kinds``), when the game began (``created``) and its own small data
    (``extra``, ``ended_early``). Each is optional, but one that is present
    must be usable: a game that imports must load (see :data:`GameCheck` for
    the page's own, fuller check).
    """
    if "created" in extra:
        _number(extra["created"], f"{where}.created", 0, 1e13)
    if "ended_early" in extra and not isinstance(extra["ended_early"], bool):
        raise ArchiveError(f"{where}.ended_early: must be true or false, found "
                           f"{_kind(extra['ended_early'])}")
    if "extra" in extra and not isinstance(extra["extra"], Mapping):
        raise ArchiveError(f"{where}.extra: must be an object, found {_kind(extra['extra'])}")
    kinds = extra.get("kinds")
    if "kinds" in extra:
        if not isinstance(kinds, list) or not all(isinstance(k, str) and 0 < len(k) <= 16
                                                  for k in kinds):
            raise ArchiveError(f"{where}.kinds: must be a list of short texts")
        if len(kinds) != last.config.seats:
            raise ArchiveError(
                f"{where}.kinds: names {len(kinds)} seats, but the last round has "
                f"{last.config.seats}"
            )
    if "setup" not in extra:
        return
    setup = extra["setup"]
    if not isinstance(setup, Mapping):
        raise ArchiveError(f"{where}.setup: must be an object, found {_kind(setup)}")
    seats = setup.get("seats", [])
    if not isinstance(seats, list) or len(seats) > 16 or ("seats" in setup and not seats):
        raise ArchiveError(f"{where}.setup.seats: must be a list of 1 to 16 seats")
    from eleusis.ai.scientist import PRESETS  # the AI is loaded only when a file is read

    for n, seat in enumerate(seats):
        at = f"{where}.setup.seats[{n}]"
        if not isinstance(seat, Mapping):
            raise ArchiveError(f"{at}: must be an object, found {_kind(seat)}")
        _text(seat.get("name"), f"{at}.name", 40, True)
        if not isinstance(seat.get("kind"), str):
            raise ArchiveError(f"{at}.kind: must be a text, found {_kind(seat.get('kind'))}")
        strength = seat.get("strength")
        if strength not in PRESETS:
            raise ArchiveError(
                f"{at}.strength: {str(strength)[:20]!r} is not a computer strength "
                f"({', '.join(PRESETS)})"
            )
    if seats and isinstance(kinds, list) and len(kinds) - len(seats) not in (0, 1):
        raise ArchiveError(
            f"{where}.kinds: names {len(kinds)} seats for a set-up of {len(seats)}"
        )
    for key in ("variant", "dealer", "dealer_name", "difficulty", "pace"):
        if key in setup:
            _text(setup[key], f"{where}.setup.{key}", 40, True)
    if "seed" in setup and (not isinstance(setup["seed"], int) or isinstance(setup["seed"], bool)
                            or not 0 <= setup["seed"] < 1 << 64):
        raise ArchiveError(f"{where}.setup.seed: must be a whole number from 0 to 2**64 - 1")
    if "match" in setup and not isinstance(setup["match"], bool):
        raise ArchiveError(f"{where}.setup.match: must be true or false")
    rule = setup.get("rule")
    if rule is not None:
        from eleusis.rules import RuleSyntaxError, parse

        _text(rule, f"{where}.setup.rule", 600, False)
        try:
            parse(rule)
        except RuleSyntaxError as exc:
            raise ArchiveError(f"{where}.setup.rule: does not parse: {exc.message}") from None


#: The page's own check of an imported game: loads it as the page would, and raises
#: ``ValueError`` (any message; the archive says where) when it cannot.
GameCheck = Callable[[ArchivedGame], object]


def _total_work(games: list[Any]) -> None:
    """Refuse a file whose rounds ask for too much work in total, before replaying any.

    A round that cannot be read is left for :func:`_game` to report where it is.
    """
    moves = guesses = 0
    for g in games:
        rounds = g.get("rounds") if isinstance(g, Mapping) else None
        for text in rounds if isinstance(rounds, list) else ():
            if not isinstance(text, str) or len(text) > MAX_REPLAY:
                continue
            try:
                size = log_size(text)
            except ReplayError:
                continue
            moves += size.moves
            guesses += size.guesses
    if moves > MAX_FILE_MOVES:
        raise ArchiveError(f"the file's games hold too many moves ({moves}; at most "
                           f"{MAX_FILE_MOVES})")
    if guesses > MAX_FILE_GUESSES:
        raise ArchiveError(f"the file's games hold too many guesses ({guesses}; at most "
                           f"{MAX_FILE_GUESSES})")


def parse_archive(text: str, check_game: GameCheck | None = None) -> Archive:
    """Read and check an archive document; :class:`ArchiveError` (only) says what is wrong.

    ``check_game`` is the page's check that a game loads (its set-up, its
    seats): with it, a game the page could not continue is refused here, at
    import, with its place in the file, instead of breaking the page later.
    """
    return run_steps(parse_archive_steps(text, check_game))


def parse_archive_steps(text: str, check_game: GameCheck | None = None
                        ) -> Generator[None, None, Archive]:
    """:func:`parse_archive` in steps of a few milliseconds (None after each), for a page
    that must not block: the rounds are decoded with :func:`eleusis.replay.decode_steps`
    (one action, or one slice of a guess's exact comparison, per step), and each game
    is checked right after its rounds (so ``check_game`` finds them remembered by
    :func:`eleusis.replay.decode`). Returns the :class:`Archive`."""
    try:
        return (yield from _parse(text, check_game))
    except ArchiveError:
        raise
    except RecursionError:
        raise ArchiveError(_("the file is nested too deeply")) from None
    except Exception as exc:  # never let anything else out of a file the player picked
        raise ArchiveError(_("this file cannot be read ({problem})").format(
            problem=type(exc).__name__)) from None


def _parse(text: object, check_game: GameCheck | None = None
           ) -> Generator[None, None, Archive]:
    if not isinstance(text, str | bytes | bytearray):
        raise ArchiveError(_("an archive is a text"))
    if isinstance(text, str) and len(text) > MAX_DOCUMENT:  # (bytes: as read, below)
        raise ArchiveError(_("the file is too large to be an Eleusis archive ({count} "
                             "characters; at most {limit})").format(count=len(text),
                                                                   limit=MAX_DOCUMENT))
    try:
        data = loads(text, max_depth=MAX_FILE_DEPTH, max_chars=MAX_DOCUMENT, what="the file",
                     object_pairs_hook=_unique_keys)
    except JsonError as exc:
        raise ArchiveError(
            _("the file is not JSON (line {line}, column {column})").format(
                line=exc.line, column=exc.column) if exc.line else
            _("the file cannot be read as JSON ({problem})").format(problem=exc.message)
        ) from None
    if not isinstance(data, dict):
        raise ArchiveError(_("this file is not an Eleusis archive: it does not hold an object"))
    if data.get("format") != FORMAT:
        raise ArchiveError(_("this file is not an Eleusis archive (its 'format' is not "
                             "{format})").format(format=repr(FORMAT)))
    version = data.get("version")
    if version != VERSION:
        raise ArchiveError(_("archive version {version} is not known to this version (it "
                             "reads {reads})").format(version=repr(version), reads=VERSION))
    unknown = sorted(str(k) for k in data if k not in _TOP_KEYS)
    if unknown:
        raise ArchiveError(f"unknown field {unknown[0][:40]!r}")
    exported = data.get("exported")
    if exported is not None:
        _text(exported, "exported", 64, False)
    games = data.get("games", [])
    if not isinstance(games, list):
        raise ArchiveError(f"games: must be a list, found {_kind(games)}")
    if len(games) > MAX_GAMES:
        raise ArchiveError(f"games: too many ({len(games)}; at most {MAX_GAMES})")
    _total_work(games)
    seen: set[str] = set()
    read: list[ArchivedGame] = []
    for n, item in enumerate(games):
        g = yield from _game_steps(item, f"games[{n}]", seen, decode_rounds=True)
        if check_game is not None:
            try:
                check_game(g)
            except ValueError as exc:
                raise ArchiveError(f"games[{n}] (id {g.id!r}): cannot be loaded: {exc}") from None
            yield None
        read.append(g)
    out = tuple(read)
    notebook = None
    if data.get("notebook") is not None:
        try:
            notebook = Notebook.from_data(data["notebook"])
        except NotebookError as exc:
            raise ArchiveError(f"notebook: {exc}") from None
    daily = None
    if data.get("daily") is not None:
        try:
            daily = validate_history(data["daily"])
        except DailyError as exc:
            raise ArchiveError(f"daily: {exc}") from None
    return Archive(out, notebook, daily, exported)


# --------------------------------------------------------------------------- the page's saves


SAVE_FORMAT: Final = "eleusis-save"


def game_from_save(entry: Mapping[str, Any]) -> ArchivedGame:
    """An archived game from one saved-game entry of the page (``eleusis_web.storage``, v1).

    The entry is ``{"format": "eleusis-save", "version": 1, "id", "title",
    "updated", "game"}`` where ``game`` holds ``"rounds"`` (replay texts) and
    the page's own fields, kept in ``extra``. Raises :class:`ArchiveError`.
    """
    if not isinstance(entry, Mapping) or entry.get("format") != SAVE_FORMAT:
        raise ArchiveError("not a saved game of this page")
    if entry.get("version") != 1:
        raise ArchiveError(f"saved-game version {entry.get('version')!r} is not known")
    game = entry.get("game")
    if not isinstance(game, Mapping):
        raise ArchiveError("the saved game has no game data")
    item = {
        "id": entry.get("id"),
        "title": entry.get("title", ""),
        "updated": entry.get("updated", 0.0),
        "rounds": game.get("rounds"),
        "extra": {k: v for k, v in game.items() if k not in ("id", "rounds")},
    }
    return _game(item, f"saved game {str(entry.get('id'))[:64]!r}", set(), decode_rounds=False)


def save_from_game(game: ArchivedGame) -> dict[str, Any]:
    """The page's saved-game entry for an archived game (inverse of :func:`game_from_save`)."""
    return {
        "format": SAVE_FORMAT,
        "version": 1,
        "id": game.id,
        "title": game.title,
        "updated": game.updated,
        "game": {**dict(game.extra), "id": game.id, "rounds": list(game.rounds)},
    }


# --------------------------------------------------------------------------- merging


@dataclass(frozen=True)
class Plan:
    """What importing an archive would do; nothing is overwritten without asking.

    ``new``: games whose id is not saved here; ``unchanged``: saved here with
    the same rounds (nothing to do); ``conflicts``: saved here with other
    content (ask: overwrite, keep both, or skip). ``notebook``: ``"none"``
    (the archive has none), ``"import"`` (nothing here), ``"same"`` or
    ``"ask"`` (both differ).
    """

    new: tuple[ArchivedGame, ...]
    unchanged: tuple[ArchivedGame, ...]
    conflicts: tuple[ArchivedGame, ...]
    notebook: str
    taken: frozenset[str] = frozenset()

    @property
    def summary(self) -> str:
        """One line for the import dialog."""
        def n(k: int, what: str) -> str:
            return f"{k} {what}{'' if k == 1 else 's'}"

        parts = [n(len(self.new), "new game")]
        if self.unchanged:
            parts.append(f"{n(len(self.unchanged), 'game')} already here")
        if self.conflicts:
            parts.append(f"{n(len(self.conflicts), 'game')} that differ from the saved ones")
        return ", ".join(parts)

    def to_write(
        self, overwrite: Iterable[str] = (), keep_both: Iterable[str] = ()
    ) -> tuple[ArchivedGame, ...]:
        """The games to save: every new one, plus the conflicts the player chose.

        ``overwrite``: conflict ids to replace; ``keep_both``: conflict ids to
        import under a fresh id (``g1-2``, ...). Conflicts in neither are skipped.
        """
        over, both = set(overwrite), set(keep_both)
        ids = {g.id for g in self.conflicts}
        for gid in over | both:
            if gid not in ids:
                raise ArchiveError(f"{gid!r} is not one of the conflicting games")
        if over & both:
            raise ArchiveError("a game cannot be both overwritten and kept twice")
        out = list(self.new)
        taken = set(self.taken) | {g.id for g in self.new} | ids
        for g in self.conflicts:
            if g.id in over:
                out.append(g)
            elif g.id in both:
                k = 2
                while f"{g.id[:60]}-{k}" in taken:
                    k += 1
                fresh = f"{g.id[:60]}-{k}"
                taken.add(fresh)
                out.append(ArchivedGame(fresh, g.title, g.rounds, g.updated, g.notebook,
                                        g.extra, g.states))
        return tuple(out)


def merge_plan(
    existing: Mapping[str, Sequence[str]] | Iterable[str],
    archive: Archive,
    existing_notebook: Notebook | None = None,
) -> Plan:
    """Compare an archive with the saved games.

    ``existing`` is either the saved ids, or a mapping from id to the saved
    rounds' replay texts (then a game with the same rounds is ``unchanged``
    instead of a conflict).
    """
    rounds: Mapping[str, Sequence[str]] | None = (
        existing if isinstance(existing, Mapping) else None
    )
    ids = frozenset(existing)
    new: list[ArchivedGame] = []
    same: list[ArchivedGame] = []
    conflicts: list[ArchivedGame] = []
    for g in archive.games:
        if g.id not in ids:
            new.append(g)
        elif rounds is not None and tuple(rounds[g.id]) == g.rounds:
            same.append(g)
        else:
            conflicts.append(g)
    if archive.notebook is None:
        nb = "none"
    elif existing_notebook is None or not existing_notebook.entries:
        nb = "import"
    elif existing_notebook.to_data() == archive.notebook.to_data():
        nb = "same"
    else:
        nb = "ask"
    return Plan(tuple(new), tuple(same), tuple(conflicts), nb, ids)


def merge_daily(
    local: Mapping[str, Any] | None, imported: Mapping[str, Any] | None
) -> dict[str, Any]:
    """The union of two daily histories; a day in both keeps the local result.

    Beyond :data:`eleusis.daily.MAX_HISTORY_DAYS`, the oldest days are dropped.
    """
    from eleusis.daily import MAX_HISTORY_DAYS, empty_history

    try:
        a = validate_history(local) if local is not None else empty_history()
        b = validate_history(imported) if imported is not None else empty_history()
    except DailyError as exc:
        raise ArchiveError(f"daily: {exc}") from None
    merged = {**b["days"], **a["days"]}
    days = {k: merged[k] for k in sorted(merged)[-MAX_HISTORY_DAYS:]}
    return validate_history({"version": a["version"], "days": days})


__all__ = [
    "Archive",
    "ArchiveError",
    "ArchivedGame",
    "GameCheck",
    "Plan",
    "export_archive",
    "game_from_save",
    "merge_daily",
    "merge_plan",
    "parse_archive",
    "parse_archive_steps",
    "save_from_game",
]
