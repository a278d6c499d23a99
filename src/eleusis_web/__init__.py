"""The browser face of Eleusis: the only package that imports ``js``/``pyodide``.

Modules, from the page's door inwards:

* :mod:`eleusis_web.main` — the entry point run by ``index.html``.
* :mod:`eleusis_web.boot` — start-up: ready flag, queued intents, error panel.
* :mod:`eleusis_web.app` — the app shell: DOM events become intents, one router
  hands each to its owner, then save, settle, draw, pace the computers.
* :mod:`eleusis_web.intents` — the intent vocabulary, checked once.
* :mod:`eleusis_web.controller` — the table's intents as engine actions.
* :mod:`eleusis_web.session` — the new-game choices and the saved session.
* :mod:`eleusis_web.features` — the share features' registry (replay viewer,
  links, notebook, daily, challenge, archive).
* :mod:`eleusis_web.viewmodel` — pure view models of each screen.
* :mod:`eleusis_web.render` — view models in, element trees out.
* :mod:`eleusis_web.vdom` — element trees patched into the page.
* :mod:`eleusis_web.storage` — the one writer of ``localStorage``.
* :mod:`eleusis_web.dom` — the one door to the browser (``js``, proxies), typed.

Keep boot-time imports light: the page is "ready" only after ``main`` runs,
so heavy engine modules (``eleusis.ai`` ...) are imported on demand.
"""
