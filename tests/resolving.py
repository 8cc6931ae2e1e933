"""Counting how often a call resolves its game: ``resolve`` replaced in every module of the package that imported it."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from twoplustwo.kernels.games import resolve


def count_resolves(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The list the games resolved from now on are appended to, one entry a call, from whichever module.

    Import every module that may resolve before calling this: a module
    imported later keeps the real ``resolve``.
    """
    calls: list[str] = []

    def counted(game: str, tables: Any = None) -> Any:
        calls.append(game)
        return resolve(game, tables)

    for name, module in list(sys.modules.items()):
        if name.startswith("twoplustwo.") and getattr(module, "resolve", None) is resolve:
            monkeypatch.setattr(module, "resolve", counted)
    return calls
