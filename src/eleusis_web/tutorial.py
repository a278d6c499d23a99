"""Learn to play: a guided first round, read from the game itself.

"Learn to play" on the first screen starts a real Solo round against a
simple rule (alternate colors). A coach panel above your hand says one thing
at a time and points at the part of the table it talks about: the mainline,
your hand, a card that lies under the card it tried to follow, the guess. Each
step follows from what happened in the round (cards played, right and wrong,
guesses), so it holds across a reload, and the only thing the lesson stores is
whether the first explanation was read. The player can leave the lesson at any
moment: the round goes on as an ordinary Solo game.

Pure Python: :func:`coach` is a view model the renderer draws.

>>> from eleusis.game import make_config, new_game
>>> cfg = make_config("solo", ["You"], LESSON_RULE, 5)
>>> coach(new_game(cfg), read_intro=False).target
'layout'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from eleusis.game import State
from eleusis.i18n import _

#: The lesson's secret rule: simple to see, worth a guess after a few cards.
LESSON_RULE: Final = "card.color != prev.color"

#: What a session keeps in ``extra`` while the lesson runs.
EXTRA_KEY: Final = "lesson"


@dataclass(frozen=True, slots=True)
class CoachVM:
    """One step of the lesson: what to say, where to point, and whether "Next" goes on."""

    step: str  # a name for the step (tests, styling)
    text: str
    target: str  # "layout", "hand", "sideline", "guess", "verdict", "" (nothing)
    next_button: bool = False  # the step waits for "Next" (else for a move)


def coach(state: State, read_intro: bool) -> CoachVM:
    """The lesson's step for ``state`` (``read_intro``: the first explanation was read)."""
    guesses = [e for e in state.events if e.kind == "guess" and e.right is not None]
    plays = [e for e in state.events if e.kind == "play" and e.right is not None]
    wrong = [e for e in plays if not e.right]
    if state.over:
        if any(e.right for e in guesses):
            return CoachVM("won", _("You found the secret rule: that is the whole game. Every "
                           "variant works like this, with more players and more ways to "
                           "score. Start a real game when you are ready."), "")
        return CoachVM("over", _("The round is over. The secret rule is shown below: look back "
                       "at the mainline and see how it fits. Try another round when you like."),
                       "")
    if not read_intro:
        return CoachVM("intro", _("This is the mainline. The first card, the starter, is on the "
                       "table. The dealer's secret rule decides which card may follow which, "
                       "and your job is to find it."), "layout", True)
    if not plays:
        return CoachVM("first-play", _("This is your hand. Choose a card, then press Play: the "
                       "dealer will say whether the rule accepts it."), "hand")
    if guesses and not guesses[-1].right:
        return CoachVM("wrong-guess", _("Not yet. The counterexample shows a card your guess "
                       "judges differently from the secret rule. Play a few more cards, then "
                       "guess again."), "verdict")
    if len(plays) == 1 and plays[0].right:
        return CoachVM("right", _("Right: the card joined the mainline. Play more cards and "
                       "watch which are accepted. Try a card you think the rule refuses, "
                       "too: a wrong card teaches as much as a right one."), "layout")
    if wrong and len(wrong) == 1 and len(plays) <= 6 and plays[-1] is wrong[0]:
        return CoachVM("sideline", _("Wrong: the card lies under the card it tried to follow. "
                       "Compare it with the cards that were accepted. What do the right ones "
                       "have in common?"), "sideline")
    if len(plays) < 4:
        return CoachVM("explore", _("Keep playing. Each card is an experiment: choose cards "
                       "that test your idea of the rule."), "hand")
    return CoachVM("guess", _("Seen a pattern? Press \u201cGuess the rule\u201d and say it in "
                   "words, for example \u201cred cards only\u201d or \u201ceach card higher "
                   "than the last\u201d. The game shows how it read your words before judging. "
                   "A wrong guess costs 2 points; a right one ends the round."), "guess")


__all__ = ["EXTRA_KEY", "LESSON_RULE", "CoachVM", "coach"]
