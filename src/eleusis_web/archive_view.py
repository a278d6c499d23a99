"""Export and import of every saved game (with its notebook) and the daily streaks.

"Export all games" downloads one JSON file (:func:`eleusis.archive.export_archive`)
through a Blob URL. "Import games" reads a file chosen in a file input,
validates all of it in time slices (:func:`eleusis.archive.parse_archive_steps`:
an error is shown and nothing changes), then shows what importing would do
(:func:`eleusis.archive.merge_plan`) and asks: new games are imported only on
"Import", and games that differ from the ones saved here are overwritten only
on an explicit "Import and overwrite" (or kept both under fresh ids).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Generator, Mapping
from dataclasses import dataclass, replace
from typing import Any

from eleusis.archive import (
    Archive,
    ArchivedGame,
    ArchiveError,
    Plan,
    export_archive,
    game_from_save,
    merge_daily,
    merge_plan,
    parse_archive_steps,
)
from eleusis.i18n import _, ngettext
from eleusis.notebook import Notebook, NotebookError
from eleusis.state import run_steps
from eleusis_web import boot, daily_view, dom
from eleusis_web.context import AppContext
from eleusis_web.intents import Intent
from eleusis_web.render import h, intent_attr
from eleusis_web.storage import check_archived
from eleusis_web.vdom import El

FILE_NAME = "eleusis-games.json"
#: Milliseconds of checking an imported file per browser task.
CHECK_SLICE_MS = 8.0


def collect(entries: Mapping[str, Mapping[str, Any]]) -> tuple[list[ArchivedGame], list[str]]:
    """The archived games of the page's saved-game entries (id -> entry); skipped ids."""
    games: list[ArchivedGame] = []
    skipped: list[str] = []
    for sid, entry in entries.items():
        try:
            game = game_from_save(entry)
        except ArchiveError:
            skipped.append(sid)
            continue
        # the game's notebook (kept by the page in the session's extra data) also goes in
        # the archive's own notebook field, so an import validates it entry by entry
        extra = entry.get("game", {}).get("extra") if isinstance(entry.get("game"), dict) \
            else None
        raw = extra.get("notebook") if isinstance(extra, dict) else None
        if raw is not None:
            with contextlib.suppress(NotebookError):
                game = replace(game, notebook=Notebook.from_data(raw))
        games.append(game)
    return games, skipped


def plan_for(text: str, saved: Mapping[str, Mapping[str, Any]]) -> tuple[Archive, Plan]:
    """Validate an archive's text and compare it with the saved games (ArchiveError)."""
    return run_steps(plan_steps(text, saved))


def plan_steps(text: str, saved: Mapping[str, Mapping[str, Any]]
               ) -> Generator[None, None, tuple[Archive, Plan]]:
    """:func:`plan_for` in steps of a few milliseconds (None after each), so that the page
    keeps answering while a large file is checked (every round is replayed:
    :func:`eleusis.archive.parse_archive_steps`)."""
    archive = yield from parse_archive_steps(text, check_archived)
    rounds = {sid: [str(r) for r in e.get("game", {}).get("rounds", [])]
              for sid, e in saved.items()}
    return archive, merge_plan(rounds, archive)



# --------------------------------------------------------------------------- browser


def _saved(app: AppContext) -> dict[str, dict[str, Any]]:
    """Every readable saved game by id, as stored (read by the one writer, depth-bounded)."""
    return app.saves.saved_data()


def _download(text: str) -> None:

    parts = dom.window.Array.new()
    parts.push(text)
    opts = dom.window.Object.new()
    opts.type = "application/json"
    blob = dom.window.Blob.new(parts, opts)
    url = dom.window.URL.createObjectURL(blob)
    a = dom.document.createElement("a")
    a.href = url
    a.download = FILE_NAME
    a.style.display = "none"
    dom.document.body.appendChild(a)
    a.click()
    a.remove()
    dom.window.setTimeout(dom.js_function(lambda: dom.window.URL.revokeObjectURL(url)), 4000)


def export_now(app: AppContext) -> None:
    """Download every saved game and the daily streaks as one file."""
    games, skipped = collect(_saved(app))
    try:
        text = export_archive(games, None, daily_view.load_history(app))
    except ArchiveError as exc:
        app.ui_extra["ar_message"] = _("Export failed: {error}").format(error=exc)
        return
    _download(text)
    msg = ngettext("Exported {count} game to {file}.", "Exported {count} games to {file}.",
                   len(games)).format(count=len(games), file=FILE_NAME)
    if skipped:
        msg += " " + ngettext("{count} unreadable saved game left out.",
                              "{count} unreadable saved games left out.",
                              len(skipped)).format(count=len(skipped))
    app.ui_extra["ar_message"] = msg


def _read_file(app: AppContext) -> None:
    el = dom.document.getElementById("archive-file")
    if dom.nil(el) or dom.nil(el.files) or el.files.length == 0:
        return
    file = el.files.item(0)
    el.value = ""  # the field stays on the page: choosing the same file again must work
    if int(file.size) > 8_000_000:
        app.ui_extra["ar_message"] = _("This file is too large to be an Eleusis archive.")
        app.render()
        return

    def got(text: Any) -> None:
        received(app, str(text))

    file.text().then(dom.js_function(boot.guarded(got)))


def received(app: AppContext, text: str) -> None:
    """A file's text arrived: validate it in time slices (:func:`plan_steps`, one per
    browser task, "Checking the file…" meanwhile), then ask what to do (nothing is
    written yet)."""
    app.ui_extra.pop("ar_plan", None)
    app.ui_extra["ar_checking"] = plan_steps(text, _saved(app))
    app.ui_extra["ar_message"] = _("Checking the file…")
    _check_slice(app)
    app.render()


def _check_slice(app: AppContext) -> None:
    steps = app.ui_extra.get("ar_checking")
    if steps is None:
        return
    deadline = time.perf_counter() + CHECK_SLICE_MS / 1000
    try:
        while time.perf_counter() < deadline:
            next(steps)
    except StopIteration as end:
        app.ui_extra["ar_plan"] = end.value
        app.ui_extra["ar_message"] = ""
    except ArchiveError as exc:
        app.ui_extra["ar_message"] = _("This file cannot be imported: {error}").format(
            error=exc)
    else:
        if "ar_tick_js" not in app.ui_extra:
            def tick() -> None:
                _check_slice(app)
                if "ar_checking" not in app.ui_extra:
                    app.render()

            app.ui_extra["ar_tick_js"] = dom.js_function(boot.guarded(tick))
        dom.window.setTimeout(app.ui_extra["ar_tick_js"], 0)
        return
    app.ui_extra.pop("ar_checking", None)


def apply_plan(app: AppContext, mode: str) -> None:
    """Write the games the player agreed to (``new``, ``overwrite`` or ``both``)."""
    pending = app.ui_extra.pop("ar_plan", None)
    if pending is None:
        return
    archive, plan = pending
    ids = [g.id for g in plan.conflicts]
    games = plan.to_write(overwrite=ids if mode == "overwrite" else (),
                          keep_both=ids if mode == "both" else ())
    written = 0
    for g in games:
        if not app.saves.write_archived(g):
            app.ui_extra["ar_message"] = _("The browser's storage is full: not every game "
                                           "was imported.")
            break
        written += 1
    if archive.daily is not None:
        with contextlib.suppress(ArchiveError):
            daily_view.save_history(app, merge_daily(daily_view.load_history(app),
                                                     archive.daily))
    if not app.ui_extra.get("ar_message"):
        app.ui_extra["ar_message"] = ngettext("Imported {count} game.", "Imported {count} games.",
                                              written).format(count=written)


def handle(app: AppContext, intent: Intent) -> bool:
    """``archive_*`` intents: export, the file chosen, the player's answer."""
    kind = str(intent.get("type", ""))
    if kind == "archive_export":
        export_now(app)
    elif kind == "archive_file":
        app.ui_extra["ar_message"] = _("Reading the file…")
        _read_file(app)
    elif kind == "archive_cancel":
        app.ui_extra.pop("ar_plan", None)
        app.ui_extra["ar_message"] = _("Nothing was imported.")
    elif kind == "archive_apply":
        app.ui_extra["ar_message"] = ""
        apply_plan(app, str(intent.get("mode", "new")))
    return True


@dataclass(frozen=True, slots=True)
class PanelVM:
    """The export / import card: the question after a file was read, the last word."""

    summary: str  # what the file holds, when a question is pending ("" otherwise)
    new: int  # how many of its games are new here
    conflicts: bool  # some differ from the games saved here
    message: str


def panel_model(app: AppContext) -> PanelVM:
    """The card's model (the pending plan and message kept by :func:`handle`)."""
    pending = app.ui_extra.get("ar_plan")
    msg = str(app.ui_extra.get("ar_message", "") or "")
    if pending is None:
        return PanelVM("", 0, False, msg)
    _, plan = pending
    return PanelVM(plan.summary, len(plan.new), bool(plan.conflicts), msg)


def render_panel(vm: PanelVM) -> El:
    """The new-game screen's export / import card (and the question after a file)."""
    box = h("div", {"class": "share-entry archive-entry", "id": "archive"},
            h("h3", {"text": _("Your games in a file")}),
            h("p", {"text": _("Keep or move every saved game (with its notebook) and your "
                              "daily streak.")}),
            h("div", {"class": "controls"},
              h("button", {"type": "button", "class": "button", "text": _("Export all games"),
                           "data-key": "archive-export",
                           "data-intent": intent_attr({"type": "archive_export"})}),
              h("label", {"class": "button file-button", "for": "archive-file"},
                _("Import games…")),
              h("input", {"type": "file", "id": "archive-file", "accept": ".json,application/json",
                          "class": "visually-hidden", "aria-label": _("Import games from a file"),
                          "data-change": intent_attr({"type": "archive_file"})})))
    if vm.summary:
        ask = h("div", {"class": "archive-ask", "role": "alertdialog",
                        "aria-labelledby": "archive-ask-title"},
                h("p", {"id": "archive-ask-title", "data-testid": "archive-plan",
                        "text": _("This file holds {summary}. Import?").format(
                            summary=vm.summary)}))
        row = h("div", {"class": "controls"})
        row.appendChild(h("button", {"type": "button", "class": "button button-primary",
                                     "text": ngettext("Import {count} new game",
                                                      "Import {count} new games",
                                                      vm.new).format(count=vm.new),
                                     "data-key": "archive-new",
                                     "data-intent": intent_attr({"type": "archive_apply",
                                                                 "mode": "new"})}))
        if vm.conflicts:
            row.appendChild(h("button", {"type": "button", "class": "button",
                                         "text": _("Import and overwrite the differing games"),
                                         "data-key": "archive-over",
                                         "data-intent": intent_attr({"type": "archive_apply",
                                                                     "mode": "overwrite"})}))
            row.appendChild(h("button", {"type": "button", "class": "button",
                                         "text": _("Import and keep both"),
                                         "data-key": "archive-both",
                                         "data-intent": intent_attr({"type": "archive_apply",
                                                                     "mode": "both"})}))
        row.appendChild(h("button", {"type": "button", "class": "button", "text": _("Cancel"),
                                     "data-key": "archive-cancel",
                                     "data-intent": intent_attr({"type": "archive_cancel"})}))
        ask.appendChild(row)
        box.appendChild(ask)
    if vm.message:
        box.appendChild(h("p", {"class": "share-note", "role": "status",
                                "data-testid": "archive-message", "text": vm.message}))
    return box


__all__ = ["FILE_NAME", "PanelVM", "apply_plan", "collect", "export_now", "handle",
           "panel_model", "plan_for", "received", "render_panel"]
