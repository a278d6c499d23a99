"""The one door from Python to the browser page.

Everything that touches ``js`` or ``pyodide.ffi`` goes through here, so the rest
of ``eleusis_web`` stays easy to read and to type-check (``mypy --strict``
sees the browser objects as ``Any``; this module says so once). The module
imports under CPython too (``window`` and ``document`` are then None), so the
rest of the face imports it at the top and stays testable without a browser.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from eleusis.i18n import _

try:  # in the page; under CPython (tests) the module imports, its browser calls do not run
    import js  # type: ignore[import-not-found]
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - CPython
    js = None
    create_proxy = None

#: ``window`` and ``document`` of the page (JS proxies; None outside a browser).
window: Any = getattr(js, "window", None)
document: Any = getattr(js, "document", None)

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


def nil(value: Any) -> bool:
    """Whether a browser value is null or undefined (Pyodide's ``JsNull`` included)."""
    return value is None or type(value).__name__ in ("JsNull", "JsUndefined")


def builder() -> Callable[[str], list[Any]] | None:
    """The page's ``eleusisBuild`` (``index.html``) as a Python function returning
    a list of nodes, or None outside the page or before that script ran.

    A screen part made in one browser call instead of one per element,
    attribute and text (see :func:`eleusis_web.vdom.create`).
    """
    build: Any = getattr(window, "eleusisBuild", None) if window is not None else None
    if nil(build):
        return None

    def made(text: str) -> list[Any]:
        return list(build(text).to_py(depth=1))

    return made


def base_url() -> str:
    """The page's address without its query or fragment.

    The query is left out on purpose: it may hold new-game presets that must
    never travel with a challenge or a replay. Without a page (CPython): "".
    """
    if window is None:
        return ""
    loc = window.location
    return f"{loc.origin}{loc.pathname}"


def clear_hash() -> None:
    """Remove the fragment from the address without reloading or adding history."""
    loc = window.location
    window.history.replaceState(None, "", f"{loc.pathname}{loc.search}")


def copy_text(text: str, field_id: str = "") -> None:
    """Copy ``text`` to the clipboard (and select the field showing it, for copying by hand)."""
    if field_id:
        el = document.getElementById(field_id)
        if not nil(el):
            with contextlib.suppress(Exception):
                el.focus()
                el.select()
    try:
        clip = window.navigator.clipboard
        if not nil(clip):
            promise = clip.writeText(text)
            promise.catch(js_function(lambda _e: None))
            return
    except Exception:
        pass
    with contextlib.suppress(Exception):
        document.execCommand("copy")


def share_or_copy(text: str, title: str, field_id: str) -> str:
    """Open the native share sheet where the browser has one, else copy; say which."""
    nav = window.navigator
    try:
        share = nav.share
        if not nil(share) and text.startswith("http"):
            data = window.Object.new()
            data.title = title
            data.url = text
            promise = nav.share(data)
            # dismissed sheet, or not allowed: copy instead
            promise.catch(js_function(lambda _e: copy_text(text, field_id)))
            return _("Shared.")
    except Exception:
        pass
    copy_text(text, field_id)
    return _("Link copied. It is also in the field above, to copy by hand.")
