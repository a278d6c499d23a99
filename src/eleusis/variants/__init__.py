"""The variants' rules of play, looked up by :class:`eleusis.game.Variant`.

Each variant is one :class:`~eleusis.variants.base.VariantRules` subclass in
its own module. Royal Eleusis is added by creating ``royal.py`` with a
``RoyalRules`` class; :func:`rules_for` finds it by name.
"""

from __future__ import annotations

import importlib

from eleusis.game import ConfigError, Variant
from eleusis.variants.base import VariantRules

_MODULES = {
    Variant.NEW_ELEUSIS: ("eleusis.variants.new_eleusis", "NewEleusisRules"),
    Variant.EXPRESS: ("eleusis.variants.express", "ExpressRules"),
    Variant.SOLO: ("eleusis.variants.solo", "SoloRules"),
    Variant.ROYAL: ("eleusis.variants.royal", "RoyalRules"),
}
_CACHE: dict[Variant, VariantRules] = {}


def rules_for(variant: Variant) -> VariantRules:
    """The (shared, stateless) rules object of a variant."""
    rules = _CACHE.get(variant)
    if rules is None:
        module, name = _MODULES[variant]
        try:
            cls = getattr(importlib.import_module(module), name)
        except (ImportError, AttributeError):
            raise ConfigError(f"{variant.value} is not implemented yet") from None
        rules = cls()
        assert isinstance(rules, VariantRules)
        _CACHE[variant] = rules
    return rules


__all__ = ["VariantRules", "rules_for"]
