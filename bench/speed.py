"""Speed: the oracles; twoplustwo's load, single hands and batches in random order; and in sequential order,
every 7-card hand, the histogram and exact equity, each next to an oracle's route to the same answer.

Input is fixed-seed (:data:`bench.SEED`): the oracles' 7-card batch is the runtime's, and the single-hand
hands (:func:`bench.single_hands`) are the peers' too. Checksums are of the values in order (as uint16),
of a histogram as int64, or equity counts. Sequential routes run warm, after an untimed run that maps the
tables and builds cached blocks; an oracle's route over every hand runs on the first :data:`SLICE` hands
and is extrapolated.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import partial
from itertools import combinations
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

import twoplustwo
from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.games import walker_of
from twoplustwo_builder.oracles import specialk
from twoplustwo_builder.testdata.hands import all_hands, random_hands

from . import N_BATCH, REPEATS, SEED, THREADS, best_of, checksum, fresh, per_call, say, single_hands

#: Timed runs of each batch row. A run takes tens of milliseconds, and on a shared machine a memory-bound
#: run swings by a quarter from one to the next, so more runs give every row its chance at a quiet moment.
BATCH_REPEATS = 15

ORACLES = ("specialk", "signature", "cactus_kev", "categoriser")
#: Rough seconds per oracle: a slower one is timed on a prefix of the batch, which its row says.
BUDGET_S = 20.0
#: Hands of the probe that estimates an oracle's speed, and of the slow per-call numpy route.
PROBE = 20_000
#: Fresh interpreters per set-up figure (their median counts).
LOADS = 5
N7 = comb(52, 7)
SLICE = 10_000_000
HANDS = ["As Ah", "Kd Kc"]
HANDS3 = ["As Ah", "Kd Kc", "Qs Jh"]
# 22 combos against 16: the range-against-range yardstick.
RANGES = ["QQ+,AKs", "AK"]
# Games Monte Carlo samples in its benchmark row.
MC_GAMES = 2_000_000


def specialk_scalar() -> Callable[[Sequence[int]], int]:
    """SpecialK on one 7-card hand in plain Python on its own tables: the fair single-hand oracle,
    since calling a batch oracle per hand mostly times numpy's per-call overhead."""
    keys, faces = specialk.CARD_KEYS.tolist(), specialk.face_sum_table(7).tolist()
    flush_suit, flush_values = specialk.FLUSH_SUIT[7].tolist(), specialk.FLUSH_VALUES.tolist()

    def evaluate7(cards: Sequence[int]) -> int:
        a, b, c, d, e, f, g = cards
        key = keys[a] + keys[b] + keys[c] + keys[d] + keys[e] + keys[f] + keys[g]
        suit = flush_suit[key & 511]
        if suit < 0:
            return int(faces[key >> 9])
        mask = 0  # a flush: only the flush suit's ranks count
        for card in cards:
            if card & 3 == suit:
                mask |= 1 << (card >> 2)
        return int(flush_values[mask])

    return evaluate7


def oracles() -> dict[str, Any]:
    hands = random_hands(N_BATCH, 7, seed=SEED)
    reference = specialk.evaluate(hands)
    rows = []
    for name in ORACLES:
        oracle = importlib.import_module(f"twoplustwo_builder.oracles.{name}")
        oracle.evaluate(hands[:100])  # tables built on first use are not timed
        estimate = best_of(oracle.evaluate, hands[:PROBE], repeats=1)[0] * N_BATCH / PROBE
        n = N_BATCH if estimate <= BUDGET_S else max(PROBE, int(N_BATCH * BUDGET_S / estimate) // PROBE * PROBE)
        say(f"oracles: {name} on {n:,} hands")
        s, values = best_of(oracle.evaluate, hands[:n], repeats=REPEATS if estimate < 1 else 1)
        rows.append({"oracle": name, "hands": n, "seconds": s, "hands_per_s": n / s, "checksum": checksum(values),
                     "agrees": bool(np.array_equal(values, reference[:n]))})

    say("oracles: single hands, and specialk's set-up in fresh interpreters")
    single = single_hands()
    ours = [twoplustwo.evaluate(h) for h in single]
    routes = {"specialk's tables walked in Python": (specialk_scalar(), single, REPEATS),
              "specialk.evaluate([hand])": (lambda h: int(specialk.evaluate([h])[0]), single[:PROBE], 3)}
    single_rows = []
    for route, (fn, hands, repeats) in routes.items():
        got = [fn(h) for h in hands]
        single_rows.append({"route": route, "hands": len(hands), "calls_per_s": per_call(fn, hands, repeats),
                            "checksum": checksum(got), "agrees": got == ours[: len(hands)]})
    return {
        "about": f"{N_BATCH:,} random 7-card hands, seed {SEED}; best of {REPEATS} runs for oracles under a "
        f"second, else 1; an oracle slower than {BUDGET_S:.0f} s runs on a prefix",
        "batch": rows,
        "checksum": checksum(reference),
        "single_hand": single_rows,
        "single_hand_checksum_twoplustwo": checksum(ours),
        "specialk_setup": fresh("specialk", times=LOADS),
    }


def runtime() -> dict[str, Any]:
    say(f"runtime: load, {LOADS} fresh interpreters")
    load = fresh("load", times=LOADS)
    tables = twoplustwo.load_tables()
    tuples7 = single_hands()
    cases: dict[str, tuple[Callable[[Any], object], list[Any]]] = {
        "call of a no-op function (bound)": (lambda h: 0, tuples7),
        "evaluate, 7 ints, tuple": (twoplustwo.evaluate, tuples7),
        "evaluate, 7 ints, list": (twoplustwo.evaluate, [list(h) for h in tuples7]),
        "evaluate, 5 ints, list": (twoplustwo.evaluate, [list(h[:5]) for h in tuples7]),
        "evaluate, 7 cards, one string": (twoplustwo.evaluate, [twoplustwo.format_cards(h) for h in tuples7]),
    }
    twoplustwo.evaluate(tuples7[0])  # maps the default tables outside the timing

    def empty_loop() -> None:
        for _ in tuples7:
            pass

    empty = len(tuples7) / best_of(empty_loop)[0]
    single = [{"call": "empty loop (bound)", "hands": len(tuples7), "calls_per_s": empty}]
    for name, (fn, hands) in cases.items():
        say(f"runtime: single hands, {name}")
        single.append({"call": name, "hands": len(hands), "calls_per_s": per_call(fn, hands)})

    batch = []
    for k in (5, 6, 7):
        say(f"runtime: batches of {k} cards")
        hands = random_hands(N_BATCH, k, seed=SEED)
        specialk.evaluate(hands[:100])  # tables built on first use are not timed
        twoplustwo.evaluate_batch(hands[:100])
        ref_s, ref = best_of(specialk.evaluate, hands, repeats=BATCH_REPEATS)
        batch.append({"cards": k, "evaluator": "specialk", "check": "-", "threads": 1, "seconds": ref_s,
                      "hands_per_s": N_BATCH / ref_s, "x_specialk": 1.0, "checksum": checksum(ref),
                      "value_sum": int(ref.sum(dtype=np.int64))})
        for check in ("yes", "no"):
            for threads in THREADS:
                s, values = best_of(twoplustwo.evaluate_batch, hands, check=check == "yes", threads=threads,
                                    repeats=BATCH_REPEATS)
                batch.append({"cards": k, "evaluator": "evaluate_batch", "check": check, "threads": threads,
                              "seconds": s, "hands_per_s": N_BATCH / s, "x_specialk": ref_s / s,
                              "checksum": checksum(values), "agrees": bool(np.array_equal(values, ref))})
    say("runtime: every hole pair against river boards, through a prefix")
    rng = np.random.default_rng(SEED)
    boards = [rng.choice(52, size=5, replace=False) for _ in range(200)]
    pairs = np.array(list(combinations(range(52), 2)), dtype=np.uint8)
    holes = [pairs[~np.isin(pairs, b).any(axis=1)] for b in boards]
    fulls = [np.hstack([np.tile(b.astype(np.uint8), (len(h), 1)), h]) for b, h in zip(boards, holes)]

    def by_prefix() -> list[npt.NDArray[np.uint16]]:
        return [twoplustwo.prefix(b).evaluate_batch(h) for b, h in zip(boards, holes)]

    def by_batch() -> list[npt.NDArray[np.uint16]]:
        return [twoplustwo.evaluate_batch(f) for f in fulls]

    say("runtime: the C backend against the numpy path, same hands, same process")
    numpy_tables = reference_tables(tables)
    hands7 = random_hands(N_BATCH, 7, seed=SEED)
    backends = {
        "single_c": per_call(twoplustwo.evaluate, tuples7),
        "single_numpy": per_call(partial(twoplustwo.evaluate, tables=numpy_tables), tuples7),
        "batch7_c": N_BATCH / best_of(twoplustwo.evaluate_batch, hands7, threads=1)[0],
        "batch7_numpy": N_BATCH / best_of(twoplustwo.evaluate_batch, hands7, threads=1, tables=numpy_tables)[0],
        "backend": twoplustwo.backend(),
    }

    say("runtime: short deck against Hold'em, single hands and 7-card batches")
    rng_sd = np.random.default_rng(SEED)
    short7 = (np.argsort(rng_sd.random((N_BATCH, 36)), axis=1)[:, :7] + 16).astype(np.uint8)
    short_tuples = [tuple(int(c) for c in row) for row in short7[: len(tuples7)]]
    games = {}

    def per_call_game(game: str, hands: Sequence[tuple[int, ...]]) -> float:
        # evaluate(h, game=...) written out, as a caller writes it (a partial
        # would time its own keyword merging); Hold'em's row is timed alike.
        evaluate = twoplustwo.evaluate

        def loop() -> None:
            for h in hands:
                evaluate(h, game=game)

        loop()  # maps the game's walker outside the timing
        return len(hands) / best_of(loop)[0]

    for game in ("short-deck", "short-deck-classic"):
        games[game] = {
            "single": per_call_game(game, short_tuples),
            "batch7": N_BATCH / best_of(twoplustwo.evaluate_batch, short7, threads=1, game=game)[0],
        }
    games["holdem"] = {"single": per_call_game("holdem", tuples7),
                       "batch7": backends["batch7_c" if backends["backend"] == "c" else "batch7_numpy"]}

    prefix_s, got = best_of(by_prefix)
    whole_s, want = best_of(by_batch)
    ranked_s, ranked = best_of(lambda: [twoplustwo.rank_hands(b) for b in boards])
    live = [~np.isin(pairs, b).any(axis=1) for b in boards]
    prefix = {"boards": len(boards), "holes_per_board": len(holes[0]), "prefix_s": prefix_s, "batch_s": whole_s,
              "rank_hands_s": ranked_s,
              "agrees": all(np.array_equal(a, b) for a, b in zip(got, want))
              and all(np.array_equal(r[k], w) for r, k, w in zip(ranked, live, want))}
    return {
        "backends": backends,
        "games_about": "random 7-card hands of each game's deck, the same count as Hold'em's; single calls with "
        "game=, 7-card batches on 1 thread",
        "games": games,
        "prefix_about": f"random river boards, seed {SEED}; prefix(board).evaluate_batch(its 1,081 hole pairs) "
        "against evaluate_batch of the same 7-card rows; best of 3",
        "prefix": prefix,
        "load_about": f"median of {LOADS} fresh interpreters; {len(tables.arrays)} arrays, {tables.nbytes:,} bytes "
        "memory-mapped read-only (page cache warm)",
        "load": load,
        "single_about": f"{len(tuples7):,} random hands, seed {SEED}, built beforehand; one call per hand in a "
        f"plain loop, best of {REPEATS}",
        "single": single,
        "batch_about": f"random hands, seed {SEED}, random card order, uint8; best of {BATCH_REPEATS}; x_specialk: "
        "throughput relative to specialk on the same batch",
        "batch_hands": N_BATCH,
        "batch": batch,
    }


def reference_tables(t: twoplustwo.Tables) -> twoplustwo.Tables:
    """The same mapped arrays as ``t``, on the numpy reference path."""
    saved = os.environ.get("TWOPLUSTWO_BACKEND")
    os.environ["TWOPLUSTWO_BACKEND"] = "numpy"
    try:
        ref = twoplustwo.Tables(t.path, t.manifest, t.arrays)
        assert isinstance(walker_of(ref), numpy_backend.Walker)  # the backend is chosen on first use, so use it now
    finally:
        if saved is None:
            del os.environ["TWOPLUSTWO_BACKEND"]
        else:
            os.environ["TWOPLUSTWO_BACKEND"] = saved
    return ref


def first(chunks: Iterable[npt.NDArray[Any]], n: int) -> Iterator[npt.NDArray[Any]]:
    """The chunks, cut after their first ``n`` rows in all (no chunk past those is made)."""
    for chunk in chunks:
        yield chunk[:n]
        n -= len(chunk)
        if n <= 0:
            return


def all_values(threads: int | None = None) -> Iterator[npt.NDArray[np.uint16]]:
    return (v for _, v in twoplustwo.iter_hands(7, threads=threads))


def drain(threads: int, tables: twoplustwo.Tables | None = None) -> int:
    """Every 7-card hand with its cards and value, into reused chunks: the ordered iteration's own cost."""
    return sum(len(v) for _, v in twoplustwo.iter_hands(7, threads=threads, reuse=True, tables=tables))


def specialk_preflop(a: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]) -> list[int]:
    va, vb = specialk.evaluate(a), specialk.evaluate(b)
    return [int((va > vb).sum()), int((va == vb).sum()), int((va < vb).sum())]


def exhaustive() -> dict[str, Any]:
    rows: list[dict[str, Any]] = []

    def add(route: str, hands: int, seconds: float, check: Any, how: str = "measured", **agrees: bool) -> None:
        rows.append({"route": route, "hands": hands, "seconds": seconds, "hands_per_s": hands / seconds,
                     "checksum": check, "how": how, **agrees})

    say("exhaustive: warm-up and the checksum of all 7-card values")
    drain(max(THREADS))
    twoplustwo.histogram(7)
    twoplustwo.equity(HANDS)
    full = checksum(all_values())
    ref = reference_tables(twoplustwo.load_tables())
    for threads in THREADS:
        say(f"exhaustive: iter_hands(7, reuse=True), threads={threads}")
        add(f"iter_hands(7, reuse=True, threads={threads})", N7, best_of(drain, threads, repeats=3)[0], full)
    say("exhaustive: iter_hands(7, reuse=True) on the numpy path, threads=1")
    add("numpy path: iter_hands(7, reuse=True, threads=1)", N7, best_of(drain, 1, ref, repeats=1)[0], full)
    want = checksum(first(all_values(), SLICE))
    walk = partial(twoplustwo.evaluate_batch, check=False, threads=1)
    for name, fn in (("evaluate_batch(check=False, threads=1)", walk), ("specialk", specialk.evaluate)):
        say(f"exhaustive: all_hands + {name}, first {SLICE:,} hands")
        s, got = best_of(lambda f=fn: checksum(f(c) for c in first(all_hands(7), SLICE)), repeats=3)
        add(f"all_hands + {name}", N7, s * N7 / SLICE, got, f"extrapolated from {SLICE:,}", agrees=got == want)

    say("exhaustive: histogram(7) and its bincount route")
    hist_s, hist = best_of(twoplustwo.histogram, 7)
    bincount_s, counts = best_of(lambda: sum(np.bincount(v, minlength=7463) for v in all_values()), repeats=1)
    hist_digest = hashlib.sha256(hist.astype("<i8").tobytes()).hexdigest()[:12]
    add("histogram(7)", N7, hist_s, hist_digest)
    ref_hist_s, ref_hist = best_of(twoplustwo.histogram, 7, tables=ref)
    add("numpy path: histogram(7)", N7, ref_hist_s, hist_digest, agrees=bool(np.array_equal(hist, ref_hist)))
    add("bincount of iter_hands(7) values", N7, bincount_s, hist_digest, agrees=bool(np.array_equal(hist, counts)))

    say("exhaustive: preflop equity, and specialk on every board")
    # Milliseconds a call: the batch rows' repeats, so that one slow call in a few does not count.
    eq_s, (aa, _) = best_of(twoplustwo.equity, HANDS, repeats=BATCH_REPEATS)
    a, b = (twoplustwo.parse_cards(h) for h in HANDS)
    boards = np.array(list(combinations([c for c in range(52) if c not in a + b], 5)), dtype=np.uint8)
    hands_a, hands_b = (np.hstack([np.tile(np.array(h, dtype=np.uint8), (len(boards), 1)), boards]) for h in (a, b))
    sk_s, sk = best_of(specialk_preflop, hands_a, hands_b, repeats=3)
    add("equity(['As Ah', 'Kd Kc'])", 2 * aa.games, eq_s, [aa.wins, aa.ties, aa.losses])
    add("specialk on both hands of every board", 2 * len(boards), sk_s, sk, "boards built beforehand",
        agrees=sk == [aa.wins, aa.ties, aa.losses])
    say("exhaustive: 3-way preflop equity, C and numpy paths")
    three_s, three = best_of(twoplustwo.equity, HANDS3, repeats=BATCH_REPEATS)
    ref_s, ref_three = best_of(twoplustwo.equity, HANDS3, tables=ref, repeats=BATCH_REPEATS)
    add(f"equity({HANDS3})", 3 * three[0].games, three_s, [r.wins for r in three])
    add(f"numpy path: equity({HANDS3})", 3 * three[0].games, ref_s, [r.wins for r in ref_three],
        agrees=ref_three == three)

    say("exhaustive: range against range preflop, one shared walk against a loop over the deals")
    range_s, (hero, villain) = best_of(twoplustwo.equity, RANGES, method="exact")
    combos = [twoplustwo.parse_range(r).combos.tolist() for r in RANGES]
    pairs = [(x, y) for x in combos[0] for y in combos[1] if not set(x) & set(y)]

    def per_deal() -> list[int]:
        runs = [twoplustwo.equity([x, y]) for x, y in pairs]
        return [sum(r[0].wins for r in runs), sum(r[0].ties for r in runs), sum(r[1].wins for r in runs)]

    loop_s, loop = best_of(per_deal, repeats=1)
    want = [hero.wins, hero.ties, villain.wins]
    add(f"equity({RANGES}, method='exact')", 2 * hero.games, range_s, want)
    add(f"a loop of equity() over the {len(pairs)} deals", 2 * hero.games, loop_s, loop, agrees=loop == want)
    say("exhaustive: Monte Carlo, AsAh against a random hand")
    mc_s, (aa_mc, _) = best_of(twoplustwo.equity, ["As Ah", "random"], method="monte-carlo", samples=MC_GAMES,
                               seed=SEED, repeats=3)
    # The exact figure: AA against a random hand wins 1,781,508,418 and ties 11,402,312 of 2,097,572,400.
    exact_aa = (1_781_508_418 + 11_402_312 / 2) / 2_097_572_400
    honest = abs(aa_mc.equity - exact_aa) <= 4 * aa_mc.stderr
    add(f"equity(['As Ah', 'random'], method='monte-carlo', samples={MC_GAMES:,})", 2 * MC_GAMES, mc_s,
        [round(aa_mc.equity, 6), round(aa_mc.stderr, 6)], within_4_stderr=honest)
    return {
        "about": "best of 3 warm runs (histogram and equity: best of 5); hands: hand evaluations; "
        "iter_hands yields every hand's cards and value into reused chunks",
        "routes": rows,
        "value_sum": int((counts * np.arange(7463)).sum()),
    }
