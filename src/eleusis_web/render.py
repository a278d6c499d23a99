"""The one renderer: view models in, element trees out.

Each screen is a function of its view model (and of the share features'
:class:`Panels`, themselves drawn from their own view models) that returns a
tree of :class:`~eleusis_web.vdom.El`; :func:`mount` patches the tree into the
page (:mod:`eleusis_web.vdom`: keyed, so an element that stays keeps its node,
its focus and a text field's caret). Texts only ever become ``textContent``
(never ``innerHTML``: names, guesses and hints are typed by people). Controls
carry their intent as JSON in ``data-intent``; the app's one delegated listener
(:mod:`eleusis_web.app`) reads it.

A control that is not legal now stays focusable (``aria-disabled="true"``)
and tells why on hover and focus: ``title``, ``aria-describedby`` and a
visible tooltip from ``data-reason``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eleusis.cards import ALL_CARDS, SUITS, Card, card_name, rank_code, suit_name
from eleusis.i18n import N_, _, ngettext
from eleusis.notebook import Location
from eleusis_web import dom
from eleusis_web.vdom import El, Mount
from eleusis_web.viewmodel import (
    CardVM,
    ControlVM,
    RoundEndVM,
    SetupVM,
    TableVM,
    ToolbarVM,
    WriteRuleVM,
    card_vm,
)

_uid = [0]


#: The paces and strengths in words (the values stay the page's keys).
PACE_WORDS = {"slow": N_("Slow"), "normal": N_("Normal"), "fast": N_("Fast"),
              "instant": N_("Instant")}
BADGE_WORDS = {"computer": N_("computer"), "dealer": N_("dealer"), "prophet": N_("prophet"),
               "expelled": N_("expelled"), "out": N_("out")}
STRENGTH_WORDS = {"novice": N_("novice"), "casual": N_("casual"), "strong": N_("strong"),
                  "expert": N_("expert")}


@dataclass(frozen=True, slots=True)
class Panels:
    """What the share features add to a screen, each drawn from its own view model.

    The screens place them (no feature edits another's tree): ``entries`` at
    the foot of the new-game screen (daily puzzle, challenge, archive);
    ``results`` under the revealed rule at a round's end (the daily result),
    ``share`` under its "Play again" and ``late`` under that (what changes
    after the screen is drawn: the challenge's comparison, see
    :func:`round_end_screen`); ``side``
    beside the players at the table (the notebook), whose ``marked`` cards on
    the layout contradict the notebook's focused entry.
    """

    entries: tuple[El, ...] = ()
    results: tuple[El, ...] = ()
    share: El | None = None
    late: tuple[El, ...] = ()
    side: tuple[El, ...] = ()
    marked: tuple[Location, ...] = ()


def h(tag: str, attrs: dict[str, Any] | None = None, *children: El | str | None) -> El:
    """An element with attributes (``class``, ``text``, data-..., aria-...) and children.

    ``None`` and ``False`` attributes are left out (``checked``/``selected``
    are live properties: ``False`` unchecks); ``True`` gives an empty one.
    """
    el = El(tag)
    for key, value in (attrs or {}).items():
        if key in ("checked", "selected"):
            el.props[key] = bool(value)
            if value:
                el.attrs[key] = ""
        elif value is None or value is False:
            continue
        elif key == "text":
            el.textContent = str(value)
        elif key == "value":
            el.props["value"] = str(value)
        else:
            el.attrs[key] = "" if value is True else str(value)
    for child in children:
        if child is not None:
            el.appendChild(child)
    return el


def intent_attr(intent: dict[str, Any]) -> str:
    """The JSON of an intent for ``data-intent``."""
    return json.dumps(intent, separators=(",", ":"))


def button(ctrl: ControlVM, extra_class: str = "", short: str = "") -> El:
    """A control as a button; disabled ones keep focus and say why.

    ``short``: a shorter visible text (the accessible name stays ``ctrl.name``).
    """
    cls = "button" + (" button-primary" if ctrl.primary else "") + (
        f" {extra_class}" if extra_class else "")
    attrs: dict[str, Any] = {
        "type": "button",
        "class": cls,
        "text": short or ctrl.name,
        "aria-label": ctrl.name if short else None,
        "data-key": "ctl-" + ctrl.key,
        "data-intent": intent_attr(ctrl.intent),
    }
    if not ctrl.enabled:
        _uid[0] += 1
        rid = f"why-{_uid[0]}"
        attrs.update({
            "aria-disabled": "true",
            "title": ctrl.reason,
            "data-reason": ctrl.reason,
            "aria-describedby": rid,
        })
        return h("span", {"class": "control-wrap"}, h("button", attrs),
                 h("span", {"id": rid, "class": "visually-hidden", "text": ctrl.reason}))
    return h("button", attrs)


def card_face(card: CardVM, tag: str = "div", attrs: dict[str, Any] | None = None) -> El:
    """A playing card: large rank and suit in the corners, a big pip in the middle."""
    classes = ["card"]
    if card.face_down:
        classes.append("back")
    else:
        classes.append("red" if card.red else "black")
        classes.append("suit-" + card.suit)
    if card.horizontal:
        classes.append("horizontal")
    if card.order:
        classes.append("selected")
    a: dict[str, Any] = {"class": " ".join(classes)}
    if tag != "button":
        a["role"] = "img"
    a["aria-label"] = card.label
    a.update(attrs or {})
    el = h(tag, a)
    if not card.face_down:
        corner = h("span", {"class": "corner", "aria-hidden": "true"},
                   h("span", {"class": "rank", "text": card.rank}),
                   h("span", {"class": "suit", "text": card.symbol}))
        el.appendChild(corner)
        el.appendChild(h("span", {"class": "pip", "aria-hidden": "true", "text": card.symbol}))
    if card.prophet or card.prophet_end:
        what = "prophet's marker" if card.prophet else "end of a prophet's era"
        el.appendChild(h("span", {"class": "prophet-marker" + (" ended" if not card.prophet
                                                               else ""),
                                  "title": what, "text": "★" if card.prophet else "☆"}))
        el.setAttribute("aria-label", f"{card.label}, {what}")
    if card.order:
        el.appendChild(h("span", {"class": "order", "aria-hidden": "true",
                                  "text": str(card.order)}))
    if card.marker:
        el.appendChild(h("span", {"class": f"marker marker-{card.marker}",
                                  "title": (_("White marker: card {number}")
                                            if card.marker == "white" else
                                            _("Black marker: card {number}")).format(
                                                number=card.n),
                                  "aria-hidden": "true"}))
    return el


# --------------------------------------------------------------------------- screens


def toolbar(vm: ToolbarVM) -> El:
    """The bar above the table: the game's name and the always-there buttons."""
    pace = h("select", {"id": "pace", "data-key": "pace", "data-change": "pace",
                        "aria-label": _("Pace of computer turns")})
    for key in vm.paces:
        pace.appendChild(h("option", {"value": key, "text": _(PACE_WORDS.get(key, key)),
                                      "selected": key == vm.pace}))
    end = button(vm.end, "button-quiet") if vm.end is not None else None
    nav = h(
        "nav", {"class": "toolbar", "aria-label": _("Game")},
        h("span", {"class": "toolbar-title", "text": vm.title}),
        h("span", {"class": "toolbar-actions"},
          end,
          h("button", {"type": "button", "class": "button button-quiet", "text": _("New game"),
                       "data-key": "tb-new", "data-intent": intent_attr({"type": "show_setup"})}),
          h("button", {"type": "button", "class": "button button-quiet", "text": _("How to play"),
                       "data-key": "tb-help", "data-intent": intent_attr({"type": "show_help"})}),
          h("label", {"class": "toolbar-field"}, h("span", {"text": _("Pace")}), pace),
          h("label", {"class": "toolbar-field toggle"},
            h("input", {"type": "checkbox", "data-key": "contrast",
                        "data-intent": intent_attr({"type": "contrast"}),
                        "checked": vm.contrast}),
            h("span", {"text": _("4 colors, high contrast")}))),
    )
    if vm.confirm:
        nav.appendChild(end_match_confirm(vm.confirm))
    return nav


def end_match_confirm(text: str, cancel_key: str = "end-cancel") -> El:
    """Are you sure? Ending a match early drops the running round and adds compensation."""
    return h("div", {"class": "confirm-bar", "role": "alertdialog",
                     "aria-labelledby": "confirm-end-text"},
             h("p", {"id": "confirm-end-text", "text": text}),
             h("span", {"class": "controls"},
               h("button", {"type": "button", "class": "button button-danger",
                            "text": _("End the match"), "data-key": "end-confirm",
                            "data-intent": intent_attr({"type": "end_match",
                                                        "confirm": True})}),
               h("button", {"type": "button", "class": "button button-quiet",
                            "text": _("Keep playing"), "data-key": cancel_key,
                            "data-intent": intent_attr({"type": "end_match_cancel"})})))


def move_log(vm: TableVM) -> El:
    """The last moves, newest first: always there, of a fixed height (new lines never
    move what is below)."""
    log = h("ol", {"class": "log", "aria-label": _("Recent moves, newest first")})
    for i, line in enumerate(vm.log):
        log.appendChild(h("li", {"class": "latest" if i == 0 else None, "text": line}))
    return log


def layout_board(vm: TableVM, fresh: int = 0, with_log: bool = True,
                 marked: tuple[Location, ...] = ()) -> El:
    """The layout: info chips, the mainline with sidelines and markers, the hints.

    ``fresh`` is the number of the card that has just landed: it alone gets the
    short landing animation (a redraw for any other reason animates nothing).
    ``with_log``: the recent moves under the layout (the table puts them beside it).
    ``marked``: cards that get the ``contradicts`` class (the notebook's focus).
    """
    spots = {(m.column, m.side) for m in marked}
    info = h("div", {"class": "info-strip"},
             h("span", {"class": "chip", "text": _("Stock {count}").format(count=vm.stock),
                        "data-testid": "stock"}),
             h("span", {"class": "chip",
                        "text": ngettext("{count} card played", "{count} cards played",
                                         vm.played).format(count=vm.played)}))
    if vm.turns_label:
        info.appendChild(h("span", {"class": "chip", "text": vm.turns_label}))
    if vm.round_label:
        info.appendChild(h("span", {"class": "chip", "text": vm.round_label}))
    if vm.sudden_death:
        info.appendChild(h("span", {"class": "chip chip-danger", "text": _("Sudden death"),
                                    "title": _("A wrong play now expels the player")}))
    if vm.prophet:
        info.appendChild(h("span", {"class": "chip chip-prophet", "text": vm.prophet}))

    line = h("ol", {"class": "layout", "aria-label": _("Mainline, left to right"),
                    "id": "layout"})
    for i, col in enumerate(vm.columns):
        expanded = i in vm.expanded
        li = h("li", {"class": "column" + (" last" if col.last else "")
                      + (" expanded" if expanded else ""), "data-col": str(i)})
        land = " landing" if fresh and col.card.n == fresh else ""
        land += " contradicts" if (i, None) in spots else ""
        li.appendChild(card_face(col.card, attrs={"data-code": col.card.code,
                                                  "class": _cls(col.card, "mainline-card")
                                                  + land}))
        if col.sideline:
            side = h("div", {"class": "sideline", "role": "group",
                             "aria-label": _("Wrong cards under {card}").format(
                                 card=col.card.label),
                             "data-testid": f"sideline-{col.card.code}"})
            for j, sc in enumerate(col.sideline):
                land = " landing" if fresh and sc.n == fresh else ""
                land += " contradicts" if (i, j) in spots else ""
                side.appendChild(card_face(sc, attrs={"data-code": sc.code,
                                                      "class": _cls(sc, "side-card") + land}))
            li.appendChild(side)
            if len(col.sideline) > 3:
                li.appendChild(h("button", {
                    "type": "button", "class": "side-toggle", "data-key": f"side-{i}",
                    "aria-expanded": "true" if expanded else "false",
                    "data-intent": intent_attr({"type": "toggle_side", "col": i}),
                    "text": _("Fold") if expanded else f"+{len(col.sideline) - 3}",
                    "aria-label": (
                        _("Fold the {count} wrong cards under {card}") if expanded else
                        _("Show {more} more of the {count} wrong cards under {card}")
                    ).format(more=len(col.sideline) - 3, count=len(col.sideline),
                             card=col.card.label)}))
        line.appendChild(li)

    board = h("section", {"class": "board", "aria-label": _("Layout")}, info, line)
    legend = marker_legend(vm)
    if legend is not None:
        board.appendChild(legend)
    if with_log:
        board.appendChild(move_log(vm))
    if vm.hints:
        hl = h("ul", {"class": "hints", "aria-label": _("Hints")})
        for t in vm.hints:
            hl.appendChild(h("li", {"text": t}))
        board.appendChild(h("div", {"class": "hint-box"},
                            h("h3", {"text": _("Hints")}), hl))
    return board


def coach_panel(vm: TableVM) -> El:
    """Learn to play: the lesson's step, with "Next" when it waits, and a way out."""
    c = vm.coach
    assert c is not None
    box = h("section", {"class": "coach", "aria-label": _("Lesson"), "data-step": c.step,
                        "aria-live": "polite"},
            h("p", {"class": "coach-text", "text": c.text}))
    row = h("div", {"class": "controls"})
    if c.next_button:
        row.appendChild(h("button", {"type": "button", "class": "button button-primary",
                                     "text": _("Next"), "data-key": "lesson-next",
                                     "data-intent": intent_attr({"type": "lesson_next"})}))
    row.appendChild(h("button", {"type": "button", "class": "button button-quiet",
                                 "text": _("Leave the lesson"), "data-key": "lesson-leave",
                                 "data-intent": intent_attr({"type": "lesson_leave"})}))
    box.appendChild(row)
    return box


def point_at(screen: El, target: str) -> None:
    """Learn to play: ring the part of the table the lesson talks about."""
    selector = {"layout": "#layout", "hand": ".hand", "sideline": ".column.last .sideline",
                "guess": '[data-key="ctl-Guess the rule"]', "verdict": ".verdict"}.get(target)
    if selector is None:
        return
    found = screen.querySelector(selector)
    if found is None and target == "sideline":
        found = screen.querySelector(".sideline")
    if found is not None:
        found.classList.add("coach-target")


def _table_heading(vm: TableVM) -> El:
    """The table's heading, for screen readers and the focus when the table opens
    (the toolbar shows the variant's name to everyone else)."""
    text = f"{vm.title}, {vm.round_label.lower()}" if vm.round_label else vm.title
    return h("h2", {"class": "visually-hidden", "id": "table-title", "text": text})


#: What each mark on the layout means, for the legend under it.
LEGEND = {
    "white": ("white-dot", N_("white marker: every 10th card played")),
    "black": ("black-dot", N_("black marker: every 10th card since the prophet rose")),
    "prophet": ("star", N_("the prophet's marker: the prophet took office after this card")),
    "prophet_end": ("star-open", N_("an overthrown prophet's era ended here")),
    "face_down": ("back", N_("a card played face down (Royal Eleusis: a bet on a refusal)")),
    "horizontal": ("sideways", N_("a card laid sideways (Royal Eleusis)")),
}


def marker_legend(vm: TableVM) -> El | None:
    """A small legend of the marks on the layout now (only those present), or None."""
    cards = [c.card for c in vm.columns] + [x for c in vm.columns for x in c.sideline]
    present = []
    if any(c.marker == "white" for c in cards):
        present.append("white")
    if any(c.marker == "black" for c in cards):
        present.append("black")
    if any(c.prophet for c in cards):
        present.append("prophet")
    if any(c.prophet_end for c in cards):
        present.append("prophet_end")
    if any(c.face_down for c in cards):
        present.append("face_down")
    if any(c.horizontal for c in cards):
        present.append("horizontal")
    if not present:
        return None
    box = h("ul", {"class": "legend", "aria-label": _("What the marks on the layout mean")})
    for key in present:
        icon, said = LEGEND[key]
        text = _(said)
        box.appendChild(h("li", {}, h("span", {"class": f"legend-icon legend-{icon}",
                                               "aria-hidden": "true"}), text))
    return box


def table_screen(vm: TableVM, fresh: int = 0, panels: Panels = Panels()) -> El:
    """The card table: info strip, layout, scoreboard, hand and controls."""
    board = layout_board(vm, fresh, with_log=False, marked=panels.marked)

    score = h("table", {"class": "scoreboard", "aria-label": _("Players")})
    match = any(r.total is not None for r in vm.seats)
    head = h("tr", {}, h("th", {"text": _("Player"), "scope": "col"}),
             h("th", {"text": _("Cards"), "scope": "col", "class": "num"}))
    if match:
        head.appendChild(h("th", {"text": _("Points"), "scope": "col", "class": "num"}))
    score.appendChild(h("thead", {}, head))
    body = h("tbody")
    for row in vm.seats:
        cls = "seat" + (" turn" if row.turn else "") + (" viewer" if row.viewer else "")
        who = h("th", {"scope": "row"}, h("span", {"class": "seat-name", "text": row.name}))
        badges = []
        if row.kind == "computer":
            badges.append("computer")
        if row.role != "scientist":
            badges.append(row.role)
        for b in badges:
            who.appendChild(h("span", {"class": f"badge badge-{b}",
                                       "text": _(BADGE_WORDS.get(b, b))}))
        if row.note:
            who.appendChild(h("span", {"class": "seat-note", "text": row.note}))
        tr = h("tr", {"class": cls, "aria-current": "true" if row.turn else None},
               who, h("td", {"class": "num", "text": str(row.cards)}))
        if match:
            tr.appendChild(h("td", {"class": "num", "text": str(row.total or 0)}))
        body.appendChild(tr)
    score.appendChild(body)

    # wide: the moves beside the layout, under the players (the hand stays in view);
    # narrow: players, layout, moves, hand
    wrap = h("div", {"class": "table-grid"}, board,
             h("aside", {"class": "side-panel"}, score, *panels.side), move_log(vm))

    dock = h("section", {"class": "dock", "aria-label": _("Your hand")})
    if vm.hidden:
        dock.appendChild(pass_screen(
            vm.pass_to, _("Hands stay hidden until the right player is holding the device."),
            "reveal", vm.pass_then))
        return h("div", {"class": "screen screen-table"}, _table_heading(vm), wrap, dock)

    if vm.coach is not None:
        dock.appendChild(coach_panel(vm))
    dock.appendChild(h("p", {"class": "turn-line", "data-testid": "turn", "text": vm.status}))
    if vm.calls:
        box = h("div", {"class": "calls", "role": "group", "aria-label": _("Your verdict")},
                h("p", {"class": "call-title", "text": vm.call_title}))
        if vm.pending:
            pend = h("div", {"class": "pending-cards"})
            for pc in vm.pending:
                pend.appendChild(card_face(pc, attrs={"data-code": pc.code,
                                                      "class": _cls(pc, "pending")}))
            box.appendChild(pend)
        if vm.marks:
            box.appendChild(h("p", {"class": "hint-line",
                                    "text": _("If it is wrong, first choose the card from the "
                                              "player's hand that should have been played:")}))
            pick = h("div", {"class": "call-cards", "role": "group",
                             "aria-label": _("A correct card from the player's hand")})
            for code in vm.marks:

                cv = card_vm(Card.parse(code), order=1 if code == vm.judge_card else 0)
                pick.appendChild(card_face(cv, "button", {
                    "type": "button", "data-key": f"jc-{code}",
                    "aria-pressed": "true" if cv.order else "false",
                    "data-intent": intent_attr({"type": "judge_card", "card": code})}))
            box.appendChild(pick)
        verdicts = h("div", {"class": "controls"})
        for ctl in vm.calls:
            verdicts.appendChild(button(ctl))
        box.appendChild(verdicts)
        dock.appendChild(box)
    if vm.hint_editor:
        dock.appendChild(h("div", {"class": "hint-editor"},
                           h("label", {"for": "hint-text", "text": _("A hint for the players")}),
                           h("input", {"id": "hint-text", "type": "text", "data-key": "hint-text",
                                       "data-input": "hint_text", "value": vm.hint_text,
                                       "maxlength": "600"}),
                           h("button", {"type": "button", "class": "button",
                                        "data-key": "hint-give", "text": _("Give the hint"),
                                        "data-intent": intent_attr({"type": "hint_give"})})))
    hand = h("div", {"class": "hand", "role": "group", "aria-describedby": "hand-keys",
                     "aria-label": (_("Your hand") if vm.hand_owner in ("You", _("You")) else
                                    _("{name}'s hand").format(name=vm.hand_owner)
                                    if vm.hand_owner else _("Hand"))})
    for cv in vm.hand:
        code, _sep, copy = cv.token.partition("#")
        hand.appendChild(card_face(cv, "button", {
            "type": "button", "data-key": f"hand-{cv.token}", "data-code": cv.code,
            "tabindex": "0" if cv.token == vm.hand_stop else "-1",
            "aria-pressed": "true" if cv.order else "false",
            "data-intent": intent_attr({"type": "select", "card": code,
                                        **({"copy": int(copy)} if copy else {})})}))
    if vm.hand:
        dock.appendChild(hand)
        dock.appendChild(h("p", {"id": "hand-keys", "class": "visually-hidden",
                                 "text": _("Arrow keys move between your cards; Space or Enter "
                                           "chooses one.")}))
    if vm.bet_plan:
        plan = h("div", {"class": "bet-plan", "role": "group",
                         "aria-label": _("Your bet: mark each chosen card")},
                 h("p", {"class": "hint-line",
                         "text": _("Mark each chosen card: accepted (you bet the rule takes it) "
                                   "or refused. Accepted cards are played first.")}))
        for token, label, accepted in vm.bet_plan:
            code, _sep, copy = token.partition("#")
            plan.appendChild(h("button", {
                "type": "button", "class": "button bet-mark " + ("accept" if accepted
                                                                  else "refuse"),
                "data-key": f"mark-{token}", "aria-pressed": "false" if accepted else "true",
                "aria-label": (_("{card}: accepted (your bet). Press to change.") if accepted
                               else _("{card}: refused (your bet). Press to change.")
                               ).format(card=label),
                "data-intent": intent_attr({"type": "bet_mark", "card": code,
                                            **({"copy": int(copy)} if copy else {})}),
                "text": (_("{card}: accepted ✓") if accepted else _("{card}: refused ✗")
                         ).format(card=label)}))
        dock.appendChild(plan)
    controls = h("div", {"class": "controls"})
    for ctl in vm.controls:
        controls.appendChild(button(ctl))
    dock.appendChild(controls)
    dock.appendChild(h("p", {"class": "message", "role": "alert" if vm.message else None,
                             "text": vm.message}))
    if vm.guess is not None:
        dock.appendChild(guess_editor(vm))
    screen = h("div", {"class": "screen screen-table"}, _table_heading(vm), wrap, dock)
    if vm.coach is not None:
        point_at(screen, vm.coach.target)
    return screen


def _cls(card: CardVM, extra: str) -> str:
    base = ["card", extra]
    if card.face_down:
        base.append("back")
    else:
        base.append("red" if card.red else "black")
        base.append("suit-" + card.suit)
    if card.horizontal:
        base.append("horizontal")
    return " ".join(base)


def rule_field(key: str, label: str, text: str, error: str, english: str,
               input_intent: str) -> El:
    """A rule editor: the text, the syntax error under it, the rule in English."""
    box = h("div", {"class": "rule-field"},
            h("label", {"for": key, "text": label}),
            h("textarea", {"id": key, "data-key": key, "data-input": input_intent,
                           "rows": "2", "spellcheck": "false", "value": text,
                           "aria-invalid": "true" if error else "false",
                           "aria-describedby": key + "-check", "maxlength": "600"}))
    check = h("div", {"id": key + "-check", "class": "rule-check", "aria-live": "polite"})
    if error:
        check.appendChild(h("pre", {"class": "rule-error", "text": error}))
    elif english:
        check.appendChild(h("p", {"class": "rule-english",
                                  "text": _("In words: {rule}").format(rule=english)}))
    else:
        check.appendChild(h("p", {"class": "rule-help",
                                  "text": _("Examples: {rules}").format(rules=(
                                      "card is red · card.rank > prev.rank · "
                                      "if prev is black then card is red else card is even"))}))
    box.appendChild(check)
    box.appendChild(h("button", {"type": "button", "class": "link-button",
                                 "text": _("How to write a rule"), "data-key": key + "-guide",
                                 "data-intent": intent_attr({"type": "show_rule_help",
                                                             "field": input_intent})}))
    return box


def guess_editor(vm: TableVM) -> El:
    """Guess the rule: in the rule language or in plain English (read back, confirmed),
    the live check, the verdict with a counterexample."""
    g = vm.guess
    assert g is not None
    reading = g.reading
    error = g.error if reading is None or not reading.rules else ""
    box = h("section", {"class": "guess", "aria-label": _("Guess the rule")},
            h("h3", {"text": _("Guess the rule")}),
            rule_field("guess-text", _("Your guess, in words or in the rule language"), g.text,
                       error, g.english, "guess_text"))
    if reading is not None and reading.rules:
        read = h("div", {"class": "reading", "role": "group",
                         "aria-label": _("How your guess was read")},
                 h("p", {"class": "reading-title",
                         "text": _("Read as:") if len(reading.rules) == 1 else
                         _("This could mean different rules. Which one do you mean?")}))
        for i, (text, english) in enumerate(reading.rules):
            read.appendChild(h("div", {"class": "reading-rule"},
                               h("code", {"class": "rule-text", "text": text}),
                               h("span", {"class": "rule-english", "text": english}),
                               h("button", {"type": "button", "class": "button button-primary",
                                            "text": _("Guess this rule"),
                                            "data-key": f"guess-reading-{i}",
                                            "aria-label": _("Guess this rule: {rule}").format(
                                                rule=english or text),
                                            "data-intent": intent_attr(
                                                {"type": "guess", "value": text})})))
        box.appendChild(read)
    elif reading is not None and (reading.message or reading.suggestions):
        tips = h("div", {"class": "reading", "role": "note"},
                 h("p", {"text": reading.message or _("That was not understood.")}))
        if reading.suggestions:
            tips.appendChild(h("p", {"text": _("Forms to try:")}))
            lst = h("ul", {"class": "reading-tips"})
            for tip in reading.suggestions:
                lst.appendChild(h("li", {"text": tip}))
            tips.appendChild(lst)
        box.appendChild(tips)
    row = h("div", {"class": "controls"})
    if not (reading and reading.rules):  # words read back: "Guess this rule" submits
        row.appendChild(button(ControlVM(
            _("Submit guess"), {"type": "guess"}, not g.error and bool(g.text),
            (g.error and _("Fix the rule first.")) or _("Write your guess first."), True,
            "guess-submit")))
    row.appendChild(h("button", {"type": "button", "class": "button button-quiet",
                                 "text": _("Close"), "data-key": "guess-close",
                                 "data-intent": intent_attr({"type": "guess_close"})}))
    box.appendChild(row)
    if g.verdict:
        box.appendChild(h("p", {"class": "verdict " + ("right" if g.right else "wrong"),
                                "data-testid": "verdict", "text": g.verdict}))
    return box


def setup_screen(vm: SetupVM, panels: Panels = Panels()) -> El:
    """The new-game screen: variant, seats, dealer, difficulty, match, pace; saved games."""
    form = h("section", {"class": "setup", "aria-labelledby": "setup-title"},
             h("h2", {"id": "setup-title", "text": _("New game")}),
             h("div", {"class": "learn"},
               h("p", {"text": _("New to Eleusis? Play a guided round: two minutes, and you "
                                 "can leave the lesson at any time.")}),
               h("button", {"type": "button", "class": "button button-primary",
                            "text": _("Learn to play"), "data-key": "learn",
                            "data-intent": intent_attr({"type": "learn_start"})})))
    variant = h("select", {"id": "setup-variant", "data-key": "setup-variant",
                           "data-change": json.dumps({"type": "setup_change",
                                                      "field": "variant"})})
    for key, name, why in vm.variants:
        variant.appendChild(h("option", {"value": key, "selected": key == vm.variant,
                                         "disabled": bool(why),
                                         "text": _("{variant} (coming soon)").format(variant=name)
                                         if why else name}))
    form.appendChild(field(_("Variant"), variant, "setup-variant"))

    seats = h("fieldset", {"class": "seats"}, h("legend", {"text": _("Players")}))
    for p in vm.seats:
        i = p.index
        row = h("div", {"class": "seat-row"})
        row.appendChild(h("input", {"type": "text", "value": p.name, "maxlength": "40",
                                    "aria-label": _("Name of player {number}").format(number=i + 1),
                                    "data-key": f"seat-name-{i}",
                                    "data-input": json.dumps({"type": "setup_change",
                                                              "field": "seat_name",
                                                              "seat": i})}))
        if p.kind == "you":
            row.appendChild(h("span", {"class": "seat-kind", "text": _("you")}))
        else:
            kind = h("select", {"aria-label": _("Who plays {name}").format(name=p.name),
                                "data-key": f"seat-kind-{i}",
                                "data-change": json.dumps({"type": "setup_change",
                                                           "field": "seat_kind", "seat": i})})
            for k, label in (("computer", _("Computer")), ("person", _("Person here"))):
                kind.appendChild(h("option", {"value": k, "text": label,
                                              "selected": p.kind == k}))
            row.appendChild(kind)
            if p.kind == "computer":
                strength = h("select", {"aria-label": _("Strength of {name}").format(name=p.name),
                                        "data-key": f"seat-strength-{i}",
                                        "data-change": json.dumps({"type": "setup_change",
                                                                   "field": "seat_strength",
                                                                   "seat": i})})
                for sname in vm.strengths:
                    strength.appendChild(h("option", {"value": sname,
                                                      "text": _(STRENGTH_WORDS.get(sname, sname)),
                                                      "selected": p.strength == sname}))
                row.appendChild(strength)
            row.appendChild(h("button", {"type": "button", "class": "button button-quiet remove",
                                         "text": "✕",
                                         "aria-label": _("Remove {name}").format(name=p.name),
                                         "title": _("Remove {name}").format(name=p.name),
                                         "data-key": f"seat-rm-{i}",
                                         "data-intent": intent_attr({"type": "remove_seat",
                                                                     "seat": i})}))
        seats.appendChild(row)
    low, high = vm.opponents
    if high:
        seats.appendChild(h("div", {"class": "controls"},
                            h("button", {"type": "button", "class": "button button-quiet",
                                         "text": _("Add a computer"), "data-key": "add-computer",
                                         "data-intent": intent_attr({"type": "add_seat",
                                                                     "kind": "computer"})}),
                            h("button", {"type": "button", "class": "button button-quiet",
                                         "text": _("Add a person"), "data-key": "add-person",
                                         "data-intent": intent_attr({"type": "add_seat",
                                                                     "kind": "person"})})))
        seats.appendChild(h("p", {"class": "hint-line",
                                  "text": _("{low} to {high} opponents in this variant.").format(
                                      low=low, high=high) + " " + vm.written_for}))
    form.appendChild(seats)

    if vm.dealer_choice:
        dealer = h("select", {"id": "setup-dealer", "data-key": "setup-dealer",
                              "data-change": json.dumps({"type": "setup_change",
                                                         "field": "dealer"})})
        for key, short in vm.dealers:
            dealer.appendChild(h("option", {"value": key, "text": short,
                                            "selected": key == vm.dealer}))
        form.appendChild(field(_("Dealer"), dealer, "setup-dealer"))
        form.appendChild(h("p", {"class": "hint-line", "text": vm.dealer_note}))
        if vm.dealer != "computer":
            form.appendChild(field(_("Dealer's name"), h(
                "input", {"id": "setup-dealer-name", "type": "text", "value": vm.dealer_name,
                          "data-key": "setup-dealer-name", "maxlength": "40",
                          "data-input": json.dumps({"type": "setup_change",
                                                    "field": "dealer_name"})}),
                "setup-dealer-name"))
    if vm.dealer == "computer" or not vm.dealer_choice:
        diff = h("select", {"id": "setup-difficulty", "data-key": "setup-difficulty",
                            "data-change": json.dumps({"type": "setup_change",
                                                       "field": "difficulty"})})
        for key, label in (("1", _("1 — easiest")), ("2", _("2 — easy")), ("3", _("3 — medium")),
                           ("4", _("4 — hard")), ("5", _("5 — hardest")),
                           ("surprise", _("Surprise me (a new rule)"))):
            diff.appendChild(h("option", {"value": key, "text": label,
                                          "selected": key == vm.difficulty}))
        form.appendChild(field(_("Secret rule"), diff, "setup-difficulty"))
    if vm.match_choice:
        form.appendChild(h("label", {"class": "check"},
                           h("input", {"type": "checkbox", "data-key": "setup-match",
                                       "checked": vm.match,
                                       "data-change": json.dumps({"type": "setup_change",
                                                                  "field": "match"})}),
                           h("span", {"text": _("A match: everyone deals once")})))
        if vm.match_note:
            form.appendChild(h("p", {"class": "hint-line", "text": vm.match_note}))
    form.appendChild(h("div", {"class": "controls start-row"},
                       h("button", {"type": "button", "class": "button button-primary",
                                    "text": _("Start"), "data-key": "start",
                                    "data-intent": intent_attr({"type": "start"})})))
    if vm.message:
        form.appendChild(h("p", {"class": "message", "role": "alert", "text": vm.message}))

    screen = h("div", {"class": "screen screen-setup"}, form)
    screen.appendChild(saves_panel(vm.saves, vm.notes, vm.deleted, vm.damaged))
    if panels.entries:
        screen.appendChild(h("section", {"class": "share-entries",
                                         "aria-label": _("Puzzles and sharing")},
                             *panels.entries))
    return screen


def field(label: str, control: El, control_id: str) -> El:
    """A labelled field."""
    return h("div", {"class": "field"},
             h("label", {"class": "field-label", "for": control_id, "text": label}), control)


def saves_panel(saves: Sequence[tuple[str, str]], notes: Sequence[str],
                deleted: str = "", damaged: int = 0) -> El:
    """Saved games to continue or delete, and storage notices.

    ``deleted``: the title of the game deleted a moment ago, offered back ("Undo");
    ``damaged``: how many copies of unreadable saves are kept aside (offered for deletion).
    """
    box = h("section", {"class": "saves", "aria-labelledby": "saves-title"},
            h("h2", {"id": "saves-title", "text": _("Saved games")}))
    for note in notes:
        box.appendChild(h("p", {"class": "notice", "role": "alert", "text": note}))
    if deleted:
        box.appendChild(h("p", {"class": "notice undo-line", "role": "status"},
                          h("span", {"text": _("Deleted: {title}.").format(title=deleted) + " "}),
                          h("button", {"type": "button", "class": "button",
                                       "text": _("Undo"), "data-key": "delete-undo",
                                       "aria-label": _("Undo: put back {title}").format(
                                           title=deleted),
                                       "data-intent": intent_attr({"type":
                                                                   "delete_save_undo"})})))
    if damaged:
        kept = ngettext("{count} damaged copy of saved games that could not be opened is "
                        "kept in this browser.",
                        "{count} damaged copies of saved games that could not be opened are "
                        "kept in this browser.", damaged).format(count=damaged)
        box.appendChild(h("p", {"class": "hint-line damaged-line"},
                          h("span", {"text": kept + " "}),
                          h("button", {"type": "button", "class": "button button-quiet",
                                       "text": _("Delete them"), "data-key": "delete-damaged",
                                       "aria-label": ngettext(
                                           "Delete the {count} damaged copy",
                                           "Delete the {count} damaged copies",
                                           damaged).format(count=damaged),
                                       "data-intent": intent_attr({"type": "delete_corrupt"})})))
    if not saves:
        box.appendChild(h("p", {"class": "hint-line", "text": _("No saved game yet.")}))
    lst = h("ul", {"class": "save-list"})
    for sid, title in saves:
        lst.appendChild(h("li", {"class": "save", "data-save": sid},
                          h("span", {"class": "save-title", "text": title}),
                          h("button", {"type": "button", "class": "button",
                                       "text": _("Continue"), "data-key": f"resume-{sid}",
                                       "aria-label": _("Continue {title}").format(title=title),
                                       "data-intent": intent_attr({"type": "resume",
                                                                   "id": sid})}),
                          h("button", {"type": "button", "class": "button button-quiet",
                                       "text": _("Delete"), "data-key": f"delete-{sid}",
                                       "aria-label": _("Delete {title}").format(title=title),
                                       "data-intent": intent_attr({"type": "delete_save",
                                                                   "id": sid})})))
    box.appendChild(lst)
    return box


def pass_screen(name: str, note: str, intent: str, then: str) -> El:
    """The hot-seat "Pass the device to NAME" dialog: its button ("I am NAME:
    <then>") sends ``intent``; one shape for the hands and the rule writer."""
    return h("div", {"class": "pass-screen", "role": "dialog",
                     "aria-label": _("Pass the device")},
             h("p", {"class": "pass-title",
                     "text": _("Pass the device to {name}").format(name=name)}),
             h("p", {"text": note}),
             h("button", {"type": "button", "class": "button button-primary",
                          "data-key": intent.replace("_", "-"),
                          "data-intent": intent_attr({"type": intent}),
                          "text": _("I am {name}: {then}").format(name=name, then=then)}))


def rule_reveal(rule: str, english: str, testid: str) -> El:
    """The secret rule revealed (text and English): the round's end and the replay."""
    reveal = h("div", {"class": "reveal"}, h("h3", {"text": _("The secret rule")}))
    if rule:
        reveal.appendChild(h("code", {"class": "rule-text", "data-testid": testid,
                                      "text": rule}))
    reveal.appendChild(h("p", {"class": "rule-english", "text": english}))
    return reveal


def write_rule_screen(vm: WriteRuleVM) -> El:
    """A person dealing writes the rule: validation, English, analysis, "try a card"."""
    if not vm.ready:  # hot-seat: nobody but the writer may see the editor
        return h("section", {"class": "write-rule"}, pass_screen(
            vm.writer, _("The secret rule is written where only the dealer can see it."),
            "writer_ready", _("write the rule")))
    box = h("section", {"class": "write-rule", "aria-labelledby": "wr-title"},
            h("h2", {"id": "wr-title",
                     "text": _("{name} deals: write the secret rule").format(name=vm.writer)}),
            h("p", {"class": "hint-line",
                    "text": _("Players: look away. Only the dealer should see this screen.")}),
            rule_field("rule-text", _("Secret rule"), vm.text, vm.error, vm.english, "rule_text"))
    if vm.reading is not None and vm.reading.rules:
        read = h("div", {"class": "reading", "role": "group",
                         "aria-label": _("How your rule was read")},
                 h("p", {"text": _("Read as:") if len(vm.reading.rules) == 1 else
                         _("This could mean different rules. Which one do you mean?")}))
        for i, (text, english) in enumerate(vm.reading.rules):
            read.appendChild(h("div", {"class": "reading-rule"},
                               h("code", {"class": "rule-text", "text": text}),
                               h("span", {"class": "rule-english", "text": english}),
                               h("button", {"type": "button", "class": "button button-primary",
                                            "text": _("Use this rule"),
                                            "data-key": f"rule-reading-{i}",
                                            "aria-label": _("Use this rule: {rule}").format(
                                                rule=english or text),
                                            "data-intent": intent_attr(
                                                {"type": "rule_text", "value": text})})))
        box.appendChild(read)
    if vm.can_deal:
        a = vm.analysis
        if a is not None:
            ul = h("ul", {"class": "analysis" + ("" if a.playable else " warn"),
                          "aria-label": _("Analysis")}, h("li", {"text": a.rate}))
            for note in a.lines:
                ul.appendChild(h("li", {"text": note}))
            box.appendChild(ul)
        tl = h("div", {"class": "try-line", "role": "group", "aria-label": _("Mainline to try")})
        if not vm.try_line:
            tl.appendChild(h("span", {"class": "try-empty",
                                      "text": _("The first card (no mainline yet)")}))
        for cv in vm.try_line:
            tl.appendChild(card_face(cv, attrs={"class": _cls(cv, "mini")}))
        box_try = try_picker(dict(vm.try_results), vm.try_suit)
        box.appendChild(h("section", {"class": "try", "aria-label": _("Try a card")},
                          h("h3", {"text": _("Try a card")}),
                          h("p", {"class": "hint-line",
                                  "text": _("Build a mainline and see what your rule says about "
                                            "the next card: ringed in green, right; faded, "
                                            "wrong. Choose a suit, then a card to add it.")}),
                          h("div", {"class": "try-line-row"}, tl,
                            h("button", {"type": "button", "class": "button button-quiet",
                                         "text": _("Clear"), "data-key": "try-clear",
                                         "aria-label": _("Clear the mainline"),
                                         "disabled": not vm.try_line,
                                         "data-intent": intent_attr({"type": "try_clear"})})),
                          *box_try))
    box.appendChild(h("div", {"class": "controls"},
                      button(ControlVM(_("Deal with this rule"), {"type": "rule_accept"},
                                       vm.can_deal, _("Write a rule that parses first."), True,
                                       "rule-accept"))))
    if vm.message:
        box.appendChild(h("p", {"class": "message", "role": "alert", "text": vm.message}))
    return h("div", {"class": "screen screen-write"}, box)


def try_picker(results: dict[str, bool], suit_now: str) -> tuple[El, El, El]:
    """The "try a card" picker: four suit buttons, then that suit's 13 cards, and a summary.

    Two steps keep every target finger-sized (at least 44 px) on a 360 px screen;
    the summary lists, for each suit, the ranks the rule accepts next.
    """

    suits = h("div", {"class": "try-suits", "role": "group", "aria-label": _("Suit")})
    overview = h("ul", {"class": "try-overview", "aria-label": _("Right next, by suit")})
    noun = suit_name("S")
    for suit in SUITS:
        cards = [x for x in ALL_CARDS if x.suit is suit]
        right = [rank_code(x.rank) for x in cards if results.get(x.code, False)]
        on = suit.value == suit_now
        if on:
            noun = suit_name(suit.value)
        red = suit.symbol in "♥♦"
        suits.appendChild(h(
            "button", {"type": "button", "class": "try-suit" + (" red" if red else ""),
                       "aria-pressed": "true" if on else "false",
                       "aria-label": _("{suit}: {count} of 13 right").format(
                           suit=suit_name(suit.value).capitalize(), count=len(right)),
                       "data-key": f"trys-{suit.value}",
                       "data-intent": intent_attr({"type": "try_suit", "suit": suit.value})},
            h("span", {"class": "try-suit-symbol", "aria-hidden": "true", "text": suit.symbol}),
            h("span", {"class": "try-suit-count", "aria-hidden": "true",
                       "text": _("{count} of 13").format(count=len(right))})))
        overview.appendChild(h("li", {"class": "red" if red else None},
                               h("span", {"class": "try-ov-suit", "text": suit.symbol,
                                          "aria-hidden": "true"}),
                               h("span", {"class": "visually-hidden",
                                          "text": suit_name(suit.value)}),
                               " " + (" ".join(right) if right else _("none"))))
    grid = h("div", {"class": "try-grid", "role": "group",
                     "aria-label": _("The {suit}: choose one to add it to the mainline").format(
                         suit=noun)})
    for card in ALL_CARDS:
        if card.suit.value != suit_now:
            continue
        ok = results.get(card.code, False)
        cv = card_vm(card)
        grid.appendChild(card_face(cv, "button", {
            "type": "button", "class": _cls(cv, "mini " + ("ok" if ok else "no")),
            "aria-label": (_("{card}: right next") if ok else _("{card}: wrong next")).format(
                card=card_name(card)),
            "data-key": f"try-{card.code}",
            "data-intent": intent_attr({"type": "try_add", "card": card.code})}))
    return suits, grid, overview


def round_end_screen(vm: RoundEndVM, board: El | None = None,
                     panels: Panels = Panels()) -> El:
    """The rule revealed, the scores with their breakdown, what the computers thought.

    What arrives after the screen is drawn (the computers' thoughts, worked
    out in timer slices; a challenge's comparison, once the computer has
    played the deal) goes under the buttons and the share panel: arriving
    above them it would push "Play again" from under a player's pointer
    between aiming and clicking, and the click would land on the new text.
    """
    late = list(panels.late)  # (the thoughts join them, below)
    box = h("section", {"class": "round-end", "aria-labelledby": "re-title"},
            h("h2", {"id": "re-title", "text": vm.title}))
    if vm.match is not None:
        box.appendChild(match_summary(vm))
        box.appendChild(h("h3", {"class": "round-head",
                                 "text": (_("Round {number}, the last one played")
                                          if vm.match.ended_early else _("Round {number}")
                                          ).format(number=vm.match.rounds_played)}))
    if vm.lesson:
        box.appendChild(h("p", {"class": "coach coach-text", "role": "status",
                                "text": vm.lesson}))
    why = (_("Why round {number} ended: {reason}.") if vm.in_match
           else _("Why it ended: {reason}.")).format(number=vm.round_no, reason=vm.reason)
    box.appendChild(h("p", {"class": "reason", "text": why}))
    box.appendChild(rule_reveal(vm.rule, vm.english, "rule"))
    for panel in panels.results:
        box.appendChild(panel)
    head = h("tr", {}, h("th", {"scope": "col", "text": _("Player")}),
             h("th", {"scope": "col", "class": "num", "text": _("Score")}),
             h("th", {"scope": "col", "text": _("How")}))
    if vm.in_match:
        head.appendChild(h("th", {"scope": "col", "class": "num", "text": _("Total")}))
    table = h("table", {"class": "scores", "aria-label": _("Scores")}, h("thead", {}, head))
    body = h("tbody")
    best = max((r.score for r in vm.scores), default=0)
    for r in vm.scores:
        tr = h("tr", {"class": "best" if r.score == best else None},
               h("th", {"scope": "row", "text": r.name}),
               h("td", {"class": "num", "text": str(r.score)}),
               h("td", {"class": "how", "text": r.detail}))
        if vm.in_match:
            tr.appendChild(h("td", {"class": "num", "text": str(r.total)}))
        body.appendChild(tr)
    table.appendChild(body)
    box.appendChild(h("div", {"class": "scores-wrap"}, table))
    if vm.how_note:
        box.appendChild(h("p", {"class": "hint-line how-note", "text": vm.how_note}))
    if vm.thoughts:
        th = h("section", {"class": "thoughts"},
               h("h3", {"text": _("What the computer scientists thought")}))
        for name, hyps in vm.thoughts:
            ul = h("ul")
            for text, english, p in hyps:
                ul.appendChild(h("li", {}, h("span", {"class": "prob",
                                                      "text": f"{round(p * 100)} %"}),
                                 h("span", {"text": " " + (english or text)})))
            if not hyps:
                ul.appendChild(h("li", {"class": "none", "text": (
                    _("It had no rule in words that fits every play yet "
                      "(stronger scientists consider more kinds of rule)."))}))
            th.appendChild(h("div", {"class": "thinker"}, h("h4", {"text": name}), ul))
        late.append(th)
    nxt = h("div", {"class": "controls"},
            h("button", {"type": "button", "class": "button button-primary",
                         "text": vm.next_label, "data-key": "next-round",
                         "data-intent": intent_attr(
                             {"type": "show_setup" if vm.match_over else "next_round"})}))
    if vm.can_end_match and not vm.end_question:
        nxt.appendChild(h("button", {"type": "button", "class": "button button-quiet",
                                     "text": _("End the match here"), "data-key": "end-here",
                                     "data-intent": intent_attr({"type": "end_match"})}))
    box.appendChild(nxt)
    if vm.can_end_match and vm.end_question:
        # the focus moves from "End the match here" to the safe answer, "Keep playing"
        box.appendChild(end_match_confirm(vm.end_question, "end-here"))
    if panels.share is not None:  # right under "Play again": easy to find on a phone
        box.appendChild(panels.share)
    for panel in late:
        box.appendChild(panel)
    if board is not None:
        box.appendChild(h("h3", {"text": _("The final layout")}))
        box.appendChild(board)
    return h("div", {"class": "screen screen-end"}, box)


def match_summary(vm: RoundEndVM) -> El:
    """The match: each player's rounds, the compensation on its own line, the totals."""
    m = vm.match
    assert m is not None
    sec = h("section", {"class": "match-summary", "aria-labelledby": "ms-title",
                        "data-testid": "match-summary"},
            h("h3", {"id": "ms-title", "text": _("The match")}))
    if m.winner:
        sec.appendChild(h("p", {"class": "match-winner", "text": m.winner}))
    if m.note:
        sec.appendChild(h("p", {"class": "match-note", "text": m.note}))
    table = h("table", {"class": "scores match-scores", "aria-labelledby": "ms-title"},
              h("thead", {}, h("tr", {}, h("th", {"scope": "col", "text": _("Player")}),
                                h("th", {"scope": "col", "text": _("Breakdown")}),
                                h("th", {"scope": "col", "class": "num", "text": _("Total")}))))
    body = h("tbody")
    best = max((r.total for r in m.rows), default=0)
    for r in m.rows:
        lines = h("ul", {"class": "breakdown"})
        for line in r.lines:
            comp = line.startswith("Compensation")
            lines.appendChild(h("li", {"class": "compensation" if comp else None,
                                       "text": line}))
        body.appendChild(h("tr", {"class": "best" if r.total == best else None},
                           h("th", {"scope": "row", "text": r.name}),
                           h("td", {}, lines),
                           h("td", {"class": "num total", "text": str(r.total)})))
    table.appendChild(body)
    sec.appendChild(table)
    return sec


def help_screen(blocks: list[tuple[str, str]], tryable: frozenset[str] = frozenset()) -> El:
    """How to play (or the rule language's guide): headings, paragraphs, lists, tables.

    ``tryable``: code examples that are rules and can be tried in the field the
    guide was opened from ("Try this rule").
    """
    box = h("article", {"class": "help", "aria-labelledby": "help-title"})
    box.appendChild(h("div", {"class": "controls"},
                      h("button", {"type": "button", "class": "button button-primary",
                                   "text": _("Back"), "data-key": "help-back",
                                   "data-intent": intent_attr({"type": "close_help"})})))
    toc = h("nav", {"class": "help-toc", "aria-label": _("Sections")})
    for kind, text in blocks:
        if kind == "h2":
            slug = "help-" + re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            toc.appendChild(h("a", {"href": "#" + slug, "text": text}))
    box.appendChild(toc)
    first = True
    ul = None
    for kind, text in blocks:
        if kind != "li":
            ul = None
        if kind in ("h1", "h2", "h3", "h4"):
            attrs: dict[str, Any] = {}
            if first:
                attrs["id"] = "help-title"
                first = False
            if kind == "h2":
                attrs["id"] = "help-" + re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")
            el = h(kind, attrs)
            inline(el, text)
            box.appendChild(el)
        elif kind == "li":
            if ul is None:
                ul = h("ul")
                box.appendChild(ul)
            li = h("li")
            inline(li, text)
            ul.appendChild(li)
        elif kind == "pre" and any(line.strip() in tryable for line in text.splitlines()):
            # examples, one rule a line: each can be tried where the guide was opened from
            ex = h("ul", {"class": "examples"})
            for line in text.splitlines():
                rule = line.strip()
                item = h("li", {}, h("code", {"text": rule}))
                if rule in tryable:
                    bare = rule.split("--", 1)[0].strip()
                    item.appendChild(h("button", {
                        "type": "button", "class": "button button-quiet try-example",
                        "text": _("Try this rule"),
                        "aria-label": _("Try this rule: {rule}").format(rule=bare),
                        "data-intent": intent_attr({"type": "try_rule", "value": bare})}))
                ex.appendChild(item)
            box.appendChild(ex)
        elif kind == "pre":
            box.appendChild(h("pre", {"text": text}))
        elif kind == "table":
            rows = [r.split("\t") for r in text.split("\n")]
            table = h("table", {"class": "help-table"})
            head = h("tr")
            for cell in rows[0]:
                th = h("th", {"scope": "col"})
                inline(th, cell)
                head.appendChild(th)
            table.appendChild(h("thead", {}, head))
            body = h("tbody")
            for r in rows[1:]:
                tr = h("tr")
                for cell in r:
                    td = h("td")
                    inline(td, cell)
                    tr.appendChild(td)
                body.appendChild(tr)
            table.appendChild(body)
            # a wide table scrolls sideways on a phone: its box takes the focus so that
            # the keyboard can scroll it too, and is named by its columns
            columns = re.sub(r"[*`]", "", ", ".join(rows[0]))
            box.appendChild(h("div", {"class": "help-table-wrap", "tabindex": "0",
                                      "role": "region",
                                      "aria-label": _("Table: {columns}").format(columns=columns)},
                              table))
        else:
            p = h("p")
            inline(p, text)
            box.appendChild(p)
    return h("div", {"class": "screen screen-help"}, box)


def inline(el: El, text: str) -> None:
    """Write markdown-ish inline text: **bold**, *italic*, `code` as elements."""
    for part in re.split(r"(\*\*[^*]+\*\*|\*[^*]+\*|`[^`]+`)", text):
        if not part:
            continue
        if part.startswith("**"):
            el.appendChild(h("strong", {"text": part[2:-2]}))
        elif part.startswith("`"):
            el.appendChild(h("code", {"text": part[1:-1]}))
        elif part.startswith("*") and len(part) > 2:
            el.appendChild(h("em", {"text": part[1:-1]}))
        else:
            el.appendChild(part)


def link_notice(problem: tuple[str, str]) -> El:
    """The notice of a link that could not be opened: a sentence, the detail folded away."""
    text, detail = problem
    return h("div", {"class": "notice link-message", "role": "alert",
                     "data-testid": "link-message"},
             h("p", {"text": text}),
             h("details", {}, h("summary", {"text": _("What went wrong")}),
               h("p", {"class": "detail", "text": detail})))


def _present(value: Any) -> bool:
    """Whether a browser value is neither null nor undefined."""
    return value is not None and type(value).__name__ not in ("JsNull", "JsUndefined")


#: The step a person goes on to when the control they used is gone or disabled.
NEXT_STEP_KEYS = ("ctl-Continue", "reveal", "next-round")

_mounts: dict[int, Mount] = {}


def mount(root: Any, screen: El) -> None:
    """Draw ``screen`` into ``root``, changing only what differs from the last draw.

    Elements that stay keep their node, so focus, a text field's caret and
    undo history, and a click under way all survive a redraw. When the
    focused control is gone or has become unavailable, the focus moves to the
    next step (Continue, show my hand, next round) where there is one.
    """
    m = _mounts.get(id(root))
    if m is None or m.root is not root:
        m = _mounts[id(root)] = Mount(dom.document, root, dom.builder())
    active = dom.document.activeElement
    key = None
    if _present(active) and root.contains(active):
        key = active.getAttribute("data-key")
        key = str(key) if _present(key) else None
    m.draw(screen)
    if not key:
        return
    target = m.find(lambda e: e.attrs.get("data-key") == key)
    if target is None or target.attrs.get("aria-disabled") == "true":
        nxt = m.find(lambda e: e.attrs.get("data-key") in NEXT_STEP_KEYS)
        if nxt is not None:
            target = nxt
    if target is None or target.node is None:
        return
    if target.attrs.get("data-key") == key and root.contains(dom.document.activeElement):
        return  # the focused control stayed: nothing to do
    target.node.focus()
