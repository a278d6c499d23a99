"""A module left out of the page's trimmed standard library still imports.

See ``eleusis_web.stdlib_fallback``: the finder fetches the whole library (here
a zip made by the test) the first time a left-out module is imported, once.
"""

from __future__ import annotations

import importlib
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from eleusis_web.stdlib_fallback import WholeLibraryFinder

LEFT_OUT = {"leftmod_x1", "leftpkg_x1", "leftpkg_x1.sub"}


@pytest.fixture
def whole(tmp_path: Path) -> Iterator[Path]:
    """A 'whole library' zip with a module and a package left out of the trimmed one."""
    path = tmp_path / "whole.zip"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("leftmod_x1.py", "VALUE = 41 + 1\n")
        archive.writestr("leftpkg_x1/__init__.py", "")
        archive.writestr("leftpkg_x1/sub.py", "from leftmod_x1 import VALUE\nTWICE = 2 * VALUE\n")
    yield path
    for name in LEFT_OUT:
        sys.modules.pop(name, None)


def _installed(finder: WholeLibraryFinder) -> WholeLibraryFinder:
    sys.meta_path.append(finder)
    return finder


def test_a_left_out_module_imports_from_the_whole_library_fetched_once(whole: Path) -> None:
    fetched: list[int] = []

    def fetch() -> str:
        fetched.append(1)
        return str(whole)

    finder = _installed(WholeLibraryFinder(LEFT_OUT, fetch))
    try:
        assert importlib.import_module("leftpkg_x1.sub").TWICE == 84
        assert importlib.import_module("leftmod_x1").VALUE == 42
        assert fetched == [1]
    finally:
        sys.meta_path.remove(finder)


def test_a_probing_import_of_an_unknown_name_downloads_nothing(whole: Path) -> None:
    fetched: list[int] = []
    finder = _installed(WholeLibraryFinder(LEFT_OUT, lambda: fetched.append(1) or str(whole)))
    try:
        with pytest.raises(ModuleNotFoundError):
            importlib.import_module("_speedups_that_do_not_exist_x1")
        assert fetched == []
    finally:
        sys.meta_path.remove(finder)


def test_a_failed_download_says_why_and_the_next_import_tries_again(whole: Path) -> None:
    answers: list[str | None] = [None, str(whole)]

    def fetch() -> str:
        answer = answers.pop(0)
        if answer is None:
            raise OSError("HTTP 503")
        return answer

    finder = _installed(WholeLibraryFinder(LEFT_OUT, fetch))
    try:
        with pytest.raises(ImportError, match="could not be downloaded: HTTP 503"):
            importlib.import_module("leftmod_x1")
        assert "leftmod_x1" not in sys.modules
        assert importlib.import_module("leftmod_x1").VALUE == 42
    finally:
        sys.meta_path.remove(finder)
