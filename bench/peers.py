"""``python -m bench.peers`` (``make bench-peers``): twoplustwo next to eval7, phevaluator and treys.

The peers are installed with pip into their own virtualenv (``.venv-peers``
by default), never into the project's environment; a peer whose install
fails is skipped with a message, and when none installs (or the virtualenv
cannot be made) the run says so and exits 0.

Every evaluator gets the same work:

- per call: the 100,000 fixed-seed 7-card hands of ``bench.runtime``'s
  single-hand figures, one call per hand in a plain ``for`` loop, best of 5
  (``timeit``, loop overhead included, as in ``runtime``). Our card ints are
  converted to each library's own card objects before the timing;
- order: each peer's result, mapped so that higher is stronger, must be a
  strictly increasing function of our value on all those hands (equal
  values give equal results, a higher value a higher result), which is
  exactly "orders every pair of hands the way we do";
- exact heads-up preflop equity, AsAh vs KdKc: a Python loop over all
  1,712,304 boards that evaluates both hands and compares. A peer whose
  loop would take more than :data:`BUDGET_S` is timed on the first
  :data:`SLICE_BOARDS` boards and extrapolated, and the table says so; its
  counts are then checked against ours on the same slice. twoplustwo runs
  the same loop with ``evaluate`` and, for reference, its own ``equity``.

The measuring runs inside the peers' virtualenv, in this very file run as
a script (``--worker``), which therefore imports nothing but the standard
library and the peers at module level. The report is printed and written to
``bench/peers.md``; ``bench/peers.json`` keeps the headline lines that
``python -m bench`` quotes in its summary.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable
from itertools import combinations, islice
from pathlib import Path
from typing import Any

__all__ = ["BUDGET_S", "PEERS", "SLICE_BOARDS", "main"]

#: pip name of each peer, in report order.
PEERS = ("eval7", "phevaluator", "treys")
#: A full equity loop expected to take longer than this is timed on a slice.
BUDGET_S = 30.0
#: Boards timed (and extrapolated from) for a slow peer's equity loop.
SLICE_BOARDS = 100_000
#: Boards whose timing estimates how long a full loop would take.
PROBE_BOARDS = 20_000
#: Timed runs of each per-call loop; the best is kept (5: the machine may be shared).
REPEATS = 5
#: The matchup, as card ints (rank * 4 + suit): As Ah vs Kd Kc.
HERO = (51, 50)
VILLAIN = (45, 44)
BOARDS = 1_712_304  # C(48, 5)

_ROOT = Path(__file__).resolve().parent.parent
_DEFAULT_VENV = _ROOT / ".venv-peers"
_OUT_MD = Path(__file__).with_name("peers.md")
_OUT_JSON = Path(__file__).with_name("peers.json")
_RANKS, _SUITS = "23456789TJQKA", "cdhs"


def _name(card: int) -> str:
    return _RANKS[card >> 2] + _SUITS[card & 3]


# ------------------------------------------------ worker: runs in the peers' venv

# A peer, ready to time: its version, its per-call routes (label, prepared
# hands, timeit statement), a scorer giving higher-is-stronger ints for the
# prepared hands of the first route, and its equity loop over n boards.
Peer = dict[str, Any]


def _equity_loop(
    evaluate: Callable[..., int], hero: Any, villain: Any, rest: list[Any], higher_wins: bool, style: str
) -> Callable[[int], tuple[int, int, int]]:
    """Wins, ties, losses of the hero over the first n boards, the library's way of calling."""

    def run(n: int) -> tuple[int, int, int]:
        wins = ties = 0
        boards = islice(combinations(rest, 5), n)
        # One loop per call shape and sign, so the loop itself adds no
        # indirection beyond what any user's loop would have.
        if style == "seq":
            for board in boards:
                a = evaluate(hero + board)
                b = evaluate(villain + board)
                if a == b:
                    ties += 1
                elif (a > b) == higher_wins:
                    wins += 1
        elif style == "star":
            for board in boards:
                a = evaluate(*hero, *board)
                b = evaluate(*villain, *board)
                if a == b:
                    ties += 1
                elif (a > b) == higher_wins:
                    wins += 1
        else:  # "pair": evaluate(hole, board), both lists
            for board in boards:
                board = list(board)
                a = evaluate(hero, board)
                b = evaluate(villain, board)
                if a == b:
                    ties += 1
                elif (a > b) == higher_wins:
                    wins += 1
        done = min(n, BOARDS)
        return wins, ties, done - wins - ties

    return run


def _eval7(hands: list[tuple[int, ...]], rest: list[int]) -> Peer:
    import eval7

    cards = [eval7.Card(_name(c)) for c in range(52)]
    lists = [[cards[c] for c in h] for h in hands]
    return {
        "routes": [("`eval7.evaluate(cards)`", lists, "for h in hands: f(h)", eval7.evaluate)],
        "score": eval7.evaluate,  # higher is stronger already
        "equity": _equity_loop(
            eval7.evaluate,
            tuple(cards[c] for c in HERO),
            tuple(cards[c] for c in VILLAIN),
            [cards[c] for c in rest],
            True,
            "seq",
        ),
        "equity_call": "`eval7.evaluate`",
    }


def _phevaluator(hands: list[tuple[int, ...]], rest: list[int]) -> Peer:
    import phevaluator

    # phevaluator's card ids; they happen to be ours (rank * 4 + suit), but
    # converting keeps that an observation, not an assumption.
    ids = [phevaluator.Card(_name(c)).id_ for c in range(52)]
    prepared = [tuple(ids[c] for c in h) for h in hands]
    seven = phevaluator.evaluate_7cards
    return {
        "routes": [
            ("`phevaluator.evaluate_cards(*cards)`", prepared, "for h in hands: f(*h)", phevaluator.evaluate_cards),
            ("`phevaluator.evaluate_7cards(*cards)`", prepared, "for h in hands: f(*h)", seven),
        ],
        "score": lambda h: 7463 - seven(*h),  # Cactus Kev rank: 1 is a royal flush
        "equity": _equity_loop(
            seven, tuple(ids[c] for c in HERO), tuple(ids[c] for c in VILLAIN), [ids[c] for c in rest], False, "star"
        ),
        "equity_call": "`phevaluator.evaluate_7cards`",
    }


def _treys(hands: list[tuple[int, ...]], rest: list[int]) -> Peer:
    from treys import Card, Evaluator

    ev = Evaluator()
    cards = [Card.new(_name(c)) for c in range(52)]
    # treys takes the two hole cards and the board as two lists.
    pairs = [([cards[c] for c in h[:2]], [cards[c] for c in h[2:]]) for h in hands]
    return {
        "routes": [("`Evaluator().evaluate(hole, board)`", pairs, "for a, b in hands: f(a, b)", ev.evaluate)],
        "score": lambda p: 7463 - ev.evaluate(*p),  # Cactus Kev rank
        "equity": _equity_loop(
            ev.evaluate, [cards[c] for c in HERO], [cards[c] for c in VILLAIN], [cards[c] for c in rest], False, "pair"
        ),
        "equity_call": "`Evaluator().evaluate`",
    }


_ADAPTERS: dict[str, Callable[[list[tuple[int, ...]], list[int]], Peer]] = {
    "eval7": _eval7,
    "phevaluator": _phevaluator,
    "treys": _treys,
}


def _time_equity(loop: Callable[[int], tuple[int, int, int]]) -> dict[str, Any]:
    """Time a full equity loop, or a slice when the full loop would exceed the budget."""
    start = time.perf_counter()
    loop(PROBE_BOARDS)
    estimate = (time.perf_counter() - start) * BOARDS / PROBE_BOARDS
    n = BOARDS if estimate <= BUDGET_S else SLICE_BOARDS
    start = time.perf_counter()
    counts = loop(n)
    seconds = time.perf_counter() - start
    return {"boards": n, "seconds": seconds, "full_seconds": seconds * BOARDS / n, "counts": counts}


def _measure(name: str, hands: list[tuple[int, ...]], rest: list[int]) -> dict[str, Any]:
    from importlib.metadata import version

    peer = _ADAPTERS[name](hands, rest)
    routes = []
    for label, prepared, stmt, fn in peer["routes"]:
        exec(stmt, {"hands": prepared[:100], "f": fn})  # warm-up
        print(f"peers: {name}: {label}", file=sys.stderr, flush=True)
        seconds = min(timeit.repeat(stmt, globals={"hands": prepared, "f": fn}, number=1, repeat=REPEATS))
        routes.append({"call": label, "hands": len(prepared), "seconds": seconds})
    score = peer["score"]
    values = [score(h) for h in peer["routes"][0][1]]
    print(f"peers: {name}: equity loop", file=sys.stderr, flush=True)
    equity = _time_equity(peer["equity"])
    equity["call"] = peer["equity_call"]
    return {"version": version(name), "routes": routes, "values": values, "equity": equity}


def _worker_main(argv: list[str]) -> int:
    src, dst, *names = argv
    data = json.loads(Path(src).read_text())
    hands = [tuple(h) for h in data["hands"]]
    results: dict[str, Any] = {}
    for name in names:
        try:
            results[name] = _measure(name, hands, data["rest"])
        except Exception as e:  # one broken peer must not hide the others
            results[name] = {"error": f"{type(e).__name__}: {e}"}
    Path(dst).write_text(json.dumps(results))
    return 0


# ------------------------------------------ driver: runs in the project's Python


def _say(message: str) -> None:
    print(f"peers: {message}", file=sys.stderr, flush=True)


def _venv_python(venv: Path) -> Path | None:
    """The virtualenv's interpreter, creating the virtualenv first if needed."""
    py = venv / "bin" / "python"
    if py.exists():
        return py
    _say(f"creating the virtualenv {venv}")
    made = subprocess.run([sys.executable, "-m", "venv", str(venv)], capture_output=True, text=True)
    if made.returncode != 0 or not py.exists():
        why = (made.stderr.strip().splitlines() or ["unknown error"])[-1]
        _say(f"cannot create the virtualenv {venv}: {why}")
        return None
    return py


def _ensure_peer(py: Path, name: str, install: bool) -> bool:
    """Whether ``name`` imports in the peers' virtualenv, installing it there first if allowed."""
    if subprocess.run([str(py), "-c", f"import {name}"], capture_output=True).returncode == 0:
        return True
    if not install:
        _say(f"{name} is not installed in the peers' virtualenv; skipped")
        return False
    _say(f"pip install {name} (into {py.parent.parent} only)")
    try:
        got = subprocess.run(
            [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", name],
            capture_output=True,
            text=True,
            timeout=900,
        )
    except subprocess.TimeoutExpired:
        _say(f"{name}: pip install took over 15 minutes; skipped")
        return False
    if got.returncode != 0:
        # pip's last error line usually names the failing build step.
        errors = [line for line in got.stderr.splitlines() if line.strip() and "WARNING" not in line]
        _say(f"{name} could not be installed ({(errors or ['no message'])[-1].strip()}); skipped")
        return False
    return subprocess.run([str(py), "-c", f"import {name}"], capture_output=True).returncode == 0


def _ours_loop(n: int) -> tuple[float, tuple[int, int, int]]:
    """twoplustwo's ``evaluate`` in the same equity loop as the peers'."""
    from twoplustwo.evaluate import evaluate

    rest = [c for c in range(52) if c not in HERO + VILLAIN]
    loop = _equity_loop(evaluate, HERO, VILLAIN, rest, True, "seq")
    loop(1000)  # tables mapped, walker built
    start = time.perf_counter()
    counts = loop(n)
    return time.perf_counter() - start, counts


def _versus(ours_s: float, theirs_s: float) -> str:
    """How twoplustwo, taking ``ours_s``, compares with something taking ``theirs_s``."""
    r = theirs_s / ours_s
    r, word = (r, "faster") if r >= 1 else (1 / r, "slower")
    return f"{r:.2f}x {word}" if r < 10 else f"{r:.0f}x {word}"


def _ordered_like(values: Any, scores: Any) -> tuple[bool, int]:
    """Whether ``scores`` is a strictly increasing function of ``values``; distinct values seen."""
    import numpy as np

    v = np.asarray(values, dtype=np.int64)
    s = np.asarray(scores, dtype=np.int64)
    order = np.lexsort((s, v))
    dv, ds = np.diff(v[order]), np.diff(s[order])
    # Equal values need equal scores; a step up in value needs a step up in score.
    same = bool(np.all((dv == 0) == (ds == 0)) and np.all(ds[dv > 0] > 0))
    return same, int(len(np.unique(v)))


def _checksum(values: Any) -> str:
    import hashlib

    import numpy as np

    a = np.asarray(values, dtype=np.int64)
    # Values on our 1..7462 scale hash like bench.oracles.checksum does.
    raw = a.astype("<u2").tobytes() if a.min() >= 0 and a.max() < 2**16 else a.astype("<i8").tobytes()
    return hashlib.sha256(raw).hexdigest()[:12]


def _machine() -> str:
    from .__main__ import _machine as machine

    return machine()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.peers", description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=_DEFAULT_VENV, help="peers' virtualenv (default: %(default)s)")
    parser.add_argument("--no-install", action="store_true", help="use only peers already in the virtualenv")
    parser.add_argument("--out", type=Path, default=_OUT_MD, help="markdown report (default: %(default)s)")
    args = parser.parse_args(argv)

    py = _venv_python(args.venv)
    if py is None:
        print("bench-peers skipped: no virtualenv for the peers.")
        return 0
    names = [name for name in PEERS if _ensure_peer(py, name, not args.no_install)]
    if not names:
        print("bench-peers skipped: none of eval7, phevaluator, treys could be installed.")
        return 0

    import numpy as np

    from twoplustwo.equity import equity
    from twoplustwo.evaluate import evaluate

    from . import markdown_table
    from .oracles import SEED
    from .summary import single_hands

    hands = single_hands()
    ours = np.array([evaluate(h) for h in hands], dtype=np.uint16)
    _say(f"twoplustwo: evaluate on {len(hands):,} hands")
    our_s = min(timeit.repeat("for h in hands: f(h)", globals={"hands": hands, "f": evaluate}, number=1, repeat=REPEATS))
    _say("twoplustwo: equity loop and equity()")
    loop_s, loop_counts = _ours_loop(BOARDS)
    equity(["As Ah", "Kd Kc"])  # warm-up: the one-off subset blocks
    eq_s = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        aa = equity(["As Ah", "Kd Kc"])[0]
        eq_s = min(eq_s, time.perf_counter() - start)
    eq_counts = (aa.wins, aa.ties, aa.losses)

    rest = [c for c in range(52) if c not in HERO + VILLAIN]
    with tempfile.TemporaryDirectory(prefix="twoplustwo-peers-") as tmp:
        src, dst = Path(tmp) / "in.json", Path(tmp) / "out.json"
        src.write_text(json.dumps({"hands": hands, "rest": rest}))
        _say(f"measuring {', '.join(names)} in {args.venv}")
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        run = subprocess.run([str(py), str(Path(__file__).resolve()), "--worker", str(src), str(dst), *names], env=env)
        if run.returncode != 0 or not dst.exists():
            print(f"bench-peers skipped: the measuring process failed (exit {run.returncode}).")
            return 0
        results = json.loads(dst.read_text())

    n = len(hands)
    call_rows = [["twoplustwo", "`evaluate(cards)`, tuple of 7 ints", f"{n:,}", f"{our_s:.3f}", f"{n / our_s:,.0f}", "-", _checksum(ours), "-"]]
    eq_rows = [
        ["twoplustwo", "`equity(['As Ah', 'Kd Kc'])`", f"{BOARDS:,}", f"{eq_s:.3f}", "measured, best of 5", "{:,} / {:,} / {:,}".format(*eq_counts), "yes", _versus(eq_s, loop_s) + " than the loop below"],
        ["twoplustwo", "loop, `evaluate`", f"{BOARDS:,}", f"{loop_s:.3f}", "measured", "{:,} / {:,} / {:,}".format(*loop_counts), "yes" if loop_counts == eq_counts else "**NO**", "-"],
    ]  # fmt: skip
    summary: list[str] = []
    notes: list[str] = []
    for name in names:
        r = results.get(name, {"error": "no result"})
        if "error" in r:
            notes.append(f"{name} failed while measuring: {r['error']}")
            continue
        label = f"{name} {r['version']}"
        agrees, distinct = _ordered_like(ours, r["values"])
        order = f"{'yes' if agrees else '**NO**'} ({distinct:,} values)"
        best_rate = 0.0
        for route in r["routes"]:
            rate = route["hands"] / route["seconds"]
            best_rate = max(best_rate, rate)
            call_rows.append([label, route["call"], f"{route['hands']:,}", f"{route['seconds']:.3f}", f"{rate:,.0f}", _versus(our_s, route["seconds"]), _checksum(r["values"]), order])  # fmt: skip
        e = r["equity"]
        counts = tuple(e["counts"])
        if e["boards"] == BOARDS:
            how, want = "measured", loop_counts
        else:
            how = f"extrapolated from the first {e['boards']:,} boards ({e['seconds']:.2f} s)"
            want = _ours_loop(e["boards"])[1]
        eq_rows.append([label, f"loop, {e['call']}", f"{e['boards']:,}", f"{e['full_seconds']:.3f}", how, "{:,} / {:,} / {:,}".format(*counts), "yes" if counts == want else "**NO**", _versus(loop_s, e["full_seconds"])])  # fmt: skip
        summary.append(
            f"{label}: {best_rate:,.0f} calls/s against twoplustwo's {n / our_s:,.0f} (twoplustwo "
            f"{_versus(our_s, n / best_rate)}); equity loop {e['full_seconds']:.2f} s"
            f"{' (extrapolated)' if e['boards'] != BOARDS else ''} against twoplustwo's loop "
            f"{loop_s:.2f} s and `equity()` {eq_s:.3f} s; orders hands like twoplustwo: "
            f"{'yes' if agrees else '**NO**'}."
        )
    skipped = [p for p in PEERS if p not in names]
    if skipped:
        notes.append(f"Not installed, so not measured: {', '.join(skipped)}.")
    if "eval7" in names:
        notes.append(
            "eval7's own `py_hand_vs_range_exact` is not used: it returned 1.0 for AsAh vs KdKc "
            "preflop here, so only the plain loop is compared."
        )

    lines = [
        "# Peers",
        "",
        f"{_machine()}; {time.strftime('%Y-%m-%d')}; one-minute load average {os.getloadavg()[0]:.2f} "
        "(other work on the machine makes the figures noisy).",
        "",
        "## Per call",
        "",
        f"{n:,} random 7-card hands (seed {SEED}, the hands of `bench.runtime`'s single-hand "
        f"figures), each library's card objects made beforehand; one call per hand in a `for` "
        f"loop, best of {REPEATS}. \"twoplustwo is\" says how twoplustwo's `evaluate` compares with that row. "
        "\"orders like twoplustwo\": the peer's result (mapped so higher is stronger) is a strictly "
        "increasing function of our value on all these hands; the checksum is of those mapped "
        "results (phevaluator and treys give Cactus Kev ranks, so 7463 - rank is our value and "
        "the checksum is ours).",
        "",
        *markdown_table(["evaluator", "call", "hands", "seconds", "calls/s", "twoplustwo is", "sha256[:12]", "orders like twoplustwo"], call_rows),  # fmt: skip
        "",
        "## Exact heads-up preflop equity, AsAh vs KdKc",
        "",
        f"All {BOARDS:,} boards in a Python loop (`itertools.combinations` of the 48 other cards, "
        f"both hands evaluated per board, compared); loops expected to take over {BUDGET_S:.0f} s "
        f"run on a slice and are extrapolated. Seconds are for all {BOARDS:,} boards; counts are "
        "AsAh's wins / ties / losses on the boards run, checked against twoplustwo's on the same "
        "boards. \"twoplustwo is\" compares twoplustwo's loop with that row's.",
        "",
        *markdown_table(["evaluator", "route", "boards run", "seconds", "how", "wins / ties / losses", "agrees", "twoplustwo is"], eq_rows),  # fmt: skip
        "",
        *[f"- {note}" for note in notes],
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    args.out.write_text(text)
    _OUT_JSON.write_text(json.dumps({"date": time.strftime("%Y-%m-%d"), "summary": summary}, indent=1) + "\n")
    print(f"written to {args.out} and {_OUT_JSON}")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--worker":
        # Run as a script, the bench/ directory leads sys.path; its modules
        # (build, memory, ...) must not shadow anything a peer imports.
        if sys.path and Path(sys.path[0]).resolve() == Path(__file__).resolve().parent:
            sys.path.pop(0)
        sys.exit(_worker_main(sys.argv[2:]))
    sys.exit(main())
