"""How results look in a REPL and a notebook: concise reprs, HTML tables and grids, bars in a notebook."""

from __future__ import annotations

import re
import sys
from types import SimpleNamespace

import pytest

from twoplustwo import progress
from twoplustwo.odds.equity import equity
from twoplustwo.odds.results import EquityResults, PlayerEquity, PreflopResults, equity_table
from twoplustwo.vocab.combos import HAND_CLASSES
from twoplustwo.vocab.ranges import parse_range
from twoplustwo.vocab.values import describe


def cells(html: str) -> list[str]:
    """The text of every cell of an HTML table, tags dropped, line breaks as spaces."""
    return [" ".join(re.sub(r"<[^>]+>", " ", c).split()) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html)]


def test_player_equity_repr_is_concise_and_exact() -> None:
    aa = equity(["AsAh", "KdKc"])[0]
    assert repr(aa) == "PlayerEquity('As Ah', equity=81.255%, wins=1388072, ties=6538, losses=317694, games=1712304)"
    sampled = equity(["AsAh", "KdKc"], method="monte-carlo", samples=1000, seed=1)[0]
    assert re.fullmatch(r"PlayerEquity\('As Ah', equity=\d+\.\d{3}% ± \d\.\d{3}%, wins=\d+, .*\)", repr(sampled))
    ranged = equity(["QQ+", "AK"], board="2c 7d 9h")[0]
    assert repr(ranged).endswith(", combos=<18 combos>)")


def test_equity_results_print_and_show_as_a_table() -> None:
    results = equity(["AsAh", "KdKc", "7c2d"])
    assert isinstance(results, EquityResults) and isinstance(results, list) and len(results) == 3
    assert str(results) == equity_table(results)
    shown = cells(results._repr_html_())
    # The header, then each player's row, with the numbers the text table has.
    text_rows = [line.split() for line in equity_table(results).splitlines()[1:]]
    assert shown[:7] == ["player", "win %", "tie %", "equity %", "wins", "ties", "games"]
    assert [c.replace(" ", "") for c in shown[7:]] == [c for row in text_rows for c in ["".join(row[:2]), *row[2:]]]
    assert cells(results[0]._repr_html_())[7:9] == ["As Ah", text_rows[0][2]]


def test_hand_description_repr_shows_the_code_in_hex() -> None:
    d = describe(7260)
    assert repr(d) == (
        "HandDescription(value=7260, category=full_house, code=0x6999cc, ranks=(9, 9, 9, 12, 12), "
        "cactus_kev_rank=203, description='Full house, jacks full of aces')"
    )


def test_range_shows_as_the_grid_of_its_classes_with_weights() -> None:
    r = parse_range("QQ+, AKs, [50]AQo[/50], AhJh")
    shown = cells(r._repr_html_())
    grid = dict(zip(HAND_CLASSES, shown))
    assert len(shown) == 169
    assert grid["AA"] == "AA 100%" and grid["KK"] == "KK 100%" and grid["AKs"] == "AKs 100%"
    assert grid["AQo"] == "AQo 50%" and grid["AJs"] == "AJs 25%" and grid["22"] == "22"
    assert "35 combos, weight 29 of 1326" in r._repr_html_()


def test_preflop_results_show_as_a_grid_or_a_table() -> None:
    aa = PlayerEquity("AA", 2_097_572_400, 1_781_508_418, 11_402_312, 0.8520371330210104)
    by_class = PreflopResults({"AA": aa})
    assert str(by_class) == equity_table([aa])
    grid = dict(zip(HAND_CLASSES, cells(by_class._repr_html_())))
    assert grid["AA"] == "AA 85.2" and grid["KK"] == "KK"
    matchups = PreflopResults({("AA", "KK"): aa})
    assert cells(matchups._repr_html_())[7] == "AA"


def test_bars_show_in_a_notebook_though_stderr_is_no_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    class ZMQInteractiveShell:  # what Jupyter's kernel is
        pass

    assert not progress.in_notebook()
    monkeypatch.setitem(sys.modules, "IPython", SimpleNamespace(get_ipython=ZMQInteractiveShell))
    assert progress.in_notebook()
    with progress.progress(3, "boards") as update:
        assert "tqdm" in type(getattr(update, "__self__", None)).__name__  # a bar's update
    with progress.progress(3, "boards", quiet=True) as update:
        assert not hasattr(update, "__self__")  # the no-bar stand-in
