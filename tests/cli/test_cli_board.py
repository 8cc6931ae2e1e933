"""``board`` and ``flops`` (twoplustwo/cli/board.py): the board reports on the command line."""

from __future__ import annotations

from pathlib import Path

import pytest

import twoplustwo as tp
from tests.cli.helpers import assert_one_error_line, run
from twoplustwo.cli import main


def test_board_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(["board", "QQ+,AK,T9s", "--board", "Qh 7c 2d"], capsys)
    assert (code, err) == (0, "")
    assert out == str(tp.board_report("QQ+,AK,T9s", "Qh 7c 2d")) + "\n"
    lines = out.splitlines()
    assert lines[0] == "QQ+,AK,T9s on Qh 7c 2d: 35 combos"
    assert lines[2].split() == ["set", "3", "8.57%"]


def test_board_with_a_villain_and_dead_cards(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["board", "AA,KK", "--board", "Ah", "--board", "7c 2d", "--dead", "Kc", "--villain", "QQ"]
    code, out, _ = run(args, capsys)
    assert code == 0
    want = tp.board_report("AA,KK", "Ah 7c 2d", dead="Kc", villain="QQ")
    assert out == str(want) + "\n"
    assert "(dead Kc)" in out.splitlines()[0] and out.splitlines()[1].split()[-1] == "equity"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["board", "AA", "--board", "Ah Kd"], "board must hold 3, 4 or 5 cards, got 2"),
        (["board", "AA", "--board", "Ah Kd 2c", "--dead", "2c"], "2c is in both the board and the dead cards"),
        (["board", "AAs", "--board", "Ah Kd 2c"], "item 1 ('AAs')"),
        (["board", "AA"], "the following arguments are required: --board"),
        (["flops", "AA", "--villain", "QQs"], "item 1 ('QQs')"),
    ],
)
def test_bad_input_is_one_line(capsys: pytest.CaptureFixture[str], args: list[str], message: str) -> None:
    assert message in assert_one_error_line(*run(args, capsys))


def test_flops_summary_and_csv(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    report = tp.flop_report("AA,KK")
    path = tmp_path / "flops.csv"
    code, out, err = run(["flops", "AA,KK", "--csv", str(path), "--print"], capsys)
    assert (code, out, err) == (0, str(report) + "\n", f"wrote 1,755 flops to {path}\n")
    assert path.read_bytes() == report.csv_bytes()
    assert out.splitlines()[0] == "KK+ on all 22,100 flops (1,755 up to suits)"  # the range in canonical notation


def test_flops_csv_to_stdout(capfd: pytest.CaptureFixture[str]) -> None:
    code = main(["flops", "AA,KK", "--csv", "-", "--quiet"])
    out, err = capfd.readouterr()
    lines = out.splitlines()
    assert (code, err, len(lines)) == (0, "", 1756)
    assert lines[0].startswith("flop,weight,combos,straight flush,") and lines[1].startswith("2h 2d 2c,4,12.0,")


def test_flops_refuses_a_directory_before_the_work(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    line = assert_one_error_line(*run(["flops", "AA", "--csv", str(tmp_path)], capsys))
    assert "is a directory" in line and "flops.csv" in line


def test_board_png(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "board.png"
    code, out, err = run(["board", "QQ+,AK", "--board", "Qh 7c 2d", "--png", str(path)], capsys)
    assert (code, err) == (0, f"wrote the 13 x 13 grid and the class bars to {path}\n")
    assert out == str(tp.board_report("QQ+,AK", "Qh 7c 2d")) + "\n"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    line = assert_one_error_line(*run(["board", "AA", "--board", "Qh 7c 2d", "--png", str(tmp_path)], capsys))
    assert "is a directory" in line and "board.png" in line
