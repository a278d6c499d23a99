"""eleusis_web.snapshot: what the page renews after restoring Pyodide's snapshot.

The zone rule is checked against CPython's own ``time`` module under real
zones (``TZ`` + ``time.tzset``), so the browser gets the attributes a plain
start would compute.
"""

from __future__ import annotations

import os
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from eleusis_web import snapshot


def test_zone_names_are_emscriptens() -> None:
    assert snapshot.zone_name(13 * 3600) == "UTC+1300"
    assert snapshot.zone_name(0) == "UTC-0000"
    assert snapshot.zone_name(-(3 * 3600 + 30 * 60)) == "UTC-0330"
    assert snapshot.zone_name(5 * 3600 + 45 * 60) == "UTC+0545"


@pytest.mark.parametrize(
    ("january", "july", "expected"),
    [
        # Warsaw: winter +1, summer +2
        (3600, 7200, snapshot.Zone(-3600, -7200, 1, ("UTC+0100", "UTC+0200"))),
        # Auckland: summer (+13) in January, so the two swap
        (46800, 43200, snapshot.Zone(-43200, -46800, 1, ("UTC+1200", "UTC+1300"))),
        # Tokyo: no daylight saving
        (32400, 32400, snapshot.Zone(-32400, -32400, 0, ("UTC+0900", "UTC+0900"))),
        # UTC
        (0, 0, snapshot.Zone(0, 0, 0, ("UTC-0000", "UTC-0000"))),
    ],
)
def test_zone_from_january_and_july(january: int, july: int, expected: snapshot.Zone) -> None:
    assert snapshot.zone(january, july) == expected


@pytest.fixture
def restore_tz() -> Iterator[None]:
    saved = os.environ.get("TZ")
    yield
    if saved is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = saved
    time.tzset()


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="time.tzset is POSIX only")
@pytest.mark.parametrize(
    "name", ["Europe/Warsaw", "Pacific/Auckland", "America/New_York", "Asia/Kolkata", "UTC"]
)
def test_local_zone_agrees_with_cpython(name: str, restore_tz: None) -> None:
    if not (Path("/usr/share/zoneinfo") / name).exists():
        pytest.fail(f"no tzdata for {name} (apt-get install tzdata)")
    os.environ["TZ"] = name
    time.tzset()
    found = snapshot.local_zone()
    assert (found.timezone, found.altzone, found.daylight) == (
        time.timezone, time.altzone, time.daylight
    )


def test_language_env() -> None:
    assert snapshot.language_env("pl-PL") == "pl_PL.UTF-8"
    assert snapshot.language_env("en") == "en.UTF-8"
    assert snapshot.language_env("") == "C.UTF-8"


class _Info(tuple):  # type: ignore[type-arg]
    """Stands in for ``sys._emscripten_info`` (a struct sequence)."""

    @property
    def emscripten_version(self) -> object:
        return self[0]

    @property
    def runtime(self) -> object:
        return self[1]


@pytest.mark.skipif(not hasattr(time, "tzset"), reason="time.tzset is POSIX only")
def test_refresh_renews_seed_language_zone_and_runtime(
    monkeypatch: pytest.MonkeyPatch, restore_tz: None
) -> None:
    """As after a restore: a fixed seed, the build's zone (UTC), Node's names."""
    monkeypatch.setattr(snapshot, "restored", False)
    monkeypatch.setattr(snapshot, "restored_modules", frozenset())
    monkeypatch.setattr(sys, "_emscripten_info", _Info(((5, 0, 3), "Node.js v20", False, False)),
                        raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    for name in ("timezone", "altzone", "daylight", "tzname"):
        monkeypatch.setattr(time, name, getattr(time, name))
    os.environ["TZ"] = "Europe/Warsaw"  # the browser's zone: C's localtime follows it
    time.tzset()
    monkeypatch.setattr(time, "timezone", 0)  # tzset set them: freeze them again
    monkeypatch.setattr(time, "tzname", ("UTC-0000", "UTC-0000"))
    saved = random.getstate()
    try:
        random.seed(1)
        frozen = random.random()
        random.seed(1)
        snapshot.refresh("pl-PL", "HeadlessChrome/156")
        assert random.random() != frozen
    finally:
        random.setstate(saved)
    assert snapshot.restored is True
    assert os.environ["LANG"] == "pl_PL.UTF-8"
    assert (time.timezone, time.altzone, time.daylight) == (-3600, -7200, 1)
    assert time.tzname == ("UTC+0100", "UTC+0200")
    info = sys._emscripten_info  # type: ignore[attr-defined]
    assert tuple(info) == ((5, 0, 3), "HeadlessChrome/156", False, False)


def test_compiled_since_restore_lists_new_stdlib_modules(monkeypatch: pytest.MonkeyPatch) -> None:
    import types

    monkeypatch.setattr(snapshot, "restored", False)
    assert snapshot.compiled_since_restore() == []  # a plain start: nothing to compare
    monkeypatch.setattr(snapshot, "restored", True)
    monkeypatch.setattr(snapshot, "restored_modules", frozenset(sys.modules))
    fake = types.ModuleType("fake_stdlib_module")
    fake.__spec__ = types.SimpleNamespace(origin="/lib/python3.14/fake_stdlib_module.py")  # type: ignore[assignment]
    other = types.ModuleType("fake_app_module")
    other.__spec__ = types.SimpleNamespace(origin="/home/pyodide/app.zip/x.py")  # type: ignore[assignment]
    monkeypatch.setitem(sys.modules, "fake_stdlib_module", fake)
    monkeypatch.setitem(sys.modules, "fake_app_module", other)
    assert snapshot.compiled_since_restore("/lib/python3") == ["fake_stdlib_module"]
