"""Reading what came from outside: JSON with bounds, and texts safe to show.

Every JSON text the engine or the page reads from a link, a file or the
browser's storage goes through :func:`loads`, never straight to
:func:`json.loads`. Python's decoder recurses once per nesting level: CPython
stops at its recursion limit with :class:`RecursionError`, but in the browser
(Pyodide) the WebAssembly stack overflows first and the whole interpreter dies
("Pyodide has suffered a fatal error") -- 20,000 ``[`` inflated from a
118-character link were enough. :func:`loads` measures the nesting *before*
parsing, with regular expressions (no recursion), and refuses too deep or too
large a text with :class:`JsonError`, a :class:`ValueError` whose message is
for people.

>>> loads('{"a": [1, 2]}')
{'a': [1, 2]}
>>> loads("[" * 20000)
Traceback (most recent call last):
...
eleusis.safejson.JsonError: the data is nested too deeply (more than 64 levels)

:func:`clean_text` is how names and other one-line texts from outside are
cleaned before they are shown: control characters and invisible format
characters (right-to-left overrides and isolates among them, which reorder
what follows them on screen) become U+FFFD, so "\\u202eevil" cannot turn a
sentence around.

>>> clean_text("\\u202eevil\\u202c name")
'\\ufffdevil\\ufffd name'
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Callable
from itertools import accumulate
from typing import Any, Final

#: Deep enough for every document of the game (an archive is about 12 levels).
MAX_DEPTH: Final = 64
#: Characters of one JSON text (an archive file is at most 8 million).
MAX_CHARS: Final = 8_000_000

_STRING: Final = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET: Final = re.compile(r"[^\[\]{}]+")
_PAIR: Final = re.compile(r"\[\]|\{\}")
_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
#: Format characters harmless in a name: zero-width joiner and non-joiner (emoji, scripts).
_KEEP_FORMAT: Final = frozenset("\u200c\u200d")


class JsonError(ValueError):
    """A JSON text that is not read: damaged, too large or nested too deeply.

    ``line`` and ``column`` locate a syntax error (0 when not known).
    """

    def __init__(self, message: str, line: int = 0, column: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column


def depth(text: str, limit: int = MAX_DEPTH) -> int:
    """How deeply ``text``'s brackets nest (strings skipped), measured without recursion.

    Exact for well-formed JSON up to ``limit`` (above it: some figure above
    ``limit``). A text whose brackets do not pair up is never under-estimated
    (its unmatched openings count in full), so whatever passes the check
    cannot recurse deeper in the parser.

    >>> depth('[{"a": "[[["}, []]')
    2
    >>> depth("[" * 100_000) > 64
    True
    """
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    passes = 0
    while brackets:
        # Removing every innermost pair takes at most one level off the deepest point.
        shorter = _PAIR.sub("", brackets)
        if len(shorter) == len(brackets):
            break
        brackets = shorter
        passes += 1
        if passes > limit:
            return passes
    openers = brackets.count("[") + brackets.count("{")
    if passes + openers <= limit:  # what is left cannot nest deeper than its openings
        return passes + openers
    if re.search("[\\[{]{" + str(limit - passes + 1) + "}", brackets):
        return limit + 1  # a run of openings deeper than the limit (the usual attack)
    rest = max(accumulate(_STEP[ch] for ch in brackets), default=0)
    return passes + max(rest, 0)


def _no_constant(name: str) -> Any:
    raise JsonError(f"the data holds {name}, which is not a number JSON allows")


def loads(
    text: str | bytes | bytearray,
    *,
    max_depth: int = MAX_DEPTH,
    max_chars: int = MAX_CHARS,
    what: str = "the data",
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
) -> Any:
    """Parse untrusted JSON, refusing it (:class:`JsonError`) before any deep recursion.

    ``what`` names the text in messages ("the file", "the saved game").
    ``NaN`` and ``Infinity`` are refused (they are not JSON and break saving
    later); bytes are read as UTF-8 (a byte-order mark is allowed).

    >>> loads("[[1]]", max_depth=1)
    Traceback (most recent call last):
    ...
    eleusis.safejson.JsonError: the data is nested too deeply (more than 1 levels)
    >>> loads("{", what="the file")
    Traceback (most recent call last):
    ...
    eleusis.safejson.JsonError: the file is not JSON: Expecting property name enclosed in \
double quotes (line 1, column 2)
    """
    if isinstance(text, bytes | bytearray):
        if len(text) > 4 * max_chars:
            raise JsonError(f"{what} is too large (at most {max_chars} characters)")
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise JsonError(f"{what} is not UTF-8 text") from None
    if not isinstance(text, str):
        raise JsonError(f"{what} is not a text")
    if len(text) > max_chars:
        raise JsonError(
            f"{what} is too large ({len(text)} characters; at most {max_chars})"
        )
    text = text.lstrip("\ufeff")
    openings = text.count("[") + text.count("{")  # quick: no deeper than its openings
    if openings > max_depth and depth(text, max_depth) > max_depth:
        raise JsonError(f"{what} is nested too deeply (more than {max_depth} levels)")
    try:
        return json.loads(text, parse_constant=_no_constant, object_pairs_hook=object_pairs_hook)
    except json.JSONDecodeError as exc:
        raise JsonError(
            f"{what} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})",
            exc.lineno,
            exc.colno,
        ) from None
    except RecursionError:  # cannot happen after the depth check; kept as a last fence
        raise JsonError(f"{what} is nested too deeply") from None


def clean_text(text: str, multiline: bool = False) -> str:
    """``text`` with control and invisible format characters replaced by U+FFFD.

    What every name, title or rule text read from a link, a file or storage
    goes through before it is shown: a right-to-left override (U+202E), an
    isolate, a zero-width space or an escape cannot reorder or hide what
    follows. Zero-width joiners (emoji sequences, Indic and Arabic scripts)
    are kept; with ``multiline``, newlines and tabs are kept too. The length
    does not change, so a length limit checked before still holds.
    """
    keep = "\n\t" if multiline else ""
    return "".join(
        "\ufffd"
        if ch not in keep
        and ch not in _KEEP_FORMAT
        and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs")
        else ch
        for ch in text
    )


def is_clean(text: str, multiline: bool = False) -> bool:
    """Whether :func:`clean_text` leaves ``text`` as it is."""
    return clean_text(text, multiline) == text


__all__ = ["MAX_CHARS", "MAX_DEPTH", "JsonError", "clean_text", "depth", "is_clean", "loads"]
