"""The kernels' view of a game (:mod:`twoplustwo.kernels.games`): one Game and walker per set, and the default set's
walker kept in step with the default set through :func:`twoplustwo.tables.default.on_default`."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import twoplustwo as tp
from twoplustwo.kernels.games import Game, resolve, walker_of
from twoplustwo.tables.default import clear_cache, get_tables, load_tables, on_default
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import ENV_VAR, Tables


@pytest.fixture(autouse=True)
def _default_tables_afresh() -> Iterator[None]:
    # Tests that point $TWOPLUSTWO_TABLES elsewhere must not leave their tables as the default after them.
    yield
    clear_cache()


VALUE_ROLES = ("dag5/layer5", "dag6/layer6", "dag7/layer7", "dag7/value5", "dag7/value6")


def reversed_copy(dst: Path) -> Path:
    """A copy of the default set whose hold'em values run backwards (v -> 7463 - v) in every array that holds
    values: a set that answers otherwise, and that loads (only hashing every byte would tell)."""
    src = load_tables().path
    dst.mkdir()
    m = json.loads((src / MANIFEST).read_text(encoding="utf-8"))
    for f in m["files"]:
        if f["role"] in VALUE_ROLES:
            shutil.copyfile(src / f["name"], dst / f["name"])
            entries = np.memmap(
                dst / f["name"], dtype=f["dtype"], mode="r+", offset=f["offset"], shape=tuple(f["shape"])
            )
            live = entries != 0
            entries[live] = 7463 - entries[live]
            entries.flush()
            del entries
        else:
            os.link(src / f["name"], dst / f["name"])
    shutil.copyfile(src / MANIFEST, dst / MANIFEST)
    return dst


def test_after_clear_cache_evaluate_answers_from_the_new_default_set(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    royal = "As Ks Qs Js Ts"
    assert tp.evaluate(royal) == 7462
    monkeypatch.setenv(ENV_VAR, str(reversed_copy(tmp_path / "reversed")))
    clear_cache()
    # The C entry point (on the C backend) and the Python path both answer from the set loaded now.
    assert [tp.evaluate(royal) for _ in range(3)] == [1, 1, 1]
    assert get_tables().path == tmp_path / "reversed"
    monkeypatch.delenv(ENV_VAR)
    clear_cache()
    assert [tp.evaluate(royal) for _ in range(3)] == [7462] * 3


def test_a_hook_sees_the_default_set_load_and_go() -> None:
    seen: list[Tables | None] = []
    t = get_tables()
    on_default(seen.append)  # the set is loaded: the hook hears of it at once
    assert seen == [t]
    clear_cache()
    assert seen == [t, None]
    again = get_tables()
    assert seen == [t, None, again] and again is not t


def test_one_game_and_walker_per_set(both: tuple[Tables, Tables]) -> None:
    c, ref = both
    for t in both:
        g = resolve("short-deck", t)
        assert isinstance(g, Game) and g is resolve("short-deck", t) and g.walker is resolve("short-deck", t).walker
        assert g.tables is t and g.rules is tp_rules("short-deck") and g.mask == sum(1 << c for c in range(16, 52))
        assert walker_of(t) is resolve("holdem", t).walker is walker_of(t)
        assert g.walker is not walker_of(t)
    # Each set's games run on the backend its first walker took.
    assert type(walker_of(c)) is type(resolve("short-deck-classic", c).walker)
    assert type(walker_of(ref)) is type(resolve("short-deck-classic", ref).walker)
    assert [len(resolve("short-deck", c).layers(n)) for n in (5, 6, 7)] == [5, 6, 7]


def tp_rules(name: str) -> object:
    from twoplustwo.vocab.rules import rules_of

    return rules_of(name)
