"""The 13 x 13 grid of starting-hand classes as an HTML table, for notebooks.

Rows and columns run from aces down to deuces: pairs on the diagonal,
suited classes above it, offsuit ones below (the order of
:data:`~twoplustwo.vocab.combos.HAND_CLASSES`). Each cell shows its class
and a text, shaded by a share in [0, 1]; a cell without a share is blank.

>>> html = class_grid_html([1.0] + [None] * 168, ["100%"] + [""] * 168)
>>> html.count("<td"), "AA<br>100%" in html
(169, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

from twoplustwo.vocab.combos import HAND_CLASSES

__all__ = ["class_grid_html"]


def class_grid_html(shares: Sequence[float | None], texts: Sequence[str], *, caption: str = "") -> str:
    """The 169 classes as HTML: cell ``k`` holds ``HAND_CLASSES[k]`` and ``texts[k]``, shaded by ``shares[k]``."""
    if len(shares) != len(HAND_CLASSES) or len(texts) != len(HAND_CLASSES):
        raise ValueError(f"a class grid takes {len(HAND_CLASSES)} shares and texts, got {len(shares)} and {len(texts)}")
    rows = []
    for i in range(13):
        cells = []
        for k in range(13 * i, 13 * i + 13):
            share = shares[k]
            # Green, from white (0) to full (1); blank where nothing is there.
            shade = "" if share is None else f"background:rgba(46,139,87,{max(0.0, min(1.0, share)):.3f});"
            style = f'style="{shade}text-align:center;font-size:80%;padding:2px 4px"'
            cells.append(f"<td {style}>{escape(HAND_CLASSES[k])}<br>{escape(texts[k])}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    head = f"<caption>{escape(caption)}</caption>" if caption else ""
    return f'<table style="border-collapse:collapse">{head}{"".join(rows)}</table>'
