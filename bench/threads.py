"""``python -m bench.threads``: what a second thread adds to the compiled engines' figures.

The inputs are those of ``../shared/compiled-peers/run.py`` (10 M random 7-card hands, exact range
against range before the flop and on a flop, Monte Carlo AsAh against a random hand), run by
twoplustwo on one thread and on two, in alternating rounds so that a busy moment of the machine hits
both alike; each figure keeps the fastest round and checks that both give the same answer. Printed
as JSON on stdout; ``bench.peers`` runs it and the report shows the ratios beside the engines'.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import twoplustwo

from . import say
from .memory import random_hands

N_HANDS = 10_000_000
ROUNDS = 5
MC_GAMES = 2_000_000


def _best(calls: dict[int, Callable[[], Any]]) -> tuple[dict[int, float], dict[int, Any]]:
    """Fastest seconds and last answer of each call, in alternating rounds after an untimed warm-up."""
    best = {t: float("inf") for t in calls}
    answers = {t: f() for t, f in calls.items()}
    for _ in range(ROUNDS):
        for t, f in calls.items():
            start = time.perf_counter()
            answers[t] = f()
            best[t] = min(best[t], time.perf_counter() - start)
    return best, answers


def _equities(results: Any) -> list[float]:
    return [float(p.equity) for p in results]


def measure() -> list[dict[str, Any]]:
    """Each figure's fastest seconds on 1 and 2 threads, their ratio and whether the answers agree."""
    figures = []
    say("threads: 10 M random 7-card hands")
    hands = random_hands(N_HANDS)
    best, answers = _best({t: lambda t=t: twoplustwo.evaluate_batch(hands, threads=t) for t in (1, 2)})
    figures.append({"figure": "rand7", "work": N_HANDS, "seconds": best,
                    "agree": bool(np.array_equal(answers[1], answers[2]))})
    for name, board in (("eq_rr_pre", ""), ("eq_rr_flop", "Qh 7c 2d")):
        say(f"threads: {name}")
        best, answers = _best({t: lambda t=t, board=board: twoplustwo.equity(["QQ+,AKs", "AK"], board=board,
                                                                            method="exact", threads=t)
                               for t in (1, 2)})
        figures.append({"figure": name, "work": 1, "seconds": best,
                        "agree": _equities(answers[1]) == _equities(answers[2])})
    say("threads: Monte Carlo")
    best, answers = _best({t: lambda t=t: twoplustwo.equity(["As Ah", "random"], method="monte-carlo",
                                                            samples=MC_GAMES, seed=1, threads=t) for t in (1, 2)})
    # The same seed gives the same games on any number of threads.
    figures.append({"figure": "mc", "work": MC_GAMES, "seconds": best,
                    "agree": _equities(answers[1]) == _equities(answers[2])})
    for f in figures:
        seconds: dict[int, float] = f["seconds"]
        f["seconds"] = {str(t): s for t, s in seconds.items()}
        f["speedup"] = seconds[1] / seconds[2]
    return figures


if __name__ == "__main__":
    print(json.dumps(measure()))
    sys.exit(0)
