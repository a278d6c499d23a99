"""Challenge links in the page: write a rule, send a link, a friend plays Solo against it.

"Challenge a friend" on the new-game screen opens an editor (the rule editor's
live check, the rule said in the player's language); "Make the link" gives
``#c=`` + the token of :func:`eleusis.challenge.make_challenge` (the rule is
not readable in it).
Opening such a link starts a Solo game on that rule and deal (saved like any
other, id ``ch-...``). At the end the rule is revealed (the round's end shows
it) and the computer plays the **same deal**: :class:`ComputerRun` does what
:func:`eleusis.challenge.computer_result` does, in time slices (one per browser
tick), so the page never freezes and shows its progress; then
:func:`eleusis.challenge.compare_text` compares both games.
"""

from __future__ import annotations

import hashlib
from collections.abc import Generator, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from eleusis.challenge import (
    MAX_DECISIONS,
    Challenge,
    ChallengeError,
    ComputerResult,
    compare_text,
    finish_result,
    make_challenge,
    open_challenge,
)
from eleusis.game import (
    Action,
    State,
    Variant,
    apply,
    make_config,
    new_game,
)
from eleusis.i18n import _, ngettext
from eleusis.views import view
from eleusis_web import boot, daily_view, dom
from eleusis_web.context import AppContext
from eleusis_web.intents import Intent
from eleusis_web.render import h, intent_attr
from eleusis_web.session import fresh_seed
from eleusis_web.vdom import El
from eleusis_web.viewmodel import link_problem, rule_check

if TYPE_CHECKING:  # the scientist loads when a challenge's computer starts, not at boot
    from eleusis.ai import Scientist

#: Milliseconds of the computer's work per browser tick (its preparation and
#: each decision are cut in slices of about this much, as at the table).
SLICE_MS = 8.0
#: A Solo game's usual length, for the progress bar.
TYPICAL_TURNS = 30

#: The author of a challenge whose writer gave no name (kept in English in the
#: link, like every key; said in the receiver's language on the page).
DEFAULT_AUTHOR = "A friend"


class ComputerRun:
    """The computer's game on a challenge's deal, one time slice per browser tick.

    The same steps as :func:`eleusis.challenge.computer_result`, so the result
    is the same: the scientist's one-off preparation
    (:meth:`Scientist.prepare_steps`) and then each decision
    (:meth:`Scientist.think`) are worked out in slices of about ``SLICE_MS``,
    so the page never runs one long task.
    """

    def __init__(self, challenge: Challenge, strength: str = "strong") -> None:
        from eleusis.ai import Scientist
        from eleusis.ai import strength as preset

        self.level = preset(strength)
        self.challenge = challenge
        self.state: State = new_game(make_config(Variant.SOLO, ["Computer"], challenge.rule,
                                                 challenge.seed))
        self._prepare: Iterator[bool] | None = Scientist.prepare_steps(
            self.level.name, budget_ms=SLICE_MS)
        self.sci: Scientist | None = None
        self._thinking: Generator[None, None, Action] | None = None
        self.decisions = 0
        self.result: ComputerResult | None = None

    def advance(self) -> ComputerResult | None:
        """Work one slice (of the preparation, or of a decision); the result once over."""
        from eleusis.ai import Scientist

        if self.result is not None:
            return self.result
        if self._prepare is not None:
            if next(self._prepare, True):
                self._prepare = None
                self.sci = Scientist(self.level.name, self.challenge.seed)
            return None
        if self.state.over or self.decisions >= MAX_DECISIONS:
            self._finish()
            return self.result
        if self._thinking is None:
            seen = view(self.state, 0)
            assert self.sci is not None  # made when the preparation ended
            self._thinking = self.sci.think(seen, lambda sci: sci.choose_action(seen),
                                            SLICE_MS)
        try:
            next(self._thinking)
        except StopIteration as stop:
            self._thinking = None
            self.state = apply(self.state, stop.value)
            self.decisions += 1
            if self.state.over or self.decisions >= MAX_DECISIONS:
                self._finish()
        return self.result

    def _finish(self) -> None:
        self.result = finish_result(self.level.name, self.state)

    @property
    def progress(self) -> float:
        """0..1, for the progress bar."""
        if self.result is not None:
            return 1.0
        return min(0.95, self.state.turns / TYPICAL_TURNS)


def session_id(token: str) -> str:
    """The saved game's id for a challenge token (stable, short, a valid archive id)."""
    return "ch-" + hashlib.sha256(token.encode("utf-8")).hexdigest()[:16]


def writer_check(rule_text: str, name: str) -> tuple[str, str]:
    """The live check of the challenge editor: (error, the rule in words), in the
    player's language."""
    if not rule_text.strip():
        return "", ""
    err, english = rule_check(rule_text)
    if err:
        return err, ""
    if not name.strip():
        return _("Write your name, so your friend knows who sent the challenge."), english
    return "", english


# --------------------------------------------------------------------------- browser


def _announcement(author: str) -> str:
    """What a player hears on opening a challenge (a nameless author is "a friend")."""
    if author == DEFAULT_AUTHOR:
        return _("A challenge from a friend: find the rule. It is shown at the end.")
    return _("A challenge from {author}: find the rule. It is shown at the end.").format(
        author=author)


def _title(author: str) -> str:
    """The result's title: whose challenge it was."""
    if author == DEFAULT_AUTHOR:
        return _("A friend's challenge")
    return _("{author}'s challenge").format(author=author)


def open_link(app: AppContext, token: str) -> None:
    """Open a ``#c=`` link: start (or continue) the Solo game on the friend's rule."""
    try:
        ch = open_challenge(token)
    except ChallengeError as exc:
        app.link_message = link_problem("challenge", exc)
        return
    app.link_message = None
    daily_view.start_solo(app, session_id(token), ch.start(_("You")), {"challenge": token})
    app.c.announcements.append(_announcement(ch.author))


def handle(app: AppContext, intent: Intent) -> bool:
    """``challenge_*`` intents: the editor's fields, making the link, the computer's run."""

    kind = str(intent.get("type", ""))
    ux = app.ui_extra
    if kind == "challenge_open":
        app.special = "challenge-write"
        ux["ch_link"] = ""
    elif kind == "challenge_back":
        app.special = ""
    elif kind == "challenge_rule":
        ux["ch_rule"] = str(intent.get("value", ""))[:600]
        ux["ch_link"] = ""
    elif kind == "challenge_name":
        ux["ch_name"] = str(intent.get("value", ""))[:40]
        ux["ch_link"] = ""
    elif kind == "challenge_make":

        try:
            token = make_challenge(str(ux.get("ch_rule", "")), fresh_seed() & 0xFFFFFFFF,
                                   str(ux.get("ch_name", "")).strip() or DEFAULT_AUTHOR)
            ux["ch_link"] = f"{dom.base_url()}#c={token}"
            ux["ch_error"] = ""
        except ChallengeError as exc:
            ux["ch_error"] = str(exc)
    elif kind == "challenge_share":
        link = str(ux.get("ch_link", ""))
        if link:
            app.share_note = dom.share_or_copy(link, _("An Eleusis challenge"), "challenge-link")
    return True


@dataclass(frozen=True, slots=True)
class WriterVM:
    """The challenge editor: the name and rule typed, their check, the link made."""

    name: str
    rule: str
    error: str  # the rule's (or the name's) problem, "" when ready
    english: str
    problem: str  # why the last "Make the link" failed, or ""
    link: str
    note: str  # the share sheet's last word ("Copied.")

    @property
    def ready(self) -> bool:
        """A link can be made from what is typed."""
        return bool(self.rule.strip()) and not self.error


def writer_model(app: AppContext) -> WriterVM:
    """The editor's model, from what the player typed (the check is cached per text)."""
    ux = app.ui_extra
    rule = str(ux.get("ch_rule", ""))
    name = str(ux.get("ch_name", _("You")))
    err, english = writer_check(rule, name)
    return WriterVM(name, rule, err, english, str(ux.get("ch_error", "") or ""),
                    str(ux.get("ch_link", "")), app.share_note)


def render_writer(vm: WriterVM) -> El:
    """The challenge editor: your name, the rule (checked live), the link to send."""
    box = h("section", {"class": "challenge-write", "aria-labelledby": "ch-title"},
            h("h2", {"id": "ch-title", "text": _("Challenge a friend")}),
            h("p", {"text": _("Write a secret rule; your friend plays Solo against it. The "
                              "link hides the rule; at the end your friend sees it and how "
                              "the computer did on the same deal.")}))
    box.appendChild(h("label", {"class": "field", "for": "ch-name"},
                      h("span", {"class": "field-label", "text": _("Your name")})))
    box.appendChild(h("input", {"type": "text", "id": "ch-name", "value": vm.name,
                                "maxlength": "40", "data-key": "ch-name",
                                "data-input": "challenge_name"}))
    box.appendChild(h("label", {"class": "field", "for": "ch-rule"},
                      h("span", {"class": "field-label", "text": _("The secret rule")})))
    box.appendChild(h("textarea", {"id": "ch-rule", "rows": "3", "value": vm.rule,
                                   "spellcheck": "false", "data-key": "ch-rule",
                                   "data-input": "challenge_rule",
                                   "placeholder": ("if prev is red then card is black "
                                                   "else card is red")}))
    if vm.error:
        box.appendChild(h("p", {"class": "rule-error", "role": "status", "text": vm.error}))
    elif vm.english:
        box.appendChild(h("p", {"class": "rule-english", "text": vm.english}))
    if vm.problem:
        box.appendChild(h("p", {"class": "message", "role": "alert", "text": vm.problem}))
    box.appendChild(h("div", {"class": "controls"},
                      h("button", {"type": "button", "class": "button button-primary",
                                   "text": _("Make the link"), "data-key": "ch-make",
                                   "aria-disabled": None if vm.ready else "true",
                                   "data-intent": intent_attr({"type": "challenge_make"})}),
                      h("button", {"type": "button", "class": "button", "text": _("Back"),
                                   "data-key": "ch-back",
                                   "data-intent": intent_attr({"type": "challenge_back"})})))
    if vm.link:
        box.appendChild(h("label", {"class": "field", "for": "challenge-link"},
                          h("span", {"class": "field-label", "text": _("Challenge link")})))
        box.appendChild(h("input", {"type": "text", "id": "challenge-link", "readonly": True,
                                    "class": "share-link", "value": vm.link,
                                    "data-key": "ch-link"}))
        box.appendChild(h("div", {"class": "controls"},
                          h("button", {"type": "button", "class": "button",
                                       "text": _("Share the challenge"), "data-key": "ch-share",
                                       "data-intent": intent_attr(
                                           {"type": "challenge_share"})})))
        if vm.note:
            box.appendChild(h("p", {"class": "share-note", "role": "status",
                                    "text": vm.note}))
    return h("div", {"class": "screen screen-challenge"}, box)


def render_entry() -> El:
    """The new-game screen's "Challenge a friend" card."""
    return h("div", {"class": "share-entry challenge-entry"},
             h("h3", {"text": _("Challenge a friend")}),
             h("p", {"text": _("Write a rule and send a link: your friend plays Solo "
                               "against it.")}),
             h("button", {"type": "button", "class": "button", "text": _("Challenge a friend"),
                          "data-key": "challenge-open",
                          "data-intent": intent_attr({"type": "challenge_open"})}))


def _tick(app: AppContext) -> None:
    run = app.ui_extra.get("ch_run")
    app.ui_extra["ch_timer"] = None
    if not isinstance(run, ComputerRun):
        return
    before = (run.decisions, run.result is None)
    run.advance()
    if (run.decisions, run.result is None) != before:  # redraw on progress only
        app.render()
    _schedule(app)


def _schedule(app: AppContext) -> None:
    run = app.ui_extra.get("ch_run")
    if not isinstance(run, ComputerRun) or run.result is not None \
            or app.ui_extra.get("ch_timer") is not None:
        return
    if "ch_tick_js" not in app.ui_extra:
        def tick() -> None:
            _tick(app)

        app.ui_extra["ch_tick_js"] = dom.js_function(boot.guarded(tick))
    app.ui_extra["ch_timer"] = dom.window.setTimeout(app.ui_extra["ch_tick_js"], 0)


def settle(app: AppContext) -> None:
    """After a change: when a challenge round has ended, the computer plays the same deal
    (in timer slices, once per game)."""
    s = app.c.session
    token = s.extra.get("challenge") if s is not None else None
    if s is None or not token or not s.state.over:
        return
    run = app.ui_extra.get("ch_run")
    if isinstance(run, ComputerRun) and app.ui_extra.get("ch_run_for") == s.id:
        return
    try:
        ch = open_challenge(str(token))
    except ChallengeError:
        return
    app.ui_extra["ch_run"] = ComputerRun(ch)
    app.ui_extra["ch_run_for"] = s.id
    _schedule(app)


@dataclass(frozen=True, slots=True)
class ResultVM:
    """A challenge's end: whose rule it was, and the computer on the same deal."""

    author: str
    rule: str
    progress: float  # the computer's run, 0..1 (1 when done)
    compare: str  # "" while the computer plays
    summary: str


def result_model(app: AppContext) -> ResultVM | None:
    """The result panel's model at the end of a challenge game (once its run started)."""
    s = app.c.session
    token = s.extra.get("challenge") if s is not None else None
    if s is None or not token or not s.state.over:
        return None
    try:
        ch = open_challenge(str(token))
    except ChallengeError:
        return None
    run = app.ui_extra.get("ch_run")
    if not isinstance(run, ComputerRun) or app.ui_extra.get("ch_run_for") != s.id:
        return None  # not started yet (see settle)
    r = run.result
    if r is None:
        return ResultVM(ch.author, ch.rule, run.progress, "", "")
    return ResultVM(ch.author, ch.rule, 1.0, compare_text(s.state, r), summary_text(r))


def summary_text(r: ComputerResult) -> str:
    """How the computer did on the friend's deal, in a sentence."""
    if r.solved:
        text = ngettext("The computer found the rule in {count} turn (wrong guesses: {wrong}).",
                        "The computer found the rule in {count} turns (wrong guesses: {wrong}).",
                        r.turns)
    else:
        text = ngettext("The computer missed the rule in {count} turn (wrong guesses: {wrong}).",
                        "The computer missed the rule in {count} turns (wrong guesses: {wrong}).",
                        r.turns)
    return text.format(count=r.turns, wrong=r.wrong_guesses)


def render_result(vm: ResultVM) -> El:
    """Draw a challenge's result (a progress bar while the computer plays)."""
    box = h("section", {"class": "share-box challenge-result",
                        "aria-labelledby": "ch-result-title"},
            h("h3", {"id": "ch-result-title", "text": _title(vm.author)}),
            h("p", {"text": _("The rule your friend wrote:") + " "},
              h("code", {"class": "rule-text", "data-testid": "challenge-rule",
                         "text": vm.rule})))
    if not vm.compare:
        box.appendChild(h("p", {"text": _("The computer is playing the same deal…"),
                                "id": "ch-progress-label"}))
        box.appendChild(h("progress", {"max": "100", "value": str(int(vm.progress * 100)),
                                       "aria-labelledby": "ch-progress-label"}))
    else:
        box.appendChild(h("p", {"class": "compare", "data-testid": "challenge-compare",
                                "text": vm.compare}))
        box.appendChild(h("p", {"text": vm.summary}))
    return box


__all__ = [
    "ComputerRun",
    "ResultVM",
    "WriterVM",
    "handle",
    "open_link",
    "render_entry",
    "render_result",
    "render_writer",
    "result_model",
    "session_id",
    "settle",
    "summary_text",
    "writer_check",
    "writer_model",
]
