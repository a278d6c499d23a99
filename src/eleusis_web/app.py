"""The card table in the page: wires the DOM to the controller, saves, paces computers.

:func:`handle_intent` stays the entry point :mod:`eleusis_web.main` hands to
the boot bridge (the boot form's quick "Start" arrives here). On import the
table installs itself in ``#table`` (a ``div#game`` inside the felt) and, one
tick later, resumes the game saved as current, so a reload continues exactly
where the game was.

Everything the player does reaches :class:`eleusis_web.controller.Controller`
as an intent through one delegated listener per event type; after each intent
the game is saved (:mod:`eleusis_web.storage`), the ``aria-live`` status line
(``#status``) announces what happened, and :mod:`eleusis_web.render` redraws.
Computer turns run one action per ``setTimeout`` at the pace the player picks,
so the page never freezes. A person's guess is judged by an exact comparison
of rules, which can take seconds for rules that read far back: the guess is
first tried with comparisons deferred (:func:`eleusis.variants.base.deferred_comparisons`);
when one is needed it is worked out in timer slices ("Judging your guess…",
the table waiting), then the same intent is applied, the comparison
remembered. A computer's guess met in its step is judged the same way, its
decision kept for the next step.

Test hook (new-game defaults only, never a shortcut past the engine): the URL
parameters ``variant``, ``seed``, ``rule`` (a computer dealer's rule) and
``pace`` preset the new-game screen.
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

from eleusis import i18n, safejson
from eleusis.game import legal_actions
from eleusis.i18n import _, ngettext
from eleusis.replay import ReplayError, decode_steps
from eleusis.variants.base import ComparisonNeeded, deferred_comparisons
from eleusis_web import (
    boot,
    challenge_view,
    daily_view,
    dom,
    features,
    intents,
    render,
    rules_page,
    viewmodel,
)
from eleusis_web.computer import HUMAN_DEALER_NOISE, Brains
from eleusis_web.controller import Controller
from eleusis_web.intents import Intent
from eleusis_web.replay_view import Replay, ReplayLoad
from eleusis_web.session import PACES, default_seats, url_presets
from eleusis_web.storage import MemoryStorage, Saves, title_of
from eleusis_web.vdom import El

T = TypeVar("T")

#: How long a person's optional step (declare prophet, guess) stays offered
#: after their play, by pace, in milliseconds; 0: the table waits for "Go on".
#: At the fast paces the turn line counts the seconds down.
WINDOW_GRACE_MS: dict[str, int] = {"slow": 0, "normal": 0, "fast": 6000, "instant": 3000}
#: The keys that move along the hand (a roving tabindex: the hand is one Tab stop).
HAND_KEYS = frozenset({"ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"})
#: While the person is busy with the step, look again this often.
WINDOW_RECHECK_MS = 1000
#: Units of exact comparison per step, and milliseconds of it per browser task, while a
#: person's guess is judged (as a replay link's guesses: eleusis_web.replay_view).
JUDGE_SLICE_WORK = 500
JUDGE_SLICE_MS = 8.0
#: A saved game still being decoded after this many seconds shows "Opening your game".
OPENING_SHOWN_S = 0.4
#: The table intents taken while a guess is being judged (the others wait for the verdict).
WHILE_JUDGING = frozenset({"guess_text", "show_setup", "select", "hand_focus", "toggle_side",
                           "contrast", "pace"})
#: The controls of the optional step (their ``data-key``): focus on one holds the step.
#: ("Continue", where the focus lands after a play, skips the wait; it holds nothing.)
WINDOW_CONTROLS = frozenset({"ctl-Declare prophet", "ctl-Guess the rule"})

#: The intents that open a new game's table: drawn one task after the intent.
NEW_TABLE_KINDS = frozenset({"start", "new_game"})


def measured(name: str, fn: Callable[[], T]) -> T:
    """Run ``fn`` inside a ``performance.measure`` entry named ``name``.

    The entries show in the browser's performance timeline, where
    ``bench/longtasks.py`` reads them to say which part of a computer's
    tick (decision, save, redraw) makes a long task.
    """
    perf = dom.window.performance
    perf.mark(name + ":start")
    try:
        return fn()
    finally:
        perf.mark(name + ":end")
        perf.measure(name, name + ":start", name + ":end")
        perf.clearMarks(name + ":start")
        perf.clearMarks(name + ":end")

class App:
    """The table's runtime: one controller, the saves, the root element, a timer."""

    def __init__(self) -> None:
        try:
            store: Any = dom.window.localStorage
            if dom.nil(store):
                raise LookupError("no localStorage")
        except Exception:  # storage blocked (privacy settings): play in memory
            store = MemoryStorage()
        self.saves = Saves(store)
        self._set_language(self.saves.read_language() or i18n.pick(_browser_languages()))
        self.c = Controller(seed_source=_seed)  # after the language: its default names
        self.timer: Any = None
        self.thoughts: dict[int, list[tuple[str, str, float]]] | None = None
        self.thoughts_for = ""
        #: the round-end explanations being worked out in slices: (for what, steps)
        self._explaining: tuple[str, Iterator[Any]] | None = None
        self._explain_timer: Any = None
        #: when the last move was applied (``performance.now()``): the pace counts from it
        self.moved_at = 0.0
        #: a person's optional step (declare prophet, guess) open now, and its timer
        self.window_key: tuple[object, ...] | None = None
        self.window_timer: Any = None
        self.window_focus = ""  # the focused control's key when the step was offered
        self.window_deadline = 0.0  # performance.now() when a timed moment ends
        self.grace_override: int | None = None  # test hook ``grace`` (milliseconds)
        self.landed = 0  # the number of the last card that got the landing animation
        #: the saved game deleted last (id, stored text, title): "Undo" puts it back
        self.deleted: tuple[str, str, str] | None = None
        #: the screen, game and round last drawn: a new one scrolls to its top and
        #: puts the focus on its heading
        self.shown: tuple[str, str, int] | None = None
        #: the guess panel's answer last brought into view (None: the panel is closed)
        self.guess_seen: str | None = None
        #: what the page's attributes say (screen, contrast, moves, variant): _mark_page
        self._marks: tuple[object, ...] | None = None
        table = dom.element("table")
        felt = table.querySelector(".felt")
        root = dom.document.getElementById("game")
        if dom.nil(root):
            root = dom.document.createElement("div")
            root.id = "game"
            root.className = "game"
            felt.insertBefore(root, dom.element("status"))
        self.root = root
        table.setAttribute("data-ui", "on")
        # the share features (eleusis_web.features): replay viewer, link messages, panels
        self.replay: Replay | None = None
        self.replay_load: ReplayLoad | None = None
        self.replay_timer: Any = None
        self.replay_tick: Any = None
        #: a link that could not be opened: (what to tell the player, the detail)
        self.link_message: tuple[str, str] | None = None
        self.share_note = ""
        self.special = ""
        self.ui_extra: dict[str, Any] = {}
        self._step_js = dom.js_function(boot.guarded(self._step))
        self._window_js = dom.js_function(boot.guarded(self._window_expired))
        self._explain_js = dom.js_function(boot.guarded(self._explain_tick))
        #: a person's guess whose comparison is being worked out: (the intent, its steps)
        self._judging: tuple[Intent | None, Iterator[None]] | None = None
        self._judge_js = dom.js_function(boot.guarded(self._judge_tick))
        #: a saved game's rounds being decoded before it is opened: (the work, what next)
        self._decoding: tuple[Iterator[None], Callable[[], None]] | None = None
        self._decode_started = 0.0
        self._decode_shown = False
        self._decode_js = dom.js_function(boot.guarded(self._decode_tick))
        #: a new game's table waiting for its own task to be drawn (see :meth:`_dispatch`)
        self._drawing = False
        self._draw_js = dom.js_function(boot.guarded(self._draw_tick))
        for kind, fn in (("click", self._on_click), ("change", self._on_change),
                         ("input", self._on_input), ("keydown", self._on_key)):
            root.addEventListener(kind, dom.js_function(boot.guarded(fn)))
        self._apply_url()
        dom.window.addEventListener("hashchange", dom.js_function(boot.guarded(
            lambda *_: self._route_hash())))

    def _route_hash(self) -> None:
        features.route_hash(self)

    # -- start-up ------------------------------------------------------------------

    def _apply_url(self) -> None:
        """The address's query presets the new-game screen (:func:`session.url_presets`:
        the test hooks ``seed``, ``rule`` and ``grace`` only on a loopback host)."""
        loc = dom.window.location
        query = dom.window.URLSearchParams.new(loc.search)
        params = {str(k): str(query.get(k)) for k in ("variant", "pace", "dealer", "seed",
                                                       "rule", "grace")
                  if not dom.nil(query.get(k))}
        p = url_presets(params, str(loc.hostname))
        st = self.c.ui.setup
        if p.variant:
            st.variant = p.variant
            st.seats = default_seats(st.variant)
        if p.pace:
            st.pace = p.pace
        if p.dealer:
            st.dealer = p.dealer
        if p.seed is not None:
            seed = p.seed
            st.seed = seed
            self.c._seed_source = lambda: seed
        if p.rule:
            st.rule = p.rule
        if p.grace is not None:
            self.grace_override = p.grace

    def resume_current(self) -> None:
        """Continue the game saved as current, if any (on boot; its rounds are decoded
        in timer slices first, see :meth:`_decode_then`)."""
        sid = self.saves.current()
        if sid and self.c.session is None:
            self._decode_then(sid, lambda: self._resume_current(sid))
        else:
            self._resume_current(None)

    def _resume_current(self, sid: str | None) -> None:
        if sid and self.c.session is None:
            session = self.saves.load(sid)
            if session is not None:
                self.c.resume(session)
                self.c.announcements.append(_("Welcome back: the game goes on where it was."))
        self._draw()

    def _decode_then(self, sid: str, then: Callable[[], None]) -> None:
        """Decode the saved game ``sid``'s rounds in timer slices, then call ``then``.

        Loading a saved game replays every round through the engine, and a round's
        recorded guesses each ask for an exact comparison of rules: seconds for
        rules that read far back. The rounds are decoded here with
        :func:`eleusis.replay.decode_steps` ("Opening your game", the page
        answering meanwhile); :meth:`Saves.load` then finds them decoded. A round
        that does not decode is left to :meth:`Saves.load`, which sets the game
        aside with its message.
        """

        def steps() -> Iterator[None]:
            for text in self.saves.round_texts(sid):
                with contextlib.suppress(ReplayError):
                    yield from (None for _ in decode_steps(text, slice_work=JUDGE_SLICE_WORK))

        self._decoding = (steps(), then)
        self._decode_started = time.perf_counter()
        self._decode_shown = False
        self._decode_tick()

    def _decode_tick(self) -> None:
        if self._decoding is None:
            return
        work, then = self._decoding
        now = time.perf_counter()
        deadline = now + JUDGE_SLICE_MS / 1000
        for _step in work:
            if time.perf_counter() >= deadline:
                if not self._decode_shown and now - self._decode_started >= OPENING_SHOWN_S:
                    self._decode_shown = True
                    self.render()  # "Opening your game" (a usual game is open before)
                dom.window.setTimeout(self._decode_js, 0)
                return
        self._decoding = None
        then()

    # -- events --------------------------------------------------------------------

    def _on_click(self, ev: Any) -> None:
        el = ev.target.closest("[data-intent]")
        if dom.nil(el):
            return
        if el.getAttribute("aria-disabled") == "true":
            ev.preventDefault()
            return
        self.dispatch(_read_json(el.getAttribute("data-intent")))

    def _on_change(self, ev: Any) -> None:
        el = ev.target
        spec = el.getAttribute("data-change")
        if dom.nil(spec):
            return
        intent = {"type": "pace"} if spec == "pace" else _read_json(spec)
        value = ("1" if el.checked else "0") if el.type == "checkbox" else str(el.value)
        intent["value"] = value
        self.dispatch(intent)

    def _on_input(self, ev: Any) -> None:
        el = ev.target
        kind = el.getAttribute("data-input")
        if dom.nil(kind):
            return
        kind = str(kind)
        intent = _read_json(kind) if kind.startswith("{") else {"type": kind}
        intent["value"] = str(el.value)
        self.dispatch(intent)

    def _on_key(self, ev: Any) -> None:
        el = ev.target
        key = str(ev.key)
        if key in HAND_KEYS and str(el.getAttribute("data-key") or "").startswith("hand-"):
            self._move_in_hand(ev, el, key)
            return
        kind = el.getAttribute("data-input")
        kind = None if dom.nil(kind) else str(kind)
        if key == "Enter" and kind == "guess_text" and not ev.shiftKey:
            ev.preventDefault()
            self.dispatch({"type": "guess", "value": str(el.value)})
        elif key == "Enter" and kind == "hint_text":
            ev.preventDefault()
            self.dispatch({"type": "hint_give", "value": str(el.value)})
        elif key == "Escape" and self.c.ui.guess_open:
            self.dispatch({"type": "guess_close"})

    def _move_in_hand(self, ev: Any, el: Any, key: str) -> None:
        """Arrow keys, Home and End move the focus along the hand (one Tab stop)."""
        cards = list(el.parentElement.querySelectorAll(".card[data-key^='hand-']"))
        if not cards:
            return
        keys = [str(x.getAttribute("data-key")) for x in cards]
        here = keys.index(str(el.getAttribute("data-key"))) if str(
            el.getAttribute("data-key")) in keys else 0
        step = {"ArrowLeft": -1, "ArrowUp": -1, "ArrowRight": 1, "ArrowDown": 1}.get(key, 0)
        there = 0 if key == "Home" else len(cards) - 1 if key == "End" else max(
            0, min(len(cards) - 1, here + step))
        ev.preventDefault()
        target = cards[there]
        self.dispatch(_read_json(target.getAttribute("data-intent")) | {"type": "hand_focus"})
        again = self.root.querySelector(f'[data-key="{keys[there]}"]')
        if not dom.nil(again):
            again.focus()

    # -- the loop ------------------------------------------------------------------

    def dispatch(self, raw: dict[str, Any] | Intent) -> None:
        """One intent: checked, routed to its owner, then save, announce, render, schedule
        (a new game's table is drawn a task later: see :meth:`_dispatch`).

        An intent the vocabulary refuses (:mod:`eleusis_web.intents`: a
        tampered control, an unknown kind) changes nothing and says why.
        """
        try:
            intent = intents.parse(raw)
        except intents.IntentError as exc:
            self.c.refuse(str(exc))
            self.render()
            return
        if (self._decoding is not None or self._drawing) and intent.owner in ("table", "saves"):
            return  # "Opening your game", or a new table about to be drawn: no other control
        if self._judging is not None and intent.owner == "table":
            if intent.kind == "show_setup":
                self._judging = None  # leaving the table: the guess is dropped
            elif intent.kind not in WHILE_JUDGING:
                self.c.refuse(_("A moment: a guess is being judged."))
                self.render()
                return
        measured("eleusis:intent", lambda: self._dispatch(intent))

    def _dispatch(self, intent: Intent) -> None:
        """The one router: each intent goes to its owner (the vocabulary says which)."""
        feature = features.HANDLERS.get(intent.owner)
        moves = self._moves()
        if feature is not None:
            feature(self, intent)
        elif intent.owner == "saves":
            self._on_saves(intent)
        elif intent.owner == "language":
            you, dealer = _("You"), _("Dealer")
            lang = self._set_language(str(intent.get("value")))
            setup = self.c.ui.setup
            for seat in setup.seats:  # the default names follow the language
                if seat.kind == "you" and seat.name == you:
                    seat.name = _("You")
            if setup.dealer_name == dealer:
                setup.dealer_name = _("Dealer")
            if not self.saves.write_language(lang):
                self.c.announcements.append(_("Your language could not be saved in this browser."))
        else:
            features.before_table(self, intent)
            try:
                with (deferred_comparisons(JUDGE_SLICE_WORK) if intent.kind == "guess"
                      else contextlib.nullcontext()):
                    changed = self.c.dispatch(intent)
            except ComparisonNeeded as need:  # nothing changed: judged in slices, then again
                self._judge(intent, need)
                return
            if changed:
                self.save()
            if intent.kind == "show_setup":
                self.saves.forget_current()
        if self._moves() != moves:
            self.moved_at = float(dom.window.performance.now())
        if intent.kind in NEW_TABLE_KINDS and self.c.ui.screen == "table":
            # a new game's table is a whole new screen: drawn in a task of its own, so
            # that neither the click's task nor the drawing's is long (the browser
            # lays the new screen out in the task that draws it)
            self._drawing = True
            dom.window.setTimeout(self._draw_js, 0)
            return
        self._draw()

    def _draw_tick(self) -> None:
        """The timer after a Start: draw the new game's table (``eleusis:draw``)."""
        if self._drawing:
            self._drawing = False
            measured("eleusis:draw", self._draw)

    def _draw(self) -> None:
        """After a change: the work it calls for, the redraw, the computers' next tick."""
        self.settle()
        self._watch_window()
        self.render()
        self.schedule()

    def _set_language(self, lang: str) -> str:
        """Speak ``lang`` from now on: the messages, ``<html lang>``, the shell's texts."""
        chosen = i18n.set_language(lang)
        shell = dom.window.eleusisI18n
        if dom.nil(shell):
            dom.document.documentElement.lang = chosen
        else:
            shell.apply(chosen)
        return chosen

    def _on_saves(self, intent: Intent) -> None:
        """The saved-games list: continue one, delete one, undo the delete."""
        kind = intent.kind
        if kind == "resume":
            self._resume(intent.text("id"))
        elif kind == "delete_save":
            sid = intent.text("id")
            title = next((str(e["title"]) for e in self.saves.entries() if e["id"] == sid), "")
            raw = self.saves.delete(sid)
            self.deleted = (sid, raw, title) if raw is not None else None
            if raw is not None:
                self.c.announcements.append(
                    _("Deleted {title}. Undo is offered for a moment.").format(title=title))
        elif kind == "delete_corrupt":
            gone = self.saves.delete_corrupt()
            self.c.announcements.append(
                ngettext("Deleted {count} damaged copy of saved games.",
                         "Deleted {count} damaged copies of saved games.", gone).format(
                             count=gone))
        elif kind == "delete_save_undo":
            if self.deleted is not None and self.saves.restore(*self.deleted[:2]):
                self.c.announcements.append(_("{title} is back.").format(
                    title=self.deleted[2]))
            self.deleted = None

    def _moves(self) -> tuple[str, int, int]:
        """Which game, round and move the table is at (to see whether a move was made)."""
        s = self.c.session
        if s is None:
            return ("", 0, 0)
        return (s.id, len(s.rounds), len(s.state.actions))

    def _resume(self, sid: str) -> None:
        def then() -> None:
            session = self.saves.load(sid)
            if session is not None:
                self.c.resume(session)
                self.save()
                self.c.announcements.append(_("The saved game goes on."))
            if deferred:
                self._draw()

        deferred = False
        self._decode_then(sid, then)
        deferred = self._decoding is not None  # not done in one slice: ``then`` comes later

    def save(self) -> None:
        """Write the game after every action (a full storage only leaves a note)."""
        s = self.c.session
        if s is not None:
            self.saves.write(s.to_data(), title_of(s))
            self.c.ui.storage_note = " ".join(self.saves.notes)

    def _judge(self, intent: Intent | None, need: ComparisonNeeded) -> None:
        """Work out the comparison a guess needs in timer slices, then apply the guess
        (a person's: ``intent`` again; a computer's, None: its next step)."""
        self._judging = (intent, need.steps(JUDGE_SLICE_WORK))
        if intent is not None:
            self.c.ui.message = _("Judging your guess\u2026")
            self.c.announcements.append(self.c.ui.message)
            self.render()
        self.root.setAttribute("data-busy", "1")
        dom.window.setTimeout(self._judge_js, 0)

    def _judge_tick(self) -> None:
        if self._judging is None:  # dropped (the player left the table)
            self.root.removeAttribute("data-busy")
            return
        intent, steps = self._judging
        deadline = time.perf_counter() + JUDGE_SLICE_MS / 1000
        for _step in steps:
            if time.perf_counter() >= deadline:
                dom.window.setTimeout(self._judge_js, 0)
                return
        self._judging = None
        self.root.removeAttribute("data-busy")
        if intent is None:
            self.schedule()  # the computer's step applies its guess, remembered now
            return
        self.c.ui.message = ""
        self.dispatch(intent)  # the comparison is remembered now: applied at once

    def schedule(self) -> None:
        """Let the next computer think, one time slice per tick, then act at the pace.

        The scientists' preparation and a decision's slices run back to back
        (0 ms apart, each a short task); a decision made waits until the
        pace's delay since the last move has passed, then is applied.
        """
        c = self.c
        if self.timer is not None or self._judging is not None or self._decoding is not None \
                or c.computer_due() is None:
            return
        delay = 0.0
        if c.computers_ready() and c.computer_decided():
            pace = PACES.get(c.ui.setup.pace, 700)
            waited = float(dom.window.performance.now()) - self.moved_at
            delay = max(0.0, pace - waited)
        self.timer = dom.window.setTimeout(self._step_js, delay)
        self.root.setAttribute("data-busy", "1")

    def _step(self) -> None:
        self.timer = None
        self.root.removeAttribute("data-busy")
        c = self.c
        if not c.computers_ready():
            c.computer_step()  # one slice of the scientists' preparation
            if c.computers_ready():
                keep_out_of_gc()
        else:
            moves = self._moves()
            perf = dom.window.performance
            perf.mark("eleusis:tick:start")
            try:
                with deferred_comparisons(JUDGE_SLICE_WORK):
                    c.computer_step(hold=True)
            except ComparisonNeeded as need:  # a computer's guess: judged in slices first
                perf.clearMarks("eleusis:tick:start")
                self._judge(None, need)
                return
            perf.mark("eleusis:tick:end")
            moved = self._moves() != moves
            # "computer": a tick that applied a move; "think": one slice of a decision
            perf.measure("eleusis:computer" if moved else "eleusis:think",
                         "eleusis:tick:start", "eleusis:tick:end")
            perf.clearMarks("eleusis:tick:start")
            perf.clearMarks("eleusis:tick:end")
            if moved:
                keep_out_of_gc()
                self.moved_at = float(perf.now())
                measured("eleusis:save", self.save)
                self.settle()
                self._watch_window()
                measured("eleusis:render", self.render)
        self.schedule()

    # -- a person's optional step ------------------------------------------------------

    def grace_ms(self, own_play: bool = True) -> int:
        """How long a person's optional step stays offered before the table goes on.

        After someone else's turn (Royal Eleusis lets any scientist declare
        then) the moment is half as long: it comes after every computer turn,
        and waiting the full time each time would slow the whole table.
        """
        if self.grace_override is not None:
            return self.grace_override
        full = WINDOW_GRACE_MS.get(self.c.ui.setup.pace, WINDOW_GRACE_MS["normal"])
        return full if own_play else full // 2  # (0, waiting for "Go on", stays 0)

    def _window_now(self) -> tuple[object, ...] | None:
        c = self.c
        seat = c.window_open()
        s = c.session
        if seat is None or s is None:
            return None
        return (s.id, len(s.rounds), len(s.state.actions), seat)

    def _watch_window(self) -> None:
        """Offer a person's optional step, announced; at the fast paces, for a while.

        After a play the person may declare prophet (or guess, in Express).
        At the slow and normal paces the table waits for "Go on"; at the fast
        ones it goes on by itself after :meth:`grace_ms`, the seconds left
        counted down on the turn line, unless the person is writing a guess
        or has the focus on one of the step's controls.
        """
        key = self._window_now()
        if key == self.window_key:
            return
        if self.window_timer is not None:
            dom.window.clearTimeout(self.window_timer)
            self.window_timer = None
        self.window_key = key
        self.c.ui.window_left = None
        if key is None:
            return
        s = self.c.session
        assert s is not None
        grace = self.grace_ms(own_play=s.state.window == key[3])
        guess = "guess" in legal_kinds(s.state, int(str(key[3])))
        self.window_focus = self._focused_key()  # (a focus already there holds nothing)
        if grace <= 0:
            self.c.announcements.append(
                _("You may guess the rule now. Press Go on when you are done.") if guess
                else _("You may declare yourself prophet now. Press Go on when you are done."))
            return
        seconds = max(1, round(grace / 1000))
        self.c.announcements.append((ngettext(
            "You may guess the rule now: the table goes on by itself in {seconds} second.",
            "You may guess the rule now: the table goes on by itself in {seconds} seconds.",
            seconds) if guess else ngettext(
            "You may declare yourself prophet now: the table goes on by itself in {seconds} "
            "second.",
            "You may declare yourself prophet now: the table goes on by itself in {seconds} "
            "seconds.", seconds)).format(seconds=seconds))
        self.window_deadline = float(dom.window.performance.now()) + grace
        self.c.ui.window_left = seconds
        self.window_timer = dom.window.setTimeout(self._window_js, min(grace, 1000))

    def _focused_key(self) -> str:
        active = dom.document.activeElement
        key = None if dom.nil(active) else active.getAttribute("data-key")
        return "" if dom.nil(key) else str(key)

    def _window_held(self) -> bool:
        """Is the person busy with the optional step (writing a guess, or the focus
        brought onto one of its controls since the step was offered)?"""
        if self.c.ui.guess_open:
            return True
        key = self._focused_key()
        return key in WINDOW_CONTROLS and key != self.window_focus

    def _window_expired(self) -> None:
        """One tick of the moment's countdown; when it is over, the table goes on."""
        self.window_timer = None
        key = self._window_now()
        if key is None or key != self.window_key:
            self.window_key = None
            self._watch_window()
            return
        left = self.window_deadline - float(dom.window.performance.now())
        if left > 50:
            self.c.ui.window_left = max(1, int(left // 1000) + (1 if left % 1000 else 0))
            self.render()
            self.window_timer = dom.window.setTimeout(self._window_js, min(left, 1000))
            return
        if self._window_held():
            self.window_timer = dom.window.setTimeout(self._window_js, WINDOW_RECHECK_MS)
            return
        self.window_key = None
        self.c.ui.window_left = None
        self.dispatch({"type": "continue", "auto": True})

    # -- drawing -------------------------------------------------------------------

    def render(self) -> None:
        """Redraw the screen; announce what happened since the last redraw."""
        c = self.c
        fresh = 0
        screen = c.ui.screen
        if screen == "table" and c.session is None:
            screen = c.ui.screen = "setup"
        ours = features.screen(self)
        panels = features.panels(self, screen) if ours is None else render.Panels()
        if self._decoding is not None:
            screen, title = "opening", _("Opening your game")
            node = render.h("div", {"class": "screen"}, render.h(
                "section", {"class": "notice", "aria-busy": "true"},
                render.h("h2", {"text": title}),
                render.h("p", {"role": "status", "text": _("Checking every move of the saved "
                                                           "game, as it was played.")})))
        elif ours is not None:
            screen, title, node = ours
        elif screen == "setup":
            title = "Eleusis"
            node = render.setup_screen(viewmodel.setup_model(
                c, self.saves.entries(), self.saves.notes,
                self.deleted[2] if self.deleted else "", len(self.saves.corrupt_entries())),
                panels)
        elif screen == "write-rule":
            title = _("Writing the rule")
            node = render.write_rule_screen(viewmodel.write_rule_model(c))
        elif screen == "rule-help":
            title = _("Writing rules")
            guide = rules_page.language_blocks(i18n.language())
            tryable = frozenset(
                line.strip() for k, t in guide if k == "pre" for line in t.splitlines()
                if line.strip() and not viewmodel.rule_check(line.strip())[0]
            ) if c.ui.rule_help_for else frozenset()
            node = render.help_screen(guide, tryable)
        elif screen == "help":
            title = _("How to play")
            node = render.help_screen(rules_page.blocks(lang=i18n.language()))
        elif screen == "round-end" and c.session is not None:
            vm_end = viewmodel.round_end_model(c, self._thoughts_ready())
            title = vm_end.title
            node = render.round_end_screen(
                vm_end, render.layout_board(viewmodel.table_model(c)), panels)
        else:
            vm = viewmodel.table_model(c)
            title = vm.title
            fresh = vm.played if vm.played > self.landed else 0
            self.landed = vm.played
            node = render.table_screen(vm, fresh, panels)
        page = render.h("div", {"class": "page"})
        page.appendChild(render.toolbar(viewmodel.toolbar_model(c, title)))
        if self.saves.notes and screen != "setup":
            page.appendChild(render.h("p", {"class": "notice", "role": "alert",
                                            "text": " ".join(self.saves.notes)}))
        if self.link_message is not None:
            page.appendChild(render.link_notice(self.link_message))
        # each screen its own key: a new screen is made afresh (in one call, see
        # eleusis_web.vdom.create), not patched element by element from the last
        node.attrs.setdefault("data-key", "screen-" + screen)
        page.appendChild(node)
        moment = (screen, c.session.id if c.session else "",
                  len(c.session.rounds) if c.session else 0)
        heading = None
        if moment != self.shown:
            if self.shown is not None:  # not on the first draw: the page opens as it is
                heading = node.find(lambda e: e.tag in ("h1", "h2")) or page.find(
                    lambda e: e.tag in ("h1", "h2"))
            if heading is not None and "tabindex" not in heading.attrs:
                heading.attrs["tabindex"] = "-1"
            self.shown = moment
        self._mark_page(screen)  # before drawing: the layout is worked out once, below
        render.mount(self.root, page)
        if screen == "table" and (fresh or heading is not None):
            self._show_mainline_end(node)
        self._show_guess(node)
        if heading is not None and heading.node is not None:
            # a new screen opens at its top, the focus on its heading
            dom.window.scrollTo(0, 0)
            heading.node.focus(_no_scroll())
        if c.announcements:
            status = dom.element("status")
            status.textContent = " ".join(c.announcements[-4:])
            c.announcements.clear()

    def _mark_page(self, screen: str) -> None:
        """Say on the page which screen and which game it shows (the styles and the
        tests read these attributes), writing only what changed.

        Written before the screen is drawn: the focus and the scrolling that
        follow the drawing make the browser work out the page's layout, and an
        attribute of ``<body>`` changed after that has it do so all over again.
        """
        c = self.c
        s = c.session
        marks = (screen, bool(c.ui.contrast),
                 str(len(s.state.actions)) if s is not None else None,
                 s.setup.variant.replace("_", "-") if s is not None else None)
        if marks == self._marks:
            return
        self._marks = marks
        self.root.setAttribute("data-screen", screen)
        body = dom.document.body
        body.setAttribute("data-screen", screen)
        body.classList.toggle("four-color", bool(c.ui.contrast))
        table = dom.element("table")
        if s is not None:
            self.root.setAttribute("data-turns", marks[2])
            table.setAttribute("data-game", "active")
            table.setAttribute("data-variant", marks[3])
        else:
            table.setAttribute("data-game", "none")

    def settle(self) -> None:
        """The work a change calls for, done after the change and never while drawing.

        A round just over starts the computers' explanations (in timer slices);
        the share features record a finished daily puzzle, start the
        computer's run of a challenge (:func:`eleusis_web.daily_view.settle`,
        :func:`eleusis_web.challenge_view.settle`).
        """
        s = self.c.session
        if s is not None and s.state.over:
            self._start_thoughts()
        daily_view.settle(self)
        challenge_view.settle(self)

    def _show_guess(self, node: El) -> None:
        """Keep the guess panel in view when it opens and when its answer changes (how
        the words were read, the verdict): on a laptop it opens under the hand. When
        it opens, the focus goes to its text field (the player came to type)."""
        box = node.find(lambda e: e.tag == "section" and "guess" in
                        (e.attrs.get("class") or "").split())
        key = None
        if box is not None:
            answer = box.find(lambda e: bool({"reading", "verdict"} & set(
                (e.attrs.get("class") or "").split())))
            key = answer.textContent if answer is not None else ""
        if box is not None and box.node is not None and key != self.guess_seen:
            opts = dom.window.Object.new()
            opts.block = "nearest"
            box.node.scrollIntoView(opts)
            field = box.find(lambda e: e.attrs.get("id") == "guess-text")
            if self.guess_seen is None and field is not None and field.node is not None:
                field.node.focus(_no_scroll())
        self.guess_seen = key

    def _show_mainline_end(self, node: Any) -> None:
        """On a phone the layout scrolls between the toolbar and your hand: after a
        card lands, bring the end of the mainline into view there."""
        if not dom.window.matchMedia("(max-width: 30rem)").matches:
            return
        last = node.find(lambda e: "last" in (e.attrs.get("class") or "").split()
                         and e.tag == "li")
        if last is not None and last.node is not None:
            opts = dom.window.Object.new()
            opts.block = "nearest"
            last.node.scrollIntoView(opts)

    def _thoughts_key(self) -> str:
        s = self.c.session
        return "" if s is None else f"{s.id}:{len(s.rounds)}"

    def _thoughts_ready(self) -> dict[int, list[tuple[str, str, float]]]:
        """The computer scientists' top hypotheses at the end of the round, once worked out."""
        if self.thoughts is not None and self.thoughts_for == self._thoughts_key():
            return self.thoughts
        return {}

    def _start_thoughts(self) -> None:
        """Work out the round-end explanations once, in timer slices
        (:meth:`Brains.explain_steps`): the score sheet shows at once and the
        thoughts join it when ready."""
        c = self.c
        s = c.session
        assert s is not None
        key = self._thoughts_key()
        if self.thoughts is not None and self.thoughts_for == key:
            return
        if self._explaining is None or self._explaining[0] != key:
            brains = c.computers
            if brains is None:
                brains = Brains(s.computer_seats() or {-1: "casual"}, s.setup.seed)
            noise = HUMAN_DEALER_NOISE if s.state.config.rule is None else None
            self._explaining = (key, brains.explain_steps(s.state, noise))
            if self._explain_timer is None:
                self._explain_timer = dom.window.setTimeout(self._explain_js, 0)

    def _explain_tick(self) -> None:
        """One slice of the round-end explanations; redraw when they are ready."""
        self._explain_timer = None
        job = self._explaining
        s = self.c.session
        if job is None or s is None or job[0] != f"{s.id}:{len(s.rounds)}":
            self._explaining = None
            return
        try:
            done = measured("eleusis:explain", lambda: next(job[1]))
        except Exception:  # a courtesy; never block the scores
            done = {}
        if done is None:
            self._explain_timer = dom.window.setTimeout(self._explain_js, 0)
            return
        self.thoughts, self.thoughts_for = done, job[0]
        self._explaining = None
        if self.c.ui.screen == "round-end":
            self.render()


def keep_out_of_gc() -> None:
    """Take what is alive now out of the cyclic garbage collector's walks (``gc.freeze``).

    The computer scientists hold big lists (a posterior of tens of thousands
    of hypotheses per seat) for the whole round; a full collection walking
    them takes tens to hundreds of milliseconds, at a random moment of play.
    Frozen objects are still freed by reference counting when dropped (a new
    round, a new game); only cyclic garbage frozen here would stay, and the
    scientists make none. Costs nothing (the collector's lists are merged).
    """
    gc.freeze()


def legal_kinds(state: Any, seat: int) -> tuple[str, ...]:
    """The kinds of action ``seat`` may take now (the engine's answer)."""
    return tuple(legal_actions(state, seat).kinds)


def _no_scroll() -> Any:
    """``{preventScroll: true}`` for ``focus()``."""
    opts = dom.window.Object.new()
    opts.preventScroll = True
    return opts


def _browser_languages() -> list[str]:
    """``navigator.languages`` (the browser's preferred languages, best first)."""
    try:
        return [str(tag) for tag in dom.to_py(dom.window.navigator.languages) or []]
    except Exception:  # an old browser: one language, or none
        return [str(getattr(dom.window.navigator, "language", "en") or "en")]


def _read_json(text: Any) -> dict[str, Any]:
    """A control's intent JSON as a dict (anything else: an intent that is refused)."""
    try:
        value = safejson.loads(str(text), max_depth=8, max_chars=20_000)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _seed() -> int:
    """A fresh game seed from the browser's clock and random source."""
    return int(dom.window.Date.now()) % 1_000_000_007 ^ int(dom.window.Math.random() * 1e9)


_app: list[App] = []


def app() -> App:
    """The table (installed on first use)."""
    if not _app:
        _app.append(App())
    return _app[0]


def handle_intent(intent: dict[str, Any]) -> None:
    """Act on one intent from the boot bridge (the boot form's quick start)."""
    app().dispatch(intent)


def install() -> None:
    """Install the table and resume the game saved as current (or show the new-game screen)."""
    with contextlib.suppress(LookupError):  # a document without #table gets no table
        app().resume_current()
        app()._route_hash()


# The page imports this module at boot (eleusis_web.main). The table installs
# itself one tick later, so the boot stays light and the page is marked ready
# first; an intent arriving before then (the boot form's Start) installs it at
# once through app().
dom.window.setTimeout(dom.js_function(boot.guarded(install)), 0)
