"""Stud, stud hi/lo, razz, the lowballs and badugi through the runtime's API against the builder's oracles, on both
backends.

Every 4-card hand for badugi, every 5-card hand for the lowballs, every
rank multiset of 5, 6 and 7 cards and seeded random 7-card hands for razz
and stud hi/lo's low. The oracles (:mod:`twoplustwo_builder.oracles.lowball`,
``badugi``) are tables over the classes that decide a value (rank
multisets, with a flush flag in deuce-to-seven) or numpy over every subset
(badugi), so each check is a few vectorised passes. The runtime's rules
(:mod:`twoplustwo.vocab.rules`) are checked against the same oracles,
class by class.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from itertools import combinations, combinations_with_replacement
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

import twoplustwo as tp
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import Tables, default_path
from twoplustwo.vocab.rules import rules_of
from twoplustwo_builder.dag.games import BADUGI
from twoplustwo_builder.dag.selfcheck import SelfCheckError, self_check_games
from twoplustwo_builder.oracles import badugi, lowball, signature
from twoplustwo_builder.testdata.hands import all_hands


def _multiset_hands(k: int, rng: np.random.Generator) -> npt.NDArray[np.uint8]:
    """A hand of every rank multiset of ``k`` cards (at most four of a rank), random suits, in random order."""
    rows = []
    for ranks in combinations_with_replacement(range(13), k):
        counts = Counter(ranks)
        if max(counts.values()) > 4:
            continue
        cards = []
        for r, c in counts.items():
            cards += [r * 4 + int(s) for s in rng.permutation(4)[:c]]
        rows.append(cards)
    h = np.array(rows, dtype=np.uint8)
    return np.take_along_axis(h, rng.random(h.shape).argsort(axis=1), axis=1)


def _random_hands(n: int, k: int, seed: int) -> npt.NDArray[np.uint8]:
    return np.argsort(np.random.default_rng(seed).random((n, 52)), axis=1)[:, :k].astype(np.uint8)


@pytest.fixture(scope="module")
def fives() -> npt.NDArray[np.uint8]:
    """Every 5-card hand, its cards out of order (a node is a set of cards)."""
    return np.roll(np.concatenate(list(all_hands(5))), 2, axis=1)


def test_badugi_every_hand_on_both_backends(both: tuple[Tables, Tables]) -> None:
    hands = np.array(list(combinations(range(52), 4)), dtype=np.uint8)
    want = badugi.evaluate(hands)
    assert np.bincount(want, minlength=1093)[1:].all()  # every value is some hand's
    for t in both:
        np.testing.assert_array_equal(tp.evaluate_batch(hands[:, ::-1], game="badugi", tables=t), want)
        for i in range(0, len(hands), 9973):  # single hands, as lists and as text
            assert tp.evaluate(hands[i].tolist(), game="badugi", tables=t) == want[i]
            assert tp.evaluate(tp.format_cards(hands[i].tolist()), game="badugi", tables=t) == want[i]


@pytest.mark.parametrize("game", ["lowball-27", "lowball-a5"])
def test_the_draw_lowballs_every_hand_on_both_backends(
    game: str, both: tuple[Tables, Tables], fives: npt.NDArray[np.uint8]
) -> None:
    want = (lowball.evaluate_27 if game == "lowball-27" else lowball.evaluate_a5)(fives)
    assert set(np.unique(want).tolist()) == set(range(1, rules_of(game).values + 1))
    for t in both:
        np.testing.assert_array_equal(tp.evaluate_batch(fives, game=game, tables=t), want)
        for i in range(0, len(fives), 99991):
            assert tp.evaluate(fives[i].tolist(), game=game, tables=t) == want[i]


def test_razz_every_rank_multiset_and_random_hands_on_both_backends(both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(38)
    for k in (5, 6, 7):
        for hands in (_multiset_hands(k, rng), _random_hands(100_000 if k == 7 else 20_000, k, seed=k)):
            want = lowball.evaluate_a5(hands)
            for t in both:
                np.testing.assert_array_equal(tp.evaluate_batch(hands, game="razz", tables=t), want)
                for i in range(0, len(hands), 4999):
                    assert tp.evaluate(hands[i].tolist(), game="razz", tables=t) == want[i]


def test_stud_is_holdem_and_stud_hilo_has_the_eight_or_better_low(both: tuple[Tables, Tables]) -> None:
    rng = np.random.default_rng(7)
    for k in (5, 6, 7):
        for hands in (_multiset_hands(k, rng), _random_hands(100_000 if k == 7 else 20_000, k, seed=10 + k)):
            high = signature.evaluate(hands)
            low = lowball.evaluate_eight(hands)
            np.testing.assert_array_equal(tp.evaluate_low_batch(hands), low)
            for t in both:
                for game in ("stud", "stud-hilo"):
                    np.testing.assert_array_equal(tp.evaluate_batch(hands, game=game, tables=t), high)
            for i in range(0, len(hands), 4999):
                assert tp.evaluate_low(hands[i].tolist()) == low[i]
                assert tp.evaluate_low(tp.format_cards(hands[i].tolist())) == low[i]
    assert tp.describe_low(tp.evaluate_low("As 2d 3c 4h 5s Kd Kh")) == "5-4-3-2-A"


def test_the_rules_value_every_class_as_the_oracles_do() -> None:
    # The runtime's rules (vocab/rules) and the builder's oracles are two readings of the rules: one class each.
    rng = np.random.default_rng(3)
    for k in (5, 7):
        hands = _multiset_hands(k, rng)
        if k == 7:
            hands = hands[::7]  # razz's 7-card rules take the best of 21 fives in Python: a seventh of the classes
        want = lowball.evaluate_a5(hands).tolist()
        assert [rules_of("razz").value_of(h) for h in hands.tolist()] == want
        if k == 5:
            assert [rules_of("lowball-a5").value_of(h) for h in hands.tolist()] == want
    fives = _multiset_hands(5, rng)
    suited = np.array([[r * 4 + 2 for r in ranks] for ranks in combinations(range(13), 5)], dtype=np.uint8)
    for hands in (fives, suited):
        assert [rules_of("lowball-27").value_of(h) for h in hands.tolist()] == lowball.evaluate_27(hands).tolist()
    # Badugi's value follows from the hand's ranks and which cards share a suit: one hand per such class.
    fours = np.array(list(combinations(range(52), 4)), dtype=np.int64)
    order = np.argsort(fours >> 2, axis=1, kind="stable")
    ranks, suits = np.take_along_axis(fours >> 2, order, axis=1), np.take_along_axis(fours & 3, order, axis=1)
    same = (suits[:, :, None] == suits[:, None, :]).reshape(len(fours), 16)
    key = (ranks * 13 ** np.arange(4)).sum(axis=1) * 2**16 + (same * 2 ** np.arange(16)).sum(axis=1)
    _, first = np.unique(key, return_index=True)
    hands = fours[first]
    assert [rules_of("badugi").value_of(h) for h in hands.tolist()] == badugi.evaluate(hands).tolist()
    for h in hands[::50].tolist():  # suits relabelled keep the value: the class is the key's
        assert rules_of("badugi").value_of([c ^ 1 for c in h]) == rules_of("badugi").value_of(h)


def test_a_wrong_badugi_entry_fails_the_self_check(tmp_path: Path) -> None:
    # A copy of the set whose first card 2d leads where Kc does (its sha256 updated): the self-check names the DAG.
    t = load_tables(default_path())
    m = json.loads(json.dumps(t.manifest))
    for f in m["files"]:
        os.link(t.path / f["name"], tmp_path / f["name"])
    entry = next(f for f in m["files"] if f["role"] == "badugi/dag4/layer1")
    layer = np.array(t.arrays["badugi/dag4/layer1"])
    two, king = tp.parse_cards("2d Kc")
    assert layer[two] != layer[king]
    layer[two] = layer[king]
    path = tmp_path / entry["name"]
    path.unlink()
    np.save(path, layer)
    entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (tmp_path / MANIFEST).write_text(json.dumps(m))
    with pytest.raises(SelfCheckError, match=r"^badugi/dag4, 4-card hands: \d+ hands differ"):
        self_check_games(tmp_path, [BADUGI])
