"""The daily rule in the page: one Solo puzzle a day, a spoiler-free result, streaks.

"Daily puzzle" on the new-game screen plays Solo with
:func:`eleusis.daily.daily_puzzle` of today (the browser's local date, or the
``?date=YYYY-MM-DD`` URL parameter, so a test or a curious player can open
another day). The game is saved like any other (id ``daily-<date>``: opening
the same day again continues it). At the end the page shows the short
spoiler-free text of :func:`eleusis.daily.share_text` with a copy button, and
records the result in the streak history kept in ``localStorage`` under
:data:`HISTORY_KEY` (written and read back by :mod:`eleusis_web.storage`, the one writer:
damaged data is reset, with a message).
"""

from __future__ import annotations

import datetime as _dt
import time
from dataclasses import dataclass
from typing import Any

from eleusis.daily import (
    DailyError,
    best_streak,
    daily_difficulty,
    daily_puzzle,
    record_result,
    result_of,
    share_text,
    streak,
)
from eleusis.game import State
from eleusis.i18n import _, ngettext
from eleusis_web import dom
from eleusis_web.context import AppContext
from eleusis_web.intents import Intent
from eleusis_web.render import h, intent_attr
from eleusis_web.session import Session, Setup
from eleusis_web.storage import DAILY
from eleusis_web.vdom import El

HISTORY_KEY = DAILY


def parse_day(text: str | None) -> _dt.date | None:
    """A ``YYYY-MM-DD`` date, or None when the text is not one."""
    if not text or len(text) != 10:
        return None
    try:
        return _dt.date.fromisoformat(text)
    except ValueError:
        return None


def result_texts(game: State, day: _dt.date, history: dict[str, Any]) -> tuple[str, str]:
    """The share text of a finished daily game and a line about the streaks."""
    text = share_text(game, day)
    now = streak(history, day)
    best = best_streak(history)
    return text, ngettext("Streak: {count} day · best {best}", "Streak: {count} days · best {best}",
                          now).format(count=now, best=best)


# --------------------------------------------------------------------------- browser


def today() -> _dt.date:
    """``?date=`` when given (and valid), else the browser's local date (CPython: the
    machine's)."""
    if dom.window is None:
        return _dt.date.today()

    params = dom.window.URLSearchParams.new(dom.window.location.search)
    given = params.get("date")
    day = parse_day(None if dom.nil(given) else str(given))
    if day is not None:
        return day
    now = dom.window.Date.new()
    return _dt.date(int(now.getFullYear()), int(now.getMonth()) + 1, int(now.getDate()))


def load_history(app: AppContext, repair: bool = True) -> dict[str, Any]:
    """The stored history; a damaged one reads as empty, with a message.

    ``repair``: also write the repaired history back (never while drawing).
    """
    history, message = app.saves.read_daily(repair)
    if message:
        app.ui_extra["daily_message"] = message
    return history


def save_history(app: AppContext, history: dict[str, Any]) -> None:
    """Write the history (a full storage only loses the streak)."""
    app.saves.write_daily(history)


def start_solo(app: AppContext, sid: str, state: State, extra: dict[str, Any]) -> None:
    """Start (or continue, when saved) a Solo session on ``state``."""
    app.replay = None
    app.special = ""
    saved = app.saves.load(sid)
    if saved is not None and saved.rounds[0].config == state.config:
        app.c.resume(saved)
        app.c.announcements.append(_("Your game goes on where it was."))
        return
    setup = Setup(variant="solo", seed=state.config.seed, pace=app.c.ui.setup.pace)
    session = Session.of_round(sid, setup, state, time.time(), extra)
    app.c.resume(session)
    app.save()


def handle(app: AppContext, intent: Intent) -> bool:
    """``daily_start``: play today's puzzle."""
    if str(intent.get("type")) == "daily_start":
        day = today()
        puzzle = daily_puzzle(day, _("You"))
        start_solo(app, f"daily-{day.isoformat()}", puzzle.start(), {"daily": day.isoformat()})
        app.c.announcements.append(
            _("The daily puzzle of {day}: difficulty {difficulty} of 5.").format(
                day=day.isoformat(), difficulty=puzzle.difficulty))
    return True


@dataclass(frozen=True, slots=True)
class EntryVM:
    """The new-game screen's "Daily puzzle" card."""

    day: str  # ISO date
    difficulty: int
    streak: int
    best: int
    message: str  # the streak record was damaged (shown once), or ""


def entry_model(app: AppContext) -> EntryVM:
    """Today's puzzle and the streaks (reads only: a damaged record is repaired in settle)."""
    day = today()
    history, damaged = app.saves.read_daily(repair=False)
    return EntryVM(day.isoformat(), daily_difficulty(day), streak(history, day),
                   best_streak(history), str(app.ui_extra.get("daily_message", "")) or damaged)


def render_entry(vm: EntryVM) -> El:
    """Draw the "Daily puzzle" card."""
    box = h("div", {"class": "share-entry daily-entry"},
            h("h3", {"text": _("Daily puzzle")}),
            h("p", {"text": _("{day} · difficulty {difficulty} of 5 · the same rule and deal "
                              "for everyone today. Streak {streak}, best {best}.").format(
                day=vm.day, difficulty=vm.difficulty, streak=vm.streak, best=vm.best)}),
            h("button", {"type": "button", "class": "button button-primary",
                         "text": _("Daily puzzle"), "data-key": "daily-start",
                         "data-intent": intent_attr({"type": "daily_start"})}))
    if vm.message:
        box.appendChild(h("p", {"class": "notice", "role": "alert", "text": vm.message}))
    return box


def settle(app: AppContext) -> None:
    """After a change: a damaged streak record is repaired (its message shown once);
    a daily game that has just ended is recorded in the history (once)."""
    if app.c.ui.screen == "setup":
        _, app.ui_extra["daily_message"] = app.saves.read_daily(repair=True)
    s = app.c.session
    iso = s.extra.get("daily") if s is not None else None
    day = parse_day(str(iso)) if iso else None
    if s is None or day is None or not s.state.over:
        return
    history = load_history(app)
    if day.isoformat() in history.get("days", {}):
        return
    try:
        history = record_result(history, day, result_of(s.state))
    except DailyError:
        return
    save_history(app, history)


@dataclass(frozen=True, slots=True)
class ResultVM:
    """A daily game's end: the spoiler-free text to share and the streaks (or why not)."""

    text: str
    streaks: str
    error: str = ""


def result_model(app: AppContext) -> ResultVM | None:
    """The result panel's model at the end of a daily game, else None."""
    s = app.c.session
    iso = s.extra.get("daily") if s is not None else None
    day = parse_day(str(iso)) if iso else None
    if s is None or day is None or not s.state.over:
        return None
    history, _damaged = app.saves.read_daily(repair=False)
    try:
        if day.isoformat() not in history.get("days", {}):  # not recorded yet: as it will be
            history = record_result(history, day, result_of(s.state))
        text, streaks = result_texts(s.state, day, history)
    except DailyError as exc:
        return ResultVM("", "", _("The daily result is unavailable: {reason}").format(
            reason=exc))
    return ResultVM(text, streaks)


def render_result(vm: ResultVM) -> El:
    """Draw the daily result: the text in a read-only field with "Copy result", the streaks."""
    if vm.error:
        return h("p", {"class": "notice", "text": vm.error})
    return h("section", {"class": "share-box daily-result", "aria-labelledby": "daily-title"},
             h("h3", {"id": "daily-title", "text": _("Your daily result")}),
             h("label", {"class": "field-label", "for": "daily-text",
                         "text": _("Daily result")}),
             h("textarea", {"id": "daily-text", "readonly": True,
                            "rows": str(min(8, vm.text.count("\n") + 3)),
                            "class": "share-text", "value": vm.text, "data-key": "daily-text"}),
             h("p", {"class": "streak", "data-testid": "streak", "text": vm.streaks}),
             h("div", {"class": "controls"},
               h("button", {"type": "button", "class": "button", "text": _("Copy result"),
                            "data-key": "daily-copy",
                            "data-intent": intent_attr({"type": "copy_text", "value": vm.text,
                                                        "field": "daily-text"})})))


__all__ = ["HISTORY_KEY", "EntryVM", "ResultVM", "entry_model", "handle", "load_history",
           "parse_day", "render_entry", "render_result", "result_model", "result_texts",
           "save_history", "settle", "start_solo", "today"]
