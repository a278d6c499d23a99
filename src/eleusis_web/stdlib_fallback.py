"""Import a standard-library module that was left out of the page's library.

The page gives Pyodide a standard library trimmed to what it can import
(``tools/build.py`` ``stdlib_zip``: about 170 of Pyodide's 614 modules, as
bytecode; 1.3 MB instead of 2.5 MB of download on a first visit). The build
keeps every module an import of ours names and everything those import at
their top level; a module imported only inside a function it could not
foresee is left out. Importing one is not an error: the first time it
happens, :class:`WholeLibraryFinder` has the whole standard library fetched
(once, about 2.5 MB; see ``static/pyodide-early.mjs``), and imports from it.
The page is slower once, never broken.

The finder answers only for the names the build left out (listed in the
engine zip, ``stdlib-rest.txt``), so a probing import (``try: import
_speedups``) never triggers a download. It sits last on ``sys.meta_path``:
everything the trimmed library has is found first, as before.

>>> fetched = []
>>> finder = WholeLibraryFinder({"colorsys"}, lambda: fetched.append(1) or "/none.zip")
>>> finder.find_spec("json") is None and fetched == []
True
"""

from __future__ import annotations

import sys
import zipimport
from collections.abc import Callable, Iterable, Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

#: The engine zip's list of the modules left out (``tools/build.py`` STDLIB_REST).
REST_FILE = "stdlib-rest.txt"


class WholeLibraryFinder:
    """A meta path finder for the modules left out of the trimmed library.

    ``fetch`` puts the whole standard library (a zip) in the file system and
    returns its path; it is called at most once, when the first left-out
    module is imported. If it fails, that import fails with its message (an
    ``ImportError``) and the next one tries again.
    """

    def __init__(self, left_out: Iterable[str], fetch: Callable[[], str]) -> None:
        self.left_out = frozenset(left_out)
        self._fetch = fetch
        self.archive: str | None = None

    def find_spec(
        self, name: str, path: Sequence[str] | None = None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        """The spec of ``name`` from the whole library, if the build left it out."""
        if name not in self.left_out:
            return None
        if self.archive is None:
            try:
                self.archive = self._fetch()
            except Exception as exc:
                raise ImportError(
                    f"{name} is not in the page's standard library, and the whole "
                    f"library could not be downloaded: {exc}", name=name,
                ) from exc
        package = name.rpartition(".")[0].replace(".", "/")
        where = f"{self.archive}/{package}/" if package else self.archive
        return zipimport.zipimporter(where).find_spec(name)


def left_out_names() -> list[str]:
    """The names the build left out, read beside this module (empty when unknown)."""
    loader = globals().get("__loader__")
    get_data = getattr(loader, "get_data", None)
    if get_data is None:
        return []
    try:
        data = get_data(f"{Path(__file__).parent}/{REST_FILE}")
    except (OSError, KeyError):
        return []
    return data.decode("utf-8").split() if isinstance(data, bytes) else []


def install(fetch: Callable[[], str]) -> WholeLibraryFinder | None:
    """Put the finder last on ``sys.meta_path`` (once); None when nothing was left out."""
    for finder in sys.meta_path:
        if isinstance(finder, WholeLibraryFinder):
            return finder
    names = left_out_names()
    if not names:
        return None
    finder = WholeLibraryFinder(names, fetch)
    sys.meta_path.append(finder)
    return finder
