"""Plain-text output of the command line: aligned columns, exact probabilities, a hand, standard output as a file."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from pathlib import Path

from twoplustwo.vocab.cards import format_cards
from twoplustwo.vocab.values import HandDescription

__all__ = ["aligned", "hand_fields", "hand_lines", "is_stdout", "probability", "stdout_fd"]


def aligned(rows: list[list[str]], right: set[int]) -> list[str]:
    """Align columns; columns listed in ``right`` are right-aligned (numbers)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


def probability(count: int, total: int) -> str:
    # Exact rational turned into a fixed 12-place decimal, so tiny
    # probabilities such as a straight flush still show 8-9 significant digits.
    if total == 0:
        return "-"
    q = Context(prec=60).divide(Decimal(count), Decimal(total))
    return f"{q.quantize(Decimal('1e-12'), rounding=ROUND_HALF_EVEN):f}"


def hand_fields(d: HandDescription, five: Sequence[int], game: str) -> dict[str, object]:
    """What ``eval --json`` says of a hand after its cards: value, category, code, words, best five, game, Kev rank."""
    return {
        "value": d.value,
        "category": None if d.category is None else str(d.category),
        "code": f"0x{d.code:06x}",
        "description": d.description,
        "best_five": format_cards(five).split(),  # in badugi, the cards it plays
        "game": game,
        "cactus_kev_rank": d.cactus_kev_rank,
    }


def hand_lines(d: HandDescription, five: Sequence[int]) -> list[tuple[str, str]]:
    """What ``eval`` prints of a hand, as (label, text) lines: value, category (where the game has them), code,
    description, best five (or the fewer cards a badugi plays)."""
    category = [] if d.category is None else [("category", str(d.category))]
    return [
        ("value", str(d.value)),
        *category,
        ("code", f"0x{d.code:06x}"),
        ("description", d.description),
        ("best five" if len(five) == 5 else "plays", format_cards(five)),
    ]


def is_stdout(path: Path | None) -> bool:
    return path is not None and str(path) == "-"


def stdout_fd() -> int:
    # The bytes go to the descriptor itself: anything printed before must be out first.
    sys.stdout.flush()
    return sys.stdout.fileno()
