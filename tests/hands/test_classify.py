"""classify and classify_batch against a brute-force classifier written from the issue's definitions.

The oracle below is written plainly from the statement of the classes
(``twoplustwo/vocab/board_classes.py``), card by card and rank by rank; the
category of the best five comes from the evaluator (``evaluate_batch`` and
``categories``), not from the kernel's masks. It is held against the
kernel on every hole of a few hundred boards of every street, on each
backend, and C against numpy on the same rows.
"""

from __future__ import annotations

import functools
from collections import Counter

import numpy as np
import numpy.typing as npt
import pytest

import twoplustwo as tp
from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.choice import extension
from twoplustwo.vocab.board_classes import DRAW_BIT, DRAWS, MADE_CODE, MADE_HANDS, draw_names
from twoplustwo.vocab.combos import COMBOS

# Boards every test must see: the shapes whose classes are easy to get wrong.
NAMED_BOARDS = [
    "Kd Kc 7h",  # paired
    "7h 7d 7c",  # trips
    "Qs 8s 3s",  # monotone
    "Ad Kc Qh",  # broadway
    "As 2d 3c",  # wheel
    "9h 8h 2c",  # two-tone, connected
    "Th 9c 7d",  # gapped
    "Kd Kc 7h 7s",  # two pair
    "Ah 9h 5h 2h",  # four-flush
    "5h 4d 3c 2s",  # wheel draws and made wheels
    "9s 9h 9d 9c",  # quads
    "Jd Td 9c 2s",
    "Ah Ks Qd Jc Tc",  # broadway on the river
    "Kh Th 6h 4h 2h",  # a flush on the board
    "6c 6d 6h Ks Kd",  # a full house on the board
    "Ac 4d 4h 4s 2c",
]
N_RANDOM = 64  # per street, beside the named boards


def _window_list() -> list[frozenset[int]]:
    """Every five consecutive ranks, the ace (12) also low."""
    windows = [frozenset(range(lo, lo + 5)) for lo in range(9)]
    return [frozenset({12, 0, 1, 2, 3}), *windows]


WINDOWS = _window_list()
CATEGORY_NAMES = {8: "straight flush", 7: "four of a kind", 6: "full house", 5: "flush", 4: "straight"}


def oracle(hole: list[int], board: list[int], category: int) -> tuple[str, frozenset[str]]:
    """The class and draws of one hand, from the definitions; ``category`` is the best five's (tp.Category)."""
    ranks = [c // 4 for c in hole]
    board_ranks = [c // 4 for c in board]
    on_board = Counter(board_ranks)
    distinct = sorted(set(board_ranks), reverse=True)
    if category in CATEGORY_NAMES:
        made = CATEGORY_NAMES[category]
    elif category == 3:
        if ranks[0] == ranks[1] and on_board[ranks[0]] == 1:
            made = "set"
        elif ranks[0] != ranks[1] and (on_board[ranks[0]] == 2 or on_board[ranks[1]] == 2):
            made = "trips"
        else:
            made = "three of a kind"
    elif ranks[0] != ranks[1] and ranks[0] in on_board and ranks[1] in on_board:
        made = "two pair"
    elif ranks[0] == ranks[1]:
        if ranks[0] > distinct[0]:
            made = "overpair"
        elif ranks[0] < distinct[-1]:
            made = "underpair"
        else:
            made = "pocket pair"
    elif (ranks[0] in on_board) != (ranks[1] in on_board):
        paired = ranks[0] if ranks[0] in on_board else ranks[1]
        made = "top pair" if paired == distinct[0] else "second pair" if paired == distinct[1] else "weak pair"
    elif 12 in ranks:
        made = "ace high"
    else:
        made = "nothing"
    draws: set[str] = set()
    if len(board) < 5:
        cards = hole + board
        for suit in range(4):
            of_suit = [c for c in cards if c % 4 == suit]
            in_hole = any(c % 4 == suit for c in hole)
            if len(of_suit) == 4 and in_hole and made not in ("flush", "straight flush"):
                draws.add("flush draw")
                highest_free = max(c for c in range(suit, 52, 4) if c not in board)
                if highest_free in hole:
                    draws.add("nut flush draw")
            if len(board) == 3 and len(of_suit) == 3 and in_hole:
                draws.add("backdoor flush draw")
        held = {c // 4 for c in cards}
        if not any(w <= held for w in WINDOWS):
            mine = {r for r in ranks if r not in on_board}
            # The ranks x not held for which a run holding a rank of ``mine`` lacks x alone.
            outs = {x for w in WINDOWS if w & mine and len(w - held) == 1 for x in w - held}
            if len(outs) >= 2:
                draws.add("open-ended straight draw")
            elif len(outs) == 1:
                draws.add("gutshot")
        if made in ("ace high", "nothing") and min(ranks) > distinct[0]:
            draws.add("overcards")
        if "flush draw" in draws and draws & {"open-ended straight draw", "gutshot"}:
            draws.add("combo draw")
    return made, frozenset(draws)


def _boards() -> list[list[int]]:
    rng = np.random.default_rng(39)
    boards = [tp.parse_cards(b) for b in NAMED_BOARDS]
    for k in (3, 4, 5):
        for i in range(N_RANDOM):
            if i % 3 == 0:
                deck = np.arange(52)  # anything
            elif i % 3 == 1:
                deck = np.array([c for c in range(52) if c % 4 < 2])  # two suits: flushes and their draws
            else:
                lo = int(rng.integers(0, 9))
                deck = np.array([c for c in range(52) if lo <= c // 4 < lo + 5 or c // 4 == 12])  # runs and pairs
            boards.append(sorted(int(c) for c in rng.choice(deck, size=k, replace=False)))
    return boards


@functools.lru_cache(maxsize=1)
def _cases() -> tuple[
    npt.NDArray[np.uint8],
    list[npt.NDArray[np.uint8]],
    list[npt.NDArray[np.uint8]],
    list[list[tuple[str, frozenset[str]]]],
]:
    """Each board, its holes (every combo off it), and the oracle's answer for each."""
    boards, holes, answers = [], [], []
    for board in _boards():
        live = np.array([c for c in COMBOS if not set(c.tolist()) & set(board)], dtype=np.uint8)
        hands = np.hstack([live, np.broadcast_to(np.array(board, np.uint8), (len(live), len(board)))])
        cats = tp.categories(tp.evaluate_batch(hands)).tolist()
        answers.append([oracle(h.tolist(), board, cat) for h, cat in zip(live, cats, strict=True)])
        boards.append(np.array(board, np.uint8))
        holes.append(live)
    return np.array([len(b) for b in boards]), boards, holes, answers


def test_classify_batch_is_the_definitions_on_every_hole_of_hundreds_of_boards() -> None:
    sizes, boards, holes, answers = _cases()
    assert sorted(Counter(sizes.tolist())) == [3, 4, 5] and min(Counter(sizes.tolist()).values()) >= 64
    seen_made: set[str] = set()
    seen_draws: set[str] = set()
    for board, live, want in zip(boards, holes, answers, strict=True):
        made, draws = tp.classify_batch(live, board)
        got = [(MADE_HANDS[m], draw_names(d)) for m, d in zip(made.tolist(), draws.tolist(), strict=True)]
        if got != want:
            i = next(i for i in range(len(got)) if got[i] != want[i])
            pytest.fail(
                f"{tp.format_cards(live[i].tolist())} on {tp.format_cards(board.tolist())}: {got[i]} != {want[i]}"
            )
        seen_made.update(m for m, _ in want)
        seen_draws.update(*(d for _, d in want))
    # Every class and every flag was met: the check above held each of them.
    assert seen_made == set(MADE_HANDS) and seen_draws == set(DRAWS)


def test_classify_one_hand_agrees_with_the_batch() -> None:
    _, boards, holes, answers = _cases()
    for board, live, want in list(zip(boards, holes, answers, strict=True))[::25]:
        for i in range(0, len(live), 97):
            assert tuple(tp.classify(live[i].tolist(), board.tolist())) == want[i]


@pytest.mark.parametrize(
    ("hole", "board", "made", "draws"),
    [
        ("Ts 9s", "Ks Qs Js", "straight flush", set()),
        ("7c 7d", "7s 7h 2d", "four of a kind", set()),
        ("Kh 7c", "Kd Kc 7h", "full house", set()),
        ("Ah 3h", "Kh 8h 2h", "flush", set()),
        ("5c 4d", "As 2d 3c", "straight", set()),
        ("7d 7c", "7s Kd 2h", "set", set()),
        ("Kh 7c", "Kd Kc 2h", "trips", set()),
        ("Ah Qd", "7h 7d 7c", "three of a kind", set()),  # not ace high: no overcards
        ("Kc 7c", "Kd 7h 2s", "two pair", set()),
        ("Ac Ad", "Kh 8s 2c", "overpair", set()),
        ("2c 2d", "Kh 8s 4c", "underpair", set()),
        ("9c 9d", "Kh 8s 2c", "pocket pair", set()),
        ("Ks Qd", "Kh 8s 2s", "top pair", {"backdoor flush draw"}),
        ("8c 7d", "Kh 8s 2c", "second pair", set()),
        ("2d Jc", "Kh 8s 2c 3h", "weak pair", set()),
        ("Ac Jd", "9h 8s 2c", "ace high", {"overcards"}),
        ("Qc Jd", "Th 9s 2h", "nothing", {"open-ended straight draw", "overcards"}),
        ("9s 8s", "Ts 7c 2s", "nothing", {"flush draw", "open-ended straight draw", "combo draw"}),
        ("As 4s", "Ts 7s 2c 9d", "ace high", {"flush draw", "nut flush draw"}),
        ("Qd 9c", "Kh Js 2c", "nothing", {"gutshot"}),
        ("Jc 7d", "9h 8s 5c", "nothing", {"open-ended straight draw"}),  # a double gutshot
        ("Kd Qd", "Jc Th 2s 3d", "nothing", {"open-ended straight draw", "overcards"}),
        ("Tc 9c", "Jc 8d 7s 2h 3c", "straight", set()),  # four clubs on the river: no draws
    ],
)
def test_one_example_of_each_class_and_flag(hole: str, board: str, made: str, draws: set[str]) -> None:
    got = tp.classify(hole, board)
    assert got == (made, frozenset(draws))
    h, b = tp.parse_cards(hole), tp.parse_cards(board)
    cat = int(tp.categories(tp.evaluate_batch(np.array([h + b])))[0])
    assert oracle(h, b, cat) == got


@pytest.mark.one_backend
def test_c_and_numpy_agree_on_every_card_pattern_of_random_rows() -> None:
    core = extension()
    if core is None:
        pytest.skip("twoplustwo.kernels._core was not built")
    rng = np.random.default_rng(7)
    for k in (3, 4, 5):
        cards = np.argsort(rng.random((40_000, 52)), axis=1)[:, : 2 + k].astype(np.uint8)
        holes, boards = np.ascontiguousarray(cards[:, :2]), np.ascontiguousarray(cards[:, 2:])
        out = [(np.zeros(len(cards), np.uint8), np.zeros(len(cards), np.uint8)) for _ in range(2)]
        assert core.classify_rows(holes, boards, *out[0]) == -1
        assert numpy_backend.classify_rows(holes, boards, *out[1]) == -1
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])
        # A shared board too, and a bad row stops both at the same row, the rows before it filled alike.
        board = boards[:1].copy()
        holes[100] = board[0, :2]
        first = int(np.argmax(np.isin(holes, board[0]).any(axis=1)))
        for made, draws in out:
            made[:] = draws[:] = 0
        assert core.classify_rows(holes, board, *out[0]) == numpy_backend.classify_rows(holes, board, *out[1]) == first
        assert np.array_equal(out[0][0], out[1][0]) and np.array_equal(out[0][1], out[1][1])


def test_codes_and_bits_are_the_vocabularys() -> None:
    assert len(MADE_HANDS) == len(set(MADE_HANDS)) == 17 and MADE_CODE["nothing"] == 16
    assert [DRAW_BIT[d] for d in DRAWS] == [1 << i for i in range(len(DRAWS))] and len(DRAWS) <= 8
    made, draws = tp.classify_batch(np.zeros((0, 2), np.uint8), [0, 4, 8])
    assert made.shape == draws.shape == (0,) and made.dtype == draws.dtype == np.uint8


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (lambda: tp.classify("As", "Kd Qh 2c"), ValueError, "2 hole cards, got 1"),
        (lambda: tp.classify("As Ks", "Kd Qh"), ValueError, "3, 4 or 5 cards, got 2"),
        (lambda: tp.classify("As Ks", "Kd Qh 2c 3c 4c 5c"), ValueError, "3, 4 or 5 cards, got 6"),
        (lambda: tp.classify("As Ks", "Ks Qh 2c"), ValueError, "Ks is in both the hole cards and the board"),
        (lambda: tp.classify("As Xs", "Kd Qh 2c"), ValueError, "the hole cards: card 1"),
        (lambda: tp.classify("As Ks", [60, 1, 2]), ValueError, "the board"),
        (lambda: tp.classify_batch([[51, 50, 49]], [0, 4, 8]), ValueError, "holes must be an (N, k) array with k = 2"),
        (
            lambda: tp.classify_batch([[51, 50]], [0, 4]),
            ValueError,
            "boards must be an (N, k) array with k = 3, 4 or 5",
        ),
        (lambda: tp.classify_batch([[51, 50]] * 3, [[0, 4, 8]] * 2), ValueError, "3 rows of holes but 2 boards"),
        (lambda: tp.classify_batch([[51, 50], [49, 52]], [0, 4, 8]), ValueError, "row 1: the hole cards"),
        (
            lambda: tp.classify_batch([[51, 50], [49, 49]], [[0, 4, 8], [1, 5, 9]]),
            ValueError,
            "row 1: the hole cards: card 1 (49): duplicate",
        ),
        (lambda: tp.classify_batch([[51, 50], [49, 0]], [0, 4, 8]), ValueError, "row 1: 2c is in both the hole"),
        (lambda: tp.classify_batch([[51, 50]], [0, 4, 4]), ValueError, "the board: "),
        (lambda: tp.classify_batch([[51.0, 50.0]], [0, 4, 8]), ValueError, "holes"),
        (lambda: tp.classify_batch(np.ma.array([[51, 50]]), [0, 4, 8]), TypeError, "holes"),
    ],
)
def test_bad_input_names_what_and_where(call: object, error: type[Exception], message: str) -> None:
    with pytest.raises(error) as e:
        call()  # type: ignore[operator]
    assert message in str(e.value)


def test_the_kernels_refuse_wrong_shapes_alike() -> None:
    core = extension()
    backends = [numpy_backend] + ([core] if core is not None else [])
    h, b, m = np.zeros((2, 2), np.uint8), np.zeros((2, 3), np.uint8), np.zeros(2, np.uint8)
    for backend in backends:
        for args in [(h[:, :1].copy(), b, m, m), (h, np.zeros((2, 6), np.uint8), m, m), (h, b, m[:1].copy(), m),
                     (h, b, m, np.zeros(2, np.uint16)), (h, np.zeros((3, 3), np.uint8), m, m)]:  # fmt: skip
            with pytest.raises(ValueError, match="classify_rows takes"):
                backend.classify_rows(*args)
        with pytest.raises(TypeError):
            backend.classify_rows(h, b, m)  # type: ignore[call-arg]
