"""The bucket tables (twoplustwo_builder.derived.abstraction): their rows, weights and baseline against direct
computation, and publishing them, on strength tables built from a few board classes.

The full tables take minutes (``make bench``'s poker_ai section times them); here the strength tables
hold only the indices a few boards reach, and everything read from them is checked at those indices.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.tables.load import Tables, default_path
from twoplustwo_builder.dag.write import publish, stage
from twoplustwo_builder.derived import abstraction as ab
from twoplustwo_builder.derived import strength as st

pytestmark = pytest.mark.skipif(tp.backend() != "c", reason="the strength tables are built with the C sweeps")

FEW = {"river": st.canonical_boards_of(5)[::9001], "turn": st.canonical_boards_of(4)[::4001],
       "flop": st.canonical_boards_of(3)[::301]}  # fmt: skip


@pytest.fixture(scope="module")
def strength_set(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the checkout's set, published again with strength tables built from a few board classes."""
    target = tmp_path_factory.mktemp("set") / "tables"
    shutil.copytree(default_path(), target, ignore=shutil.ignore_patterns(".*"))
    t = tp.load_tables(target)
    arrays, _ = st.strength_arrays(t, FEW)
    info = {k: v for k, v in t.manifest.items() if k not in ("format_version", "files")}
    publish(stage(target, arrays, info, keep=t.manifest["files"]))
    return target


def test_counts_are_the_raw_hands_of_each_index() -> None:
    """Every (2, 3) hand dealt, indexed: each index is hit as often as counts() says."""
    flop = tp.HandIndexer((2, 3))
    hits = np.zeros(flop.size(), dtype=np.int64)
    boards = np.array(list(combinations(range(52), 3)), dtype=np.uint8)
    for a in range(51):
        # Counted once per first card: a count over all 1.3 M indices for each hole took longer than the indexing.
        at = []
        for b in range(a + 1, 52):
            rest = boards[~np.isin(boards, (a, b)).any(axis=1)]
            hands = np.concatenate([np.tile(np.array([a, b], dtype=np.uint8), (len(rest), 1)), rest], axis=1)
            at.append(flop.index(hands))
        hits += np.bincount(np.concatenate(at).astype(np.intp), minlength=flop.size())
    assert (hits == flop.counts(np.arange(flop.size()))).all()


def test_weights_make_canonical_buckets_those_of_the_raw_hands() -> None:
    """k-medians of the canonical hands with their counts puts every raw hand where clustering all of them does."""
    indexer = tp.HandIndexer((2, 1))
    canonical = indexer.unindex(np.arange(indexer.size()))
    # Rows that a renaming of the suits keeps: ranks, whether suited, whether the card pairs or suits the hole.
    rank, suit = canonical >> 2, canonical & 3
    suited = 5 * (suit[:, 0] == suit[:, 1])
    flush_card = 3 * ((suit[:, 2] == suit[:, 0]) | (suit[:, 2] == suit[:, 1]))
    rows = np.stack([rank[:, 0], rank[:, 1], rank[:, 2], suited, flush_card], axis=1).astype(np.uint16)
    raw = np.array([(a, b, c) for a, b in combinations(range(52), 2) for c in range(52) if c not in (a, b)],
                   dtype=np.uint8)  # fmt: skip
    at = indexer.index(raw).astype(np.intp)
    counts = indexer.counts(np.arange(indexer.size()))
    assert (np.bincount(at, minlength=indexer.size()) == counts).all()
    canonical_buckets = tp.kmeans(rows, counts, k=25, seed=4)
    raw_buckets = tp.kmeans(rows[at], k=25, seed=4)
    assert (raw_buckets.labels == canonical_buckets.labels[at]).all()
    assert raw_buckets.cost == canonical_buckets.cost


def test_percentile_buckets_against_their_definition() -> None:
    rng = np.random.default_rng(3)
    strength = rng.integers(0, 40, 500)
    weights = rng.integers(1, 25, 500)
    got = ab.percentile_buckets(strength, weights, 7)
    total = weights.sum()
    for i in range(500):
        assert got[i] == 7 * weights[strength < strength[i]].sum() // total


def test_rows_are_each_hands_equity_distribution(strength_set: Path) -> None:
    t = tp.load_tables(strength_set)
    f = ab.features(t, "flop", "emd")
    assert f.points is not None and f.points.shape == (1_286_792, 49) and f.scale == 1081 * 50
    flop = tp.HandIndexer((2, 3))
    rng = np.random.default_rng(6)
    for board in FEW["flop"][:12].tolist():
        hole = [int(c) for c in rng.choice([c for c in range(52) if c not in board], 2, replace=False)]
        i = flop.index(hole + board)
        want = tp.strength(hole, board, bins=50)
        assert want.histogram is not None
        assert f.points[i].tolist() == np.cumsum(want.histogram)[:-1].tolist()
        assert int(f.strength[i]) == round(want.ehs * 1980 * 1081)
    assert (f.weights == flop.counts(np.arange(flop.size()))).all()


def test_turn_rows_are_the_sorted_rivers(strength_set: Path) -> None:
    plain = tp.load_tables(strength_set)
    turn = tp.HandIndexer((2, 4))
    hands = [tp.parse_cards(h) for h in ("As Ah Kd 7c 2h 3h", "Th 9h 8h 7c 2d Kh", "7c 2d Qs Js 4h 4c")]
    at = np.array([turn.index(h) for h in hands], dtype=np.uint64)
    # The river tables at every river of these hands, built for their boards alone.
    boards = np.array([sorted(h[2:] + [r]) for h in hands for r in range(52) if r not in h], dtype=np.uint8)
    wins, ties, _ = st.build_river(plain, boards)
    t = Tables(plain.path, plain.manifest, {**plain.buffers, "strength/river/wins": wins, "strength/river/ties": ties})
    rows = ab.turn_rows(t, at)
    for hand, row in zip(hands, rows):
        canonical = turn.unindex(turn.index(hand)).tolist()
        want = sorted(round(tp.strength(canonical[:2], canonical[2:] + [r]).ehs * 1980)
                      for r in range(52) if r not in canonical)  # fmt: skip
        assert row.tolist() == want


@pytest.fixture(scope="module")
def turn_set(strength_set: Path) -> Tables:
    """The strength set with a turn ``emd`` table of 7 buckets: the sum of a hand's ranks modulo 5 (a rule that suit
    renamings keep), but for bucket 5, which holds 300 hands, few enough for a brute-force median; bucket 6 is
    empty."""
    plain = tp.load_tables(strength_set)
    turn = tp.HandIndexer((2, 4))
    labels = np.empty(turn.size(), dtype=np.uint16)
    step = 1 << 21
    for a in range(0, turn.size(), step):
        hands = turn.unindex(np.arange(a, min(a + step, turn.size()), dtype=np.uint64))
        labels[a : a + len(hands)] = (hands >> 2).sum(axis=1, dtype=np.uint16) % 5
    labels[np.random.default_rng(8).choice(turn.size(), 300, replace=False)] = 5
    return Tables(plain.path, plain.manifest, {**plain.buffers, "buckets/turn/emd/7": labels})


def stand_in_turn_rows(tables: Tables, indices: np.ndarray, **kwargs: object) -> np.ndarray:
    """Rows that stand in for turn_rows' (tested on its own above, and some 27 CPU-seconds for every turn hand):
    each a value mixed from the index, plus the column."""
    mixed = (np.asarray(indices, dtype=np.int64) * 7919 % 1981).astype(np.uint16)
    return mixed[:, None] + np.arange(46, dtype=np.uint16)


@pytest.fixture(scope="module")
def potential(turn_set: Tables) -> ab.Features:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ab, "turn_rows", stand_in_turn_rows)
        return ab.features(turn_set, "flop", "potential", k=7)


def test_potential_rows_count_the_turns_by_bucket(turn_set: Tables, potential: ab.Features) -> None:
    f = potential
    assert f.points is not None and f.points.shape == (1_286_792, 7) and f.metric == "emd"
    assert (f.points.sum(axis=1) == 47).all() and f.scale == 47 * 46 * 1980
    flop = tp.HandIndexer((2, 3))
    rng = np.random.default_rng(9)
    for board in FEW["flop"][:6].tolist() + [[0, 17, 50]]:
        hole = [int(c) for c in rng.choice([c for c in range(52) if c not in board], 2, replace=False)]
        want = np.zeros(7, dtype=np.int64)
        for t in range(52):
            if t not in hole + board:
                want[tp.bucket_of(hole, board + [t], "emd", 7, tables=turn_set)] += 1
        assert f.points[flop.index(hole + board)].tolist() == want.tolist()
    assert (f.weights == flop.counts(np.arange(flop.size()))).all()


def test_potential_ground_is_the_turn_buckets_medians(turn_set: Tables, potential: ab.Features) -> None:
    """The center of the small bucket, against a weighted median found by sorting; the empty bucket's is 0.

    The ground holds the medians of the stand-in rows: turn_centers' own work, the labels and weights it takes."""
    assert potential.ground is not None and potential.ground.shape == (7, 46)
    turn = tp.HandIndexer((2, 4))
    members = np.flatnonzero(turn_set.arrays["buckets/turn/emd/7"] == 5).astype(np.uint64)
    rows, weights = stand_in_turn_rows(turn_set, members), turn.counts(members).astype(np.int64)
    for j in range(46):
        order = np.argsort(rows[:, j], kind="stable")
        below = np.cumsum(weights[order])
        assert potential.ground[5, j] == rows[order[np.argmax(2 * below >= weights.sum())], j]
    assert not potential.ground[6].any()


def test_potential_buckets_are_clustered_and_summarised(
    turn_set: Tables, potential: ab.Features, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The table is kmeans' under EMD; its mean distance, against cumulative medians and the numpy twin's EMDs.

    The fixture's rows, computed once, with a ground of their own."""
    from tests.abstraction.test_kmeans import cumulative_median
    from twoplustwo.kernels.numpy.transport import emd

    ground = np.sort(np.random.default_rng(10).integers(0, 1981, (7, 46)), axis=1).astype(np.uint16)
    f = potential._replace(ground=ground)
    monkeypatch.setattr(ab, "features", lambda *args, **kwargs: f)
    table, summary = ab.bucket_table(turn_set, "flop", "potential", 7, seed=1, max_iter=4)
    assert f.points is not None and f.ground is not None
    c = tp.kmeans(f.points, f.weights, k=7, metric="emd", ground=f.ground, seed=1, max_iter=4, strength=f.strength,
                  quiet=True)  # fmt: skip
    assert table.tobytes() == c.labels.tobytes() and summary["turn_table"] == "turn/emd/7"
    assert summary["distance"] == "emd" and summary["mean_distance"] < summary["percentile_mean_distance"]
    rows, inverse = np.unique(np.column_stack([f.points, table]), axis=0, return_inverse=True)
    weight = np.bincount(inverse.ravel(), weights=f.weights).astype(np.int64)
    cost = np.abs(f.ground.astype(np.int64)[:, None] - f.ground.astype(np.int64)[None]).sum(axis=2)
    total = 0
    for bucket in range(7):
        mine = rows[:, -1] == bucket
        if not mine.any():
            continue
        center = cumulative_median(rows[mine, :-1], weight[mine], f.ground)
        total += sum(int(w) * emd(r, center, cost) for r, w in zip(rows[mine, :-1], weight[mine]))
    assert summary["mean_distance"] == total / int(f.weights.sum(dtype=np.int64)) / f.scale


def test_potential_needs_the_turn_table(strength_set: Path) -> None:
    with pytest.raises(ValueError, match="lacks buckets/turn/emd/9.*--street turn --method emd --k 9"):
        ab.features(tp.load_tables(strength_set), "flop", "potential", k=9)


def test_ochs_rows_are_equities_against_each_cluster(strength_set: Path) -> None:
    """Each river hand's row against a brute force over the opponent combos of each cluster."""
    t = tp.load_tables(strength_set)
    clusters = ab.preflop_clusters(t)
    assert sorted(set(clusters.tolist())) == list(range(ab.OPPONENT_CLUSTERS))
    preflop = tp.HandIndexer((2,))
    # The weakest cluster holds 32o, the strongest AA: buckets go from the weakest up.
    assert clusters[preflop.index("3h 2s")] == 0 and clusters[preflop.index("As Ah")] == ab.OPPONENT_CLUSTERS - 1
    boards = st.canonical_boards_of(5)[[0, 5000, 77777]]
    rows, written = ab.ochs_rows(t, boards)
    river = tp.HandIndexer((2, 5))
    combo_cluster = clusters[preflop.index(tp.COMBOS).astype(np.intp)]
    rng = np.random.default_rng(12)
    for board in boards.tolist():
        for _ in range(3):
            hole = [int(c) for c in rng.choice([c for c in range(52) if c not in board], 2, replace=False)]
            i = river.index(hole + board)
            assert written[i]
            mine = tp.evaluate(hole + board)
            live = ~np.isin(tp.COMBOS, hole + board).any(axis=1)
            same_board = np.tile(np.array(board, np.uint8), (live.sum(), 1))
            values = tp.evaluate_batch(np.hstack([tp.COMBOS[live], same_board]))
            for c in range(ab.OPPONENT_CLUSTERS):
                v = values[combo_cluster[live] == c]
                won, faced = 2 * int((v < mine).sum()) + int((v == mine).sum()), len(v)
                want = (65535 * won + faced) // (2 * faced) if faced else 32768
                assert rows[i, c] == want


def test_published_tables_are_read_back(strength_set: Path) -> None:
    listed = tp.load_tables(strength_set).manifest["files"]
    before = {f["role"]: f["sha256"] for f in listed}
    inodes = {f["name"]: (strength_set / f["name"]).stat().st_ino for f in listed}
    summary = ab.publish_buckets(strength_set, "flop", "emd", 8, seed=2, max_iter=30)
    assert summary["k"] == 8 and 0 < summary["mean_distance"] < summary["percentile_mean_distance"]
    t = tp.load_tables(strength_set)
    table, again = ab.bucket_table(t, "flop", "emd", 8, seed=2, max_iter=30)
    read = tp.buckets("flop", "emd", 8, tables=t)
    assert read.dtype == np.uint8 and np.array_equal(read, table) and again["mean_distance"] == summary["mean_distance"]
    at = tp.HandIndexer((2, 3)).index("As Ah Kd 7c 2h")
    assert tp.bucket_of("As Ah", "Kd 7c 2h", "emd", 8, tables=t) == table[at]
    files = {f["role"]: f["sha256"] for f in t.manifest["files"]}
    assert {r: files[r] for r in before} == before  # the other files are kept as they were
    assert all((strength_set / name).stat().st_ino == ino for name, ino in inodes.items())  # and not rewritten
    assert t.manifest["buckets"]["flop/emd/8"]["seed"] == 2
    ab.publish_buckets(strength_set, "flop", "percentile", 4)
    ab.publish_buckets(strength_set, "flop", "emd", 8, seed=3, max_iter=30)  # the same role again: replaced
    t = tp.load_tables(strength_set)
    roles = [f["role"] for f in t.manifest["files"]]
    assert roles.count("buckets/flop/emd/8") == 1 and "buckets/flop/percentile/4" in roles
    assert set(t.manifest["buckets"]) == {"flop/emd/8", "flop/percentile/4"}
    assert t.manifest["buckets"]["flop/emd/8"]["seed"] == 3
    strength = ab.features(t, "flop", "percentile").strength
    assert (tp.buckets("flop", "percentile", 4, tables=t) == ab.percentile_buckets(
        strength, tp.HandIndexer((2, 3)).counts(np.arange(len(strength))), 4)).all()  # fmt: skip


def test_the_command_line_builds_one(strength_set: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "twoplustwo", "abstraction", "--street", "flop", "--method", "emd",
                          "--k", "5", "--max-iter", "10", "--out", str(strength_set)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert out.returncode == 0, out.stderr
    assert "flop emd k=5: mean EMD" in out.stderr
    manifest = json.loads((strength_set / "manifest.json").read_text())
    assert "flop/emd/5" in manifest["buckets"]
    info = subprocess.run([sys.executable, "-m", "twoplustwo", "info"], capture_output=True, text=True, check=False,
                          env={**os.environ, "TWOPLUSTWO_TABLES": str(strength_set)})  # fmt: skip
    assert info.returncode == 0, info.stderr
    assert any(line.startswith("buckets") and "flop/emd/5" in line for line in info.stdout.splitlines())
    bad = subprocess.run([sys.executable, "-m", "twoplustwo_builder", "--abstraction", "--street", "river",
                          "--method", "emd", "--k", "5", "--out", str(strength_set)],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert bad.returncode == 2 and "method must be one of 'ochs', 'percentile' on the river" in bad.stderr
    early = subprocess.run([sys.executable, "-m", "twoplustwo_builder", "--abstraction", "--street", "flop",
                            "--method", "potential", "--k", "9", "--out", str(strength_set)],
                           capture_output=True, text=True, check=False)  # fmt: skip
    assert early.returncode == 1 and "lacks buckets/turn/emd/9" in early.stderr and "--method emd --k 9" in early.stderr


def test_a_dask_cluster_clusters_as_this_process_does(strength_set: Path) -> None:
    distributed = pytest.importorskip("distributed")
    t = tp.load_tables(strength_set)
    local, _ = ab.bucket_table(t, "flop", "emd", 6, seed=1, max_iter=8)
    with (
        distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster,
        distributed.Client(cluster) as client,
    ):
        remote, _ = ab.bucket_table(t, "flop", "emd", 6, seed=1, max_iter=8, executor=client.get_executor())
        boards = st.canonical_boards_of(5)[[3, 4000, 90000]]
        here_rows, here_written = ab.ochs_rows(t, boards)
        there_rows, there_written = ab.ochs_rows(t, boards, executor=client.get_executor())
    assert remote.tobytes() == local.tobytes()
    assert (here_written == there_written).all() and (here_rows[here_written] == there_rows[there_written]).all()
