"""Ordered iteration and histograms over whole spaces of hands.

``iter_hands`` is checked structurally (every row sorted, rows strictly
increasing across chunk boundaries, the binomial count, include and dead
respected: together these force exactly the right hands in the right order)
and its values against ``evaluate_batch``; ``histogram`` against the
``bincount`` of those values and against the published category counts.
"""

from __future__ import annotations

from math import comb

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.hands.iterate import count_hands, iter_hands
from twoplustwo.hands.value_counts import histogram
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.values import CATEGORIES, HAND_COUNTS, N_VALUES, categories

PUBLISHED = {n: list(counts) for n, (counts, _) in HAND_COUNTS.items()}
DISTINCT = {n: distinct for n, (_, distinct) in HAND_COUNTS.items()}

def _keys(cards: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    """Each sorted hand as a base-52 number: lexicographic order is numeric order."""
    key = np.zeros(len(cards), dtype=np.int64)
    for j in range(cards.shape[1]):
        key = key * 52 + cards[:, j]
    return key


def _collect(
    n: int, **kw: object
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint16], list[int]]:
    chunks = list(iter_hands(n, **kw))  # type: ignore[arg-type]
    if not chunks:
        return np.empty((0, n), np.uint8), np.empty(0, np.uint16), []
    cards = np.concatenate([c for c, _ in chunks])
    values = np.concatenate([v for _, v in chunks])
    return cards, values, [len(c) for c, _ in chunks]


def _check_space(
    cards: npt.NDArray[np.uint8], n: int, include: list[int], dead: list[int]
) -> None:
    assert cards.dtype == np.uint8 and cards.shape[1] == n
    assert (np.diff(cards.astype(np.int16), axis=1) > 0).all(), "a row is not strictly sorted"
    assert int(cards.max(initial=0)) <= 51
    assert (np.diff(_keys(cards)) > 0).all(), "rows are not strictly increasing"
    for c in include:
        assert (cards == c).any(axis=1).all(), f"a hand misses include card {c}"
    for c in dead:
        assert not (cards == c).any(), f"a hand holds dead card {c}"


@pytest.mark.parametrize("n", [5, 6, 7])
def test_histogram_totals_and_published_counts(n: int) -> None:
    h = histogram(n)
    assert h.shape == (N_VALUES + 1,) and h.dtype == np.int64
    assert h[0] == 0
    assert int(h.sum()) == comb(52, n)
    assert int((h > 0).sum()) == DISTINCT[n]
    per = np.bincount(categories(np.arange(1, N_VALUES + 1)), weights=h[1:], minlength=9)
    assert dict(zip(CATEGORIES, per.astype(np.int64).tolist())) == dict(zip(CATEGORIES, PUBLISHED[n]))


def test_tables_is_keyword_only() -> None:
    from twoplustwo.tables.default import get_tables

    assert np.array_equal(histogram(5, tables=get_tables()), histogram(5))
    with pytest.raises(TypeError):
        histogram(5, get_tables())  # type: ignore[misc]


@pytest.mark.parametrize("n, chunk_size, every", [(5, 100_003, 1), (6, 1_000_003, 4), (7, 3_000_017, 15)])
def test_iter_hands_everything(n: int, chunk_size: int, every: int) -> None:
    # Odd chunk sizes put chunk boundaries inside groups of shared prefixes.
    # Every chunk must continue the order of the one before; a sample of
    # chunks is checked row by row and against evaluate_batch.
    total = 0
    hist = np.zeros(N_VALUES + 1, dtype=np.int64)
    previous = -1
    sizes = []
    for i, (cards, values) in enumerate(iter_hands(n, chunk_size=chunk_size)):
        assert cards.shape == (len(values), n) and values.dtype == np.uint16
        ends = _keys(cards[[0, -1]])
        assert ends[0] > previous, f"chunk {i} does not continue the order"
        previous = int(ends[1])
        if i % every == 0:
            _check_space(cards, n, [], [])
            assert np.array_equal(values, evaluate_batch(cards))
        hist += np.bincount(values, minlength=N_VALUES + 1)
        total += len(values)
        sizes.append(len(values))
    assert total == comb(52, n)
    assert all(s == chunk_size for s in sizes[:-1]) and 0 < sizes[-1] <= chunk_size
    assert cards[-1].tolist() == list(range(52 - n, 52))
    assert np.array_equal(hist, histogram(n))


def test_iter_hands_first_hands() -> None:
    cards, values = next(iter_hands(7, chunk_size=50))
    assert cards[0].tolist() == list(range(7))
    assert cards[45].tolist() == list(range(6)) + [51]
    assert cards[46].tolist() == [0, 1, 2, 3, 4, 6, 7]
    assert np.array_equal(values, evaluate_batch(cards))


_LOW = " ".join(f"{r}{s}" for r in "23456" for s in "cdhs")  # 20 cards

# (n, include, dead): interleaved include cards, dead cards, several groups
# and the degenerate spaces (one hand, no hand).
CASES = [
    (7, "As", _LOW),
    (7, "9h", _LOW),
    (7, "2c", "3c 4c 5c " + " ".join(f"{r}{s}" for r in "789T" for s in "cdhs")),
    (7, "7h Kd", "2c Ah"),
    (7, "2c 3c 4c", ""),
    (7, "Qs 2d Th 9c 8s", "Js"),
    (7, "As Ks Qs Js Ts 9s", ""),
    (7, "As Ks Qs Js Ts 9s 8s", ""),
    (6, "", "As 2c 3d 4h 5s 6c 7d 8h 9s"),
    (6, "Td", "Ac"),
    (6, "2c 3c 4c 5c", "6c"),
    (5, "", ""),
    (5, "Ah Kh", "Qh Jh Th"),
    (5, "2c 3d 4h 5s 6c", ""),
    (5, "", " ".join(f"{r}{s}" for r in "23456789TJQ" for s in "cdhs")),  # 8 cards left
]


@pytest.mark.parametrize("n, include, dead", CASES)
def test_include_dead(n: int, include: str, dead: str) -> None:
    inc, out = parse_cards(include), parse_cards(dead)
    want = comb(52 - len(inc) - len(out), n - len(inc))
    assert count_hands(n, include=include, dead=dead) == want
    cards, values, _ = _collect(n, include=include, dead=dead, chunk_size=100_003)
    assert len(cards) == want
    _check_space(cards, n, inc, out)
    assert np.array_equal(values, evaluate_batch(cards) if len(cards) else values)
    h = histogram(n, include=include, dead=dead)
    assert int(h.sum()) == want
    assert np.array_equal(h, np.bincount(values, minlength=N_VALUES + 1))


def test_no_hands_left() -> None:
    dead = list(range(48))
    assert count_hands(5, dead=dead) == 0
    assert list(iter_hands(5, dead=dead)) == []
    assert not histogram(5, dead=dead).any()


def test_order_of_include_and_forms_do_not_matter() -> None:
    a = _collect(7, include="Kd 7h", dead="Ah 2c")
    b = _collect(7, include=[22, "Kd"], dead=np.array([0, 50]))
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_threads_and_chunk_sizes_do_not_change_the_output() -> None:
    # 7 and 6 free cards: one and two fixed prefix cards per group.
    for n, include, dead in [(7, "", _LOW + " 7c"), (7, "9d", _LOW), (6, "", _LOW)]:
        ref_cards, ref_values, _ = _collect(n, include=include, dead=dead, chunk_size=1 << 16, threads=2)
        for kw in ({"threads": 1}, {"chunk_size": 1 << 15, "threads": 2}, {"chunk_size": 7777}):
            cards, values, _ = _collect(n, include=include, dead=dead, **kw)
            assert np.array_equal(cards, ref_cards) and np.array_equal(values, ref_values)
    ones = list(iter_hands(5, include="2c 3c 4c 5c", chunk_size=1))
    assert [len(c) for c, _ in ones] == [1] * 48
    whole = _collect(5, include="2c 3c 4c 5c")
    assert np.array_equal(np.concatenate([c for c, _ in ones]), whole[0])


def test_chunks_are_fresh_arrays() -> None:
    it = iter_hands(6, chunk_size=1 << 16)
    c1, v1 = next(it)
    keep = c1.copy(), v1.copy()
    c2, v2 = next(it)
    assert not np.shares_memory(c1, c2) and not np.shares_memory(v1, v2)
    assert np.array_equal(c1, keep[0]) and np.array_equal(v1, keep[1])
    it.close()  # abandoning the generator must not hang or fail


@pytest.mark.parametrize("threads", [1, 2])
def test_reused_chunks_cycle_through_a_few_buffers(threads: int) -> None:
    fresh = [(c, v) for c, v in iter_hands(6, include="As", chunk_size=1 << 15, threads=threads)]
    held, copies = [], []  # holding the arrays keeps their ids from being recycled
    for c, v in iter_hands(6, include="As", chunk_size=1 << 15, threads=threads, reuse=True):
        held.append(c)
        copies.append((c.copy(), v.copy()))
    assert len(copies) == len(fresh) > 8
    assert len({id(c) for c in held}) <= 4  # buffers come back, instead of one new pair per chunk
    assert len({id(c) for c, _ in fresh}) == len(fresh)
    for (c, v), (fc, fv) in zip(copies, fresh):
        assert np.array_equal(c, fc) and np.array_equal(v, fv)
    with pytest.raises(TypeError, match="reuse must be True or False"):
        iter_hands(5, reuse=1)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"n": 4}, "n must be 5, 6 or 7"),
        ({"n": 8}, "n must be 5, 6 or 7"),
        ({"include": "As Kd", "dead": "Kd"}, "Kd both included and dead"),
        ({"n": 5, "include": "As Ks Qs Js Ts 9s"}, "6 include cards do not fit"),
        ({"include": "As As"}, "duplicate"),
        ({"dead": "Xx"}, "unknown rank"),
        ({"include": [52]}, "out of range"),
    ],
)
def test_bad_arguments(kwargs: dict[str, object], message: str) -> None:
    for fn in (iter_hands, histogram, count_hands):
        with pytest.raises(ValueError, match=message):
            fn(**kwargs)  # type: ignore[operator]


def test_bad_chunking_raises_at_the_call() -> None:
    with pytest.raises(ValueError, match="chunk_size"):
        iter_hands(5, chunk_size=0)
    with pytest.raises(ValueError, match="threads"):
        iter_hands(5, threads=-1)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.sampled_from([5, 6, 7]),
    cards=st.lists(st.integers(0, 51), min_size=7, max_size=14, unique=True),
    n_inc=st.integers(0, 7),
    data=st.data(),
)
def test_random_include_dead(n: int, cards: list[int], n_inc: int, data: st.DataObject) -> None:
    # Keep spaces small (at most C(50, 3) hands): at least n - 3 include cards.
    n_inc = min(max(n_inc, n - 3), n)
    include, dead = cards[:n_inc], cards[n_inc:]
    cards_, values, _ = _collect(n, include=include, dead=dead, chunk_size=data.draw(st.integers(50, 5000)))
    assert len(cards_) == comb(52 - len(cards), n - n_inc)
    _check_space(cards_, n, include, dead)
    if len(cards_):
        assert np.array_equal(values, evaluate_batch(cards_))
    want = np.bincount(values, minlength=N_VALUES + 1)
    assert np.array_equal(histogram(n, include=include, dead=dead), want)
