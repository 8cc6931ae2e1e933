"""Every hand's equity against a range at once: what a solver asks on every node of a tree.

:func:`equity_vs_range` gives all 1,326 combos' exact equities against a
weighted villain range on a flop, turn or river. On each completion of the
board every combo is valued once and swept in order of value, villain
weights summed as it goes, card removal taken off per card (the walker's
``range_sweep``): a flop is 1,176 sweeps, not 1,326 x 1,326 showdowns.

>>> from twoplustwo import combo_index
>>> eq = equity_vs_range("Qh 7c 2d", "QQ+,AKs")
>>> round(float(eq[combo_index("Ah", "Kh")]), 4), round(float(eq[combo_index("7s", "7d")]), 4)
(0.2006, 0.7851)
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.games import walker_of
from twoplustwo.odds.exact import completions
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import check_disjoint, parse_cards
from twoplustwo.vocab.combos import COMBOS, N_COMBOS, combo_indices
from twoplustwo.vocab.ranges import Range, parse_range

__all__ = ["equity_vs_range"]


def equity_vs_range(
    board: str | Sequence[int | str],
    villain: str | Range,
    *,
    dead: str | Sequence[int | str] = (),
    tables: Tables | None = None,
) -> npt.NDArray[np.float64]:
    """Each combo's exact equity against the weighted ``villain`` range on a 3-, 4- or 5-card ``board``.

    Returns a ``(1326,)`` float64 array in :data:`~twoplustwo.COMBOS` order.
    Over every completion of the board by cards not on it and not ``dead``,
    a villain combo counts with its weight wherever it shares no card with
    the hero combo, the board or the dead cards; a tie counts half. The
    entry is NaN for a combo that touches the board or the dead cards, or
    that no villain combo can face. ``villain`` is range text (as
    :func:`~twoplustwo.parse_range` reads it) or a :class:`~twoplustwo.Range`;
    a range of no weight, or none left beside the board and the dead cards,
    is a ``ValueError``, as in :func:`~twoplustwo.equity`.

    Each hero combo's entry equals :func:`~twoplustwo.equity` of that hand
    against the range, exactly enumerated.

    >>> from twoplustwo import combo_index
    >>> eq = equity_vs_range("Ah Kd 7c 2s 2h", "AA,KK")
    >>> int(np.isnan(eq).sum()), float(eq[combo_index("2c", "2d")])  # 5 board cards leave 1,081 combos; quads win
    (245, 1.0)
    """
    known, out = parse_cards(board), parse_cards(dead)
    if len(known) not in (3, 4, 5):
        raise ValueError(f"board must hold 3, 4 or 5 cards, got {len(known)}")
    check_disjoint([("the board", known), ("the dead cards", out)])
    if isinstance(villain, str):
        weights = _text_weights(villain).copy()
    elif isinstance(villain, Range):
        weights = _weights(villain)
    else:
        raise TypeError(f"villain must be range text or a Range, got {type(villain).__name__}")
    # As equity() says it: with no villain weight there is nothing to be ahead of, and every entry would be NaN.
    if not weights.any():
        raise ValueError("villain: the range is empty")
    gone = np.zeros(52, dtype=bool)
    gone[known + out] = True
    touching = gone[COMBOS[:, 0]] | gone[COMBOS[:, 1]]
    weights[touching] = 0.0
    if not weights.any():
        name = villain if isinstance(villain, str) else str(villain)
        raise ValueError(f"villain: no combo of {name} is left beside the board and the dead cards")
    runouts = completions(known, out)
    sums = np.zeros((N_COMBOS, 3))
    walker_of(get_tables(tables)).range_sweep(runouts, weights, sums)
    with np.errstate(invalid="ignore", divide="ignore"):
        equity: npt.NDArray[np.float64] = (sums[:, 0] + sums[:, 1] / 2) / sums[:, 2]
    equity[touching | (sums[:, 2] == 0)] = np.nan
    return equity


def _weights(villain: Range) -> npt.NDArray[np.float64]:
    """The range's weight of each combo, in COMBOS order (0 outside it)."""
    weights = np.zeros(N_COMBOS)
    weights[combo_indices(villain.combos[:, 0], villain.combos[:, 1])] = villain.weights
    return weights


@functools.lru_cache(maxsize=256)
def _text_weights(text: str) -> npt.NDArray[np.float64]:
    """:func:`_weights` of range text, read once per text (read-only: copy before changing)."""
    weights = _weights(parse_range(text))
    weights.setflags(write=False)
    return weights
