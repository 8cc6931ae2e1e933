"""How a range hits one board: its weighted combos in each made-hand class and draw, and their equity.

:func:`board_report` classifies every combo of a range on a flop, turn or
river (:func:`~twoplustwo.classify`, by the classes
:data:`~twoplustwo.MADE_HANDS` and :data:`~twoplustwo.DRAWS` name) and
adds up their weights; with ``villain=`` it also gives each class's
average equity against that range, exact (:func:`~twoplustwo.equity_vs_range`).

>>> r = board_report("QQ+,AK,T9s", "Qh 7c 2d")
>>> r.combos, r.made["set"], r.made["overpair"], r.made["ace high"]
(35.0, 3.0, 12.0, 16.0)
>>> round(r.share("overpair"), 4), r.draws["backdoor flush draw"]
(0.3429, 6.0)
>>> print(r)
QQ+,AK,T9s on Qh 7c 2d: 35 combos
made hand                   combos    share
set                              3    8.57%
overpair                        12   34.29%
ace high                        16   45.71%
nothing                          4   11.43%
draw                        combos    share
backdoor flush draw              6   17.14%
overcards                       16   45.71%
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.classify import BOARD_SIZES, NO_CLASS, classify_combos
from twoplustwo.odds.range_equity import equity_vs_range
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.board_classes import DRAWS, MADE_HANDS, N_MADE_HANDS
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_cards
from twoplustwo.vocab.combos import COMBOS
from twoplustwo.vocab.ranges import Range, parse_range

__all__ = ["BoardReport", "board_report", "class_sums", "class_table", "range_weights"]

_F64 = npt.NDArray[np.float64]
_N_CLASSES = N_MADE_HANDS + len(DRAWS)


def range_weights(hero: str | Range, what: str = "range") -> tuple[str, npt.NDArray[np.float64]]:
    """The range's notation and the weight of each row of :data:`~twoplustwo.COMBOS` (0 outside it)."""
    if isinstance(hero, str):
        r = parse_range(hero)
    elif isinstance(hero, Range):
        r = hero
    else:
        raise TypeError(f"{what} must be range text or a Range, got {type(hero).__name__}")
    if not len(r):
        raise ValueError(f"{what}: the range is empty")
    return str(r), r.dense


def class_sums(made: npt.NDArray[np.uint8], draws: npt.NDArray[np.uint8], weights: _F64) -> _F64:
    """``(n, 17 + 7 + 1)``: the weight in each made class, in each draw and in all, of each row of combos.

    ``made`` and ``draws`` are :func:`~twoplustwo.hands.classify.classify_combos`' codes and bits of ``(n, m)``
    combos, ``weights`` theirs; a combo of code ``NO_CLASS`` weighs nothing.
    """
    n = len(made)
    w = np.where(made == NO_CLASS, 0.0, weights)
    code = np.where(made == NO_CLASS, 0, made).astype(np.intp)
    flat = (np.arange(n)[:, None] * (_N_CLASSES + 1) + code).ravel()
    out: _F64 = np.bincount(flat, weights=w.ravel(), minlength=n * (_N_CLASSES + 1)).reshape(n, -1).astype(np.float64)
    bits = (draws[..., None] >> np.arange(len(DRAWS), dtype=np.uint8)) & 1
    out[:, N_MADE_HANDS:_N_CLASSES] = np.einsum("ij,ijk->ik", w, bits.astype(np.float64))
    out[:, -1] = w.sum(axis=1)
    return out


@dataclass(frozen=True)
class BoardReport:
    """What :func:`board_report` finds: a range's weighted combos in each class on one board.

    ``made`` maps every name of :data:`~twoplustwo.MADE_HANDS` and ``draws``
    every name of :data:`~twoplustwo.DRAWS` to the range's weighted combos
    (0 where none falls), out of ``combos``, the weight of the combos left
    beside the board and the dead cards. With a villain, ``made_equity`` and
    ``draw_equity`` give each class's average equity (weighted by the
    combos' weights; NaN for a class no combo falls in) and ``equity`` the
    whole range's; else they are None. ``combo_made`` and ``combo_draws``
    are each combo's class code and draw bits in :data:`~twoplustwo.COMBOS`
    order (:data:`~twoplustwo.hands.classify.NO_CLASS` and 0 off the board),
    ``weights`` its weight (0 outside the range or off the board).
    """

    range: str
    board: tuple[int, ...]
    dead: tuple[int, ...]
    combos: float
    made: dict[str, float]
    draws: dict[str, float]
    combo_made: npt.NDArray[np.uint8] = field(repr=False)
    combo_draws: npt.NDArray[np.uint8] = field(repr=False)
    weights: npt.NDArray[np.float64] = field(repr=False)
    made_equity: dict[str, float] | None = None
    draw_equity: dict[str, float] | None = None
    equity: float | None = None

    def share(self, name: str) -> float:
        """The share of the range's combos (by weight) in the made-hand class or draw ``name``."""
        if name in self.made:
            return self.made[name] / self.combos
        if name in self.draws:
            return self.draws[name] / self.combos
        raise ValueError(f"{name!r} is neither a made-hand class nor a draw (see MADE_HANDS and DRAWS)")

    def _repr_html_(self) -> str:
        """The 13 x 13 grid coloured by made-hand class, and the class bars: a notebook's view."""
        from twoplustwo.odds.board_charts import board_html

        return board_html(self)

    def __str__(self) -> str:
        head = f"{self.range} on {format_cards(list(self.board))}"
        if self.dead:
            head += f" (dead {format_cards(list(self.dead))})"
        head += f": {_number(self.combos)} combos"
        if self.equity is not None:
            head += f", equity {100 * self.equity:.2f}%"
        return "\n".join(
            [head, *class_table(self.made, self.combos, self.made_equity, "made hand")]
            + (class_table(self.draws, self.combos, self.draw_equity, "draw") if any(self.draws.values()) else [])
        )


def class_table(
    counts: dict[str, float], total: float, equity: dict[str, float] | None, title: str, *, combos: bool = True
) -> list[str]:
    """The lines of a table of classes: name, weighted combos (if ``combos``), share, equity; empty classes left out."""
    head = f"{title:<25}" + (f"{'combos':>9}" if combos else "") + f"{'share':>9}"
    lines = [head + (f"{'equity':>9}" if equity is not None else "")]
    for name, n in counts.items():
        if n > 0:
            line = f"{name:<25}" + (f"{_number(n):>9}" if combos else "") + f"{100 * n / total:>8.2f}%"
            if equity is not None:
                line += f"{100 * equity[name]:>8.2f}%"
            lines.append(line)
    return lines


def _number(x: float) -> str:
    return f"{x:,.0f}" if x == int(x) else f"{x:,.2f}"


def board_report(
    range: str | Range,  # noqa: A002 - the issue's name for it
    board: str | Sequence[int | str],
    *,
    dead: str | Sequence[int | str] = (),
    villain: str | Range | None = None,
    tables: Tables | None = None,
) -> BoardReport:
    """The range's weighted combos in each made-hand class and draw on a 3-, 4- or 5-card ``board``.

    ``range`` and ``villain`` are range text (as :func:`~twoplustwo.parse_range`
    reads it) or :class:`~twoplustwo.Range` objects. Combos touching the
    board or the ``dead`` cards are left out. With ``villain``, each class's
    average equity against it, exact. Raises ``ValueError`` for a bad board,
    a card twice, an empty range or one with no combo left.

    >>> r = board_report("AA,KK", "Ah 7c 2d", villain="QQ")
    >>> r.made["set"], r.made["pocket pair"], round(r.made_equity["set"], 4), round(r.equity, 4)  # KK: below the ace
    (3.0, 6.0, 0.999, 0.9438)
    >>> board_report("AA", "Ah Ad 2c", dead="As")
    Traceback (most recent call last):
    ...
    ValueError: range: no combo of AA is left beside the board and the dead cards
    """
    known, out = parse_cards(board), parse_cards(dead)
    if len(known) not in BOARD_SIZES:
        raise ValueError(f"board must hold 3, 4 or 5 cards, got {len(known)}")
    check_disjoint([("the board", known), ("the dead cards", out)])
    name, dense = range_weights(range)
    made, draws = classify_combos(np.array([known], dtype=np.uint8))
    made, draws = made[0], draws[0]
    gone = np.zeros(52, dtype=bool)
    gone[out] = True
    live = (made != NO_CLASS) & ~(gone[COMBOS[:, 0]] | gone[COMBOS[:, 1]])
    weights = np.where(live, dense, 0.0)
    total = float(weights.sum())
    if total == 0:
        raise ValueError(f"range: no combo of {name} is left beside the board and the dead cards")
    made[~live], draws[~live] = NO_CLASS, 0
    sums = class_sums(made[None], draws[None], weights[None])[0]
    made_w, draw_w = sums[:N_MADE_HANDS], sums[N_MADE_HANDS:_N_CLASSES]
    report = BoardReport(
        range=name,
        board=tuple(known),
        dead=tuple(out),
        combos=total,
        made=dict(zip(MADE_HANDS, made_w.tolist(), strict=True)),
        draws=dict(zip(DRAWS, draw_w.tolist(), strict=True)),
        combo_made=made,
        combo_draws=draws,
        weights=weights,
    )
    if villain is None:
        return report
    eq = equity_vs_range(known, villain, dead=out, tables=tables)
    faced = ~np.isnan(eq)
    w = np.where(faced, weights, 0.0)
    faced_sums = class_sums(made[None], draws[None], w[None])[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        ratio = class_sums(made[None], draws[None], (np.where(faced, eq, 0.0) * w)[None])[0] / faced_sums
    return replace(
        report,
        made_equity=dict(zip(MADE_HANDS, ratio[:N_MADE_HANDS].tolist(), strict=True)),
        draw_equity=dict(zip(DRAWS, ratio[N_MADE_HANDS:_N_CLASSES].tolist(), strict=True)),
        equity=float(ratio[-1]),
    )
