"""Reading GNU gettext ``.po`` catalogues and writing ``.mo`` files.

The build compiles the repository's ``locale/<lang>/LC_MESSAGES/eleusis.po``
into the ``.mo`` files the page loads with :mod:`gettext` (the same work as
GNU ``msgfmt``, kept here in the standard library alone because the build
runs on a bare ``python3``). A malformed catalogue is refused with its file
and line, so a broken translation fails the build instead of reaching a
player; so is a translation whose ``{placeholders}`` differ from its
message's. Fuzzy entries are left out, as ``msgfmt`` does.

>>> entries = parse('''
... msgid ""
... msgstr "Plural-Forms: nplurals=2; plural=(n != 1);\\\\n"
...
... msgid "{n} card"
... msgid_plural "{n} cards"
... msgstr[0] "{n} carta"
... msgstr[1] "{n} carte"
... ''')
>>> entries[1].msgstr
('{n} carta', '{n} carte')
>>> import gettext, io
>>> tr = gettext.GNUTranslations(io.BytesIO(mo_bytes(entries)))
>>> tr.ngettext("{n} card", "{n} cards", 5)
'{n} carte'
"""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass
from typing import Final


class CatalogueError(ValueError):
    """A ``.po`` file that cannot be compiled (the message names the line)."""


@dataclass(frozen=True)
class Entry:
    """One message: its id (and plural id), its translations, its flags."""

    msgid: str
    msgstr: tuple[str, ...]
    msgid_plural: str | None = None
    msgctxt: str | None = None
    fuzzy: bool = False
    line: int = 0


_ESCAPES: Final = {"n": "\n", "t": "\t", "r": "\r", '"': '"', "\\": "\\", "a": "\a",
                   "b": "\b", "f": "\f", "v": "\v"}
_STRING: Final = re.compile(r'"((?:[^"\\]|\\.)*)"\s*$')
_KEYWORD: Final = re.compile(r"(msgctxt|msgid_plural|msgid|msgstr(?:\[(\d+)\])?)\s+(.*)$")
_PLACEHOLDER: Final = re.compile(r"\{(\w*)[^{}]*\}")


def _unquote(text: str, where: str) -> str:
    match = _STRING.match(text.strip())
    if match is None:
        raise CatalogueError(f"{where}: expected a quoted string, found {text.strip()!r}")
    out: list[str] = []
    body = match.group(1)
    i = 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            nxt = body[i + 1]
            if nxt not in _ESCAPES:
                raise CatalogueError(f"{where}: unknown escape \\{nxt}")
            out.append(_ESCAPES[nxt])
            i += 2
        else:
            out.append(char)
            i += 1
    return "".join(out)


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a message (``{{`` and ``}}`` are literal braces).

    >>> sorted(placeholders("{who} lays {n} cards {{not this}}"))
    ['n', 'who']
    """
    return set(_PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


def parse(text: str, name: str = "<po>") -> list[Entry]:
    """Every entry of a ``.po`` text, the header (``msgid ""``) first."""
    entries: list[Entry] = []
    fields: dict[str, str] = {}
    plural_strs: dict[int, str] = {}
    current: tuple[str, int] | None = None
    fuzzy = False
    start = 0

    def flush() -> None:
        nonlocal fields, plural_strs, current, fuzzy
        if not fields and not plural_strs:
            fuzzy = False
            return
        where = f"{name}:{start}"
        if "msgid" not in fields:
            raise CatalogueError(f"{where}: an entry without msgid")
        plural = fields.get("msgid_plural")
        if plural is None:
            if plural_strs or "msgstr" not in fields:
                raise CatalogueError(f"{where}: msgid needs exactly one msgstr")
            strs: tuple[str, ...] = (fields["msgstr"],)
        else:
            if "msgstr" in fields or not plural_strs:
                raise CatalogueError(f"{where}: msgid_plural needs msgstr[0], msgstr[1]...")
            if sorted(plural_strs) != list(range(len(plural_strs))):
                raise CatalogueError(f"{where}: plural msgstr indices must be 0, 1, 2...")
            strs = tuple(plural_strs[i] for i in range(len(plural_strs)))
        entries.append(Entry(fields["msgid"], strs, plural, fields.get("msgctxt"), fuzzy, start))
        fields, plural_strs, current, fuzzy = {}, {}, None, False

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        where = f"{name}:{number}"
        if not line:
            continue
        if line.startswith("#"):
            if fields and current is not None and current[0].startswith("msgstr"):
                flush()
            if line.startswith("#,") and "fuzzy" in [f.strip() for f in line[2:].split(",")]:
                fuzzy = True
            continue
        if line.startswith('"'):
            if current is None:
                raise CatalogueError(f"{where}: a string outside an entry")
            key, index = current
            if key == "msgstr[]":
                plural_strs[index] += _unquote(line, where)
            else:
                fields[key] += _unquote(line, where)
            continue
        match = _KEYWORD.match(line)
        if match is None:
            raise CatalogueError(f"{where}: cannot read {line!r}")
        keyword, index_text, rest = match.groups()
        if keyword in ("msgctxt", "msgid") and (fields or plural_strs) and (
                current is not None and current[0].startswith("msgstr")):
            flush()
        if not fields and not plural_strs:
            start = number
        if index_text is not None:
            index = int(index_text)
            if index in plural_strs:
                raise CatalogueError(f"{where}: msgstr[{index}] given twice")
            plural_strs[index] = _unquote(rest, where)
            current = ("msgstr[]", index)
        else:
            if keyword in fields:
                raise CatalogueError(f"{where}: {keyword} given twice in one entry")
            fields[keyword] = _unquote(rest, where)
            current = (keyword, 0)
    flush()
    seen: set[tuple[str | None, str]] = set()
    for entry in entries:
        ident = (entry.msgctxt, entry.msgid)
        if ident in seen:
            raise CatalogueError(f"{name}:{entry.line}: duplicate msgid {entry.msgid!r}")
        seen.add(ident)
    return entries


def nplurals(entries: list[Entry], name: str = "<po>") -> int:
    """The number of plural forms the header declares (2 when it says none)."""
    header = next((e.msgstr[0] for e in entries if e.msgid == "" and e.msgctxt is None), "")
    match = re.search(r"nplurals\s*=\s*(\d+)", header)
    return int(match.group(1)) if match else 2


def check(entries: list[Entry], name: str = "<po>") -> None:
    """Refuse translations that would break at run time: wrong plural count,
    placeholders that differ from the message's."""
    count = nplurals(entries, name)
    for entry in entries:
        if entry.msgid == "" or entry.fuzzy:
            continue
        where = f"{name}:{entry.line}"
        if entry.msgid_plural is not None and len(entry.msgstr) != count:
            raise CatalogueError(
                f"{where}: {len(entry.msgstr)} plural forms, the header says {count}")
        expected = placeholders(entry.msgid)
        if entry.msgid_plural is not None:
            expected |= placeholders(entry.msgid_plural)
        for text in entry.msgstr:
            if text and not placeholders(text) <= expected:
                raise CatalogueError(
                    f"{where}: placeholders {sorted(placeholders(text) - expected)} "
                    f"are not in the message {entry.msgid!r}")


def mo_bytes(entries: list[Entry]) -> bytes:
    """The GNU ``.mo`` file of the translated, non-fuzzy entries (the header kept)."""
    pairs: dict[bytes, bytes] = {}
    for entry in entries:
        if entry.fuzzy and entry.msgid != "":
            continue
        if entry.msgid != "" and not all(entry.msgstr):
            continue  # untranslated: gettext falls back to the English message
        key = entry.msgid if entry.msgid_plural is None else (
            f"{entry.msgid}\0{entry.msgid_plural}")
        if entry.msgctxt is not None:
            key = f"{entry.msgctxt}\x04{key}"
        pairs[key.encode()] = "\0".join(entry.msgstr).encode()
    keys = sorted(pairs)
    ids = b""
    strs = b""
    offsets: list[tuple[int, int, int, int]] = []
    for raw in keys:
        offsets.append((len(ids), len(raw), len(strs), len(pairs[raw])))
        ids += raw + b"\0"
        strs += pairs[raw] + b"\0"
    count = len(keys)
    key_start = 7 * 4 + 16 * count
    value_start = key_start + len(ids)
    key_table: list[int] = []
    value_table: list[int] = []
    for id_off, id_len, str_off, str_len in offsets:
        key_table += [id_len, key_start + id_off]
        value_table += [str_len, value_start + str_off]
    header = struct.pack("Iiiiiii", 0x950412DE, 0, count, 7 * 4, 7 * 4 + count * 8, 0, 0)
    return (header + struct.pack(f"{len(key_table)}i", *key_table)
            + struct.pack(f"{len(value_table)}i", *value_table) + ids + strs)


def compile_po(text: str, name: str = "<po>") -> bytes:
    """Parse, check and compile one catalogue (raises :class:`CatalogueError`)."""
    entries = parse(text, name)
    check(entries, name)
    return mo_bytes(entries)
