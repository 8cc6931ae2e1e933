"""The build, stage by stage: enumerate, join, write, self-check, publish.

Every game of :mod:`twoplustwo_builder.dag.games` goes through the same stages
into the same table set.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from tqdm import tqdm

import twoplustwo
from twoplustwo.tables.format import MANIFEST, layer_role

from .games import BUILDS, HOLDEM, GameBuild
from .join import join_layers
from .order import hot_first
from .plain_states import enumerate_plain, node_values
from .selfcheck import self_check, self_check_games
from .states import enumerate_states, hand_values
from .write import discard, new_staging, publish, smallest_dtype, stage

__all__ = ["BuildReport", "build"]

BUILDER_VERSION = "1"

_INFO = {
    "card_encoding": "int 0..51 = rank*4 + suit; rank 0 = deuce .. 12 = ace; "
    "suit 0 clubs, 1 diamonds, 2 hearts, 3 spades",
    "value_encoding": "hold'em: 1..7462, higher is stronger, equal ties; value = 7463 - Cactus Kev rank; "
    "every other game: 1..games[name].values, higher is stronger, equal ties",
    "walk": "node = 0; for each card: node = layer_k[node * 52 + card]; the last layer "
    "holds values; dag7/value5 and dag7/value6 give the value of a 5- or 6-card walk's node",
    "dead_entries": "transitions no valid hand takes (a duplicate card, a fifth card of a rank, "
    "a card outside the game's deck) lead to an arbitrary node or value: check input before walking",
}


@dataclass
class BuildReport:
    """What a build did: seconds per stage, node counts, bytes per role."""

    seconds: dict[str, float] = field(default_factory=dict)
    nodes_before: dict[str, list[int]] = field(default_factory=dict)
    nodes: dict[str, list[int]] = field(default_factory=dict)
    nbytes: dict[str, int] = field(default_factory=dict)

    def summary(self) -> str:
        lines = ["stage seconds: " + ", ".join(f"{k} {v:.2f}" for k, v in self.seconds.items())]
        for dag in self.nodes:
            lines.append(f"{dag} nodes per depth before join: {self.nodes_before[dag]}")
            lines.append(f"{dag} nodes per depth after join:  {self.nodes[dag]}")
        for dag in sorted(self.nodes, key=lambda d: (d.count("/"), d)):
            total = sum(v for k, v in self.nbytes.items() if k.startswith(dag + "/"))
            seconds = sum(v for k, v in self.seconds.items() if k.startswith(dag + " "))
            lines.append(f"{dag} bytes: {total:,}, enumerate and join {seconds:.2f} s")
        return "\n".join(lines)


def build_dag(n: int, report: BuildReport, bar: tqdm) -> dict[str, npt.NDArray[np.int64]]:
    """The arrays of hold'em's ``n``-card DAG.

    :func:`build` looks it up in this module at each call, so tests replace it to hand
    back published arrays instead of spending seconds enumerating.
    """
    return build_game_dag(HOLDEM, n, report, bar)


def build_game_dag(game: GameBuild, n: int, report: BuildReport, bar: tqdm) -> dict[str, npt.NDArray[np.int64]]:
    """The arrays of ``game``'s ``n``-card DAG, counted into ``report`` (replaceable as :func:`build_dag` is)."""
    dag = game.dag(n)
    in_deck = game.in_deck()
    t0 = time.perf_counter()
    plain = game.symbols != "suits"
    if plain:
        layers = enumerate_plain(n, game, progress=lambda _: bar.update())
    else:
        layers = enumerate_states(n, progress=lambda _: bar.update(), game=game)
    t1 = time.perf_counter()
    carried = {}
    if n == 7:
        value_of = node_values if plain else (lambda g, s: hand_values(s, g))
        carried = {d: value_of(game, layers[d].states).astype(np.int64) for d in (5, 6)}
    tables, values = join_layers(layers, carried, progress=lambda _: bar.update(), in_deck=in_deck)
    tables, values = hot_first(tables, values, in_deck)
    t2 = time.perf_counter()
    report.seconds[f"{dag} enumerate"] = t1 - t0
    report.seconds[f"{dag} join"] = t2 - t1
    report.nodes_before[dag] = [len(layer.states) for layer in layers]
    report.nodes[dag] = [len(tab) for tab in tables]
    arrays = {layer_role(dag, k): tables[k - 1].ravel() for k in range(1, n + 1)}
    for d, v in values.items():
        arrays[f"{dag}/value{d}"] = v
    return arrays


def build(
    target: str | Path, *, quiet: bool = False, check: bool = True, sample: int = 1_000_000
) -> BuildReport:
    """Build every table into ``target``, check it, and publish it atomically.

    On a failed check nothing is published and the staged files are
    removed; :class:`twoplustwo_builder.dag.selfcheck.SelfCheckError` says why.
    """
    target = Path(target)
    report = BuildReport()
    disable = True if quiet else None  # None: tqdm shows bars only on a terminal
    staging = new_staging(target)
    try:
        arrays: dict[str, npt.NDArray[np.integer[Any]]] = {}
        for game in BUILDS:
            for n in game.dags:
                if layer_role(game.dag(n), 1) in arrays:
                    continue  # another game's DAG, which this game's hands walk too: built once
                with tqdm(total=2 * n, desc=game.dag(n), unit="layer", disable=disable, file=sys.stderr) as bar:
                    if game is HOLDEM:
                        arrays.update(build_dag(n, report, bar))
                    else:
                        arrays.update(build_game_dag(game, n, report, bar))
        t0 = time.perf_counter()
        stage(target, arrays, _manifest_info(report), staging)
        report.seconds["write"] = time.perf_counter() - t0
        report.nbytes = {k: int(v.size * smallest_dtype(v).itemsize) for k, v in arrays.items()}
        del arrays
        if check:
            t0 = time.perf_counter()
            with tqdm(total=3, desc="self-check", disable=disable, file=sys.stderr) as bar:

                def step(stage_name: str) -> None:
                    bar.set_postfix_str(stage_name)
                    bar.update()

                self_check(staging, sample=sample, step=step)
            report.seconds["self-check"] = time.perf_counter() - t0
            others = [g for g in BUILDS if g is not HOLDEM]
            t0 = time.perf_counter()
            with tqdm(total=3 + len(others), desc="self-check, other games", disable=disable, file=sys.stderr) as bar:
                self_check_games(staging, others, step=lambda _: bar.update())
            report.seconds["self-check other games"] = time.perf_counter() - t0
        publish(staging)
    except BaseException:
        discard(staging)
        raise
    return report


def _manifest_info(report: BuildReport) -> dict[str, Any]:
    return {
        **_INFO,
        "games": {game.name: _game_info(game) for game in BUILDS},
        "nodes": report.nodes,
        "nodes_before_join": report.nodes_before,
        "builder": {
            "version": BUILDER_VERSION,
            "twoplustwo": twoplustwo.__version__,
            "parameters": {
                "suit_rule": "a suit is kept at depth k of an n-card DAG while it has at "
                "least k + 5 - n cards; after five of a suit the others are dropped (razz and "
                "ace-to-five: nodes are rank multisets; badugi: nodes are card sets)",
                "leaf_oracle": "hold'em: twoplustwo_builder.oracles.signature; short deck: "
                "twoplustwo_builder.dag.games.rules_table; the lows: twoplustwo_builder.oracles.lowball; "
                "badugi: twoplustwo_builder.oracles.badugi",
                "node_order": "each depth's nodes numbered by falling count of card sets reaching them",
                "join": "bottom-up row hashing at every depth; dead entries filled from "
                "the same rank in another suit; on the last layer, rows that agree "
                "wherever both are live are joined too",
            },
        },
    }


def _game_info(game: GameBuild) -> dict[str, Any]:
    return {
        "deck": list(game.deck),
        "sizes": list(game.sizes),
        "values": game.values,
        "dags": [game.dag(n) for n in sorted(game.dags)],
        "ranking": game.ranking,
        "categories": [list(c) for c in game.categories()],
    }


def tables_present(target: str | Path) -> bool:
    """Whether ``target`` already holds a table set this version can load, with every game's files.

    A set from before a game was added loads, but lacks that game's roles:
    it is not present, so ``make`` builds it again.
    """
    from twoplustwo.tables.default import load_tables
    from twoplustwo.tables.load import TableError

    if not (Path(target) / MANIFEST).is_file():
        return False
    try:
        t = load_tables(target)
    except TableError:
        return False
    return all(role in t.buffers for game in BUILDS for role in game.roles())
