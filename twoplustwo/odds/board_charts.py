"""Pictures of a board report: the 13 x 13 grid coloured by made-hand class, and the class bars, as HTML or PNG.

:meth:`BoardReport._repr_html_ <twoplustwo.BoardReport>` draws
:func:`board_html` in a notebook; ``twoplustwo board ... --png FILE`` draws
:func:`board_png_bytes`. A cell of the grid takes the colour of the class
most of its combos (by weight) fall in, and shows it; the bars give each
class's share of the range, and of the draws.

>>> from twoplustwo import board_report
>>> html = board_html(board_report("QQ+,AK", "Qh 7c 2d"))
>>> html.count("<tr>"), "overpair" in html  # the grid's 13 rows, and a bar for each of 5 classes
(18, True)
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING, Protocol

import numpy as np
import numpy.typing as npt

from twoplustwo.tables.atomic import check_target, write_file
from twoplustwo.vocab.board_classes import N_MADE_HANDS
from twoplustwo.vocab.combos import CLASS_OF, HAND_CLASSES

if TYPE_CHECKING:
    import os

__all__ = ["CLASS_COLOURS", "BoardReport", "board_html", "board_png_bytes", "dominant_classes", "draw_board_png"]


class BoardReport(Protocol):
    """What the pictures read of a :class:`twoplustwo.BoardReport` (which imports this module for its HTML)."""

    @property
    def combos(self) -> float: ...
    @property
    def made(self) -> dict[str, float]: ...
    @property
    def draws(self) -> dict[str, float]: ...
    @property
    def combo_made(self) -> npt.NDArray[np.uint8]: ...
    @property
    def weights(self) -> npt.NDArray[np.float64]: ...


#: A colour for each made-hand class, in :data:`~twoplustwo.MADE_HANDS` order: reds for the strongest, down to greys.
CLASS_COLOURS = (
    "#67000d", "#a50f15", "#cb181d", "#ef3b2c", "#fb6a4a",  # straight flush .. straight
    "#08519c", "#3182bd", "#6baed6",  # set, trips, three of a kind
    "#006d2c", "#31a354", "#a1d99b", "#c7e9c0",  # two pair, overpair, underpair, pocket pair
    "#e6550d", "#fd8d3c", "#fdd0a2",  # top, second, weak pair
    "#bdbdbd", "#f0f0f0",  # ace high, nothing
)  # fmt: skip


def dominant_classes(report: BoardReport) -> npt.NDArray[np.intp]:
    """Each of the 169 starting-hand classes' commonest made-hand code among the range's live combos, -1 for none."""
    live = report.weights > 0
    flat = CLASS_OF[live] * N_MADE_HANDS + report.combo_made[live]
    sums = np.bincount(flat, weights=report.weights[live], minlength=len(HAND_CLASSES) * N_MADE_HANDS)
    sums = sums.reshape(len(HAND_CLASSES), N_MADE_HANDS)
    out: npt.NDArray[np.intp] = np.where(sums.sum(axis=1) > 0, sums.argmax(axis=1), -1)
    return out


def board_html(report: BoardReport) -> str:
    """The grid and the bars as an HTML table each, side by side: what a notebook shows of a report."""
    from twoplustwo.vocab.board_classes import MADE_HANDS

    top = dominant_classes(report)
    rows = []
    for i in range(13):
        cells = []
        for k in range(13 * i, 13 * i + 13):
            code = int(top[k])
            shade = f"background:{CLASS_COLOURS[code]};" if code >= 0 else ""
            ink = "color:white;" if 0 <= code < 9 else ""
            label = f"<br><span style='font-size:70%'>{escape(MADE_HANDS[code])}</span>" if code >= 0 else ""
            style = f'style="{shade}{ink}text-align:center;font-size:80%;padding:2px 3px"'
            cells.append(f"<td {style}>{escape(HAND_CLASSES[k])}{label}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    grid = f'<table style="border-collapse:collapse">{"".join(rows)}</table>'
    bars = []
    for counts, colours in ((report.made, CLASS_COLOURS), (report.draws, None)):
        for j, (name, n) in enumerate(counts.items()):
            if n <= 0:
                continue
            share = n / report.combos
            colour = colours[j] if colours is not None else "#756bb1"
            bar = f'<div style="background:{colour};height:10px;width:{200 * share:.1f}px"></div>'
            bars.append(
                f'<tr><td style="text-align:left;padding:1px 6px">{escape(name)}</td>'
                f'<td style="text-align:right;padding:1px 6px">{100 * share:.1f}%</td>'
                f'<td style="text-align:left">{bar}</td></tr>'
            )
    caption = escape(str(report).splitlines()[0])
    table = f'<table style="border-collapse:collapse">{"".join(bars)}</table>'
    return (
        f'<div><div style="font-weight:bold">{caption}</div><div style="display:flex;gap:16px">'
        f"<div>{grid}</div><div>{table}</div></div></div>"
    )


def board_png_bytes(report: BoardReport) -> bytes:
    """The grid and the bars as a PNG (matplotlib's Agg backend; needs ``twoplustwo[plot]``)."""
    import io

    from twoplustwo.vocab.board_classes import MADE_HANDS

    try:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.colors import ListedColormap
        from matplotlib.figure import Figure
    except ImportError as e:
        raise ImportError(f"--png needs matplotlib: pip install 'twoplustwo[plot]' ({e})") from e
    top = dominant_classes(report)
    fig = Figure(figsize=(15, 8), dpi=100)
    FigureCanvasAgg(fig)
    ax, bars = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    image = np.ma.masked_less(top.reshape(13, 13), 0)
    ax.imshow(image, cmap=ListedColormap(list(CLASS_COLOURS)), vmin=-0.5, vmax=N_MADE_HANDS - 0.5)
    ranks = [name[0] for name in HAND_CLASSES[::14]]
    ax.set_xticks(range(13), ranks)
    ax.set_yticks(range(13), ranks)
    ax.tick_params(top=True, bottom=False, labeltop=True, labelbottom=False)
    for k, name in enumerate(HAND_CLASSES):
        code = int(top[k])
        label = name if code < 0 else f"{name}\n{MADE_HANDS[code]}"
        ax.text(
            k % 13, k // 13, label, ha="center", va="center", fontsize=5.5, color="white" if 0 <= code < 9 else "black"
        )
    ax.set_title(str(report).splitlines()[0], fontsize=10)
    names = [n for n, x in report.made.items() if x > 0] + [n for n, x in report.draws.items() if x > 0]
    shares = [100 * report.made.get(n, report.draws.get(n, 0.0)) / report.combos for n in names]
    colours = [CLASS_COLOURS[MADE_HANDS.index(n)] if n in report.made else "#756bb1" for n in names]
    bars.barh(range(len(names)), shares, color=colours)
    bars.set_yticks(range(len(names)), names)
    bars.invert_yaxis()
    bars.set_xlabel("share of the range's combos (%)")
    fig.tight_layout()
    out = io.BytesIO()
    fig.savefig(out, format="png")
    return out.getvalue()


def draw_board_png(report: BoardReport, path: str | os.PathLike[str]) -> None:
    """Write :func:`board_png_bytes` to ``path``, beside it and renamed over it (:mod:`twoplustwo.tables.atomic`)."""
    target = check_target(path, "board.png")
    write_file(target, [board_png_bytes(report)])
