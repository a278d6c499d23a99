"""View models: what the screen shows, as plain frozen data. Pure: no ``js`` import.

:func:`table_model` reads the current round through :func:`eleusis.views.view`
(what one seat may see) plus the controller's screen state and returns a
:class:`TableVM` that :mod:`eleusis_web.render` writes into the page. Every
question of the rules is answered by the engine: which controls are enabled
comes from :func:`eleusis.game.legal_actions`; a disabled control carries the
reason, shown on hover and focus.

Royal Eleusis fits without a rewrite: face-down and horizontal layout cards
are flags of :class:`CardVM`, bets would be two more :class:`ControlVM`.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from eleusis import narrate
from eleusis.cards import ALL_CARDS, Card, card_name, rank_code
from eleusis.game import ActionError, Event, Phase, waiting_for
from eleusis.i18n import N_, _, language, ngettext
from eleusis.rules import RuleSyntaxError, analyse, from_english, parse
from eleusis.variants import info as variant_info
from eleusis.variants.royal import arrange_bet
from eleusis.views import SeatView, view
from eleusis_web import tutorial
from eleusis_web.session import (
    DEALERS,
    HUMAN_KINDS,
    PACES,
    STRENGTHS,
    VARIANTS,
    Session,
    engine_variant,
    seat_limits,
    variant_available,
)
from eleusis_web.tutorial import CoachVM
from eleusis_web.uistate import Ui


class Table(Protocol):
    """What the view models read of the table: the session, the screen's state and the
    few answers the controller keeps (who may act in a pause, hot-seat passing).

    A protocol, so that view models depend on no controller (the controller
    satisfies it; tests can hand in anything with these members).
    """

    session: Session | None
    ui: Ui

    def needs_pass(self) -> bool: ...

    def window_open(self) -> int | None: ...

    def dealer_hint_pending(self) -> int | None: ...

    def hand_tokens(self, seat: int) -> list[tuple[Card, str]]: ...

    def end_match_reason(self) -> str | None: ...

    def writer_name(self) -> str: ...



SUIT_NAMES = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


@dataclass(frozen=True, slots=True)
class CardVM:
    """One card as drawn: a button named like "7 of hearts"."""

    code: str  # "10H"; "" for a face-down card
    rank: str  # "10", "A"
    suit: str  # "hearts"
    symbol: str  # "♥"
    label: str  # "10 of hearts"
    red: bool
    face_down: bool = False
    horizontal: bool = False
    order: int = 0  # 1..4: position in the selected play; 0: not selected
    marker: str = ""  # "white" / "black" marker on this card (every 10th card)
    prophet: bool = False  # the prophet's marker stands after this card
    prophet_end: bool = False  # an overthrown prophet's era ended after this card
    n: int = 0
    token: str = ""  # a hand card's selection token ("QS", "QS#1" for a second copy)


def card_vm(card: Card | None, **kw: Any) -> CardVM:
    """The view of a card (``None``: face down)."""
    if card is None:
        return CardVM("", "", "", "", "face-down card", False, face_down=True, **kw)
    return CardVM(
        card.code,
        rank_code(card.rank),
        card.suit.noun,
        card.suit.symbol,
        card.name,
        card.red,
        **kw,
    )


@dataclass(frozen=True, slots=True)
class ColumnVM:
    """A mainline card and the wrong cards played under it (its sideline)."""

    card: CardVM
    sideline: tuple[CardVM, ...]
    last: bool = False


@dataclass(frozen=True, slots=True)
class ControlVM:
    """A button: its plain name, the intent it sends, and why it is disabled."""

    name: str
    intent: dict[str, Any]
    enabled: bool
    reason: str = ""
    primary: bool = False
    key: str = ""


@dataclass(frozen=True, slots=True)
class SeatRowVM:
    """A line of the scoreboard."""

    seat: int
    name: str
    role: str
    kind: str
    cards: int
    lives: int
    turn: bool
    viewer: bool
    note: str = ""
    total: int | None = None  # a match: points from the finished rounds


@dataclass(frozen=True, slots=True)
class ReadingVM:
    """A guess written in plain English, as the game read it (to confirm before judging).

    ``rules``: the rules it was read as, each ``(rule text, its English)``: one
    when understood, several when the text could mean different rules;
    ``message`` and ``suggestions`` when it was not understood.
    """

    rules: tuple[tuple[str, str], ...] = ()
    message: str = ""
    suggestions: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GuessVM:
    """The rule editor for a guess: live check, English, the last verdict."""

    text: str
    error: str
    english: str
    verdict: str = ""
    right: bool | None = None
    #: the text read as plain English (when it is not the rule language), or None
    reading: ReadingVM | None = None


def english_reading(text: str) -> ReadingVM | None:
    """How the game reads ``text`` as plain English (None: empty, or the rule language).

    Never a guess judged on a misreading: an ambiguous text gives every
    reading to choose from, a text not understood gives forms to try. The
    reader knows English only: on a page in another language a text it cannot
    read says so in the player's language, without English forms to try.
    """
    return _english_reading(text, language())


@functools.lru_cache(maxsize=128)
def _english_reading(text: str, lang: str) -> ReadingVM | None:
    if not text.strip() or not rule_check(text)[0]:
        return None
    reading = from_english(text)
    rules = (reading.rule,) if reading.rule is not None else reading.candidates
    out = []
    for r in rules[:4]:
        try:
            out.append((str(r), r.describe(lang)))
        except Exception:  # English is a courtesy; the rule text still reads
            out.append((str(r), ""))
    if not out and lang != "en":
        return ReadingVM((), _("Sentences are read in English only: write your guess in "
                               "English or in the rule language."), ())
    return ReadingVM(tuple(out), reading.message, tuple(reading.suggestions[:4]))


@dataclass(frozen=True, slots=True)
class TableVM:
    """Everything the table screen shows for the viewer."""

    title: str
    round_label: str
    status: str  # whose turn, what the table waits for
    stock: int
    played: int
    sudden_death: bool
    prophet: str
    columns: tuple[ColumnVM, ...]
    hints: tuple[str, ...]
    seats: tuple[SeatRowVM, ...]
    hand: tuple[CardVM, ...]
    hand_owner: str
    hidden: bool  # hot-seat: hands hidden behind "pass the device"
    pass_to: str
    pass_then: str  # what "I am NAME: ..." does: "show my hand", or "go on" (no cards)
    controls: tuple[ControlVM, ...]
    calls: tuple[ControlVM, ...]  # prophet's or dealer's Right / Wrong
    call_title: str
    message: str
    guess: GuessVM | None
    hint_editor: bool = False
    hint_text: str = ""
    last_event: str = ""
    sideline_total: int = 0
    pending: tuple[CardVM, ...] = ()
    marks: tuple[str, ...] = field(default=())
    turns_label: str = ""
    log: tuple[str, ...] = ()  # the last moves, newest first
    expanded: tuple[int, ...] = ()  # columns whose sidelines are shown in full
    judge_card: str = ""  # the card a prophet or dealer chose for a "wrong" call
    hand_stop: str = ""  # the hand card that takes the Tab stop (the others: arrow keys)
    #: Learn to play: the lesson's step (None outside the lesson)
    coach: CoachVM | None = None
    #: Royal Eleusis: the chosen cards in order, each (token, name, bet accepted?)
    bet_plan: tuple[tuple[str, str, bool], ...] = ()


# --------------------------------------------------------------------------- words


def rule_check(text: str) -> tuple[str, str]:
    """``(error, english)`` for a rule text typed in an editor (error "" when it parses)."""
    if not text.strip():
        return ("", "")
    try:
        rule = parse(text)
    except RuleSyntaxError as exc:
        return (str(exc), "")
    try:
        return ("", rule.describe(language()))
    except Exception:  # English is a courtesy; never block a valid rule
        return ("", "")


@dataclass(frozen=True, slots=True)
class Analysis:
    """The dealer's aid for a written rule, in words (from :func:`eleusis.rules.analyse`)."""

    rate: str
    lines: tuple[str, ...]  # warnings (too permissive/restrictive, dead end), then notes
    playable: bool


def analysis(text: str) -> Analysis | None:
    """Acceptance rate, warnings and notes of :func:`eleusis.rules.analyse` (None: bad rule).

    Worked out once per rule text and language (a redraw of the editor does not run 40
    games again; a switch of language says the same findings in the new one).
    """
    return _analysis(text, language())


@functools.lru_cache(maxsize=32)
def _analysis(text: str, lang: str) -> Analysis | None:
    try:
        rule = parse(text)
    except RuleSyntaxError:
        return None
    try:
        a = analyse(rule, random.Random(1), games=40)
    except Exception:  # the analysis is an aid; a rule it cannot analyse is still playable
        return None
    lines = [w[:1].upper() + w[1:] + "." for w in (*a.warnings, *a.notes)]
    if not a.warnings:
        lines.insert(0, _("A playable rule: no dead end, neither too permissive nor too "
                          "restrictive."))
    return Analysis(_("{percent} % of cards are right on a typical play").format(
                        percent=round(a.acceptance_rate * 100)),
                    tuple(lines), not a.warnings)


def try_card(text: str, line: Sequence[Card]) -> tuple[tuple[str, bool], ...]:
    """What the rule says about each of the 52 cards after the mainline ``line``."""
    return _try_card(text, tuple(line))


@functools.lru_cache(maxsize=64)
def _try_card(text: str, line: tuple[Card, ...]) -> tuple[tuple[str, bool], ...]:

    try:
        rule = parse(text)
    except RuleSyntaxError:
        return ()
    return tuple((c.code, bool(rule.accepts(list(line), c))) for c in ALL_CARDS)


def link_problem(what: str, exc: Exception) -> tuple[str, str]:
    """What to tell a player whose ``what`` link ("replay", "challenge") cannot be opened.

    Returns (the sentence, the technical detail for "What went wrong").

    >>> link_problem("replay", ValueError("the replay is cut short"))[0][:56]
    'This replay link cannot be opened: it is damaged or inco'
    """
    detail = str(exc)
    newer = "version" in detail or "format" in detail
    return _(LINK_PROBLEMS[what == "challenge", newer]), detail


#: What :func:`link_problem` says, by (a challenge link?, made by another version?).
LINK_PROBLEMS: Final = {
    (False, True): N_("This replay link cannot be opened here: it was made by another version "
                      "of Eleusis. Reload the page to update, then open the link again."),
    (False, False): N_("This replay link cannot be opened: it is damaged or incomplete. Ask "
                       "whoever sent it to copy the whole link again."),
    (True, True): N_("This challenge link cannot be opened here: it was made by another "
                     "version of Eleusis. Reload the page to update, then open the link again."),
    (True, False): N_("This challenge link cannot be opened: it is damaged or incomplete. Ask "
                      "whoever sent it to copy the whole link again."),
}


# --------------------------------------------------------------------------- the table


def _status(sv: SeatView, names: Sequence[str], viewer: int | None, window: int | None,
            several: bool = False, left: int | None = None) -> str:
    """The turn line: whose turn, what the viewer may do (``several``: people share
    the device, so a turn names its person)."""
    if sv.result is not None:
        return _("The round is over.")
    if window is not None and window == viewer:
        guess = "guess" in sv.legal.kinds
        if left is None:  # the table waits (the slow and normal paces)
            return (_("You may guess the rule now, or press Go on.") if guess
                    else _("You may declare yourself prophet now, or press Go on."))
        return (_("You may guess the rule now: the table goes on in {seconds} s.") if guess
                else _("You may declare yourself prophet now: the table goes on in {seconds} s.")
                ).format(seconds=left)
    if sv.phase == Phase.PROPHET_CALL.value and sv.prophet is not None:
        if sv.prophet == viewer:
            return _("As the prophet, call the last play: right or wrong?")
        return _("Waiting for the prophet ({name}) to call the play.").format(
            name=names[sv.prophet])
    if sv.phase == Phase.JUDGE.value and sv.dealer is not None:
        if sv.dealer == viewer:
            return _("As the dealer, judge the last play: right or wrong?")
        return _("Waiting for the dealer ({name}) to judge.").format(name=names[sv.dealer])
    if sv.phase == Phase.FINAL_GUESS.value:
        return _("The turns are used up: one last guess, or end the game.")
    if sv.turn == viewer:
        return _("{name}, your turn.").format(name=names[viewer]) if several else _("Your turn.")
    return _("It is {name}'s turn.").format(name=names[sv.turn])


def lesson_coach(s: Session) -> CoachVM | None:
    """The lesson's step, while the session is the guided round (:mod:`.tutorial`)."""
    lesson = s.extra.get(tutorial.EXTRA_KEY)
    if not isinstance(lesson, dict):
        return None
    return tutorial.coach(s.state, lesson.get("read") is True)


def _hand_stop(hand: Sequence[CardVM], focus: str, selection: Sequence[str]) -> str:
    """The one hand card in the Tab order: the last one moved to with the arrows, else
    the first chosen, else the first card."""
    tokens = [x.token for x in hand]
    for want in (focus, *selection):
        if want in tokens:
            return want
    return tokens[0] if tokens else ""


def _control(name: str, intent: dict[str, Any], enabled: bool, reason: str,
             primary: bool = False, key: str = "") -> ControlVM:
    return ControlVM(_(name), intent, enabled, "" if enabled else reason, primary, key or name)


def table_model(c: Table) -> TableVM:
    """The table as the controller's viewer sees it."""
    s = c.session
    assert s is not None
    state = s.state
    viewer = c.ui.viewer
    hidden = c.needs_pass()
    seat_for_view = None if hidden else viewer
    sv = view(state, seat_for_view)
    names = state.config.names
    legal = sv.legal
    kinds = set(legal.kinds)
    variant = state.config.variant.value
    window = c.window_open()

    marks = {m.n: m.kind for m in sv.markers if m.kind in ("white", "black")}
    prophet_at = {m.n for m in sv.markers if m.kind == "prophet"}
    ended_at = {m.n for m in sv.markers if m.kind == "prophet_end"}
    columns = []
    for i, col in enumerate(sv.layout):
        vc = col.card
        cv = card_vm(vc.card, horizontal=vc.horizontal, n=vc.n, marker=marks.get(vc.n, ""),
                     prophet=vc.n in prophet_at, prophet_end=vc.n in ended_at)
        side = tuple(
            card_vm(x.card, horizontal=x.horizontal, n=x.n, marker=marks.get(x.n, ""),
                    prophet=x.n in prophet_at, prophet_end=x.n in ended_at)
            for x in col.sideline
        )
        columns.append(ColumnVM(cv, side, i == len(sv.layout) - 1))

    hand_cards: tuple[CardVM, ...] = ()
    if seat_for_view is not None:
        sel = c.ui.selection
        hand_cards = tuple(
            card_vm(card, order=(sel.index(tok) + 1) if tok in sel else 0, token=tok)
            for card, tok in c.hand_tokens(seat_for_view)
        )

    vi = variant_info(state.config.variant)
    your_turn = "play" in kinds or "bet" in kinds
    waiting = _("Pass the device first.") if hidden else ""

    def why(kind: str) -> str:
        """Why ``kind`` is not allowed now: the engine's words."""
        return waiting or legal.reason(kind) or _("Not now.")

    controls: list[ControlVM] = []
    n_sel = len(c.ui.selection)
    play_reason = why("bet" if vi.bets else "play")
    if your_turn and n_sel == 0:
        play_reason = (
            _("Choose 1 to {count} cards first (click them in the order to play).").format(
                count=legal.max_cards)
            if legal.max_cards > 1 else _("Choose a card first.")
        )
    if your_turn and window is not None and window != viewer:
        play_reason = _("Waiting for the last player to finish.")
    if vi.bets:
        bet_turn = "bet" in kinds
        reason = why("bet")
        ok = False
        if bet_turn and not hidden:
            bet_marks = [tok not in c.ui.bet_refused for tok in c.ui.selection]
            try:
                _arranged, seq = arrange_bet([Card.parse("AS")] * len(bet_marks), bet_marks)
            except ActionError as exc:
                reason = exc.message if bet_marks else _("Choose the cards to bet first.")
            else:
                ok = seq in legal.bet_kinds
                reason = "" if ok else _("Not enough cards in your hand for that bet.")
        controls.append(_control(N_("Bet"), {"type": "bet"}, ok, reason, True, key="bet"))
    else:
        controls.append(_control(N_("Play"), {"type": "play"}, your_turn and n_sel > 0
                                 and not hidden, play_reason, True))
    if vi.no_play:
        controls.append(_control(N_("No play"), {"type": "no_play"},
                                 "no_play" in kinds and not hidden, why("no_play")))
    if vi.prophet:
        controls.append(_control(N_("Declare prophet"), {"type": "declare_prophet"},
                                 "declare_prophet" in kinds and not hidden,
                                 why("declare_prophet")))
    if vi.guesses:
        controls.append(_control(N_("Guess the rule"), {"type": "guess_open", "open": True},
                                 "guess" in kinds and not hidden, why("guess")))
    if vi.stop and "pass" in kinds:
        controls.append(_control(N_("End the game"), {"type": "pass"}, True, ""))
    if state.config.dealer is None and vi.hints:
        controls.append(_control(N_("Ask for a hint"), {"type": "hint_request"},
                                 "request_hint" in kinds and not hidden, why("request_hint"),
                                 key="hint"))
    if window is not None and window == viewer:
        controls.append(_control(N_("Go on"), {"type": "continue"}, True, "", True,
                                 key="Continue"))
    if seat_for_view is not None and sv.seats[seat_for_view].role in ("prophet", "dealer"):
        # a prophet or a dealer does not play: only their own controls stay
        controls = [x for x in controls if x.key in ("hint", "Continue")]
    dealer_hint = c.dealer_hint_pending()
    if dealer_hint is not None and dealer_hint == viewer and not hidden:
        controls = [_control(N_("Start play"), {"type": "dealer_ready"}, True, "", True)]

    calls: list[ControlVM] = []
    call_choices: tuple[Card, ...] = ()
    call_title = ""
    pending_cards: tuple[CardVM, ...] = ()
    p = sv.pending
    if p is not None and not hidden:
        pending_cards = tuple(card_vm(x) for x in p.cards)
        if "prophet_call" in kinds or "judge" in kinds:
            kind = "call" if "prophet_call" in kinds else "judge"
            who = names[p.seat]
            if p.kind == "bet":
                bet_card = p.cards[p.index]
                call_title = (_("{name} bets that the {card} is accepted. Is it right?")
                              if p.text[p.index] == "A" else
                              _("{name} bets that the {card} is refused. Is it right?")
                              ).format(name=who, card=card_name(bet_card))
                pending_cards = (card_vm(bet_card),)
            else:
                call_title = {
                    "play": _("{name} played {cards}. Is it right?"),
                    "no_play": _("{name} declared no play. Is it right?"),
                    "guess": _("{name} guessed: {text}. Is it right?"),
                }[p.kind].format(name=who, text=p.text,
                                 cards=", ".join(card_name(x) for x in p.cards))
            calls.append(_control(N_("Right"), {"type": kind, "right": True}, True, "", True))
            names_card = p.kind == "no_play" or (p.kind == "bet" and p.text[p.index] == "R")
            choices = tuple(sorted(legal.call_cards, key=lambda x: x.sort_key))
            if p.kind == "bet" and names_card:
                choices = tuple(dict.fromkeys(sorted(state.hand(p.seat),
                                                     key=lambda x: x.sort_key)))
            if names_card:
                chosen = c.ui.judge_card
                ok = bool(chosen) and any(x.code == chosen for x in choices)
                call_choices = choices
                calls.append(_control(
                    N_("Wrong"), {"type": kind, "right": False, "card": chosen}, ok,
                    _("Wrong needs a correct card from the player's hand: choose it below.")))
            else:
                calls.append(_control(N_("Wrong"), {"type": kind, "right": False}, True, ""))

    hints = sv.hints
    totals: list[int] | None = None
    if s.planned_rounds > 1:
        totals = [0] * len(names)
        for r in s.rounds:
            if r.result is not None:
                for i, sc in enumerate(r.result.scores):
                    totals[i] += sc
    waited_for = waiting_for(state)
    rows = []
    for info in sv.seats:
        k = s.kinds[info.seat]
        note = ""
        if info.lives:
            note = "♥" * info.lives
        if info.wrong_guesses:
            n = info.wrong_guesses
            note = (note + " " + ngettext("{count} wrong guess", "{count} wrong guesses", n
                                          ).format(count=n)).strip()
        rows.append(SeatRowVM(
            info.seat, info.name, info.role,
            "computer" if k == "computer" else ("person" if k in HUMAN_KINDS else k),
            info.cards + info.set_aside, info.lives,
            info.seat in waited_for, info.seat == viewer, note,
            totals[info.seat] if totals is not None else None,
        ))

    guess = None
    if c.ui.guess_open and not hidden:
        err, eng = rule_check(c.ui.guess_text)
        verdict, right = last_guess(sv.events, viewer)
        guess = GuessVM(c.ui.guess_text, err, eng, verdict, right,
                        english_reading(c.ui.guess_text) if err else None)

    # the last moves, newest first, told from the viewer's seat with their consequences
    recent = [ev for ev in sv.events[-40:] if ev.kind not in ("deal", "starter", "hint")]
    log = narrate.describe_events(recent, names, viewer)[-6:][::-1]
    last = log[0] if log else ""

    title = _(VARIANTS.get(s.setup.variant, variant))
    round_label = (_("Round {number} of {count}").format(number=len(s.rounds),
                                                          count=s.planned_rounds)
                   if s.planned_rounds > 1 else "")
    prophet = ""
    if sv.prophet is not None:
        prophet = _("Prophet: {name} (since card {number})").format(
            name=names[sv.prophet], number=state.eras[-1].start)
    return TableVM(
        title=title,
        round_label=round_label,
        status=(_("As the dealer, you may give the players a hint before play starts.")
                if dealer_hint is not None and dealer_hint == viewer else
                _status(sv, names, viewer, window, len(s.humans()) > 1,
                        c.ui.window_left)) if not hidden else "",
        stock=sv.stock,
        played=sv.played,
        sudden_death=sv.sudden_death,
        prophet=prophet,
        columns=tuple(columns),
        hints=hints,
        seats=tuple(rows),
        hand=hand_cards,
        hand_owner=names[viewer] if viewer is not None else "",
        hidden=hidden,
        pass_to=names[viewer] if hidden and viewer is not None else "",
        pass_then=(_("show my hand") if viewer is not None and state.hand(viewer)
                   else _("go on")),
        controls=tuple(controls),
        calls=tuple(calls),
        call_title=call_title,
        message=c.ui.message,
        guess=guess,
        hint_editor=("hint" in kinds) and not hidden,
        hint_text=c.ui.hint_text,
        last_event=last,
        sideline_total=sum(len(col.sideline) for col in sv.layout),
        pending=pending_cards,
        marks=tuple(x.code for x in call_choices) if calls else (),
        log=tuple(log),
        expanded=tuple(c.ui.expanded),
        hand_stop=_hand_stop(hand_cards, c.ui.hand_focus, c.ui.selection),
        coach=lesson_coach(s),
        bet_plan=tuple((x.token, x.label, x.token not in c.ui.bet_refused)
                       for tok in c.ui.selection for x in hand_cards if x.token == tok)
        if vi.bets and "bet" in kinds and not hidden else (),
        judge_card=c.ui.judge_card,
        turns_label=(_("Turn {number} of {count}").format(
                         number=sv.turns, count=state.config.option("max_turns"))
                     if any(o.name == "max_turns" for o in vi.options) else ""),
    )


def said_in_language(text: str, english: str) -> str:
    """A computer's hypothesis in the player's language (its English when that fails)."""
    if language() == "en" or not text:
        return english
    try:
        return parse(text).describe(language())
    except RuleSyntaxError:
        return english


def last_guess(events: Sequence[Event], seat: int | None) -> tuple[str, bool | None]:
    """The verdict on ``seat``'s last guess, with the counterexample when wrong."""
    for i in range(len(events) - 1, -1, -1):
        ev = events[i]
        if ev.kind == "guess" and ev.seat == seat:
            if ev.right is None:
                return (_("Waiting for the dealer's verdict."), None)
            if ev.right:
                return (_("Right! That is the rule."), True)
            why = ""
            if i + 1 < len(events) and events[i + 1].kind == "counterexample":
                why = " " + narrate.counterexample(events[i + 1].text)
            text = _("Wrong.") + (" " + why[1:2].upper() + why[2:] if why else "")
            return (text if text.endswith(".") else text + ".", False)
    return ("", None)


# --------------------------------------------------------------------------- end of round


@dataclass(frozen=True, slots=True)
class ScoreRowVM:
    """One seat's score with its breakdown."""

    name: str
    score: int
    detail: str
    total: int


@dataclass(frozen=True, slots=True)
class MatchRowVM:
    """One seat in the match summary: a line per round, the compensation, the total."""

    name: str
    lines: tuple[str, ...]  # "Round 1: 8", "Round 2 (dealer): 12", "Compensation ...: +10"
    compensation: int
    total: int


@dataclass(frozen=True, slots=True)
class MatchVM:
    """The match summary: rounds played, compensation when ended early, totals."""

    rounds_played: int
    planned: int
    ended_early: bool
    note: str  # what the compensation is (or why there is none)
    rows: tuple[MatchRowVM, ...]
    winner: str = ""  # "Curie wins the match with 14 points."


@dataclass(frozen=True, slots=True)
class RoundEndVM:
    """The end of a round: the rule revealed, the scores, what the computers thought."""

    title: str
    reason: str
    rule: str
    english: str
    scores: tuple[ScoreRowVM, ...]
    thoughts: tuple[tuple[str, tuple[tuple[str, str, float], ...]], ...]
    next_label: str
    match_over: bool
    match: MatchVM | None = None  # the match summary, once the match is over
    can_end_match: bool = False  # between two rounds of a match: "End the match here"
    end_question: str = ""  # "End the match here" pressed: the confirmation's question
    how_note: str = ""  # how the variant scores, in a sentence (under the score table)
    in_match: bool = False  # a round of a match: the score table has a Total column
    round_no: int = 1
    lesson: str = ""  # Learn to play: the lesson's last word


#: How each variant scores a round (the "How" column's figures, in words).
HOW_NOTES: dict[str, str] = {
    "new_eleusis": N_("High count (the most cards anyone holds) minus your cards; +4 with no "
                      "cards left; a true prophet adds 1 per right and 2 per wrong card after "
                      "the marker; the dealer scores the best player's score, capped by twice "
                      "the cards played before the true prophet."),
    "royal": N_("High count (the most cards anyone holds) minus your cards; +4 with no cards "
                "left; a prophet adds 1 per right and 2 per wrong bet in their era (halved for "
                "a false prophet); God scores the best scientist's score, capped by twice the "
                "cards played before the true prophet."),
    "express": N_("12 minus the cards left in your hand; +6 for guessing the rule; +3 for an "
                  "empty hand; the dealer scores as the best player."),
    "solo": N_("Found: 30 minus the turns used, minus 2 per wrong guess. Not found: minus 2 "
               "per wrong guess."),
}


def end_match_question(c: Table) -> str:
    """The confirmation asked before a match is ended early: what counts, what is lost."""
    s = c.session
    assert s is not None
    done = sum(1 for r in s.rounds if r.over)
    text = ngettext("End the match now? The finished round counts.",
                    "End the match now? The {count} finished rounds count.", done
                    ).format(count=done)
    if not s.state.over:
        text += " " + _("This round is not finished and will not count.")
    if compensates(s.state.config.variant.value):
        return text + " " + _("Everyone who has never dealt gets the compensation.")
    return text + " " + _("This variant has no compensation.")


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else ("0" if n == 0 else f"\u2212{-n}")


def compensation_of(c: Table) -> tuple[int, ...]:
    """The variant's compensation of a match ended early (zeros otherwise): the engine's
    :attr:`eleusis.match.Match.compensation`."""
    s = c.session
    assert s is not None
    return s.match.compensation


def match_model(c: Table) -> MatchVM:
    """The match summary: each seat's rounds, compensation (if ended early) and total."""
    s = c.session
    assert s is not None
    names = s.state.config.names
    done = [r for r in s.rounds if r.result is not None]
    comp = compensation_of(c)
    dealers = {r.config.dealer for r in done if r.config.dealer is not None}
    variant = s.state.config.variant.value
    rows = []
    for i, name in enumerate(names):
        lines = []
        total = 0
        for k, r in enumerate(done):
            assert r.result is not None
            sc = r.result.scores[i]
            total += sc
            line = (_("Round {number} (dealer): {score}") if r.config.dealer == i
                    else _("Round {number}: {score}"))
            lines.append(line.format(number=k + 1, score=sc))
        if s.ended_early and i not in dealers and compensates(variant):
            lines.append(_("Compensation (never dealt): {points}").format(
                points=_signed(comp[i])))
        total += comp[i]
        rows.append(MatchRowVM(name, tuple(lines), comp[i], total))
    name = _(VARIANTS.get(s.setup.variant, variant))
    note = ""
    if s.ended_early:
        note = _("The match was ended early, after {done} of {count} rounds.").format(
            done=len(done), count=s.planned_rounds)
        if all(i in dealers for i in range(len(names))):
            note += " " + _("Everyone has dealt: no compensation.")
        else:
            note += " " + variant_info(s.state.config.variant).compensation
    best = max((r.total for r in rows), default=0)
    leaders = [r.name for r in rows if r.total == best]
    if len(leaders) == 1:
        said = (_("You win the match with {points} points.")
                if leaders[0] in ("You", _("You"))
                else _("{name} wins the match with {points} points."))
        winner = said.format(name=leaders[0], points=best)
    else:
        winner = _("{names} and {name} share the lead with {points} points.").format(
            names=", ".join(leaders[:-1]), name=leaders[-1], points=best)
    return MatchVM(len(done), s.planned_rounds, s.ended_early, note, tuple(rows), winner)


def compensates(variant: str) -> bool:
    """Whether the variant compensates a match ended early (its engine rules say so)."""
    return variant_info(variant).compensates


def round_end_model(c: Table,
                    thoughts: dict[int, list[tuple[str, str, float]]] | None = None
                    ) -> RoundEndVM:
    """The end-of-round screen (``thoughts``: computer seats' top hypotheses)."""
    s = c.session
    assert s is not None and s.state.result is not None
    state = s.state
    result = state.result
    assert result is not None
    names = state.config.names
    rule = state.config.rule or ""
    english = ""
    english = rule_check(rule)[1] if rule else _("The dealer judged every play by hand.")
    totals = list(compensation_of(c))
    for r in s.rounds:
        if r.result is not None:
            for i, sc in enumerate(r.result.scores):
                totals[i] += sc
    hints_by: dict[int, int] = {}
    for h in state.hints:
        if h.level > 0:
            hints_by[h.seat] = hints_by.get(h.seat, 0) + 1
    rows = []
    for i, name in enumerate(names):
        detail = result.details[i] if i < len(result.details) else ""
        if hints_by.get(i):
            n = hints_by[i]
            asked = ngettext("asked for {count} hint", "asked for {count} hints", n)
            detail = (detail + " · " + asked.format(count=n)).strip(" ·")
        if result.floored:  # the variant shows a floored score (Solo: the benchmark's)
            detail = (detail + " · " + _("benchmark score {score}").format(
                score=result.floored[i])).strip(" ·")
        rows.append(ScoreRowVM(name, result.scores[i], detail, totals[i]))
    match_over = s.match_over
    # each scientist's best guess, and the runners-up that still carry some weight;
    # an empty list says no rule it can think of fits every play (shown as such)
    th = tuple(
        (names[seat] if 0 <= seat < len(names) else _("A computer scientist watching"),
         tuple((x[0], said_in_language(x[0], x[1]), x[2])
               for k, x in enumerate(h) if k == 0 or x[2] >= 0.01))
        for seat, h in sorted((thoughts or {}).items())
    )
    return RoundEndVM(
        title=(_("{variant}: the match is over")
               if s.planned_rounds > 1 and match_over else
               _("{variant}: round {number} is over")
               if s.planned_rounds > 1 else
               _("{variant}: the round is over")).format(
                   variant=_(VARIANTS.get(s.setup.variant, "")), number=len(s.rounds)),
        reason=narrate.why(result.reason),
        rule=rule,
        english=english,
        scores=tuple(rows),
        thoughts=th,
        next_label=_("Play again") if match_over else _("Next round"),
        match_over=match_over,
        match=match_model(c) if match_over and s.planned_rounds > 1 else None,
        can_end_match=c.end_match_reason() is None,
        how_note=_(HOW_NOTES[state.config.variant.value])
        if state.config.variant.value in HOW_NOTES else "",
        in_match=s.planned_rounds > 1,
        round_no=len(s.rounds),
        end_question=(end_match_question(c) if c.ui.confirm_end
                      and c.end_match_reason() is None else ""),
        lesson=lesson.text if (lesson := lesson_coach(s)) is not None else "",
    )


# --------------------------------------------------------------------------- bar and editor


@dataclass(frozen=True, slots=True)
class ToolbarVM:
    """The bar above every screen: the title and the always-there controls."""

    title: str
    pace: str
    paces: tuple[str, ...]
    contrast: bool
    end: ControlVM | None  # "End match", during a match
    confirm: str  # the question asked before a match ends early ("": not asked now)


def toolbar_model(c: Table, title: str) -> ToolbarVM:
    """The toolbar for the screen now shown."""
    end = None
    confirm = ""
    s = c.session
    if s is not None and s.planned_rounds > 1 and not s.match_over and c.ui.screen in (
            "table", "round-end", "write-rule"):
        why = c.end_match_reason()
        end = ControlVM(_("End match"), {"type": "end_match"}, why is None, why or "",
                        key="tb-end")
        if c.ui.confirm_end and why is None and c.ui.screen != "round-end":
            confirm = end_match_question(c)  # (the round's end asks by its own button)
    return ToolbarVM(title, c.ui.setup.pace, tuple(PACES), bool(c.ui.contrast), end, confirm)


@dataclass(frozen=True, slots=True)
class WriteRuleVM:
    """A person dealing writes the secret rule: the text, its check, the aids."""

    ready: bool  # hot-seat: False until the writer holds the device
    writer: str
    text: str
    error: str
    english: str
    analysis: Analysis | None
    try_line: tuple[CardVM, ...]  # the mainline built to try the rule on
    try_results: tuple[tuple[str, bool], ...]  # each card's verdict after that line
    try_suit: str
    can_deal: bool
    message: str
    reading: ReadingVM | None = None  # the text read as plain English (to use its rule)


def write_rule_model(c: Table) -> WriteRuleVM:
    """The rule editor as the writer sees it (the analysis is worked out once per text)."""
    text = c.ui.rule_text
    err, eng = rule_check(text)
    ok = bool(text.strip()) and not err
    line = tuple(Card.parse(x) for x in c.ui.try_line)
    return WriteRuleVM(
        ready=bool(c.ui.writer_ready),
        writer=c.writer_name(),
        text=text,
        error=err,
        english=eng,
        analysis=analysis(text) if ok else None,
        try_line=tuple(card_vm(x) for x in line),
        try_results=try_card(text, line) if ok else (),
        try_suit=c.ui.try_suit,
        can_deal=ok,
        message=c.ui.message,
        reading=english_reading(text) if err else None,
    )


# --------------------------------------------------------------------------- new game


@dataclass(frozen=True, slots=True)
class SeatPlanVM:
    """One seat of the new-game form."""

    index: int
    name: str
    kind: str  # "you", "person", "computer"
    strength: str


@dataclass(frozen=True, slots=True)
class SetupVM:
    """The new-game screen: the choices, what each means, the saved games."""

    variant: str
    variants: tuple[tuple[str, str, str], ...]  # (key, name, why not available or "")
    seats: tuple[SeatPlanVM, ...]
    strengths: tuple[str, ...]
    opponents: tuple[int, int]  # fewest and most other scientists
    dealer_choice: bool  # may a person deal in this variant?
    dealer: str
    dealers: tuple[tuple[str, str], ...]  # (key, short name)
    dealer_note: str
    dealer_name: str
    difficulty: str
    match_choice: bool
    match: bool
    match_note: str
    message: str
    saves: tuple[tuple[str, str], ...]  # (id, title), newest first
    notes: tuple[str, ...]
    deleted: str  # the title of a game deleted a moment ago ("Undo")
    damaged: int = 0  # copies of unreadable saves kept aside (offered for deletion)
    written_for: str = ""  # the table sizes the variant's rules were written for


#: The dealer choices, short enough for a phone's select; the chosen one is explained below.
DEALER_SHORT = {"computer": N_("The computer"), "writer": N_("A person writes the rule"),
                "judge": N_("A person judges by hand")}
DEALER_NOTES = {
    "computer": N_("The computer picks a secret rule from its library and judges every play."),
    "writer": N_("A person here writes the secret rule; the game judges every play by it."),
    "judge": N_("A person here judges every play by hand (for a table with real cards)."),
}


def setup_model(c: Table, saves: Sequence[Mapping[str, object]], notes: Sequence[str],
                deleted: str = "", damaged: int = 0) -> SetupVM:
    """The new-game form as chosen so far, and the saved games to continue."""
    st = c.ui.setup
    vi = variant_info(engine_variant(st.variant))
    match_note = ""
    if st.match and vi.rotates:
        first = (_("You deal the first round.") if st.dealer != "computer"
                 else _("The computers deal first; you deal the last round."))
        match_note = _("Each player deals one round in turn.") + " " + first
    return SetupVM(
        variant=st.variant,
        variants=tuple((k, _(name), variant_available(k) or "") for k, name in VARIANTS.items()),
        seats=tuple(SeatPlanVM(i, p.name, p.kind, p.strength) for i, p in enumerate(st.seats)),
        strengths=tuple(STRENGTHS),
        opponents=seat_limits(st.variant),
        dealer_choice=vi.person_dealer,
        dealer=st.dealer,
        dealers=tuple((k, _(DEALER_SHORT[k]) if k in DEALER_SHORT else k) for k in DEALERS),
        dealer_note=_(DEALER_NOTES[st.dealer]) if st.dealer in DEALER_NOTES else "",
        dealer_name=st.dealer_name,
        difficulty=st.difficulty,
        match_choice=vi.rotates,
        match=bool(st.match),
        match_note=match_note,
        message=c.ui.message,
        saves=tuple((str(e["id"]), str(e["title"])) for e in saves),
        notes=tuple(notes),
        deleted=deleted,
        damaged=damaged,
        written_for=written_for(st.variant),
    )


def written_for(key: str) -> str:
    """The table sizes a variant's rules were written for, in a sentence (the engine's facts).

    >>> written_for("new_eleusis")
    'The rules were written for 4 players or more, the dealer included.'
    """
    if key == "solo":
        return _("One player against the computer dealer.")
    low, high = variant_info(engine_variant(key)).players_written_for
    if high is None:
        return _("The rules were written for {low} players or more, the dealer included."
                 ).format(low=low)
    return _("The rules were written for {low} to {high} players, the dealer included."
             ).format(low=low, high=high)
