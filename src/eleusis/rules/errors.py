"""Errors of the rule language, written for a player to read (in the player's language)."""

from __future__ import annotations

from eleusis.i18n import _

_WINDOW = 36  # characters shown on each side of the caret in a long line


class RuleSyntaxError(ValueError):
    """A rule text that cannot be accepted: bad syntax, bad types or a limit.

    ``message`` says what is wrong in plain words, in the language in force
    when the error was raised (:mod:`eleusis.i18n`), ``line`` and ``column``
    (both 1-based) say where, and ``str(err)`` adds an excerpt of the line with
    a caret under the offending column::

        expected 'then' after the condition, but found 'else' (column 17)
          if prev is red else card is black
                          ^

    ``limit`` is true when the text breaks a limit of the language (too long,
    too big, nested too deeply) rather than its grammar or its types.
    """

    def __init__(self, message: str, text: str = "", offset: int = 0,
                 limit: bool = False) -> None:
        self.message = message
        self.limit = limit
        self.text = text
        self.offset = max(0, min(offset, len(text)))
        before = text[: self.offset]
        self.line = before.count("\n") + 1
        self.column = self.offset - (before.rfind("\n") + 1) + 1
        super().__init__(self._render())

    def _render(self) -> str:
        if not self.text.strip():
            return self.message
        head = (_("{message} (column {column})") if self.line == 1
                 else _("{message} (line {line}, column {column})")).format(
                     message=self.message, line=self.line, column=self.column)
        lines = self.text.split("\n")
        line = lines[self.line - 1] if self.line - 1 < len(lines) else ""
        col = self.column - 1
        start = max(0, col - _WINDOW)
        end = min(len(line), col + _WINDOW)
        excerpt = "".join(ch if ch.isprintable() else " " for ch in line[start:end])
        caret_at = col - start
        prefix = "…" if start > 0 else ""
        suffix = "…" if end < len(line) else ""
        return (
            f"{head}\n"
            f"  {prefix}{excerpt}{suffix}\n"
            f"  {' ' * (len(prefix) + caret_at)}^"
        )


class RuleEvalError(ArithmeticError):
    """Raised inside evaluation when a value is undefined (``x % 0``, ``next``
    of a value missing from its list). :meth:`Rule.accepts` catches it and
    rejects the card; it never escapes the public API."""
