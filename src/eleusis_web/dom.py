"""The one door from Python to the browser page.

Everything that touches ``js`` or ``pyodide.ffi`` goes through here, so the rest
of ``eleusis_web`` stays easy to read and to type-check (``mypy --strict``
sees the browser objects as ``Any``; this module says so once).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

#: ``window`` and ``document`` of the page (JS proxies).
window: Any = js.window
document: Any = js.document

#: Proxies handed to JavaScript are kept here so they are never collected.
_kept: list[Any] = []


def element(element_id: str) -> Any:
    """Return the element with id ``element_id``; raise ``LookupError`` if absent."""
    node = document.getElementById(element_id)
    if node is None:
        raise LookupError(f"no element with id {element_id!r} in the page")
    return node


def js_function(fn: Callable[..., Any]) -> Any:
    """Return a persistent JavaScript function that calls ``fn``."""
    proxy = create_proxy(fn)
    _kept.append(proxy)
    return proxy


def to_py(value: Any) -> Any:
    """Convert a JS value (object, array) to Python (dict, list); others unchanged."""
    convert = getattr(value, "to_py", None)
    return convert() if callable(convert) else value
