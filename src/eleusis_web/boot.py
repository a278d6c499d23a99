"""Start-up of the page: the ready flag, queued intents and the error panel.

``index.html`` carries a tiny JavaScript bridge, ``window.eleusisBoot``, that
works before Python is ready: the new-game form calls
``eleusisBoot.dispatch(intent)``, which queues the intent until Python
installs a handler. :func:`start` installs that handler, replays the queue,
and sets ``<body data-ready="1">`` (tests and benchmarks wait on it).

Any exception in a handler wrapped by :func:`guarded` opens the friendly error
panel (``#error-panel``) with a Reload button, instead of a broken page.

An intent is a plain dict with a ``"type"`` key, e.g.
``{"type": "new-game", "variant": "new-eleusis"}``.
"""

from __future__ import annotations

import functools
import traceback
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from eleusis_web import dom

P = ParamSpec("P")
R = TypeVar("R")

#: An intent handler receives the intent as a Python dict.
IntentHandler = Callable[[dict[str, Any]], None]


def show_error(message: str | None = None, detail: str = "") -> None:
    """Open the friendly error panel; ``message`` replaces the default text."""
    dom.window.eleusisBoot.showError(message, detail)


def guarded(fn: Callable[P, R]) -> Callable[P, R | None]:
    """Wrap ``fn`` so that an exception opens the error panel instead of escaping.

    Use it on every event handler: an exception inside a JavaScript callback
    would otherwise only reach the console.
    """

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R | None:
        try:
            return fn(*args, **kwargs)
        except Exception:
            show_error(None, traceback.format_exc())
            return None

    return wrapper


def set_ready() -> None:
    """Mark the page as booted: ``<body data-ready="1">``; hide the indicator."""
    dom.document.body.setAttribute("data-ready", "1")


def start(handler: IntentHandler) -> None:
    """Install ``handler`` for intents, replay those queued, and set ready.

    The handler is wrapped by :func:`guarded`. Intents queued before Python was
    ready (a click on Start during boot) are handled in order, after the page
    is marked ready.
    """
    safe = guarded(handler)

    def on_intent(intent: Any) -> None:
        value = dom.to_py(intent)
        if isinstance(value, dict):
            safe(value)
        else:
            show_error(None, f"unexpected intent: {value!r}")

    bridge = dom.window.eleusisBoot
    bridge.handler = dom.js_function(on_intent)
    set_ready()
    queued = [dom.to_py(item) for item in bridge.queue]
    bridge.queue = dom.window.Array.new()
    for intent in queued:
        on_intent(intent)


def diagnose() -> dict[str, Any]:
    """Import every module shipped in the page; report what failed.

    Returns ``{"modules": [...], "failures": {module: error}, "bytecode":
    {...}}`` (the last from :func:`bytecode_report`). Used by the
    browser tests (``window.eleusisBoot.diagnose()``) to prove that every
    module of ``src/`` reached the browser and imports under Pyodide. It
    imports heavy modules too, so it is never called during a normal boot.
    """
    import importlib
    import pkgutil

    modules: list[str] = []
    failures: dict[str, str] = {}
    for package_name in ("eleusis", "eleusis_web"):
        try:
            package = importlib.import_module(package_name)
        except Exception as exc:
            failures[package_name] = f"{type(exc).__name__}: {exc}"
            continue
        modules.append(package_name)
        for info in pkgutil.walk_packages(package.__path__, package_name + "."):
            modules.append(info.name)
            try:
                importlib.import_module(info.name)
            except Exception as exc:
                failures[info.name] = f"{type(exc).__name__}: {exc}"
    return {"modules": sorted(modules), "failures": failures, "bytecode": bytecode_report()}


def runtime_report() -> dict[str, Any]:
    """How the interpreter started and the state a snapshot would freeze.

    ``snapshot`` (restored from the memory snapshot and renewed, see
    :mod:`eleusis_web.snapshot`), one ``random`` draw (differs from page to
    page only if the seed was renewed), the ``time`` zone attributes,
    ``LANG``, the runtime Emscripten reports and the program name. The
    browser tests compare them with the browser's own values and with a
    plain start's.
    """
    import os
    import random
    import sys
    import time

    from eleusis_web import snapshot

    info = getattr(sys, "_emscripten_info", None)
    return {
        "snapshot": snapshot.restored,
        "random": random.random(),
        "timezone": time.timezone,
        "altzone": time.altzone,
        "daylight": time.daylight,
        "tzname": list(time.tzname),
        "hour": time.localtime().tm_hour,
        "lang": os.environ.get("LANG", ""),
        "runtime": getattr(info, "runtime", ""),
        "compiled_stdlib": snapshot.compiled_since_restore(),
        "executable": sys.executable,
        "orig_argv": list(sys.orig_argv),
    }


def bytecode_report() -> dict[str, Any]:
    """Check the bytecode shipped for the boot (see ``tools/build.py``).

    Returns ``{"archive": path, "checked": n, "stale": [...]}``: the engine
    zip the packages were imported from, how many ``.pyc`` files it has, and
    every module that would be compiled at run time (correct, but a slower
    boot): a source shipped without its bytecode, or with bytecode of another
    text. The zip normally ships bytecode alone. Covers the zip's own modules
    and PyScript's ``pyscript`` package, which must be imported from the zip
    and be the bytecode of the very files PyScript wrote at boot.
    """
    import importlib.util
    import os
    import sys
    import zipfile

    stale: list[str] = []
    archive = getattr(getattr(sys.modules["eleusis_web"], "__loader__", None), "archive", "")
    if not archive:
        return {"archive": "", "checked": 0, "stale": ["eleusis_web: not imported from a zip"]}
    with zipfile.ZipFile(archive) as zipped:
        names = set(zipped.namelist())
        checked = sum(name.endswith(".pyc") for name in names)
        for name in sorted(n for n in names if n.endswith(".py")):
            pyc = name + "c"
            if pyc not in names or zipped.read(pyc)[8:16] != importlib.util.source_hash(
                zipped.read(name)
            ):
                stale.append(name)
        # PyScript's own package: imported from the zip, the bytecode of the
        # files PyScript wrote (into the working directory) at boot.
        pyscript = sys.modules.get("pyscript")
        loader = getattr(getattr(pyscript, "__spec__", None), "loader", None)
        if getattr(loader, "archive", "") != archive:
            stale.append("pyscript: not imported from the engine zip")
        written = os.path.abspath("pyscript")
        if not os.path.isdir(written):
            stale.append(f"pyscript: PyScript's files not found in {written}")
        for name in sorted(os.listdir(written) if os.path.isdir(written) else []):
            if name.endswith(".py"):
                with open(os.path.join(written, name), "rb") as source:
                    pyc = f"pyscript/{name}c"
                    if pyc not in names or zipped.read(pyc)[8:16] != importlib.util.source_hash(
                        source.read()
                    ):
                        stale.append(f"pyscript/{name}: differs from the file PyScript wrote")
    return {"archive": archive, "checked": checked, "stale": stale}


def install_diagnostics() -> None:
    """Expose :func:`diagnose` and :func:`runtime_report` as
    ``window.eleusisBoot.diagnose()`` and ``.runtime()`` (both return JSON).

    ``runtime()`` imports nothing of ours, so what it reports (the modules
    compiled since the restore) is what the page itself imported.
    """
    import json

    def run() -> str:
        return json.dumps(diagnose())

    def runtime() -> str:
        return json.dumps(runtime_report())

    dom.window.eleusisBoot.diagnose = dom.js_function(run)
    dom.window.eleusisBoot.runtime = dom.js_function(runtime)
