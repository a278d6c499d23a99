"""Eleusis: the engine of Robert Abbott's card game of inductive reasoning.

Pure Python with no browser imports, so it runs the same under CPython and in
the browser under Pyodide. Sub-packages: :mod:`eleusis.cards` (cards),
:mod:`eleusis.rules` (the secret-rule language), the game engine, the
computer scientists (:mod:`eleusis.ai`) and replay encoding.
"""

__version__ = "0.1.0"
