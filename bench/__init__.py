"""Benchmarks: ``python -m bench`` runs every section and writes ``bench/results.md``.

A section is a function taking no arguments and returning markdown lines
(its own ``##`` heading included); add new ones to :data:`bench.__main__.SECTIONS`.
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["Section", "markdown_table"]

#: A benchmark section: runs its measurements, returns markdown lines.
Section = Callable[[], list[str]]


def markdown_table(header: list[str], rows: list[list[str]]) -> list[str]:
    """Lines of a markdown table; numeric-looking columns are right-aligned.

    >>> print("\\n".join(markdown_table(["name", "n"], [["a", "1"], ["bb", "22"]])))
    | name |  n |
    |:-----|---:|
    | a    |  1 |
    | bb   | 22 |
    """
    cols = list(zip(header, *rows))
    widths = [max(len(cell) for cell in col) for col in cols]
    numeric = [all(_looks_numeric(cell) for cell in col[1:]) and len(col) > 1 for col in cols]

    def line(cells: list[str]) -> str:
        padded = [
            cell.rjust(w) if num else cell.ljust(w) for cell, w, num in zip(cells, widths, numeric)
        ]
        return "| " + " | ".join(padded) + " |"

    rule = "|".join(
        "-" * (w + 1) + ":" if num else ":" + "-" * (w + 1) for w, num in zip(widths, numeric)
    )
    return [line(header), "|" + rule + "|"] + [line(row) for row in rows]


def _looks_numeric(cell: str) -> bool:
    return cell.replace(",", "").replace(".", "", 1).isdigit()
