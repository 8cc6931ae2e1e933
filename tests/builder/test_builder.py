"""The builder: node counts, determinism, joins, atomic publishing, self-check."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from tests.builder.tinybuild import writer_cmd
from tests.tinysets import INFO, fill_of, stage_tiny, tiny_arrays, tiny_files
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import default_path
from twoplustwo.vocab.rules import GAMES
from twoplustwo_builder.dag import pipeline
from twoplustwo_builder.dag.join import fill_dead, join_layers
from twoplustwo_builder.dag.order import hot_first
from twoplustwo_builder.dag.selfcheck import SelfCheckError, self_check
from twoplustwo_builder.dag.states import enumerate_states, hand_values
from twoplustwo_builder.dag.write import discard, publish, smallest_dtype, stage

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def dag7_layers():
    return enumerate_states(7)


@pytest.fixture(scope="module")
def built():
    return load_tables(default_path())


def _reuse_games(monkeypatch, built):
    # The other games' DAGs come from the published set too, like hold'em's in each test.
    def reuse(game, n, report, bar):
        dag = game.dag(n)
        report.nodes[dag] = built.manifest["nodes"][dag]
        report.nodes_before[dag] = built.manifest["nodes_before_join"][dag]
        return {role: np.asarray(a) for role, a in built.arrays.items() if role.startswith(f"{dag}/")}

    monkeypatch.setattr(pipeline, "build_game_dag", reuse)


def _carried(layers):
    return {d: hand_values(layers[d].states).astype(np.int64) for d in (5, 6)}


def test_small_dag_node_counts():
    assert [len(x.states) for x in enumerate_states(5)] == [1, 52, 403, 1599, 4680]
    assert [len(x.states) for x in enumerate_states(6)] == [1, 52, 1326, 5655, 19552, 48503]


def test_dag7_counts_match_the_careful_reference(dag7_layers):
    # The reference: a careful build with exact joins reaches
    # 1 / 52 / 1,326 / 22,100 / 84,448 / 152,607 / 285,548 nodes.
    assert [len(x.states) for x in dag7_layers] == [1, 52, 1326, 22100, 84448, 152607, 290667]
    tables, _ = join_layers(dag7_layers, _carried(dag7_layers), dont_care=False)
    assert [len(t) for t in tables] == [1, 52, 1326, 22100, 84448, 152607, 285548]


def test_dont_care_join_is_smaller_and_deterministic(dag7_layers, built):
    tables, values = hot_first(*join_layers(dag7_layers, _carried(dag7_layers)))
    counts = [len(t) for t in tables]
    assert counts == built.nodes["dag7"]
    assert counts[6] < 285548
    # Under the 83,745,584 bytes for the plain join's seven layers.
    assert sum(t.size * smallest_dtype(t).itemsize for t in tables) < 83_745_584 - 500_000
    # Byte for byte what the published build holds: a second build is identical.
    for k, t in enumerate(tables, start=1):
        np.testing.assert_array_equal(np.asarray(built.arrays[f"dag7/layer{k}"]), t.ravel())
    for d in (5, 6):
        np.testing.assert_array_equal(np.asarray(built.arrays[f"dag7/value{d}"]), values[d])


def test_small_dags_rebuild_identically(built):
    for n in (5, 6):
        tables, _ = hot_first(*join_layers(enumerate_states(n), {}))
        for k, t in enumerate(tables, start=1):
            np.testing.assert_array_equal(np.asarray(built.arrays[f"dag{n}/layer{k}"]), t.ravel())


def test_fill_dead_takes_the_same_rank_in_a_live_suit():
    rows = np.arange(52, dtype=np.int64)[None, :] + 100
    dead = np.zeros((1, 52), bool)
    dead[0, 0] = True  # 2c dead: takes 2d's entry
    dead[0, [48, 49, 50, 51]] = True  # every ace dead: takes the fallback
    out = fill_dead(rows, dead, np.array([7]))
    assert out[0, 0] == 101
    assert list(out[0, 48:]) == [7, 7, 7, 7]
    assert (out[0, 1:48] == rows[0, 1:48]).all()


def test_hot_first_numbering_puts_busy_nodes_first(built):
    # Card sets per depth-6 node, by the same prefix counting the histogram uses.
    from twoplustwo_builder.dag.order import set_counts

    layers = [np.asarray(built.arrays[f"dag7/layer{k}"], dtype=np.int64).reshape(-1, 52) for k in range(1, 8)]
    counts = set_counts(layers)
    for c in counts:
        assert (np.diff(c) <= 0).all()
    assert counts[-1].sum() == 20358520  # every 6-card set reaches one depth-6 node
    hot = int(len(counts[-1]) * 0.05)
    assert counts[-1][:hot].sum() > 0.85 * counts[-1].sum()


def test_manifest_describes_the_build(built):
    m = built.manifest
    assert m["nodes_before_join"]["dag7"] == [1, 52, 1326, 22100, 84448, 152607, 290667]
    assert m["nodes"]["dag5"] == [1, 52, 403, 1599, 4680]
    for f in m["files"]:
        arr = built.arrays[f["role"]]
        top = int(np.asarray(arr).max())
        # The smallest unsigned dtype that holds the entries.
        assert np.dtype(f["dtype"]) == smallest_dtype(np.array([top]))
        assert f["offset"] % 64 == 0
    assert int(np.asarray(built.arrays["dag7/layer7"]).max()) == 7462


def _hardlink_copy(src: Path, dst: Path) -> Path:
    dst.mkdir()
    for p in src.iterdir():
        if p.is_file() and (p.suffix == ".npy" or p.name == MANIFEST):
            os.link(p, dst / p.name)
    return dst


def test_staging_is_invisible_until_published(tmp_path, built):
    target = _hardlink_copy(built.path, tmp_path / "t")
    before = (target / MANIFEST).read_text()
    arrays = {f["role"]: np.asarray(built.arrays[f["role"]]) for f in built.manifest["files"]}
    info = {k: built.manifest[k] for k in ("nodes", "nodes_before_join")}
    staging = stage(target, arrays, info)
    assert (target / MANIFEST).read_text() == before
    assert staging.parent == target and staging.name.startswith(".build-")
    discard(staging)
    assert not staging.exists()
    assert (target / MANIFEST).read_text() == before
    staging = stage(target, arrays, info)
    publish(staging)
    assert not staging.exists()
    load_tables(target, verify=True)
    assert sorted(p.name for p in target.glob("*.npy")) == sorted(f["name"] for f in built.manifest["files"])


def test_failed_self_check_publishes_nothing(tmp_path, built, monkeypatch):
    target = _hardlink_copy(built.path, tmp_path / "t")
    before = (target / MANIFEST).read_text()

    def reuse(n, report, bar):
        # Skip the slow enumeration: hand back the built arrays, one entry wrong.
        arrays = {
            f["role"]: np.asarray(built.arrays[f["role"]]).copy()
            for f in built.manifest["files"]
            if f["role"].startswith(f"dag{n}/")
        }
        report.nodes[f"dag{n}"] = built.nodes[f"dag{n}"]
        report.nodes_before[f"dag{n}"] = built.manifest["nodes_before_join"][f"dag{n}"]
        if n == 5:
            # The entry 2c 3c 4c 5c 6d takes: a six-high straight becomes something else.
            node = 0
            for k, card in enumerate([0, 4, 8, 12], start=1):
                node = int(arrays[f"dag5/layer{k}"][node * 52 + card])
            arrays["dag5/layer5"][node * 52 + 17] ^= 1
        return arrays

    monkeypatch.setattr(pipeline, "build_dag", reuse)
    _reuse_games(monkeypatch, built)
    with pytest.raises(SelfCheckError, match="dag5, all 5-card hands: 1.* hands differ"):
        pipeline.build(target, quiet=True)
    assert (target / MANIFEST).read_text() == before
    assert not list(target.glob(".build-*"))
    load_tables(target, verify=True)


def test_self_check_passes_on_the_published_tables(built):
    self_check(built.path, sample=100_000)


def _build_cmd(target: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "twoplustwo_builder", "--out", str(target), "--quiet", *extra]


def test_a_completed_build_publishes_the_committed_manifest(tmp_path, built, monkeypatch):
    # The build's last steps (stage, publish) as the CLI runs them, with the
    # enumeration (checked above against these same arrays) handed back
    # instead of redone: the manifest comes out byte for byte as committed.
    def reuse(n, report, bar):
        dag = f"dag{n}"
        report.nodes[dag] = built.nodes[dag]
        report.nodes_before[dag] = built.manifest["nodes_before_join"][dag]
        return {role: np.asarray(a) for role, a in built.arrays.items() if role.startswith(f"{dag}/")}

    monkeypatch.setattr(pipeline, "build_dag", reuse)
    _reuse_games(monkeypatch, built)
    target = tmp_path / "t"
    pipeline.build(target, quiet=True, check=False)
    assert (target / MANIFEST).read_text() == (built.path / MANIFEST).read_text()
    # Hold'em's 20; short deck's two 7-card DAGs, 9 each; razz's 9; the two 5-card lowballs' 5 each; badugi's 4.
    assert len(built.manifest["files"]) == 20 + 9 + 9 + 9 + 5 + 5 + 4
    assert sorted(p.name for p in target.glob("*.npy")) == sorted(f["name"] for f in built.manifest["files"])
    assert not list(target.glob(".build-*"))
    load_tables(target, verify=True)


def test_two_concurrent_writers_end_with_one_verified_set(tmp_path):
    # Two writers publish round after round into one directory while a third
    # holds a staged set: every clean-up of the two runs while the third's
    # staging waits, and must leave it alone (the third then publishes it).
    target = tmp_path / "t"
    held = subprocess.Popen(
        writer_cmd(target, "--fills", "5", "--pause", "staged"),
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert held.stdout is not None and held.stdin is not None
    assert held.stdout.readline() == "paused staged\n", held.communicate(timeout=60)[1]
    racers = [
        subprocess.Popen(
            writer_cmd(target, "--fills", fills, "--rounds", "25"),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for fills in ("1,2", "3,4")
    ]
    deadline = time.monotonic() + 60
    while not (target / MANIFEST).exists():  # a racer has published and cleaned up once
        assert time.monotonic() < deadline and all(p.poll() in (None, 0) for p in racers)
        time.sleep(0.005)
    held.stdin.write("\n")
    held.stdin.flush()
    for p in [held, *racers]:
        out, err = p.communicate(timeout=60)
        assert p.returncode == 0, err
        assert int(out.split()[-1]) == (1 if p is held else 25)
    t = load_tables(target, verify=True)
    assert fill_of(t) in {1, 2, 3, 4, 5}  # one writer's set whole, not a mix of two
    assert {p.name for p in target.glob("*.npy")} == {f["name"] for f in t.manifest["files"]}
    assert not list(target.glob(".build-*"))


def test_a_set_without_every_game_is_not_present(tmp_path):
    # So `make` rebuilds a set from before a game was added.
    every = tuple(g for g in GAMES if g != "holdem")
    for games, present in [((), False), (("short-deck",), False), (every[:-1], False), (every, True)]:
        target = tmp_path / f"{len(games)}"
        target.mkdir()
        manifest, files = tiny_files(1, games)
        for name, raw in files.items():
            (target / name).write_bytes(raw)
        (target / MANIFEST).write_text(json.dumps(manifest))
        assert pipeline.tables_present(target) is present, games
        if present:
            (target / files.popitem()[0]).unlink()  # a short-deck file
            assert not pipeline.tables_present(target)


def test_if_missing_skips_existing_tables(built):
    out = subprocess.run(
        [sys.executable, "-m", "twoplustwo_builder", "--out", str(built.path), "--if-missing"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    assert "tables present" in out.stderr


def test_unwritable_target_is_a_clear_error(tmp_path):
    if os.geteuid() == 0:
        target = Path("/proc/twoplustwo-tables")  # not creatable even for root
    else:
        target = tmp_path / "ro"
        target.mkdir()
        target.chmod(0o500)
    out = subprocess.run(_build_cmd(target, "--no-check"), cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stderr.startswith("build failed:")
    assert len(out.stderr.strip().splitlines()) == 1


def test_staged_files_are_exactly_what_numpy_writes(tmp_path: Path) -> None:
    # The writer puts header and data down in one write(); the bytes must
    # stay those of numpy's own .npy, so any .npy reader takes them.
    import io

    arrays = tiny_arrays(7)
    arrays["dag7/layer7"] = np.arange(52) * 150  # two-byte entries
    staging = stage(tmp_path, arrays, INFO)
    try:
        manifest = json.loads((staging / MANIFEST).read_text())
        assert len(manifest["files"]) == len(arrays)
        for f in manifest["files"]:
            want = io.BytesIO()
            np.lib.format.write_array(want, arrays[f["role"]].astype(f["dtype"]), version=(1, 0))
            assert (staging / f["name"]).read_bytes() == want.getvalue(), f["role"]
            assert f["offset"] == 128
    finally:
        discard(staging)


def test_the_runtimes_tiny_writer_stages_what_the_builder_stages(tmp_path: Path) -> None:
    # The runtime's tests publish tiny sets without the builder: their files
    # must be the builder's, byte for byte, for those tests to stand for it.
    ours, theirs = stage_tiny(tmp_path / "a", tiny_arrays(7), INFO), stage(tmp_path / "b", tiny_arrays(7), INFO)
    try:
        assert (ours / MANIFEST).read_text() == (theirs / MANIFEST).read_text()
        for f in json.loads((ours / MANIFEST).read_text())["files"]:
            assert (ours / f["name"]).read_bytes() == (theirs / f["name"]).read_bytes()
    finally:
        discard(ours)
        discard(theirs)
