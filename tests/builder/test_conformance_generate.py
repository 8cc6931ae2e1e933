"""The conformance fixtures in spec/conformance are what the builder's generator writes, byte for byte.

``python -m twoplustwo_builder.testdata.conformance`` runs as a user would run it;
the runtime's reading of the fixtures is ``tests/spec/test_conformance.py``.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from twoplustwo.tables.load import default_path

FIXTURES = Path(__file__).resolve().parents[2] / "spec" / "conformance"


def generate(out: Path, tables: Path) -> subprocess.CompletedProcess[str]:
    """Run the generator as a user would."""
    cmd = [sys.executable, "-m", "twoplustwo_builder.testdata.conformance", "--out", str(out), "--tables", str(tables)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


def test_fixtures_regenerate_byte_for_byte(tmp_path: Path) -> None:
    out = tmp_path / "conformance"
    r = generate(out, default_path())
    assert r.returncode == 0, r.stderr
    committed = {p.relative_to(FIXTURES): p.read_bytes() for p in FIXTURES.rglob("*") if p.is_file()}
    fresh = {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}
    hint = "out of date: python -m twoplustwo_builder.testdata.conformance"
    assert sorted(map(str, fresh)) == sorted(map(str, committed)), hint
    changed = [str(rel) for rel in fresh if fresh[rel] != committed[rel]]
    assert not changed, f"{hint}: {changed[:5]}"
    assert sum(map(len, fresh.values())) < 800_000
    # A second run replaces its own earlier output with the same bytes.
    r = generate(out, default_path())
    assert r.returncode == 0, r.stderr
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()} == fresh


def test_generate_refuses_to_replace_a_foreign_directory(tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("not fixtures")
    r = generate(tmp_path, default_path())
    assert r.returncode == 1 and "not an earlier conformance output" in r.stderr
    assert [p.name for p in tmp_path.iterdir()] == ["keep.txt"]


def test_generate_refuses_tables_that_disagree_with_the_oracle(tmp_path: Path) -> None:
    # The tiny set is a loadable set whose values are not poker values.
    r = generate(tmp_path / "out", FIXTURES / "cases" / "valid")
    assert r.returncode == 1 and "categoriser oracle" in r.stderr
    assert not (tmp_path / "out").exists()
