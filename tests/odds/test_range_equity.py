"""Every combo's equity against a range (odds.range_equity) against equity() of each hand, enumerated exactly."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tests.racing import every_moment
from twoplustwo.odds.equity import equity
from twoplustwo.odds.range_equity import equity_vs_range
from twoplustwo.vocab.cards import format_cards, parse_cards
from twoplustwo.vocab.combos import COMBOS, combo_index
from twoplustwo.vocab.ranges import parse_range


@pytest.mark.parametrize(
    ("board", "villain", "dead"),
    [
        ("Qh 7c 2d", "QQ+,AKs", ""),
        ("Qh 7h 2h 5s", "[25]22+[/25],[75]A2s+[/75],KQo", "Ah"),  # weighted, a flush board, a dead ace
        ("Ah Kd 7c 2s 2h", "AA,KK,72o", "3c 3d"),
        ("9s 8s 7d", "JTs,T9s,98s,[50]88[/50]", ""),  # combos that clash with the board
    ],
)
def test_every_sampled_hand_matches_equity(board: str, villain: str, dead: str) -> None:
    got = equity_vs_range(board, villain, dead=dead)
    gone = set(parse_cards(board) + parse_cards(dead))
    live = [h for h in range(len(COMBOS)) if not gone & set(COMBOS[h].tolist())]
    assert np.isnan(got[[h for h in range(len(COMBOS)) if h not in set(live)]]).all()
    rng = random.Random(board)
    checked = 0
    for h in rng.sample(live, 12) + [combo_index(*parse_range(villain).combos[0].tolist())]:
        hand = format_cards(COMBOS[h].tolist())
        try:
            want = equity([hand, villain], board=board, dead=dead, method="exact")[0].equity
        except ValueError:  # no villain combo left beside this hand
            assert np.isnan(got[h])
            continue
        assert got[h] == pytest.approx(want, rel=1e-12, abs=1e-15), hand
        checked += 1
    assert checked >= 10


def test_a_hand_no_villain_combo_can_face_is_nan() -> None:
    got = equity_vs_range("2c 3d 4h", "AsAh")
    assert np.isnan(got[combo_index("As", "Kd")]) and np.isnan(got[combo_index("Ah", "Ad")])
    assert got[combo_index("Kd", "Kc")] == pytest.approx(equity(["Kd Kc", "AsAh"], board="2c 3d 4h")[0].equity)


def test_a_range_object_and_its_text_agree() -> None:
    text = "[40]TT+[/40],AQs+"
    assert np.array_equal(equity_vs_range("Jc 8d 3s 2h", text), equity_vs_range("Jc 8d 3s 2h", parse_range(text)),
                          equal_nan=True)  # fmt: skip


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: equity_vs_range("Qh 7c", "AA"), ValueError, "3, 4 or 5 cards"),
        (lambda: equity_vs_range("Qh 7c 2d", "AA", dead="Qh"), ValueError, "Qh"),
        (lambda: equity_vs_range("Qh 7c 2d", "AAx"), ValueError, "AAx"),
        (lambda: equity_vs_range("Qh 7c 2d", 5), TypeError, "range text or a Range"),  # type: ignore[arg-type]
        (lambda: equity_vs_range("Qh 7c 2d Qh", "AA"), ValueError, "duplicate"),
    ],
)
def test_bad_input(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error, match=message):
        call()  # type: ignore[operator]


@pytest.mark.parametrize(("villain", "dead"), [("AK:0", ""), ("AK:0,QQ:0", ""), ("KK", "Ks Kc")])
def test_a_range_of_no_weight_is_refused_as_equity_refuses_it(villain: str, dead: str) -> None:
    with pytest.raises(ValueError, match="villain: (the range is empty|no combo of KK is left beside the board)"):
        equity_vs_range("Kh Kd 2d", villain, dead=dead)
    with pytest.raises(ValueError, match="villain: (the range is empty|no combo of KK is left beside the board)"):
        equity_vs_range("Kh Kd 2d", parse_range(villain), dead=dead)
    with pytest.raises(ValueError, match="player 2: (the range is empty|no combo of KK is left)"):
        equity(["Ah Ad", villain], board="Kh Kd 2d", dead=dead)


def test_a_board_card_changed_during_a_call_is_an_error_or_one_boards_answer() -> None:
    board = np.array([45, 20, 8, 30, 33], dtype=np.int64)
    dead = np.array([0, 1], dtype=np.int64)
    other = board.copy()
    other[3] = 34
    both = [equity_vs_range(board, "QQ+,AKs,76s"), equity_vs_range(other, "QQ+,AKs,76s")]
    same = lambda a, b: bool(np.array_equal(a, b, equal_nan=True))  # noqa: E731
    assert every_moment(board, (3,), 34, lambda: equity_vs_range(board, "QQ+,AKs,76s"), both, same=same)
    assert every_moment(board, (3,), 52, lambda: equity_vs_range(board, "QQ+,AKs,76s"), both[:1], same=same)
    want = [equity_vs_range(board, "QQ+", dead=dead)]
    assert every_moment(dead, (1,), 60, lambda: equity_vs_range(board, "QQ+", dead=dead), want, same=same)
