"""New Eleusis (Abbott 1977, summary by David Matuszek: seed 002 is the reference).

Seeds 001 and 003 summarise the same game and differ in places; where they do,
an option chooses (``docs/rules.md`` lists every reading):

* ``sudden_death``: ``"cards"`` (002, default: after 40 cards played, or 30
  after the prophet's marker) or ``"fourth_marker"`` (001/003: "after the
  fourth black or white marker", black markers taking precedence);
* ``first_player``: ``"count"`` (002, default: count clockwise the number of
  the starter card), ``"random"`` (001/003) or ``"left"``;
* ``hints``: ``"before_play"`` (002, default: the dealer's hint comes with the
  deal) or ``"anytime"``.

The flow of one play: the player in turn plays 1-4 cards or declares "no
play"; if there is a prophet, the prophet calls it (:class:`ProphetCall`);
the dealer (the engine holding the rule, or a person with :class:`Judge`)
gives the verdict and approves or overthrows the prophet; just after, the
player may declare themself prophet (:class:`DeclareProphet`) until the next
player acts.
"""

from __future__ import annotations

from collections.abc import Sequence

from eleusis import rng
from eleusis.cards import Card
from eleusis.i18n import _
from eleusis.state import (
    VARIANT_OPTIONS,
    Action,
    Config,
    DeclareProphet,
    Hint,
    Judge,
    NoPlay,
    Pending,
    Phase,
    Play,
    ProphetCall,
    RequestHint,
    Result,
    Role,
    RuleLike,
    State,
    Variant,
)
from eleusis.variants.base import DEALER_SEAT, VariantRules, Work, pending_of

HAND = 14
MAX_PLAY = 4
WRONG_CARD_PENALTY = 2
NO_PLAY_PENALTY = 5
OVERTHROW_PENALTY = 5
NEW_HAND_SMALLER = 4
EMPTY_HAND_BONUS = 4
COMPENSATION = 10


def high_count_scores(held: Sequence[int], expelled: Sequence[bool] = ()) -> list[int]:
    """Seed 002 scoring 1-2: the high count minus cards held, +4 with no cards at all.

    An expelled player never takes the bonus (a wrong play must not pay; with
    the penalty drawn on expulsion an expelled player always holds cards).

    >>> high_count_scores([0, 5, 9])
    [13, 4, 0]
    >>> high_count_scores([0, 9], expelled=[True, False])
    [9, 0]
    """
    high = max(held, default=0)
    out = list(expelled) + [False] * (len(held) - len(expelled))
    return [
        high - h + (EMPTY_HAND_BONUS if h == 0 and not x else 0)
        for h, x in zip(held, out, strict=True)
    ]


def prophet_bonus(right: int, wrong: int) -> int:
    """Seed 002 scoring 3: 1 per right card and 2 per wrong card after the prophet's marker."""
    return right + 2 * wrong


def dealer_score(best_player: int, before_prophet: int | None) -> int:
    """Seed 002 scoring 4: the best player's score, capped by twice the cards played
    before a true prophet started (no cap without a true prophet)."""
    if before_prophet is None:
        return best_player
    return min(best_player, 2 * before_prophet)


class NewEleusisRules(VariantRules):
    """New Eleusis rules of play."""

    NAME = "new_eleusis"
    OPTIONS = VARIANT_OPTIONS[Variant.NEW_ELEUSIS]
    ACTIONS = frozenset({Play, NoPlay, DeclareProphet, ProphetCall, Judge, Hint, RequestHint})
    MIN_SCIENTISTS = 1
    MAX_SCIENTISTS = 8
    WRITTEN_FOR = (3, None)  # 002: "4 to 8+ players", the dealer included
    HAND = HAND
    DECKS = 2
    MAX_PLAY = MAX_PLAY

    def setup(self, cfg: Config) -> State:
        """Two decks, 14 cards each, the starter, and who begins."""
        w = self.first_state(cfg)
        self.deal(w, self.HAND)
        self.turn_starter(w)
        order: list[int] = []
        s = cfg.dealer if cfg.dealer is not None else -1
        while True:
            nxt = w.next_seat(s)
            assert nxt is not None
            if order and nxt == order[0]:
                break
            order.append(nxt)
            s = nxt
        how = cfg.option("first_player")
        if how == "count":
            w.turn = order[(w.layout[0].card.card.rank - 1) % len(order)]
        elif how == "random":
            k, w.rng = rng.below(len(order), w.rng)
            w.turn = order[k]
        else:
            w.turn = order[0]
        return w.freeze()

    # -- who may do what ------------------------------------------------------------

    def hints_open(self, state: State) -> bool:
        """Seed 002: the dealer's hint comes with the deal (option: any time).

        A person dealing gives it before the first play. Against the computer
        dealer a scientist may ask for it until their own first turn
        (:meth:`hint_seats`): a computer scientist often plays first, and the
        person must still get the chance the deal gives.
        """
        if state.config.option("hints") == "anytime":
            return True
        if state.pending is not None:
            return False
        return state.turns == 0 or (
            state.config.dealer is None and bool(self.hint_seats(state))
        )

    def hint_seats(self, state: State) -> tuple[int, ...]:
        """With ``hints = before_play``: the scientists who have not played yet."""
        seats = super().hint_seats(state)
        if state.config.option("hints") == "anytime":
            return seats
        if state.turns >= len(state.seats):
            return ()  # a whole lap: everyone still playing has had a turn
        played = {a.seat for a in state.actions if isinstance(a, Play | NoPlay)}
        return tuple(
            i for i in seats if i not in played and state.seats[i].role is Role.SCIENTIST
        )

    def hint_closed(self, state: State, seat: int) -> str:
        """Why no hint now: it comes with the deal (before one's own first turn)."""
        if state.config.dealer is not None or state.config.rule is None:
            return "hint_before_first_play"
        if state.pending is not None:
            return "hint_not_while_judging"
        return "hint_before_your_first_turn"

    def max_cards(self, state: State, seat: int) -> int:
        """1 to 4 cards."""
        return min(MAX_PLAY, len(state.hand(seat)))

    def expected(self, state: State) -> dict[type[Action], tuple[int, ...]]:
        """Who may act now."""
        out: dict[type[Action], tuple[int, ...]] = {}
        if state.phase is Phase.JUDGE:
            assert state.config.dealer is not None
            out[Judge] = (state.config.dealer,)
        elif state.phase is Phase.PROPHET_CALL:
            assert state.prophet is not None
            out[ProphetCall] = (state.prophet,)
        else:
            out[Play] = (state.turn,)
            out[NoPlay] = (state.turn,)
            if state.window is not None and self.may_declare(state, state.window):
                out[DeclareProphet] = (state.window,)
        self.common_expected(state, out)
        return out

    def compensation(
        self, round_scores: Sequence[Sequence[int]], dealers: Sequence[int], seats: int
    ) -> tuple[int, ...]:
        """Seed 002 scoring 5: "anyone who has never been dealer gets 10 extra points"."""
        return tuple(0 if i in dealers else COMPENSATION for i in range(seats))

    # -- sudden death and markers -------------------------------------------------------

    @staticmethod
    def sudden_death(state: State | Work) -> bool:
        """Whether a play made now is in sudden death (decided at the moment of the play)."""
        era = state.eras[-1] if state.prophet is not None and state.eras else None
        if state.config.option("sudden_death") == "fourth_marker":
            # 001/003: sudden death after the fourth marker; black markers take precedence.
            if era is not None:
                return (state.played - era.start) // 10 >= 4
            return state.played // 10 >= 4
        if era is not None:
            return state.played - era.start >= 30
        return state.played >= 40

    def in_sudden_death(self, state: State) -> bool:
        """See :meth:`sudden_death`."""
        return self.sudden_death(state)

    # -- consequences --------------------------------------------------------------

    def step(self, state: State, action: Action) -> State:
        """Apply a validated action."""
        w = Work(state, action)
        if isinstance(action, Hint | RequestHint):
            self.step_hint(w, action)
        elif isinstance(action, DeclareProphet):
            self.start_era(w, action.seat)
            w.window = None
        elif isinstance(action, Play | NoPlay):
            w.window = None
            if isinstance(action, Play):
                w.pending = Pending(
                    "play", action.seat, action.cards, sudden_death=self.sudden_death(state)
                )
            else:
                w.event("no_play", action.seat, w.seats[action.seat].hand)
                w.pending = Pending("no_play", action.seat, sudden_death=self.sudden_death(state))
            if w.prophet is not None:
                w.phase = Phase.PROPHET_CALL
            elif self.judged_by_hand(w):
                w.phase = Phase.JUDGE
            else:
                self.resolve(w, None, None)
        elif isinstance(action, ProphetCall):
            p = pending_of(w)
            w.pending = Pending(
                p.kind, p.seat, p.cards, p.text, action.right, action.card, p.sudden_death
            )
            w.event("call", action.seat, (action.card,) if action.card else (), right=action.right)
            if self.judged_by_hand(w):
                w.phase = Phase.JUDGE
            else:
                self.resolve(w, None, None)
        elif isinstance(action, Judge):
            self.resolve(w, action.right, action.card)
        return w.freeze()

    def resolve(self, w: Work, truth: bool | None, truth_card: Card | None) -> None:
        """The dealer's verdict on the pending play (``truth`` None: the engine judges)."""
        p = pending_of(w)
        w.pending = None
        w.phase = Phase.PLAY
        rule = self.rule(w.config)
        seat = p.seat
        overthrown = False
        if p.kind == "play":
            if truth is None:
                assert rule is not None
                truth = self.accepts_all(rule, w.mainline, p.cards)
            if p.call is not None and p.call != truth:
                overthrown = True
            w.remove_from_hand(seat, p.cards)
            w.event("play", seat, p.cards, right=truth)
            if truth:
                for c in p.cards:
                    w.place_main(c, seat)
            else:
                w.place_side(p.cards, seat)
            if overthrown:
                self.end_era(w, OVERTHROW_PENALTY)
            elif not truth:
                self.punish(w, seat, WRONG_CARD_PENALTY * len(p.cards), p.sudden_death)
        else:
            hand = w.hand(seat)
            card = self.correct_card(w, rule, hand, p, truth, truth_card)
            no_play_right = card is None
            if p.call is not None:
                approved = p.call == no_play_right and (no_play_right or card == p.call_card)
                overthrown = not approved
            w.event("no_play", seat, hand, right=no_play_right)
            if no_play_right:
                if overthrown:
                    self.end_era(w, OVERTHROW_PENALTY)
                w.set_seat(seat, hand=())
                w.discard.extend(hand)
                size = len(hand) - NEW_HAND_SMALLER
                if size <= 0:
                    w.event("new_hand", seat, count=0)
                    self.finish(w, "a player ran out of cards")
                    return
                w.draw(seat, size, kind="new_hand")
            else:
                assert card is not None
                w.remove_from_hand(seat, (card,))
                w.place_main(card, DEALER_SEAT if w.prophet is None else w.prophet)
                w.event("dealer_plays", seat, (card,))
                if overthrown:
                    self.end_era(w, OVERTHROW_PENALTY)
                else:
                    self.punish(w, seat, NO_PLAY_PENALTY, p.sudden_death)
        if not w.seats[seat].hand:
            # 002's first ending, whatever emptied the hand: a right play, or a wrong
            # one whose penalty was waived because the prophet was overthrown
            self.finish(w, "a player ran out of cards")
            return
        w.turns += 1
        if not w.active():
            self.finish(w, "every player was expelled")
            return
        nxt = w.next_seat(seat)
        assert nxt is not None
        w.turn = nxt
        if w.seats[seat].role is Role.SCIENTIST:
            w.window = seat

    def correct_card(
        self,
        w: Work,
        rule: RuleLike | None,
        hand: list[Card],
        p: Pending,
        truth: bool | None,
        truth_card: Card | None,
    ) -> Card | None:
        """For a "no play": the correct card the dealer/prophet plays, or None if it was right."""
        if truth is not None:  # a person judged
            if truth:
                return None
            return truth_card if truth_card is not None else p.call_card
        assert rule is not None
        good = self.playable(rule, w.mainline, hand)
        if not good:
            return None
        if p.call_card is not None and p.call_card in good:
            return p.call_card
        return good[0]

    @staticmethod
    def punish(w: Work, seat: int, penalty: int, sudden_death: bool) -> None:
        """Penalty cards and, in sudden death, expulsion too.

        Reading (``docs/rules.md``): 002 gives the penalty for every wrong card and
        expels in sudden death; it never says expulsion replaces the penalty, and
        003 keeps the expelled player's "hand intact for scoring". So the expelled
        player draws the penalty first: a wrong play never empties a hand and
        never earns the 4-point "no cards" bonus.
        """
        w.draw(seat, penalty)
        if sudden_death:
            w.set_seat(seat, role=Role.EXPELLED)
            w.event("expelled", seat)

    def finish(self, w: Work, reason: str) -> None:
        """Score the round exactly as seed 002."""
        seats = [i for i, s in enumerate(w.seats) if s.role is not Role.DEALER]
        held = [w.seats[i].held for i in seats]
        expelled = [w.seats[i].role is Role.EXPELLED for i in seats]
        base = high_count_scores(held, expelled)
        scores = [0] * len(w.seats)
        details = [""] * len(w.seats)
        high = max(held, default=0)
        for i, sc in zip(seats, base, strict=True):
            scores[i] = sc
            details[i] = f"{high} - {w.seats[i].held}" + (
                " + 4 (" + _("no cards") + ")" if sc > high - w.seats[i].held else ""
            )
        before: int | None = None
        if w.prophet is not None:
            era = w.eras[-1]
            right = sum(1 for col in w.layout if col.card.n > era.start)
            wrong = sum(1 for col in w.layout for x in col.sideline if x.n > era.start)
            bonus = prophet_bonus(right, wrong)
            scores[w.prophet] += bonus
            details[w.prophet] += f" + {right} + 2 x {wrong} ({_('true prophet')})"
            before = era.start
        if w.config.dealer is not None:
            best = max((scores[i] for i in seats), default=0)
            scores[w.config.dealer] = dealer_score(best, before)
            details[w.config.dealer] = (
                _("best player {score}").format(score=best) if before is None
                else f"min({best}, 2 x {before})"
            )
        w.end(reason, Result(reason, tuple(scores), (), tuple(details)))
