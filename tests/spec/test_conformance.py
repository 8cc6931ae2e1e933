"""The Python reader passes the conformance fixtures in spec/conformance, and they are up to date.

Every case of ``cases.json`` is loaded with ``load_tables(path)`` and
``load_tables(path, verify=True)``: the loader does not range-check (numpy's
indexing is bounds-checked), so its expected outcome is ``expect``, or
``verify`` when verifying. The vectors are evaluated with the runtime. That
the folder is what the builder's generator writes, byte for byte, is the
builder's test (``tests/builder/test_conformance_generate.py``).
"""

from __future__ import annotations

import json
from collections import Counter
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo import HandIndexer, TableError, evaluate, evaluate_batch, load_tables, strength, strength_batch
from twoplustwo.tables.format import ROLES
from twoplustwo.tables.optional import STRENGTH_BINS, STRENGTH_ROLES
from twoplustwo.vocab.cards import parse_cards

FIXTURES = Path(__file__).resolve().parents[2] / "spec" / "conformance"
CASES: list[dict[str, Any]] = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))["cases"]
#: The roles of the game the game-roles case adds.
GAME_ROLES = {f"tiny/dag7/layer{k}" for k in range(1, 8)} | {"tiny/dag7/value5", "tiny/dag7/value6"}


def tiny_value(cards: list[int]) -> int:
    """The value a walk of the tiny set gives, as spec/conformance/README.md documents it."""
    return 1000 * len(cards) + (100 if max(cards) >= 32 else 0) + 1


def read_vectors(path: Path) -> list[tuple[str, list[int], int]]:
    """(text, cards, value) for each line of a vectors file."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        text, value = line.split("\t")
        out.append((text, parse_cards(text), int(value)))
    return out


def check_walks(t: Any, vectors: list[tuple[str, list[int], int]]) -> None:
    for n in (5, 6, 7):
        rows = [(cards, v) for _, cards, v in vectors if len(cards) == n]
        got = evaluate_batch(np.array([c for c, _ in rows]), tables=t)
        np.testing.assert_array_equal(got, [v for _, v in rows], err_msg=f"{n}-card vectors")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
@pytest.mark.parametrize("verify", [False, True], ids=["load", "verify"])
def test_python_loader(case: dict[str, Any], verify: bool) -> None:
    path = FIXTURES / "cases" / case["name"]
    want = case.get("verify", case["expect"]) if verify else case["expect"]
    if want == "reject":
        with pytest.raises(TableError) as e:
            load_tables(path, verify=verify)
        for name in case["names"]:
            assert name in str(e.value), f"{case['name']}: {name!r} not named in: {e.value}"
        return
    t = load_tables(path, verify=verify)
    games = GAME_ROLES if case["name"] == "game-roles" else set()
    assert set(t.arrays) - set(STRENGTH_ROLES) == ROLES | games
    assert bool(set(t.arrays) & set(STRENGTH_ROLES)) == ("strength" in case)
    if "vectors" in case:
        vectors = read_vectors(FIXTURES / case["vectors"])
        check_walks(t, vectors)
        for _, cards, value in vectors:
            assert evaluate(cards, tables=t) == value


def tiny_strength(i: int) -> tuple[int, int, list[int]]:
    """Sum, sum2 and histogram of preflop class ``i`` in the strength cases, as spec/conformance/README.md says."""
    return 1000 * i + 1, i * 2**32 + 7 * i, list(range(STRENGTH_BINS))


STRENGTH_CASES = [c for c in CASES if "strength" in c]


@pytest.mark.parametrize("case", STRENGTH_CASES, ids=[c["name"] for c in STRENGTH_CASES])
def test_python_strength(case: dict[str, Any]) -> None:
    t = load_tables(FIXTURES / "cases" / case["name"])
    assert set(case["strength"]) == {"preflop"}  # the only street with tables small enough for a fixture
    holes = HandIndexer((2,)).unindex(np.arange(169, dtype=np.uint64)).astype(np.intp)
    if case["strength"]["preflop"] == "refuse":
        with pytest.raises(TableError) as e:
            strength(holes[0].tolist(), tables=t)
        with pytest.raises(TableError) as batch:
            strength_batch(holes, holes[:, :0], tables=t)
        for name in case["names"]:
            assert name in str(e.value) and name in str(batch.value), f"{case['name']}: {name!r} not named"
        return
    assert case["strength"]["preflop"] == "serve"
    got = strength_batch(holes, holes[:, :0], bins=STRENGTH_BINS, tables=t)
    boards = comb(50, 5)
    for i in range(169):
        first, second, histogram = tiny_strength(i)
        assert (got.ehs[i], got.ehs2[i]) == (first / (1980 * boards), second / (1980**2 * boards))
        assert got.histogram is not None and got.histogram[i].tolist() == histogram
    one = strength("As Ah", tables=t)
    assert (one.ehs, one.ehs2) == (90001 / (1980 * boards), (90 * 2**32 + 630) / (1980**2 * boards))


def test_the_tiny_games_dag_follows_its_documented_rule() -> None:
    # Walked here with numpy from the loader's arrays: the runtime maps every
    # game role to its own file, and evaluates hold'em alone.
    t = load_tables(FIXTURES / "cases" / "game-roles")
    rng = np.random.default_rng(12)
    for n in (5, 6, 7):
        hands = np.array([rng.permutation(52)[:n] for _ in range(300)])
        node = np.zeros(len(hands), dtype=np.int64)
        for k in range(n):
            node = t.arrays[f"tiny/dag7/layer{k + 1}"][node * 52 + hands[:, k]].astype(np.int64)
        got = node if n == 7 else t.arrays[f"tiny/dag7/value{n}"][node]
        np.testing.assert_array_equal(got, [tiny_value(h.tolist()) + 1 for h in hands])
        np.testing.assert_array_equal(evaluate_batch(hands, tables=t), [tiny_value(h.tolist()) for h in hands])


def test_the_tiny_set_follows_its_documented_rule() -> None:
    t = load_tables(FIXTURES / "cases" / "valid")
    rng = np.random.default_rng(11)
    for n in (5, 6, 7):
        hands = np.array([rng.permutation(52)[:n] for _ in range(300)])
        want = [tiny_value(h.tolist()) for h in hands]
        np.testing.assert_array_equal(evaluate_batch(hands, tables=t), want)
        # Both walks of section 5.2 agree on the tiny set too.
        for h, v in zip(hands[:20].tolist(), want):
            assert evaluate(h, tables=t) == v


def test_cases_cover_the_checklist() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
    rejects = [c for c in CASES if "reject" in (c["expect"], c.get("verify"), c.get("range_check"))]
    assert len(rejects) >= 20
    assert all(c["names"] for c in rejects)
    assert {c["expect"] for c in CASES} == {"load", "reject"}
    assert sorted(p.name for p in (FIXTURES / "cases").iterdir()) == sorted(names)


def test_vectors_match_the_runtime_on_the_real_tables() -> None:
    vectors = read_vectors(FIXTURES / "vectors.txt")
    assert len(vectors) >= 10_000
    sizes = Counter(len(cards) for _, cards, _ in vectors)
    assert min(sizes[5], sizes[6], sizes[7]) > 3000
    assert all(1 <= v <= 7462 for _, _, v in vectors)
    check_walks(None, vectors)
    # Every spelling of section 6.1 appears, so readers' parsers are tested too.
    text = " ".join(t for t, _, _ in vectors).split()
    assert any(c.startswith("10") for c in text)
    assert any(c[0] in "tjqka" for c in text)
    assert any(c[-1] in "CDHS" for c in text)
    assert {c[-1] for c in text} >= set("♣♦♥♠")


@pytest.mark.parametrize("game", ["razz", "lowball-a5", "lowball-27", "badugi"])
def test_the_game_vectors_hold_for_the_real_tables(game: str) -> None:
    vectors = read_vectors(FIXTURES / f"{game}-vectors.txt")
    assert len(vectors) >= 300
    for n in sorted({len(cards) for _, cards, _ in vectors}):
        rows = [(cards, v) for _, cards, v in vectors if len(cards) == n]
        got = evaluate_batch(np.array([c for c, _ in rows]), game=game)
        np.testing.assert_array_equal(got, [v for _, v in rows], err_msg=f"{game}, {n}-card vectors")
    text, cards, value = vectors[0]
    assert evaluate(text, game=game) == evaluate(cards, game=game) == value
