"""The computer scientists' decisions counted in machine instructions, not in time.

Timings on a shared machine move by a tenth or more from run to run, more
than most changes to a decision save; the instructions a run executes are
the same every run. This runs Solo rounds of the benchmark (the published
protocol: no counterexamples, ``strong``) under valgrind's ``cachegrind``
without cache simulation, with ``PYTHONHASHSEED=0``, once building the
hypothesis space only and once playing the rounds, and prints the rounds'
instructions (the difference) in all and per decision. Compare two engines
by running it on each checkout; a change that plays the same games should
say so too (``python -m eleusis.bench solo ... --json``, same scores and
turns).

Run (needs Debian's ``valgrind``)::

    .venv/bin/python bench/ai_instructions.py [--rules bench/rules/others.txt]
        [--rules-from 0] [--rule-count 8] [--rounds 1]

Each round is seeded as the harness seeds seed 0 (rule ``k``, round ``r``:
``k * 101 + r``). A few minutes for the default eight rounds. Figures go
to docs/performance.md ("Computer scientists: rules other people write").
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _play(rules_file: str, first: int, count: int, rounds: int) -> int:
    """Build the space, then play the rounds (inside valgrind); the decisions made."""
    sys.path.insert(0, str(ROOT / "src"))
    from eleusis import bench
    from eleusis.ai.scientist import Scientist

    rules, _ = bench.read_rules(Path(rules_file).read_text().splitlines())
    Scientist("strong", 0, counterexamples=False)  # (the space, built once per process)
    decisions = 0
    for k, rule in list(enumerate(rules))[first:first + count]:
        for r in range(rounds):
            for _ in bench.solo_round_steps(rule.text, k * 101 + r, counterexamples=False):
                decisions += 1
    return decisions


def _instructions(args: list[str]) -> tuple[int, str]:
    """The instructions of this script run with ``args`` under cachegrind, and its output."""
    env = dict(os.environ, PYTHONHASHSEED="0")
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, __file__, "--inside", *args],
        capture_output=True, text=True, env=env, check=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind gave no count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), done.stdout


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rules", default=str(ROOT / "bench" / "rules" / "others.txt"))
    ap.add_argument("--rules-from", type=int, default=0)
    ap.add_argument("--rule-count", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--inside", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.inside:
        print(_play(a.rules, a.rules_from, a.rule_count, a.rounds))
        return 0
    if shutil.which("valgrind") is None:
        print("needs valgrind (Debian: apt install valgrind)", file=sys.stderr)
        return 2
    common = ["--rules", a.rules, "--rules-from", str(a.rules_from)]
    # (once first, so that compiling the modules is not counted in either run)
    _instructions([*common, "--rule-count", "0"])
    base, _ = _instructions([*common, "--rule-count", "0"])
    total, out = _instructions([*common, "--rule-count", str(a.rule_count),
                                "--rounds", str(a.rounds)])
    decisions = int(out.split()[-1])
    played = total - base
    print(f"{a.rule_count} rules x {a.rounds} round(s) from rule {a.rules_from} of {a.rules}")
    print(f"set-up {base / 1e6:,.0f} M instructions; the rounds {played / 1e6:,.0f} M "
          f"({decisions} decisions, {played / max(1, decisions) / 1e6:.1f} M a decision)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
