"""``equity``, ``range`` and ``preflop`` (twoplustwo/cli/odds.py)."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.cli.helpers import assert_one_error_line, run, stub_preflop
from twoplustwo.cli import main
from twoplustwo.odds.results import PlayerEquity


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


def test_equity_table_with_a_stub(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The handler's parsing and layout, apart from the equity computation.
    calls: list[tuple[object, ...]] = []

    def equity(hands: list[list[int]], board: object = (), dead: object = (), **kwargs: object) -> list[PlayerEquity]:
        calls.append((hands, board, dead, kwargs))
        return [PlayerEquity("As Ah", 990, 800, 10, 805 / 990), PlayerEquity("Ks Kh", 990, 180, 10, 185 / 990)]

    from twoplustwo.odds.equity import equity_table

    stub = SimpleNamespace(equity=equity, equity_table=equity_table)
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.equity", stub)
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
    assert EQUITY_GAMES == importlib.import_module("twoplustwo.odds.equity").EQUITY_GAMES
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


def test_preflop_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    calls = stub_preflop(monkeypatch)
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
    monkeypatch.setitem(sys.modules, "twoplustwo.odds.equity", SimpleNamespace(equity=lambda *a, **k: []))
    line = assert_one_error_line(*run(args, capsys))
    assert message in line


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
    from twoplustwo.odds.equity import equity
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
    from twoplustwo.odds.equity import equity
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


def test_preflop_says_what_it_wrote(
    capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls = stub_preflop(monkeypatch)
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


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--samples", "-1"], "samples must be None or a positive int, got -1"),
        (["--samples", "0"], "samples must be None or a positive int, got 0"),
        (["--stderr", "nan"], "stderr must be a positive finite number, got nan"),
        (["--seed", "-1"], "seed must be None or a non-negative int, got -1"),
    ],
)
def test_equity_refuses_a_bad_monte_carlo_option_where_it_would_enumerate(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    # Two hands are enumerated, yet the option is as bad as with --mc: once it exited 0.
    for how in ([], ["--mc"]):
        code, out, err = run(["equity", "AsAh", "KdKc", *how, *args], capsys)
        assert code == 2
        assert assert_one_error_line(code, out, err) == f"twoplustwo: error: {message}"
