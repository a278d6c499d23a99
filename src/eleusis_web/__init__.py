"""The browser face of Eleusis: the only package that imports ``js``/``pyodide``.

Modules:

* :mod:`eleusis_web.dom` — the one door to the browser (``js``, proxies), typed.
* :mod:`eleusis_web.boot` — start-up: ready flag, queued intents, error panel.
* :mod:`eleusis_web.table` — what the table shows (a placeholder for now).
* :mod:`eleusis_web.main` — the entry point run by ``index.html``.

Keep boot-time imports light: the page is "ready" only after ``main`` runs,
so heavy engine modules (``eleusis.ai`` ...) are imported on demand.
"""
