"""How a range hits every flop: its made-hand classes and draws over all 1,755 suit-isomorphic flops at once.

:func:`flop_report` is :func:`~twoplustwo.board_report` over every flop:
one row per canonical flop (:func:`~twoplustwo.vocab.suits.canonical_flops`),
each weighted by how many of the 22,100 flops it stands for, and the totals
over all of them: how often the range flops each class and draw.

>>> r = flop_report("QQ+,AK,T9s")
>>> round(r.made_share["set"], 4), round(r.draw_share["flush draw"], 4)
(0.051, 0.0408)
>>> rows = r.table()  # a DataFrame takes it as it is: pandas.DataFrame(rows)
>>> rows["flop"][1], int(rows["weight"][1]), round(float(rows["set"][1]), 4)
('3c 2d 2c', 12, 0.0)

A filter, with :meth:`FlopReport.share`: the flops on which the range has
a set or better 20% of the time.

>>> better = sum(r.share(name) for name in MADE_HANDS[:MADE_HANDS.index("set") + 1])
>>> flops = r.flops[better >= 0.2]
>>> len(flops), int(r.weights[better >= 0.2].sum()), format_cards(flops[1][::-1].tolist())
(182, 2212, 'Kc Qc 2c')

A row is what the range holds on that flop, averaged over the flops it
stands for; a range the renamings of suits keep (any range of whole
classes, such as ``"QQ+,AK"``) holds exactly that on each of them. The
totals add every one of the 22,100 flops, whatever the range.
"""

from __future__ import annotations

import csv
import functools
import io
import threading
from collections.abc import Callable
from concurrent.futures import Future, as_completed
from dataclasses import dataclass, field, replace

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.classify import classify_combos
from twoplustwo.kernels import pool
from twoplustwo.odds.board_report import class_sums, class_table, range_weights
from twoplustwo.odds.range_equity import equity_vs_range
from twoplustwo.progress import progress
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.board_classes import DRAWS, MADE_HANDS, N_MADE_HANDS
from twoplustwo.vocab.cards import format_cards
from twoplustwo.vocab.ranges import Range
from twoplustwo.vocab.suits import PERM_CARDS, canonical_flops, combo_renamings

__all__ = ["FlopReport", "flop_report"]

F64 = npt.NDArray[np.float64]
_N_CLASSES = N_MADE_HANDS + len(DRAWS)


@dataclass(frozen=True)
class FlopReport:
    """What :func:`flop_report` finds: a range's classes on each of the 1,755 canonical flops, and over all flops.

    Per flop (one row each, in the order of ``flops``): ``weights``, how many
    of the 22,100 flops it stands for; ``combos``, the range's weighted
    combos left beside it; ``made`` ``(1755, 17)`` and ``draws`` ``(1755, 7)``,
    the weighted combos in each class of :data:`~twoplustwo.MADE_HANDS` and
    :data:`~twoplustwo.DRAWS`, in their order. With a villain,
    ``made_equity`` and ``draw_equity``, each class's average equity
    against it there (NaN where no combo falls), and ``equity`` the range's.
    Over all flops: ``made_share`` and ``draw_share``, how often the range
    holds each class (its weighted combos over all 22,100 flops, over all
    its weighted combos there), and with a villain ``class_equity``, each
    class's average equity over all flops.
    """

    range: str
    villain: str | None
    flops: npt.NDArray[np.uint8] = field(repr=False)
    weights: npt.NDArray[np.int64] = field(repr=False)
    combos: F64 = field(repr=False)
    made: F64 = field(repr=False)
    draws: F64 = field(repr=False)
    made_share: dict[str, float]
    draw_share: dict[str, float]
    made_equity: F64 | None = field(default=None, repr=False)
    draw_equity: F64 | None = field(default=None, repr=False)
    equity: F64 | None = field(default=None, repr=False)
    class_equity: dict[str, float] | None = None

    def share(self, name: str) -> F64:
        """The share of the range's combos in the class or draw ``name`` on each flop, ``(1755,)``.

        NaN where no combo of the range is left beside the flop; the module's
        examples filter flops with it.
        """
        if name in MADE_HANDS:
            counts = self.made[:, MADE_HANDS.index(name)]
        elif name in DRAWS:
            counts = self.draws[:, DRAWS.index(name)]
        else:
            raise ValueError(f"{name!r} is neither a made-hand class nor a draw (see MADE_HANDS and DRAWS)")
        with np.errstate(invalid="ignore", divide="ignore"):
            out: F64 = counts / self.combos
        return out

    def table(self) -> dict[str, list[str] | npt.NDArray[np.generic]]:
        """The per-flop table as columns, one row per flop: what ``pandas.DataFrame`` takes as it is.

        Columns: ``flop`` (its cards' names), ``weight``, ``combos``, then
        each made-hand class's and each draw's share of the combos, and with
        a villain ``equity`` and each class's equity as ``<name> equity``.
        """
        columns: dict[str, list[str] | npt.NDArray[np.generic]] = {
            "flop": [format_cards(f[::-1]) for f in self.flops.tolist()],
            "weight": self.weights,
            "combos": self.combos,
        }
        for name in (*MADE_HANDS, *DRAWS):
            columns[name] = self.share(name)
        if self.equity is not None and self.made_equity is not None and self.draw_equity is not None:
            columns["equity"] = self.equity
            for i, name in enumerate(MADE_HANDS):
                columns[f"{name} equity"] = self.made_equity[:, i]
            for i, name in enumerate(DRAWS):
                columns[f"{name} equity"] = self.draw_equity[:, i]
        return columns

    def csv_bytes(self) -> bytes:
        """:meth:`table` as CSV: a header, then one row per flop; numbers as the shortest decimals that read back."""
        columns = self.table()
        text = io.StringIO(newline="")
        out = csv.writer(text, lineterminator="\n")
        out.writerow(list(columns))
        values = [c if isinstance(c, list) else c.tolist() for c in columns.values()]
        for row in zip(*values, strict=True):
            out.writerow([x if isinstance(x, str | int) else repr(x) for x in row])
        return text.getvalue().encode()

    def __str__(self) -> str:
        head = f"{self.range} on all 22,100 flops (1,755 up to suits)"
        if self.villain is not None:
            head += f" against {self.villain}"
        eq = self.class_equity
        return "\n".join(
            [
                head,
                *class_table(self.made_share, 1.0, eq, "made hand", combos=False),
                *class_table(self.draw_share, 1.0, eq, "draw", combos=False),
            ]
        )


def flop_report(
    range: str | Range,  # noqa: A002 - the issue's name for it
    *,
    villain: str | Range | None = None,
    tables: Tables | None = None,
    threads: int | None = None,
    quiet: bool = False,
) -> FlopReport:
    """:func:`~twoplustwo.board_report` of ``range`` on all 1,755 canonical flops, and over all 22,100 flops.

    With ``villain``, each class's exact average equity against it on every
    flop (1,755 runs of :func:`~twoplustwo.equity_vs_range` for a villain
    range the renamings of suits keep, else one per flop, 22,100), split
    over ``threads`` threads, with a progress bar unless ``quiet``.

    Without a villain it takes a fraction of a second; with one, about a
    minute on 2 threads (the README's figures). The module's examples show
    the report.
    """
    name, dense = range_weights(range)
    villain_name, villain_dense = range_weights(villain, "villain") if villain is not None else (None, None)
    flops, weights = canonical_flops()
    # A flop's row is the average over the flops it stands for, which is
    # the flop's own report for the range averaged over the renamings.
    even = dense[combo_renamings((), ())].mean(axis=0)
    made_codes, draw_bits = classify_combos(flops)
    counts = class_sums(made_codes, draw_bits, np.broadcast_to(even, made_codes.shape))
    combos = counts[:, -1]
    made, draws = counts[:, :N_MADE_HANDS], counts[:, N_MADE_HANDS:-1]
    every = weights @ counts
    shares = every[:-1] / every[-1]
    report = FlopReport(
        range=name,
        villain=None,
        flops=flops,
        weights=weights,
        combos=combos,
        made=made,
        draws=draws,
        made_share=dict(zip(MADE_HANDS, shares[:N_MADE_HANDS].tolist(), strict=True)),
        draw_share=dict(zip(DRAWS, shares[N_MADE_HANDS:].tolist(), strict=True)),
    )
    if villain_dense is None:
        return report
    villain_range = Range(villain_dense)
    symmetric = bool(np.array_equal(villain_dense[combo_renamings((), ())], np.broadcast_to(villain_dense, (24, 1326))))
    sums = _equity_over_flops(flops, even if symmetric else dense, villain_range, symmetric, tables, threads, quiet)
    e, w = sums[:, 0], sums[:, 1]
    with np.errstate(invalid="ignore", divide="ignore"):
        per_flop = e / w
        overall = (weights @ e) / (weights @ w)
    return replace(
        report,
        villain=villain_name,
        made_equity=per_flop[:, :N_MADE_HANDS],
        draw_equity=per_flop[:, N_MADE_HANDS:-1],
        equity=per_flop[:, -1],
        class_equity=dict(zip((*MADE_HANDS, *DRAWS), overall[:-1].tolist(), strict=True)),
    )


def _equity_over_flops(
    flops: npt.NDArray[np.uint8],
    hero: F64,
    villain: Range,
    symmetric: bool,
    tables: Tables | None,
    threads: int | None,
    quiet: bool,
) -> npt.NDArray[np.float64]:
    """``(1755, 2, 25)``: per flop, the equity times weight and the weight of each class (and all) facing villain.

    Over the flop alone when the villain range is kept by the renamings of
    suits (the hero's weights are then the renamings' average); else
    over every flop it stands for, averaged.
    """
    workers = pool.resolve_threads(threads)
    stop = threading.Event()
    out = np.zeros((len(flops), 2, _N_CLASSES + 1))

    def one(i: int) -> None:
        members = np.unique(np.sort(PERM_CARDS[:, flops[i]], axis=1), axis=0) if not symmetric else flops[i : i + 1]
        made, draws = classify_combos(members)
        for k, board in enumerate(members):
            if stop.is_set():
                return
            eq = equity_vs_range(board.tolist(), villain, tables=tables)
            faced = ~np.isnan(eq)
            w = np.where(faced, hero, 0.0)
            rows = (made[k : k + 1], draws[k : k + 1])
            out[i, 0] += class_sums(*rows, (w * np.where(faced, eq, 0.0))[None, :])[0]
            out[i, 1] += class_sums(*rows, w[None, :])[0]
        out[i] /= len(members)

    tasks: list[Callable[[], None]] = [functools.partial(one, i) for i in range(len(flops))]
    with progress(len(flops), "flops", quiet=quiet) as bar:
        if workers == 1:
            for task in tasks:
                task()
                bar(1)
        else:
            futures: list[Future[None]] = [pool.submit(workers, task) for task in tasks]
            try:
                for f in as_completed(futures):
                    f.result()
                    bar(1)
            finally:
                stop.set()
                for f in futures:
                    f.cancel()
                for f in futures:
                    if not f.cancelled():
                        f.exception()  # wait: no part goes on working unseen
    return out
