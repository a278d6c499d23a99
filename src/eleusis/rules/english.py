"""Saying a rule in plain English (first version: the canonical text)."""

from __future__ import annotations

from eleusis.rules.printer import to_text
from eleusis.rules.syntax import Node


def say(tree: Node) -> str:
    """The rule as a sentence."""
    return f"The card is accepted when {to_text(tree)}."
