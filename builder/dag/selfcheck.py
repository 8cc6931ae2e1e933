"""Check freshly built tables against the oracles before they are published.

The checks read the staged files through the runtime's own loader, so the
format is tested end to end, and compare with evaluators that share no code
with the DAG: every 5-card hand against the plain categoriser, the 5-, 6-
and 7-card category counts over every hand against the published figures,
and random 7-card hands in random card order against two oracles.

Other games' tables are compared with the game's oracle: short deck's on
every 5-, 6- and 7-card hand of its deck, with their seven-card category
counts checked against any known ones; the games of other families
(:attr:`GameBuild.oracle <twoplustwo_builder.dag.games.GameBuild.oracle>`)
on every hand of 4 or 5 cards, and for 6 and 7 cards on every rank multiset
and random hands in random card order. Games that walk hold'em's DAGs
(stud) have nothing of their own to check.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations, combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.batch import walk
from twoplustwo.hands.value_counts import histogram
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST, dag_depth
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.values import differs_from_published

from ..oracles import categoriser, short_deck, signature
from ..testdata.hands import all_hands, deck_hands, random_hands
from .games import GameBuild

__all__ = ["SelfCheckError", "self_check", "self_check_games"]

class SelfCheckError(RuntimeError):
    """The built tables disagree with an oracle."""


def _compare(what: str, got: np.ndarray, want: np.ndarray, hands: np.ndarray) -> None:
    bad = np.flatnonzero(got != want)
    if len(bad):
        i = bad[0]
        raise SelfCheckError(
            f"{what}: {len(bad)} hands differ, first {hands[i].tolist()}: "
            f"tables {int(got[i])}, oracle {int(want[i])}"
        )


def self_check(path: Path, *, sample: int = 1_000_000, step: Callable[[str], None] | None = None) -> None:
    """Raise :class:`SelfCheckError` unless the tables at ``path`` are right."""
    t = load_tables(path, verify=True)
    note = step or (lambda _: None)

    note("5-card hands")
    hands5 = np.concatenate(list(all_hands(5)))
    want = categoriser.evaluate(hands5)
    _compare("dag5, all 5-card hands", walk(t.layers("dag5"), hands5), want, hands5)
    node5 = walk(t.layers("dag7")[:5], hands5)
    _compare("dag7 value5, all 5-card hands", t.arrays["dag7/value5"][node5], want, hands5)

    note("category counts")
    for n in (5, 6, 7):
        problem = differs_from_published(n, histogram(n, tables=t))
        if problem:
            raise SelfCheckError(f"dag{n}: {problem}")

    note("random 7-card hands")
    hands = random_hands(sample, 7, seed=20261121)
    values = walk(t.layers("dag7"), hands)
    _compare("dag7, random hands", values, signature.evaluate(hands), hands)
    few = hands[:50_000]
    _compare("dag7, random hands", values[:50_000], categoriser.evaluate(few), few)
    node6 = walk(t.layers("dag7")[:6], hands[:, :6])
    six = hands[:50_000, :6]
    _compare("dag7 value6, random hands", t.arrays["dag7/value6"][node6[:50_000]], categoriser.evaluate(six), six)
    _compare("dag6, random hands", walk(t.layers("dag6"), six), categoriser.evaluate(six), six)


def _game_arrays(t: Tables, game: GameBuild) -> dict[str, npt.NDArray[Any]]:
    """The game's 7-card DAG arrays by role; a set without one of them fails the check."""
    missing = [role for role in game.roles() if role not in t.arrays]
    if missing:
        raise SelfCheckError(f"{t.path / MANIFEST}: missing roles {missing}")
    return {role: t.arrays[role] for role in game.roles()}


def _walk(layers: list[npt.NDArray[Any]], hands: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
    node = np.zeros(len(hands), dtype=np.int64)
    for k in range(hands.shape[1]):
        node = layers[k][node * 52 + hands[:, k]].astype(np.int64)
    return node


def self_check_games(path: Path, games: Sequence[GameBuild], *, step: Callable[[str], None] | None = None) -> None:
    """Raise :class:`SelfCheckError` unless each game's tables at ``path`` agree with its oracle on every hand.

    Each game has a 7-card DAG with ``value5`` and ``value6`` arrays, and is
    a variant of :mod:`twoplustwo_builder.oracles.short_deck`, whose deck
    it has; the variants share the hands and the oracle's subset search.
    A game with an ``oracle`` of its own (the lows, badugi) is compared with
    it instead, and a game on hold'em's DAGs (stud) is hold'em's check's.
    """
    others = [g for g in games if g.oracle is not None and not g.holdem_dags]
    games = [g for g in games if g.oracle is None and not g.holdem_dags]
    if others:
        t = load_tables(path, verify=True)
        for game in others:
            (step or (lambda _: None))(game.name)
            _check_other(t, game, _game_arrays(t, game))
    if not games:
        return
    if any(game.deck != tuple(short_deck.DECK) for game in games):
        raise SelfCheckError("only short-deck games have an oracle")
    t = load_tables(path, verify=True)
    arrays = {game.name: _game_arrays(t, game) for game in games}
    for n in (5, 6, 7):
        (step or (lambda _: None))(f"{n}-card hands")
        hands = deck_hands(n, games[0].deck)
        if n == 7:
            # Cards in every rotation of their order: a node is a set of cards.
            for r in range(1, 7):
                hands[r::7] = np.roll(hands[r::7], r, axis=1)
        want = short_deck.evaluate_variants(hands, [game.name for game in games])
        for game in games:
            dag = game.dag(7)
            layers = [arrays[game.name][f"{dag}/layer{k}"] for k in range(1, n + 1)]
            if n < 7:
                got = arrays[game.name][f"{dag}/value{n}"][_walk(layers, hands)].astype(np.int64)
                _compare(f"{dag} value{n}, all {n}-card hands", got, want[game.name], hands)
                continue
            got = _walk(layers, hands)
            _compare(f"{dag}, all 7-card hands", got, want[game.name], hands)
            counts = np.bincount(got, minlength=game.values + 1)
            ranges = {name: (first, last) for name, first, last in game.categories()}
            for name, count in game.known_counts:
                first, last = ranges[name]
                total = int(counts[first : last + 1].sum())
                if total != count:
                    raise SelfCheckError(f"{dag}: {total:,} seven-card hands are a {name}, not {count:,}")


def _multiset_hands(k: int) -> npt.NDArray[np.uint8]:
    """A hand of every rank multiset of ``k`` cards (at most four of a rank), suits dealt in turn."""
    rows = [
        [r * 4 + i % 4 for i, r in enumerate(ranks)]
        for ranks in combinations_with_replacement(range(13), k)
        if max(ranks.count(r) for r in ranks) <= 4
    ]
    return np.array(rows, dtype=np.uint8)


def _check_other(t: Tables, game: GameBuild, arrays: dict[str, npt.NDArray[Any]]) -> None:
    """Compare a game of another family with its oracle: every hand of 4 or 5 cards, else every rank multiset
    and random hands in random order."""
    assert game.oracle is not None
    for n in game.sizes:
        dag = game.dag(n)
        depth = dag_depth(dag)
        layers = [arrays[f"{dag}/layer{k}"] for k in range(1, n + 1)]
        if n == 4:
            batches = [np.array(list(combinations(range(52), 4)), dtype=np.uint8)]
        elif n == 5:
            batches = list(all_hands(5))
        else:
            batches = [_multiset_hands(n), random_hands(200_000, n, seed=20261202)]
        for hands in batches:
            # Cards in every rotation of their order: a node is a set of cards, reached in any order.
            for r in range(1, n):
                hands[r::n] = np.roll(hands[r::n], r, axis=1)
            node = _walk(layers, hands)
            got = node if n == depth else arrays[f"{dag}/value{n}"][node].astype(np.int64)
            _compare(f"{dag}, {n}-card hands", got, game.oracle(hands.astype(np.int64)), hands)
