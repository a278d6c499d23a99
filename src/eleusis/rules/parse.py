"""Reading a rule text: tokenizer, recursive-descent parser, type checker, limits.

:func:`parse_tree` turns any string into a checked syntax tree or raises
:class:`RuleSyntaxError`; it never raises anything else and never recurses
deeper than :data:`MAX_DEPTH` levels, so no text can crash or hang it.

Lexical choices (beyond the design's ``rule-language.md``):

* Keywords, suits, colors, rank letters and card codes are case-insensitive
  (``CARD IS RED``, ``qs``); the canonical text is lowercase except rank
  letters and card codes (``card.rank == K``, ``card == QS``).
* ``--`` starts a comment to the end of the line (as in the design's
  examples); write ``- (-3)`` for a double minus.
* ``≠ ≤ ≥`` are accepted for ``!= <= >=``; suit glyphs ``♠ ♥ ♦ ♣`` (and
  ``♤ ♡ ♢ ♧``) for the suit nouns; ``prev1`` for ``prev``.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Final, NoReturn

from eleusis.cards import Card, Suit
from eleusis.i18n import N_, _, ngettext
from eleusis.rules.errors import RuleSyntaxError
from eleusis.rules.printer import literal_text
from eleusis.rules.syntax import (
    ATTRIBUTES,
    COLOR_WORDS,
    FUNCTIONS,
    MAX_CHARS,
    MAX_DEPTH,
    MAX_INT,
    MAX_ITEMS,
    MAX_LOOKBACK,
    MAX_NODES,
    MAX_SET_ITEMS,
    RANK_CODES,
    RANK_LETTERS,
    SUIT_WORDS,
    And,
    Arith,
    Attr,
    BoolLit,
    Call,
    CardLit,
    Case,
    Cmp,
    ColorLit,
    If,
    In,
    Is,
    ListLit,
    Neg,
    Node,
    Not,
    Num,
    Or,
    Pos,
    RangeLit,
    Ref,
    SetLit,
    SuitLit,
    count_nodes,
    deepest,
    height,
)

GLYPHS: Final[dict[str, Suit]] = {
    "♠": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♣": Suit.CLUBS,
    "♤": Suit.SPADES,
    "♡": Suit.HEARTS,
    "♢": Suit.DIAMONDS,
    "♧": Suit.CLUBS,
}
_REFS: Final = {"card": 0, "prev": 1, "prev1": 1, "prev2": 2, "prev3": 3, "prev4": 4}
_STRUCTURE: Final = frozenset(
    ["if", "then", "elif", "else", "case", "when", "and", "or", "not", "in", "is",
     "true", "false", "pos"]
)
KEYWORDS: Final[frozenset[str]] = frozenset(
    _STRUCTURE
    | set(_REFS)
    | set(ATTRIBUTES)
    | set(FUNCTIONS)
    | set(SUIT_WORDS)
    | set(COLOR_WORDS)
    | set(RANK_LETTERS)
)
_CARD_WORD: Final = re.compile(r"(10|[2-9]|[AJQKajqk])([SHDCshdc])")
_RANK_WORD: Final = re.compile(r"10|[2-9]|[AJQKTajqkt]")
_WORD_CHARS: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")
_TWO_CHAR_OPS: Final = frozenset({"==", "!=", "<=", ">=", "..", "//"})
_ONE_CHAR_OPS: Final = frozenset("<>+-*%(){}[],.")
_ALIASES: Final = {"≠": "!=", "≤": "<=", "≥": ">="}
CMP_OPS: Final = frozenset({"==", "!=", "<", "<=", ">", ">="})

_TYPE_NAMES: Final = {
    "int": N_("a number"),
    "bool": N_("true/false"),
    "suit": N_("a suit"),
    "color": N_("a color"),
    "card": N_("a card"),
    "set:int": N_("a set of numbers"),
    "set:bool": N_("a set of true/false values"),
    "set:suit": N_("a set of suits"),
    "set:color": N_("a set of colors"),
    "set:card": N_("a set of cards"),
    "list:int": N_("a list of numbers"),
    "list:bool": N_("a list of true/false values"),
    "list:suit": N_("a list of suits"),
    "list:color": N_("a list of colors"),
    "list:card": N_("a list of cards"),
}


def type_name(t: str) -> str:
    """A type in words for error messages, in the player's language.

    >>> type_name("set:int")
    'a set of numbers'
    """
    return _(_TYPE_NAMES[t]) if t in _TYPE_NAMES else t


@dataclass(frozen=True, slots=True)
class Token:
    """One token: ``kind`` is int, word, card, suit, op or end."""

    kind: str
    text: str
    at: int
    value: object = None

    def show(self) -> str:
        """The token as quoted in messages."""
        return _("the end of the rule") if self.kind == "end" else repr(self.text)


def _fail(text: str, at: int, message: str, limit: bool = False) -> NoReturn:
    raise RuleSyntaxError(message, text, at, limit)


def tokenize(text: str) -> list[Token]:
    """Split a rule text into tokens (raises :class:`RuleSyntaxError`)."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch.isspace():
            i += 1
            continue
        if text.startswith("--", i):
            end = text.find("\n", i)
            i = n if end < 0 else end
            continue
        if ch in _WORD_CHARS:
            j = i
            while j < n and text[j] in _WORD_CHARS:
                j += 1
            word = text[i:j]
            if j < n and text[j] in GLYPHS and _RANK_WORD.fullmatch(word):
                rank_text = "10" if word in ("T", "t") else word
                card = Card.parse(rank_text + GLYPHS[text[j]].value)
                tokens.append(Token("card", text[i : j + 1], i, card))
                i = j + 1
                continue
            tokens.append(_word_token(text, word, i))
            i = j
            continue
        if ch in GLYPHS:
            tokens.append(Token("suit", ch, i, GLYPHS[ch]))
            i += 1
            continue
        pair = text[i : i + 2]
        if pair in _TWO_CHAR_OPS:
            tokens.append(Token("op", pair, i))
            i += 2
            continue
        if ch in _ALIASES:
            tokens.append(Token("op", _ALIASES[ch], i))
            i += 1
            continue
        if ch in _ONE_CHAR_OPS:
            tokens.append(Token("op", ch, i))
            i += 1
            continue
        if ch == "=":
            _fail(text, i, _("a single '=' is not an operator: write '==' to compare"))
        if ch == "!":
            _fail(text, i, _("'!' alone is not an operator: write 'not' or '!='"))
        if ch == "/":
            _fail(text, i, _("'/' alone is not an operator: write '//' for a division rounded "
                             "down (7 // 2 is 3)"))
        shown = repr(ch) if ch.isprintable() else f"U+{ord(ch):04X}"
        _fail(text, i, _("unexpected character {character}").format(character=shown))
    tokens.append(Token("end", "", n))
    return tokens


def _word_token(text: str, word: str, at: int) -> Token:
    low = word.lower()
    if word.isdigit():
        if len(word) > 4 or int(word) > MAX_INT:
            _fail(text, at, _("the number {number} is too large: numbers go up to {largest}")
                  .format(number=word[:12] + ("…" if len(word) > 12 else ""),
                          largest=MAX_INT))
        return Token("int", word, at, int(word))
    if low in KEYWORDS:
        return Token("word", low, at)
    m = _CARD_WORD.fullmatch(word)
    if m:
        return Token("card", word, at, Card.parse(word))
    if re.fullmatch(r"prev\d+", low):
        _fail(text, at, _("'{word}' looks back too far: a rule may read prev, prev2, prev3 "
                          "and prev{last} at most").format(word=word[:30], last=MAX_LOOKBACK))
    if word[0].isdigit() and any(c.isalpha() for c in word):
        _fail(text, at, _("'{word}' is neither a number nor a card (cards are written "
                          "like 10H, QS or 7♥)").format(word=word[:30]))
    close = difflib.get_close_matches(low[:30], sorted(KEYWORDS), n=1, cutoff=0.75)
    shown = word[:30] + ("…" if len(word) > 30 else "")
    if close:
        _fail(text, at, _("unknown word '{word}': did you mean '{keyword}'?").format(
            word=shown, keyword=close[0]))
    _fail(text, at, _("unknown word '{word}'").format(word=shown))


class _Parser:
    """Recursive descent over the token list; ``depth`` bounds the recursion."""

    def __init__(self, text: str, tokens: list[Token]) -> None:
        self.text = text
        self.tokens = tokens
        self.i = 0
        self.depth = 0

    # -- helpers

    @property
    def tok(self) -> Token:
        return self.tokens[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.tokens[min(self.i + k, len(self.tokens) - 1)]

    def is_(self, text: str) -> bool:
        t = self.tok
        return t.kind in ("word", "op") and t.text == text

    def take(self) -> Token:
        t = self.tok
        if t.kind != "end":
            self.i += 1
        return t

    def expect(self, text: str, message: str) -> Token:
        """Take the keyword ``text``, or fail with ``message`` (a message id,
        translated only on failure, with a ``{found}`` field for what is there)."""
        if not self.is_(text):
            self.error(_(message).format(found=self.tok.show()))
        return self.take()

    def error(self, message: str, at: int | None = None, limit: bool = False) -> NoReturn:
        _fail(self.text, self.tok.at if at is None else at, message, limit)

    def enter(self) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.error(_too_deep(), limit=True)

    def leave(self) -> None:
        self.depth -= 1

    # -- grammar

    def rule(self) -> Node:
        if self.tok.kind == "end":
            self.error(_empty_rule())
        node = self.expr()
        if self.tok.kind != "end":
            t = self.tok
            if (t.kind == "op" and t.text in CMP_OPS | {"in"}) or self.is_("is"):
                self.error(_chained())
            if self.is_(")"):
                self.error(_("this ')' closes nothing"))
            self.error(_("unexpected {found} after a complete rule (missing 'and' or 'or'?)")
                       .format(found=t.show()))
        return node

    def expr(self) -> Node:
        self.enter()
        try:
            if self.is_("if"):
                return self.if_expr()
            if self.is_("case"):
                return self.case_expr()
            return self.or_expr()
        finally:
            self.leave()

    def if_expr(self) -> Node:
        at = self.take().at
        arms: list[tuple[Node, Node]] = []
        while True:
            cond = self.expr()
            self.expect("then", N_("expected 'then' after the condition, but found {found}"))
            arms.append((cond, self.expr()))
            if self.is_("elif"):
                self.take()
                continue
            break
        self.expect("else", N_("expected 'else' (an 'if' needs an 'else' branch), but found "
                              "{found}"))
        other = self.expr()
        return If(tuple(arms), other, at=at)

    def case_expr(self) -> Node:
        at = self.take().at
        subject = self.sum_expr()
        arms: list[tuple[Node, Node]] = []
        if not self.is_("when"):
            self.error(_("expected 'when' after the case subject, but found {found}").format(
                found=self.tok.show()))
        seen: dict[object, Node] = {}
        while self.is_("when"):
            self.take()
            lit = self.literal(N_("expected a constant after 'when' (a number, rank, suit, "
                                 "color, true/false or card) but found {found}"))
            key = _literal_key(lit)
            if key in seen:
                first = seen[key]
                self.error(_("'when {value}' repeats the 'when' at column {column}: each value "
                             "may appear once in a 'case', so only the first branch could "
                             "apply (merge the two)").format(
                                 value=literal_text(lit), column=_column(self.text, first.at)),
                           at=lit.at)
            seen[key] = lit
            self.expect("then", N_("expected 'then' after the 'when' value, but found {found}"))
            arms.append((lit, self.expr()))
        self.expect("else", N_("expected 'else' (a 'case' needs an 'else' branch), but found "
                              "{found}"))
        other = self.expr()
        return Case(subject, tuple(arms), other, at=at)

    def or_expr(self) -> Node:
        at = self.tok.at
        items = [self.and_expr()]
        while self.is_("or"):
            self.take()
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items), at=at)

    def and_expr(self) -> Node:
        at = self.tok.at
        items = [self.not_expr()]
        while self.is_("and"):
            self.take()
            items.append(self.not_expr())
        return items[0] if len(items) == 1 else And(tuple(items), at=at)

    def not_expr(self) -> Node:
        if self.is_("not"):
            at = self.take().at
            self.enter()
            try:
                return Not(self.not_expr(), at=at)
            finally:
                self.leave()
        return self.compare()

    def compare(self) -> Node:
        left = self.sum_expr()
        t = self.tok
        if t.kind == "op" and t.text in CMP_OPS:
            self.take()
            node: Node = Cmp(t.text, left, self.sum_expr(), at=t.at)
        elif self.is_("in") or (self.is_("not") and self.peek().kind == "word"
                                and self.peek().text == "in"):
            negated = self.is_("not")
            if negated:
                self.take()
            self.take()
            node = In(left, self.sum_expr(), negated, at=t.at)
        elif self.is_("is"):
            self.take()
            negated = self.is_("not")
            if negated:
                self.take()
            node = Is(left, self.adjective(), negated, at=t.at)
        else:
            return left
        nt = self.tok
        if (nt.kind == "op" and nt.text in CMP_OPS) or self.is_("in") or self.is_("is"):
            self.error(_chained())
        return node

    def adjective(self) -> str:
        t = self.tok
        if t.kind == "word":
            if t.text in ATTRIBUTES and ATTRIBUTES[t.text] == "bool":
                self.take()
                return t.text
            if t.text in SUIT_WORDS:
                self.take()
                return t.text
            if t.text in RANK_LETTERS:
                self.take()
                return t.text.upper()
        if t.kind == "suit":
            self.take()
            assert isinstance(t.value, Suit)
            return t.value.noun
        if t.kind == "int":
            assert isinstance(t.value, int)
            if 1 <= t.value <= 13:
                self.take()
                return RANK_CODES.get(t.value, str(t.value))
            self.error(_("{number} is not a rank: ranks run from 1 (A) to 13 (K)").format(
                number=t.value))
        if t.kind == "card":
            self.error(_("'is' takes a property such as red, face or hearts; to test a "
                         "card write '== {card}'").format(card=t.text))
        self.error(_("after 'is' write a property: red, black, face, numeral, even, odd, "
                     "prime, a suit or a rank, but found {found}").format(found=t.show()))

    def sum_expr(self) -> Node:
        left = self.product()
        while self.tok.kind == "op" and self.tok.text in ("+", "-"):
            t = self.take()
            left = Arith(t.text, left, self.product(), at=t.at)
        return left

    def product(self) -> Node:
        left = self.unary()
        while self.tok.kind == "op" and self.tok.text in ("*", "%", "//"):
            t = self.take()
            right = self.unary()
            if t.text in ("%", "//") and isinstance(right, Num) and right.value == 0:
                self.error(_("'{operator} 0' divides by zero").format(operator=t.text),
                           at=right.at)
            left = Arith(t.text, left, right, at=t.at)
        return left

    def unary(self) -> Node:
        if self.is_("-"):
            t = self.take()
            if self.tok.kind == "int" and self.peek().kind == "op" and self.peek().text == "..":
                lo = self.tok
                assert isinstance(lo.value, int)
                self.take()
                return self.range_rest(Num(-lo.value, at=t.at))
            self.enter()
            try:
                return Neg(self.unary(), at=t.at)
            finally:
                self.leave()
        node = self.atom()
        while self.is_("."):
            self.take()
            t = self.tok
            if t.kind == "word" and t.text in ATTRIBUTES:
                self.take()
                node = Attr(node, t.text, at=node.at)
            else:
                self.error(_("expected an attribute after '.': rank, suit, color, red, "
                             "black, face, numeral, even, odd or prime, but found {found}")
                           .format(found=t.show()))
        if self.is_(".."):
            self.error(_(_RANGE_ENDS), at=node.at)
        return node

    def range_rest(self, lo: Num) -> Node:
        self.take()  # '..'
        t = self.tok
        literal_next = t.kind in ("int", "card", "suit") or (
            self.is_("-") and self.peek().kind == "int") or (
            t.kind == "word" and (t.text in RANK_LETTERS or t.text in SUIT_WORDS
                                  or t.text in COLOR_WORDS or t.text in ("true", "false")))
        if not literal_next:
            self.error(_(_RANGE_ENDS))
        hi = self.literal(_RANGE_ENDS)  # (a constant follows: checked just above)
        if not isinstance(hi, Num):
            self.error(_(_RANGE_KINDS), at=hi.at)
        if hi.value < lo.value:
            self.error(_("the range {low}..{high} is empty: write the smaller end first, "
                         "{high}..{low}").format(low=literal_text(lo), high=literal_text(hi)),
                       at=lo.at)
        return RangeLit(lo, hi, at=lo.at)

    def atom(self) -> Node:
        t = self.tok
        if t.kind in ("int", "card", "suit") or (
            t.kind == "word" and (t.text in RANK_LETTERS or t.text in SUIT_WORDS
                                  or t.text in COLOR_WORDS or t.text in ("true", "false"))
        ):
            lit = self.literal(_RANGE_ENDS)  # (the token is a constant: checked above)
            if self.is_(".."):
                if not isinstance(lit, Num):
                    self.error(_(_RANGE_KINDS), at=lit.at)
                return self.range_rest(lit)
            return lit
        if t.kind == "word":
            if t.text in _REFS:
                self.take()
                return Ref(_REFS[t.text], at=t.at)
            if t.text == "pos":
                self.take()
                return Pos(at=t.at)
            if t.text in FUNCTIONS:
                return self.call()
        if self.is_("("):
            self.take()
            node = self.expr()
            if not self.is_(")"):
                self.error(_("expected ')' to close the '(' at column {column}, but found "
                             "{found}").format(column=_column(self.text, t.at),
                                               found=self.tok.show()))
            self.take()
            return node
        if self.is_("{"):
            return self.set_()
        if self.is_("["):
            return self.list_()
        if t.kind == "end":
            self.error(_("the rule ends too early: a value is missing here"))
        if t.kind == "word" and t.text in ("if", "case"):
            self.error(_parentheses().format(keyword=t.text))
        self.error(_("expected a value (a number, card, prev, pos, ...) but found {found}")
                   .format(found=t.show()))

    def call(self) -> Node:
        name = self.take()
        if not self.is_("("):
            self.error(_("'{function}' is a function: write {function}(...)").format(
                function=name.text))
        self.take()
        args = [self.expr()]
        while self.is_(","):
            self.take()
            if len(args) >= MAX_ITEMS:
                self.error(_("too many arguments (at most {count})").format(count=MAX_ITEMS))
            args.append(self.expr())
        if not self.is_(")"):
            self.error(_("expected ',' or ')' in the call to {function}, but found {found}")
                       .format(function=name.text, found=self.tok.show()))
        self.take()
        lo, hi = FUNCTIONS[name.text]
        if not lo <= len(args) <= hi:
            message = (ngettext("{function} takes {count} argument, not {given}",
                                "{function} takes {count} arguments, not {given}", lo)
                       if lo == hi else
                       _("{function} takes {count} or more arguments, not {given}"))
            self.error(message.format(function=name.text, count=lo, given=len(args)),
                       at=name.at)
        return Call(name.text, tuple(args), at=name.at)

    def set_(self) -> Node:
        """``{a, b, ...}``: literals, or values read from the cards (``prev.suit``)."""
        start = self.take()
        if self.is_("}"):
            self.error(_("an empty set is not allowed"))
        items = [self.set_item()]
        while self.is_(","):
            self.take()
            if len(items) >= MAX_SET_ITEMS:
                self.error(_("a set may hold at most {count} items").format(count=MAX_SET_ITEMS))
            items.append(self.set_item())
        if not self.is_("}"):
            self.error(_("expected ',' or '}}' in the set, but found {found}").format(
                found=self.tok.show()))
        self.take()
        return SetLit(tuple(items), at=start.at)

    def set_item(self) -> Node:
        t = self.tok
        if t.kind == "word" and t.text in ("if", "case"):
            self.error(_parentheses().format(keyword=t.text))
        self.enter()
        try:
            item = self.sum_expr()
        finally:
            self.leave()
        if isinstance(item, RangeLit):
            self.error(_("a set holds single values, not ranges: write 'x in 5..9' or list "
                         "the values"), at=item.at)
        if isinstance(item, Neg) and isinstance(item.operand, Num) and not item.operand.letter:
            return Num(-item.operand.value, at=item.at)  # '-(3)' is the constant -3
        return item

    def list_(self) -> Node:
        """``[a, b, ...]``: constants only."""
        start = self.take()
        if self.is_("]"):
            self.error(_("an empty list is not allowed"))
        item = N_("expected a constant in a list (a number, rank, suit, color, true/false or "
                  "card) but found {found}")
        items = [self.literal(item)]
        while self.is_(","):
            self.take()
            if len(items) >= MAX_ITEMS:
                self.error(_("a list may hold at most {count} items").format(count=MAX_ITEMS))
            items.append(self.literal(item))
        if not self.is_("]"):
            self.error(_("expected ',' or ']' in the list, but found {found}").format(
                found=self.tok.show()))
        self.take()
        return ListLit(tuple(items), at=start.at)

    def literal(self, message: str) -> Node:
        """A constant, or fail with ``message`` (a message id, translated only on
        failure, with a ``{found}`` field)."""
        t = self.tok
        if self.is_("-") and self.peek().kind == "int":
            self.take()
            v = self.take()
            assert isinstance(v.value, int)
            return Num(-v.value, at=t.at)
        if t.kind == "int":
            self.take()
            assert isinstance(t.value, int)
            return Num(t.value, at=t.at)
        if t.kind == "card":
            self.take()
            assert isinstance(t.value, Card)
            return CardLit(t.value, at=t.at)
        if t.kind == "suit":
            self.take()
            assert isinstance(t.value, Suit)
            return SuitLit(t.value, at=t.at)
        if t.kind == "word":
            if t.text in RANK_LETTERS:
                self.take()
                return Num(RANK_LETTERS[t.text], letter=True, at=t.at)
            if t.text in SUIT_WORDS:
                self.take()
                return SuitLit(SUIT_WORDS[t.text], at=t.at)
            if t.text in COLOR_WORDS:
                self.take()
                return ColorLit(COLOR_WORDS[t.text], at=t.at)
            if t.text in ("true", "false"):
                self.take()
                return BoolLit(t.text == "true", at=t.at)
        self.error(_(message).format(found=t.show()))


def _column(text: str, at: int) -> int:
    return at - (text.rfind("\n", 0, at) + 1) + 1


_RANGE_ENDS: Final = N_("a range holds constants at both ends (numbers or ranks, like 5..9); "
                        "to bound a value by a card, compare: prev.rank <= card.rank and "
                        "card.rank <= K")
_RANGE_KINDS: Final = N_("a range runs between two numbers or ranks, like 5..9")


def _empty_rule() -> str:
    return _("the rule is empty: write a condition such as 'card is red'")


def _chained() -> str:
    return _("comparisons cannot be chained: join them with 'and'")


def _parentheses() -> str:
    return _("put this '{keyword}' inside parentheses: ( {keyword} ... )")


def _too_deep() -> str:
    return _("the rule is nested too deeply (at most {count} levels)").format(count=MAX_DEPTH)


def _literal_key(node: Node) -> object:
    """What a literal stands for (``A`` and ``1`` are the same value)."""
    if isinstance(node, Num):
        return ("int", node.value)
    if isinstance(node, BoolLit):
        return ("bool", node.value)
    if isinstance(node, SuitLit):
        return ("suit", node.suit)
    if isinstance(node, ColorLit):
        return ("color", node.color)
    assert isinstance(node, CardLit)
    return ("card", node.card)


# ---------------------------------------------------------------- type checking

_LIT_TYPES: Final = {Num: "int", BoolLit: "bool", SuitLit: "suit", ColorLit: "color",
                     CardLit: "card"}
_INT_ADJECTIVES: Final = frozenset({"even", "odd"})
_COLOR_ADJ: Final = frozenset({"red", "black"})


class _Checker:
    """Computes each node's type; refuses ill-typed rules with a column."""

    def __init__(self, text: str) -> None:
        self.text = text

    def error(self, node: Node, message: str) -> NoReturn:
        _fail(self.text, node.at, message)

    def want(self, node: Node, expected: str, role: str) -> str:
        """The type of ``node``, which must be ``expected``; ``role`` names the
        place in the player's language (a translated phrase, formatted)."""
        got = self.check(node)
        if got != expected:
            self.error(node, _("{role} must be {expected}, but this is {found}").format(
                role=role, expected=type_name(expected), found=type_name(got)))
        return got

    def check(self, node: Node) -> str:
        lit = _LIT_TYPES.get(type(node))
        if lit is not None:
            return lit
        if isinstance(node, Ref):
            return "card"
        if isinstance(node, Pos):
            return "int"
        if isinstance(node, Attr):
            self.want(node.obj, "card",
                      _("the thing before '.{attribute}'").format(attribute=node.name))
            return ATTRIBUTES[node.name]
        if isinstance(node, Is):
            return self.check_is(node)
        if isinstance(node, Neg):
            self.want(node.operand, "int", _("the value after '-'"))
            return "int"
        if isinstance(node, Arith):
            self.want(node.left, "int",
                      _("the left side of '{operator}'").format(operator=node.op))
            self.want(node.right, "int",
                      _("the right side of '{operator}'").format(operator=node.op))
            return "int"
        if isinstance(node, Cmp):
            left = self.check(node.left)
            right = self.check(node.right)
            if node.op in ("==", "!="):
                if left != right or ":" in left:
                    self.error(node, _("cannot compare {left} with {right} using '{operator}'")
                               .format(left=type_name(left), right=type_name(right),
                                       operator=node.op))
            elif left != "int" or right != "int":
                bad = node.left if left != "int" else node.right
                self.error(bad, _("'{operator}' compares numbers, but this is {found}").format(
                    operator=node.op, found=type_name(left if left != "int" else right)))
            return "bool"
        if isinstance(node, In):
            elem = self.check(node.elem)
            coll = self.check(node.coll)
            if ":" not in coll:
                self.error(node.coll, _("after 'in' write a set {{…}}, a range a..b or a list "
                                        "[…], but this is {found}").format(
                                            found=type_name(coll)))
            if coll.split(":", 1)[1] != elem:
                self.error(node, _("cannot look for {element} in {collection}").format(
                    element=type_name(elem), collection=type_name(coll)))
            return "bool"
        if isinstance(node, Not):
            self.want(node.operand, "bool", _("the value after 'not'"))
            return "bool"
        if isinstance(node, And | Or):
            role = _("each side of '{word}'").format(
                word="and" if isinstance(node, And) else "or")
            for item in node.items:
                self.want(item, "bool", role)
            return "bool"
        if isinstance(node, If):
            result: str | None = None
            every = _("every branch of the 'if'")
            for cond, then in node.arms:
                self.want(cond, "bool", _("the condition of 'if'"))
                result = self.same(then, result, every)
            return self.same(node.other, result, every)
        if isinstance(node, Case):
            subject = self.check(node.subject)
            if ":" in subject:
                self.error(node.subject, _("'case' needs a single value, not {found}").format(
                    found=type_name(subject)))
            result = None
            every = _("every branch of the 'case'")
            for value, then in node.arms:
                self.want(value, subject, _("the 'when' value"))
                result = self.same(then, result, every)
            return self.same(node.other, result, every)
        if isinstance(node, Call):
            return self.check_call(node)
        if isinstance(node, SetLit | ListLit):
            kind = "set" if isinstance(node, SetLit) else "list"
            first = self.check(node.items[0])
            if ":" in first:
                self.error(node.items[0], (_("a set cannot hold {found}") if kind == "set"
                                           else _("a list cannot hold {found}")).format(
                                               found=type_name(first)))
            role = _("every item of this set") if kind == "set" else _("every item of this list")
            for item in node.items[1:]:
                self.want(item, first, role)
            return f"{kind}:{first}"
        if isinstance(node, RangeLit):
            return "set:int"
        raise AssertionError(f"unknown node {node!r}")  # pragma: no cover

    def same(self, node: Node, expected: str | None, role: str) -> str:
        got = self.check(node)
        if ":" in got:
            self.error(node, _("a branch cannot be {found}").format(found=type_name(got)))
        if expected is not None and got != expected:
            self.error(node, _("{role} must give the same kind of value: this is {found}, an "
                               "earlier one {expected}").format(
                                   role=role, found=type_name(got),
                                   expected=type_name(expected)))
        return got

    def check_is(self, node: Is) -> str:
        obj = self.check(node.obj)
        adj = node.adj
        ok = (
            obj == "card"
            or (obj == "int" and (adj in _INT_ADJECTIVES or adj == "prime"))
            or (obj == "suit" and (adj in _COLOR_ADJ or adj in SUIT_WORDS))
            or (obj == "color" and adj in _COLOR_ADJ)
        )
        if not ok:
            self.error(node, _("{found} cannot be '{adjective}'").format(
                found=type_name(obj), adjective=adj))
        return "bool"

    def check_call(self, node: Call) -> str:
        name, args = node.name, node.args
        if name in ("abs", "min", "max", "wrap", "gcd"):
            role = _("an argument of {function}").format(function=name)
            for a in args:
                self.want(a, "int", role)
            return "int"
        lst = args[1]
        if not isinstance(lst, ListLit):
            self.error(lst, _("the second argument of {function} must be a list written "
                              "[a, b, ...]").format(function=name))
        elem = self.check(lst).split(":", 1)[1]
        if name == "next":
            self.want(args[0], elem, _("the first argument of next (to find in {list})").format(
                list=type_name("list:" + elem)))
        else:
            self.want(args[0], "int", _("the position given to pick"))
        return elem


def parse_tree(text: str) -> Node:
    """Read and check a rule text; the tree of a true/false rule within the limits."""
    if not isinstance(text, str):
        raise RuleSyntaxError(_("a rule must be text, not {kind}").format(
            kind=type(text).__name__))
    if len(text) > MAX_CHARS:
        _fail(text, MAX_CHARS, _("the rule is too long: {count} characters, at most {largest}")
              .format(count=len(text), largest=MAX_CHARS), limit=True)
    if not text.strip():
        raise RuleSyntaxError(_empty_rule(), text, 0)
    tree = _Parser(text, tokenize(text)).rule()
    nodes = count_nodes(tree)
    if nodes > MAX_NODES:
        _fail(text, 0, _("the rule is too big: {count} parts, at most {largest}").format(
            count=nodes, largest=MAX_NODES), limit=True)
    if height(tree) > MAX_DEPTH:
        _fail(text, deepest(tree).at, _too_deep(), limit=True)
    kind = _Checker(text).check(tree)
    if kind != "bool":
        _fail(text, len(text) - len(text.lstrip()),
              _("a rule must be true or false as a whole, but this is {found}").format(
                  found=type_name(kind)))
    return tree


def check_tree(tree: Node) -> str:
    """The type of a tree built in code (raises :class:`RuleSyntaxError` if ill-typed)."""
    return _Checker("").check(tree)


__all__ = ["KEYWORDS", "Token", "check_tree", "parse_tree", "tokenize", "type_name"]

