"""The short-deck tables: every 5-, 6- and 7-card hand of both variants against the oracle.

The arrays come from the runtime's loader, which maps and checks every
game role but evaluates hold'em alone, and are walked with numpy, as a
reader written from spec/README.md would. Every hand of the 36-card deck is
compared with :mod:`twoplustwo_builder.oracles.short_deck`, an independent
reading of the rules, and the seven-card category counts with the figures
below: flush and full house as issue 16 gives them, the others derived once
with the oracle and checked here against the tables.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from math import comb
from pathlib import Path

import numpy as np
import pytest

from twoplustwo.tables.default import load_tables
from twoplustwo.vocab.rules import GAMES
from twoplustwo_builder.dag.games import BUILDS, HOLDEM, SHORT_DECK_CLASSIC, rules_table
from twoplustwo_builder.dag.selfcheck import SelfCheckError, self_check_games
from twoplustwo_builder.oracles import short_deck, signature

ROOT = Path(__file__).resolve().parents[2]
TABLES = Path(os.environ.get("TWOPLUSTWO_TABLES") or ROOT / "tables")
VARIANTS = ("short-deck", "short-deck-classic")

#: Seven-card hands per category, over all C(36, 7) = 8,347,680.
COUNTS7 = {
    "short-deck": {
        "high card": 233_100,
        "pair": 2_316_600,
        "two pair": 3_157_056,
        "straight": 1_139_580,
        "three of a kind": 637_560,
        "full house": 633_024,
        "flush": 175_560,
        "four of a kind": 44_640,
        "straight flush": 10_560,
    },
    "short-deck-classic": {
        "high card": 233_100,
        "pair": 2_316_600,
        "two pair": 3_157_056,
        "three of a kind": 607_200,
        "straight": 1_169_940,
        "full house": 633_024,
        "flush": 175_560,
        "four of a kind": 44_640,
        "straight flush": 10_560,
    },
}

#: Distinct values per category: the same in both variants.
CLASSES = {
    "high card": 120, "pair": 504, "two pair": 252, "three of a kind": 252, "straight": 6,
    "flush": 120, "full house": 72, "four of a kind": 72, "straight flush": 6,
}  # fmt: skip


def card(text: str) -> int:
    return "23456789TJQKA".index(text[0]) * 4 + "cdhs".index(text[1])


def hand(text: str) -> list[int]:
    return [card(c) for c in text.split()]


@pytest.fixture(scope="module")
def manifest() -> dict:
    m = json.loads((TABLES / "manifest.json").read_text(encoding="utf-8"))
    missing = [r for g in BUILDS for r in g.roles() if r not in {f["role"] for f in m["files"]}]
    if missing:
        pytest.fail(f"{TABLES} has no {missing[0]}: rebuild with `python -m twoplustwo_builder --out {TABLES}`")
    return m


@pytest.fixture(scope="module")
def dags(manifest: dict) -> dict[str, dict[str, np.ndarray]]:
    """Each variant's arrays by role suffix (``layer1`` .. ``layer7``, ``value5``, ``value6``)."""
    out: dict[str, dict[str, np.ndarray]] = {v: {} for v in VARIANTS}
    for role, a in load_tables(TABLES).arrays.items():
        game, _, rest = role.partition("/dag7/")
        if game in out:
            out[game][rest] = a
    return out


def walk(arrays: dict[str, np.ndarray], hands: np.ndarray) -> np.ndarray:
    """A 5-, 6- or 7-card walk of the 7-card DAG (section 5 of the spec), as values."""
    node = np.zeros(len(hands), dtype=np.int64)
    for k in range(hands.shape[1]):
        node = arrays[f"layer{k + 1}"][node * 52 + hands[:, k]].astype(np.int64)
    n = hands.shape[1]
    return node if n == 7 else arrays[f"value{n}"][node].astype(np.int64)


@pytest.fixture(scope="module")
def every_hand(short_deck_hands: dict[int, np.ndarray]) -> dict[int, np.ndarray]:
    for n, hands in short_deck_hands.items():
        # Increasing rows, as many as there are n-card sets: every hand once.
        assert len(hands) == comb(36, n) and (np.diff(hands.astype(np.int64), axis=1) > 0).all()
        assert hands.min() == 16 and hands.max() == 51
    return short_deck_hands


@pytest.fixture(scope="module")
def oracle(short_deck_oracle: dict[int, dict[str, np.ndarray]]) -> dict[int, dict[str, np.ndarray]]:
    # Computed once a session, with test_games_oracle.py (conftest.py).
    assert all(tuple(by_variant) == VARIANTS for by_variant in short_deck_oracle.values())
    return short_deck_oracle


def test_manifest_describes_the_games(manifest: dict) -> None:
    games = manifest["games"]
    assert list(games) == list(GAMES)
    assert games["holdem"]["deck"] == list(range(52)) and games["holdem"]["values"] == 7462
    assert games["holdem"]["dags"] == ["dag5", "dag6", "dag7"]
    for v in VARIANTS:
        g = games[v]
        assert g["deck"] == list(range(16, 52)) and g["sizes"] == [5, 6, 7]
        assert g["values"] == 1404 == short_deck.n_values(v)
        assert g["dags"] == [f"{v}/dag7"]
        assert "A-6-7-8-9 is the lowest straight" in g["ranking"]
        # Category ranges: consecutive, in the variant's order, as wide as its classes.
        ranges = g["categories"]
        assert [name for name, _, _ in ranges] == list(short_deck.VARIANTS[v])
        assert ranges[0][1] == 1 and ranges[-1][2] == 1404
        assert all(b[1] == a[2] + 1 for a, b in zip(ranges, ranges[1:]))
        assert {name: last - first + 1 for name, first, last in ranges} == CLASSES
        # The oracle puts every value in the same category.
        names = short_deck.CATEGORIES
        for name, first, last in ranges:
            assert {names[c] for c in short_deck.categories(v)[first : last + 1]} == {name}


def test_files_follow_the_format(manifest: dict) -> None:
    nodes = manifest["nodes"]
    for v in VARIANTS:
        counts = nodes[f"{v}/dag7"]
        assert len(counts) == 7 and counts[0] == 1 and counts[1] == 36
        entries = {f["role"]: f for f in manifest["files"] if f["role"].startswith(f"{v}/")}
        suffixes = [f"layer{k}" for k in range(1, 8)] + ["value5", "value6"]
        assert sorted(entries) == sorted(f"{v}/dag7/{k}" for k in suffixes)
        for role, f in entries.items():
            data = (TABLES / f["name"]).read_bytes()
            assert f["name"] == f"{role.replace('/', '.')}.{f['sha256'][:16]}.npy"
            assert hashlib.sha256(data).hexdigest() == f["sha256"]
            assert f["offset"] % 64 == 0 and len(data) == f["offset"] + f["nbytes"]
            k = role.rsplit("/", 1)[1]
            length = counts[int(k[5:]) - 1] * 52 if k.startswith("layer") else counts[int(k[5:])]
            assert f["shape"] == [length]
            header = f"{{'descr': '{f['dtype']}', 'fortran_order': False, 'shape': ({length},), }}"
            assert re.fullmatch(re.escape(header) + " *\n", data[10 : f["offset"]].decode("ascii"))


def test_entries_are_in_range(dags: dict[str, dict[str, np.ndarray]], manifest: dict) -> None:
    # Dead entries too (section 5.3): a walk of any cards stays inside the arrays.
    for v in VARIANTS:
        counts = manifest["nodes"][f"{v}/dag7"]
        a = dags[v]
        for k in range(1, 7):
            assert int(a[f"layer{k}"].max()) < counts[k]
        assert int(a["layer7"].max()) == 1404
        for d in (5, 6):
            assert int(a[f"value{d}"].min()) >= 1 and int(a[f"value{d}"].max()) <= 1404


def test_holdem_roles_are_unchanged(manifest: dict) -> None:
    holdem = {f["role"] for f in manifest["files"] if f["role"].split("/")[0] in ("dag5", "dag6", "dag7")}
    assert holdem == set(HOLDEM.roles()) and len(holdem) == 20
    assert manifest["format_version"] == 1
    assert manifest["nodes"]["dag7"] == [1, 52, 1326, 22100, 84448, 152604, 279861]
    assert manifest["nodes"]["dag6"] == [1, 52, 1326, 5655, 19552, 48500]
    assert manifest["nodes"]["dag5"] == [1, 52, 403, 1599, 4680]


@pytest.mark.parametrize("n", [5, 6])
def test_every_five_and_six_card_hand(
    n: int, dags: dict, every_hand: dict[int, np.ndarray], oracle: dict[int, dict[str, np.ndarray]]
) -> None:
    for v in VARIANTS:
        np.testing.assert_array_equal(walk(dags[v], every_hand[n]), oracle[n][v], err_msg=f"{v}, {n} cards")


def test_every_seven_card_hand_and_the_category_counts(
    dags: dict, every_hand: dict[int, np.ndarray], oracle: dict[int, dict[str, np.ndarray]], manifest: dict
) -> None:
    for v in VARIANTS:
        values = walk(dags[v], every_hand[7])
        np.testing.assert_array_equal(values, oracle[7][v], err_msg=v)
        counts = np.bincount(values, minlength=1405)
        got = {name: int(counts[first : last + 1].sum()) for name, first, last in manifest["games"][v]["categories"]}
        assert got == COUNTS7[v]
        assert sum(got.values()) == comb(36, 7)


def test_the_variants_differ_only_where_a_hand_holds_a_straight_and_trips() -> None:
    # Issue 16's figures, and the hands that move between straight and trips.
    for v in VARIANTS:
        assert COUNTS7[v]["flush"] == 175_560 and COUNTS7[v]["full house"] == 633_024
    moved = COUNTS7["short-deck"]["three of a kind"] - COUNTS7["short-deck-classic"]["three of a kind"]
    assert moved == COUNTS7["short-deck-classic"]["straight"] - COUNTS7["short-deck"]["straight"] > 0
    rest = {k: c for k, c in COUNTS7["short-deck"].items() if k not in ("straight", "three of a kind")}
    assert rest == {k: c for k, c in COUNTS7["short-deck-classic"].items() if k not in ("straight", "three of a kind")}


def test_card_order_does_not_matter(dags: dict, every_hand: dict[int, np.ndarray]) -> None:
    rng = np.random.default_rng(16)
    for n in (5, 6, 7):
        hands = every_hand[n][rng.choice(len(every_hand[n]), 200_000, replace=False)]
        shuffled = np.take_along_axis(hands, rng.random(hands.shape).argsort(axis=1), axis=1)
        for v in VARIANTS:
            np.testing.assert_array_equal(walk(dags[v], shuffled), walk(dags[v], hands))


def value_of(dags: dict, v: str, text: str) -> int:
    return int(walk(dags[v], np.array([hand(text)]))[0])


def category_ranges(manifest: dict, v: str) -> dict[str, tuple[int, int]]:
    return {name: (first, last) for name, first, last in manifest["games"][v]["categories"]}


@pytest.mark.parametrize("v", VARIANTS)
def test_ace_six_to_nine_is_the_lowest_straight(dags: dict, manifest: dict, v: str) -> None:
    ranges = category_ranges(manifest, v)
    wheel = value_of(dags, v, "Ac 6d 7h 8s 9c")
    assert wheel == ranges["straight"][0]
    assert value_of(dags, v, "6d 7h 8s 9c Tc") == wheel + 1
    assert value_of(dags, v, "Ac Kd Qh Js Tc") == ranges["straight"][1]
    assert value_of(dags, v, "Ah 6h 7h 8h 9h") == ranges["straight flush"][0] == 1399
    assert value_of(dags, v, "Ah Kh Qh Jh Th") == 1404
    # The ace plays low only below the six: A-7-8-9-T is ace high, and with
    # a ten A-6-7-8-9 gives way to 6-7-8-9-T.
    assert ranges["high card"][0] <= value_of(dags, v, "Ac 7d 8h 9s Tc") <= ranges["high card"][1]
    assert value_of(dags, v, "Ac 6d 7h 8s 9c Td Kh") == wheel + 1
    assert value_of(dags, v, "Ac 6d 7h 8s 9c Kd Kh") == wheel
    assert value_of(dags, v, "Ac 6d 7h 8s 9c Kd") == wheel
    # A suited A-6-7-8-9 beats quads and the best flush, and loses to 6-7-8-9-T suited.
    assert value_of(dags, v, "Ah 6h 7h 8h 9h 9c 9d") == 1399
    assert value_of(dags, v, "Ah 6h 7h 8h 9h Th Kd") == 1400
    assert value_of(dags, v, "As Ac Ad Ah Ks Kc Kd") == ranges["four of a kind"][1]
    assert value_of(dags, v, "Ah Kh Qh Jh 9h") == ranges["flush"][1]


def test_trips_beside_a_straight_count_as_the_variants_stronger_hand(dags: dict, manifest: dict) -> None:
    both = "Ac 6d 7h 8s 9c 9d 9h"  # A-6-7-8-9 and three nines
    cat = {v: category_ranges(manifest, v) for v in VARIANTS}
    triton, classic = value_of(dags, "short-deck", both), value_of(dags, "short-deck-classic", both)
    assert cat["short-deck"]["three of a kind"][0] <= triton <= cat["short-deck"]["three of a kind"][1]
    assert classic == cat["short-deck-classic"]["straight"][0]
    # A flush beats a full house in both, but never meets one in seven cards.
    for v in VARIANTS:
        assert value_of(dags, v, "6h 6d 6c 7h 7d") < value_of(dags, v, "6h 7h 8h 9h Jh")
        assert value_of(dags, v, "Ah Ad Ac Kh Kd") < value_of(dags, v, "6h 7h 8h 9h Jh")


def test_the_rules_give_holdem_its_published_values() -> None:
    # The ranking code that values short-deck hands, run on hold'em's deck and
    # order, gives every hold'em signature the value of the seed oracles and
    # the category ranges of spec/README.md, section 7.
    keys, vals = rules_table(HOLDEM.low_rank, HOLDEM.order)
    want_keys, want_vals = signature.table()
    np.testing.assert_array_equal(keys, want_keys)
    np.testing.assert_array_equal(vals, want_vals)
    assert HOLDEM.categories() == [
        ("high card", 1, 1277), ("pair", 1278, 4137), ("two pair", 4138, 4995),
        ("three of a kind", 4996, 5853), ("straight", 5854, 5863), ("flush", 5864, 7140),
        ("full house", 7141, 7296), ("four of a kind", 7297, 7452), ("straight flush", 7453, 7462),
    ]  # fmt: skip


def test_a_wrong_entry_fails_the_self_check(tmp_path: Path, manifest: dict, dags: dict) -> None:
    # A copy of the set with one 7-card value changed (and its sha256 updated):
    # the builder's self-check must name the hand.
    for f in manifest["files"]:
        os.link(TABLES / f["name"], tmp_path / f["name"])
    m = json.loads(json.dumps(manifest))
    entry = next(f for f in m["files"] if f["role"] == "short-deck-classic/dag7/layer7")
    node = 0
    cards = hand("Ac 6d 7h 8s 9c 9d")
    for k, c in enumerate(cards, start=1):
        node = int(dags["short-deck-classic"][f"layer{k}"][node * 52 + c])
    layer = np.array(dags["short-deck-classic"]["layer7"])
    layer[node * 52 + card("9h")] ^= 1
    path = tmp_path / entry["name"]
    path.unlink()
    np.save(path, layer)
    entry["sha256"] = hashlib.sha256(path.read_bytes()).hexdigest()
    (tmp_path / "manifest.json").write_text(json.dumps(m))
    with pytest.raises(SelfCheckError, match=r"short-deck-classic/dag7, all 7-card hands: \d+ hands differ"):
        self_check_games(tmp_path, [SHORT_DECK_CLASSIC])
