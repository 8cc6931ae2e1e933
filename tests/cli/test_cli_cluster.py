"""The dask client of ``--dask`` (twoplustwo/cluster.py)."""

from __future__ import annotations

import sys

import pytest

from tests.cli.helpers import assert_one_error_line, run, stub_preflop


def test_preflop_on_a_dask_cluster_needs_distributed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stub_preflop(monkeypatch)
    # As if it were not installed: its modules too, which an earlier test in
    # this process may have imported, and which Python would take from here.
    for name in [m for m in sys.modules if m.startswith("distributed.")] + ["distributed"]:
        monkeypatch.setitem(sys.modules, name, None)
    line = assert_one_error_line(*run(["preflop", "--dask", "tcp://127.0.0.1:8786"], capsys))
    assert "pip install 'twoplustwo[dask]'" in line
