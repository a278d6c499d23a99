"""What every variant shares: the mutable work copy, drawing, placing, turns, hints, guesses.

A variant is a :class:`VariantRules` subclass: data (``OPTIONS``, ``ACTIONS``)
plus five methods the core calls -- ``check_config``, ``setup``, ``expected``
(who may take which kind of action now), ``validate`` (parameters) and
``step`` (the consequences). ``step`` works on a :class:`Work` copy of the
state (plain lists) and freezes it at the end, so the state passed in is never
changed.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import replace
from typing import Any, ClassVar, Final

from eleusis import narrate, rng
from eleusis.cards import ALL_CARDS, Card, deck
from eleusis.hints import phrase_hint
from eleusis.i18n import _
from eleusis.rules import compare, compare_steps, parse
from eleusis.rules.compare import SLICE_WORK
from eleusis.state import (
    ACTION_TYPES,
    Action,
    Bet,
    Column,
    Config,
    ConfigError,
    DeclareProphet,
    Era,
    Event,
    Guess,
    Hint,
    HintNote,
    IllegalAction,
    Judge,
    Legal,
    NoPlay,
    OptionSpec,
    Pass,
    Pending,
    Phase,
    Placed,
    Play,
    ProphetCall,
    RequestHint,
    Result,
    Role,
    RuleLike,
    SeatState,
    State,
)

#: Optional steps: they never hold the round (see :meth:`VariantRules.optional_seats`).
OPTIONAL_ACTIONS: Final[frozenset[type[Action]]] = frozenset({DeclareProphet, Guess})
#: Hints: given or asked for beside the round's flow.
HINT_ACTIONS: Final[frozenset[type[Action]]] = frozenset({Hint, RequestHint})
#: Replay code of each action class: the fixed order in which reasons are listed.
_ACTION_ORDER: Final = {cls: code for code, cls in ACTION_TYPES.items()}

DEALER_SEAT: Final = -1  # Placed.seat / Event.seat for the dealer (or the computer dealer)
MAX_TEXT: Final = 600  # longest guess or hint text accepted


# --------------------------------------------------------------------------- rules from text


_RULE_CACHE: dict[str, Any] = {}


def parse_rule(text: str) -> Any:
    """Parse a rule text with :func:`eleusis.rules.parse` (cached; raises its syntax error)."""
    rule = _RULE_CACHE.get(text)
    if rule is None:
        rule = parse(text)
        if len(_RULE_CACHE) > 512:
            _RULE_CACHE.clear()
        _RULE_CACHE[text] = rule
    return rule


def rule_error(text: str) -> str | None:
    """``None`` if ``text`` parses as a rule, else the parser's message."""
    try:
        parse_rule(text)
    except Exception as exc:  # the rule language's own error type; any failure is a refusal
        return str(exc) or type(exc).__name__
    return None


def guess_verdict(secret: str, guess: str, mainline: Sequence[Card]) -> tuple[bool, str]:
    """Whether ``guess`` is the secret rule from this mainline on, and a sentence saying why not.

    Judged with :func:`eleusis.rules.compare`: the guess is right when it gives
    the same verdict as the secret rule on every card after every mainline the
    secret rule can still produce (rule-language.md, "When is a guess right?").
    A wrong guess comes with a counterexample a player can read.

    >>> guess_verdict("card is red", "card.color == red", ())
    (True, '')

    Remembered per (secret, guess, mainline): a saved game or a replay applies
    its recorded guesses again on every load, and an exact comparison of rules
    that read far back can take seconds.
    """
    line = tuple(mainline)
    slice_work = _DEFERRING.get()
    if slice_work is not None:
        # one slice of the comparison: enough when it is quick or remembered
        first = next(compare_steps(parse_rule(secret), parse_rule(guess), line,
                                   slice_work=slice_work))
        if first is None:
            raise ComparisonNeeded(secret, guess, line)
    return _guess_verdict(secret, guess, line)


class ComparisonNeeded(Exception):
    """Raised by :func:`guess_verdict` inside :func:`deferred_comparisons` when judging a
    guess needs more than one slice of exact comparison: the caller works the
    comparison out in slices (:func:`eleusis.rules.compare_steps`, which remembers
    it) and applies the action again. Never raised outside that context."""

    def __init__(self, secret: str, guess: str, mainline: tuple[Card, ...]) -> None:
        super().__init__("an exact comparison of rules is needed first")
        self.secret = secret
        self.guess = guess
        self.mainline = mainline

    def steps(self, slice_work: int = SLICE_WORK) -> Iterator[None]:
        """The comparison in slices of ``slice_work`` units (None after each);
        remembered once done."""
        for result in compare_steps(parse_rule(self.secret), parse_rule(self.guess),
                                    self.mainline, slice_work=slice_work):
            if result is None:
                yield None


#: The slice of work of :func:`deferred_comparisons` in force (None: not deferring).
_DEFERRING: ContextVar[int | None] = ContextVar("eleusis_deferring_comparisons",
                                                default=None)


@contextmanager
def deferred_comparisons(slice_work: int = SLICE_WORK) -> Iterator[None]:
    """Within this block a guess whose judging takes more than ``slice_work`` units of
    exact comparison raises :class:`ComparisonNeeded` instead of blocking (see
    :func:`eleusis.game.apply_steps`)."""
    token = _DEFERRING.set(slice_work)
    try:
        yield
    finally:
        _DEFERRING.reset(token)


@functools.lru_cache(maxsize=256)
def _guess_verdict(secret: str, guess: str, mainline: tuple[Card, ...]) -> tuple[bool, str]:
    result = compare(parse_rule(secret), parse_rule(guess), mainline)
    if result.equivalent:
        return True, ""
    return False, str(result.sentence)


# --------------------------------------------------------------------------- the work copy


class Work:
    """A mutable copy of a :class:`State` for one step; :meth:`freeze` gives the next state."""

    def __init__(self, state: State, action: Action | None) -> None:
        self.base = state
        self.config = state.config
        self.seats = list(state.seats)
        self.stock = list(state.stock)
        self.rng = state.rng
        self.decks = state.decks
        self.layout = list(state.layout)
        self.discard = list(state.discard)
        self.turn = state.turn
        self.phase = state.phase
        self.played = state.played
        self.pending = state.pending
        self.prophet = state.prophet
        self.eras = list(state.eras)
        self.window = state.window
        self.hints = list(state.hints)
        self.turns = state.turns
        self.result = state.result
        self.events = list(state.events)
        self.actions = list(state.actions)
        if action is not None:
            self.actions.append(action)
        self.extra = dict(state.extra)
        #: set when a draw found the stock empty and the variant ends the round then
        self.stock_out = False

    def freeze(self) -> State:
        """The next state."""
        return State(
            config=self.config,
            seats=tuple(self.seats),
            stock=tuple(self.stock),
            rng=self.rng,
            decks=self.decks,
            layout=tuple(self.layout),
            discard=tuple(self.discard),
            turn=self.turn,
            phase=self.phase,
            played=self.played,
            pending=self.pending,
            prophet=self.prophet,
            eras=tuple(self.eras),
            window=self.window,
            hints=tuple(self.hints),
            turns=self.turns,
            result=self.result,
            events=tuple(self.events),
            actions=tuple(self.actions),
            extra=tuple(sorted(self.extra.items())),
        )

    # -- small helpers ------------------------------------------------------------

    @property
    def mainline(self) -> list[Card]:
        """The mainline cards, starter first."""
        return [col.card.card for col in self.layout]

    def event(self, kind: str, seat: int, cards: Iterable[Card] = (), **kw: Any) -> None:
        """Record a public event."""
        self.events.append(Event(kind, seat, tuple(cards), **kw))

    def hand(self, seat: int) -> list[Card]:
        """A copy of a seat's hand."""
        return list(self.seats[seat].hand)

    def set_seat(self, seat: int, **changes: Any) -> None:
        """Replace fields of a seat."""
        self.seats[seat] = replace(self.seats[seat], **changes)

    def remove_from_hand(self, seat: int, cards: Sequence[Card]) -> None:
        """Take ``cards`` (a multiset already checked) out of a hand."""
        hand = self.hand(seat)
        for c in cards:
            hand.remove(c)
        self.set_seat(seat, hand=tuple(hand))

    def add_to_hand(self, seat: int, cards: Sequence[Card]) -> None:
        """Put cards in a hand."""
        self.set_seat(seat, hand=self.seats[seat].hand + tuple(cards))

    def add_deck(self) -> None:
        """Shuffle a fresh deck under the (empty or short) stock."""
        fresh, self.rng = rng.shuffle(deck(1), self.rng)
        self.stock[:0] = fresh
        self.decks += 1
        self.event("new_deck", DEALER_SEAT, count=self.decks)

    def take(self, n: int, refill: bool = True) -> list[Card]:
        """Take ``n`` cards from the top of the stock.

        When the stock runs out, a new shuffled deck is added if ``refill``;
        otherwise :attr:`stock_out` is set and fewer cards are returned.
        """
        out: list[Card] = []
        for _card in range(n):
            if not self.stock:
                if not refill:
                    self.stock_out = True
                    break
                self.add_deck()
            out.append(self.stock.pop())
        return out

    def draw(self, seat: int, n: int, refill: bool = True, kind: str = "penalty") -> int:
        """``seat`` draws ``n`` cards (a penalty, a replacement, a new hand). Returns how many."""
        if n <= 0:
            return 0
        cards = self.take(n, refill)
        self.add_to_hand(seat, cards)
        if kind:
            self.event(kind, seat, count=len(cards))
        return len(cards)

    def place_main(self, card: Card, seat: int, flag: str = "") -> None:
        """Put a card at the end of the mainline (it counts as a played card)."""
        self.played += 1
        self.layout.append(Column(Placed(card, seat, self.played, flag=flag)))

    def place_side(
        self,
        cards: Sequence[Card],
        seat: int,
        counted: bool = True,
        face_down: bool = False,
        horizontal: bool = False,
        flag: str = "",
    ) -> None:
        """Put cards in the sideline under the last mainline card (in play order)."""
        col = self.layout[-1]
        placed = []
        for c in cards:
            n = 0
            if counted:
                self.played += 1
                n = self.played
            placed.append(Placed(c, seat, n, face_down=face_down, horizontal=horizontal, flag=flag))
        self.layout[-1] = replace(col, sideline=col.sideline + tuple(placed))

    def next_seat(self, after: int) -> int | None:
        """The next seat clockwise after ``after`` that still plays (None: nobody)."""
        n = len(self.seats)
        for k in range(1, n + 1):
            s = (after + k) % n
            if self.seats[s].role is Role.SCIENTIST:
                return s
        return None

    def active(self) -> list[int]:
        """Seats still playing (scientists not expelled, not out, not prophet)."""
        return [i for i, s in enumerate(self.seats) if s.role is Role.SCIENTIST]

    def end(self, reason: str, result: Result) -> None:
        """End the round."""
        self.phase = Phase.OVER
        self.pending = None
        self.window = None
        self.result = result
        self.event("end", DEALER_SEAT, text=reason)


# --------------------------------------------------------------------------- variant base


class VariantRules:
    """Base class of a variant's rules of play. Subclasses override the hooks."""

    NAME: ClassVar[str] = ""
    #: option name -> (default, allowed values; empty = any)
    OPTIONS: ClassVar[OptionSpec] = {}
    #: the action classes this variant knows
    ACTIONS: ClassVar[frozenset[type[Action]]] = frozenset()
    MIN_SCIENTISTS: ClassVar[int] = 1
    MAX_SCIENTISTS: ClassVar[int] = 8
    #: scientists (the dealer not counted) the seed texts were written for
    #: (``None``: no upper bound given); see ``docs/rules.md``, "How many players"
    WRITTEN_FOR: ClassVar[tuple[int, int | None]] = (2, 7)
    HAND: ClassVar[int] = 12
    DECKS: ClassVar[int] = 2
    #: largest play (cards) or move (bets) in one turn
    MAX_PLAY: ClassVar[int] = 1
    #: reason code when a scientist may not declare prophet only because the
    #: window is closed (see :meth:`why_not`)
    DECLARE_WINDOW: ClassVar[str] = "declare_after_own_play"
    _ordered: ClassVar[tuple[type[Action], ...] | None] = None

    # -- configuration and setup ------------------------------------------------

    def check_config(self, cfg: Config) -> None:
        """Raise :class:`ConfigError` if ``cfg`` cannot start a round of this variant."""
        n = len(cfg.names)
        if cfg.dealer is not None and not 0 <= cfg.dealer < n:
            raise ConfigError(f"dealer seat {cfg.dealer} is not one of the {n} seats")
        scientists = n - (cfg.dealer is not None)
        if not self.MIN_SCIENTISTS <= scientists <= self.MAX_SCIENTISTS:
            raise ConfigError(_("this game needs {low} to {high} scientists, not {count}")
                              .format(low=self.MIN_SCIENTISTS, high=self.MAX_SCIENTISTS,
                                      count=scientists))
        if any(not isinstance(x, str) or not x.strip() or len(x) > 40 for x in cfg.names):
            raise ConfigError(_("every seat needs a name of 1 to 40 characters"))
        if cfg.rule is None:
            if cfg.dealer is None:
                raise ConfigError(_("a computer dealer needs a secret rule"))
        else:
            err = rule_error(cfg.rule)
            if err:
                raise ConfigError(_("the secret rule does not parse: {problem}").format(
                    problem=err))
            rule = parse_rule(cfg.rule)
            if not any(rule.accepts((), c) for c in ALL_CARDS):
                raise ConfigError(_("the secret rule accepts no card to start the line"))

    def first_state(self, cfg: Config) -> Work:
        """Shuffle the decks and set the seats; the caller deals."""
        cards, state = rng.shuffle(deck(self.DECKS), rng.seed_state(cfg.seed))
        seats = tuple(
            SeatState(name, Role.DEALER if i == cfg.dealer else Role.SCIENTIST)
            for i, name in enumerate(cfg.names)
        )
        s = State(
            config=cfg,
            seats=seats,
            stock=tuple(cards),
            rng=state,
            decks=self.DECKS,
            layout=(),
            discard=(),
            turn=0,
            phase=Phase.PLAY,
            played=0,
        )
        return Work(s, None)

    def deal(self, w: Work, size: int) -> None:
        """Deal ``size`` cards to every scientist, one at a time around the table."""
        for _round in range(size):
            for seat in w.active():
                w.add_to_hand(seat, w.take(1))
        for seat in w.active():
            w.event("deal", seat, count=len(w.seats[seat].hand))

    def turn_starter(self, w: Work) -> None:
        """Turn up the starter; with a known rule, draw until the rule accepts it at position 1.

        Refused starters go to the bottom of the stock. If no card left in the
        stock would do (they are all in hands), another deck is shuffled in,
        as when the stock runs out.
        """
        rule = self.rule(w.config)
        for _deck in range(3):
            for _card in range(len(w.stock)):
                (card,) = w.take(1)
                if rule is None or rule.accepts((), card):
                    w.place_main(card, DEALER_SEAT)
                    w.event("starter", DEALER_SEAT, (card,))
                    return
                w.stock.insert(0, card)
                w.event("starter", DEALER_SEAT, (card,), right=False)
            w.add_deck()
        raise ConfigError(_("the secret rule accepts no card at position 1"))

    def setup(self, cfg: Config) -> State:
        """The first state of a round."""
        raise NotImplementedError

    # -- the rule ---------------------------------------------------------------

    @staticmethod
    def rule(cfg: Config) -> RuleLike | None:
        """The secret rule, parsed (None when a human dealer judges by hand)."""
        return None if cfg.rule is None else parse_rule(cfg.rule)

    @staticmethod
    def judged_by_hand(state: State | Work) -> bool:
        """Whether a person judges (no written rule for the engine)."""
        return state.config.rule is None

    @staticmethod
    def accepts_all(rule: RuleLike, mainline: Sequence[Card], cards: Sequence[Card]) -> bool:
        """A sequence is right only if each card, played in turn, would be right."""
        line = list(mainline)
        for c in cards:
            if not rule.accepts(line, c):
                return False
            line.append(c)
        return True

    @staticmethod
    def playable(rule: RuleLike, mainline: Sequence[Card], hand: Sequence[Card]) -> list[Card]:
        """The cards of ``hand`` the rule accepts next (hand order, duplicates kept)."""
        return [c for c in hand if rule.accepts(mainline, c)]

    # -- who may do what ----------------------------------------------------------

    def may_declare(self, state: State, seat: int) -> bool:
        """May ``seat`` declare itself prophet now? Seed 002's three conditions
        (quoted by 004): there is no prophet, the seat has not been prophet this
        round, and two or more other scientists remain besides it and the dealer.
        Shared by the variants that have a prophet (New Eleusis, Royal)."""
        s = state.seats[seat]
        others = [i for i, x in enumerate(state.seats) if x.role is Role.SCIENTIST and i != seat]
        return (
            state.prophet is None
            and s.role is Role.SCIENTIST
            and not s.been_prophet
            and len(others) >= 2
        )

    def expected(self, state: State) -> dict[type[Action], tuple[int, ...]]:
        """For each action kind allowed now, the seats that may take it."""
        raise NotImplementedError

    def flow(self, state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """The seats the round waits for, and the seats with an optional step open (in
        priority order, the waited-for seats left out); see :func:`eleusis.game.waiting_for`
        and :func:`eleusis.game.optional_seats`."""
        expected = self.expected(state)
        waiting: dict[int, None] = {}
        for cls, who in expected.items():
            if cls not in OPTIONAL_ACTIONS and cls not in HINT_ACTIONS:
                waiting.update(dict.fromkeys(who))
        optional: dict[int, None] = {}
        for cls, who in expected.items():
            if cls in OPTIONAL_ACTIONS:
                optional.update(dict.fromkeys(s for s in who if s not in waiting))
        return tuple(waiting), tuple(optional)

    def in_sudden_death(self, state: State) -> bool:
        """Whether a play made now would be in sudden death (variants with one override)."""
        return False

    def max_cards(self, state: State, seat: int) -> int:
        """Largest play allowed now."""
        return min(1, len(state.hand(seat)))

    def hint_seats(self, state: State) -> tuple[int, ...]:
        """Scientists who may ask the computer dealer for a hint now (override to restrict).

        A player who is out of the round (expelled, no lives left) asks nothing.
        """
        if state.config.dealer is not None or state.config.rule is None:
            return ()
        return tuple(
            i for i, s in enumerate(state.seats) if s.role in (Role.SCIENTIST, Role.PROPHET)
        )

    def common_expected(self, state: State, out: dict[type[Action], tuple[int, ...]]) -> None:
        """Add the hint actions allowed now (used by ``expected``)."""
        if Hint in self.ACTIONS and state.config.dealer is not None and self.hints_open(state):
            out[Hint] = (state.config.dealer,)
        if RequestHint in self.ACTIONS and self.hints_open(state):
            seats = self.hint_seats(state)
            if seats:
                out[RequestHint] = seats

    def hints_open(self, state: State) -> bool:
        """Whether hints may be given now (override per variant)."""
        return True

    def legal(self, state: State, seat: int) -> Legal:
        """The :class:`Legal` summary for one seat, derived from :meth:`expected`."""
        kinds: list[str] = []
        actions: list[Action] = []
        max_cards = 0
        call_cards: tuple[Card, ...] = ()
        for cls, who in self.expected(state).items():
            if seat not in who:
                continue
            kinds.append(cls.kind)
            if cls is Play:
                max_cards = self.max_cards(state, seat)
            elif cls in (NoPlay, RequestHint, Pass) or cls.kind == "declare_prophet":
                actions.append(cls(seat))
            elif cls in (ProphetCall, Judge):
                p = state.pending
                names_card = p is not None and self.names_card(state)
                if names_card:
                    assert p is not None
                    call_cards = tuple(dict.fromkeys(state.hand(p.seat)))
                actions.append(cls(seat, True))
                if not names_card or (cls is Judge and p is not None and p.call_card is not None):
                    actions.append(cls(seat, False))
        allowed = set(kinds)
        reasons = tuple(
            (cls.kind, narrate.reason(code, **params))
            for cls in self.ordered_actions()
            if cls.kind not in allowed
            for code, params in (self.why_not(state, seat, cls),)
        )
        return Legal(seat, tuple(kinds), tuple(actions), max_cards, call_cards, (), reasons)

    # -- why not ------------------------------------------------------------------------

    @classmethod
    def ordered_actions(cls) -> tuple[type[Action], ...]:
        """The variant's action classes in replay-code order (the order of ``Legal.reasons``)."""
        cached: tuple[type[Action], ...] | None = cls.__dict__.get("_ordered")
        if cached is None:
            cached = tuple(sorted(cls.ACTIONS, key=lambda c: _ACTION_ORDER.get(c, 99)))
            cls._ordered = cached
        return cached

    def why_not(
        self, state: State, seat: int, cls: type[Action]
    ) -> tuple[str, dict[str, str | int]]:
        """Why ``seat`` may not take an action of class ``cls`` now: a reason code of
        :data:`eleusis.narrate.REASONS` and its parameters (names, numbers)."""
        names = state.config.names
        s = state.seats[seat]
        dealer = state.config.dealer
        if state.over:
            return "over", {}
        if cls is Hint:
            if seat != dealer:
                return "hint_dealer_only", {}
            return self.hint_closed(state, seat), {}
        if cls is RequestHint:
            if dealer is not None or state.config.rule is None:
                if seat == dealer:
                    return "hint_you_give", {}
                return "hint_ask_the_dealer", {"dealer": names[dealer] if dealer is not None
                                               else ""}
            if s.role in (Role.EXPELLED, Role.OUT):
                return "out_of_round", {}
            return self.hint_closed(state, seat), {}
        if s.role is Role.DEALER:
            if cls is Judge:
                if state.config.rule is not None:
                    return "judged_by_rule", {}
                return "nothing_to_judge", {}
            return "dealer_does_not_play", {}
        if s.role in (Role.EXPELLED, Role.OUT):
            return "out_of_round", {}
        if cls is Judge:
            return "dealer_judges", {}
        if cls is ProphetCall:
            if s.role is not Role.PROPHET:
                return "prophet_calls", {}
            return "nothing_to_call", {}
        if s.role is Role.PROPHET:
            return "prophet_does_not_play", {}
        if cls is DeclareProphet:
            others = [
                i for i, x in enumerate(state.seats) if x.role is Role.SCIENTIST and i != seat
            ]
            if state.prophet is not None:
                return "prophet_in_office", {"name": names[state.prophet]}
            if s.been_prophet:
                return "been_prophet", {}
            if len(others) < 2:
                return "too_few_for_prophet", {}
            return self.DECLARE_WINDOW, {}
        if state.phase is Phase.PROPHET_CALL and state.prophet is not None:
            return "waiting_for_prophet", {"name": names[state.prophet]}
        if state.phase is Phase.JUDGE and dealer is not None:
            return "waiting_for_dealer", {"name": names[dealer]}
        if cls is Guess:
            return "guess_after_right_play", {}
        if cls is Pass:
            return "pass_after_last_turn", {}
        if cls in (Play, NoPlay, Bet):
            if state.phase is Phase.FINAL_GUESS:
                return "turns_used_up", {}
            if state.turn != seat:
                return "not_your_turn", {"name": names[state.turn]}
            if not state.hand(seat):
                return "no_cards", {}
        return "not_now", {}

    def hint_closed(self, state: State, seat: int) -> str:
        """The reason code when the hint window is closed (variants override)."""
        return "hints_closed"

    def compensation(
        self, round_scores: Sequence[Sequence[int]], dealers: Sequence[int], seats: int
    ) -> tuple[int, ...]:
        """Points for a match ended early (default: none; New Eleusis and Royal override)."""
        return (0,) * seats

    def names_card(self, state: State) -> bool:
        """Whether a verdict of "wrong" on the pending item names a card (a "no play")."""
        p = state.pending
        return p is not None and p.kind == "no_play"

    # -- parameters -----------------------------------------------------------------

    def validate(self, state: State, action: Action) -> None:
        """Raise :class:`IllegalAction` if the parameters are wrong."""
        if isinstance(action, Play):
            self.validate_play(state, action)
        elif isinstance(action, Guess | Hint):
            text = action.text
            if not isinstance(text, str) or not text.strip():
                raise IllegalAction(narrate.error("empty_text"), "empty_text")
            if len(text) > MAX_TEXT:
                raise IllegalAction(narrate.error("text_too_long", limit=MAX_TEXT), "text_too_long")
            if isinstance(action, Guess) and state.config.rule is not None:
                err = rule_error(text)
                if err:
                    raise IllegalAction(narrate.error("bad_guess", why=err), "bad_guess")
        elif isinstance(action, ProphetCall | Judge):
            if not isinstance(action.right, bool):
                raise IllegalAction(narrate.error("bad_verdict"), "bad_verdict")
            p = state.pending
            if action.card is not None:
                if p is None or p.kind != "no_play" or action.right:
                    raise IllegalAction(narrate.error("card_not_expected"), "card_not_expected")
                if not isinstance(action.card, Card) or action.card not in state.hand(p.seat):
                    raise IllegalAction(narrate.error("card_not_in_their_hand"), "card_not_in_hand")
            elif (
                isinstance(action, Judge)
                and p is not None
                and p.kind == "no_play"
                and not action.right
                and p.call_card is None
            ):
                raise IllegalAction(
                    narrate.error("card_required_dealer"),
                    "card_required",
                )
            elif (
                isinstance(action, ProphetCall)
                and p is not None
                and p.kind == "no_play"
                and not action.right
            ):
                raise IllegalAction(
                    narrate.error("card_required_prophet"),
                    "card_required",
                )

    def validate_play(self, state: State, action: Play) -> None:
        """Cards are 1..max, real cards, and all in the hand (as a multiset)."""
        cards = action.cards
        if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
            raise IllegalAction(narrate.error("bad_cards"), "bad_cards")
        if not cards:
            raise IllegalAction(narrate.error("no_cards"), "no_cards")
        limit = self.max_cards(state, action.seat)
        if len(cards) > limit:
            raise IllegalAction(
                narrate.error("too_many_cards_1" if limit == 1 else "too_many_cards", limit=limit),
                "too_many_cards",
            )
        hand = list(state.hand(action.seat))
        for c in cards:
            if c not in hand:
                raise IllegalAction(
                    narrate.error("card_not_in_hand", card=c.name), "card_not_in_hand"
                )
            hand.remove(c)

    # -- consequences -------------------------------------------------------------

    def step(self, state: State, action: Action) -> State:
        """The next state after a validated action."""
        raise NotImplementedError

    def step_hint(self, w: Work, action: Action) -> None:
        """A dealer's hint or a computer hint on request: recorded, public."""
        if isinstance(action, Hint):
            text = action.text.strip()
            w.hints.append(HintNote(action.seat, 0, text))
            w.event("hint", action.seat, text=text)
            return

        level = sum(1 for h in w.hints if h.level > 0) + 1
        assert w.config.rule is not None
        text = phrase_hint(w.config.rule, level, w.mainline)
        w.hints.append(HintNote(action.seat, level, text))
        w.event("hint", action.seat, text=text, count=level)

    # -- helpers for prophets (New Eleusis, Royal) ------------------------------------

    @staticmethod
    def start_era(w: Work, seat: int) -> None:
        """``seat`` becomes prophet: marker after the last card played, hand set aside."""
        s = w.seats[seat]
        w.set_seat(seat, role=Role.PROPHET, set_aside=s.hand, hand=(), been_prophet=True)
        w.prophet = seat
        w.eras.append(Era(seat, w.played))
        w.event("prophet", seat, count=w.played)
        if w.turn == seat:  # Royal: the next scientist in turn may declare; the turn moves on
            nxt = w.next_seat(seat)
            assert nxt is not None
            w.turn = nxt

    @staticmethod
    def end_era(w: Work, penalty: int, refill: bool = True) -> int:
        """Overthrow the prophet: hand taken back, ``penalty`` cards, a scientist again."""
        seat = w.prophet
        assert seat is not None
        s = w.seats[seat]
        w.set_seat(seat, role=Role.SCIENTIST, hand=s.set_aside + s.hand, set_aside=())
        w.eras[-1] = replace(w.eras[-1], end=w.played)
        w.prophet = None
        w.event("overthrow", seat, count=w.played)
        w.draw(seat, penalty, refill)
        return seat


def pending_of(state: State | Work) -> Pending:
    """The pending item (asserted present)."""
    p = state.pending
    assert p is not None
    return p
