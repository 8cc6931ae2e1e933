"""Suite-wide set-up: the tables every test needs, and the ``slow`` marker.

``make test`` runs everything; ``make test-fast`` (``pytest -m "not slow"``)
leaves out the tests marked slow, for a quick check while editing. Missing
tables stop the run with one clear message instead of turning hundreds of
tests into skips, which could hide a regression.
"""

from __future__ import annotations

import pytest

from twoplustwo.format import MANIFEST
from twoplustwo.tables import default_path


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
