"""The scientist's notebook beside the table: candidate rules checked against the evidence.

The player writes candidate rules in the rule language (checked live as they
type); each kept one is checked (:func:`eleusis.notebook.check`) against the
evidence every player can see -- the mainline and every sideline card -- and
the cards that contradict the highlighted entry get the ``contradicts`` class
on the layout. Entries can be ticked off, moved up and down, removed. The
notebook is kept with the game (``Session.extra["notebook"]``, saved after
every change) and travels in replay links (``&n=``).

:func:`notebook_model` is the pure view model (tested on CPython);
:func:`render_notebook` draws it; the table screen places it beside the players
and marks the cards of ``NotebookVM.highlight`` on the layout.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from eleusis.i18n import _, ngettext
from eleusis.notebook import Evidence, Location, Notebook, NotebookError, check, evidence
from eleusis.views import view
from eleusis_web.context import AppContext
from eleusis_web.intents import Intent
from eleusis_web.render import h, intent_attr
from eleusis_web.session import Session
from eleusis_web.vdom import El
from eleusis_web.viewmodel import english_reading, rule_check


@dataclass(frozen=True, slots=True)
class EntryVM:
    """One candidate rule as the panel shows it."""

    index: int
    id: int
    text: str
    ticked: bool
    error: str  # the parser's message ("" for a rule)
    english: str
    checked: int
    sentences: tuple[str, ...]  # one per contradicting verdict
    locations: tuple[Location, ...]
    focused: bool

    @property
    def verdict(self) -> str:
        """A few words: fits everything, or how many verdicts contradict it."""
        if self.error:
            return _("Not a rule: {error}").format(error=self.error)
        if not self.sentences:
            return ngettext("Fits the {count} verdict on the table.",
                            "Fits all {count} verdicts on the table.",
                            self.checked).format(count=self.checked)
        k = len(self.sentences)
        return ngettext("Contradicted by {count} verdict.", "Contradicted by {count} verdicts.",
                        k).format(count=k)


@dataclass(frozen=True, slots=True)
class NotebookVM:
    """The panel: the draft with its live check, the entries, the places to highlight."""

    draft: str
    draft_error: str
    draft_english: str
    entries: tuple[EntryVM, ...]
    highlight: tuple[Location, ...]
    message: str = ""


def notebook_model(nb: Notebook, ev: Evidence, draft: str = "", focus: int | None = None,
                   message: str = "") -> NotebookVM:
    """The panel's view model; ``focus`` is the id of the entry whose cards are highlighted.

    Without a focus (or when the focused entry is gone or contradicted by
    nothing), the first entry not ticked off that has contradictions is
    highlighted; ticking an entry off thus drops its highlights unless the
    player asks for them ("Show cards").
    """
    checks = [check(e.text, ev) for e in nb.entries]
    contradicted = [e.id for e, c in zip(nb.entries, checks, strict=True) if c.contradictions]
    if focus not in contradicted:
        focus = next((e.id for e, c in zip(nb.entries, checks, strict=True)
                      if not e.ticked and c.contradictions), None)
    entries = tuple(
        EntryVM(i, e.id, e.text, e.ticked, c.error or "", c.english, c.checked,
                tuple(x.sentence for x in c.contradictions), c.locations, e.id == focus)
        for i, (e, c) in enumerate(zip(nb.entries, checks, strict=True))
    )
    highlight = next((e.locations for e in entries if e.focused), ())
    err, english = rule_check(draft) if draft.strip() else ("", "")
    return NotebookVM(draft, err, english, entries, highlight, message)


def session_notebook(session: Session | None) -> Notebook | None:
    """The notebook kept with a session, if any (bad data: none)."""
    data = session.extra.get("notebook") if session is not None else None
    if data is None:
        return None
    try:
        return Notebook.from_data(data)
    except ValueError:
        return None


def apply_intent(nb: Notebook, intent: Intent, draft: str) -> tuple[Notebook, str, str]:
    """One notebook intent on ``nb``: (new notebook, new draft, message). Never raises."""
    kind = str(intent.get("type", ""))
    try:
        index = int(str(intent.get("index", -1)))
    except ValueError:
        index = -1
    try:
        if kind == "nb_add":
            text = draft.strip()
            if not text:
                return nb, draft, _("Write a candidate rule first.")
            err, _english = rule_check(text)
            if err:
                reading = english_reading(text)
                if reading is not None and len(reading.rules) == 1:
                    rule, english = reading.rules[0]  # plain English: added as it was read
                    return nb.add(rule), "", _("Read as {rule} ({words})").format(
                        rule=rule, words=english)
                if reading is not None and reading.rules:
                    options = " · ".join(r for r, _words in reading.rules)
                    return nb, draft, _("Not added: that could mean different rules: "
                                        "{options}").format(options=options)
                return nb, draft, _("Not added: {error}").format(error=err)
            return nb.add(text), "", ""
        if kind == "nb_tick":
            ticked = str(intent.get("value", "1")) in ("1", "true", "True")
            return nb.tick(index, ticked), draft, ""
        if kind == "nb_up":
            return nb.move_up(index), draft, ""
        if kind == "nb_down":
            return nb.move_down(index), draft, ""
        if kind == "nb_remove":
            return nb.remove(index), draft, ""
    except NotebookError as exc:
        return nb, draft, str(exc)
    return nb, draft, ""


# --------------------------------------------------------------------------- browser


def _notebook(app: AppContext) -> Notebook:

    return session_notebook(app.c.session) or Notebook()


def handle(app: AppContext, intent: Intent) -> bool:
    """Notebook intents (``nb_*``): update, keep with the game, save."""
    kind = str(intent.get("type", ""))
    s = app.c.session
    if s is None:
        return True
    if kind == "nb_text":
        app.ui_extra["nb_text"] = str(intent.get("value", ""))[:600]
        return True
    if kind == "nb_focus":
        with contextlib.suppress(ValueError):
            app.ui_extra["nb_focus"] = int(str(intent.get("id", "")))
        return True
    nb = _notebook(app)
    new, draft, message = apply_intent(nb, intent, str(app.ui_extra.get("nb_text", "")))
    app.ui_extra["nb_text"] = draft
    app.ui_extra["nb_message"] = message
    if kind == "nb_add" and len(new) > len(nb):
        app.ui_extra["nb_focus"] = new.entries[-1].id
    if new is not nb:
        s.extra["notebook"] = new.to_data()
        app.save()
    return True


def panel_model(app: AppContext) -> NotebookVM | None:
    """The panel's model for the game on the table (None without one)."""
    s = app.c.session
    if s is None:
        return None
    focus = app.ui_extra.get("nb_focus")
    return notebook_model(_notebook(app), evidence(view(s.state, None)),
                          str(app.ui_extra.get("nb_text", "")),
                          focus if isinstance(focus, int) else None,
                          str(app.ui_extra.get("nb_message", "")))


def render_notebook(vm: NotebookVM) -> El:
    """Draw the notebook (the table puts it beside the players and marks ``vm.highlight``)."""
    panel = h("section", {"class": "notebook", "id": "notebook",
                          "aria-labelledby": "notebook-title"},
              h("h3", {"id": "notebook-title", "text": _("Notebook")}),
              h("p", {"class": "notebook-help",
                      "text": _("Write candidate rules; each is checked against every card "
                                "on the table.")}))
    row = h("div", {"class": "notebook-add"},
            h("input", {"type": "text", "id": "nb-text", "class": "notebook-input",
                        "data-key": "nb-text", "data-input": "nb_text",
                        "value": vm.draft, "autocomplete": "off", "spellcheck": "false",
                        "aria-label": _("Candidate rule, in the rule language"),
                        "placeholder": "card is red"}),
            h("button", {"type": "button", "class": "button", "text": _("Add to notebook"),
                         "data-key": "nb-add", "data-intent": intent_attr({"type": "nb_add"}),
                         "aria-disabled": "true" if vm.draft_error or not vm.draft.strip()
                         else None}))
    panel.appendChild(row)
    if vm.draft_error:
        panel.appendChild(h("p", {"class": "rule-error", "text": vm.draft_error}))
    elif vm.draft_english:
        panel.appendChild(h("p", {"class": "rule-english", "text": vm.draft_english}))
    if vm.message:
        panel.appendChild(h("p", {"class": "message", "role": "alert", "text": vm.message}))
    ul = h("ol", {"class": "notebook-list", "aria-label": _("Candidate rules")})
    last = len(vm.entries) - 1
    for e in vm.entries:
        number = e.index + 1
        li = h("li", {"class": "note" + (" ticked" if e.ticked else "")
                      + (" fits" if not e.error and not e.sentences else " contradicted")
                      + (" focused" if e.focused else ""),
                      "data-entry": str(e.id), "data-testid": f"note-{e.index}"})
        li.appendChild(h("label", {"class": "note-tick"},
                         h("input", {"type": "checkbox", "checked": e.ticked,
                                     "data-key": f"nb-tick-{e.id}",
                                     "data-change": intent_attr({"type": "nb_tick",
                                                                 "index": e.index}),
                                     "aria-label": _("Tick off rule {number}").format(
                                         number=number)}),
                         h("code", {"class": "note-text", "text": e.text})))
        li.appendChild(h("p", {"class": "note-verdict", "text": e.verdict}))
        if e.sentences:
            details = h("ul", {"class": "note-why"})
            for sentence in e.sentences[:4]:
                details.appendChild(h("li", {"text": sentence}))
            li.appendChild(details)
        tools = h("div", {"class": "note-tools"})
        if e.sentences:
            tools.appendChild(h("button", {
                "type": "button", "class": "button button-quiet", "text": _("Show cards"),
                "data-key": f"nb-focus-{e.id}", "aria-pressed": "true" if e.focused else "false",
                "data-intent": intent_attr({"type": "nb_focus", "id": e.id}),
                "aria-label": _("Show cards that contradict rule {number}").format(
                    number=number)}))
        for text, kind, name, ok in (
                ("↑", "nb_up", _("Move up rule {number}"), e.index > 0),
                ("↓", "nb_down", _("Move down rule {number}"), e.index < last),
                ("✕", "nb_remove", _("Remove rule {number}"), True)):
            tools.appendChild(h("button", {
                "type": "button", "class": "button button-quiet", "text": text,
                "data-key": f"nb-{kind}-{e.id}", "aria-label": name.format(number=number),
                "aria-disabled": None if ok else "true",
                "data-intent": intent_attr({"type": kind, "index": e.index})}))
        li.appendChild(tools)
        ul.appendChild(li)
    panel.appendChild(ul)
    return panel



__all__ = ["EntryVM", "NotebookVM", "apply_intent", "handle", "notebook_model", "panel_model",
           "render_notebook"]
