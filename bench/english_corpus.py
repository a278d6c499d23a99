"""How well :func:`eleusis.rules.from_english` reads plain-English rules.

Reads the corpus ``tests/rules/data/english_corpus.tsv`` (plain-English rule
descriptions, each with the rule it means) and prints, for the whole corpus
and per source, the share understood exactly (the reading is equivalent to
the intended rule, checked with :func:`eleusis.rules.compare`), the share
misread (read as a different rule: must be 0) and the share not understood
(no reading, or an ambiguous text given back with its candidates). Then the
same round trip on every sentence :meth:`Rule.english` writes for the
library and for generated rules.

    .venv/bin/python bench/english_corpus.py [--verbose]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

from eleusis.rules import compare, from_english, library, parse
from eleusis.rules.generate import candidate

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "rules" / "data" / "english_corpus.tsv"


def corpus_lines() -> list[tuple[str, str, str]]:
    """(source, description, rule text) for every line of the corpus."""
    out = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            source, text, rule = line.split("\t")
            out.append((source, text, rule))
    return out


def verdict(text: str, rule: str) -> str:
    """``understood``, ``misread``, ``ambiguous`` or ``not understood``."""
    reading = from_english(text)
    if reading.rule is None:
        return "ambiguous" if reading.candidates else "not understood"
    return "understood" if compare(parse(rule), reading.rule).equivalent else "misread"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--verbose", action="store_true", help="print every line not understood")
    args = ap.parse_args()
    tally: Counter[tuple[str, str]] = Counter()
    start = time.perf_counter()
    lines = corpus_lines()
    for source, text, rule in lines:
        v = verdict(text, rule)
        tally[(source.split()[0], v)] += 1
        tally[("all", v)] += 1
        if args.verbose and v != "understood":
            print(f"  {v}: {text}")
    took = time.perf_counter() - start
    groups = ["all", *dict.fromkeys(source.split()[0] for source, _, _ in lines)]
    for group in groups:
        n = sum(c for (g, _), c in tally.items() if g == group)
        if not n:
            continue
        parts = ", ".join(f"{v} {tally[(group, v)] / n:.1%}" for v in
                          ("understood", "misread", "not understood", "ambiguous"))
        print(f"corpus {group:7} ({n} texts): {parts}")
    print(f"corpus read in {took:.1f} s ({took / len(lines) * 1000:.0f} ms a text)")
    rules = [r.rule for r in library.RULES]
    rng = random.Random(5)
    rules += [parse(candidate(d, rng)) for d in range(1, 6) for _ in range(40)]
    back = sum(1 for r in rules if (x := from_english(r.english())).rule is not None
               and compare(r, x.rule).equivalent)
    print(f"english() round trip: {back} of {len(rules)} library and generated rules "
          f"read back to an equivalent rule")
    return 0 if tally[("all", "misread")] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
