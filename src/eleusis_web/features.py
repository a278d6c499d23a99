"""The share features' registry: replay links, the notebook, daily, challenge, archive.

Links live in the URL fragment (never sent to a server):

* ``#r=<replay>`` (``&n=<notebook token>``): the replay viewer
  (:mod:`eleusis_web.replay_view`); the replay text is
  :func:`eleusis.replay.encode` of the round. It is decoded in time slices
  (:class:`~eleusis_web.replay_view.ReplayLoad`, one per ``setTimeout``
  tick, the screen showing how far it got), so a long link never blocks the
  page;
* ``#c=<challenge token>``: play Solo against a friend's rule
  (:mod:`eleusis_web.challenge_view`).

A bad link shows a clear message above the normal page, never an error panel.
Texts from a link (names, rules, guesses, hints) reach the page only through
``textContent``.

The app shell (:mod:`eleusis_web.app`) routes every intent whose owner is a
feature to its handler in :data:`HANDLERS` (the owners are written in
:mod:`eleusis_web.intents`), and calls :func:`screen` for a screen of ours that replaces
the table's (the replay viewer, the challenge editor), and :func:`panels` for
our panels on the table's screens (share and the daily or challenge result at a
round's end, the notebook while playing, the daily puzzle, challenge and archive
cards on the new-game screen): each feature draws its panel from its own view
model, and the screen places it (:class:`eleusis_web.render.Panels`).
The pure parts (:func:`parse_fragment`, :func:`replay_link`) are tested on
CPython.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from eleusis.game import State
from eleusis.i18n import _
from eleusis.notebook import Notebook
from eleusis.replay import ReplayError, encode
from eleusis_web import archive_view, boot, challenge_view, daily_view, dom, notebook_panel
from eleusis_web.context import AppContext
from eleusis_web.dom import base_url, clear_hash, copy_text, share_or_copy
from eleusis_web.intents import Intent
from eleusis_web.notebook_panel import session_notebook
from eleusis_web.render import Panels, h, intent_attr
from eleusis_web.replay_view import ReplayLoad, render_loading, render_replay, replay_model
from eleusis_web.vdom import El
from eleusis_web.viewmodel import link_problem

#: A fragment longer than this is refused before decoding.
MAX_FRAGMENT = 400_000
#: While a replay link is being opened, the screen is drawn again at most this often (ms).
LOAD_REDRAW_MS = 100.0


def parse_fragment(fragment: str) -> tuple[str, dict[str, str]]:
    """The kind of a URL fragment (``"r"``, ``"c"`` or ``""``) and its parameters.

    ``"#r=AbC&n=xY"`` -> ``("r", {"r": "AbC", "n": "xY"})``. Unknown or empty
    fragments give ``("", {})`` (an in-page anchor such as ``#help-...``).
    """
    text = fragment[1:] if fragment.startswith("#") else fragment
    if not text or len(text) > MAX_FRAGMENT:
        return ("", {}) if not text else ("r" if text.startswith("r=") else "", {})
    params: dict[str, str] = {}
    for part in text.split("&"):
        key, sep, value = part.partition("=")
        if sep and key in ("r", "n", "c") and key not in params:
            params[key] = value
    first = text.split("=", 1)[0]
    if first in ("r", "c") and first in params:
        return first, params
    return "", {}


def replay_link(base: str, state: State, notebook: Notebook | None = None) -> str:
    """The link of a round's replay: ``base#r=...`` (``&n=...`` with a notebook)."""
    link = f"{base.split('#', 1)[0]}#r={encode(state)}"
    if notebook is not None and notebook.entries:
        link += f"&n={notebook.to_token()}"
    return link


# --------------------------------------------------------------------------- browser


def route_hash(app: AppContext) -> None:
    """Open what the address's fragment asks for (on load and on ``hashchange``)."""

    kind, params = parse_fragment(str(dom.window.location.hash or ""))
    text = str(dom.window.location.hash or "")
    if kind == "r":
        app.replay = None
        app.link_message = None
        app.replay_load = ReplayLoad(params.get("r", ""), params.get("n"))
        _load_slice(app)  # a short link opens at once, a bad one is refused at once
    elif kind == "c":

        challenge_view.open_link(app, params.get("c", ""))
    elif text.startswith(("#r", "#c")):
        app.link_message = (_("This link cannot be opened: it is damaged or incomplete. Ask "
                              "whoever sent it to copy the whole link again."),
                            "the address's fragment is neither a replay nor a challenge")
    else:
        return
    app.settle()
    app.render()


def _load_slice(app: AppContext) -> bool:
    """One time slice of the replay link being opened; whether it is over (opened or
    refused). Schedules the next slice otherwise."""
    load = app.replay_load
    if load is None:
        return True
    try:
        done = load.advance()
    except ReplayError as exc:
        app.replay_load = None
        app.link_message = link_problem("replay", exc)
        return True
    if done is not None:
        app.replay_load = None
        app.replay = done
        return True
    _schedule_load(app)
    return False


def _load_tick(app: AppContext) -> None:
    app.ui_extra["rl_timer"] = None
    if app.replay_load is None:
        return
    over = _load_slice(app)
    now = float(dom.window.performance.now())
    if over or now - float(app.ui_extra.get("rl_drawn", 0.0)) >= LOAD_REDRAW_MS:
        app.ui_extra["rl_drawn"] = now
        app.render()


def _schedule_load(app: AppContext) -> None:
    if app.ui_extra.get("rl_timer") is not None:
        return
    if "rl_tick_js" not in app.ui_extra:
        def tick() -> None:
            _load_tick(app)

        app.ui_extra["rl_tick_js"] = dom.js_function(boot.guarded(tick))
    app.ui_extra["rl_timer"] = dom.window.setTimeout(app.ui_extra["rl_tick_js"], 0)


def _tick(app: AppContext) -> None:
    app.replay_timer = None
    r = app.replay
    if r is None or not r.playing:
        return
    r.seek(r.step + 1)
    app.render()
    _schedule_replay(app)


def _schedule_replay(app: AppContext) -> None:
    r = app.replay
    if r is None or not r.playing or app.replay_timer is not None:
        return
    if app.replay_tick is None:
        def tick() -> None:
            _tick(app)

        app.replay_tick = dom.js_function(boot.guarded(tick))
    app.replay_timer = dom.window.setTimeout(app.replay_tick, 600)


def handle_replay(app: AppContext, intent: Intent) -> None:
    """The replay viewer's intents (``replay_*``): close, seek, play or pause."""
    r = app.replay
    if intent.kind == "replay_close" or r is None:
        app.replay = None
        app.replay_load = None  # "Stop" while a link is being opened
        clear_hash()
    elif intent.kind == "replay_seek":
        r.seek(intent.number("value", r.step))
        r.playing = False
    elif intent.kind == "replay_toggle":
        if r.step >= r.last and not r.playing:
            r.seek(0)
        r.playing = not r.playing
        _schedule_replay(app)


def handle_share(app: AppContext, intent: Intent) -> None:
    """``share_replay`` (the round's link: share sheet or clipboard) and ``copy_text``."""
    if intent.kind == "share_replay":
        s = app.c.session
        if s is not None:
            link = replay_link(base_url(), s.state, session_notebook(s))
            app.share_note = share_or_copy(link, _("Eleusis replay"), "replay-link")
    elif intent.kind == "copy_text":
        copy_text(intent.text("value"), intent.text("field"))
        app.share_note = "Copied."


def before_table(app: AppContext, intent: Intent) -> None:
    """What the share features drop when the table moves on (a new game, a round)."""
    if intent.kind in ("show_setup", "next_round", "start", "new_game"):
        app.share_note = ""
    if intent.kind == "show_setup":
        app.replay = None
        app.replay_load = None
        app.link_message = None


#: The one registry of the share features: an intent's owner (see
#: :data:`eleusis_web.intents.OWNERS`) -> its handler ``(app, intent)``.
HANDLERS: dict[str, Callable[[AppContext, Intent], object]] = {
    "replay": handle_replay,
    "share": handle_share,
    "notebook": notebook_panel.handle,
    "daily": daily_view.handle,
    "challenge": challenge_view.handle,
    "archive": archive_view.handle,
}


def screen(app: AppContext) -> tuple[str, str, El] | None:
    """A screen of ours replacing the table's: (name, title, element), or None."""
    if app.replay_load is not None:
        return "replay-loading", _("Opening the replay"), render_loading(app.replay_load)
    if app.replay is not None:
        vm = replay_model(app.replay)
        return "replay", vm.title, render_replay(vm)
    if app.special == "challenge-write":
        return ("challenge-write", _("Challenge a friend"),
                challenge_view.render_writer(challenge_view.writer_model(app)))
    return None


@dataclass(frozen=True, slots=True)
class ShareVM:
    """The end-of-round share panel: the round's replay link, the last word."""

    link: str
    note: str


def share_model(app: AppContext) -> ShareVM | None:
    """The share panel's model at a round's end (None without a game)."""
    s = app.c.session
    if s is None:
        return None
    return ShareVM(replay_link(base_url(), s.state, session_notebook(s)), app.share_note)


def render_share(vm: ShareVM) -> El:
    """"Share replay" and the link in a read-only field."""
    box = h("section", {"class": "share-box", "aria-labelledby": "share-title"},
            h("h3", {"id": "share-title", "text": _("Share this round")}))
    box.appendChild(h("div", {"class": "controls"},
                          h("button", {"type": "button", "class": "button button-primary",
                                       "text": _("Share replay"), "data-key": "share-replay",
                                       "data-intent": intent_attr({"type": "share_replay"})})))
    box.appendChild(h("label", {"class": "field share-field", "for": "replay-link"},
                      h("span", {"class": "field-label", "text": _("Replay link")})))
    box.appendChild(h("input", {"type": "text", "id": "replay-link", "readonly": True,
                                "class": "share-link", "value": vm.link,
                                "data-key": "replay-link-field"}))
    if vm.note:
        box.appendChild(h("p", {"class": "share-note", "role": "status", "text": vm.note}))
    return box


def panels(app: AppContext, screen_name: str) -> Panels:
    """The share features' panels for a screen of the table's, each from its view model."""
    if screen_name == "setup":
        return Panels(entries=(daily_view.render_entry(daily_view.entry_model(app)),
                               challenge_view.render_entry(),
                               archive_view.render_panel(archive_view.panel_model(app))))
    if screen_name == "round-end":
        daily, challenge = daily_view.result_model(app), challenge_view.result_model(app)
        share = share_model(app)
        return Panels(
            results=(daily_view.render_result(daily),) if daily is not None else (),
            share=render_share(share) if share is not None else None,
            # (its comparison arrives once the computer has played: under the buttons)
            late=(challenge_view.render_result(challenge),) if challenge is not None else ())
    if screen_name == "table":
        nb = notebook_panel.panel_model(app)
        if nb is not None:
            return Panels(side=(notebook_panel.render_notebook(nb),), marked=nb.highlight)
    return Panels()


__all__ = [
    "HANDLERS",
    "MAX_FRAGMENT",
    "ShareVM",
    "before_table",
    "clear_hash",
    "copy_text",
    "handle_replay",
    "handle_share",
    "panels",
    "parse_fragment",
    "render_share",
    "replay_link",
    "route_hash",
    "screen",
    "share_model",
    "share_or_copy",
]
