"""``info``, ``verify``, ``build``, ``abstraction``, ``install-tables`` (twoplustwo/cli/tableset.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from tests.cli.helpers import assert_one_error_line, linked_copy, run
from twoplustwo.cli import main
from twoplustwo.tables.format import MANIFEST


def info_dags(out: str) -> dict[str, list[str]]:
    """The rows of info's node table: DAG -> its cells (node counts, total, bytes)."""
    lines = out.split("nodes per depth:\n")[1].split("files:\n")[0].splitlines()
    assert lines[0].split() == ["dag", "nodes", "at", "depth", "0..", "total", "bytes"]
    return {line.split()[0]: line.split()[1:] for line in lines[1:]}


def dag_bytes(manifest: dict[str, Any]) -> dict[str, int]:
    out: dict[str, int] = {}
    for f in manifest["files"]:
        dag = f["role"].rpartition("/")[0]
        out[dag] = out.get(dag, 0) + f["nbytes"]
    return out


def test_info(capsys: pytest.CaptureFixture[str]) -> None:
    from twoplustwo.tables.default import get_tables

    code, out, err = run(["info"], capsys)
    assert (code, err) == (0, "")
    t = get_tables()
    assert str(t.path.resolve()) in out
    assert "format version  1" in out
    assert "strength        none (python -m twoplustwo_builder --strength, or make strength)" in out
    # Every DAG the set has files for, other games' too, hold'em's first.
    nbytes = dag_bytes(t.manifest)
    rows = info_dags(out)
    assert list(rows) == sorted(nbytes, key=lambda d: ("/" in d, d))
    assert {"dag5", "dag6", "dag7", "short-deck/dag7", "short-deck-classic/dag7"} <= set(rows)
    for dag, cells in rows.items():
        counts = t.nodes[dag]
        assert cells == [*map(str, counts), f"{sum(counts):,}", f"{nbytes[dag]:,}"], dag
    assert sum(nbytes.values()) == t.nbytes
    assert f"{t.nbytes:,}" in out
    assert "load time" in out and " ms" in out
    from twoplustwo.kernels.choice import backend, extension
    from twoplustwo.tables.system import describe

    core = extension()
    built = "built" if core is not None else "not built"
    assert f"backend         {backend()} (the C extension was {built}" in out
    if core is not None:  # the loop that runs, by the word $TWOPLUSTWO_BATCH_LOOP takes
        assert f"batch loop      {core.VECTOR_BATCHES} (" in out
        assert "$TWOPLUSTWO_BATCH_LOOP: one of " + ", ".join(core.BATCH_LOOPS) + "," in out
    assert "system          " + "; ".join(f"{job}: {how}" for job, how in describe().items()) in out
    for f in t.manifest["files"]:
        assert f["name"] in out and f["role"] in out


def test_info_shows_the_dags_the_set_has_files_for(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object
) -> None:
    # Node counts of DAGs without files are not the loader's to check, so info
    # shows none of them, whatever they hold.
    copy = linked_copy(tmp_path)
    m = json.loads((copy / MANIFEST).read_text())
    m["files"] = [f for f in m["files"] if not f["role"].startswith("short-deck-classic/")]
    m["nodes"]["dag8"] = "anything"
    m["nodes"]["omaha/dag9"] = [1, None]
    (copy / MANIFEST).write_text(json.dumps(m))
    use_tables(copy)  # type: ignore[operator]
    code, out, err = run(["info"], capsys)
    assert (code, err) == (0, "")
    rows = info_dags(out)
    games = {"short-deck/dag7", "razz/dag7", "lowball-27/dag5", "lowball-a5/dag5", "badugi/dag4"}
    assert list(rows)[:3] == ["dag5", "dag6", "dag7"] and set(list(rows)[3:]) == games
    assert rows["short-deck/dag7"][-1] == f"{dag_bytes(m)['short-deck/dag7']:,}"
    assert "short-deck-classic" not in out


def test_verify(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["verify"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith("ok ")
    assert "sha256" in out and "7-card category counts" in out


def test_verify_finds_a_flipped_byte(capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object) -> None:
    copy = linked_copy(tmp_path)
    m = json.loads((copy / MANIFEST).read_text())
    name = next(f["name"] for f in m["files"] if f["role"] == "dag5/layer3")
    data = bytearray((copy / name).read_bytes())
    (copy / name).unlink()  # a real copy, never a write through the symlink
    data[-1] ^= 0x80
    (copy / name).write_bytes(bytes(data))
    use_tables(copy)  # type: ignore[operator]
    line = assert_one_error_line(*run(["verify"], capsys))
    assert name in line and "sha256" in line
    assert main(["verify"]) == 1


@pytest.mark.parametrize("args", [["eval", "As Ks Qs Js Ts"], ["info"], ["verify"]])
def test_missing_tables_exit_1(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object, args: list[str]
) -> None:
    use_tables(tmp_path / "empty")  # type: ignore[operator]
    line = assert_one_error_line(*run(args, capsys))
    assert "no tables at" in line and "twoplustwo build" in line
    assert main(args) == 1


def test_damaged_manifest_exit_1(capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object) -> None:
    copy = linked_copy(tmp_path)
    (copy / MANIFEST).write_text('{"format_version": 2}')
    use_tables(copy)  # type: ignore[operator]
    line = assert_one_error_line(*run(["info"], capsys))
    assert "format version 2" in line


def _fake_builder(calls: list[list[str]], code: int) -> object:
    """A stand-in for subprocess.Popen of the builder: records its argv, exits with ``code``."""

    class Builder:
        def __init__(self, argv: list[str]) -> None:
            calls.append(list(argv))

        def wait(self) -> int:
            return code

    return Builder


def test_build_runs_the_builder_as_its_own_program(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", _fake_builder(calls, 0))
    assert main(["build", "--out", str(tmp_path), "--quiet", "--no-check"]) == 0
    assert main(["build"]) == 0
    prog = [sys.executable, "-m", "twoplustwo_builder"]
    assert calls == [prog + ["--out", str(tmp_path), "--quiet", "--no-check"], prog]


def test_build_exit_code_is_the_builders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subprocess, "Popen", _fake_builder([], 1))
    assert main(["build", "--quiet"]) == 1


def test_build_without_the_builder_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "twoplustwo_builder" else real(name, *a)
    )
    assert main(["build", "--quiet"]) == 1
    assert "twoplustwo-builder" in capsys.readouterr().err


def test_install_tables_missing_bundle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(["install-tables", str(tmp_path / "no-such.bundle"), "--to", str(tmp_path / "t")], capsys)
    assert_one_error_line(code, out, err)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["abstraction", "--street", "preflop", "--method", "emd", "--k", "9"], "invalid choice: 'preflop'"),
        (["abstraction", "--street", "flop", "--method", "kmeans", "--k", "9"], "invalid choice: 'kmeans'"),
        (["abstraction", "--street", "flop", "--method", "emd"], "the following arguments are required: --k"),
        (["abstraction", "--street", "flop", "--method", "emd", "--k", "x"], "invalid int value: 'x'"),
    ],
)
def test_abstraction_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    line = assert_one_error_line(*run(args, capsys))
    assert message in line


def test_abstraction_runs_the_builder(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """The command hands its arguments to ``python -m twoplustwo_builder --abstraction``, the builder's own program."""
    seen: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", _fake_builder(seen, 0))
    code, _, _ = run(["abstraction", "--street", "river", "--method", "ochs", "--k", "50", "--seed", "3",
                      "--out", "somewhere", "--quiet"], capsys)  # fmt: skip
    assert code == 0
    assert seen[0][1:] == ["-m", "twoplustwo_builder", "--abstraction", "--street", "river", "--method", "ochs", "--k",
                           "50", "--seed", "3", "--max-iter", "100", "--out", "somewhere", "--quiet"]  # fmt: skip


def test_install_tables_with_a_stub(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    asked: list[bool] = []

    def install_bundle(bundle: str, to: Path | None = None, *, quiet: bool = False) -> Path:
        if bundle == "bad":
            raise ValueError("bad: not a twoplustwo bundle")
        asked.append(quiet)
        return to or tmp_path

    monkeypatch.setitem(sys.modules, "twoplustwo.tables.bundle", SimpleNamespace(install_bundle=install_bundle))
    code, out, err = run(["install-tables", "x.bundle", "--to", str(tmp_path / "t")], capsys)
    assert (code, err) == (0, "")
    assert out == f"tables installed to {tmp_path / 't'}\n"
    assert run(["install-tables", "x.bundle", "--quiet"], capsys)[0] == 0
    assert asked == [False, True]  # --quiet reaches the install (no bar)
    line = assert_one_error_line(*run(["install-tables", "bad"], capsys))
    assert line == "twoplustwo: error: bad: not a twoplustwo bundle"


FLOP_EMD = ["abstraction", "--street", "flop", "--method", "emd", "--k", "5"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*FLOP_EMD[:-1], "0"], "--k must be from 1 to 65536, got 0"),
        ([*FLOP_EMD[:-1], "70000"], "--k must be from 1 to 65536, got 70000"),
        ([*FLOP_EMD, "--seed", "-1"], "--seed must be at least 0, got -1"),
        ([*FLOP_EMD, "--max-iter", "0"], "--max-iter must be at least 1, got 0"),
        (
            ["abstraction", "--street", "river", "--method", "emd", "--k", "5"],
            "--method must be one of 'ochs', 'percentile' on the river, got 'emd'",
        ),
        (
            ["abstraction", "--street", "turn", "--method", "potential", "--k", "5"],
            "--method must be one of 'emd', 'percentile' on the turn, got 'potential'",
        ),
        (
            ["abstraction", "--street", "flop", "--method", "potential", "--k", "2049"],
            "--k of potential buckets is at most 2048 (they are over as many turn buckets), got 2049",
        ),
        (
            [*FLOP_EMD, "--dask-timeout", "0"],
            "--dask-timeout must be a number of seconds above 0 and at most 86400, got 0",
        ),
        (
            [*FLOP_EMD, "--dask-timeout", "nan"],
            "--dask-timeout must be a number of seconds above 0 and at most 86400, got nan",
        ),
        (
            [*FLOP_EMD, "--dask", "tcp://127.0.0.1:8786", "--dask-timeout", "-1"],
            "--dask-timeout must be a number of seconds above 0 and at most 86400, got -1",
        ),
        (
            [*FLOP_EMD, "--dask", "tcp://127.0.0.1:99999"],
            "--dask 'tcp://127.0.0.1:99999': port 99999 is not in 1..65535",
        ),
        ([*FLOP_EMD, "--dask", " "], "--dask needs a scheduler address such as tcp://host:8786, got ' '"),
        (
            [*FLOP_EMD, "--dask", "somewhere"],
            "--dask 'somewhere' is not a scheduler address such as tcp://host:8786: missing port number in address "
            "'somewhere'",
        ),
    ],
    ids=lambda a: " ".join(a[2:]) if isinstance(a, list) else None,
)
def test_abstraction_checks_its_arguments_before_starting_the_builder(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    # Once handed on unchecked: the builder's 7-line usage, or "bucket table failed: ..." with exit 1.
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", _fake_builder(started, 0))
    code, out, err = run(args, capsys)
    assert code == 2
    assert assert_one_error_line(code, out, err) == f"twoplustwo: error: {message}"
    assert started == []


def test_abstraction_and_build_refuse_an_out_that_is_no_directory(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    started: list[list[str]] = []
    monkeypatch.setattr(subprocess, "Popen", _fake_builder(started, 0))
    file = tmp_path / "file"
    file.write_text("")
    for out in (file, file / "tables", file / "a" / "b"):
        for args in (["build", "--quiet"], FLOP_EMD):
            code, stdout, err = run([*args, "--out", str(out)], capsys)
            assert code == 2
            line = assert_one_error_line(code, stdout, err)
            assert line == f"twoplustwo: error: --out {out}: {file} is not a directory"
    assert started == []
    # A directory that does not exist yet is the builder's to make.
    assert main(["build", "--quiet", "--out", str(tmp_path / "new" / "tables")]) == 0
    assert main([*FLOP_EMD, "--out", str(tmp_path), "--dask", "tcp://127.0.0.1:8786"]) == 0
    assert len(started) == 2
