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

# typing itself costs milliseconds to import, which a fresh process's first
# evaluate() would pay: its names are for the type checker only.
TYPE_CHECKING = False

# Never import the table builder from here: the file format is the only link.
if TYPE_CHECKING:
    from typing import Any

    from twoplustwo.abstraction.buckets import bucket_of, buckets
    from twoplustwo.abstraction.kmeans import Clustering, kmeans
    from twoplustwo.hands.batch import best_five, evaluate_batch
    from twoplustwo.hands.classify import BoardClass, classify, classify_batch
    from twoplustwo.hands.handranks import export_handranks, handranks_value, value_from_handranks
    from twoplustwo.hands.indexer import HandIndexer
    from twoplustwo.hands.iterate import count_hands, iter_hands
    from twoplustwo.hands.omaha import (
        N_LOWS,
        describe_low,
        evaluate_omaha,
        evaluate_omaha_batch,
        evaluate_omaha_low,
        evaluate_omaha_low_batch,
    )
    from twoplustwo.hands.prefixes import Prefix, prefix
    from twoplustwo.hands.rankings import rank_hands
    from twoplustwo.hands.single import evaluate
    from twoplustwo.hands.stud_low import evaluate_low, evaluate_low_batch
    from twoplustwo.hands.value_counts import histogram
    from twoplustwo.kernels.choice import backend
    from twoplustwo.kernels.pool import MAX_THREADS
    from twoplustwo.odds.board_report import BoardReport, board_report
    from twoplustwo.odds.equity import PlayerEquity, equity, equity_table
    from twoplustwo.odds.flop_report import FlopReport, flop_report
    from twoplustwo.odds.preflop import preflop_matchups, preflop_vs_random
    from twoplustwo.odds.range_equity import equity_vs_range
    from twoplustwo.odds.strength import Strength, StrengthArrays, strength, strength_batch
    from twoplustwo.tables.default import load_tables
    from twoplustwo.tables.format import FORMAT_VERSION, TableError
    from twoplustwo.tables.load import Tables
    from twoplustwo.vocab.board_classes import DRAWS, MADE_HANDS
    from twoplustwo.vocab.cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
    from twoplustwo.vocab.combos import COMBOS, HAND_CLASSES, N_COMBOS, combo_index, combo_indices
    from twoplustwo.vocab.range_notation import class_combos
    from twoplustwo.vocab.ranges import Range, parse_range
    from twoplustwo.vocab.rules import GAMES
    from twoplustwo.vocab.values import (
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
    "DRAWS",
    "FORMAT_VERSION",
    "FlopReport",
    "GAMES",
    "HAND_CLASSES",
    "MADE_HANDS",
    "MAX_THREADS",
    "N_COMBOS",
    "N_LOWS",
    "N_VALUES",
    "RANKS",
    "SUITS",
    "BoardClass",
    "BoardReport",
    "Category",
    "Clustering",
    "HandDescription",
    "HandIndexer",
    "PlayerEquity",
    "Prefix",
    "Range",
    "Strength",
    "StrengthArrays",
    "TableError",
    "Tables",
    "backend",
    "best_five",
    "board_report",
    "bucket_of",
    "buckets",
    "categories",
    "category_of",
    "class_combos",
    "classify",
    "classify_batch",
    "combo_index",
    "combo_indices",
    "count_hands",
    "describe",
    "describe_low",
    "equity",
    "equity_table",
    "equity_vs_range",
    "evaluate",
    "evaluate_batch",
    "evaluate_low",
    "evaluate_low_batch",
    "evaluate_omaha",
    "evaluate_omaha_batch",
    "evaluate_omaha_low",
    "evaluate_omaha_low_batch",
    "export_handranks",
    "flop_report",
    "format_card",
    "format_cards",
    "handranks_value",
    "histogram",
    "iter_hands",
    "kmeans",
    "load_tables",
    "parse_card",
    "parse_cards",
    "parse_range",
    "preflop_matchups",
    "preflop_vs_random",
    "prefix",
    "rank_hands",
    "strength",
    "strength_batch",
    "value_from_code",
    "value_from_handranks",
]
__version__ = "0.1.0"

# Each public name and the module that defines it.
_HOME = {
    "backend": "kernels.choice",
    "RANKS": "vocab.cards",
    "SUITS": "vocab.cards",
    "format_card": "vocab.cards",
    "format_cards": "vocab.cards",
    "parse_card": "vocab.cards",
    "parse_cards": "vocab.cards",
    "PlayerEquity": "odds.equity",
    "equity": "odds.equity",
    "equity_table": "odds.equity",
    "equity_vs_range": "odds.range_equity",
    "BoardReport": "odds.board_report",
    "board_report": "odds.board_report",
    "FlopReport": "odds.flop_report",
    "flop_report": "odds.flop_report",
    "bucket_of": "abstraction.buckets",
    "buckets": "abstraction.buckets",
    "Clustering": "abstraction.kmeans",
    "kmeans": "abstraction.kmeans",
    "best_five": "hands.batch",
    "evaluate_batch": "hands.batch",
    "BoardClass": "hands.classify",
    "classify": "hands.classify",
    "classify_batch": "hands.classify",
    "DRAWS": "vocab.board_classes",
    "MADE_HANDS": "vocab.board_classes",
    "FORMAT_VERSION": "tables.format",
    "GAMES": "vocab.rules",
    "TableError": "tables.format",
    "export_handranks": "hands.handranks",
    "handranks_value": "hands.handranks",
    "value_from_handranks": "hands.handranks",
    "histogram": "hands.value_counts",
    "HandIndexer": "hands.indexer",
    "count_hands": "hands.iterate",
    "iter_hands": "hands.iterate",
    "N_LOWS": "hands.omaha",
    "describe_low": "hands.omaha",
    "evaluate_omaha": "hands.omaha",
    "evaluate_omaha_batch": "hands.omaha",
    "evaluate_omaha_low": "hands.omaha",
    "evaluate_omaha_low_batch": "hands.omaha",
    "evaluate_low": "hands.stud_low",
    "evaluate_low_batch": "hands.stud_low",
    "MAX_THREADS": "kernels.pool",
    "Prefix": "hands.prefixes",
    "prefix": "hands.prefixes",
    "rank_hands": "hands.rankings",
    "COMBOS": "vocab.combos",
    "HAND_CLASSES": "vocab.combos",
    "N_COMBOS": "vocab.combos",
    "Range": "vocab.ranges",
    "class_combos": "vocab.range_notation",
    "combo_index": "vocab.combos",
    "combo_indices": "vocab.combos",
    "parse_range": "vocab.ranges",
    "preflop_matchups": "odds.preflop",
    "preflop_vs_random": "odds.preflop",
    "Strength": "odds.strength",
    "StrengthArrays": "odds.strength",
    "strength": "odds.strength",
    "strength_batch": "odds.strength",
    "evaluate": "hands.single",
    "Tables": "tables.load",
    "load_tables": "tables.default",
    "CATEGORIES": "vocab.values",
    "CATEGORY_FIRST": "vocab.values",
    "CATEGORY_LAST": "vocab.values",
    "CODES": "vocab.values",
    "Category": "vocab.values",
    "HandDescription": "vocab.values",
    "N_VALUES": "vocab.values",
    "categories": "vocab.values",
    "category_of": "vocab.values",
    "describe": "vocab.values",
    "value_from_code": "vocab.values",
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
