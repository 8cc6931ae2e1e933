"""Suite-wide set-up: the tables every test needs, and the ``slow`` marker.

``make test`` runs everything; ``make test-fast`` (``pytest -m "not slow"``)
leaves out the tests marked slow, for a quick check while editing. Missing
tables stop the run with one clear message instead of turning hundreds of
tests into skips, which could hide a regression.
"""

from __future__ import annotations

import pytest

from twoplustwo.backend import ENV_VAR
from twoplustwo.format import MANIFEST
from twoplustwo.tables import Tables, default_path, load_tables


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "slow: takes several seconds (builds, kills, races, exhaustive sweeps); left out by make test-fast"
    )


def pytest_sessionstart(session: pytest.Session) -> None:
    tables = default_path()
    if not (tables / MANIFEST).is_file():
        pytest.exit(
            f"no tables at {tables}: build them with `make` (or set $TWOPLUSTWO_TABLES) before testing",
            returncode=1,
        )


def _tables_with(backend: str, monkeypatch: pytest.MonkeyPatch) -> Tables:
    base = load_tables()
    monkeypatch.setenv(ENV_VAR, backend)
    t = Tables(base.path, base.manifest, base.buffers)
    _ = t.walker  # chosen now, while the variable says so
    monkeypatch.delenv(ENV_VAR)
    return t


@pytest.fixture
def both(monkeypatch: pytest.MonkeyPatch) -> tuple[Tables, Tables]:
    """(C, numpy) table sets over the same mapped buffers, for tests that hold the backends together."""
    try:
        from twoplustwo import _core  # noqa: F401
    except ImportError:
        pytest.skip("twoplustwo._core was not built (no C compiler at install)")
    c, ref = _tables_with("c", monkeypatch), _tables_with("numpy", monkeypatch)
    assert c.walker is not None and ref.walker is None
    return c, ref
