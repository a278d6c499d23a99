"""What the card table shows. A placeholder until the real table UI lands.

It answers the ``new-game`` intent: ``#table`` gets ``data-game="active"``
and a short message says which variant started. The real UI replaces this
module's body; :func:`handle_intent` stays the entry point called by
:mod:`eleusis_web.main`.
"""

from __future__ import annotations

from typing import Any

from eleusis_web import dom

#: Variant ids offered by the new-game form, and their display names.
VARIANTS = {
    "new-eleusis": "New Eleusis",
    "express": "Eleusis Express",
    "royal": "Royal Eleusis",
    "solo": "Solo",
}


def start_game(variant: str) -> None:
    """Start a game of ``variant`` (an id of :data:`VARIANTS`)."""
    if variant not in VARIANTS:
        raise ValueError(f"unknown variant {variant!r}; expected one of {sorted(VARIANTS)}")
    table = dom.element("table")
    table.setAttribute("data-game", "active")
    table.setAttribute("data-variant", variant)
    dom.element("status").textContent = (
        f"{VARIANTS[variant]}: a new game has begun. The dealer has chosen a secret rule."
    )


def handle_intent(intent: dict[str, Any]) -> None:
    """Act on one intent from the page (see :mod:`eleusis_web.boot`)."""
    kind = intent.get("type")
    if kind == "new-game":
        start_game(str(intent.get("variant", "new-eleusis")))
    else:
        raise ValueError(f"unknown intent type {kind!r}")
