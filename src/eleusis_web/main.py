"""Entry point of the page: ``index.html`` runs ``main()`` once Python is up.

Boot stays light on purpose: only the boot bridge and the table are imported
here; heavier engine modules load when a game needs them.
"""

from __future__ import annotations

import traceback

from eleusis_web import boot


def main() -> None:
    """Wire the table to the page's intents and mark the page ready."""
    try:
        from eleusis_web import table

        boot.install_diagnostics()
        boot.start(table.handle_intent)
    except Exception:
        boot.show_error(None, traceback.format_exc())
        raise
