"""Exact poker hand evaluation by walking a memory-mapped seven-layer lookup DAG."""

from __future__ import annotations

# Only numpy-backed modules here: importing the package must stay cheap and
# must never pull in the table builder.
from .cards import RANKS, SUITS, format_card, format_cards, parse_card, parse_cards
from .equity import PlayerEquity, equity
from .evaluate import evaluate, evaluate_batch
from .exhaustive import count_hands, histogram, iter_hands
from .format import FORMAT_VERSION, TableError
from .tables import Tables, load_tables
from .values import (
    CATEGORIES,
    CATEGORY_FIRST,
    CATEGORY_LAST,
    CODES,
    N_VALUES,
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
    "N_VALUES",
    "RANKS",
    "SUITS",
    "HandDescription",
    "PlayerEquity",
    "TableError",
    "Tables",
    "categories",
    "count_hands",
    "category_of",
    "describe",
    "equity",
    "evaluate",
    "evaluate_batch",
    "format_card",
    "format_cards",
    "histogram",
    "iter_hands",
    "load_tables",
    "parse_card",
    "parse_cards",
    "value_from_code",
]
__version__ = "0.1.0"
