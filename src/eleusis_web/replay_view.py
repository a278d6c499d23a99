"""The replay viewer: a finished (or running) round from a ``#r=`` link, step by step.

A link carries everything (:func:`eleusis.replay.encode`): the viewer needs no
saved state. :func:`open_replay` decodes it (the engine re-applies every
action, so a tampered log is refused with :class:`~eleusis.replay.ReplayError`)
and keeps the state after each action, so any step shows at once. The page
opens a link through :class:`ReplayLoad`, the same decoding in time slices
(:func:`eleusis.replay.decode_steps`): a link at the engine's bounds (2,000
moves, 24 guesses each judged by an exact comparison of rules) takes
seconds, and the page keeps answering meanwhile, showing how far it got
(:func:`render_loading`).
:func:`replay_model` is the pure view model of one step (the layout, the last
moves, the rule and its English, the final scores, the notebook checked
against the evidence at that step); :func:`render_replay` draws it with
``createElement``/``textContent`` only -- names and rule texts from a link
are never markup.
"""

from __future__ import annotations

import time
import unicodedata
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from eleusis import narrate
from eleusis.game import State
from eleusis.i18n import _, ngettext
from eleusis.notebook import Notebook, NotebookError, check, evidence
from eleusis.replay import Progress, ReplayError, decode_steps
from eleusis.state import state_hash_steps
from eleusis.views import view
from eleusis_web.render import card_face, h, intent_attr, rule_reveal
from eleusis_web.session import VARIANTS
from eleusis_web.vdom import El
from eleusis_web.viewmodel import (
    ColumnVM,
    ScoreRowVM,
    card_vm,
    rule_check,
    said_in_language,
)

#: The longest replay the viewer keeps every step of (a round is far shorter).
MAX_STEPS = 5000
LOG_LINES = 8
#: Units of exact comparison of rules in one step of the decoding
#: (:data:`eleusis.rules.compare.SLICE_WORK` is 2,000: up to 20 ms on CPython for
#: the costliest rules, two to three times that in Pyodide; a quarter of it keeps
#: every step of a replay's decoding to a few milliseconds).
DECODE_SLICE_WORK = 500
#: Milliseconds of decoding per browser task (then the page draws and answers).
DECODE_SLICE_MS = 8.0


def shown(text: str) -> str:
    """``text`` safe to show: control and bidi-override characters become "�".

    Texts from a link are always written with ``textContent``; this also stops a
    right-to-left override in a name from reversing the rest of a sentence.
    """
    return "".join(
        "\ufffd" if (unicodedata.category(ch) in ("Cc", "Cf") and ch not in "\n\t")
        else ch for ch in text)


@dataclass
class Replay:
    """A decoded replay: the state after each action, the step shown, playing or not."""

    states: list[State]
    notebook: Notebook | None = None
    step: int = 0
    playing: bool = False
    final_hash: str = field(default="")
    #: what the viewer should know about the link (a damaged notebook part), or ""
    note: str = ""

    @property
    def final(self) -> State:
        """The last state of the link."""
        return self.states[-1]

    @property
    def last(self) -> int:
        """The number of the last step (= the number of actions)."""
        return len(self.states) - 1

    def seek(self, step: int) -> None:
        """Show ``step`` (clamped to the replay)."""
        self.step = max(0, min(self.last, step))
        if self.step >= self.last:
            self.playing = False


def open_replay(text: str, notebook_token: str | None = None) -> Replay:
    """Decode a replay text (and an optional notebook token) into a viewer at step 0.

    Raises :class:`ReplayError` (a clear message) for a bad text; a bad notebook
    token is dropped (the replay still opens, :attr:`Replay.note` says so) rather
    than refusing the link. The moves are applied once (the log's size is
    checked before any move is applied). In one go: the page uses
    :class:`ReplayLoad`, which gives the same viewer in time slices.
    """
    return ReplayLoad(text, notebook_token).finish()


class ReplayLoad:
    """A replay link being opened in time slices: :meth:`advance` once per browser task.

    The same work and the same result as :func:`open_replay` (which is this, run
    to the end in one go), cut by :func:`eleusis.replay.decode_steps` into steps
    of a few milliseconds.
    """

    def __init__(self, text: str, notebook_token: str | None = None) -> None:
        self.notebook_token = notebook_token
        self._steps = self._work(text)
        #: how far the decoding has gone (moves applied of the log's moves)
        self.progress = Progress(0, 0)
        #: the opened replay, once done
        self.replay: Replay | None = None

    def _work(self, text: str) -> Generator[None, None, Replay]:
        steps = decode_steps(text, slice_work=DECODE_SLICE_WORK)
        while True:
            try:
                self.progress = next(steps)
            except StopIteration as end:
                states: list[State] = list(end.value)
                break
            yield None
        if len(states) - 1 > MAX_STEPS:
            raise ReplayError(f"this replay is too long to show ({len(states) - 1} moves)")
        final_hash = yield from state_hash_steps(states[-1])  # tens of ms for a long round
        return _viewer(states, self.notebook_token, final_hash)

    def advance(self, budget_ms: float | None = DECODE_SLICE_MS) -> Replay | None:
        """Decode for about ``budget_ms`` (None: to the end); the replay once opened.

        Raises :class:`ReplayError` for a bad link (at the first call when the
        text itself is bad: it is read and counted before any move is applied).
        """
        if self.replay is not None:
            return self.replay
        deadline = None if budget_ms is None else time.perf_counter() + budget_ms / 1000
        while True:
            try:
                next(self._steps)
            except StopIteration as end:
                self.replay = end.value
                return self.replay
            if deadline is not None and time.perf_counter() >= deadline:
                return None

    def finish(self) -> Replay:
        """Decode the rest in one go: the replay (or :class:`ReplayError`)."""
        done = self.advance(None)
        assert done is not None  # advance(None) runs to the end or raises
        return done


def _viewer(states: list[State], notebook_token: str | None, final_hash: str) -> Replay:
    """The viewer of decoded states at step 0 (the notebook token read, or dropped)."""
    nb: Notebook | None = None
    note = ""
    if notebook_token:
        try:
            nb = Notebook.from_token(notebook_token)
        except NotebookError:
            note = _("The notebook part of this link is damaged, so it is not shown; "
                     "the round itself is whole.")
    return Replay(states, nb, 0, False, final_hash, note)


@dataclass(frozen=True, slots=True)
class NoteVM:
    """A notebook entry as the replay shows it at the current step."""

    text: str
    ticked: bool
    verdict: str  # "fits every verdict so far", "contradicted by 2 cards", the parse error
    consistent: bool


@dataclass(frozen=True, slots=True)
class ReplayVM:
    """One step of a replay, ready to draw."""

    title: str
    step: int
    last: int
    playing: bool
    names: tuple[str, ...]
    rule: str
    english: str
    columns: tuple[ColumnVM, ...]
    log: tuple[str, ...]
    scores: tuple[ScoreRowVM, ...]
    reason: str
    stock: int
    state_hash: str
    notes: tuple[NoteVM, ...] = ()
    hints: tuple[str, ...] = ()
    note: str = ""  # about the link itself (a damaged notebook part)


def replay_model(r: Replay) -> ReplayVM:
    """The view model of the step shown."""
    state = r.states[r.step]
    final = r.final
    names = tuple(shown(n) for n in final.config.names)
    sv = view(state, None)
    columns = tuple(
        ColumnVM(card_vm(col.card.card, horizontal=col.card.horizontal, n=col.card.n),
                 tuple(card_vm(x.card, horizontal=x.horizontal, n=x.n) for x in col.sideline),
                 i == len(sv.layout) - 1)
        for i, col in enumerate(sv.layout)
    )
    log = tuple(shown(line) for line in reversed(
        narrate.describe_events(state.events[-LOG_LINES:], names)))
    rule = final.config.rule or ""
    english = (said_in_language(rule, rule_check(rule)[1]) if rule
               else _("The dealer judged every play by hand."))
    scores: tuple[ScoreRowVM, ...] = ()
    reason = ""
    if final.result is not None:
        res = final.result
        scores = tuple(
            ScoreRowVM(name, res.scores[i], res.details[i] if i < len(res.details) else "",
                       res.scores[i])
            for i, name in enumerate(names) if i < len(res.scores))
        reason = narrate.why(res.reason)
    notes: list[NoteVM] = []
    if r.notebook is not None and r.notebook.entries:
        ev = evidence(state)
        for entry in r.notebook.entries:
            nc = check(entry.text, ev)
            if not nc.parsed:
                verdict = _("not a rule: {error}").format(error=nc.error)
            elif nc.consistent:
                verdict = ngettext("fits the {count} verdict so far",
                                   "fits all {count} verdicts so far",
                                   nc.checked).format(count=nc.checked)
            else:
                k = len(nc.contradictions)
                verdict = ngettext("contradicted by {count} verdict",
                                   "contradicted by {count} verdicts", k).format(count=k)
            notes.append(NoteVM(shown(entry.text), entry.ticked, shown(verdict),
                                nc.consistent))
    variant = VARIANTS.get(final.config.variant.value.replace("-", "_"),
                           final.config.variant.value)
    return ReplayVM(
        title=_("Replay: {variant}").format(variant=variant),
        step=r.step,
        last=r.last,
        playing=r.playing,
        names=tuple(names),
        rule=rule,
        english=english,
        columns=columns,
        log=log,
        scores=scores,
        reason=reason,
        stock=len(state.stock),
        state_hash=r.final_hash,
        notes=tuple(notes),
        hints=tuple(shown(_("{name}: {hint}").format(
            name=names[x.seat] if 0 <= x.seat < len(names) else _("The dealer"), hint=x.text))
            for x in state.hints),
        note=r.note,
    )


# --------------------------------------------------------------------------- drawing


def render_loading(load: ReplayLoad) -> El:
    """The screen while a link is being opened: how far, and a way out."""
    done, total = load.progress.done, load.progress.total
    box = h("section", {"class": "replay replay-loading", "id": "replay-loading",
                        "aria-labelledby": "replay-title", "aria-busy": "true"},
            h("h2", {"id": "replay-title", "text": _("Opening the replay")}),
            h("p", {"role": "status", "id": "replay-loading-label",
                    "text": _("Checking every move of the round, as it was played.")}),
            h("progress", {"max": str(max(1, total)), "value": str(done),
                           "data-testid": "replay-progress",
                           "aria-labelledby": "replay-loading-label",
                           "aria-valuetext": _("move {done} of {total}").format(
                               done=done, total=total)}),
            h("p", {"class": "replay-count", "text": _("Move {done} of {total}").format(
                done=done, total=total)}),
            h("div", {"class": "controls"},
              h("button", {"type": "button", "class": "button", "text": _("Stop"),
                           "data-key": "rp-stop",
                           "data-intent": intent_attr({"type": "replay_close"})})))
    return h("div", {"class": "screen screen-replay"}, box)


def render_replay(vm: ReplayVM) -> El:
    """The viewer: controls, scrubber, the layout at the step, the rule and the scores."""
    def ctl(text: str, kind: str, key: str, enabled: bool = True, **extra: Any) -> El:
        attrs: dict[str, Any] = {"type": "button", "class": "button", "text": text,
                                 "data-key": key,
                                 "data-intent": intent_attr({"type": kind, **extra})}
        if not enabled:
            attrs["aria-disabled"] = "true"
        return h("button", attrs)

    box = h("section", {"class": "replay", "id": "replay", "aria-labelledby": "replay-title",
                        "data-state-hash": vm.state_hash, "data-step": str(vm.step),
                        "data-last": str(vm.last)})
    box.appendChild(h("h2", {"id": "replay-title", "text": vm.title}))
    box.appendChild(h("p", {"class": "replay-players",
                            "text": _("Players: {names}").format(names=", ".join(vm.names))}))
    if vm.note:
        box.appendChild(h("p", {"class": "notice", "role": "status",
                                "data-testid": "replay-note", "text": vm.note}))
    bar = h("div", {"class": "replay-controls", "role": "group",
                    "aria-label": _("Replay controls")},
            ctl(_("First"), "replay_seek", "rp-first", vm.step > 0, value=0),
            ctl(_("◀ Back"), "replay_seek", "rp-back", vm.step > 0, value=vm.step - 1),
            ctl(_("Pause") if vm.playing else _("▶ Play"), "replay_toggle", "rp-play",
                vm.step < vm.last or vm.playing),
            ctl(_("Step ▶"), "replay_seek", "rp-step", vm.step < vm.last, value=vm.step + 1),
            ctl(_("Last"), "replay_seek", "rp-last", vm.step < vm.last, value=vm.last))
    box.appendChild(bar)
    scrub = h("input", {"type": "range", "min": "0", "max": str(vm.last),
                        "value": str(vm.step), "class": "replay-scrubber",
                        "id": "replay-scrubber", "data-key": "rp-scrub",
                        "data-change": intent_attr({"type": "replay_seek"}),
                        "aria-label": _("Move"), "aria-valuetext":
                        _("move {done} of {total}").format(done=vm.step, total=vm.last)})
    box.appendChild(h("label", {"class": "replay-scrub"},
                      h("span", {"class": "replay-count", "data-testid": "replay-step",
                                 "text": _("Move {done} of {total}").format(
                                     done=vm.step, total=vm.last)}), scrub))

    line = h("ol", {"class": "layout", "aria-label": _("Mainline at this move")})
    for i, col in enumerate(vm.columns):
        li = h("li", {"class": "column expanded" + (" last" if col.last else ""),
                      "data-col": str(i)})
        li.appendChild(card_face(col.card, attrs={"data-code": col.card.code,
                                                  "class": "card mainline-card " + (
                                                      "red" if col.card.red else "black")}))
        if col.sideline:
            side = h("div", {"class": "sideline", "role": "group",
                             "aria-label": _("Wrong cards under {card}").format(
                                 card=col.card.label)})
            for j, sc in enumerate(col.sideline):
                side.appendChild(card_face(sc, attrs={
                    "data-code": sc.code, "data-side": str(j),
                    "class": "card side-card " + ("back" if sc.face_down else
                                                  "red" if sc.red else "black")}))
            li.appendChild(side)
        line.appendChild(li)
    board = h("section", {"class": "board replay-board", "aria-label": _("Layout")},
              h("div", {"class": "info-strip"},
                h("span", {"class": "chip",
                           "text": _("Stock {count}").format(count=vm.stock)})), line)
    log = h("ol", {"class": "log", "aria-label": _("Moves up to this one, newest first")})
    for i, text in enumerate(vm.log):
        log.appendChild(h("li", {"class": "latest" if i == 0 else None, "text": text}))
    board.appendChild(log)
    if vm.hints:
        hl = h("ul", {"class": "hints", "aria-label": _("Hints")})
        for text in vm.hints:
            hl.appendChild(h("li", {"text": text}))
        board.appendChild(h("div", {"class": "hint-box"}, h("h3", {"text": _("Hints")}), hl))
    box.appendChild(board)

    # the secret rule stays hidden until the viewer asks: a replay is also a puzzle
    box.appendChild(h("details", {"class": "reveal-box", "data-key": "rp-rule"},
                      h("summary", {"class": "button button-quiet",
                                    "text": _("Show the secret rule")}),
                      rule_reveal(vm.rule, vm.english, "replay-rule")))

    if vm.scores:
        table = h("table", {"class": "scores", "aria-label": _("Final scores")},
                  h("caption", {"text": (_("Final scores") if vm.step == vm.last else
                                         _("Final scores (at the last move)"))
                                + (f" — {vm.reason}" if vm.reason else "")}),
                  h("thead", {}, h("tr", {}, h("th", {"scope": "col", "text": _("Player")}),
                                   h("th", {"scope": "col", "text": _("Score")}),
                                   h("th", {"scope": "col", "text": _("How")}))))
        body = h("tbody")
        for row in vm.scores:
            body.appendChild(h("tr", {}, h("th", {"scope": "row", "text": row.name}),
                               h("td", {"class": "num", "text": str(row.score)}),
                               h("td", {"text": row.detail})))
        table.appendChild(body)
        box.appendChild(table)
    if vm.notes:
        nb = h("section", {"class": "notebook notebook-replay",
                           "aria-label": _("The player's notebook")},
               h("h3", {"text": _("The player's notebook")}))
        ul = h("ul", {"class": "notebook-list"})
        for n in vm.notes:
            ul.appendChild(h("li", {"class": "note" + (" ticked" if n.ticked else "")
                                    + (" fits" if n.consistent else " contradicted")},
                             h("code", {"class": "note-text", "text": n.text}),
                             h("span", {"class": "note-verdict", "text": n.verdict})))
        nb.appendChild(ul)
        box.appendChild(nb)
    box.appendChild(h("div", {"class": "controls"},
                      ctl(_("Close the replay"), "replay_close", "rp-close")))
    return h("div", {"class": "screen screen-replay"}, box)


__all__ = ["NoteVM", "Replay", "ReplayError", "ReplayLoad", "ReplayVM", "open_replay",
           "render_loading", "render_replay", "replay_model"]
