"""Entry point of the page: ``index.html`` runs ``main()`` once Python is up.

Boot stays light on purpose. ``main`` installs the intent handler and sets
``<body data-ready="1">`` first; the table UI (:mod:`eleusis_web.app`, which
pulls in the engine and renders on import) is imported one tick later, or at
once if an intent needs it (a Start click queued during boot). Until then the
static new-game form of ``index.html`` stays usable. Heavier engine modules
(``eleusis.ai`` ...) load when a game needs them.

``performance`` marks ``eleusis:main``, ``eleusis:ready`` and
``eleusis:table`` (the table shown; see ``bench/boot.py``) show where boot
time goes.
"""

from __future__ import annotations

import traceback
from types import ModuleType
from typing import Any

from eleusis_web import boot, dom


def _table() -> ModuleType:
    """Import the table UI (installed on first import); return the module."""
    from eleusis_web import app  # heavy (the engine): imported one tick after boot

    return app


def _handle_intent(intent: dict[str, Any]) -> None:
    """Hand an intent of the boot bridge to the table UI."""
    _table().handle_intent(intent)


def _install_table() -> None:
    """Install the table UI (importing it renders it); mark ``eleusis:table``."""
    _table()
    dom.window.performance.mark("eleusis:table")


def main() -> None:
    """Wire intents to the table, mark the page ready, then install the table."""
    dom.window.performance.mark("eleusis:main")
    try:
        boot.install_diagnostics()
        boot.start(_handle_intent)
        dom.window.performance.mark("eleusis:ready")
        dom.window.setTimeout(dom.js_function(boot.guarded(_install_table)), 0)
    except Exception:
        boot.show_error(None, traceback.format_exc())
        raise
