"""The builder's bundles: ``write_bundle`` packs the checkout's tables small, and they install byte for byte.

One bundle is written per module (about 15 s, zstd level 19). Installing
bundles, damaged, crafted or interrupted, is the runtime's, tested in
``tests/tables/test_bundle.py`` on bundles it crafts itself.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from twoplustwo.tables.bundle import install_bundle
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST, bundle_name
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
    t0 = time.perf_counter()
    target = install_bundle(bundle, to=tmp_path / "new" / "tables")
    seconds = time.perf_counter() - t0
    print(f"\ninstall: {seconds:.2f} s")
    assert target == tmp_path / "new" / "tables"
    t = load_tables(target, verify=True)
    want = json.loads((SOURCE / MANIFEST).read_text())
    assert (target / MANIFEST).read_bytes() == (SOURCE / MANIFEST).read_bytes()
    for f in want["files"]:
        assert (target / f["name"]).read_bytes() == (SOURCE / f["name"]).read_bytes(), f["name"]
    # Nothing but the table set and the lock file: no staging left behind.
    assert {p.name for p in target.iterdir()} == {f["name"] for f in want["files"]} | {MANIFEST, ".lock"}
    assert t.nodes == want["nodes"]
    assert seconds < 20


def test_size_goal(bundle: Path) -> None:
    size = bundle.stat().st_size
    raw = sum(p.stat().st_size for p in SOURCE.glob("*.npy"))
    print(f"\nbundle: {size:,} bytes, tables {raw:,} bytes, ratio {raw / size:.1f}")
    assert size < GOAL
