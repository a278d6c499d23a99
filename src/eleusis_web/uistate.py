"""What the screen holds besides the game: the controller's state, read by the view models.

One dataclass, kept apart so that the view models can name its type (the
:class:`eleusis_web.viewmodel.Table` protocol) without depending on the
controller that changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from eleusis_web.session import Setup


@dataclass
class Ui:
    """What the screen holds besides the game: selection, texts, dialogs, messages."""

    screen: str = "setup"  # setup, write-rule, table, round-end, saves, help
    viewer: int | None = None  # whose eyes are on the screen
    shown: int | None = None  # the seat whose hand is revealed (hot-seat)
    #: the chosen cards of the viewer's hand, in play order: ``"QS"``, or ``"QS#1"``
    #: for the second copy of a card (two decks); kept while other seats move
    selection: list[str] = field(default_factory=list)
    guess_open: bool = False
    guess_text: str = ""
    hint_text: str = ""
    rule_text: str = ""
    try_line: list[str] = field(default_factory=list)  # card codes of the "try a card" line
    try_suit: str = "S"  # the suit whose 13 cards the "try a card" picker shows
    #: (game, round, move) at which the viewer closed their optional window
    window_done: tuple[str, int, int] = ("", 0, -1)
    message: str = ""  # the last refusal or notice, shown under the controls
    storage_note: str = ""
    setup: Setup = field(default_factory=Setup)
    help_from: str = "setup"
    judge_card: str = ""  # a hand-judging dealer's chosen card for a wrong "no play"
    writing_next: bool = False  # the rule being written is for the next round of the match
    writer_ready: bool = True  # hot-seat: the rule's writer holds the device (else a pass screen)
    dealer_ready: int = 0  # rounds for which the person dealing has finished the opening hint
    expanded: list[int] = field(default_factory=list)  # sidelines shown in full
    contrast: bool = False  # four-color suits, high contrast
    confirm_end: bool = False  # "End match" pressed once: the confirmation is shown
    #: Royal Eleusis: the chosen cards marked "refused" (the others are bet accepted)
    bet_refused: list[str] = field(default_factory=list)
    #: the rule field the rule language's guide was opened from ("" for none)
    rule_help_for: str = ""
    #: the hand's card that takes the Tab stop (roving tabindex; arrows move it)
    hand_focus: str = ""
    #: the seconds left of a timed moment to guess or declare (None: not timed)
    window_left: int | None = None


__all__ = ["Ui"]
