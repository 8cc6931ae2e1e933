"""The strength tables' roles in a manifest: known, optional, at most once each, of their own lengths."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from twoplustwo import HandIndexer
from twoplustwo.tables.default import get_tables
from twoplustwo.tables.format import STRENGTH_BINS, STRENGTH_ROLES, TableError, check_shapes, parse_manifest
from twoplustwo.tables.publish import content_name


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
