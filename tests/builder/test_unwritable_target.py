"""A table set the builder cannot write: every build command says so before its work, not after it.

The set is the checkout's tables as symlinks, with a manifest of their own,
on a read-only bind mount: a write there fails with EROFS even for root,
whom permission bits do not stop. Without the right to mount, a user who is
not root gets a directory without write bits; root without it skips. The
work itself (the strength sweeps, the clustering) is replaced by a stand-in
that records that it started: a refused target must never get that far.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import default_path
from twoplustwo_builder.__main__ import main as builder_main
from twoplustwo_builder.derived import abstraction as ab
from twoplustwo_builder.derived import strength as st


@pytest.fixture
def unwritable(tmp_path: Path) -> Iterator[Path]:
    """A loadable table set in which nothing can be created."""
    src = tmp_path / "src"
    shutil.copytree(default_path().resolve(), src, copy_function=os.symlink, ignore=shutil.ignore_patterns(".*"))
    text = (src / MANIFEST).read_text()
    (src / MANIFEST).unlink()
    (src / MANIFEST).write_text(text)
    ro = tmp_path / "ro"
    ro.mkdir()
    try:
        bound = subprocess.run(["mount", "--bind", str(src), str(ro)], capture_output=True, text=True)
    except FileNotFoundError:
        bound = None
    if bound is not None and bound.returncode == 0:
        try:
            if subprocess.run(["mount", "-o", "remount,ro,bind", str(ro)], capture_output=True).returncode != 0:
                pytest.skip("cannot make a bind mount read-only")
            yield ro
        finally:
            if subprocess.run(["umount", str(ro)], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", str(ro)], capture_output=True)
        return
    if os.geteuid() == 0:
        pytest.skip("root, and no read-only bind mount: nothing here is unwritable")
    src.chmod(0o555)
    try:
        yield src
    finally:
        src.chmod(0o755)


@pytest.fixture
def work(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the long computations that started (each then stops the call)."""
    started: list[str] = []

    def stand_in(name: str) -> object:
        def fn(*args: object, **kwargs: object) -> object:
            started.append(name)
            raise RuntimeError(f"{name} started")

        return fn

    monkeypatch.setattr(st, "strength_arrays", stand_in("strength_arrays"))
    monkeypatch.setattr(ab, "bucket_table", stand_in("bucket_table"))
    return started


def assert_untouched(target: Path) -> None:
    assert sorted(p.name for p in target.iterdir() if p.name.startswith(".")) == []


def test_strength_tables_fail_before_the_sweeps(unwritable: Path, work: list[str]) -> None:
    with pytest.raises(OSError):
        st.publish_strength(unwritable)
    assert work == []
    assert_untouched(unwritable)


def test_a_bucket_table_fails_before_the_clustering(unwritable: Path, work: list[str]) -> None:
    with pytest.raises(OSError):
        ab.publish_buckets(unwritable, "flop", "emd", 5)
    assert work == []
    assert_untouched(unwritable)


@pytest.mark.parametrize(
    "args",
    [["--strength"], ["--abstraction", "--street", "flop", "--method", "emd", "--k", "5"]],
    ids=["strength", "abstraction"],
)
def test_the_builder_command_fails_in_one_line_before_any_work(
    unwritable: Path, work: list[str], capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    # The set has no strength tables, so --abstraction builds them first: the first work to refuse.
    assert builder_main([*args, "--out", str(unwritable), "--quiet"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1, err
    assert err.startswith("strength tables failed: ") and str(unwritable) in err
    assert work == []
    assert_untouched(unwritable)
