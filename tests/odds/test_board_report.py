"""board_report against the sum over its combos, flop_report against 1,755 single reports and the 22,100 raw flops.

Weights are multiples of 1/4 where the check is of sums, so that every sum
is exact in any order and the checks are equalities. The classes come from
``classify_batch`` of the range's live combos (tests/hands/test_classify.py
holds it to the definitions); the reports must add them up right.
"""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.odds import flop_report as flop_module
from twoplustwo.odds.board_charts import CLASS_COLOURS, dominant_classes, draw_board_png
from twoplustwo.vocab.board_classes import DRAWS, MADE_CODE, MADE_HANDS, draw_names
from twoplustwo.vocab.combos import CLASS_OF, COMBOS, HAND_CLASSES
from twoplustwo.vocab.suits import PERM_CARDS, canonical_flops

# A range of whole classes (kept by every renaming of suits) and one that is not, weights in quarters.
EVEN = "QQ+,[50]AK[/50],T9s,[25]76s[/25],A5s"
UNEVEN = "AhKh,[50]QsQd[/50],KcJc,[75]T9s[/75],[25]22[/25],Ad5d"


def _by_hand(hero: str, board: list[int], dead: list[int] = ()) -> tuple[dict[str, float], dict[str, float], float]:
    """The report's sums, combo by combo, from the classes of the live combos (one classify_batch)."""
    r = tp.parse_range(hero)
    live = [i for i, c in enumerate(r.combos.tolist()) if not set(c) & (set(board) | set(dead))]
    codes, bits = tp.classify_batch(r.combos[live], board)
    made: dict[str, float] = defaultdict(float)
    draws: dict[str, float] = defaultdict(float)
    total = 0.0
    for w, code, draw in zip(r.weights[live].tolist(), codes.tolist(), bits.tolist(), strict=True):
        made[MADE_HANDS[code]] += w
        for d in draw_names(draw):
            draws[d] += w
        total += w
    return made, draws, total


@pytest.mark.parametrize(
    ("hero", "board", "dead"),
    [
        (EVEN, "Qh 7c 2d", ""),
        (UNEVEN, "Kh Th 5h", "9s"),
        ("random", "9s 8s 2d 3c", ""),
        (UNEVEN, "Ah 5d 4c 3s 2h", ""),
        ("[25]random[/25],AA", "Ac Kd 5s", "Ah 7h"),
    ],
)
def test_board_report_is_the_sum_over_its_combos(hero: str, board: str, dead: str) -> None:
    b, d = tp.parse_cards(board), tp.parse_cards(dead)
    r = tp.board_report(hero, board, dead=dead)
    made, draws, total = _by_hand(hero, b, d)
    assert r.combos == total > 0
    assert set(r.made) == set(MADE_HANDS) and set(r.draws) == set(DRAWS)
    assert all(r.made[n] == made.get(n, 0.0) for n in MADE_HANDS) and sum(r.made.values()) == total
    assert all(r.draws[n] == draws.get(n, 0.0) for n in DRAWS)
    assert all(r.share(n) == r.made[n] / total for n in MADE_HANDS)
    if len(b) == 5:
        assert not any(r.draws.values())
    # The per-combo arrays say the same: the class of each live combo of the range, its weight.
    w = tp.parse_range(hero).dense
    for i in np.flatnonzero(r.weights)[::7]:
        assert r.weights[i] == w[i] and tp.classify(COMBOS[i].tolist(), b).made == MADE_HANDS[r.combo_made[i]]


@pytest.mark.one_backend  # equity_vs_range's backends are held together in tests/odds/test_range_equity.py
def test_board_report_equity_is_the_weighted_average_of_the_combos_equities() -> None:
    board, villain = "Jh Td 4c", "[50]99+[/50],AQs+,KQo"
    r = tp.board_report(UNEVEN, board, villain=villain)
    eq = tp.equity_vs_range(board, villain)
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    hero = tp.parse_range(UNEVEN)
    b = tp.parse_cards(board)
    for combo, w in zip(hero.combos.tolist(), hero.weights.tolist(), strict=True):
        if set(combo) & set(b):
            continue
        e = float(eq[tp.combo_index(*combo)])
        c = tp.classify(combo, b)
        for name in (c.made, *c.draws, "all"):
            sums[name][0] += w * e
            sums[name][1] += w
    assert r.made_equity is not None and r.draw_equity is not None and r.equity is not None
    for name, (e, w) in sums.items():
        got = r.equity if name == "all" else r.made_equity.get(name, r.draw_equity.get(name))
        assert got == pytest.approx(e / w, rel=1e-12), name
    assert np.isnan(r.made_equity["straight flush"])  # no combo there
    # One combo's class equity against tp.equity, exactly enumerated.
    one = tp.board_report("AhKh", board, villain=villain)
    assert one.made_equity is not None
    assert one.made_equity["ace high"] == pytest.approx(tp.equity(["AhKh", villain], board=board)[0].equity)
    assert "equity" in str(r).splitlines()[1]


@pytest.mark.one_backend  # 1,755 reports: the kernels are held to each other in tests/hands/test_classify.py
def test_flop_report_rows_are_the_1755_single_reports() -> None:
    f = tp.flop_report(EVEN)
    flops, weights = canonical_flops()
    assert f.flops.shape == (1755, 3) and int(f.weights.sum()) == 22_100
    for i, flop in enumerate(flops.tolist()):
        r = tp.board_report(EVEN, flop)
        assert f.combos[i] == r.combos
        assert f.made[i].tolist() == [r.made[n] for n in MADE_HANDS]
        assert f.draws[i].tolist() == [r.draws[n] for n in DRAWS]


@pytest.mark.one_backend  # the numpy kernel is held to C row by row in tests/hands/test_classify.py
def test_flop_report_totals_are_the_22100_raw_flops() -> None:
    f = tp.flop_report(UNEVEN)
    hero = tp.parse_range(UNEVEN)
    flops = np.array(list(combinations(range(52), 3)), dtype=np.uint8)
    made, draws, total = np.zeros(len(MADE_HANDS)), np.zeros(len(DRAWS)), 0.0
    for combo, w in zip(hero.combos, hero.weights.tolist(), strict=True):
        live = flops[~np.isin(flops, combo).any(axis=1)]
        m, d = tp.classify_batch(np.broadcast_to(combo, (len(live), 2)), live)
        made += w * np.bincount(m, minlength=len(MADE_HANDS))
        draws += w * ((d[:, None] >> np.arange(len(DRAWS))) & 1).sum(axis=0)
        total += w * len(live)
    assert total == 19_600 * float(hero.weights.sum())
    np.testing.assert_allclose(f.weights @ f.made, made, rtol=1e-12, atol=1e-9)
    np.testing.assert_allclose(f.weights @ f.draws, draws, rtol=1e-12, atol=1e-9)
    assert [f.made_share[n] for n in MADE_HANDS] == pytest.approx((made / total).tolist(), rel=1e-12)
    assert [f.draw_share[n] for n in DRAWS] == pytest.approx((draws / total).tolist(), rel=1e-12)
    # An uneven range's row is the average over the flops the row stands for.
    for i in (0, 400, 1754):
        members = np.unique(np.sort(PERM_CARDS[:, f.flops[i]], axis=1), axis=0)
        assert len(members) == f.weights[i]
        reports = [tp.board_report(UNEVEN, m.tolist()) for m in members]
        assert f.made[i] == pytest.approx([np.mean([r.made[n] for r in reports]) for n in MADE_HANDS], abs=1e-12)


# The villain's equities are equity_vs_range's, whose backends tests/odds/test_range_equity.py holds together
# (and whose numpy run takes a minute here).
@pytest.mark.one_backend
# A villain kept by every renaming of suits (one run a flop), and one that is not (one run per flop it stands for).
@pytest.mark.parametrize(("villain", "few"), [("JJ+,AKs", [0, 1, 57, 900, 1754]), ("AhAd,KsKc,QQ", [0, 1, 1754])])
def test_flop_report_equity_on_a_few_flops_is_the_single_reports(
    monkeypatch: pytest.MonkeyPatch, villain: str, few: list[int]
) -> None:
    flops, weights = canonical_flops()
    monkeypatch.setattr(flop_module, "canonical_flops", lambda: (flops[few], weights[few]))
    f = tp.flop_report(EVEN, villain=villain, threads=2, quiet=True)
    assert f.made_equity is not None and f.class_equity is not None and f.equity is not None
    e_all, w_all = np.zeros(len(MADE_HANDS)), np.zeros(len(MADE_HANDS))
    for row, i in enumerate(few):
        members = np.unique(np.sort(PERM_CARDS[:, flops[i]], axis=1), axis=0)
        reports = [tp.board_report(EVEN, m.tolist(), villain=villain) for m in members]
        e = np.array([[r.made[n] * np.nan_to_num(r.made_equity[n]) for n in MADE_HANDS] for r in reports]).sum(0)
        w = np.array([[r.made[n] for n in MADE_HANDS] for r in reports]).sum(0)
        with np.errstate(invalid="ignore"):
            np.testing.assert_allclose(f.made_equity[row], e / w, rtol=1e-12)
        e_all, w_all = e_all + e, w_all + w
    with np.errstate(invalid="ignore"):
        want = e_all / w_all
    got = np.array([f.class_equity[n] for n in MADE_HANDS])
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert set(f.table()) >= {"flop", "weight", "combos", "set", "set equity", "equity"}


@pytest.mark.one_backend  # no kernel beyond what the tests above run on each backend
def test_flop_report_table_and_csv() -> None:
    f = tp.flop_report("AA,KK")
    t = f.table()
    assert len(t["flop"]) == 1755 and t["flop"][0] == "2h 2d 2c" and len(t) == 3 + len(MADE_HANDS) + len(DRAWS)
    lines = f.csv_bytes().decode().splitlines()
    assert len(lines) == 1756 and lines[0].startswith("flop,weight,combos,straight flush,")
    assert lines[1].split(",")[:3] == ["2h 2d 2c", "4", "12.0"]
    text = str(f)
    assert "all 22,100 flops" in text and "overpair" in text and "straight flush" not in text


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: tp.board_report("AA", "Ah Kd"), ValueError, "board must hold 3, 4 or 5 cards, got 2"),
        (lambda: tp.board_report("AA", "Ah Kd 2c", dead="2c"), ValueError, "2c is in both the board and the dead"),
        (lambda: tp.board_report("AA", "Ah Kd 2c 2c"), ValueError, "duplicate"),
        (lambda: tp.board_report("", "Ah Kd 2c"), ValueError, "range: the range is empty"),
        (lambda: tp.board_report("AAs", "Ah Kd 2c"), ValueError, "item 1 ('AAs')"),
        (lambda: tp.board_report(42, "Ah Kd 2c"), TypeError, "range must be range text or a Range, got int"),
        (lambda: tp.board_report("AhAd", "Ah Kd 2c"), ValueError, "no combo of AhAd is left"),
        (lambda: tp.board_report("AA", "Ah Kd 2c", villain="AhAd"), ValueError, "villain: no combo"),
        (lambda: tp.board_report("AA", "Ah Kd 2c").share("top set"), ValueError, "'top set' is neither"),
        (lambda: tp.flop_report("AA", villain=3), TypeError, "villain must be range text or a Range, got int"),
        (lambda: tp.flop_report("", villain="KK"), ValueError, "range: the range is empty"),
    ],
)
def test_bad_input_names_what_and_where(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as e:
        call()  # type: ignore[operator]
    assert message in str(e.value)


PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@pytest.mark.one_backend  # pictures of a report: no kernel
def test_the_grid_colours_each_class_by_its_commonest_made_hand(tmp_path: Path) -> None:
    r = tp.board_report("QQ+,AK,T9s,[25]87s[/25],A5s", "Qh 7c 2d")
    top = dominant_classes(r)
    for k, name in enumerate(HAND_CLASSES):
        rows = np.flatnonzero((CLASS_OF == k) & (r.weights > 0))
        if not len(rows):
            assert top[k] == -1, name
            continue
        by_class: dict[int, float] = defaultdict(float)
        for i in rows:
            by_class[int(r.combo_made[i])] += float(r.weights[i])
        assert by_class[int(top[k])] == max(by_class.values()), name
    assert (
        MADE_HANDS[top[HAND_CLASSES.index("QQ")]] == "set" and MADE_HANDS[top[HAND_CLASSES.index("AKo")]] == "ace high"
    )
    html = r._repr_html_()
    assert html.count("<td") == 169 + 3 * sum(1 for x in [*r.made.values(), *r.draws.values()] if x > 0)
    assert f"background:{CLASS_COLOURS[MADE_CODE['set']]}" in html and "second pair" in html
    pytest.importorskip("matplotlib")
    path = tmp_path / "board.png"
    draw_board_png(r, path)
    assert path.read_bytes()[:8] == PNG_MAGIC and path.stat().st_size > 20_000
