"""What the builder's tests share: the builder's own bundle of the checkout's tables, written once a session."""

from __future__ import annotations

from pathlib import Path

import pytest

from twoplustwo.tables.load import default_path
from twoplustwo_builder.bundle import write_bundle


@pytest.fixture(scope="session")
def real_bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle ``make bundle`` writes (level 19, several seconds), of the tables at the default path."""
    report = write_bundle(default_path(), tmp_path_factory.mktemp("dist"), check=False)
    print(f"\n{report.summary()}")
    return report.path
