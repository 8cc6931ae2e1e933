"""Exact poker hand evaluation by walking a memory-mapped seven-layer lookup DAG.

>>> evaluate("As Ks Qs Js Ts 2c 3d"), str(category_of(7462))
(7462, 'straight_flush')

Every function that reads tables takes a keyword-only ``tables=`` (default:
the set :func:`load_tables` finds, loaded once per process), and every
parallel one a keyword-only ``threads=`` (default: one per CPU).
"""

from __future__ import annotations

# Only numpy-backed modules here: importing the package must stay cheap and
# must never pull in the table builder.
from .backend import backend
from .cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
from .equity import PlayerEquity, equity, equity_table
from .evaluate import best_five, evaluate, evaluate_batch
from .format import FORMAT_VERSION, TableError
from .histograms import histogram
from .iterate import count_hands, iter_hands
from .pool import MAX_THREADS
from .prefix import Prefix, prefix
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
    "FORMAT_VERSION",
    "MAX_THREADS",
    "N_VALUES",
    "RANKS",
    "SUITS",
    "Category",
    "HandDescription",
    "PlayerEquity",
    "Prefix",
    "TableError",
    "Tables",
    "backend",
    "best_five",
    "categories",
    "category_of",
    "count_hands",
    "describe",
    "equity",
    "equity_table",
    "evaluate",
    "evaluate_batch",
    "format_card",
    "format_cards",
    "histogram",
    "iter_hands",
    "load_tables",
    "parse_card",
    "parse_cards",
    "prefix",
    "value_from_code",
]
__version__ = "0.1.0"
