"""Renew what a Pyodide memory snapshot froze, right after the page restores it.

The page boots Pyodide from a snapshot of its memory taken at build time,
under Node (``tools/snapshot.mjs``, ``static/pyodide-early.mjs``). Python's
state then is the build machine's, frozen: :func:`refresh` makes it this
browser's again before anything else runs, so a snapshot boot behaves like a
plain one:

* the ``random`` module's generator, seeded once when CPython started, would
  give every visitor the same numbers: it is seeded again from the system's
  random source (``crypto.getRandomValues`` in the browser);
* ``time.timezone``, ``altzone``, ``daylight`` and ``tzname`` were computed for
  the build's zone (UTC): they are computed again from this browser's zone,
  as CPython does (local offsets in January and July), with the names
  Emscripten gives (``UTC+0100``);
* ``LANG`` follows the browser's language as Emscripten sets it
  (``pl-PL`` -> ``pl_PL.UTF-8``);
* ``sys._emscripten_info.runtime`` names this browser, not Node.

The program name (``sys.executable``, ``$_``) is already the browser's: the
snapshot is made with it. Local times themselves were never frozen: Emscripten asks JavaScript's
``Date`` on every ``localtime``/``mktime``. What stays frozen is harmless
here: the string-hash secret (one per snapshot, like ``PYTHONHASHSEED``) and
the zone name C's ``strftime("%Z")`` prints, which nothing of ours uses.

Standard library only (no ``js``), so the zone arithmetic is tested under
CPython.
"""

from __future__ import annotations

import os
import random
import sys
import time
from typing import NamedTuple

#: True once :func:`refresh` ran: this interpreter was restored from a snapshot.
restored = False

#: The modules the snapshot held (recorded by :func:`refresh`).
restored_modules: frozenset[str] = frozenset()


class Zone(NamedTuple):
    """The ``time`` module's zone attributes (same meaning as CPython's)."""

    timezone: int
    altzone: int
    daylight: int
    tzname: tuple[str, str]


def zone_name(gmtoff: int) -> str:
    """Emscripten's name of a zone ``gmtoff`` seconds east of UTC: ``UTC+0130``.

    Emscripten writes the sign of ``Date.getTimezoneOffset()`` reversed and
    gives UTC itself a minus: ``UTC-0000``.
    """
    sign = "+" if gmtoff > 0 else "-"
    minutes = abs(gmtoff) // 60
    return f"UTC{sign}{minutes // 60:02d}{minutes % 60:02d}"


def zone(january_gmtoff: int, july_gmtoff: int) -> Zone:
    """The zone attributes from the local UTC offsets of January and July.

    CPython's rule (``Modules/timemodule.c``, ``init_timezone``): the standard
    offset is the one further west; where January is the later one (daylight
    saving in the southern summer) the two swap.
    """
    january, july = -january_gmtoff, -july_gmtoff
    names = (zone_name(january_gmtoff), zone_name(july_gmtoff))
    if january < july:
        return Zone(july, january, 1, (names[1], names[0]))
    return Zone(january, july, int(january != july), names)


def local_zone() -> Zone:
    """This machine's zone, from ``time.localtime`` of this year's Jan 1 and Jul 1."""
    year = time.localtime().tm_year
    offsets = [
        time.localtime(time.mktime((year, month, 1, 0, 0, 0, 0, 0, -1))).tm_gmtoff
        for month in (1, 7)
    ]
    return zone(offsets[0], offsets[1])


def language_env(language: str) -> str:
    """``LANG`` as Emscripten derives it from ``navigator.language``."""
    return (language or "C").replace("-", "_", 1) + ".UTF-8"


def refresh(language: str, runtime: str) -> None:
    """Renew the frozen state (see the module header) for this browser.

    ``language`` is ``navigator.language``; ``runtime`` is
    ``navigator.userAgent`` (what Emscripten reports as the runtime).
    """
    global restored, restored_modules
    restored_modules = frozenset(sys.modules)
    random.seed()
    os.environ["LANG"] = language_env(language)
    found = local_zone()
    time.timezone = found.timezone
    time.altzone = found.altzone
    time.daylight = found.daylight
    time.tzname = found.tzname
    info = getattr(sys, "_emscripten_info", None)
    if info is not None:
        sys._emscripten_info = type(info)(  # type: ignore[attr-defined]
            (info.emscripten_version, runtime, *tuple(info)[2:])
        )
    restored = True


def compiled_since_restore(stdlib_prefix: str = "/lib/python3") -> list[str]:
    """Standard-library modules imported since the restore and compiled from source.

    The page's standard library is bytecode (``tools/build.py`` stdlib_zip),
    so this lists the modules that came as source all the same: from
    Pyodide's whole library, fetched for a module the trimmed one left out
    (see :mod:`eleusis_web.stdlib_fallback`). Each would be compiled at every
    visit: ``tools/build.py`` (``STDLIB_BOOT``) or ``tools/snapshot.mjs``
    (``PRELOAD``) can take it in. Empty after a plain start (nothing was
    restored).
    """
    if not restored:
        return []
    found = []
    for name, module in list(sys.modules.items()):
        spec = getattr(module, "__spec__", None)
        origin = getattr(spec, "origin", None) or ""
        if name not in restored_modules and origin.startswith(stdlib_prefix) and (
            origin.endswith(".py")
        ):
            found.append(name)
    return sorted(found)
