"""The builder's bundles: ``write_bundle`` packs the checkout's tables small, and they install byte for byte.

One bundle is written per module (about 15 s, zstd level 19). Installing
bundles, damaged, crafted or interrupted, is the runtime's, tested in
``tests/tables/test_bundle.py`` on bundles it crafts itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tables.test_bundle import assert_installs_byte_identical
from twoplustwo.tables.format import bundle_name
from twoplustwo.tables.load import default_path
from twoplustwo_builder.bundle import write_bundle

pytest.importorskip("zstandard", reason="bundles need zstandard")

SOURCE = default_path()
GOAL = 10_000_000


@pytest.fixture(scope="module")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    report = write_bundle(SOURCE, tmp_path_factory.mktemp("dist"), check=False)
    print(f"\n{report.summary()}")
    return report.path


def test_round_trip_is_byte_identical(bundle: Path, tmp_path: Path) -> None:
    assert bundle.name == bundle_name() == "twoplustwo-tables-1.tar.zst"
    assert_installs_byte_identical(bundle, SOURCE, tmp_path / "new" / "tables")


def test_size_goal(bundle: Path) -> None:
    size = bundle.stat().st_size
    raw = sum(p.stat().st_size for p in SOURCE.glob("*.npy"))
    print(f"\nbundle: {size:,} bytes, tables {raw:,} bytes, ratio {raw / size:.1f}")
    assert size < GOAL
