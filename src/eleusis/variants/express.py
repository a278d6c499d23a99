"""Eleusis Express (John Golden, seed 000), and seed 001's streamlined 3-lives version.

* two decks; 12 cards each; the starter card; the player left of the dealer
  begins;
* one card a turn: right, it extends the mainline; wrong, it goes under the
  last mainline card and the player draws one;
* "no play": right with one card left, the card goes to the stock and the
  round is over; right with more, the hand goes under the stock and the player
  gets a new hand one card smaller; wrong, the dealer plays a correct card from
  the hand and the player draws one;
* after a right play or a right "no play" the player may guess the rule
  (judged exactly with :func:`eleusis.rules.compare`); a right guess ends the
  round, as does an empty hand;
* scoring: 12 minus cards held, +6 for the right guess, +3 for an empty hand;
  the dealer scores as the best player.

Options (``docs/rules.md``): ``stock_out`` ``"new_deck"`` (default: shuffle in
another deck) or ``"end_round"``; ``lives`` 0 (default, seed 000) or 3 (seed
001's streamlined version: a wrong play or wrong "no play" costs a life, a
player with no life left is out, and the first right guess wins).
"""

from __future__ import annotations

from eleusis.cards import Card
from eleusis.i18n import _
from eleusis.state import (
    VARIANT_OPTIONS,
    Action,
    Config,
    ConfigError,
    Guess,
    Hint,
    Judge,
    NoPlay,
    Pending,
    Phase,
    Play,
    RequestHint,
    Result,
    Role,
    State,
    Variant,
)
from eleusis.variants.base import DEALER_SEAT, VariantRules, Work, guess_verdict, pending_of

EXPRESS_HAND = 12


def express_score(held: int, right_guess: bool) -> int:
    """Seed 000: 12 minus cards held, +6 for guessing the rule, +3 for an empty hand."""
    return EXPRESS_HAND - held + (6 if right_guess else 0) + (3 if held == 0 else 0)


class ExpressRules(VariantRules):
    """Eleusis Express rules of play."""

    NAME = "express"
    OPTIONS = VARIANT_OPTIONS[Variant.EXPRESS]
    ACTIONS = frozenset({Play, NoPlay, Guess, Judge, Hint, RequestHint})
    MIN_SCIENTISTS = 1
    MAX_SCIENTISTS = 8
    WRITTEN_FOR = (2, 7)  # 000: "For three to eight players", the dealer included
    HAND = EXPRESS_HAND
    DECKS = 2

    def check_config(self, cfg: Config) -> None:
        """Seats, rule and options."""
        super().check_config(cfg)
        if cfg.option("stock_out") not in ("new_deck", "end_round"):
            raise ConfigError("stock_out must be new_deck or end_round")

    def setup(self, cfg: Config) -> State:
        """Deal 12 each, turn the starter; the player left of the dealer begins."""
        w = self.first_state(cfg)
        lives = int(cfg.option("lives"))
        if lives:
            for seat in w.active():
                w.set_seat(seat, lives=lives)
        self.deal(w, self.HAND)
        self.turn_starter(w)
        start = w.next_seat(cfg.dealer if cfg.dealer is not None else -1)
        assert start is not None
        w.turn = start
        return w.freeze()

    # -- who may do what ------------------------------------------------------------

    def expected(self, state: State) -> dict[type[Action], tuple[int, ...]]:
        """Play / no play in turn; a guess right after a right play; verdicts; hints."""
        out: dict[type[Action], tuple[int, ...]] = {}
        if state.phase is Phase.JUDGE:
            assert state.config.dealer is not None
            out[Judge] = (state.config.dealer,)
        else:
            out[Play] = (state.turn,)
            out[NoPlay] = (state.turn,)
            if state.window is not None:
                out[Guess] = (state.window,)
        self.common_expected(state, out)
        return out

    # -- consequences --------------------------------------------------------------

    def step(self, state: State, action: Action) -> State:
        """Apply a validated action."""
        w = Work(state, action)
        by_hand = self.judged_by_hand(state)
        if isinstance(action, Hint | RequestHint):
            self.step_hint(w, action)
        elif isinstance(action, Play | NoPlay | Guess):
            w.window = None
            kind = {Play: "play", NoPlay: "no_play", Guess: "guess"}[type(action)]
            cards = action.cards if isinstance(action, Play) else ()
            text = action.text if isinstance(action, Guess) else ""
            if isinstance(action, NoPlay):
                w.event("no_play", action.seat, w.seats[action.seat].hand)
            w.pending = Pending(kind, action.seat, cards, text)
            if by_hand:
                w.phase = Phase.JUDGE
            else:
                self.resolve(w, None, None)
        elif isinstance(action, Judge):
            w.phase = Phase.PLAY
            self.resolve(w, action.right, action.card)
        return w.freeze()

    def resolve(self, w: Work, right: bool | None, card: Card | None) -> None:
        """Judge the pending item (``right`` None: the engine judges with the rule)."""
        p = pending_of(w)
        w.pending = None
        rule = self.rule(w.config)
        seat = p.seat
        if p.kind == "guess":
            why = ""
            if right is None:
                assert w.config.rule is not None
                right, why = guess_verdict(w.config.rule, p.text, w.mainline)
            w.event("guess", seat, right=right, text=p.text)
            if why:
                w.event("counterexample", seat, text=why)
            if right:
                w.set_seat(seat, right_guess=True)
                self.finish(w, "right guess")
            else:
                w.set_seat(seat, wrong_guesses=w.seats[seat].wrong_guesses + 1)
            return
        refill = w.config.option("stock_out") == "new_deck"
        if p.kind == "play":
            if right is None:
                assert rule is not None
                right = rule.accepts(w.mainline, p.cards[0])
            w.remove_from_hand(seat, p.cards)
            w.event("play", seat, p.cards, right=right)
            if right:
                w.place_main(p.cards[0], seat)
                if not w.seats[seat].hand:
                    self.finish(w, "empty hand")
                    return
                w.window = seat
            else:
                w.place_side(p.cards, seat)
                w.draw(seat, 1, refill)
                self.lose_life(w, seat)
        else:  # "no play"
            hand = w.hand(seat)
            if right is None:
                assert rule is not None
                good = self.playable(rule, w.mainline, hand)
                right = not good
                card = good[0] if good else None
            w.event("no_play", seat, hand, right=right)
            if right:
                w.set_seat(seat, hand=())
                w.stock[:0] = hand  # under the stock
                if len(hand) <= 1:
                    self.finish(w, "right \"no play\" with one card")
                    return
                w.draw(seat, len(hand) - 1, refill, kind="new_hand")
                w.window = seat
            else:
                assert card is not None
                w.remove_from_hand(seat, (card,))
                w.place_main(card, DEALER_SEAT)
                w.event("dealer_plays", seat, (card,))
                w.draw(seat, 1, refill)
                self.lose_life(w, seat)
        w.turns += 1
        if w.stock_out:
            self.finish(w, "the stock ran out")
            return
        nxt = w.next_seat(seat)
        if nxt is None:
            self.finish(w, "every player is out")
            return
        w.turn = nxt

    @staticmethod
    def lose_life(w: Work, seat: int) -> None:
        """3-lives option: a wrong play costs a life; with none left the player is out."""
        s = w.seats[seat]
        if s.lives > 0:
            w.set_seat(seat, lives=s.lives - 1)
            w.event("lives", seat, count=s.lives - 1)
            if s.lives == 1:
                w.set_seat(seat, role=Role.OUT)
                w.event("expelled", seat, text="no lives left")

    def finish(self, w: Work, reason: str) -> None:
        """Score the round (seed 000)."""
        scores = [0] * len(w.seats)
        details = [""] * len(w.seats)
        best = None
        for i, s in enumerate(w.seats):
            if s.role is Role.DEALER:
                continue
            scores[i] = express_score(s.held, s.right_guess)
            details[i] = (
                f"12 - {s.held}"
                + (" + 6 (" + _("right guess") + ")" if s.right_guess else "")
                + (" + 3 (" + _("empty hand") + ")" if s.held == 0 else "")
            )
            best = scores[i] if best is None else max(best, scores[i])
        if w.config.dealer is not None:
            scores[w.config.dealer] = best or 0
            details[w.config.dealer] = _("as the best player")
        w.end(reason, Result(reason, tuple(scores), (), tuple(details), self.winner(w)))

    @staticmethod
    def winner(w: Work) -> int | None:
        """With lives (001: "The first to guess the rule wins"): the right guesser.

        A right guess ends the round, so there is at most one. When the round ends
        without one (an empty hand, the stock, every player out) nobody wins it:
        ``None``, and the scores stand as in Express. Without lives the scores
        decide, as in seed 000: ``None`` too.
        """
        if not int(w.config.option("lives")):
            return None
        for i, s in enumerate(w.seats):
            if s.right_guess:
                return i
        return None
