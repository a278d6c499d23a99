"""The table's controller: intents in, engine actions out, one session in memory.

Pure Python (no ``js`` import), so pytest drives it under CPython exactly as
the page does. The flow is the architecture's one way:

    DOM event -> intent (a dict) -> :meth:`Controller.dispatch` -> engine action
    -> :func:`eleusis.game.apply` -> new state -> view model -> renderer

The controller never decides a rule question: what a seat may do comes from
:func:`eleusis.game.legal_actions`, verdicts come from :func:`eleusis.game.apply`.
It owns only what the engine does not: who sits where (you, people on this
device, computer scientists, a person as dealer), which seat's eyes are on the
screen (hot-seat), the cards selected, the guess being typed, the screen shown.

A session is saved as plain JSON (:meth:`Session.to_data`): the setup and each
round as a replay text (:func:`eleusis.replay.encode`), so a save is re-checked
move by move when it is loaded.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from eleusis import narrate
from eleusis.cards import Card
from eleusis.game import (
    Action,
    ActionError,
    Bet,
    ConfigError,
    DeclareProphet,
    Guess,
    Hint,
    Judge,
    NoPlay,
    Pass,
    Play,
    ProphetCall,
    RequestHint,
    State,
    apply,
    legal_actions,
    optional_seats,
    waiting_for,
)
from eleusis.i18n import _
from eleusis.variants import info as variant_info
from eleusis.variants.base import rule_error
from eleusis.variants.royal import arrange_bet
from eleusis_web import computer, intents, tutorial
from eleusis_web.intents import Intent
from eleusis_web.session import (
    COMPUTER_NAMES,
    DEALERS,
    HUMAN_KINDS,
    PACES,
    STRENGTHS,
    VARIANTS,
    SeatPlan,
    Session,
    Setup,
    dealer_seat,
    default_seats,
    engine_variant,
    fresh_seed,
    rotating,
    seat_limits,
    several_people,
    variant_available,
    writes_rule,
)
from eleusis_web.uistate import Ui
from eleusis_web.viewmodel import english_reading


def first_waiting(state: State) -> int | None:
    """The seat the round waits for (the engine's :func:`eleusis.game.waiting_for`), or None."""
    waiting = waiting_for(state)
    return waiting[0] if waiting else None


Announce = Callable[[str], None]


class Controller:
    """Turns intents into actions on the session; remembers the screen's state."""

    def __init__(self, seed_source: Callable[[], int] | None = None) -> None:
        self.session: Session | None = None
        self.ui = Ui()
        self.announcements: list[str] = []
        self._seed_source = seed_source or fresh_seed
        self._games = 0  # games started here: part of each new game's id
        self._changed = False
        #: computer seats' brains and window decisions (see :mod:`eleusis_web.computer`)
        self.computers: computer.Brains | None = None
        self._window_decided = -1
        #: the due computer's decision under way: (what it was for, Decision)
        self._thinking: tuple[tuple[object, ...], computer.Decision] | None = None

    # -- queries ----------------------------------------------------------------

    @property
    def state(self) -> State | None:
        """The current round, if a game is on."""
        return self.session.state if self.session else None

    def moment(self) -> tuple[str, int, int]:
        """Which game, round and move the table is at."""
        s = self.session
        return ("", 0, -1) if s is None else (s.id, len(s.rounds), len(s.state.actions))

    def sorted_hand(self, seat: int) -> list[Card]:
        """A hand as shown: sorted by suit then rank."""
        assert self.session is not None
        return sorted(self.session.state.hand(seat), key=lambda c: c.sort_key)

    def window_open(self) -> int | None:
        """A person whose optional step (guess, declare prophet) holds the table, if any."""
        s = self.session
        if s is None or s.state.over:
            return None
        if self.ui.window_done == self.moment():
            return None
        # the engine says who may take an optional step now, in its priority order
        return next((seat for seat in optional_seats(s.state) if s.kinds[seat] in HUMAN_KINDS),
                    None)

    def dealer_hint_pending(self) -> int | None:
        """The person dealing, while they may still give the opening hint (before any play)."""
        s = self.session
        if s is None or s.state.over or s.state.turns or self.ui.dealer_ready >= len(s.rounds):
            return None
        d = s.state.config.dealer
        if d is None or s.kinds[d] not in HUMAN_KINDS:
            return None
        return d if "hint" in legal_actions(s.state, d).kinds else None

    def computer_due(self) -> int | None:
        """The computer seat that should act next, or None (a person acts, or over)."""
        s = self.session
        if s is None or self.ui.screen != "table" or s.state.over:
            return None
        w = s.state.window
        if (w is not None and s.kinds[w] == "computer"
                and self._window_decided != len(s.state.actions)):
            return w
        if self.window_open() is not None or self.dealer_hint_pending() is not None:
            return None
        a = first_waiting(s.state)
        if a is not None and s.kinds[a] == "computer":
            return a
        return None

    def needs_pass(self) -> bool:
        """Hot-seat: the device must be passed before the viewer's hand is shown."""
        s = self.session
        return (
            s is not None
            and len(s.humans()) > 1
            and self.ui.viewer is not None
            and self.ui.shown != self.ui.viewer
        )

    # -- the one door for intents -------------------------------------------------

    def dispatch(self, intent: Mapping[str, object] | Intent) -> bool:
        """Act on an intent; return whether the game changed (to save it).

        Refused actions leave the game as it was; the refusal is shown under the
        controls and announced.
        """
        self._changed = False
        try:
            checked = intents.parse(intent)
        except intents.IntentError as exc:
            self.refuse(str(exc))
            return False
        handler = getattr(self, "_on_" + checked.kind, None)
        if checked.owner != "table" or handler is None:
            self.refuse(_("That action is not available here."))
            return False
        try:
            handler(checked)
        except ActionError as exc:
            self.refuse(exc.message)
        except ConfigError as exc:
            self.refuse(str(exc))
        self._follow()
        return self._changed

    def refuse(self, message: str) -> None:
        """Show and announce why something was not done."""
        text = message[:1].upper() + message[1:]
        self.ui.message = text
        self.announcements.append(text)

    # -- applying actions ------------------------------------------------------------

    def act(self, action: Action) -> None:
        """Apply an engine action to the current round and announce what happened."""
        s = self.session
        assert s is not None
        before = len(s.state.events)
        state = apply(s.state, action)
        s.update(state)
        self._changed = True
        if action.seat == self.ui.viewer:
            self.ui.message = ""
            self.ui.selection = []
        self._prune_selection()
        self.announcements.extend(narrate.describe_events(
            state.events[before:], state.config.names, self.ui.viewer))
        if state.over:
            self.ui.guess_open = False

    def _follow(self) -> None:
        """After any change: pick the viewer, end-of-round screen, hot-seat passing."""
        s = self.session
        if s is None or self.ui.screen not in ("table", "round-end"):
            return
        state = s.state
        if state.over:
            if self.ui.screen == "table":
                self.ui.screen = "round-end"
            return
        humans = s.humans()
        if not humans:
            self.ui.viewer = None
            return
        w = self.window_open()
        a = first_waiting(state)
        d = self.dealer_hint_pending()
        if d is not None:
            want = d
        elif w is not None:
            want = w
        elif a is not None and s.kinds[a] in HUMAN_KINDS:
            want = a
        else:
            want = self.ui.viewer if self.ui.viewer in humans else humans[0]
        if want != self.ui.viewer:
            self.ui.viewer = want
            self.ui.selection = []
            self.ui.guess_open = False
            if len(humans) == 1:
                self.ui.shown = want
            else:
                self.announcements.append(_("Pass the device to {name}.").format(
                    name=state.config.names[want]))
        if len(humans) == 1:
            self.ui.shown = self.ui.viewer

    # -- intents: game setup -----------------------------------------------------------

    def _on_show_setup(self, intent: Intent) -> None:
        self.ui.screen = "setup"
        self.ui.message = ""
        self.announcements.append(_("New game: choose the variant and the players, then Start."))

    def _on_setup_change(self, intent: Intent) -> None:
        """A field of the new-game screen changed (``field``, ``value``, ``seat``)."""
        st = self.ui.setup
        name = str(intent.get("field", ""))
        value = str(intent.get("value", ""))
        if name == "variant" and value in VARIANTS:
            st.variant = value
            low, high = seat_limits(value)
            others = [p for p in st.seats if p.kind != "you"]
            alone = variant_info(engine_variant(value)).scientists == (1, 1)
            if not low <= len(others) <= high or alone:
                st.seats = default_seats(value)
            if not variant_info(engine_variant(value)).person_dealer:
                st.dealer = "computer"
        elif name == "dealer" and value in DEALERS:
            st.dealer = value
        elif name == "difficulty" and value in ("1", "2", "3", "4", "5", "surprise"):
            st.difficulty = value
        elif name == "match":
            st.match = value in ("1", "true", "on")
        elif name == "pace" and value in PACES:
            st.pace = value
        elif name == "dealer_name":
            st.dealer_name = value[:40]
        elif name in ("seat_name", "seat_kind", "seat_strength"):
            i = intent.number("seat")
            if not 0 <= i < len(st.seats):
                return
            if name == "seat_name":
                st.seats[i].name = value[:40]
            elif name == "seat_kind" and value in ("person", "computer"):
                st.seats[i].kind = value
            elif name == "seat_strength" and value in STRENGTHS:
                st.seats[i].strength = value

    def _on_add_seat(self, intent: Intent) -> None:
        st = self.ui.setup
        if len(st.seats) - 1 >= seat_limits(st.variant)[1]:
            self.refuse(_("No more seats at this table for this variant."))
            return
        taken = {p.name for p in st.seats}
        numbered = _("Player {number}").format(number=len(st.seats) + 1)
        name = next((n for n in COMPUTER_NAMES if n not in taken), numbered)
        kind = str(intent.get("kind", "computer"))
        if kind == "person":
            name = numbered
        st.seats.append(SeatPlan(name, kind if kind in ("person", "computer") else "computer"))

    def _on_remove_seat(self, intent: Intent) -> None:
        st = self.ui.setup
        i = intent.number("seat")
        if len(st.seats) - 1 <= seat_limits(st.variant)[0]:
            self.refuse(_("This variant needs more opponents."))
            return
        if 0 < i < len(st.seats):
            del st.seats[i]

    def _on_learn_start(self, intent: Intent) -> None:
        """"Learn to play": a guided Solo round against a simple rule (:mod:`.tutorial`)."""
        chosen = self.ui.setup
        self.ui.setup = Setup(variant="solo", rule=tutorial.LESSON_RULE,
                              seed=self._seed_source(), pace=chosen.pace)
        self._begin(None)
        self.ui.setup = Setup(variant="solo", pace=chosen.pace)  # the next game is a real one
        if self.session is not None:
            self.session.extra[tutorial.EXTRA_KEY] = {"read": False}
            self.announcements.append(_("Learn to play: a guided round of Solo. Leave the "
                                        "lesson whenever you like; the round goes on."))

    def _on_lesson_next(self, intent: Intent) -> None:
        """The lesson's first explanation is read: go on to playing."""
        lesson = self.session.extra.get(tutorial.EXTRA_KEY) if self.session else None
        if isinstance(lesson, dict):
            lesson["read"] = True
            self._changed = True

    def _on_lesson_leave(self, intent: Intent) -> None:
        """Leave the lesson: the round goes on as an ordinary Solo game."""
        if self.session is not None and self.session.extra.pop(tutorial.EXTRA_KEY, None):
            self._changed = True
            self.announcements.append(_("You left the lesson: the round goes on."))

    def _on_new_game(self, intent: Intent) -> None:
        """The boot form's quick start: defaults for a variant, at once."""
        variant = str(intent.get("variant", "new_eleusis")).replace("-", "_")
        if variant not in VARIANTS:
            variant = "new_eleusis"
        pace = self.ui.setup.pace
        self.ui.setup = Setup(variant=variant, seed=self._seed_source(), pace=pace)
        self._on_start(Intent("start", "table"))

    def _on_start(self, intent: Intent) -> None:
        """Start the game chosen on the new-game screen."""
        st = self.ui.setup
        why = variant_available(st.variant)
        if why:
            self.refuse(why)
            return
        # every new game is a new deal and a new rule (a replay, a challenge or the
        # daily puzzle keeps its own seed: they do not start here)
        st.seed = intent.number("seed") if "seed" in intent else self._seed_source()
        if writes_rule(st, 0):
            self.ui.writing_next = False
            self.ui.writer_ready = not several_people(st)
            self.ui.screen = "write-rule"
            self.ui.rule_text = self.ui.rule_text or ""
            self.ui.try_line = []
            return
        self._begin(None)

    def _begin(self, rule: str | None) -> None:
        st = Setup.from_data(self.ui.setup.to_data())
        self._games += 1
        sid = f"g{st.seed:x}{int(time.time() * 1000) % 100000:05d}{self._games}"
        self.session = Session.start(sid, st, rule, time.time())
        self.ui.screen = "table"
        self.ui.viewer = None
        self.ui.shown = None
        self.ui.selection = []
        self.ui.message = ""
        self.ui.guess_open = False
        self.ui.guess_text = ""
        self.ui.dealer_ready = 0
        self.computers = None
        self._window_decided = -1
        self._changed = True
        self.announcements.append(
            _("{variant}: a new game has begun. The dealer has chosen a secret rule.").format(
                variant=_(VARIANTS[st.variant])))

    def writer_name(self) -> str:
        """Who writes the rule on the write-rule screen."""
        st = self.session.setup if self.ui.writing_next and self.session else self.ui.setup
        k = len(self.session.rounds) if self.ui.writing_next and self.session else 0
        if rotating(st):
            match = self.session.match if self.session else None
            return st.seats[dealer_seat(st, k, match)].name
        return st.dealer_name or _("Dealer")

    def _on_rule_text(self, intent: Intent) -> None:
        self.ui.rule_text = str(intent.get("value", ""))[:600]

    def _on_try_add(self, intent: Intent) -> None:
        code = str(intent.get("card", ""))
        try:
            Card.parse(code)
        except ValueError:
            self.refuse(_("{code} is not a card.").format(code=repr(code)))
            return
        if len(self.ui.try_line) < 12:
            self.ui.try_line.append(code)

    def _on_try_suit(self, intent: Intent) -> None:
        """The "try a card" picker shows another suit (``S H D C``)."""
        suit = str(intent.get("suit", ""))
        if suit in ("S", "H", "D", "C"):
            self.ui.try_suit = suit

    def _on_try_clear(self, intent: Intent) -> None:
        self.ui.try_line = []

    def _on_rule_accept(self, intent: Intent) -> None:
        """The person dealing accepts the rule they wrote: deal."""
        text = self.ui.rule_text.strip()
        err = rule_error(text) if text else "write a rule first"
        if err:
            self.refuse(err.split("\n")[0])
            return
        if self.ui.writing_next and self.session is not None and self.session.state.over:
            self._next_round(text)
        else:
            self._begin(text)

    # -- intents: play -----------------------------------------------------------------

    def _seat(self) -> int:
        if self.ui.viewer is None:
            raise ActionError(_("No person is at the table now."), "no_viewer")
        return self.ui.viewer

    def hand_tokens(self, seat: int) -> list[tuple[Card, str]]:
        """The sorted hand of ``seat`` with each card's selection token (``QS``, ``QS#1``)."""
        seen: dict[Card, int] = {}
        out = []
        for card in self.sorted_hand(seat):
            k = seen.get(card, 0)
            seen[card] = k + 1
            out.append((card, card.code if k == 0 else f"{card.code}#{k}"))
        return out

    def selected_cards(self) -> tuple[Card, ...]:
        """The viewer's chosen cards, in the order they were chosen."""
        if self.session is None or self.ui.viewer is None:
            return ()
        cards = dict((tok, card) for card, tok in self.hand_tokens(self.ui.viewer))
        return tuple(cards[t] for t in self.ui.selection if t in cards)

    def _prune_selection(self) -> None:
        """Forget chosen cards that have left the viewer's hand."""
        if self.session is None or self.ui.viewer is None:
            self.ui.selection = []
            return
        have = {tok for _, tok in self.hand_tokens(self.ui.viewer)}
        self.ui.selection = [t for t in self.ui.selection if t in have]
        self.ui.bet_refused = [t for t in self.ui.bet_refused if t in self.ui.selection]

    def _on_select(self, intent: Intent) -> None:
        """Choose or un-choose a card of the viewer's hand (by its code; ``copy`` for a
        second card of the same code). Chosen cards stay chosen while others move."""
        if self.session is None or self.ui.viewer is None:
            return
        code, copy = intent.text("card"), intent.number("copy", 0)
        token = code if copy <= 0 else f"{code}#{copy}"
        if token not in {tok for _, tok in self.hand_tokens(self.ui.viewer)}:
            self.refuse(_("That card is not in your hand."))
            return
        sel = self.ui.selection
        if token in sel:
            sel.remove(token)
            if token in self.ui.bet_refused:
                self.ui.bet_refused.remove(token)
            return
        limit = max(1, legal_actions(self.session.state, self.ui.viewer).max_cards)
        if len(sel) >= limit:
            if limit == 1:
                sel.clear()
            else:
                self.refuse(_("At most {limit} cards in one play.").format(limit=limit))
                return
        sel.append(token)

    def _on_hand_focus(self, intent: Intent) -> None:
        """The arrow keys moved along the hand: that card now takes the hand's Tab stop."""
        code, copy = intent.text("card"), intent.number("copy", 0)
        self.ui.hand_focus = code if copy <= 0 else f"{code}#{copy}"

    def _on_play(self, intent: Intent) -> None:
        seat = self._seat()
        cards = self.selected_cards()
        if not cards:
            self.refuse(_("Choose a card first."))
            return
        self.act(Play(seat, cards))

    def _on_bet(self, intent: Intent) -> None:
        """Royal Eleusis: bet the chosen cards, each marked accepted or refused.

        The engine arranges the move (:func:`eleusis.variants.royal.arrange_bet`:
        the accepted cards first) and names its sequence; an explicit
        ``kinds`` (``AAAR``...) bets the cards in the order chosen.
        """
        seat = self._seat()
        cards = self.selected_cards()
        if not cards:
            self.refuse(_("Choose the cards to bet first."))
            return
        kinds = intent.text("kinds")
        if not kinds:
            marks = [tok not in self.ui.bet_refused for tok in self.ui.selection]
            cards, kinds = arrange_bet(cards, marks)
        self.act(Bet(seat, cards, kinds))
        self.ui.bet_refused = []

    def _on_bet_mark(self, intent: Intent) -> None:
        """Royal Eleusis: mark a chosen card "accepted" or "refused" (it toggles)."""
        code, copy = intent.text("card"), intent.number("copy", 0)
        token = code if copy <= 0 else f"{code}#{copy}"
        if token not in self.ui.selection:
            self.refuse(_("Choose that card first."))
        elif token in self.ui.bet_refused:
            self.ui.bet_refused.remove(token)
        else:
            self.ui.bet_refused.append(token)

    def _on_no_play(self, intent: Intent) -> None:
        self.act(NoPlay(self._seat()))

    def _on_declare_prophet(self, intent: Intent) -> None:
        self.act(DeclareProphet(self._seat()))

    def _on_call(self, intent: Intent) -> None:
        card = intent.get("card")
        self.act(ProphetCall(self._seat(), bool(intent.get("right")),
                             Card.parse(str(card)) if card else None))

    def _on_judge(self, intent: Intent) -> None:
        card = intent.get("card")
        self.act(Judge(self._seat(), bool(intent.get("right")),
                       Card.parse(str(card)) if card else None))

    def _on_pass(self, intent: Intent) -> None:
        self.act(Pass(self._seat()))

    def _on_continue(self, intent: Intent) -> None:
        """The viewer is done with their optional step: the table moves on.

        The page sends it itself (``auto``) when the step has been offered
        long enough: the table never waits for this click.
        """
        s = self.session
        if s is not None:
            if intent.get("auto") and self.window_open() is not None:
                self.announcements.append(_("The moment has passed: the table goes on."))
            self.ui.window_done = self.moment()
            self.ui.guess_open = False

    def _on_dealer_ready(self, intent: Intent) -> None:
        """The person dealing is done with the opening hint: play starts."""
        if self.session is not None:
            self.ui.dealer_ready = len(self.session.rounds)

    def _on_writer_ready(self, intent: Intent) -> None:
        """Hot-seat: the person writing the rule holds the device; show the editor."""
        self.ui.writer_ready = True

    def _on_reveal(self, intent: Intent) -> None:
        """Hot-seat: the right person holds the device; show their hand."""
        self.ui.shown = self.ui.viewer

    def _on_guess_open(self, intent: Intent) -> None:
        self.ui.guess_open = not self.ui.guess_open or bool(intent.get("open"))

    def _on_guess_close(self, intent: Intent) -> None:
        self.ui.guess_open = False

    def _on_guess_text(self, intent: Intent) -> None:
        self.ui.guess_text = str(intent.get("value", ""))[:600]

    def _on_guess(self, intent: Intent) -> None:
        text = str(intent.get("value", self.ui.guess_text)).strip()
        self.ui.guess_text = text
        if not text:
            self.refuse(_("Write your guess first."))
            return
        reading = english_reading(text)
        if reading is not None and reading.rules:  # plain English: judged once confirmed
            self.ui.guess_open = True
            self.refuse(_("Check how your guess was read, then press \u201cGuess this rule\u201d."))
            return
        self.act(Guess(self._seat(), text))
        self.ui.guess_open = True  # keep the verdict in view

    def _on_hint_request(self, intent: Intent) -> None:
        self.act(RequestHint(self._seat()))

    def _on_hint_text(self, intent: Intent) -> None:
        self.ui.hint_text = str(intent.get("value", ""))[:600]

    def _on_hint_give(self, intent: Intent) -> None:
        text = str(intent.get("value", self.ui.hint_text)).strip()
        if not text:
            self.refuse(_("Write the hint first."))
            return
        self.act(Hint(self._seat(), text))
        self.ui.hint_text = ""

    # -- intents: rounds, screens ---------------------------------------------------------

    def _on_next_round(self, intent: Intent) -> None:
        s = self.session
        if s is None or not s.state.over:
            return
        if s.match_over:
            self.ui.screen = "setup"
            return
        if writes_rule(s.setup, len(s.rounds), s.match):
            self.ui.writing_next = True
            self.ui.writer_ready = not several_people(s.setup)
            self.ui.screen = "write-rule"
            self.ui.rule_text = ""
            self.ui.try_line = []
            return
        self._next_round(None)

    def _next_round(self, rule: str | None) -> None:
        s = self.session
        assert s is not None
        s.next_round(rule)
        self.ui.screen = "table"
        self.ui.viewer = None
        self.ui.shown = None
        self.computers = None
        self._window_decided = -1
        self._changed = True
        self.announcements.append(_("Round {number} begins.").format(number=len(s.rounds)))

    def end_match_reason(self) -> str | None:
        """Why "End match" is not available now (None: it is)."""
        s = self.session
        if s is None or s.planned_rounds <= 1:
            return _("Only a match can be ended early.")
        if s.match_over:
            return _("The match is over.")
        if not any(r.over for r in s.rounds):
            return _("Finish the first round first: a match ended early counts finished rounds.")
        return None

    def _on_end_match(self, intent: Intent) -> None:
        """End a match before everyone has dealt: first ask, then (``confirm``) end it.

        As :meth:`eleusis.game.Match.end_early`: a round still running is dropped,
        the finished rounds count, and the variant's compensation is added.
        """
        s = self.session
        why = self.end_match_reason()
        if why or s is None:
            self.ui.confirm_end = False
            self.refuse(why or _("No game."))
            return
        if not intent.get("confirm"):
            self.ui.confirm_end = True
            return
        self.ui.confirm_end = False
        s.end_early()
        self.ui.screen = "round-end"
        self.ui.guess_open = False
        self.ui.writing_next = False
        self.computers = None
        self._window_decided = -1
        self._changed = True
        self.announcements.append(
            _("The match is over: ended after {done} of {count} rounds.").format(
                done=len(s.rounds), count=s.planned_rounds))

    def _on_end_match_cancel(self, intent: Intent) -> None:
        self.ui.confirm_end = False

    def _on_show_table(self, intent: Intent) -> None:
        if self.session is not None:
            self.ui.screen = "round-end" if self.session.state.over else "table"
        else:
            self.ui.screen = "setup"

    def _on_show_help(self, intent: Intent) -> None:
        if self.ui.screen != "help":
            self.ui.help_from = self.ui.screen
        self.ui.screen = "help"

    def _on_show_rule_help(self, intent: Intent) -> None:
        """The rule language's guide, opened from a rule field (its examples can be tried
        in the guess and the dealer's rule when opened from those)."""
        if self.ui.screen not in ("help", "rule-help"):
            self.ui.help_from = self.ui.screen
        field_name = intent.text("field")
        self.ui.rule_help_for = field_name if field_name in ("guess_text", "rule_text") else ""
        self.ui.screen = "rule-help"

    def _on_try_rule(self, intent: Intent) -> None:
        """An example of the guide, tried: it goes into the field the guide was opened from."""
        text = intent.text("value")
        if self.ui.rule_help_for == "guess_text":
            self.ui.guess_text = text
            self.ui.guess_open = True
        elif self.ui.rule_help_for == "rule_text":
            self.ui.rule_text = text
        else:
            self.refuse(_("Open the guide from a rule field to try its examples there."))
            return
        self._on_close_help(intent)

    def _on_close_help(self, intent: Intent) -> None:
        back = self.ui.help_from
        self.ui.screen = back if back not in ("help", "rule-help") else "setup"

    def _on_pace(self, intent: Intent) -> None:
        value = str(intent.get("value", ""))
        if value in PACES:
            self.ui.setup.pace = value
            if self.session is not None:
                self.session.setup.pace = value

    def _on_toggle_side(self, intent: Intent) -> None:
        i = intent.number("col")
        if i in self.ui.expanded:
            self.ui.expanded.remove(i)
        else:
            self.ui.expanded.append(i)

    def _on_contrast(self, intent: Intent) -> None:
        self.ui.contrast = not self.ui.contrast

    def _on_judge_card(self, intent: Intent) -> None:
        self.ui.judge_card = str(intent.get("card", ""))

    # -- computers ------------------------------------------------------------------------

    def computers_ready(self) -> bool:
        """Are the computer scientists prepared (their one-off work done in slices)?"""
        return self.computers is not None and self.computers.ready()

    def computer_step(self, hold: bool = False) -> bool:
        """Let the due computer seat take one step; return whether one was taken.

        A step is, until the scientists are prepared (:meth:`computers_ready`),
        one short slice of that preparation; then one time slice of the due
        seat's decision (:meth:`eleusis_web.computer.Brains.decision`), and
        the action once decided. With ``hold`` a decision made in this step
        waits for the next step to be applied (the page keeps the pace between
        the last move and this one). A decision under way is dropped when the
        game moved meanwhile (a person acted, another game or round began).
        """
        seat = self.computer_due()
        s = self.session
        if seat is None or s is None:
            self._thinking = None
            return False
        if self.computers is None:
            self.computers = computer.Brains(s.computer_seats(), s.setup.seed)
        state = s.state
        if not self.computers.ready():
            noise = computer.HUMAN_DEALER_NOISE if state.config.rule is None else None
            self.computers.prepare_step(noise)
            return True
        window = state.window == seat and self._window_decided != len(state.actions)
        key = (s.id, len(s.rounds), len(state.actions), seat, window)
        if self._thinking is None or self._thinking[0] != key:
            self._thinking = (key, self.computers.decision(state, seat, window))
        decision = self._thinking[1]
        if not decision.done:
            decision.step()
            if not decision.done or hold:
                return True
        if decision.action is None:  # the optional step was not taken
            self._thinking = None
            self._window_decided = len(state.actions)
            return True
        # under deferred comparisons (the page) a guess whose comparison is long raises
        # ComparisonNeeded here: the decision stays, to be applied by a later step
        self.act(decision.action)
        self._thinking = None
        if window:
            self._window_decided = len(state.actions)
        self._follow()
        return True

    def computer_decided(self) -> bool:
        """Has the due computer made its decision (to be applied by the next step)?"""
        t = self._thinking
        s = self.session
        seat = self.computer_due()
        if t is None or s is None or seat is None or not t[1].done:
            return False
        return t[0][:4] == (s.id, len(s.rounds), len(s.state.actions), seat)

    # -- saves --------------------------------------------------------------------------

    def resume(self, session: Session) -> None:
        """Continue a saved session where it was."""
        self.session = session
        self.ui.setup = Setup.from_data(session.setup.to_data())
        self.ui.screen = "round-end" if session.state.over else "table"
        self.ui.viewer = None
        self.ui.shown = None
        self.ui.selection = []
        self.computers = None
        self._window_decided = -1
        self._follow()
