"""The large table files are mapped with 2 MiB pages however their pages left the cache.

Each test works on its own copy of the table set, so that dropping its
pages from the cache never touches a set other tests map. Where the system
makes no 2 MiB pages for files at all (the control fixture in
conftest.py), the tests that need them are skipped, saying so.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import twoplustwo
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import Tables
from twoplustwo.tables.pages import all_huge, huge_page_bytes, uncache, warm
from twoplustwo.tables.system import HUGE_PAGE

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="2 MiB pages of files are Linux's")


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A private copy of the default table set."""
    src = load_tables().path
    dst = tmp_path / "tables"
    dst.mkdir()
    for name in [MANIFEST] + [f["name"] for f in load_tables().manifest["files"]]:
        shutil.copyfile(src / name, dst / name)
    return dst


def _small_pieces(root: Path) -> None:
    """Cache every file of the set at ``root`` as a copy or a backup would: uncached, then read()."""
    for p in root.iterdir():
        uncache(p)
        with open(p, "rb") as fh:
            while fh.read(1 << 16):
                pass


def _assert_all_huge(t: Tables) -> None:
    report = huge_page_bytes(t)
    assert report is not None
    assert set(report) == {f["role"] for f in t.manifest["files"] if f["nbytes"] >= HUGE_PAGE}
    assert all_huge(report), report


def _same_values(t: Tables) -> None:
    rng = np.random.default_rng(7)
    hands = np.array([rng.choice(52, 7, replace=False) for _ in range(2000)])
    ref = load_tables()
    assert np.array_equal(
        twoplustwo.evaluate_batch(hands, tables=t), twoplustwo.evaluate_batch(hands, tables=ref)
    )


def test_a_set_no_process_has_cached_loads_with_huge_pages(system_maps_huge_file_pages: None, copy: Path) -> None:
    for p in copy.iterdir():
        uncache(p)
    t = load_tables(copy)
    _assert_all_huge(t)
    _same_values(t)


def test_warm_brings_a_set_read_in_small_pieces_back_to_huge_pages(
    system_maps_huge_file_pages: None, copy: Path
) -> None:
    _small_pieces(copy)
    after = warm(copy)
    assert after is not None
    t = load_tables(copy, verify=True)  # every byte as the manifest says
    _assert_all_huge(t)
    _same_values(t)


def test_verify_leaves_the_pages_it_read_huge(system_maps_huge_file_pages: None, copy: Path) -> None:
    for p in copy.iterdir():
        uncache(p)
    load_tables(copy, verify=True)  # hashes every byte of every file
    _assert_all_huge(load_tables(copy))


def test_uncache_keeps_the_bytes_and_a_live_mapping_reads_on(copy: Path) -> None:
    t = load_tables(copy)
    before = {role: bytes(t.buffers[role][:4096]) for role in ("dag7/layer6", "dag7/layer7")}
    for p in copy.iterdir():
        uncache(p)
    assert {role: bytes(t.buffers[role][:4096]) for role in before} == before
    load_tables(copy, verify=True)
    _same_values(t)


def test_uncache_of_a_missing_file_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        uncache(tmp_path / "nope.npy")


def test_cli_info_and_warm_report_the_pages(system_maps_huge_file_pages: None, copy: Path) -> None:
    _small_pieces(copy)
    env = {**os.environ, "TWOPLUSTWO_TABLES": str(copy)}
    cli = [sys.executable, "-m", "twoplustwo"]
    info = subprocess.run([*cli, "info"], env=env, capture_output=True, text=True, check=True).stdout
    assert re.search(r"^huge pages +[\d.]+ of [\d.]+ MiB of the \d+ files of 2 MiB or more", info, re.M), info
    out = subprocess.run([*cli, "warm"], env=env, capture_output=True, text=True, check=True).stdout
    assert out.startswith(f"ok {copy.resolve()}: re-read in "), out
    after = re.search(r"^after +([\d.]+) of ([\d.]+) MiB", out, re.M)
    assert after is not None, out
    info = subprocess.run([*cli, "info"], env=env, capture_output=True, text=True, check=True).stdout
    assert "twoplustwo warm" not in info, info  # nothing left to re-read
