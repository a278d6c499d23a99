"""Every sentence the engine says to players: events, reasons, endings, variant names.

The engine keeps its player-facing words here, as whole sentences with named
placeholders (``"{name} played {cards}: right."``), never glued fragments, so a
later translation can swap each template for another language's (gettext's
``_()`` fits around each one). Nothing here decides a rule: the sentences
describe what :mod:`eleusis.game` decided.

Events are told from one viewer's point of view: the viewer's own actions in
the second person ("You played 7 of hearts: right."), everyone else by name;
``viewer=None`` (a spectator, a replay) names everyone. A verdict is told with
its consequence (:func:`describe_events` joins "You played 3 of spades: wrong."
and "You draw 2 cards." in one line).

>>> from eleusis.cards import parse_cards
>>> from eleusis.state import Event
>>> names = ("Ann", "Bob")
>>> play = Event("play", 0, tuple(parse_cards("3S")), right=False)
>>> describe_events([play, Event("penalty", 0, count=2)], names, viewer=0)
['You played 3 of spades: wrong. You draw 2 cards.']
>>> describe_events([play, Event("penalty", 0, count=2)], names, viewer=1)
['Ann played 3 of spades: wrong. Ann draws 2 cards.']
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from eleusis.cards import Card, card_name
from eleusis.i18n import N_, Nn_, _, ngettext
from eleusis.state import Event

#: The variants' names, for people.
VARIANT_NAMES: Final[Mapping[str, str]] = {
    "new_eleusis": N_("New Eleusis"),
    "express": N_("Eleusis Express"),
    "solo": N_("Solo"),
    "royal": N_("Royal Eleusis"),
}

#: What happens to the points of a match ended early, per variant.
COMPENSATION: Final[Mapping[str, str]] = {
    "new_eleusis": N_("Everyone who has never dealt gets 10 extra points."),
    "royal": N_(
        "Everyone who has never been God gets the Gods' average score minus the"
        " scientists' average score, rounded to the nearest point."
    ),
    "express": N_("The rounds played are added up; there is no compensation."),
    "solo": N_("Solo has one round: there is nothing to compensate."),
}

#: Why an action is not allowed now (``Legal.reasons``), told to the seat itself.
REASONS: Final[Mapping[str, str]] = {
    "over": N_("The round is over."),
    "not_now": N_("This is not possible right now."),
    "not_an_action": N_("This is not something a player can do."),
    "not_in_variant": N_("There is no such move in {variant}."),
    "no_such_seat": N_("There is no such seat at this table."),
    "not_your_turn": N_("It is {name}'s turn."),
    "no_cards": N_("You have no cards to play."),
    "turns_used_up": N_("Your turns are used up: make a last guess or stop."),
    "waiting_for_prophet": N_("{name}, the prophet, is judging the play."),
    "waiting_for_dealer": N_("{name}, the dealer, is judging the play."),
    "out_of_round": N_("You are out of this round."),
    "dealer_does_not_play": N_("The dealer does not play: the scientists do."),
    "dealer_judges": N_("Only the dealer judges the plays."),
    "judged_by_rule": N_("The game judges every play with the rule you wrote."),
    "nothing_to_judge": N_("There is nothing to judge right now."),
    "prophet_calls": N_("Only the prophet calls the plays."),
    "nothing_to_call": N_("There is no play to call right now."),
    "prophet_does_not_play": N_("The prophet calls the plays and does not play."),
    "prophet_in_office": N_("A prophet is already in office: {name}."),
    "been_prophet": N_("You have already been prophet this round."),
    "too_few_for_prophet": N_(
        "A prophet needs at least two other scientists still playing besides the dealer."
    ),
    "declare_after_own_play": N_("You may declare yourself prophet only just after your own play."),
    "declare_between_turns": N_(
        "A prophet may be declared only between two turns, before the next bet."
    ),
    "guess_after_right_play": N_("You may guess the rule only just after one of your right plays."),
    "pass_after_last_turn": N_("You may stop only after your last turn."),
    "hint_dealer_only": N_("Only the dealer gives hints."),
    "hint_you_give": N_("You are the dealer: you give the hints."),
    "hint_ask_the_dealer": N_("{dealer} is dealing: ask them for a hint at the table."),
    "hint_before_first_play": N_("The dealer's hint comes with the deal, before the first play."),
    "hint_before_your_first_turn": N_("You may ask for a hint only before your first turn."),
    "hint_not_while_judging": N_("Wait until the play is judged."),
    "hint_royal_windows": N_(
        "There is one hint before the game and a second one just before sudden death."
    ),
    "hints_off": N_("There are no hints in this game."),
    "hints_closed": N_("No hint can be given right now."),
    "bet_order": N_(
        "Put the cards you bet will be accepted first; once you bet a card will be"
        " refused, bet on 4 cards in all."
    ),
    "bet_count": N_("Bet on 1 to 4 cards."),
}

#: Why an action's details are refused (:class:`~eleusis.state.IllegalAction` messages).
ERRORS: Final[Mapping[str, str]] = {
    "empty_text": N_("Write something first."),
    "text_too_long": N_("Write at most {limit} characters."),
    "bad_guess": N_("Your guess does not parse as a rule: {why}"),
    "bad_verdict": N_("Say whether it is right or wrong."),
    "card_not_expected": N_("Name a card only when you call a \u201cno play\u201d wrong."),
    "card_not_expected_bet": N_("Name a card only when you call a bet to refuse wrong."),
    "card_not_in_their_hand": N_("The card you name must come from the player's hand."),
    "card_required_dealer": N_(
        "When a \u201cno play\u201d is wrong, the dealer plays a card that was right:"
        " choose it from the player's hand."
    ),
    "card_required_prophet": N_(
        "When you call a \u201cno play\u201d wrong, you play a card that was right:"
        " choose it from the player's hand."
    ),
    "card_required_bet": N_(
        "When a bet to refuse is wrong, choose the acceptable card that goes to the mainline."
    ),
    "bad_cards": N_("Choose cards from your hand."),
    "no_cards": N_("Choose at least one card."),
    "too_many_cards_1": N_("Play 1 card at a time."),
    "too_many_cards": N_("Play at most {limit} cards at a time."),
    "card_not_in_hand": N_("The {card} is not in your hand."),
    "bet_count": N_("Choose one card for each bet."),
    "too_many_bets": N_("You cannot bet on more cards than you hold."),
}

#: Why a round ended (``Result.reason``), as a whole sentence.
ENDINGS: Final[Mapping[str, str]] = {
    "a player ran out of cards": N_("The round is over: a player ran out of cards."),
    "a scientist ran out of cards": N_("The round is over: a scientist ran out of cards."),
    "every player was expelled": N_("The round is over: every player was expelled."),
    "every scientist was expelled": N_("The round is over: every scientist was expelled."),
    "every player is out": N_("The round is over: every player is out."),
    "right guess": N_("The round is over: the rule was guessed."),
    "empty hand": N_("The round is over: a player has no cards left."),
    'right "no play" with one card': N_(
        "The round is over: a right \u201cno play\u201d with one card left the hand empty."
    ),
    "the stock ran out": N_("The round is over: the stock ran out."),
    "solved": N_("The game is over: the rule was found."),
    "out of turns": N_("The game is over: the turns are used up."),
}

# Event sentences: ``(for the viewer, for anyone else)``. The dealer's own events
# (the starter, a new deck, the end) have one form.
_YOU: Final = 0
_OTHER: Final = 1
_EVENTS: Final[Mapping[str, tuple[str, str]]] = {
    "play_right": (N_("You played {cards}: right."), N_("{name} played {cards}: right.")),
    "play_wrong": (N_("You played {cards}: wrong."), N_("{name} played {cards}: wrong.")),
    "play_judging": (N_("You played {cards}."), N_("{name} played {cards}.")),
    "no_play": (
        N_("You declared \u201cno play\u201d and showed your hand: {cards}."),
        N_("{name} declared \u201cno play\u201d and showed the hand: {cards}."),
    ),
    "no_play_right": (
        N_("Your \u201cno play\u201d was right: none of your cards could be played."),
        N_("{name}'s \u201cno play\u201d was right: none of those cards could be played."),
    ),
    "no_play_wrong": (
        N_("Your \u201cno play\u201d was wrong: one of your cards could be played."),
        N_("{name}'s \u201cno play\u201d was wrong: one of those cards could be played."),
    ),
    "dealer_plays": (
        N_("The dealer played {cards} from your hand."),
        N_("The dealer played {cards} from {name}'s hand."),
    ),
    # what a wrong play costs (New Eleusis' penalty cards, Royal's replacement and malus cards)
    "new_hand_0": (N_("You have no cards left."), N_("{name} has no cards left.")),
    "expelled": (N_("You are expelled from the round."), N_("{name} is expelled from the round.")),
    "no_lives": (
        N_("You have no lives left: you are out of the round."),
        N_("{name} has no lives left and is out of the round."),
    ),
    "guess_right": (
        N_("Your guess \u201c{text}\u201d is right."),
        N_("{name}'s guess \u201c{text}\u201d is right."),
    ),
    "guess_wrong": (
        N_("Your guess \u201c{text}\u201d is wrong."),
        N_("{name}'s guess \u201c{text}\u201d is wrong."),
    ),
    "guess_judging": (
        N_("You guessed the rule: \u201c{text}\u201d."),
        N_("{name} guessed the rule: \u201c{text}\u201d."),
    ),
    "prophet": (N_("You are now the prophet."), N_("{name} is now the prophet.")),
    "overthrow": (
        N_("You are overthrown as prophet and take your hand back."),
        N_("{name} is overthrown as prophet and takes back the hand set aside."),
    ),
    "call_play_right": (
        N_("As prophet, you judged the play right."),
        N_("{name}, the prophet, judged the play right."),
    ),
    "call_play_wrong": (
        N_("As prophet, you judged the play wrong."),
        N_("{name}, the prophet, judged the play wrong."),
    ),
    "call_no_play_right": (
        N_("As prophet, you judged the \u201cno play\u201d right."),
        N_("{name}, the prophet, judged the \u201cno play\u201d right."),
    ),
    "call_no_play_wrong": (
        N_("As prophet, you judged the \u201cno play\u201d wrong: {cards} could be played."),
        N_("{name}, the prophet, judged the \u201cno play\u201d wrong: {cards} could be played."),
    ),
    "call_bet_right": (
        N_("As prophet, you judged the bet right."),
        N_("{name}, the prophet, judged the bet right."),
    ),
    "call_bet_wrong": (
        N_("As prophet, you judged the bet wrong."),
        N_("{name}, the prophet, judged the bet wrong."),
    ),
    "call_bet_wrong_card": (
        N_("As prophet, you judged the bet wrong: {cards} could be played."),
        N_("{name}, the prophet, judged the bet wrong: {cards} could be played."),
    ),
    "verdict_A_right": (
        N_("Your bet that {cards} would be accepted was right."),
        N_("{name}'s bet that {cards} would be accepted was right."),
    ),
    "verdict_A_wrong": (
        N_("Your bet that {cards} would be accepted was wrong."),
        N_("{name}'s bet that {cards} would be accepted was wrong."),
    ),
    "verdict_R_right": (
        N_("Your bet that {cards} would be refused was right."),
        N_("{name}'s bet that {cards} would be refused was right."),
    ),
    "verdict_R_wrong": (
        N_("Your bet that {cards} would be refused was wrong."),
        N_("{name}'s bet that {cards} would be refused was wrong."),
    ),
    "hint_asked": (N_("You asked for a hint: {text}"), N_("{name} asked for a hint: {text}")),
    "hint_given": (N_("Your hint: {text}"), N_("The dealer's hint: {text}")),
    "pass": (N_("You stop without a last guess."), N_("{name} stops without a last guess.")),
}
#: Events that count something: ``(for the viewer, for anyone else)``, each
#: a (singular, plural) pair said with :func:`~eleusis.i18n.ngettext`.
_COUNTED: Final[Mapping[str, tuple[tuple[str, str], tuple[str, str]]]] = {
    # what a wrong play costs (New Eleusis' penalty cards, Royal's replacement and malus cards)
    "penalty": (
        Nn_("You draw {count} card.", "You draw {count} cards."),
        Nn_("{name} draws {count} card.", "{name} draws {count} cards."),
    ),
    "new_hand": (
        Nn_("You get a new hand of {count} card.", "You get a new hand of {count} cards."),
        Nn_("{name} gets a new hand of {count} card.",
            "{name} gets a new hand of {count} cards."),
    ),
    "lives": (
        Nn_("You have {count} life left.", "You have {count} lives left."),
        Nn_("{name} has {count} life left.", "{name} has {count} lives left."),
    ),
    "bet": (
        Nn_("You make {count} bet ({text}).", "You make {count} bets ({text})."),
        Nn_("{name} makes {count} bet ({text}).", "{name} makes {count} bets ({text})."),
    ),
}
_DEALER_EVENTS: Final[Mapping[str, str]] = {
    "starter": N_("The starter card is {cards}."),
    "new_deck": N_("The stock ran out: a new deck is shuffled in."),
    "hint": N_("The dealer's hint: {text}"),
    "end": N_("The round is over."),
}

#: Events that tell the consequence of the verdict before them (one line with it).
CONSEQUENCES: Final = frozenset(
    {"dealer_plays", "penalty", "new_hand", "expelled", "lives", "overthrow", "counterexample"}
)


#: Solo's score sheet line (the benchmark's formula "turns used - 2 x wrong guesses"),
#: by plural form of the turns.
_SOLO_SOLVED: Final = Nn_("{max_turns} - {turns} turn - 2 x {wrong} wrong guesses",
                          "{max_turns} - {turns} turns - 2 x {wrong} wrong guesses")
_SOLO_NOT_SOLVED: Final = N_("not solved: - 2 x {wrong} wrong guesses")


def moves(count: int) -> str:
    """A number of moves: ``"1 move"``, ``"12 moves"``.

    >>> moves(1), moves(12)
    ('1 move', '12 moves')
    """
    return ngettext("{count} move", "{count} moves", count).format(count=count)


def card_count(n: int) -> str:
    """A number of cards: ``"1 card"``, ``"5 cards"`` (Polish: 1 karta, 2 karty, 5 kart).

    >>> card_count(1), card_count(22)
    ('1 card', '22 cards')
    """
    return ngettext("{n} card", "{n} cards", n).format(n=n)


def solo_detail(solved: bool, max_turns: int, turns: int, wrong: int) -> str:
    """Solo's score line (the formula's second term counts the wrong guesses).

    >>> solo_detail(True, 30, 1, 0)
    '30 - 1 turn - 2 x 0 wrong guesses'
    >>> solo_detail(False, 30, 30, 1)
    'not solved: - 2 x 1 wrong guesses'
    """
    if solved:
        return ngettext(*_SOLO_SOLVED, turns).format(max_turns=max_turns, turns=turns, wrong=wrong)
    return _(_SOLO_NOT_SOLVED).format(wrong=wrong)


def reason(code: str, **params: str | int) -> str:
    """The sentence for a reason code of :data:`REASONS`.

    >>> reason("prophet_in_office", name="Bob")
    'A prophet is already in office: Bob.'
    """
    return _(REASONS.get(code, REASONS["not_now"])).format(**params)


def error(code: str, **params: str | int) -> str:
    """The sentence for an :data:`ERRORS` code.

    >>> error("too_many_cards", limit=4)
    'Play at most 4 cards at a time.'
    """
    return _(ERRORS[code]).format(**params)


def ending(reason_text: str) -> str:
    """The sentence for a round's end (``Result.reason``).

    >>> ending("right guess")
    'The round is over: the rule was guessed.'
    """
    return _(ENDINGS.get(reason_text, _DEALER_EVENTS["end"]))


#: Why a round ended (``Result.reason``), as a clause for "Why it ended: ...".
WHY: Final[Mapping[str, str]] = {
    "a player ran out of cards": N_("a player ran out of cards"),
    "a scientist ran out of cards": N_("a scientist ran out of cards"),
    "every player was expelled": N_("every player was expelled"),
    "every scientist was expelled": N_("every scientist was expelled"),
    "every player is out": N_("every player is out"),
    "right guess": N_("the rule was guessed"),
    "empty hand": N_("a player has no cards left"),
    'right "no play" with one card': N_(
        "a right \u201cno play\u201d with one card left the hand empty"),
    "the stock ran out": N_("the stock ran out"),
    "solved": N_("the rule was found"),
    "out of turns": N_("the turns are used up"),
}


def why(reason_text: str) -> str:
    """Why a round ended (``Result.reason``), as a clause in the player's language.

    A reason this version does not know (a replay made by a newer one) is
    shown as it was written.

    >>> why("out of turns")
    'the turns are used up'
    """
    return _(WHY[reason_text]) if reason_text in WHY else reason_text


#: The engine's counterexample sentence (``Counterexample.sentence`` of
#: :mod:`eleusis.rules.compare`): an event's text stays the same in every
#: language (it is part of the state a replay checks, and the computer
#: scientists read it), so it is said in the player's language when shown.
_COUNTEREXAMPLE: Final = re.compile(
    r"(?:after (?:(?P<count>\d+) cards ending in (?P<last>[^,;]+),|(?P<line>[^,;]+?))"
    r"|(?P<first>as the first card))"
    r" your rule (?P<yours>accepts|rejects) (?P<card>\S+); the secret rule "
    r"(?P<theirs>accepts|rejects) it")
_SAID_COUNTEREXAMPLE: Final = {
    ("line", "accepts"): N_("after {cards} your rule accepts {card}; the secret rule rejects it"),
    ("line", "rejects"): N_("after {cards} your rule rejects {card}; the secret rule accepts it"),
    ("first", "accepts"): N_("as the first card your rule accepts {card}; the secret rule "
                             "rejects it"),
    ("first", "rejects"): N_("as the first card your rule rejects {card}; the secret rule "
                             "accepts it"),
}
_SAID_LONG_COUNTEREXAMPLE: Final = {
    "accepts": Nn_("after {count} card ending in {cards}, your rule accepts {card}; the secret "
                   "rule rejects it",
                   "after {count} cards ending in {cards}, your rule accepts {card}; the "
                   "secret rule rejects it"),
    "rejects": Nn_("after {count} card ending in {cards}, your rule rejects {card}; the secret "
                   "rule accepts it",
                   "after {count} cards ending in {cards}, your rule rejects {card}; the "
                   "secret rule accepts it"),
}


def counterexample(text: str) -> str:
    """A counterexample (an event's text, always English) in the player's language.

    >>> counterexample("after 7♠ K♥ your rule accepts 3♦; the secret rule rejects it")
    'after 7♠ K♥ your rule accepts 3♦; the secret rule rejects it'

    A text of another form (a newer version's) is shown as it is.
    """
    m = _COUNTEREXAMPLE.fullmatch(text)
    if m is None or m["yours"] == m["theirs"]:
        return text
    if m["count"] is not None:
        count = int(m["count"])
        return ngettext(*_SAID_LONG_COUNTEREXAMPLE[m["yours"]], count).format(
            count=count, cards=m["last"], card=m["card"])
    where = "first" if m["first"] else "line"
    return _(_SAID_COUNTEREXAMPLE[where, m["yours"]]).format(cards=m["line"], card=m["card"])


def card_list(cards: Sequence[Card]) -> str:
    """Cards in words for a sentence: ``"7 of hearts, 8 of spades"``."""
    return ", ".join(card_name(c) for c in cards)


def describe(
    ev: Event, names: Sequence[str], viewer: int | None = None, about: str = ""
) -> str:
    """One event as a sentence, from ``viewer``'s seat ("" for events nobody needs told).

    ``about`` is the kind of move a prophet's call judges (``"play"``,
    ``"no_play"``, ``"bet"``); :func:`describe_events` finds it from the events
    before the call.
    """
    k = ev.kind
    cards = card_list(ev.cards)
    if ev.seat < 0 or k in ("starter", "new_deck", "end"):
        if k == "starter" and ev.right is False:
            return ""  # a starter the rule refuses goes back under the stock
        if k == "end":
            return ending(ev.text)
        template = _DEALER_EVENTS.get(k, "")
        return _(template).format(cards=cards, text=ev.text) if template else ""
    key = _event_key(ev, about)
    if not key:
        return ""
    if key == "counterexample":
        said = counterexample(ev.text)
        return said[:1].upper() + said[1:]
    form = _YOU if ev.seat == viewer else _OTHER
    name = names[ev.seat] if 0 <= ev.seat < len(names) else ""
    text = bet_kinds_in_words(ev.text) if k == "bet" else ev.text
    if key in _COUNTED:
        template = ngettext(*_COUNTED[key][form], ev.count)
    else:
        template = _(_EVENTS[key][form])
    return template.format(name=name, cards=cards, count=ev.count, text=text)


def _event_key(ev: Event, about: str) -> str:
    k = ev.kind
    verdict = {True: "right", False: "wrong", None: "judging"}[ev.right]
    if k == "play":
        return f"play_{verdict}"
    if k == "no_play":
        return "no_play" if ev.right is None else f"no_play_{verdict}"
    if k == "guess":
        return f"guess_{verdict}"
    if k == "penalty":
        return "penalty"
    if k == "new_hand":
        return "new_hand_0" if ev.count == 0 else "new_hand"
    if k == "lives":
        return "lives" if ev.count else ""
    if k == "expelled":
        return "no_lives" if ev.text else "expelled"
    if k == "call":
        what = about if about in ("play", "no_play", "bet") else "play"
        if what == "bet" and ev.cards and not ev.right:
            return "call_bet_wrong_card"
        if what == "play" and ev.cards:
            what = "no_play"
        return f"call_{what}_{'right' if ev.right else 'wrong'}"
    if k == "bet":
        return "bet"
    if k == "verdict":
        side = "A" if ev.text == "A" else "R"
        return f"verdict_{side}_{'right' if ev.right else 'wrong'}"
    if k == "hint":
        return "hint_asked" if ev.count else "hint_given"
    if k in ("prophet", "overthrow", "pass", "dealer_plays", "counterexample"):
        return k
    return ""  # deal: the hands are on the table


def describe_events(
    events: Iterable[Event], names: Sequence[str], viewer: int | None = None
) -> list[str]:
    """The events as lines for a log or a screen reader: each verdict with its consequences.

    A dealer's own hint is told once: :func:`describe` already says whose it is.
    """
    lines: list[str] = []
    about = ""
    for ev in events:
        if ev.kind in ("no_play", "bet") and ev.right is None:
            about = ev.kind
        text = describe(ev, names, viewer, about)
        if not text:
            continue
        if ev.kind in CONSEQUENCES and lines:
            lines[-1] = f"{lines[-1]} {text}"
        else:
            lines.append(text)
        if ev.kind in ("play", "no_play") and ev.right is not None:
            about = ""  # the move is judged: the next call is about the next one
    return lines


def bet_kinds_in_words(kinds: str) -> str:
    """``"AAR"`` for people: ``"accept, accept, refuse"``.

    >>> bet_kinds_in_words("AARR")
    'accept, accept, refuse, refuse'
    """
    return ", ".join(_("accept") if k == "A" else _("refuse") for k in kinds)
