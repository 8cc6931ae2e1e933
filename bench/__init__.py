"""Benchmarks: ``python -m bench`` runs every section and writes ``bench/results.md``.

A section is a function taking no arguments and returning markdown lines
(its own ``##`` heading included); add new ones to :data:`bench.__main__.SECTIONS`.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

__all__ = ["ROOT", "Section", "best_of", "child_env", "fresh_runs", "markdown_table"]

#: The checkout, so benchmark subprocesses import this tree's packages.
ROOT = Path(__file__).resolve().parent.parent

T = TypeVar("T")

#: A benchmark section: runs its measurements, returns markdown lines.
Section = Callable[[], list[str]]


def best_of(fn: Callable[[], T], repeats: int) -> tuple[float, T]:
    """Seconds of the fastest of ``repeats`` calls, and the last call's result."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def child_env(**extra: str) -> dict[str, str]:
    """This process's environment, with :data:`ROOT` first on ``PYTHONPATH``."""
    env = dict(os.environ, **extra)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def fresh_runs(script: str, times: int) -> list[Any]:
    """Run ``script`` in ``times`` fresh interpreters; each run's stdout parsed as JSON."""
    env = child_env()
    return [
        json.loads(
            subprocess.run(
                [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT, env=env
            ).stdout
        )
        for _ in range(times)
    ]


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
