"""The ``twoplustwo`` command: run in-process through ``main`` and once as ``python -m twoplustwo``."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from twoplustwo.cli import main
from twoplustwo.hands.batch import best_five
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.tables.default import clear_cache
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import ENV_VAR, default_path
from twoplustwo.vocab.cards import parse_words as parse_hand

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_error_line(code: int, out: str, err: str) -> str:
    assert code != 0
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("twoplustwo: error: ")
    assert "Traceback" not in err
    return lines[0]


@pytest.fixture
def use_tables(monkeypatch: pytest.MonkeyPatch) -> Iterator[object]:
    """Point the default tables at a directory, forgetting what was loaded."""

    def use(path: Path) -> None:
        monkeypatch.setenv(ENV_VAR, str(path))
        clear_cache()

    yield use
    clear_cache()


def linked_copy(tmp_path: Path) -> Path:
    """The table set as symlinks, with a real copy of the manifest."""
    dst = tmp_path / "tables"
    shutil.copytree(
        default_path().resolve(), dst, copy_function=os.symlink, ignore=shutil.ignore_patterns(".*")
    )
    m = dst / MANIFEST
    text = m.read_text()
    m.unlink()
    m.write_text(text)
    return dst


# ------------------------------------------------------------------------ eval


def test_eval_royal_flush(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["eval", "As Ks Qs Js Ts 2c 3d"], capsys)
    assert (code, err) == (0, "")
    fields = {line[:12].strip(): line[13:] for line in out.splitlines()}
    assert fields["value"] == "7462"
    assert fields["category"] == "straight_flush"
    assert fields["code"] == "0x8cba98"
    assert fields["description"] == "Royal flush"
    assert fields["best five"] == "As Ks Qs Js Ts"
    assert fields["hand"] == "As Ks Qs Js Ts 2c 3d"


def test_eval_separate_words_one_string_and_ints_agree(capsys: pytest.CaptureFixture[str]) -> None:
    _, one, _ = run(["eval", "As Kd 7h 7c 2s 3d 9c"], capsys)
    _, many, _ = run(["eval", "As", "Kd", "7h", "7c", "2s", "3d", "9c"], capsys)
    _, packed, _ = run(["eval", "AsKd7h7c2s3d9c"], capsys)
    _, ints, _ = run(["eval", "51", "45", "22", "20", "3", "5", "28"], capsys)
    assert one == many == packed == ints
    assert "Pair of sevens, ace, king and nine kickers" in one
    assert "best five    As Kd 7h 7c 9c" in one


@pytest.mark.parametrize(
    ("cards", "value", "category", "best"),
    [
        ("7c 5d 4h 3s 2c", 1, "high_card", "7c 5d 4h 3s 2c"),
        ("Ac 2d 3h 4s 5c 6d", 5855, "straight", "2d 3h 4s 5c 6d"),
        ("Kc Kd Kh 7s 7c 7d 2h", 7278, "full_house", "Kc Kd Kh 7s 7c"),
    ],
)
def test_eval_json(capsys: pytest.CaptureFixture[str], cards: str, value: int, category: str, best: str) -> None:
    code, out, err = run(["eval", "--json", cards], capsys)
    assert (code, err) == (0, "")
    doc = json.loads(out)
    assert doc["value"] == value
    assert doc["category"] == category
    assert doc["best_five"] == best.split()
    assert doc["cards"] == cards.split()
    assert doc["code"].startswith("0x") and len(doc["code"]) == 8
    assert doc["description"]


def test_best_five_has_the_hand_value() -> None:
    from twoplustwo.hands.batch import evaluate

    hand = parse_hand(["2h 5h 9h Th Jh Qc Ks"])
    five = best_five(hand)
    assert len(five) == 5 and set(five) <= set(hand)
    assert evaluate(five) == evaluate(hand)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["eval", "As Kd Qh Jc Xs"], "unknown rank 'X'"),
        (["eval", "As Kd Qh Jc Tx"], "unknown suit 'x'"),
        (["eval", "As Kd Qh Jc As"], "duplicate of card 0"),
        (["eval", "As Kd Qh Jc"], "got 4"),
        (["eval", "As Kd Qh Jc Ts 9s 8s 7s"], "got 8"),
        (["eval", "51", "51", "1", "2", "3"], "duplicate"),
        (["eval", "51", "52", "1", "2", "3"], "out of range"),
        (["eval"], "required"),
        ([], "required"),
        (["shuffle"], "invalid choice"),
        (["eval", "--bogus", "As Kd Qh Jc Ts"], "unrecognized arguments"),
        (["enumerate", "-n", "4"], "invalid choice"),
        (["enumerate", "--dead", "Zz"], "unknown rank"),
        (["enumerate", "--include", "As", "--dead", "As"], "As is in both"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else None,
)
def test_bad_input_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    line = assert_one_error_line(*run(args, capsys))
    assert message in line
    assert main(args) == 2


@pytest.mark.parametrize("option", ["--samples", "--stderr", "--threads"])
def test_a_huge_bad_value_is_echoed_short(capsys: pytest.CaptureFixture[str], option: str) -> None:
    value = "1" * 5000 + "x"
    line = assert_one_error_line(*run(["equity", "AsAh", "KdKc", option, value], capsys))
    assert f"'{'1' * 40}...'" in line and len(line) < 200, line


# ------------------------------------------------------------ info and verify


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
    if core is not None and core.VECTOR_BATCHES:
        built += "; batches of whole hands in AVX-512"
    assert f"backend         {backend()} (the C extension was {built}" in out
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
    assert list(rows) == ["dag5", "dag6", "dag7", "short-deck/dag7"]
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


# ------------------------------------------------------------------- build


def _fake_run(calls: list[list[str]], code: int) -> object:
    def run(argv: list[str], check: bool = False) -> subprocess.CompletedProcess[str]:
        calls.append(list(argv))
        return subprocess.CompletedProcess(argv, code)

    return run


def test_build_runs_the_builder_as_its_own_program(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls: list[list[str]] = []
    monkeypatch.setattr(subprocess, "run", _fake_run(calls, 0))
    assert main(["build", "--out", str(tmp_path), "--quiet", "--no-check"]) == 0
    assert main(["build"]) == 0
    prog = [sys.executable, "-m", "twoplustwo_builder"]
    assert calls == [prog + ["--out", str(tmp_path), "--quiet", "--no-check"], prog]


def test_build_exit_code_is_the_builders(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subprocess, "run", _fake_run([], 1))
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


# ------------------------------------------------- enumerate, equity, bundles


def test_enumerate_five_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["enumerate", "-n", "5"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].split() == ["category", "hands", "probability"]
    rows = {line.split()[0]: line.split()[1:] for line in lines[2:]}
    assert rows["straight_flush"] == ["40", "0.000015390772"]
    assert rows["four_of_a_kind"] == ["624", "0.000240096038"]
    assert rows["high_card"] == ["1,302,540", "0.501177394035"]
    assert rows["total"] == ["2,598,960", "1.000000000000"]
    assert "distinct values: 7,462" in out


def test_enumerate_seven_cards(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["enumerate"], capsys)
    assert code == 0
    assert "41,584" in out and "133,784,560" in out and "distinct values: 4,824" in out


def test_enumerate_with_include_and_dead(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["enumerate", "-n", "5", "--include", "As Ks Qs Js", "--dead", "Ts"], capsys)
    assert (code, err) == (0, "")
    rows = {line.split()[0]: line.split()[1:] for line in out.splitlines()[2:]}
    # 47 fifth cards: the 8 spades 2s..9s make a flush (no royal: Ts is dead),
    # the other three tens a straight, the 12 other aces..jacks a pair, 24 nothing.
    assert rows["total"][0] == "47"
    assert rows["straight_flush"][0] == "0"
    assert rows["flush"][0] == "8"
    assert rows["straight"][0] == "3"
    assert rows["pair"][0] == "12"
    assert rows["high_card"][0] == "24"
    assert rows["four_of_a_kind"] == ["0", "0.000000000000"]
    assert "include: As Ks Qs Js; dead: Ts" in out


def test_equity(capsys: pytest.CaptureFixture[str]) -> None:
    # The published heads-up figure: AsAh against KdKc before the flop.
    code, out, err = run(["equity", "AsAh", "KdKc"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "board: none; dead: none"
    assert lines[1].split() == ["player", "win", "%", "tie", "%", "equity", "%", "wins", "ties", "games"]
    aces, kings = (line.split() for line in lines[2:4])
    assert aces[:2] == ["As", "Ah"] and kings[:2] == ["Kd", "Kc"]
    assert aces[5:] == ["1,388,072", "6,538", "1,712,304"]
    assert kings[5:] == ["317,694", "6,538", "1,712,304"]
    assert aces[2] == f"{100 * 1_388_072 / 1_712_304:.3f}"
    assert float(aces[4]) + float(kings[4]) == pytest.approx(100, abs=0.002)


def test_equity_with_a_board(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["equity", "AsAh", "KsKh", "--board", "2c 7d 9s"], capsys)
    assert code == 0
    aces, kings = (line.split() for line in out.splitlines()[2:4])
    assert aces[-1] == kings[-1] == "990"  # C(45, 2) turns and rivers


def test_equity_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    line = assert_one_error_line(*run(["equity", "AsAh", "AsKh"], capsys))
    assert "As" in line


def test_install_tables_missing_bundle(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(["install-tables", str(tmp_path / "no-such.bundle"), "--to", str(tmp_path / "t")], capsys)
    assert_one_error_line(code, out, err)


def test_equity_table_with_a_stub(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The handler's parsing and layout, apart from the equity computation.
    calls: list[tuple[object, ...]] = []

    def equity(hands: list[list[int]], board: object = (), dead: object = (), **kwargs: object) -> list[PlayerEquity]:
        calls.append((hands, board, dead, kwargs))
        return [PlayerEquity("As Ah", 990, 800, 10, 805 / 990), PlayerEquity("Ks Kh", 990, 180, 10, 185 / 990)]

    from twoplustwo.odds.calculate import equity_table

    stub = SimpleNamespace(equity=equity, equity_table=equity_table)
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.calculate", stub)
    code, out, err = run(["equity", "AsAh", "Ks Kh", "--board", "2c 7d", "--board", "9s", "--dead", "3c"], capsys)
    assert (code, err) == (0, "")
    options = {"game": "holdem", "method": "auto", "stderr": None, "samples": None, "seed": None, "threads": None,
               "quiet": False}
    assert calls == [([[51, 50], [47, 46]], [0, 21, 31], [4], options)]
    lines = out.splitlines()
    assert lines[0] == "board: 2c 7d 9s; dead: 3c"
    assert lines[2].split() == ["As", "Ah", "80.808", "1.010", "81.313", "800", "10", "990"]
    assert lines[3].split() == ["Ks", "Kh", "18.182", "1.010", "18.687", "180", "10", "990"]


def test_equity_of_ranges(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["equity", "QQ+,AKs", "AK", "--board", "Qh 7c 2d"], capsys)
    assert (code, err) == (0, "")
    hero, villain = (line.split() for line in out.splitlines()[2:4])
    # The figures of twoplustwo.equity's docstring, checked there against a brute force.
    assert hero == ["QQ+,AKs", "75.333", "19.091", "84.879", "134,244", "34,020", "178,200"]
    assert villain[0] == "AK" and villain[-1] == "178,200"


def test_equity_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["equity", "AsAh", "KK", "--mc", "--samples", "50000", "--seed", "9", "--threads", "1"]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[1].split() == ["player", "win", "%", "tie", "%", "equity", "%", "±", "%", "wins", "ties", "games"]
    aces = lines[2].split()
    assert aces[-1] == "50,000" and 0 < float(aces[5]) < 1  # a standard error in percent
    assert abs(float(aces[4]) - 81.9) < 4 * float(aces[5]) + 0.1  # AA against KK: about 82%
    assert run(argv, capsys)[1] == out  # the same seed, the same run


def test_equity_of_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib

    from twoplustwo.cli.odds import EQUITY_GAMES

    # Written twice so that the command line imports no numpy before it must.
    assert EQUITY_GAMES == importlib.import_module("twoplustwo.odds.calculate").EQUITY_GAMES
    argv = ["equity", "As Kh Qs 2d", "Ah Ks 5c 4c", "--game", "omaha-hilo", "--board", "2h 3d 4d"]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "game: omaha-hilo; board: 2h 3d 4d; dead: none"
    # The figures tests/odds/test_omaha_equity.py checks against a brute force.
    assert lines[3].split() == ["Ah", "Ks", "5c", "4c", "83.537", "16.463", "92.409", "685", "135", "820"]
    code, out, err = run(["equity", "AsKs", "QhQd", "--game", "short-deck"], capsys)
    assert (code, err) == (0, "") and out.splitlines()[2].split()[-1] == "201,376"  # C(32, 5) boards
    line = assert_one_error_line(*run(["equity", "AsKs", "2c2d", "--game", "short-deck"], capsys))
    assert "not in the short-deck deck" in line


def _stub_preflop(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, tuple[object, ...], dict[str, object]]]:
    """The preflop module with its computations recorded and answered with AA's published counts; draw_png recorded."""
    from twoplustwo.odds import charts

    calls: list[tuple[str, tuple[object, ...], dict[str, object]]] = []
    aa = PlayerEquity("AA", 2_097_572_400, 1_781_508_418, 11_402_312, 0.8520371330210104)

    def record(name: str, result: object) -> Any:
        def fn(*args: object, **kwargs: object) -> object:
            calls.append((name, args, kwargs))
            return result

        return fn

    stub = SimpleNamespace(
        preflop_vs_random=record("vs_random", {"AA": aa}),
        preflop_matchups=record("matchups", {("AA", "KK"): aa}),
    )
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.preflop", stub)
    monkeypatch.setattr(charts, "draw_png", record("png", None))
    return calls


def test_preflop_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = _stub_preflop(monkeypatch)
    code, out, err = run(["preflop", "--classes", "AA, KK", "--threads", "1", "--quiet"], capsys)
    assert (code, err) == (0, "")
    assert calls == [("vs_random", (["AA", "KK"],), {"threads": 1, "executor": None, "quiet": True})]
    assert out.splitlines()[1].split() == ["AA", "84.932", "0.544", "85.204", "1,781,508,418", "11,402,312",
                                           "2,097,572,400"]
    calls.clear()
    csv_file, png = tmp_path / "grid.csv", tmp_path / "aa.png"
    code, out, err = run(["preflop", "--grid", "--vs", "KK", "--csv", str(csv_file)], capsys)
    assert (code, out, err) == (0, "", f"wrote 1 row to {csv_file}\n")  # --csv alone prints only what it wrote
    assert calls == [("matchups", (None, ["KK"]), {"threads": None, "executor": None, "quiet": False})]
    assert csv_file.read_text().splitlines() == [
        "class_a,class_b,wins,ties,losses,games,equity",
        "AA,KK,1781508418,11402312,304661670,2097572400,0.8520371330210104",
    ]
    calls.clear()
    assert run(["preflop", "--png", str(png)], capsys)[0] == 0
    assert [c[0] for c in calls] == ["vs_random", "png"] and calls[1][1][1] == png


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["preflop", "--grid", "--png", "x.png"], "--png draws the table against a random hand"),
        (["preflop", "--vs", "AA"], "--vs names the columns of --grid"),
        (["preflop", "--classes", "AA,AAs"], "AAs"),
    ],
)
def test_preflop_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    line = assert_one_error_line(*run(args, capsys))
    assert message in line


def test_preflop_on_a_dask_cluster_needs_distributed(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stub_preflop(monkeypatch)
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    line = assert_one_error_line(*run(["preflop", "--dask", "tcp://127.0.0.1:8786"], capsys))
    assert "pip install 'twoplustwo[dask]'" in line


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
    import subprocess

    seen: list[list[str]] = []

    def fake_run(argv: list[str], check: bool) -> subprocess.CompletedProcess[str]:
        seen.append(argv)
        return subprocess.CompletedProcess(argv, 0)

    monkeypatch.setattr(subprocess, "run", fake_run)
    code, _, _ = run(["abstraction", "--street", "river", "--method", "ochs", "--k", "50", "--seed", "3",
                      "--out", "somewhere", "--quiet"], capsys)  # fmt: skip
    assert code == 0
    assert seen[0][1:] == ["-m", "twoplustwo_builder", "--abstraction", "--street", "river", "--method", "ochs", "--k",
                           "50", "--seed", "3", "--max-iter", "100", "--out", "somewhere", "--quiet"]  # fmt: skip


def test_range_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["range", "KK+, [50]AKs[/50]", "--per-line", "4"], capsys)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == "range   KK+,[50]AKs[/50]"
    assert lines[1] == "combos  16 of 1,326 (1.056% weighted)"  # 12 + 4 x 0.5 of 1,326
    cells = ", ".join(lines[2:]).split(", ")
    assert len(cells) == 16 and all(len(line.split(", ")) <= 4 for line in lines[2:])
    assert "Ac Kc [50%]" in cells and "As Ah" in cells


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["range", "AAs"], "item 1 ('AAs') at offset 0: a pair cannot be suited or offsuit"),
        (["range", "AA", "--per-line", "0"], "--per-line must be at least 1, got 0"),
        (["equity", "AsAh", "QQ+,AKx"], "player 2: item 2 ('AKx')"),
        (["equity", "AsAx", "KsKh"], "player 1: not a hand (card 1 ('Ax'): unknown suit 'x'"),
        (["equity", "AsAh", "KK", "--exact", "--seed", "1"], "--exact takes none of them"),
        (["equity", "AsAh", "KK", "--mc", "--exact"], "not allowed with argument"),
    ],
)
def test_range_and_equity_errors(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    line = assert_one_error_line(*run(args, capsys))
    assert message in line


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["equity", "AsAh", "AsKh"], "As is in both hand 1 and hand 2"),
        (["equity", "AsAh", "KsKh", "--board", "Ah"], "Ah is in both hand 1 and the board"),
        (["equity", "AsAh", "KsKh", "--dead", "Ks"], "Ks is in both hand 2 and the dead cards"),
    ],
)
def test_equity_overlapping_cards(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, args: list[str], message: str
) -> None:
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.calculate", SimpleNamespace(equity=lambda *a, **k: []))
    line = assert_one_error_line(*run(args, capsys))
    assert message in line


def test_enumerate_passes_include_and_dead(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    import twoplustwo.hands.histograms as exhaustive

    real = exhaustive.histogram
    seen: list[dict[str, object]] = []

    def histogram(n: int, **options: object) -> object:
        seen.append({"n": n, **options})
        return real(n)

    monkeypatch.setattr(exhaustive, "histogram", histogram)
    assert run(["enumerate", "-n", "6", "--include", "AsKs", "--dead", "2c", "--dead", "3c 4c"], capsys)[0] == 0
    assert seen == [{"n": 6, "include": [51, 47], "dead": [0, 4, 8]}]


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


# -------------------------------------------------------------- misc and -m


def test_help_and_version(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    assert "eval" in capsys.readouterr().out
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("twoplustwo ")


def _python_m(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "twoplustwo", *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=120
    )


def test_python_m_eval() -> None:
    p = _python_m("eval", "As", "Ks", "Qs", "Js", "Ts", "2c", "3d")
    assert p.returncode == 0, p.stderr
    assert "7462" in p.stdout and "straight_flush" in p.stdout and "Royal flush" in p.stdout


def test_python_m_bad_input() -> None:
    p = _python_m("eval", "As Ks Qs Js Xs")
    assert p.returncode == 2
    assert p.stdout == ""
    assert p.stderr.splitlines() == ["twoplustwo: error: card 4 ('Xs'): unknown rank 'X'"]


# ---------------------------------------------------------------- eval omaha


def _omaha_deals(n: int, seed: int) -> list[tuple[list[int], list[int]]]:
    """``n`` random Omaha deals: 4-6 hole cards and a board of 3-5, all sizes in turn."""
    import random

    rng = random.Random(seed)
    deals = []
    for i in range(n):
        cards = rng.sample(range(52), 11)
        h, b = 4 + i % 3, 3 + (i // 3) % 3
        deals.append((cards[:h], cards[h : h + b]))
    return deals


def _brute_force_omaha(hole: list[int], board: list[int]) -> tuple[int, int]:
    """High (hold'em value) and eight-or-better low (0..56) by trying every two hole and three board cards."""
    from itertools import combinations

    from twoplustwo.hands.batch import evaluate

    high, low = 0, 0
    for pair in combinations(hole, 2):
        for three in combinations(board, 3):
            five = [*pair, *three]
            high = max(high, evaluate(five))
            low = max(low, _low_of(five))
    return high, low


def _low_of(five: list[int]) -> int:
    """The eight-or-better low value (1..56, 0 for none) of five cards, from the ranks themselves."""
    from twoplustwo.vocab.lows import LOW_MASKS, N_LOWS

    ranks = {c >> 2 for c in five if c >> 2 <= 6 or c >> 2 == 12}  # deuce..eight and the ace
    if len(ranks) != 5:
        return 0
    # The ace is bit 0 and the rank r (0 = deuce) bit r + 1; LOW_MASKS lists the lows best first.
    mask = sum(1 if r == 12 else 1 << (r + 1) for r in ranks)
    return N_LOWS - LOW_MASKS.index(mask)


def _legal_five(five: list[str], hole: list[int], board: list[int]) -> list[int]:
    cards = parse_hand(five)
    assert len(cards) == 5 and len(set(cards) & set(hole)) == 2 and len(set(cards) & set(board)) == 3
    return cards


def test_eval_omaha_matches_the_library_and_a_brute_force(capsys: pytest.CaptureFixture[str]) -> None:
    import twoplustwo
    from twoplustwo.hands.batch import evaluate
    from twoplustwo.vocab.cards import format_cards

    lows = 0
    for hole, board in _omaha_deals(45, seed=5):
        argv = ["eval", "--game", "omaha-hilo", format_cards(hole), "--board", format_cards(board), "--json"]
        code, out, err = run(argv, capsys)
        assert (code, err) == (0, ""), argv
        doc = json.loads(out)
        value, low = twoplustwo.evaluate_omaha(hole, board), twoplustwo.evaluate_omaha_low(hole, board)
        assert (doc["value"], doc["low_value"]) == (value, low) == _brute_force_omaha(hole, board), argv
        d = twoplustwo.describe(value)
        assert (doc["category"], doc["description"], doc["code"]) == (str(d.category), d.description, f"0x{d.code:06x}")
        assert (doc["cards"], doc["board"], doc["game"]) == (format_cards(hole).split(), format_cards(board).split(),
                                                             "omaha-hilo")
        assert evaluate(_legal_five(doc["best_five"], hole, board)) == value
        assert doc["low"] == twoplustwo.describe_low(low)
        if low:
            lows += 1
            assert _low_of(_legal_five(doc["low_five"], hole, board)) == low
        else:
            assert doc["low_five"] is None
        # Plain Omaha: the same high, and nothing about a low.
        high = json.loads(run([*argv[:2], "omaha", *argv[3:]], capsys)[1])
        assert high["value"] == value and high["game"] == "omaha" and "low" not in high and "low_value" not in high
    assert lows >= 3  # both kinds of answer were seen


def test_eval_omaha_text(capsys: pytest.CaptureFixture[str]) -> None:
    import twoplustwo

    # The board may be given in parts, as --board of equity takes it.
    code, out, err = run(["eval", "--game", "omaha-hilo", "As", "2d Kc Kd", "--board", "3h 6c", "--board", "8d Qs Js"],
                         capsys)
    assert (code, err) == (0, "")
    fields = {line[:12].strip(): line[13:] for line in out.splitlines()}
    value = twoplustwo.evaluate_omaha("As 2d Kc Kd", "3h 6c 8d Qs Js")
    assert list(fields) == ["hand", "board", "game", "value", "category", "code", "description", "best five",
                            "low value", "low", "low five"]
    assert fields["hand"] == "As 2d Kc Kd" and fields["board"] == "3h 6c 8d Qs Js" and fields["game"] == "omaha-hilo"
    assert fields["value"] == str(value) and fields["description"] == twoplustwo.describe(value).description
    assert fields["low value"] == "30" and fields["low"] == "8-6-3-2-A" and fields["low five"] == "As 2d 3h 6c 8d"
    # One low board card: no low. Plain Omaha prints no low lines; PLO6 on a flop works.
    code, out, _ = run(["eval", "--game", "omaha-hilo", "As 2d Kc Kd", "--board", "3h 9c Td Qs Js"], capsys)
    assert "low value    0\nlow          no qualifying low\nlow five     none\n" in out
    code, out, err = run(["eval", "--game", "omaha", "Ah Kh 2c 3d 4s 5s", "--board", "Qh Jh Th"], capsys)
    assert (code, err) == (0, "")
    assert "description  Royal flush\nbest five    Ah Kh Qh Jh Th\n" in out and "low" not in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "omaha", "As Kd Qh", "--board", "2c 3c 4c"], "an Omaha hand has 4, 5 or 6 hole cards, got 3"),
        (["--game", "omaha", "As Kd Qh Jh Th 9h 8h", "--board", "2c 3c 4c"],
         "an Omaha hand has 4, 5 or 6 hole cards, got 7"),
        (["--game", "omaha-hilo", "As Kd Qh Jh", "--board", "2c 3c"], "an Omaha board has 3, 4 or 5 cards, got 2"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c 3c 4c 5c 6c 7c"],
         "an Omaha board has 3, 4 or 5 cards, got 6"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c Kd 4c"], "Kd is in both the hole cards and the board"),
        (["--game", "omaha", "As Kd Qh As", "--board", "2c 3c 4c"],
         "the hole cards: card 3 ('As'): duplicate of card 0"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "2c 2c 4c"], "the board: card 1 ('2c'): duplicate of card 0"),
        (["--game", "omaha", "As Kd Qh Jh", "--board", "Xc 3c 4c"], "the board: card 0 ('Xc'): unknown rank 'X'"),
        (["--game", "omaha", "As Kd Qh Jh"], "--game omaha needs the board: --board CARDS (3, 4 or 5 cards)"),
        (["As Kd Qh Jh Th", "--board", "2c"],
         "--board is for --game omaha and omaha-hilo; a holdem hand is all in CARDS"),
    ],
    ids=lambda a: " ".join(a) if isinstance(a, list) else None,
)
def test_eval_omaha_errors(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, use_tables: object, args: list[str], message: str
) -> None:
    # Checked before any table is needed: the same line with no tables at all.
    use_tables(tmp_path / "none")  # type: ignore[operator]
    code, out, err = run(["eval", *args], capsys)
    assert code == 2
    assert assert_one_error_line(code, out, err) == f"twoplustwo: error: {message}"


# ------------------------------------------------------------ equity --combos


def _combo_blocks(out: str) -> dict[str, list[list[str]]]:
    """``equity --combos`` output: each block's heading -> its rows as [combo, equity %, games]."""
    blocks = out.split("\n\n")[1:]
    found = {}
    for block in blocks:
        lines = block.splitlines()
        assert lines[1].split() == ["combo", "equity", "%", "games"]
        assert len({len(line) for line in lines[1:]}) == 1  # aligned
        found[lines[0]] = [[" ".join(line.split()[:-2]), *line.split()[-2:]] for line in lines[2:]]
    return found


def test_equity_combos_exact(capsys: pytest.CaptureFixture[str]) -> None:
    from twoplustwo.odds.calculate import equity
    from twoplustwo.vocab.cards import format_cards

    board = "Qh 7c 2d"
    code, out, err = run(["equity", "AKs", "QQ", "--board", board, "--combos"], capsys)
    assert (code, err) == (0, "")
    assert out.startswith(run(["equity", "AKs", "QQ", "--board", board], capsys)[1])  # the usual table first
    blocks = _combo_blocks(out)
    assert list(blocks) == ["player 1: AKs (4 combos)", "player 2: QQ (3 combos)"]
    results = equity(["AKs", "QQ"], board=board)
    for rows, r in zip(blocks.values(), results):
        assert r.combos is not None and r.combo_equity is not None and r.combo_games is not None
        assert rows == [
            [format_cards(c), f"{100 * e:.3f}", f"{int(g):,}"]
            for c, e, g in zip(r.combos.tolist(), r.combo_equity.tolist(), r.combo_games.tolist())
        ]
    # Each AKs combo's equity is that hand's against QQ, computed on its own.
    for combo, e, games in blocks["player 1: AKs (4 combos)"]:
        alone = equity([combo, "QQ"], board=board)[0]
        assert (e, games) == (f"{100 * alone.equity:.3f}", f"{alone.games:,}")
    assert [row[0] for row in blocks["player 1: AKs (4 combos)"]] == ["Ac Kc", "Ad Kd", "Ah Kh", "As Ks"]


def test_equity_combos_monte_carlo(capsys: pytest.CaptureFixture[str]) -> None:
    from twoplustwo.odds.calculate import equity
    from twoplustwo.vocab.cards import format_cards

    argv = ["equity", "AKs", "QQ+", "--board", "Qh 7c 2d", "--mc", "--samples", "3000", "--seed", "4",
            "--threads", "1", "--quiet", "--combos"]
    code, out, err = run(argv, capsys)
    assert (code, err) == (0, "")
    results = equity(["AKs", "QQ+"], board="Qh 7c 2d", method="monte-carlo", samples=3000, seed=4, threads=1,
                     quiet=True)
    blocks = _combo_blocks(out)
    assert list(blocks) == ["player 1: AKs (4 combos)", "player 2: QQ+ (15 combos)"]  # no Qh: on the board
    for rows, r in zip(blocks.values(), results):
        assert r.combos is not None and r.combo_equity is not None and r.combo_games is not None
        want = [
            [format_cards(c), "-" if g == 0 else f"{100 * e:.3f}", f"{int(g):,}"]
            for c, e, g in zip(r.combos.tolist(), r.combo_equity.tolist(), r.combo_games.tolist())
        ]
        assert rows == want
        assert sum(int(g.replace(",", "")) for *_, g in rows) == 3000  # each sampled game is one combo's


def test_equity_combos_of_hands_and_blocked_combos(capsys: pytest.CaptureFixture[str]) -> None:
    # A hand is one row, its figures the table's.
    code, out, err = run(["equity", "AsAh", "KdKc", "--board", "2c 7d 9s", "--combos"], capsys)
    assert (code, err) == (0, "")
    table = {line.split()[0] + line.split()[1]: line.split() for line in out.splitlines()[2:4]}
    blocks = _combo_blocks(out)
    assert blocks == {
        "player 1: As Ah (1 combo)": [["As Ah", table["AsAh"][4], "990"]],
        "player 2: Kd Kc (1 combo)": [["Kd Kc", table["KdKc"][4], "990"]],
    }
    # A combo every deal of the other range blocks plays no game: '-'.
    code, out, err = run(["equity", "AA", "AsAh,AsAd,AhAd", "--board", "2c 3c 4d", "--combos"], capsys)
    assert (code, err) == (0, "")
    aces = dict((c, (e, g)) for c, e, g in _combo_blocks(out)["player 1: AA (6 combos)"])
    assert aces["As Ah"] == aces["As Ad"] == aces["Ah Ad"] == ("-", "0")
    assert aces["Ad Ac"][1] == "990"


# --------------------------------------------------- preflop: what was written


def test_preflop_says_what_it_wrote(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = _stub_preflop(monkeypatch)
    csv_file, png = tmp_path / "table.csv", tmp_path / "table.png"
    code = main(["preflop", "--csv", str(csv_file), "--png", str(png)])
    out, err = capfd.readouterr()
    assert (code, out) == (0, "")
    assert err.splitlines() == [f"wrote 1 row to {csv_file}", f"wrote the 13 x 13 heat map (1 class) to {png}"]
    assert len(csv_file.read_text().splitlines()) == 2 and calls[-1][1][1] == png
    # --quiet: nothing on stderr.
    assert main(["preflop", "--csv", str(csv_file), "--png", str(png), "--quiet"]) == 0
    assert capfd.readouterr() == ("", "")
    # To standard output: the bytes and nothing more; a file beside it still says what it got.
    assert main(["preflop", "--csv", "-", "--png", str(png)]) == 0
    out, err = capfd.readouterr()
    assert out.startswith("class,wins,ties,losses,games,equity\nAA,") and len(out.splitlines()) == 2
    assert err == f"wrote the 13 x 13 heat map (1 class) to {png}\n"
    assert main(["preflop", "--csv", "-"]) == 0
    out, err = capfd.readouterr()
    assert err == "" and out.startswith("class,")


def test_preflop_counts_the_rows_it_wrote(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    many = {name: PlayerEquity(name, 10, 5, 1, 0.55) for name in ("AA", "KK", "QQ")}
    stub = SimpleNamespace(preflop_vs_random=lambda *a, **k: many, preflop_matchups=None)
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.preflop", stub)
    target = tmp_path / "three.csv"
    code, out, err = run(["preflop", "--csv", str(target)], capsys)
    assert (code, out) == (0, "")
    assert err == f"wrote 3 rows to {target}\n"
    assert len(target.read_text().splitlines()) == 1 + 3
