"""Helpers of the command line's tests: run ``main`` in-process, check its one-line errors, copy the tables.

The fixture ``use_tables`` is in this folder's conftest.py.
"""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from twoplustwo.cli import main
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import default_path


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(code: int, out: str, err: str) -> str:
    assert code != 0
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("twoplustwo: error: ")
    assert "Traceback" not in err
    return lines[0]


def linked_copy(tmp_path: Path) -> Path:
    """The table set as symlinks, with a real copy of the manifest."""
    dst = tmp_path / "tables"
    shutil.copytree(
        default_path().resolve(), dst, copy_function=os.symlink, ignore=shutil.ignore_patterns(".*")
    )
    m = dst / MANIFEST
    text = m.read_text()
    m.unlink()
    m.write_text(text)
    return dst


def stub_preflop(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...], dict[str, object]]]:
    """The preflop module with its computations recorded and answered with AA's published counts; draw_png recorded."""
    from twoplustwo.odds import charts

    calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []
    aa = PlayerEquity("AA", 2_097_572_400, 1_781_508_418, 11_402_312, 0.8520371330210104)

    def record(name: str, result: object) -> Any:
        def fn(*args: object, **kwargs: object) -> object:
            calls.append((name, args, kwargs))
            return result

        return fn

    stub = SimpleNamespace(
        preflop_vs_random=record("vs_random", {"AA": aa}),
        preflop_matchups=record("matchups", {("AA", "KK"): aa}),
    )
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.preflop", stub)
    monkeypatch.setattr(charts, "draw_png", record("png", None))
    return calls
