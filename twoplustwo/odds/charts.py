"""The preflop tables presented: aligned text, CSV and the 13 x 13 heat map.

They take the results of :func:`~twoplustwo.odds.preflop.preflop_vs_random`
(keyed by class) or :func:`~twoplustwo.odds.preflop.preflop_matchups`
(keyed by two classes):

>>> from twoplustwo.odds.preflop import preflop_matchups
>>> print(preflop_table(preflop_matchups(["AA"], ["KK"], quiet=True)))
player     win %  tie %  equity %        wins     ties       games
AA vs KK  81.715  0.463    81.946  50,371,344  285,228  61,642,944
>>> csv_bytes(preflop_matchups(["AA"], ["KK"], quiet=True)).decode().splitlines()[1]
'AA,KK,50371344,285228,10986372,61642944,0.8194605046767397'
"""

from __future__ import annotations

import csv
import io
import os
from collections.abc import Mapping
from typing import Any

import numpy as np

from twoplustwo.odds.results import EQUITY_SPAN, PlayerEquity, equity_table
from twoplustwo.tables.atomic import check_target, write_file
from twoplustwo.vocab.combos import HAND_CLASSES
from twoplustwo.vocab.range_notation import class_index

__all__ = ["csv_bytes", "draw_png", "png_bytes", "preflop_table", "write_csv"]

_VsRandom = Mapping[str, PlayerEquity]
_Grid = Mapping[tuple[str, str], PlayerEquity]

def preflop_table(results: _VsRandom | _Grid) -> str:
    """Results of :func:`preflop_vs_random` or :func:`preflop_matchups` as aligned text, one row each, in order."""
    rows = list(_checked(results).values())
    return equity_table(rows)


def write_csv(results: _VsRandom | _Grid, path: str | os.PathLike[str]) -> None:
    """Write results as CSV: a header, then one row per class (``class,...``) or matchup (``class_a,class_b,...``).

    The columns after the class names are ``wins,ties,losses,games,equity``,
    the counts as integers and the equity as the shortest decimal that reads
    back as the same float. The file is written beside ``path`` and then
    renamed over it, so a reader never sees half of it (a symbolic link,
    a FIFO or a character device as :mod:`twoplustwo.tables.atomic` says).
    """
    data = csv_bytes(results)
    write_file(check_target(path, "preflop.csv"), [data])


def csv_bytes(results: _VsRandom | _Grid) -> bytes:
    """The file :func:`write_csv` writes, as bytes."""
    items = list(_checked(results).items())
    matchups = isinstance(items[0][0], tuple)
    head = ["class_a", "class_b"] if matchups else ["class"]
    text = io.StringIO(newline="")
    out = csv.writer(text, lineterminator="\n")
    out.writerow([*head, "wins", "ties", "losses", "games", "equity"])
    for key, r in items:
        names = list(key) if isinstance(key, tuple) else [key]
        out.writerow([*names, _number(r.wins), _number(r.ties), _number(r.losses), _number(r.games), repr(r.equity)])
    return text.getvalue().encode()


def draw_png(results: _VsRandom, path: str | os.PathLike[str], *, title: str | None = None) -> None:
    """Draw the 13 x 13 heat map of equity against a random hand (:func:`preflop_vs_random`) as a PNG.

    Rows and columns run from aces down to deuces: pairs on the diagonal,
    suited classes above it, offsuit ones below, each cell labelled with its
    class and equity; classes missing from ``results`` stay blank. Needs
    matplotlib (``pip install 'twoplustwo[plot]'``) and draws with its Agg
    backend, leaving pyplot's state alone. The file is written beside
    ``path`` and renamed over it (a symbolic link, a FIFO or a character
    device as :mod:`twoplustwo.tables.atomic` says).
    """
    data = png_bytes(results, title=title)
    write_file(check_target(path, "preflop.png"), [data])


def png_bytes(results: _VsRandom, *, title: str | None = None) -> bytes:
    """The file :func:`draw_png` writes, as bytes."""
    checked = _checked(results)
    if any(not isinstance(k, str) for k in checked):
        raise ValueError("draw_png draws results against a random hand (preflop_vs_random), keyed by class name")
    grid = np.full(len(HAND_CLASSES), np.nan)
    for name, r in checked.items():
        try:
            grid[class_index(str(name))] = r.equity
        except ValueError as e:
            raise ValueError(f"results key {name!r}: {e}") from None
    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(f"draw_png needs matplotlib: pip install 'twoplustwo[plot]' ({e})") from e

    fig = Figure(figsize=(10, 9), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    percent = 100 * grid
    low, high = EQUITY_SPAN
    image = ax.imshow(percent.reshape(13, 13), cmap="RdYlGn", vmin=100 * low, vmax=100 * high)
    ranks = [name[0] for name in HAND_CLASSES[::14]]
    ax.set_xticks(range(13), ranks)
    ax.set_yticks(range(13), ranks)
    ax.tick_params(top=True, bottom=False, labeltop=True, labelbottom=False)
    for k, name in enumerate(HAND_CLASSES):
        if not np.isnan(percent[k]):
            ax.text(k % 13, k // 13, f"{name}\n{percent[k]:.1f}", ha="center", va="center", fontsize=7)
    ax.set_title(title if title is not None else "Equity against a random hand (%): suited above, offsuit below")
    fig.colorbar(image, ax=ax, fraction=0.046, pad=0.04, label="equity %")
    fig.tight_layout()
    png = io.BytesIO()
    fig.savefig(png, format="png")
    return png.getvalue()


def _checked(results: object) -> Mapping[Any, PlayerEquity]:
    if not isinstance(results, Mapping):
        raise TypeError(
            f"results must be the dict preflop_vs_random or preflop_matchups returns, got {type(results).__name__}"
        )
    if not results:
        raise ValueError("no results")
    kinds = {isinstance(k, tuple) for k in results}
    if len(kinds) > 1:
        raise ValueError("results mix classes and matchups")
    for key, r in results.items():
        if not isinstance(r, PlayerEquity):
            raise TypeError(f"results[{key!r}] must be a PlayerEquity, got {type(r).__name__}")
    return results


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else repr(float(x))
