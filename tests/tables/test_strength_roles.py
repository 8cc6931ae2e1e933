"""The strength tables' roles in a manifest: known, optional, at most once each, of their own lengths."""

from __future__ import annotations

import copy
import hashlib
import json
import os
import shutil
from itertools import combinations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo import HandIndexer, evaluate, evaluate_batch
from twoplustwo.odds.strength import StrengthArrays, from_tables, strength, strength_batch
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.format import MANIFEST, TableError, check_shapes, npy_header, parse_manifest, strength_served
from twoplustwo.tables.load import Tables, default_path
from twoplustwo.tables.optional import STRENGTH_BINS, STRENGTH_ROLES, STRENGTH_STREETS, strength_gap
from twoplustwo.tables.publish import content_name
from twoplustwo.vocab.cards import parse_cards


def manifest_with(roles: dict[str, int]) -> str:
    """The default set's manifest with an entry per role of ``roles`` (role -> length)."""
    m: dict[str, Any] = copy.deepcopy(get_tables().manifest)
    for role, length in roles.items():
        sha = "ab" * 32
        m["files"].append({"name": content_name(role, sha), "role": role, "dtype": "<u4", "shape": [length],
                           "offset": 128, "nbytes": 4 * length, "sha256": sha})  # fmt: skip
    return json.dumps(m)


def test_the_lengths_are_the_indexers_sizes() -> None:
    sizes = {"river": HandIndexer((2, 5)).size(), "turn": HandIndexer((2, 4)).size(),
             "flop": HandIndexer((2, 3)).size(), "preflop": HandIndexer((2,)).size()}  # fmt: skip
    for role, length in STRENGTH_ROLES.items():
        street, quantity = role.split("/")[1:]
        per = {"histogram": STRENGTH_BINS, "sum2": 2 if street == "preflop" else 1}.get(quantity, 1)
        assert length == sizes[street] * per, role


def test_a_manifest_with_strength_roles_is_read_and_checked() -> None:
    text = manifest_with(dict(STRENGTH_ROLES))
    m = parse_manifest(text, strict=True)
    check_shapes(m, "manifest.json")
    assert {f["role"] for f in m["files"]} >= set(STRENGTH_ROLES)
    with pytest.raises(TableError, match="strength/flop/sum has 5 entries"):
        check_shapes(parse_manifest(manifest_with({"strength/flop/sum": 5})), "manifest.json")
    twice = json.loads(manifest_with({"strength/turn/sum": STRENGTH_ROLES["strength/turn/sum"]}))
    twice["files"].append(twice["files"][-1])
    with pytest.raises(TableError, match="appears twice"):
        parse_manifest(json.dumps(twice))
    # A role of a later version is ignored by a reader and refused by a writer.
    later = manifest_with({"strength/showdown/sum": 7})
    assert "strength/showdown/sum" not in {f["role"] for f in parse_manifest(later)["files"]}
    with pytest.raises(TableError, match="not one this twoplustwo knows"):
        parse_manifest(later, strict=True)


# ------------------------------------------------------------- which roles serve a street together

#: A hand per street, hole cards first: "As Ah" and a board of the street's cards.
HANDS = {"preflop": "As Ah", "flop": "As Ah Kd 7c 2h", "turn": "As Ah Kd 7c 2h 9s", "river": "As Ah Kd 7c 2h 9s 3c"}


def street_arrays(street: str) -> dict[str, np.ndarray]:
    """Every strength role of ``street``, zero but at :data:`HANDS`'s hand's index, which holds its sums.

    The sums are those the sweeps compute (before the flop, made-up numbers:
    its sweep takes seconds).
    """
    hand = parse_cards(HANDS[street])
    k = len(hand) - 2
    at = int(HandIndexer((2, k) if k else (2,)).index(hand))
    roles = [r for r in STRENGTH_ROLES if r.split("/")[1] == street]
    arrays = {r: np.zeros(STRENGTH_ROLES[r], dtype=np.uint16 if k == 5 else np.uint32) for r in roles}
    runouts = comb(50 - k, 5 - k)
    if k == 0:
        first, second, histogram = 1_234_567_890, 5 << 32 | 7, np.arange(STRENGTH_BINS)
    else:
        s = strength(hand[:2], hand[2:], bins=STRENGTH_BINS, tables=get_tables())
        assert s.histogram is not None
        first, second, histogram = round(s.ehs * 1980 * runouts), round(s.ehs2 * 1980**2 * runouts), s.histogram
    if k == 5:
        rest = [c for c in range(52) if c not in hand]
        opponents = np.array([[a, b, *hand[2:]] for a, b in combinations(rest, 2)], dtype=np.uint8)
        values, mine = evaluate_batch(opponents), evaluate(hand)
        wins, ties = int((values < mine).sum()), int((values == mine).sum())
        assert 2 * wins + ties == first and ties > 0  # AcAd ties: a river set apart from W
        arrays["strength/river/wins"][at], arrays["strength/river/ties"][at] = wins, ties
    else:
        arrays[f"strength/{street}/sum"][at] = first
        if k == 0:
            arrays["strength/preflop/sum2"][2 * at : 2 * at + 2] = second & 0xFFFFFFFF, second >> 32
        else:
            arrays[f"strength/{street}/sum2"][at] = second
        if f"strength/{street}/histogram" in arrays:
            arrays[f"strength/{street}/histogram"][at * STRENGTH_BINS : (at + 1) * STRENGTH_BINS] = histogram
    return arrays


def with_arrays(arrays: dict[str, np.ndarray]) -> Tables:
    """The default set with these strength arrays beside its own."""
    plain = get_tables()
    return Tables(plain.path, plain.manifest, {**plain.buffers, **arrays})


def set_on_disk(tmp_path: Path, arrays: dict[str, np.ndarray]) -> Path:
    """The default set as symlinks in ``tmp_path / "tables"``, its manifest also listing a <u4 file of each array."""
    dst = tmp_path / "tables"
    shutil.copytree(default_path().resolve(), dst, copy_function=os.symlink, ignore=shutil.ignore_patterns(".*"))
    m = json.loads((dst / MANIFEST).read_text())
    (dst / MANIFEST).unlink()  # a real file, never a write through the symlink
    for role, a in arrays.items():
        data = npy_header("<u4", len(a), 128) + a.astype("<u4").tobytes()
        sha = hashlib.sha256(data).hexdigest()
        (dst / content_name(role, sha)).write_bytes(data)
        m["files"].append({"name": content_name(role, sha), "role": role, "dtype": "<u4", "shape": [len(a)],
                           "offset": 128, "nbytes": 4 * len(a), "sha256": sha})  # fmt: skip
    (dst / MANIFEST).write_text(json.dumps(m))
    return dst


def read(t: Tables, street: str, bins: int | None = None) -> StrengthArrays | None:
    hand = np.array([parse_cards(HANDS[street])], dtype=np.intp)
    return from_tables(t, hand[:, :2], hand[:, 2:], bins)


@pytest.mark.parametrize("street", list(STRENGTH_STREETS))
def test_a_set_with_only_what_a_street_needs_serves_that_street(street: str) -> None:
    arrays = street_arrays(street)
    only = {r: arrays[r] for r in STRENGTH_STREETS[street]}
    t = with_arrays(only)
    served = read(t, street)
    assert served is not None
    hand = parse_cards(HANDS[street])
    k = len(hand) - 2
    got = strength(hand[:2], hand[2:], tables=t)
    assert (got.ehs, got.ehs2) == (float(served.ehs[0]), float(served.ehs2[0]))
    if k == 0:
        assert got.ehs == 1_234_567_890 / (1980 * comb(50, 5)) and got.ehs2 == (5 << 32 | 7) / (1980**2 * comb(50, 5))
    else:
        want = strength(hand[:2], hand[2:], tables=get_tables())
        assert (got.ehs, got.ehs2) == (want.ehs, want.ehs2)
    batch = strength_batch(np.array([hand[:2]]), np.array([hand[2:]], dtype=np.intp).reshape(1, k), tables=t)
    assert (batch.ehs[0], batch.ehs2[0]) == (got.ehs, got.ehs2)
    # The other streets are not served by these tables, and not refused either.
    for other in STRENGTH_STREETS:
        if other != street:
            assert read(t, other) is None
    # A histogram is on top of the street's needs: without it, bins are computed, not refused.
    if f"strength/{street}/histogram" in arrays:
        assert read(t, street, STRENGTH_BINS) is None
        assert read(with_arrays(arrays), street, STRENGTH_BINS) is not None


@pytest.mark.parametrize("missing", [r for r in STRENGTH_ROLES if not r.endswith("/histogram")])
def test_a_street_listing_only_some_of_what_it_needs_is_refused_naming_the_missing_role(missing: str) -> None:
    street = missing.split("/")[1]
    t = with_arrays({r: a for r, a in street_arrays(street).items() if r != missing})
    hand = parse_cards(HANDS[street])
    holes, boards = np.array([hand[:2]]), np.array([hand[2:]], dtype=np.intp).reshape(1, len(hand) - 2)
    for bins in (None, STRENGTH_BINS):
        with pytest.raises(TableError, match=f"manifest.json: lists .* but not {missing}: the {street}'s strength"):
            strength(hand[:2], hand[2:], bins=bins, tables=t)
        with pytest.raises(TableError, match=f"but not {missing}:"):
            strength_batch(holes, boards, bins=bins, tables=t)
    # The rule is the format's, stated once: the same words for the same roles.
    with pytest.raises(TableError, match=f"but not {missing}:"):
        strength_served(t.arrays.keys(), street, "manifest.json")
    assert strength_gap(t.arrays.keys(), street) is not None


def test_the_streets_roles_are_the_strength_roles() -> None:
    needs = {r for roles in STRENGTH_STREETS.values() for r in roles}
    histograms = {r for r in STRENGTH_ROLES if r.endswith("/histogram")}
    assert needs | histograms == set(STRENGTH_ROLES) and not needs & histograms
    assert all(r.split("/")[1] == street for street, roles in STRENGTH_STREETS.items() for r in roles)
