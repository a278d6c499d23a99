"""Solo: the protocol of the public "Game of Science" Eleusis benchmark.

One scientist against the computer dealer, so people can compare themselves
(and our computer scientists) with published LLM results
(https://huggingface-eleusis-benchmark.hf.space: "Each turn, the model proposes
a card, receives feedback, refines its hypothesis, and decides whether to
commit to a guess"):

* two decks; a hand of 12, refilled after every play;
* the starter is drawn until the rule accepts it at position 1;
* one card per turn: right cards extend the mainline, wrong ones go to the
  sideline under the last mainline card;
* a guess is allowed at any time and is judged exactly
  (:func:`eleusis.rules.compare`); a guess does not use a turn;
* at most 30 turns; after the 30th card the scientist may make one last guess
  (or :class:`~eleusis.game.Pass`);
* score when solved ``30 - turns used - 2 x wrong guesses`` (also shown floored
  at 0), otherwise ``-2 x wrong guesses``.
"""

from __future__ import annotations

from eleusis import narrate
from eleusis.state import (
    VARIANT_OPTIONS,
    Action,
    Config,
    ConfigError,
    Guess,
    Pass,
    Phase,
    Play,
    RequestHint,
    Result,
    State,
    Variant,
)
from eleusis.variants.base import VariantRules, Work, guess_verdict


def solo_score(solved: bool, turns: int, wrong_guesses: int, max_turns: int = 30) -> int:
    """The benchmark's score: ``max_turns - turns - 2w`` if solved, else ``-2w``."""
    if solved:
        return max_turns - turns - 2 * wrong_guesses
    return -2 * wrong_guesses


class SoloRules(VariantRules):
    """Solo rules of play."""

    NAME = "solo"
    OPTIONS = VARIANT_OPTIONS[Variant.SOLO]
    ACTIONS = frozenset({Play, Guess, Pass, RequestHint})
    MIN_SCIENTISTS = 1
    MAX_SCIENTISTS = 1
    WRITTEN_FOR = (1, 1)  # the benchmark: one scientist against the computer dealer
    HAND = 12
    DECKS = 2

    def check_config(self, cfg: Config) -> None:
        """One scientist, the computer dealer, a written rule."""
        if cfg.dealer is not None:
            raise ConfigError("solo is played against the computer dealer (dealer=None)")
        super().check_config(cfg)
        turns = cfg.option("max_turns")
        if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= 200:
            raise ConfigError("max_turns must be a whole number from 1 to 200")

    def setup(self, cfg: Config) -> State:
        """Deal 12, then draw the starter until the rule accepts it."""
        w = self.first_state(cfg)
        self.deal(w, self.HAND)
        self.turn_starter(w)
        return w.freeze()

    def hints_open(self, state: State) -> bool:
        """Hints only when the option allows them."""
        return bool(state.config.option("hints"))

    def hint_closed(self, state: State, seat: int) -> str:
        """Hints are off, or the turns are used up."""
        return "hints_off" if not state.config.option("hints") else "turns_used_up"

    def expected(self, state: State) -> dict[type[Action], tuple[int, ...]]:
        """Play or guess at any time; after the last turn, a last guess or pass."""
        out: dict[type[Action], tuple[int, ...]] = {}
        if state.phase is Phase.FINAL_GUESS:
            out[Guess] = (0,)
            out[Pass] = (0,)
            return out
        if state.hand(0):
            out[Play] = (0,)
        out[Guess] = (0,)
        self.common_expected(state, out)
        return out

    def step(self, state: State, action: Action) -> State:
        """Judge a card or a guess."""
        w = Work(state, action)
        cfg = state.config
        max_turns = int(cfg.option("max_turns"))
        if isinstance(action, Play):
            (card,) = action.cards
            rule = self.rule(cfg)
            assert rule is not None
            right = rule.accepts(w.mainline, card)
            w.remove_from_hand(0, action.cards)
            if right:
                w.place_main(card, 0)
            else:
                w.place_side(action.cards, 0)
            w.event("play", 0, action.cards, right=right)
            w.turns += 1
            w.draw(0, self.HAND - len(w.seats[0].hand), kind="")
            if w.turns >= max_turns:
                w.phase = Phase.FINAL_GUESS
        elif isinstance(action, Guess):
            assert cfg.rule is not None
            right, why = guess_verdict(cfg.rule, action.text, w.mainline)
            w.event("guess", 0, right=right, text=action.text)
            if why:
                w.event("counterexample", 0, text=why)
            if right:
                w.set_seat(0, right_guess=True)
                self.finish(w, "solved")
            else:
                w.set_seat(0, wrong_guesses=w.seats[0].wrong_guesses + 1)
                if w.phase is Phase.FINAL_GUESS:
                    self.finish(w, "out of turns")
        elif isinstance(action, Pass):
            w.event("pass", 0)
            self.finish(w, "out of turns")
        else:
            self.step_hint(w, action)
        return w.freeze()

    def finish(self, w: Work, reason: str) -> None:
        """Score the game."""
        s = w.seats[0]
        max_turns = int(w.config.option("max_turns"))
        score = solo_score(s.right_guess, w.turns, s.wrong_guesses, max_turns)
        detail = narrate.solo_detail(s.right_guess, max_turns, w.turns, s.wrong_guesses)
        w.end(reason, Result(reason, (score,), (max(0, score),), (detail,)))
