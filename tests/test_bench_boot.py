"""bench/boot.py's report: ratios, targets, the plain-start table, boot modes."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import boot  # noqa: E402


def _samples() -> boot.Samples:
    samples = boot.Samples(pages=("app", "bare", "plain"))
    for page, cold, reload, offline, fcp in (
        ("app", [1000, 1200, 1100], [600, 700, 650], [800, 900, 850], [150, 160, 170]),
        ("bare", [3000, 3300, 3100], [2500, 2600, 2550], [2400, 2700, 2500], [60, 70, 80]),
        ("plain", [3300, 3500, 3400], [2700, 2800, 2750], [2600, 2900, 2700], [150, 150, 150]),
    ):
        for metric, values in (("cold", cold), ("reload", reload), ("offline", offline),
                               ("fcp", fcp)):
            for value in values:
                samples.add(page, metric, value)
    samples.modes["app"] = ["snapshot"] * 8 + ["plain (HTTP 404)"]
    samples.modes["plain"] = ["plain (HTTP 404)"] * 9
    samples.marks["app"]["pyodide:snapshot"] = [400.0, 500.0]
    return samples


def test_report_gives_ratios_targets_plain_start_and_modes() -> None:
    text = boot.report(_samples(), 3)
    assert "| cold boot to data-ready | 1100 | 3100 | 0.35 |" in text
    assert "- app cold boot <= 1.10 x bare cold boot: 0.35 (met)" in text
    assert "- app first contentful paint <= 300 ms: 160 ms (met)" in text
    assert "| cold boot to data-ready | 3400 | 3100 | 1.10 |" in text  # the plain start
    assert "app: Pyodide restored from the snapshot in 8 of 9 boots;" in text
    assert "plain (HTTP 404)" in text
    assert "plain: Pyodide restored from the snapshot in 0 of 9 boots" in text
    assert "| pyodide:snapshot | 450 |  |  |" in text


def test_report_without_the_plain_page_has_no_plain_table() -> None:
    samples = _samples()
    samples.pages = ("app", "bare")
    text = boot.report(samples, 3)
    assert "plain start" not in text
    assert "- app offline reload <= 1.10 x bare offline reload: 0.34 (met)" in text


def test_plain_site_has_no_snapshot_and_precaches_what_it_has(tmp_path: Path) -> None:
    import json

    site = boot.plain_site(tmp_path / "site")
    assert not (site / "build" / "pyodide-snapshot.bin").exists()
    assert (site / "build" / "app.zip").is_file()
    precache = (site / "build" / "precache.js").read_text()
    files = json.loads(precache.split("=", 1)[1].rstrip().rstrip(";"))["files"]
    assert "build/pyodide-snapshot.bin" not in files
    for name in files:
        assert (site / ("index.html" if name == "./" else name)).is_file(), name
