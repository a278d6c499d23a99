"""What the share features may use of the app: a typed context, not an untyped ``app``.

The app shell (:class:`eleusis_web.app.App`) satisfies :class:`AppContext`;
every feature (the replay viewer, the notebook, the daily puzzle, challenges,
the archive) receives it and reads or changes only these members, so a
feature's reach is written down here and checked by ``mypy``.
"""

from __future__ import annotations

from typing import Any, Protocol

from eleusis_web.controller import Controller
from eleusis_web.replay_view import Replay, ReplayLoad
from eleusis_web.storage import Saves


class AppContext(Protocol):
    """The members of the app a feature may use."""

    #: the table's controller: the session, the screen's state, announcements
    c: Controller
    #: the saved games (the one writer of ``localStorage``)
    saves: Saves
    #: the features' own small state (editor texts, a challenge's computer run ...)
    ui_extra: dict[str, Any]
    #: the replay being viewed (a ``#r=`` link), if any
    replay: Replay | None
    #: a replay link being opened in time slices, if any
    replay_load: ReplayLoad | None
    #: the replay's play timer and its JavaScript callback
    replay_timer: Any
    replay_tick: Any
    #: a link that could not be opened: (what to tell the player, the detail)
    link_message: tuple[str, str] | None
    #: the last word of the share panel ("Link copied." ...)
    share_note: str
    #: a screen of a feature replacing the table's ("challenge-write"), or ""
    special: str

    def render(self) -> None:
        """Draw the screen again."""

    def save(self) -> None:
        """Save the current game."""

    def settle(self) -> None:
        """Do the work the last change calls for (never while drawing)."""


__all__ = ["AppContext"]
