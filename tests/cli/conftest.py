"""The command line's tests' fixture: the default tables pointed elsewhere."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from twoplustwo.tables.default import clear_cache
from twoplustwo.tables.load import ENV_VAR

#: ``use_tables(path)``: the default tables are the set at ``path`` from now on, in this test.
UseTables = Callable[[Path], None]


@pytest.fixture
def use_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[UseTables]:
    """Point the default tables at a directory, forgetting what was loaded."""

    def use(path: Path) -> None:
        monkeypatch.setenv(ENV_VAR, str(path))
        clear_cache()

    yield use
    clear_cache()
