"""Fixtures of the command line's tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from twoplustwo.tables.default import clear_cache
from twoplustwo.tables.load import ENV_VAR


@pytest.fixture
def use_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Point the default tables at a directory, forgetting what was loaded."""

    def use(path: Path) -> None:
        monkeypatch.setenv(ENV_VAR, str(path))
        clear_cache()

    yield use
    clear_cache()
