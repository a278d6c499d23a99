"""The developer page bench/solo.html runs the scientists' Solo harness in the
browser's Pyodide: same JSON keys as ``python -m eleusis.bench solo --json``,
the same games as CPython's harness for the same input, bad lines reported
with their line numbers (and never inserted as HTML)."""

from __future__ import annotations

import json
import urllib.parse
from typing import Any

from browser_support import BOOT_TIMEOUT_MS

from eleusis.bench import read_rules, run_solo

#: Two quick rules, then a bad line whose text would be markup if inserted as HTML.
RULES = """\
red: card is red
card.suit != prev.suit
broken: card is <img src=x id=injected>
"""

#: The keys of ``--json`` the issue names.
KEYS = ("rounds", "solved_rate", "mean_score", "mean_wrong_guesses", "mean_turns",
        "decision_ms_median", "decision_ms_p95", "per_rule")

#: Per-rule keys that depend on the games only (not on the clock).
GAME_KEYS = ("name", "rule", "line", "rounds", "solved_rate", "mean_score",
             "mean_wrong_guesses", "mean_turns", "decisions", "scores", "wrong_guesses",
             "turns")


def _games(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [{k: e[k] for k in GAME_KEYS} for e in report["per_rule"]]


def test_page_runs_the_cli_harness(site: str, chromium: Any) -> None:
    query = urllib.parse.urlencode({"rules": "text", "text": RULES, "rounds": 1, "seed": 0,
                                    "strength": "strong", "run": 1})
    context = chromium.new_context(service_workers="block")
    context.set_default_timeout(BOOT_TIMEOUT_MS)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(site + "bench/solo.html?" + query)
        page.wait_for_selector("body[data-state='done'], body[data-state='error']",
                               state="attached")
        assert page.evaluate("document.body.dataset.state") == "done", \
            page.locator("#status").text_content()
        report = json.loads(page.locator("#json").text_content() or "")
        lines = page.locator("#lines").text_content() or ""
        skipped = page.locator("#skipped li").all_text_contents()
        shown_rules = page.locator("#rules li").all_text_contents()
        injected = page.locator("#injected, #skipped img, #rules img").count()
        summary = page.locator("#summary").text_content() or ""
        # the form shows the options it ran with
        assert page.locator("select[name=rules]").input_value() == "text"
        assert page.locator("textarea[name=text]").input_value() == RULES
    finally:
        context.close()
    assert not errors

    for key in KEYS:
        assert key in report, key
    rules, cli_skipped = read_rules(RULES.splitlines())
    expected = run_solo(rules, 1, 0, "strong", None)
    assert _games(report) == _games(expected)
    assert report["rounds"] == expected["rounds"] == 2
    assert report["mean_score"] == expected["mean_score"]
    assert report["skipped"] == cli_skipped
    assert report["runtime"].startswith("Pyodide ")

    # a line per rule (the CLI's), the summary, the bad line with its number
    assert [line.split()[0] for line in lines.splitlines()] == ["red", "line2"]
    assert "ms per decision" in summary
    assert len(skipped) == 1 and skipped[0].startswith("line 3: skipped, not a rule")
    assert "<img src=x id=injected>" in skipped[0] and injected == 0
    assert shown_rules == ["red: card is red  (line 1)",
                           "line2: card.suit != prev.suit  (line 2)"]
