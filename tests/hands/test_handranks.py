"""The classic ``HandRanks.dat`` export: every hand read by the classic protocol gives our value.

The proof is ``tests/handranks_reader.c``, a reader written from the classic
protocol alone: it walks the exported file for every 5-, 6- and 7-card hand
and compares each read with our own dag7 layers, mapped to the classic scale
through a table written from :func:`handranks_value`; its category counts are
held against the published ones. The file is exported once per module and
shared; the tests that damage it work on copies.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo import progress
from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.hands.handranks import export_handranks, handranks_value, value_from_handranks
from twoplustwo.tables import atomic
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import format_cards
from twoplustwo.vocab.values import CATEGORY_FIRST, CATEGORY_LAST, HAND_COUNTS, N_VALUES, categories

# The first backend only: HandRanks.dat is written from the arrays and read
# back with numpy, and no kernel runs.
pytestmark = pytest.mark.one_backend

SOURCE = Path(__file__).resolve().parent / "handranks_reader.c"
FLAGS = ["-O2", "-std=c99", "-Wall", "-Wextra", "-Werror"]
#: Entries of the original generator's file, as the issue gives them.
ORIGINAL_ENTRIES = 32_487_834
ROLES = [f"dag7/layer{k}" for k in range(1, 8)] + ["dag7/value5", "dag7/value6"]


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory, tables: Tables) -> Path:
    return export_handranks(tmp_path_factory.mktemp("handranks") / "HandRanks.dat", tables=tables, quiet=True)


@pytest.fixture(scope="module")
def entries(exported: Path) -> np.ndarray[Any, Any]:
    return np.fromfile(exported, dtype="<i4")


@pytest.fixture(scope="module")
def reader(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cc = next((shutil.which(n) for n in ("cc", "gcc", "clang") if shutil.which(n)), None)
    if cc is None:
        pytest.skip("no C compiler found on PATH (tried cc, gcc, clang): the classic reader is not built")
    exe = tmp_path_factory.mktemp("handranks-reader") / "handranks_reader"
    r = subprocess.run([cc, *FLAGS, "-o", str(exe), str(SOURCE)], capture_output=True, text=True)
    assert r.returncode == 0, f"build failed:\n{r.stderr}"
    assert "warning" not in r.stderr, r.stderr
    return exe


@pytest.fixture(scope="module")
def reader_args(tmp_path_factory: pytest.TempPathFactory, tables: Tables) -> list[str]:
    """The expected-value table and our dag7 arrays, as the reader takes them after the file under test."""
    expected = tmp_path_factory.mktemp("handranks-expected") / "expected.bin"
    table = np.zeros(N_VALUES + 1, dtype="<i4")
    table[1:] = handranks_value(np.arange(1, N_VALUES + 1))
    table.tofile(expected)
    files = {f["role"]: f for f in tables.manifest["files"]}
    args = [str(expected)]
    for role in ROLES:
        f = files[role]
        args += [str(tables.path / f["name"]), str(f["offset"]), str(np.dtype(f["dtype"]).itemsize), str(f["shape"][0])]
    return args


def read_all(reader: Path, reader_args: list[str], path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(reader), str(path), *reader_args], capture_output=True, text=True, timeout=120)


def summary(stdout: str) -> dict[int, dict[str, Any]]:
    """The reader's summary lines, by hand size."""
    out = {}
    for line in stdout.splitlines():
        w = line.split()
        if w[0] == "hands":
            out[int(w[1])] = {
                "hands": int(w[2]),
                "mismatches": int(w[4]),
                "categories": tuple(map(int, w[6:15])),
                "invalid": int(w[16]),
            }
    return out


def first_hand_offsets(entries: np.ndarray[Any, Any]) -> list[int]:
    """Node offsets along 2c 2d 2h 2s 3c 3d (classic cards 1..6), the first hand the reader walks."""
    p, out = 53, []
    for c in range(1, 7):
        p = int(entries[p + c])
        out.append(p)
    return out


def damaged_copy(src: Path, dst: Path, changes: dict[int, int]) -> Path:
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        for index, value in changes.items():
            f.seek(4 * index)
            f.write(np.array([value], dtype="<i4").tobytes())
    return dst


# ------------------------------------------------------------ every hand


def test_every_hand_reads_our_value(reader: Path, reader_args: list[str], exported: Path) -> None:
    r = read_all(reader, reader_args, exported)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == ""
    got = summary(r.stdout)
    assert sorted(got) == [5, 6, 7]
    for n in (5, 6, 7):
        assert got[n]["hands"] == comb(52, n)
        assert got[n]["mismatches"] == 0
        assert got[n]["invalid"] == 0
        # Published counts, indexed like the classic categories 1..9.
        assert got[n]["categories"] == HAND_COUNTS[n][0]


def test_random_hands_in_any_card_order(entries: np.ndarray[Any, Any], tables: Tables) -> None:
    # The reader walks cards in ascending order; a classic caller may pass them in any order.
    rng = np.random.default_rng(17)
    for n in (5, 6, 7):
        hands = np.argsort(rng.random((50_000, 52)), axis=1)[:, :n]
        p = entries[53 + hands[:, 0] + 1]
        for k in range(1, n):
            p = entries[p + hands[:, k] + 1]
        if n < 7:
            p = entries[p]
        np.testing.assert_array_equal(p, handranks_value(evaluate_batch(hands, tables=tables)))


def test_size_and_layout(exported: Path, entries: np.ndarray[Any, Any], tables: Tables) -> None:
    nodes = tables.nodes["dag7"]
    assert exported.stat().st_size == 4 * 53 * (1 + sum(nodes))
    assert len(entries) < ORIGINAL_ENTRIES
    assert not entries[:53].any()  # the dummy node offsets 0..52 stand for
    assert entries[53] == 0  # the root holds no value


# ------------------------------------------------------- damaged files


@pytest.mark.parametrize("keep", ["none", "3 bytes", "no root", "half", "all but the last entry"])
def test_truncated_file_is_reported(
    reader: Path, reader_args: list[str], exported: Path, tmp_path: Path, keep: str
) -> None:
    size = exported.stat().st_size
    nbytes = {"none": 0, "3 bytes": 3, "no root": 4 * 105, "half": size // 8 * 4, "all but the last entry": size - 4}
    cut = tmp_path / "HandRanks.dat"
    with open(exported, "rb") as src, open(cut, "wb") as dst:
        dst.write(src.read(nbytes[keep]))
    r = read_all(reader, reader_args, cut)
    assert r.returncode == 2, r.stdout + r.stderr
    assert r.stderr.startswith("handranks_reader: error: ")
    assert "truncated" in r.stderr
    assert summary(r.stdout) == {}


@pytest.mark.parametrize("where", ["root", "depth 5"])
@pytest.mark.parametrize("value", ["one past the end", "negative", "int32 max"])
def test_pointer_outside_the_file_is_reported(
    reader: Path,
    reader_args: list[str],
    exported: Path,
    entries: np.ndarray[Any, Any],
    tmp_path: Path,
    where: str,
    value: str,
) -> None:
    offsets = first_hand_offsets(entries)
    # The slot of 2c at the root, or of 3d in the node of 2c 2d 2h 2s 3c.
    index = 53 + 1 if where == "root" else offsets[4] + 6
    bad = {"one past the end": len(entries) - 52, "negative": -1, "int32 max": 2**31 - 1}[value]
    r = read_all(reader, reader_args, damaged_copy(exported, tmp_path / "HandRanks.dat", {index: bad}))
    assert r.returncode == 2, r.stdout + r.stderr
    assert f"HR[{index}] = {bad} is no node inside a file of {len(entries)} entries" in r.stderr
    assert summary(r.stdout) == {}


def test_wrong_values_are_reported(
    reader: Path, reader_args: list[str], exported: Path, entries: np.ndarray[Any, Any], tmp_path: Path
) -> None:
    # The reader must be able to fail: change the 5-card value of 2c 2d 2h 2s 3c
    # and the 7-card value of 2c 2d 2h 2s 3c 3d 3h to other valid values.
    offsets = first_hand_offsets(entries)
    five, seven = offsets[4], offsets[5] + 7
    changes = {five: int(entries[five]) + 1, seven: int(entries[seven]) + 1}
    r = read_all(reader, reader_args, damaged_copy(exported, tmp_path / "HandRanks.dat", changes))
    assert r.returncode == 1, r.stdout + r.stderr
    got = summary(r.stdout)
    assert got[5]["mismatches"] >= 1 and got[7]["mismatches"] >= 1 and got[6]["mismatches"] == 0
    lines = r.stdout.splitlines()
    assert f"mismatch 5 cards {format_cards(range(5))}: read {changes[five]}, expected {entries[five]}" in lines[0]
    assert any(f"mismatch 7 cards {format_cards(range(7))}: read {changes[seven]}," in line for line in lines)


# ------------------------------------------------- deterministic, atomic


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_deterministic_with_a_progress_bar(
    exported: Path, tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("tqdm")
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    monkeypatch.setattr(progress, "DELAY", 0)  # the export may take less than the usual delay
    again = export_handranks(tmp_path / "again.dat", tables=tables)
    assert "HandRanks.dat" in terminal.getvalue()
    with open(exported, "rb") as a, open(again, "rb") as b:
        assert a.read() == b.read()
    assert os.listdir(tmp_path) == ["again.dat"]


def test_quiet_draws_nothing(tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal()
    monkeypatch.setattr("sys.stderr", terminal)
    export_handranks(str(tmp_path / "quiet.dat"), tables=tables, quiet=True)
    assert terminal.getvalue() == ""


@pytest.mark.parametrize(
    "step, error",
    [("write", OSError), ("write", KeyboardInterrupt), ("fsync", OSError), ("replace", KeyboardInterrupt)],
)
@pytest.mark.parametrize("existing", [True, False], ids=["over a file", "new file"])
def test_failure_leaves_no_temp_file_and_the_target_untouched(
    tables: Tables, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, step: str, error: type, existing: bool
) -> None:
    target = tmp_path / "HandRanks.dat"
    if existing:
        target.write_bytes(b"the previous file")
    # Named like a temporary file of ours, but not made by this export: it must stay.
    decoy = tmp_path / ".HandRanks.dat.tmp-1-00000000"
    decoy.write_bytes(b"someone else's")
    before = sorted(os.listdir(tmp_path))
    seen: list[str] = []

    def fail(*args: Any) -> None:
        seen.extend(n for n in os.listdir(tmp_path) if n not in before)
        raise error("injected")

    if step == "write":
        real = atomic.write_all
        calls = iter(range(100))

        def write(fd: int, block: Any) -> None:
            if next(calls) == 2:  # the dummy node and depth 0 are written, then the failure
                fail()
            real(fd, block)

        monkeypatch.setattr(atomic, "write_all", write)
    else:
        monkeypatch.setattr(atomic.os, step, fail)
    with pytest.raises(error, match="injected"):
        export_handranks(target, tables=tables, quiet=True)
    monkeypatch.undo()
    assert len(seen) == 1 and seen[0].startswith(".HandRanks.dat.tmp-"), seen
    assert sorted(os.listdir(tmp_path)) == before
    assert decoy.read_bytes() == b"someone else's"
    if existing:
        assert target.read_bytes() == b"the previous file"


# ------------------------------------------------------------ bad input


def test_bad_paths(tables: Tables, tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="is a directory"):
        export_handranks(tmp_path, tables=tables)
    with pytest.raises(ValueError, match="no such directory"):
        export_handranks(tmp_path / "missing" / "HandRanks.dat", tables=tables)
    with pytest.raises(TypeError, match="path must be a str or an os.PathLike, got int"):
        export_handranks(7, tables=tables)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="tables must be a Tables"):
        export_handranks(tmp_path / "x.dat", tables="tables")  # type: ignore[arg-type]
    assert os.listdir(tmp_path) == []
    if Path("/proc/self").is_dir():  # Linux: a directory in which no file can be created
        with pytest.raises(OSError, match="^/proc: cannot create a file there to write HandRanks.dat"):
            export_handranks("/proc/HandRanks.dat", tables=tables, quiet=True)


# ------------------------------------------------------- the value scale


def test_value_scale_round_trip_and_order() -> None:
    ours = np.arange(1, N_VALUES + 1)
    classic = handranks_value(ours)
    assert classic.dtype == np.int32
    assert np.all(np.diff(classic) > 0)  # stronger hands stay larger
    np.testing.assert_array_equal(value_from_handranks(classic), ours)
    np.testing.assert_array_equal(classic >> 12, categories(ours).astype(np.int32) + 1)
    # Ranks count 1, 2, ... from each category's weakest hand.
    rank = classic & 0xFFF
    for cat in range(9):
        mine = rank[(classic >> 12) == cat + 1]
        np.testing.assert_array_equal(mine, np.arange(1, len(mine) + 1))
        assert len(mine) == CATEGORY_LAST[cat] - CATEGORY_FIRST[cat] + 1
    for v in (1, 1277, 1278, 5854, 7140, 7462):
        c = handranks_value(v)
        assert type(c) is int and c == classic[v - 1]
        assert type(value_from_handranks(c)) is int and value_from_handranks(c) == v
    assert handranks_value(np.uint16(7462)) == 9 << 12 | 10
    assert handranks_value(ours.reshape(2, -1).astype(np.uint16)).shape == (2, N_VALUES // 2)


def test_only_hand_values_are_classic_values() -> None:
    valid = set(handranks_value(np.arange(1, N_VALUES + 1)).tolist())
    every = np.arange(-2, 10 << 12 | 2)  # every code of categories 0..10, and some negatives
    refused = []
    for c in every.tolist():
        try:
            value_from_handranks(c)
        except ValueError as e:
            refused.append(c)
            assert str(e) == f"not a classic HandRanks.dat value: {c} ({c:#x})"
    assert set(every.tolist()) - set(refused) == valid
    mask = np.isin(every, list(valid))
    np.testing.assert_array_equal(handranks_value(value_from_handranks(every[mask])), every[mask])
    for c in every[~mask][::997]:
        with pytest.raises(ValueError, match=f"value: {c} "):
            value_from_handranks(np.array([4097, c, 4098]))


@pytest.mark.parametrize("bad", [0, -1, N_VALUES + 1, np.int64(7463)])
def test_handranks_value_out_of_range(bad: Any) -> None:
    with pytest.raises(ValueError, match=f"got {int(bad)}"):
        handranks_value(bad)
    with pytest.raises(ValueError, match=f"got {int(bad)} at flat index 1"):
        handranks_value(np.array([1, bad]))


@pytest.mark.parametrize("bad", [1.0, "7462", True, np.bool_(True), None, [1, 2], np.array([1.0])])
def test_non_integers_are_refused(bad: Any) -> None:
    with pytest.raises(TypeError):
        handranks_value(bad)
    with pytest.raises(TypeError):
        value_from_handranks(bad)
    with pytest.raises(TypeError):
        handranks_value(np.ma.masked_array([1, 2]))


def test_the_command_line_writes_the_same_file(
    exported: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from twoplustwo.cli import main

    out = tmp_path / "cli.dat"
    assert main(["export-handranks", str(out)]) == 0
    assert f"wrote {out} ({exported.stat().st_size:,} bytes)" in capsys.readouterr().out
    assert out.read_bytes() == exported.read_bytes()
    assert main(["export-handranks", str(tmp_path)]) == 2  # a directory is not a file to write
    assert capsys.readouterr().err.startswith("twoplustwo: error: ")
