"""The strength tables (twoplustwo_builder.derived.strength), built on a few board classes, against direct computation.

The full tables take about a minute (``make bench``'s strength section builds them and checks that
every index is written); here each street is built from a few canonical boards and every index it
wrote is held against ``twoplustwo.strength`` of the hand it stands for, the river's W and T also
against a brute force.
"""

from __future__ import annotations

from itertools import combinations
from math import comb

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo_builder.derived import strength as st

pytestmark = pytest.mark.skipif(tp.backend() != "c", reason="the tables are built with the C sweeps")

#: Σ(2W+T), Σ(2W+T)² and the histogram of each preflop class (st.build_preflop).
Preflop = tuple[np.ndarray, np.ndarray, np.ndarray]


def brute_wins_ties(hole: list[int], board: list[int]) -> tuple[int, int]:
    rest = [c for c in range(52) if c not in hole + board]
    opponents = np.array(list(combinations(rest, 2)), dtype=np.uint8)
    values = tp.evaluate_batch(np.hstack([opponents, np.tile(np.array(board, np.uint8), (len(opponents), 1))]))
    mine = tp.evaluate(hole + board)
    return int((values < mine).sum()), int((values == mine).sum())


def sample(written: np.ndarray, n: int, seed: int) -> np.ndarray:
    at = np.flatnonzero(written)
    return np.random.default_rng(seed).choice(at, size=min(n, len(at)), replace=False)


def test_river_table_on_a_few_board_classes() -> None:
    boards = st.canonical_boards_of(5)[::4001]
    wins, ties, written = st.build_river(tp.load_tables(), boards)
    assert written.sum() >= len(boards) * 200  # each board class holds hundreds of hand classes
    indexer = tp.HandIndexer((2, 5))
    for i in sample(written, 150, 1):
        hand = indexer.unindex(int(i)).tolist()
        assert (2 * int(wins[i]) + int(ties[i])) / 1980 == tp.strength(hand[:2], hand[2:]).ehs
    for i in sample(written, 4, 2):
        hand = indexer.unindex(int(i)).tolist()
        assert (int(wins[i]), int(ties[i])) == brute_wins_ties(hand[:2], hand[2:])


@pytest.mark.parametrize(("street", "step"), [("turn", 5000), ("flop", 1000)])
def test_turn_and_flop_tables_on_a_few_board_classes(street: str, step: int) -> None:
    k = st.STREETS[street]
    boards = st.canonical_boards_of(k)[::step]
    first, second, histogram, written = st.build_street(tp.load_tables(), street, boards)
    runouts = comb(50 - k, 5 - k)
    indexer = tp.HandIndexer((2, k))
    for i in sample(written, 40, 3):
        hand = indexer.unindex(int(i)).tolist()
        want = tp.strength(hand[:2], hand[2:], bins=st.BINS)
        assert first[i] / (1980 * runouts) == want.ehs and second[i] / (1980 * 1980 * runouts) == want.ehs2
        if histogram is not None:
            assert want.histogram is not None and histogram[i].tolist() == want.histogram.tolist()
    assert (histogram is None) == (street == "turn")


@pytest.fixture(scope="module")
def preflop() -> Preflop:
    """The preflop tables built here, read-only: two tests compare with them."""
    built = st.build_preflop(tp.load_tables())
    for a in built:
        a.flags.writeable = False
    return built


def test_preflop_table(preflop: Preflop) -> None:
    first, second, histogram = preflop
    indexer = tp.HandIndexer((2,))
    assert first.shape == (169,) and histogram.shape == (169, st.BINS)
    assert (histogram.sum(axis=1) == comb(50, 5)).all()
    for i in (0, 84, 168):
        hole = indexer.unindex(i).tolist()
        want = tp.strength(hole, bins=st.BINS)
        assert int(first[i]) / (1980 * comb(50, 5)) == want.ehs
        assert int(second[i]) / (1980 * 1980 * comb(50, 5)) == want.ehs2
        assert want.histogram is not None and histogram[i].tolist() == want.histogram.tolist()


def test_the_runtime_reads_the_tables_it_is_given(preflop: Preflop, monkeypatch: pytest.MonkeyPatch) -> None:
    """strength() and strength_batch() read a set's strength tables and give what they compute without them."""
    from twoplustwo.odds.strength import from_tables
    from twoplustwo.tables.load import Tables
    from twoplustwo.tables.optional import STRENGTH_ROLES

    plain = tp.load_tables()
    few = {"river": st.canonical_boards_of(5)[::9001], "turn": st.canonical_boards_of(4)[::4001],
           "flop": st.canonical_boards_of(3)[::501]}  # fmt: skip
    # The preflop tables of these same tables, built once for the module, instead of a second time.
    monkeypatch.setattr(st, "build_preflop", lambda tables, executor=None: preflop)
    arrays, written = st.strength_arrays(plain, few)
    assert {r: len(a) for r, a in arrays.items()} == STRENGTH_ROLES
    with_tables = Tables(plain.path, plain.manifest, {**plain.buffers, **arrays})
    rng = np.random.default_rng(5)
    for street, k in st.STREETS.items():
        indexer = tp.HandIndexer((2, k))
        hands = indexer.unindex(rng.choice(np.flatnonzero(written[street]), 30, replace=False).astype(np.uint64))
        holes, boards = hands[:, :2], hands[:, 2:]
        assert from_tables(with_tables, holes.astype(np.intp), boards.astype(np.intp), None) is not None
        assert from_tables(plain, holes.astype(np.intp), boards.astype(np.intp), None) is None
        for bins in (None, st.BINS) if street != "turn" else (None,):
            read = tp.strength_batch(holes, boards, bins=bins, tables=with_tables)
            computed = tp.strength_batch(holes, boards, bins=bins, tables=plain)
            assert (read.ehs == computed.ehs).all() and (read.ehs2 == computed.ehs2).all()
            assert (read.histogram is None) == (bins is None)
            if read.histogram is not None and computed.histogram is not None:
                assert (read.histogram == computed.histogram).all()
        one = tp.strength(holes[0].tolist(), boards[0].tolist(), tables=with_tables)
        assert one.ehs == tp.strength(holes[0].tolist(), boards[0].tolist(), tables=plain).ehs
    for hole in ("As Ah", "7c 2d", "Th 9h"):
        read_one, computed_one = (tp.strength(hole, bins=st.BINS, tables=t) for t in (with_tables, plain))
        assert (read_one.ehs, read_one.ehs2) == (computed_one.ehs, computed_one.ehs2)
        assert read_one.histogram is not None and computed_one.histogram is not None
        assert read_one.histogram.tolist() == computed_one.histogram.tolist()


def test_the_tables_built_on_a_dask_cluster_are_the_local_ones(preflop: Preflop) -> None:
    distributed = pytest.importorskip("distributed")
    from concurrent.futures import ProcessPoolExecutor

    t = tp.load_tables()
    boards = st.canonical_boards_of(5)[::2999]
    local = st.build_river(t, boards)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote = st.build_river(t, boards, executor=client.get_executor())
    assert all(a.tobytes() == b.tobytes() for a, b in zip(local, remote))
    flops = st.canonical_boards_of(3)[::400]
    with ProcessPoolExecutor(2) as pool:
        pooled = st.build_street(t, "flop", flops, executor=pool)
        pooled_preflop = st.build_preflop(t, executor=pool)
    here = st.build_street(t, "flop", flops)
    assert all((a is None and b is None) or a.tobytes() == b.tobytes() for a, b in zip(here, pooled))  # type: ignore[union-attr]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(preflop, pooled_preflop))
