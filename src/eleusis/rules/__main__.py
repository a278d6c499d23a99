"""Command line for the rule language.

``python -m eleusis.rules check "RULE"``
    prints the canonical text, the English sentence and the dealer's analysis.
``python -m eleusis.rules compare "SECRET" "GUESS" [--after "7S KH"]``
    prints whether the guess is right, or a counterexample.
``python -m eleusis.rules english "TEXT"``
    reads a rule said in plain English and prints it in the rule language with
    its English sentence; exit 2 when the text is not understood or ambiguous
    (the readings or the forms to try are printed on stderr).

Exit status: 0 on success (``compare`` also exits 0 when the rules differ: the
difference is an answer, not an error), 2 on bad input (a rule that does not
parse, an unknown command, a bad card list), with the error on stderr.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import NoReturn

from eleusis.cards import CardError, parse_cards
from eleusis.rules import Rule, RuleSyntaxError, analyse, compare, from_english, parse


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        print(f"error: {message}", file=sys.stderr)
        raise SystemExit(2)


def _build() -> argparse.ArgumentParser:
    parser = _Parser(prog="python -m eleusis.rules",
                     description="Check, explain and compare Eleusis secret rules.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    check = sub.add_parser("check", help="canonical text, English and analysis of a rule")
    check.add_argument("rule", help='a rule, e.g. "card.color != prev.color"')
    check.add_argument("--seed", type=int, default=0, help="seed of the random mainlines")
    comp = sub.add_parser("compare", help="is GUESS the same rule as SECRET?")
    comp.add_argument("secret")
    comp.add_argument("guess")
    comp.add_argument("--after", default="", help='the mainline so far, e.g. "7S KH 3D"')
    eng = sub.add_parser("english", help="read a rule said in plain English")
    eng.add_argument("text", help='e.g. "alternate colors"')
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    args = _build().parse_args(argv)
    if args.command == "english":
        return _english(args.text)
    if args.command == "check":
        rule = parse_or_exit(args.rule, "rule")
        print(f"canonical: {rule.text}")
        print(f"english:   {rule.english()}")
        print(analyse(rule, random.Random(args.seed)).report())
        return 0
    secret = parse_or_exit(args.secret, "secret rule")
    guess = parse_or_exit(args.guess, "guess")
    try:
        mainline = parse_cards(args.after)
    except CardError as err:
        print(f"bad --after mainline: {err}", file=sys.stderr)
        return 2
    result = compare(secret, guess, mainline)
    if result.equivalent:
        print("equivalent: " + result.sentence)
    else:
        print("different: " + result.sentence)
    if not result.exact:
        print(f"note: {result.note}")
    return 0


def _english(text: str) -> int:
    reading = from_english(text)
    if reading.rule is not None:
        print(f"rule:    {reading.rule.text}")
        print(f"english: {reading.rule.english()}")
        return 0
    print(f"not understood: {reading.message}", file=sys.stderr)
    for rule in reading.candidates:
        print(f"  it could mean: {rule.text}  ({rule.english()})", file=sys.stderr)
    for form in reading.suggestions:
        print(f"  try: {form}", file=sys.stderr)
    return 2


def parse_or_exit(text: str, role: str) -> Rule:
    """Parse or print the error and exit with status 2."""
    try:
        return parse(text)
    except RuleSyntaxError as err:
        print(f"error in the {role}: {err}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    raise SystemExit(main())
