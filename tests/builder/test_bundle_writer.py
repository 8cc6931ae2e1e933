"""The builder's bundles: ``write_bundle`` packs the checkout's tables small, and they install byte for byte.

One bundle is written per session (``real_bundle`` in conftest.py: the one in the wheel ``pip wheel .``
builds, zstd level 19), so these tests are marked ``packaging`` with the wheel's (``make test-packaging``).
Installing bundles, damaged, crafted or interrupted, is the runtime's, tested in
``tests/tables/test_bundle.py`` on bundles it crafts itself.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tables.test_bundle import assert_installs_byte_identical
from twoplustwo.tables.format import bundle_name
from twoplustwo.tables.load import default_path

pytest.importorskip("zstandard", reason="bundles need zstandard")
pytestmark = pytest.mark.packaging

SOURCE = default_path()
GOAL = 10_000_000


def test_round_trip_is_byte_identical(real_bundle: Path, tmp_path: Path) -> None:
    assert real_bundle.name == bundle_name() == "twoplustwo-tables-1.tar.zst"
    assert_installs_byte_identical(real_bundle, SOURCE, tmp_path / "new" / "tables")


def test_size_goal(real_bundle: Path) -> None:
    size = real_bundle.stat().st_size
    raw = sum(p.stat().st_size for p in SOURCE.glob("*.npy"))
    print(f"\nbundle: {size:,} bytes, tables {raw:,} bytes, ratio {raw / size:.1f}")
    assert size < GOAL
