"""Exact preflop tables against PokerStove's published counts, loops of equity() and each other."""

from __future__ import annotations

import csv
import os
import sys
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from math import comb
from pathlib import Path

import pytest

from twoplustwo import progress
from twoplustwo.odds.charts import draw_png, preflop_table, write_csv
from twoplustwo.odds.equity import equity
from twoplustwo.odds.preflop import (
    BOARDS_HEADS_UP,
    GAMES_VS_RANDOM,
    preflop_matchups,
    preflop_vs_random,
)
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.combos import COMBOS, HAND_CLASSES
from twoplustwo.vocab.range_notation import class_combos
from twoplustwo.vocab.starting_hands import CLASS_ORDER, POINTS

# The first backend only: the tables rank hands with the walker method that
# tests/kernels/test_reference.py holds both backends to, and all 169
# classes once more on numpy would take a minute.
pytestmark = pytest.mark.one_backend

# A small grid with pairs, suited and offsuit classes, a class against itself and shared cards.
GRID_A = ["AA", "72o"]
GRID_B = ["KK", "AKs", "AA"]


@pytest.fixture(scope="module")
def every_class() -> dict[str, PlayerEquity]:
    return preflop_vs_random(quiet=True)


@pytest.fixture(scope="module")
def grid() -> dict[tuple[str, str], PlayerEquity]:
    return preflop_matchups(GRID_A, GRID_B, quiet=True)


def test_games_constants() -> None:
    assert GAMES_VS_RANDOM == comb(50, 2) * comb(48, 5) == comb(50, 5) * comb(45, 2) == 2_097_572_400
    assert BOARDS_HEADS_UP == 1_712_304


def test_the_committed_class_order_is_the_exact_equity_order(every_class: dict[str, PlayerEquity]) -> None:
    # twoplustwo.vocab.starting_hands was generated this way; the vocabulary cannot compute it, the odds can.
    assert list(every_class) == list(HAND_CLASSES)
    assert {e.games for e in every_class.values()} == {GAMES_VS_RANDOM}
    points = {name: 2 * int(e.wins) + int(e.ties) for name, e in every_class.items()}
    order = sorted(HAND_CLASSES, key=lambda name: (-points[name], HAND_CLASSES.index(name)))
    assert CLASS_ORDER == tuple(order)
    assert POINTS == tuple(points[name] for name in order)
    assert all(e.equity == POINTS[CLASS_ORDER.index(name)] / (2 * GAMES_VS_RANDOM) for name, e in every_class.items())


def test_aces_published(every_class: dict[str, PlayerEquity]) -> None:
    aa = every_class["AA"]
    assert (aa.wins, aa.ties, aa.losses, aa.games) == (1_781_508_418, 11_402_312, 304_661_670, 2_097_572_400)
    assert all(type(x) is int for x in (aa.wins, aa.ties, aa.games))
    assert aa.equity == (1_781_508_418 + 11_402_312 / 2) / 2_097_572_400
    assert aa.player == "AA" and aa.stderr == 0.0
    assert aa.combos is not None and aa.combos.tolist() == class_combos("AA").tolist()
    assert aa.combo_games is not None and aa.combo_games.tolist() == [float(GAMES_VS_RANDOM)] * 6
    assert aa.combo_equity is not None and aa.combo_equity.tolist() == [aa.equity] * 6


def test_every_class_adds_up(every_class: dict[str, PlayerEquity]) -> None:
    assert list(every_class) == list(HAND_CLASSES)
    sizes = {name: len(class_combos(name)) for name in HAND_CLASSES}
    for name, r in every_class.items():
        assert r.games == GAMES_VS_RANDOM and r.wins + r.ties + r.losses == r.games
        assert r.wins > 0 and r.ties > 0 and r.losses > 0
        assert r.equity == (r.wins + r.ties / 2) / r.games
        assert r.combos is not None and len(r.combos) == sizes[name]
    # Each game a combo wins against a random hand is one its opponent loses, over all 1,326 combos:
    # wins and losses balance, and the equity of a random hand is one half, exactly.
    wins = sum(sizes[n] * r.wins for n, r in every_class.items())
    losses = sum(sizes[n] * r.losses for n, r in every_class.items())
    shares = sum(sizes[n] * (2 * r.wins + r.ties) for n, r in every_class.items())
    assert wins == losses and shares == 1326 * GAMES_VS_RANDOM
    ranked = sorted(every_class, key=lambda n: every_class[n].equity)
    assert ranked[-1] == "AA" and ranked[-2] == "KK" and ranked[0] == "32o"
    # Suited beats offsuit, pair by pair of ranks.
    for name in HAND_CLASSES:
        if name.endswith("s"):
            assert every_class[name].equity > every_class[name[:2] + "o"].equity


def test_72o_against_each_opponent(every_class: dict[str, PlayerEquity]) -> None:
    # An independent count: one combo of the class against each of the 1,225 opponent combos, one equity() each.
    hero = parse_cards("7s 2h")
    opponents = [c for c in COMBOS.tolist() if not set(c) & set(hero)]
    assert len(opponents) == 1225

    def one(opponent: list[int]) -> tuple[int, int, int]:
        mine, _ = equity([hero, opponent], threads=1)
        return int(mine.wins), int(mine.ties), int(mine.games)

    with ThreadPoolExecutor(os.cpu_count() or 1) as ex:
        wins, ties, games = (sum(x) for x in zip(*ex.map(one, opponents)))
    r = every_class["72o"]
    assert (r.wins, r.ties, r.games) == (wins, ties, games)


def test_classes_asked_by_any_spelling_in_any_order(every_class: dict[str, PlayerEquity]) -> None:
    # The executor path, with a process pool: tables loaded from their path in each worker.
    with ProcessPoolExecutor(2) as ex:
        got = preflop_vs_random(["t9S", "AA", "t9s", "32o"], executor=ex, quiet=True)
    assert list(got) == ["T9s", "AA", "32o"]
    for name, r in got.items():
        assert r == every_class[name]


def test_no_classes() -> None:
    assert preflop_vs_random([]) == {}
    assert preflop_matchups([], ["AA"]) == {} == preflop_matchups(["AA"], [])


def _direct_grid(a: str, b: str) -> tuple[int, int, int, list[int], list[float]]:
    """games, wins, ties of a against b and each of a's combos' games and twice its pot share, one equity() a deal."""
    games = wins = ties = 0
    combo_games, combo_shares = [], []
    for x in class_combos(a).tolist():
        g = s = 0
        for y in class_combos(b).tolist():
            if set(x) & set(y):
                continue
            mine, _ = equity([x, y], threads=1)
            g += int(mine.games)
            s += 2 * int(mine.wins) + int(mine.ties)
            wins, ties = wins + int(mine.wins), ties + int(mine.ties)
        games += g
        combo_games.append(g)
        combo_shares.append(s)
    return games, wins, ties, combo_games, combo_shares


def test_matchups_against_every_deal(grid: dict[tuple[str, str], PlayerEquity]) -> None:
    assert list(grid) == [(a, b) for a in GRID_A for b in GRID_B]
    for (a, b), r in grid.items():
        games, wins, ties, combo_games, combo_shares = _direct_grid(a, b)
        assert (r.games, r.wins, r.ties) == (games, wins, ties), (a, b)
        assert r.equity == (wins + ties / 2) / games
        assert r.player == f"{a} vs {b}"
        assert r.combos is not None and r.combos.tolist() == class_combos(a).tolist()
        assert r.combo_games is not None and r.combo_games.tolist() == combo_games
        assert r.combo_equity is not None
        assert r.combo_equity.tolist() == pytest.approx([s / (2 * g) for s, g in zip(combo_shares, combo_games)])
    aa_kk = grid["AA", "KK"]
    assert (aa_kk.games, round(100 * aa_kk.equity, 2)) == (36 * BOARDS_HEADS_UP, 81.95)  # PokerStove: 81.95%


def test_matchups_both_ways() -> None:
    both = preflop_matchups(["AKs", "QQ"], ["QQ", "AKs"], quiet=True, threads=1)
    assert both["AKs", "QQ"].wins == both["QQ", "AKs"].losses
    assert both["AKs", "QQ"].ties == both["QQ", "AKs"].ties
    assert both["AKs", "QQ"].games == both["QQ", "AKs"].games == 24 * BOARDS_HEADS_UP
    assert both["QQ", "QQ"].wins == both["QQ", "QQ"].losses
    assert both["AKs", "AKs"].games == 12 * BOARDS_HEADS_UP  # two suited AK of different suits: 4 x 3 deals


def test_matchups_on_a_process_pool(grid: dict[tuple[str, str], PlayerEquity]) -> None:
    with ProcessPoolExecutor(2) as ex:
        assert preflop_matchups(GRID_A, GRID_B, executor=ex, quiet=True) == grid


def test_matchups_on_a_dask_cluster(grid: dict[tuple[str, str], PlayerEquity]) -> None:
    distributed = pytest.importorskip("distributed")
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert preflop_matchups(GRID_A, GRID_B, executor=client.get_executor(), quiet=True) == grid


def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    preflop_matchups(["AA"], ["KK"])
    assert capsys.readouterr().err == ""
    pytest.importorskip("tqdm")
    monkeypatch.setattr(progress, "is_terminal", lambda stream: True)
    monkeypatch.setattr(progress, "DELAY", 0)
    preflop_matchups(["AA"], ["KK"])
    assert "deals" in capsys.readouterr().err
    preflop_matchups(["AA"], ["KK"], quiet=True)
    assert capsys.readouterr().err == ""
    # Without tqdm the work runs all the same, without a bar.
    monkeypatch.setitem(sys.modules, "tqdm", None)
    monkeypatch.setitem(sys.modules, "tqdm.auto", None)
    assert preflop_matchups(["AA"], ["KK"])["AA", "KK"].games == 36 * BOARDS_HEADS_UP
    assert capsys.readouterr().err == ""


def test_table(every_class: dict[str, PlayerEquity], grid: dict[tuple[str, str], PlayerEquity]) -> None:
    lines = preflop_table(every_class).splitlines()
    assert len(lines) == 170 and lines[0].split()[0] == "player"
    assert lines[1].split()[:4] == ["AA", "84.932", "0.544", "85.204"]
    assert lines[1].split()[-3:] == ["1,781,508,418", "11,402,312", "2,097,572,400"]
    assert len({len(line) for line in lines}) == 1
    assert preflop_table(grid).splitlines()[1].startswith("AA vs KK ")


def _read_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def test_write_csv_round_trip(
    tmp_path: Path, every_class: dict[str, PlayerEquity], grid: dict[tuple[str, str], PlayerEquity]
) -> None:
    path = tmp_path / "vs-random.csv"
    path.write_text("old contents\n")
    write_csv(every_class, path)
    rows = _read_csv(path)
    assert list(rows[0]) == ["class", "wins", "ties", "losses", "games", "equity"]
    assert [row["class"] for row in rows] == list(HAND_CLASSES)
    for row in rows:
        r = every_class[row["class"]]
        got = tuple(int(row[k]) for k in ("wins", "ties", "losses", "games"))
        assert got == (r.wins, r.ties, r.losses, r.games) and float(row["equity"]) == r.equity
    path = tmp_path / "grid.csv"
    write_csv(grid, str(path))
    rows = _read_csv(path)
    assert list(rows[0]) == ["class_a", "class_b", "wins", "ties", "losses", "games", "equity"]
    assert [(row["class_a"], row["class_b"]) for row in rows] == list(grid)
    for row in rows:
        r = grid[row["class_a"], row["class_b"]]
        assert (int(row["wins"]), int(row["ties"]), int(row["games"])) == (r.wins, r.ties, r.games)
        assert float(row["equity"]) == r.equity
    assert sorted(os.listdir(tmp_path)) == ["grid.csv", "vs-random.csv"]


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def test_draw_png(tmp_path: Path, every_class: dict[str, PlayerEquity]) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "heat.png"
    draw_png(every_class, path)
    assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 20_000
    # Some classes only: the rest stay blank.
    draw_png({"AA": every_class["AA"], "72o": every_class["72o"]}, str(path), title="two classes")
    assert path.read_bytes()[:8] == PNG_MAGIC
    assert os.listdir(tmp_path) == ["heat.png"]


def test_draw_png_failure_keeps_the_old_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every_class: dict[str, PlayerEquity]
) -> None:
    figure = pytest.importorskip("matplotlib.figure")
    path = tmp_path / "heat.png"
    path.write_bytes(b"old")
    (tmp_path / ".heat.png.other.tmp").write_bytes(b"not ours")

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(figure.Figure, "savefig", broken)
    with pytest.raises(OSError, match="disk full"):
        draw_png(every_class, path)
    assert path.read_bytes() == b"old"
    assert sorted(os.listdir(tmp_path)) == [".heat.png.other.tmp", "heat.png"]


def test_draw_png_without_matplotlib(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, every_class: dict[str, PlayerEquity]
) -> None:
    for name in ("matplotlib", "matplotlib.figure", "matplotlib.backends.backend_agg"):
        monkeypatch.setitem(sys.modules, name, None)
    with pytest.raises(ImportError, match=r"pip install 'twoplustwo\[plot\]'"):
        draw_png(every_class, tmp_path / "heat.png")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: preflop_vs_random(["AA", "AAs"]), ValueError, r"classes\[1\]: 'AAs' is not a hand class"),
        (lambda: preflop_vs_random(["AK"]), ValueError, r"classes\[0\]: 'AK' is not a hand class: say 's' or 'o'"),
        (lambda: preflop_vs_random("AA"), TypeError, "not a single string"),
        (lambda: preflop_vs_random([b"AA"]), TypeError, r"classes\[0\] must be a class name \(str\)"),
        (lambda: preflop_vs_random(["AA", 7]), TypeError, r"classes\[1\] must be a class name \(str\)"),
        (lambda: preflop_vs_random(12), TypeError, "classes must be None or a sequence of class names, got int"),
        (lambda: preflop_vs_random(["AA"], threads=0), ValueError, "threads must be None or an int"),
        (lambda: preflop_vs_random(["AA"], threads="2"), TypeError, "threads must be None or an int"),
        (lambda: preflop_vs_random(["AA"], tables="tables/"), TypeError, "tables must be a Tables"),
        (lambda: preflop_vs_random(["AA"], executor=4), TypeError, "executor must be a concurrent.futures.Executor"),
        (lambda: preflop_matchups(["AA"], ["KK", "ZZ"]), ValueError, r"classes_b\[1\]: 'ZZ' is not a hand class"),
        (lambda: preflop_matchups("AA", ["KK"]), TypeError, "classes_a must be a sequence of class names"),
        (lambda: preflop_table({}), ValueError, "no results"),
        (lambda: preflop_table([1]), TypeError, "results must be the dict"),
        (lambda: preflop_table({"AA": 0.85}), TypeError, r"results\['AA'\] must be a PlayerEquity"),
        (lambda: write_csv({}, "unused.csv"), ValueError, "no results"),
        (lambda: draw_png({("AA", "KK"): _any_result()}, "unused.png"), ValueError, "against a random hand"),
        (lambda: draw_png({"AAx": _any_result()}, "unused.png"), ValueError, "results key 'AAx'"),
    ],
)
def test_bad_input(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]
    assert not os.path.exists("unused.csv") and not os.path.exists("unused.png")


def _any_result() -> PlayerEquity:
    return PlayerEquity("AA", 1, 1, 0, 1.0)


@pytest.fixture(autouse=True)
def _scratch_directory(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    # Relative paths (the bad-input cases') land in the test's own directory, never the checkout.
    monkeypatch.chdir(tmp_path)
    yield


def test_the_command_line_runs_the_grid_on_a_dask_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    from twoplustwo.cli import main

    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        argv = ["preflop", "--grid", "--classes", "AA", "--vs", "KK,AKs", "--dask", cluster.scheduler_address]
        assert main([*argv, "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    local = preflop_matchups(["AA"], ["KK", "AKs"], quiet=True)
    assert lines[1].split()[:3] == ["AA", "vs", "KK"] and lines[1].split()[-1] == f"{local['AA', 'KK'].games:,}"
    assert lines[2].split()[-3:] == [f"{local['AA', 'AKs'].wins:,}", f"{local['AA', 'AKs'].ties:,}",
                                     f"{local['AA', 'AKs'].games:,}"]
