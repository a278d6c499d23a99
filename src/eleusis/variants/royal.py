"""Royal Eleusis (Cesco Reale, seed 004): bets, a downline, prophet eras.

* three decks, a new one whenever the stock runs out; 14 cards each; the
  starter; the scientist left of God begins;
* a move is a :class:`~eleusis.game.Bet`: 1-4 cards, each proposed to be
  accepted (A) or refused (R), in one of the 8 sequences A, AA, AAA, AAAA,
  AAAR, AARR, ARRR, RRRR; an R bet is right only if the card is not acceptable
  and the scientist holds no acceptable card;
* God (or the prophet, approved by God) judges the bets one by one; after a
  wrong bet the rest of the move is wrong and goes face down in the downline;
* the card accounting of rules 2.2 and 3.1-3.3 (replacement cards, one malus
  card per wrong bet, the R-bet rules and the horizontal cards that count for
  nothing);
* prophets: after each turn any scientist meeting the three conditions may
  declare (priority in inverse turn order: :func:`prophet_priority`); the
  prophet era starts with a marker and ends with an upside-down marker when
  God overthrows the prophet (5 malus cards; the scientist gets no malus in
  that move);
* sudden death when, at the moment of the bet, at least 30 vertical cards were
  played (20 since the marker in a prophet era); a wrong move then expels;
* hints before the first move and just before sudden death;
* scoring 1-7, with a false prophet's era points halved and the compensation
  formula for a match ended early.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Final

from eleusis import narrate
from eleusis.cards import Card
from eleusis.i18n import _
from eleusis.state import (
    VARIANT_OPTIONS,
    Action,
    Bet,
    Config,
    ConfigError,
    DeclareProphet,
    Hint,
    IllegalAction,
    Judge,
    Legal,
    Pending,
    Phase,
    ProphetCall,
    RequestHint,
    Result,
    Role,
    RuleLike,
    State,
    Variant,
)
from eleusis.variants.base import DEALER_SEAT, VariantRules, Work, pending_of

BET_KINDS: Final = ("A", "AA", "AAA", "AAAA", "AAAR", "AARR", "ARRR", "RRRR")
HAND: Final = 14
OVERTHROW_MALUS: Final = 5
EMPTY_HAND_BONUS: Final = 4
SUDDEN_DEATH: Final = 30
SUDDEN_DEATH_PROPHET: Final = 20


def bet_kind(marks: Sequence[bool]) -> str:
    """The bet sequence for per-card marks (``True``: bet to be accepted), in order.

    Raises :class:`~eleusis.state.IllegalAction` (a player's sentence) when the
    marks make no allowed sequence (:data:`BET_KINDS`).

    >>> bet_kind([True, True, False, False])
    'AARR'
    >>> try:
    ...     bet_kind([True, False])
    ... except IllegalAction as exc:
    ...     print(exc.code)
    bad_bet_sequence
    """
    kinds = "".join("A" if m else "R" for m in marks)
    if kinds in BET_KINDS:
        return kinds
    code = "bet_count" if not 1 <= len(kinds) <= 4 else "bet_order"
    raise IllegalAction(narrate.reason(code), "bad_bet_sequence")


def arrange_bet(cards: Sequence[Card], marks: Sequence[bool]) -> tuple[tuple[Card, ...], str]:
    """Cards chosen with marks, as a move: the accept bets first (in the order chosen),
    then the refuse bets; and the sequence (see :func:`bet_kind`).

    >>> from eleusis.cards import parse_cards
    >>> arrange_bet(parse_cards("2H 3S 4H 5S"), [False, True, False, False])
    ((Card.parse('3S'), Card.parse('2H'), Card.parse('4H'), Card.parse('5S')), 'ARRR')
    """
    if len(cards) != len(marks):
        raise IllegalAction(narrate.reason("bet_count"), "bet_count")
    order = sorted(range(len(cards)), key=lambda i: not marks[i])
    return tuple(cards[i] for i in order), bet_kind([marks[i] for i in order])


def prophet_bonus(right: int, wrong: int, false_prophet: bool = False) -> int:
    """004 scoring 3-4: 1 per right bet and 2 per wrong bet in the era; halved (rounded
    down) for a false prophet."""
    points = right + 2 * wrong
    return points // 2 if false_prophet else points


def royal_compensation(god_scores: Sequence[int], scientist_scores: Sequence[int]) -> int:
    """004 scoring 6: the average points of the Gods minus the average of all the
    scientists' scores in the match, rounded to the nearest point (halves up)."""
    if not god_scores or not scientist_scores:
        return 0
    diff = Fraction(sum(god_scores), len(god_scores)) - Fraction(
        sum(scientist_scores), len(scientist_scores)
    )
    return int((diff + Fraction(1, 2)) // 1)


class RoyalRules(VariantRules):
    """Royal Eleusis rules of play."""

    NAME = "royal"
    OPTIONS = VARIANT_OPTIONS[Variant.ROYAL]
    ACTIONS = frozenset({Bet, DeclareProphet, ProphetCall, Judge, Hint, RequestHint})
    MIN_SCIENTISTS = 1
    MAX_SCIENTISTS = 8
    WRITTEN_FOR = (3, 7)  # 004: "4 up to ideally 5 or 6" players, "8 according to Gardner"
    HAND = HAND
    DECKS = 3
    MAX_PLAY = 4
    DECLARE_WINDOW = "declare_between_turns"

    def setup(self, cfg: Config) -> State:
        """Three decks, 14 cards each, the starter; the scientist left of God begins."""
        w = self.first_state(cfg)
        self.deal(w, self.HAND)
        self.turn_starter(w)
        start = w.next_seat(cfg.dealer if cfg.dealer is not None else -1)
        assert start is not None
        w.turn = start
        w.extra["era_bets"] = ()
        w.extra["sd_moves"] = 0
        return w.freeze()

    # -- who may do what ------------------------------------------------------------

    def in_sudden_death(self, state: State) -> bool:
        """At least 30 vertical cards played (20 since the marker in a prophet era)."""
        if state.prophet is not None and state.eras:
            return state.played - state.eras[-1].start >= SUDDEN_DEATH_PROPHET
        return state.played >= SUDDEN_DEATH

    def hints_open(self, state: State) -> bool:
        """One hint before the first move, and "a second hint" just before sudden death (004).

        At most one hint in each window, whoever asks for it or gives it: the
        first window closes with its hint (or with the first bet), the second
        opens when sudden death is reached and closes with its hint (or with the
        first bet made in sudden death).
        """
        if state.pending is not None:
            return False
        if state.turns == 0:
            return not state.hints
        if not self.in_sudden_death(state) or dict(state.extra).get("sd_moves", 0):
            return False
        return hints_by_window(state)[1] == 0

    def hint_closed(self, state: State, seat: int) -> str:
        """One hint before the game, a second just before sudden death (004)."""
        return "hint_royal_windows"

    def expected(self, state: State) -> dict[type[Action], tuple[int, ...]]:
        """Bets in turn; declarations after a turn; calls and verdicts; hints."""
        out: dict[type[Action], tuple[int, ...]] = {}
        if state.phase is Phase.JUDGE:
            assert state.config.dealer is not None
            out[Judge] = (state.config.dealer,)
        elif state.phase is Phase.PROPHET_CALL:
            assert state.prophet is not None
            out[ProphetCall] = (state.prophet,)
        else:
            out[Bet] = (state.turn,)
            if state.window is not None:
                seats = tuple(s for s in prophet_priority(state) if self.may_declare(state, s))
                if seats:
                    out[DeclareProphet] = seats
        self.common_expected(state, out)
        return out

    def legal(self, state: State, seat: int) -> Legal:
        """As the base, with the bet sequences this hand allows."""
        legal = super().legal(state, seat)
        if "bet" in legal.kinds:
            n = len(state.hand(seat))
            legal = replace(
                legal, max_cards=min(4, n), bet_kinds=tuple(k for k in BET_KINDS if len(k) <= n)
            )
        return legal

    def names_card(self, state: State) -> bool:
        """A wrong verdict on an R bet names the card that goes to the mainline."""
        p = state.pending
        return p is not None and p.kind == "bet" and p.text[p.index] == "R"

    # -- parameters -----------------------------------------------------------------

    def validate(self, state: State, action: Action) -> None:
        """Bet shape, cards in hand; calls and verdicts on R bets name a card of the hand."""
        if isinstance(action, Bet):
            if action.kinds not in BET_KINDS:
                raise IllegalAction(narrate.reason("bet_order"), "bad_bet_sequence")
            cards = action.cards
            if not isinstance(cards, tuple) or not all(isinstance(c, Card) for c in cards):
                raise IllegalAction(narrate.error("bad_cards"), "bad_cards")
            if len(cards) != len(action.kinds):
                raise IllegalAction(narrate.error("bet_count"), "bet_count")
            hand = list(state.hand(action.seat))
            if len(cards) > len(hand):
                raise IllegalAction(narrate.error("too_many_bets"), "too_many_cards")
            for c in cards:
                if c not in hand:
                    raise IllegalAction(
                        narrate.error("card_not_in_hand", card=c.name), "card_not_in_hand"
                    )
                hand.remove(c)
            return
        if isinstance(action, ProphetCall | Judge):
            if not isinstance(action.right, bool):
                raise IllegalAction(narrate.error("bad_verdict"), "bad_verdict")
            p = pending_of(state)
            r_bet = p.text[p.index] == "R"
            if action.card is not None:
                if not r_bet or action.right:
                    raise IllegalAction(narrate.error("card_not_expected_bet"), "card_not_expected")
                if not isinstance(action.card, Card) or action.card not in state.hand(p.seat):
                    raise IllegalAction(narrate.error("card_not_in_their_hand"), "card_not_in_hand")
            elif r_bet and not action.right and (isinstance(action, ProphetCall) or
                                                  p.call_card is None):
                raise IllegalAction(narrate.error("card_required_bet"), "card_required")
            return
        super().validate(state, action)

    # -- consequences --------------------------------------------------------------

    def step(self, state: State, action: Action) -> State:
        """Apply a validated action."""
        w = Work(state, action)
        if isinstance(action, Hint | RequestHint):
            self.step_hint(w, action)
        elif isinstance(action, DeclareProphet):
            self.start_era(w, action.seat)
            w.extra["era_bets"] = (*w.extra["era_bets"], (0, 0))
            w.window = None
        elif isinstance(action, Bet):
            w.window = None
            sd = self.in_sudden_death(state)
            if sd:
                w.extra["sd_moves"] = w.extra.get("sd_moves", 0) + 1
            # the cards are shown one by one as they are judged ("verdict" events)
            w.event("bet", action.seat, count=len(action.cards), text=action.kinds)
            w.pending = Pending("bet", action.seat, action.cards, action.kinds, sudden_death=sd)
            self.next_bet(w)
        elif isinstance(action, ProphetCall):
            p = pending_of(w)
            w.pending = replace(p, call=action.right, call_card=action.card)
            w.event("call", action.seat, (action.card,) if action.card else (), right=action.right)
            if self.judged_by_hand(w):
                w.phase = Phase.JUDGE
            else:
                self.judge_bet(w, None, None)
                self.next_bet(w)
        elif isinstance(action, Judge):
            self.judge_bet(w, action.right, action.card)
            self.next_bet(w)
        return w.freeze()

    def next_bet(self, w: Work) -> None:
        """Ask for the next judgement, or judge with the rule, until the move is done."""
        while w.pending is not None:
            if w.prophet is not None:
                w.phase = Phase.PROPHET_CALL
                return
            if self.judged_by_hand(w):
                w.phase = Phase.JUDGE
                return
            self.judge_bet(w, None, None)
        w.phase = Phase.PLAY if w.result is None else Phase.OVER

    def truth(
        self, w: Work, rule: RuleLike, card: Card, kind: str
    ) -> tuple[bool, Card | None]:
        """The verdict on one bet and, for a wrong R bet, the card for the mainline."""
        line = w.mainline
        ok = rule.accepts(line, card)
        if kind == "A":
            return ok, None
        if ok:
            return False, card  # 3.1: an acceptable card refused
        good = self.playable(rule, line, w.hand(pending_of(w).seat))
        if good:
            return False, good[0]  # 3.2: the scientist could have played a card
        return True, None

    def judge_bet(self, w: Work, truth: bool | None, truth_card: Card | None) -> None:
        """Judge bet ``index`` of the pending move and lay it out (rules 2, 3)."""
        p = pending_of(w)
        i, seat, card, kind = p.index, p.seat, p.cards[p.index], p.text[p.index]
        rule = self.rule(w.config)
        if truth is None:
            assert rule is not None
            right, x = self.truth(w, rule, card, kind)
            if p.call is not None and not p.call and not right and p.call_card is not None:
                # the prophet's card is approved if acceptable (and the bet card itself
                # when that one was acceptable)
                prophet_ok = rule.accepts(w.mainline, p.call_card) and (
                    not rule.accepts(w.mainline, card) or p.call_card == card
                )
                approved = prophet_ok
                x = p.call_card if prophet_ok else x
            else:
                approved = p.call is None or p.call == right
        else:
            right = truth
            x = None if right else (truth_card if truth_card is not None else p.call_card)
            approved = p.call is None or (
                p.call == right and (right or truth_card is None or truth_card == p.call_card)
            )
        overthrown = p.overthrown
        in_era = w.prophet is not None
        if not approved:
            self.overthrow(w)
            overthrown = True
            in_era = False
        w.event("verdict", seat, (card,), right=right, text=kind)
        malus = 0 if overthrown else 1
        expel = p.sudden_death and not overthrown
        last = i == len(p.cards) - 1
        if right:
            w.remove_from_hand(seat, (card,))
            if kind == "A":
                w.place_main(card, seat)
            else:
                w.place_side((card,), seat, flag="right_R")
                if last:  # 2.2: the rest of the hand goes horizontal, as many new cards
                    rest = w.hand(seat)
                    if rest:
                        w.set_seat(seat, hand=())
                        w.place_side(rest, seat, counted=False, horizontal=True)
                        w.draw(seat, len(rest), kind="new_hand")
            if in_era:
                self.count_bet(w, right=1)
            if not w.seats[seat].hand and last:
                self.finish(w, "a scientist ran out of cards")
                return
            w.pending = replace(p, index=i + 1, call=None, call_card=None, overthrown=overthrown)
            if last:
                self.end_move(w, seat)
            return
        # a wrong bet: this one and every later bet of the move are wrong
        draws = 0
        w.remove_from_hand(seat, (card,))
        if kind == "A":
            w.place_side((card,), seat)  # 3.1
            draws += 1 + malus
        elif x is not None and x == card:
            w.place_main(card, seat, flag="wrong_R")  # 3.1, second case
            draws += 1 + malus
        else:
            assert x is not None
            w.remove_from_hand(seat, (x,))  # 3.2
            w.place_main(x, DEALER_SEAT if w.prophet is None else w.prophet)
            w.event("dealer_plays", seat, (x,))
            w.place_side((card,), seat)
            draws += 2 + malus
        wrong_bets = 1
        for later in p.cards[i + 1 :]:
            if later not in w.seats[seat].hand:
                continue  # the card God played from the hand for rule 3.2
            w.remove_from_hand(seat, (later,))
            w.place_side((later,), seat, face_down=True)  # 3.3 and the rest of the move
            draws += 1 + malus
            wrong_bets += 1
        if in_era:
            self.count_bet(w, wrong=wrong_bets)
        w.pending = None
        # 004: "Each wrong bet will be one more card for the scientist", expelled or
        # not: the expelled scientist keeps those cards for scoring (docs/rules.md)
        w.draw(seat, draws)
        if expel:
            w.set_seat(seat, role=Role.EXPELLED)
            w.event("expelled", seat)
        self.end_move(w, seat)

    @staticmethod
    def count_bet(w: Work, right: int = 0, wrong: int = 0) -> None:
        """Right and wrong bets in the current prophet era (for scoring 3-4)."""
        bets = list(w.extra["era_bets"])
        r, x = bets[-1]
        bets[-1] = (r + right, x + wrong)
        w.extra["era_bets"] = tuple(bets)

    def overthrow(self, w: Work) -> None:
        """God disapproves: the upside-down marker; the false prophet takes 5 malus cards."""
        self.end_era(w, OVERTHROW_MALUS)

    def end_move(self, w: Work, seat: int) -> None:
        """The move is over: next scientist, prophet window."""
        w.pending = None
        w.turns += 1
        if not w.active():
            self.finish(w, "every scientist was expelled")
            return
        nxt = w.next_seat(seat)
        assert nxt is not None
        w.turn = nxt
        w.window = seat

    def finish(self, w: Work, reason: str) -> None:
        """Score the round (004 scoring 1-5)."""
        w.pending = None
        seats = [i for i, s in enumerate(w.seats) if s.role is not Role.DEALER]
        held = [w.seats[i].held for i in seats]
        high = max(held, default=0)
        scores = [0] * len(w.seats)
        details = [""] * len(w.seats)
        for i, h in zip(seats, held, strict=True):
            no_cards = h == 0 and w.seats[i].role is not Role.EXPELLED
            scores[i] = high - h + (EMPTY_HAND_BONUS if no_cards else 0)
            details[i] = f"{high} - {h}" + (" + 4 (" + _("no cards") + ")" if no_cards else "")
        bets = w.extra.get("era_bets", ())
        for era, (right, wrong) in zip(w.eras, bets, strict=True):
            false = era.end is not None
            bonus = prophet_bonus(right, wrong, false)
            scores[era.seat] += bonus
            details[era.seat] += (
                f" + ({right} + 2 x {wrong}) / 2 ({_('false prophet')})"
                if false
                else f" + {right} + 2 x {wrong} ({_('true prophet')})"
            )
        if w.config.dealer is not None:
            best = max((scores[i] for i in seats), default=0)
            before = w.eras[-1].start if w.prophet is not None else None
            scores[w.config.dealer] = best if before is None else min(best, 2 * before)
            details[w.config.dealer] = (
                _("best scientist {score}").format(score=best) if before is None
                else f"min({best}, 2 x {before})"
            )
        w.end(reason, Result(reason, tuple(scores), (), tuple(details)))

    def compensation(
        self, round_scores: Sequence[Sequence[int]], dealers: Sequence[int], seats: int
    ) -> tuple[int, ...]:
        """004 scoring 6, for everyone who has never been God."""
        gods = [scores[d] for scores, d in zip(round_scores, dealers, strict=False)]
        scientists = [
            s
            for scores, d in zip(round_scores, dealers, strict=False)
            for i, s in enumerate(scores)
            if i != d
        ]
        bonus = royal_compensation(gods, scientists)
        return tuple(0 if i in dealers else bonus for i in range(seats))

    def check_config(self, cfg: Config) -> None:
        """As the base (no options)."""
        super().check_config(cfg)
        if cfg.options:
            raise ConfigError("royal has no options")


def prophet_priority(state: State) -> tuple[int, ...]:
    """Who may declare first after a turn: inverse turn order from who just played (004)."""
    n = len(state.seats)
    start = state.window if state.window is not None else state.turn
    return tuple((start - k) % n for k in range(n))


def hints_by_window(state: State) -> tuple[int, int]:
    """Hints given before the first bet, and hints given after it (just before sudden death)."""
    before = after = 0
    betting = False
    for ev in state.events:
        if ev.kind == "bet":
            betting = True
        elif ev.kind == "hint":
            if betting:
                after += 1
            else:
                before += 1
    return before, after
