"""Exact poker hand evaluation by walking a memory-mapped seven-layer lookup DAG.

>>> import twoplustwo as tp
>>> tp.evaluate("As Ks Qs Js Ts 2c 3d"), str(tp.category_of(7462))
(7462, 'straight_flush')

Every function that reads tables takes a keyword-only ``tables=`` (default:
the set :func:`load_tables` finds, loaded once per process), and every
parallel one a keyword-only ``threads=`` (default: one per CPU).

Names are imported from their modules on first use (PEP 562), so
``import twoplustwo`` costs almost nothing, and a first :func:`evaluate`
imports no numpy: numpy comes in with the first array API.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType

# typing itself costs milliseconds to import, which a fresh process's first
# evaluate() would pay: its names are for the type checker only.
TYPE_CHECKING = False

# Never import the table builder from here: the file format is the only link.
if TYPE_CHECKING:
    from typing import Any

    from .backend import backend
    from .cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
    from .equity import PlayerEquity, equity, equity_table
    from .evaluate import best_five, evaluate_batch
    from .format import FORMAT_VERSION, TableError
    from .games import GAMES
    from .handranks import export_handranks, handranks_value, value_from_handranks
    from .histograms import histogram
    from .iterate import count_hands, iter_hands
    from .omaha import (
        N_LOWS,
        describe_low,
        evaluate_omaha,
        evaluate_omaha_batch,
        evaluate_omaha_low,
        evaluate_omaha_low_batch,
    )
    from .pool import MAX_THREADS
    from .prefix import Prefix, prefix
    from .preflop import preflop_matchups, preflop_vs_random
    from .ranges import COMBOS, HAND_CLASSES, N_COMBOS, Range, class_combos, combo_index, combo_indices, parse_range
    from .rankings import rank_hands
    from .single import evaluate
    from .tables import Tables, load_tables
    from .values import (
        CATEGORIES,
        CATEGORY_FIRST,
        CATEGORY_LAST,
        CODES,
        N_VALUES,
        Category,
        HandDescription,
        categories,
        category_of,
        describe,
        value_from_code,
    )

__all__ = [
    "CATEGORIES",
    "CATEGORY_FIRST",
    "CATEGORY_LAST",
    "CODES",
    "COMBOS",
    "FORMAT_VERSION",
    "GAMES",
    "HAND_CLASSES",
    "MAX_THREADS",
    "N_COMBOS",
    "N_LOWS",
    "N_VALUES",
    "RANKS",
    "SUITS",
    "Category",
    "HandDescription",
    "PlayerEquity",
    "Prefix",
    "Range",
    "TableError",
    "Tables",
    "backend",
    "best_five",
    "categories",
    "category_of",
    "class_combos",
    "combo_index",
    "combo_indices",
    "count_hands",
    "describe",
    "describe_low",
    "equity",
    "equity_table",
    "evaluate",
    "evaluate_batch",
    "evaluate_omaha",
    "evaluate_omaha_batch",
    "evaluate_omaha_low",
    "evaluate_omaha_low_batch",
    "export_handranks",
    "format_card",
    "format_cards",
    "handranks_value",
    "histogram",
    "iter_hands",
    "load_tables",
    "parse_card",
    "parse_cards",
    "parse_range",
    "preflop_matchups",
    "preflop_vs_random",
    "prefix",
    "rank_hands",
    "value_from_code",
    "value_from_handranks",
]
__version__ = "0.1.0"

# Each public name and the module that defines it.
_HOME = {
    "backend": "backend",
    "RANKS": "cards",
    "SUITS": "cards",
    "format_card": "cards",
    "format_cards": "cards",
    "parse_card": "cards",
    "parse_cards": "cards",
    "PlayerEquity": "equity",
    "equity": "equity",
    "equity_table": "equity",
    "best_five": "evaluate",
    "evaluate_batch": "evaluate",
    "FORMAT_VERSION": "format",
    "GAMES": "games",
    "TableError": "format",
    "export_handranks": "handranks",
    "handranks_value": "handranks",
    "value_from_handranks": "handranks",
    "histogram": "histograms",
    "count_hands": "iterate",
    "iter_hands": "iterate",
    "N_LOWS": "omaha",
    "describe_low": "omaha",
    "evaluate_omaha": "omaha",
    "evaluate_omaha_batch": "omaha",
    "evaluate_omaha_low": "omaha",
    "evaluate_omaha_low_batch": "omaha",
    "MAX_THREADS": "pool",
    "Prefix": "prefix",
    "prefix": "prefix",
    "rank_hands": "rankings",
    "COMBOS": "ranges",
    "HAND_CLASSES": "ranges",
    "N_COMBOS": "ranges",
    "Range": "ranges",
    "class_combos": "ranges",
    "combo_index": "ranges",
    "combo_indices": "ranges",
    "parse_range": "ranges",
    "preflop_matchups": "preflop",
    "preflop_vs_random": "preflop",
    "evaluate": "single",
    "Tables": "tables",
    "load_tables": "tables",
    "CATEGORIES": "values",
    "CATEGORY_FIRST": "values",
    "CATEGORY_LAST": "values",
    "CODES": "values",
    "Category": "values",
    "HandDescription": "values",
    "N_VALUES": "values",
    "categories": "values",
    "category_of": "values",
    "describe": "values",
    "value_from_code": "values",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{home}", __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


class _Package(ModuleType):
    def __setattr__(self, name: str, value: Any) -> None:
        # Importing a submodule binds it on the package under its own name,
        # and some share a name with the function they define (evaluate,
        # equity, prefix, backend): the function must stay the attribute.
        if name in _HOME and isinstance(value, ModuleType):
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
