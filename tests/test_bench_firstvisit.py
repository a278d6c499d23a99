"""bench/firstvisit.py's report: pair ratios, the issue's targets, Lighthouse scores."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import firstvisit  # noqa: E402


def _visit(ready: float, size: float, longest: float = 0, cls: float = 0) -> dict[str, Any]:
    return {"ready": ready, "bytes": size, "fcp": 120.0, "longest": longest,
            "over200": [round(longest)] if longest > 200 else [], "cls": cls,
            "files": {"/build/app.zip": 900_000, "/index.html": 4_000},
            "tasks": [[100, round(longest), ["pyodide:loaded"]]] if longest > 200 else [],
            "mode": "snapshot"}


def _raw() -> dict[str, Any]:
    bare = {"ready": 1.0}
    return {
        "bytes": {"app": [_visit(1000, 5e6), _visit(1100, 5e6)],
                  "bare": [_visit(3000, 6e6), _visit(2900, 6e6)]},
        "5 Mbit/s, 40 ms": {"app": [_visit(9000, 5e6), _visit(9500, 5e6)],
                            "bare": [_visit(10000, 6e6), _visit(9000, 6e6)]},
        "20 Mbit/s, 40 ms": {"app": [_visit(3000, 5e6), _visit(3000, 5e6)],
                             "bare": [_visit(5000, 6e6), _visit(4000, 6e6)]},
        "CPU 4x": {"app": [_visit(4000, 5e6, 900, 0.01), _visit(4200, 5e6, 700, 0.03)],
                   "bare": [_visit(12000, 6e6, 8000), _visit(11000, 6e6, 7000)]},
        "lighthouse": {
            name: {"scores": {"performance": 0.5, "accessibility": 1, "best-practices": 1,
                              "seo": score},
                   "metrics": {"first-contentful-paint": 900, "total-blocking-time": 300},
                   "failed": {"seo": [] if score == 1 else ["meta-description"]}, **bare}
            for name, score in (("app", 0.92), ("bare", 0.8))
        },
    }


def test_report_gives_pair_ratios_and_the_targets() -> None:
    args = argparse.Namespace(runs=2, host="gzip")
    text = "\n".join(firstvisit.report(_raw(), args))
    assert "| bytes before ready | 5.00 MB | 6.00 MB | 0.83 [0.83-0.83] |" in text
    assert "- bytes before ready <= 1.00 x bare: 0.83 (met)" in text
    # 5 Mbit/s: pairs 0.90 and 1.06 -> median 0.98; 20 Mbit/s: 0.60 and 0.75 -> 0.68.
    assert "| first visit to ready, 5 Mbit/s, 40 ms | 9.2 s | 9.5 s | 0.98 [0.90-1.06] |" in text
    assert "- first visit at 5 Mbit/s, 40 ms <= 1.00 x bare: 0.98 (met)" in text
    assert "- first visit at 20 Mbit/s, 40 ms <= 0.70 x bare: 0.68 (met)" in text
    assert "- longest task first paint to ready <= 200 ms (ms): 800.00 (NOT met)" in text
    assert "- cumulative layout shift <= 0.02: 0.02 (met)" in text
    assert "[100, 900, ['pyodide:loaded']]" in text
    assert "App boots from the snapshot: 8 of 8" in text
    assert "| app | 0.5 | 1 | 1 | 0.92 | 0.9 s |" in text
    assert "- Lighthouse seo = 1.00: 0.92 (NOT met)" in text
    assert "- Lighthouse accessibility = 1.00: 1.00 (met)" in text
