"""The one-table summary of a ``python -m bench`` run, each figure next to the best oracle.

Sections report markdown; the summary needs numbers. Sections of this
package that know their figures put them into :data:`FIGURES` (``build``
does); for the others, whose code belongs elsewhere, :func:`record` keeps
their returned lines and the summary reads its figures back out of their
tables by column name (:func:`table_rows`). A figure whose section did not
run is shown as "not run".

Two oracle figures have no home in another section, so :func:`section`
measures them itself, on the same fixed-seed input as ``runtime``:

- single hands: the fastest oracle called once per hand. The oracles are
  batch functions, so besides ``specialk.evaluate([hand])`` the oracle's own
  tables are walked per hand in plain Python (:func:`specialk_scalar`), the
  quickest way to use that oracle for one hand; the faster of the two is
  the one compared;
- building and loading: ``specialk`` makes its tables (about 15 MB) in
  Python when imported and on first use, timed in fresh interpreters.

If ``bench/peers.json`` exists (written by ``make bench-peers``, a separate
run in its own virtualenv), its headline figures are listed after the table.

>>> versus(2.0, 1.0, "time")
'2.0x slower'
>>> versus(10.0, 5.0, "rate")
'2.0x faster'
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import timeit
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from . import fresh_runs, markdown_table

__all__ = [
    "FIGURES",
    "OUTPUTS",
    "figure",
    "record",
    "section",
    "specialk_scalar",
    "table_rows",
    "versus",
]

#: Key figures that sections register directly, by name.
FIGURES: dict[str, float] = {}
#: Markdown lines each section returned in this run, by section name.
OUTPUTS: dict[str, list[str]] = {}

_PEERS_JSON = Path(__file__).with_name("peers.json")
#: Fresh interpreters whose specialk set-up times are summarised by their median.
_LOADS = 5
#: Hands of the per-call ``specialk.evaluate([hand])`` route (slow: numpy per call).
_N_NUMPY_SINGLE = 20_000


def record(name: str, lines: list[str]) -> None:
    """Keep a section's lines for the summary to read figures from."""
    OUTPUTS[name] = lines


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table_rows(lines: Sequence[str]) -> list[dict[str, str]]:
    """Every row of every markdown table in ``lines``, as ``{column: cell}``.

    >>> table_rows(["| a | b |", "|:--|--:|", "| x | 1 |", "", "| c |", "|---|", "| y |"])
    [{'a': 'x', 'b': '1'}, {'c': 'y'}]
    """
    rows: list[dict[str, str]] = []
    header: list[str] | None = None
    for i, line in enumerate(lines):
        if not line.startswith("|"):
            header = None
            continue
        if header is None:
            # A header is a table line followed by its rule line.
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            if nxt.startswith("|") and set(nxt) <= set("|:- "):
                header = _cells(line)
            continue
        if set(line) <= set("|:- "):
            continue
        rows.append(dict(zip(header, _cells(line))))
    return rows


def _number(cell: str) -> float:
    """The leading number of a cell such as ``'1,234.5'`` or ``'0.2 (extrapolated)'``."""
    token = cell.replace("*", "").replace("`", "").replace(",", "").split()[0]
    return float(token)


def figure(section: str, where: Callable[[dict[str, str]], bool], column: str) -> float | None:
    """The number in ``column`` of the first row of ``section``'s tables that ``where`` accepts."""
    for row in table_rows(OUTPUTS.get(section, [])):
        if column in row and where(row):
            try:
                return _number(row[column])
            except (ValueError, IndexError):
                return None
    return None


def versus(ours: float, theirs: float, kind: str) -> str:
    """How twoplustwo compares: ``kind`` is ``'time'``, ``'rate'`` or ``'bytes'``."""
    if kind == "bytes":
        r = ours / theirs
        return f"{r:.1f}x larger" if r >= 1 else f"{1 / r:.1f}x smaller"
    speedup = theirs / ours if kind == "time" else ours / theirs
    return f"{speedup:.1f}x faster" if speedup >= 1 else f"{1 / speedup:.1f}x slower"


# ------------------------------------------------------------ oracle figures


def single_hands() -> list[tuple[int, ...]]:
    """The fixed-seed 7-card hands of ``runtime``'s single-hand figures, as tuples."""
    from .oracles import SEED
    from .runtime import N_SINGLE

    rng = random.Random(SEED)
    return [tuple(rng.sample(range(52), 7)) for _ in range(N_SINGLE)]


def specialk_scalar() -> Callable[[Sequence[int]], int]:
    """SpecialK's 7-card evaluation of one hand in plain Python, on that oracle's own tables."""
    from twoplustwo_builder.oracles import specialk

    keys = specialk.CARD_KEYS.tolist()
    faces = specialk.face_sum_table(7).tolist()
    flush_suit = specialk.FLUSH_SUIT[7].tolist()
    flush_values = specialk.FLUSH_VALUES.tolist()

    def evaluate7(cards: Sequence[int]) -> int:
        a, b, c, d, e, f, g = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
        suit = flush_suit[key & 511]
        if suit < 0:
            return faces[key >> 9]
        # A flush: only the flush suit's ranks count.
        mask = 0
        for card in cards:
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return flush_values[mask]

    return evaluate7


def _best_loop(fn: Callable[[Any], object], hands: list[Any]) -> float:
    return min(
        timeit.repeat("for h in hands: fn(h)", globals={"hands": hands, "fn": fn}, number=1, repeat=3)
    )


def _single_oracle() -> tuple[str, float, list[str]]:
    """The fastest per-hand oracle route: its name, calls/s, and note lines."""
    from twoplustwo_builder.oracles import specialk
    from twoplustwo.evaluate import evaluate

    from .oracles import checksum

    hands = single_hands()
    ours = np.array([evaluate(h) for h in hands], dtype=np.uint16)
    scalar = specialk_scalar()
    scalar_values = np.array([scalar(h) for h in hands], dtype=np.uint16)
    scalar_rate = len(hands) / _best_loop(scalar, hands)

    few = hands[:_N_NUMPY_SINGLE]
    numpy_values = np.array([int(specialk.evaluate([h])[0]) for h in few], dtype=np.uint16)
    numpy_rate = len(few) / _best_loop(lambda h: specialk.evaluate([h]), few)

    notes = [
        f"Single-hand oracles on the `runtime` hands: specialk's tables walked per hand in "
        f"Python, {scalar_rate:,.0f} calls/s (checksum `{checksum(scalar_values)}`, "
        f"{'agrees' if np.array_equal(scalar_values, ours) else '**DISAGREES**'}); "
        f"`specialk.evaluate([hand])`, {numpy_rate:,.0f} calls/s on the first {len(few):,} "
        f"({'agrees' if np.array_equal(numpy_values, ours[: len(few)]) else '**DISAGREES**'}); "
        f"twoplustwo's checksum on the same hands: `{checksum(ours)}`."
    ]
    if scalar_rate >= numpy_rate:
        return "specialk, scalar Python on its tables", scalar_rate, notes
    return "`specialk.evaluate([hand])`", numpy_rate, notes


# Runs in a fresh interpreter: import, first 7-card evaluate (which builds the
# 7-card face table), then the 5- and 6-card tables; seconds and table bytes.
_SPECIALK_SCRIPT = """
import json, time
t0 = time.perf_counter()
from twoplustwo_builder.oracles import specialk
t1 = time.perf_counter()
specialk.evaluate([[0, 4, 8, 12, 17, 21, 25]])
t2 = time.perf_counter()
faces = [specialk.face_sum_table(k) for k in (5, 6, 7)]
t3 = time.perf_counter()
nbytes = sum(int(a.nbytes) for a in [specialk.CARD_KEYS, specialk.FLUSH_SUIT, specialk.FLUSH_VALUES, *faces])
print(json.dumps([t1 - t0, t2 - t1, t3 - t2, nbytes]))
"""


def _specialk_setup() -> tuple[float, float, int]:
    """Median seconds to first 7-card answer and to all tables, and the tables' bytes."""
    runs = fresh_runs(_SPECIALK_SCRIPT, _LOADS)
    first = statistics.median(r[0] + r[1] for r in runs)
    total = statistics.median(r[0] + r[1] + r[2] for r in runs)
    return first, total, int(runs[0][3])


def _fastest_oracle() -> str | None:
    """The oracle with the highest hands/s in the ``oracles`` section, if it ran."""
    rows = [r for r in table_rows(OUTPUTS.get("oracles", [])) if "hands/s" in r]
    if not rows:
        return None
    return max(rows, key=lambda r: _number(r["hands/s"]))["oracle"]


# ---------------------------------------------------------------- the table


def _peer_lines() -> list[str]:
    if not _PEERS_JSON.is_file():
        return ["- Peers (eval7, phevaluator, treys): none measured; `make bench-peers` adds them."]
    try:
        peers = json.loads(_PEERS_JSON.read_text())
    except (OSError, json.JSONDecodeError):
        return [f"- Peers: `{_PEERS_JSON.name}` is unreadable; rerun `make bench-peers`."]
    out = [f"- Peers, from the last `make bench-peers` ({peers.get('date', '?')}, a separate run):"]
    for p in peers.get("summary", []):
        out.append(f"  - {p}")
    return out


def section() -> list[str]:
    """The summary table of this run's figures; return markdown lines."""
    print("summary: single-hand oracles and specialk set-up", file=sys.stderr, flush=True)
    single_name, single_oracle, notes = _single_oracle()
    sk_first_s, sk_all_s, sk_bytes = _specialk_setup()

    def rt(where: Callable[[dict[str, str]], bool], column: str) -> float | None:
        return figure("runtime", where, column)

    def ex(prefix: str, column: str = "seconds") -> float | None:
        return figure("exhaustive", lambda r: r.get("route", "").startswith(prefix), column)

    rows: list[list[str]] = []

    def add(
        what: str, ours: float | None, unit: str, oracle: str, theirs: float | None, kind: str, how: str
    ) -> None:
        def show(x: float | None) -> str:
            if x is None:
                return "not run"
            if unit == "bytes":
                return f"{x:,.0f}"
            if unit == "s":
                return f"{x:.3f} s" if x < 10 else f"{x:.1f} s"
            if unit == "ms":
                return f"{x:.0f} ms"
            return f"{x:,.0f}"

        ratio = versus(ours, theirs, kind) if ours and theirs else "-"
        rows.append([what, show(ours), oracle, show(theirs) if oracle != "-" else "-", ratio, how])

    add(
        "build: all three DAGs from nothing",
        FIGURES.get("build_s"),
        "s",
        "specialk: import and all its tables",
        sk_all_s,
        "time",
        "fresh interpreters; build without self-check",
    )
    add(
        "table bytes (all DAGs)",
        FIGURES.get("table_bytes"),
        "bytes",
        "specialk: its tables",
        sk_bytes,
        "bytes",
        "array data",
    )
    add("bundle bytes (`.tar.zst`)", FIGURES.get("bundle_bytes"), "bytes", "-", None, "bytes", "what a user downloads")
    add(
        "single hand, 7 ints: calls/s",
        rt(lambda r: r.get("call") == "`evaluate` 7 ints, tuple", "calls/s"),
        "calls/s",
        single_name,
        single_oracle,
        "rate",
        "random order, one call per hand",
    )
    for k in (5, 6, 7):
        ours = rt(
            lambda r, k=k: (r.get("cards"), r.get("evaluator"), r.get("check"), r.get("threads"))
            == (str(k), "evaluate_batch", "yes", "1"),
            "hands/s",
        )
        theirs = rt(lambda r, k=k: (r.get("cards"), r.get("evaluator")) == (str(k), "specialk"), "hands/s")
        add(
            f"batch, {k} cards: hands/s",
            ours,
            "hands/s",
            "specialk (numpy)",
            theirs,
            "rate",
            "random order, checked, 1 thread",
        )
    # The faster thread setting counts: on a busy machine one thread can win.
    iters = [
        (_number(r["seconds"]), r["route"].split("threads", 1)[-1].strip())
        for r in table_rows(OUTPUTS.get("exhaustive", []))
        if r.get("route", "").startswith("`iter_hands(7)`") and "seconds" in r
    ]
    iter_s, iter_threads = min(iters) if iters else (None, "")
    add(
        "ordered iteration, all 7-card hands",
        iter_s,
        "s",
        "`all_hands` + specialk",
        ex("`all_hands` + specialk"),
        "time",
        f"lexicographic order, threads {iter_threads}; oracle extrapolated",
    )
    add(
        "histogram of all 7-card values",
        ex("`histogram(7)`"),
        "s",
        "`all_hands` + specialk",
        ex("`all_hands` + specialk"),
        "time",
        "oracle without its bincount: a lower bound",
    )
    add(
        "heads-up preflop equity, AsAh vs KdKc",
        ex("`equity("),
        "s",
        "specialk on every board",
        ex("specialk on all"),
        "time",
        "exact, 1,712,304 boards; oracle's hands prebuilt",
    )
    load = [
        rt(lambda r, s=step: r.get("step") == s, "ms")
        for step in ("import twoplustwo", "load_tables()", "first evaluate() after load_tables()")
    ]
    add(
        "load: import, `load_tables()`, first evaluate",
        sum(load) if all(x is not None for x in load) else None,  # type: ignore[misc]
        "ms",
        "specialk: import, first 7-card evaluate",
        sk_first_s * 1e3,
        "time",
        "fresh interpreters, medians",
    )

    fastest = _fastest_oracle()
    if fastest is not None and fastest != "specialk":
        notes.append(f"**In this run the fastest batch oracle was {fastest}, not specialk.**")
    lines = [
        "## Summary",
        "",
        "Each figure next to the best oracle (`twoplustwo_builder.oracles`) on the same work in this "
        "run; the details, checksums and seeds are in the sections below. The last column "
        "says how twoplustwo compares.",
        "",
        *markdown_table(["figure", "twoplustwo", "best oracle", "oracle", "twoplustwo vs oracle", "how"], rows),
        "",
        *[f"- {n}" for n in notes],
        *_peer_lines(),
    ]
    return lines
