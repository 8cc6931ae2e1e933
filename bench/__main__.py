"""``python -m bench [section ...]``: measure into ``bench/results.json``, then render it (:mod:`bench.render`).

Named sections replace just their part of an existing ``results.json``; progress goes to stderr.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable
from typing import Any

from . import RESULTS, abstraction, board, build, handranks, machine, memory, poker_ai, preflop, render, say, speed

SECTIONS: dict[str, Callable[[], dict[str, Any]]] = {
    "build": build.run,
    "oracles": speed.oracles,
    "runtime": speed.runtime,
    "exhaustive": speed.exhaustive,
    "memory": memory.run,
    "handranks": handranks.run,
    "preflop": preflop.run,
    "poker_ai": poker_ai.run,
    "board": board.run,
    "abstraction": abstraction.run,
}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", metavar="section", help=f"any of {', '.join(SECTIONS)} (default: all)")
    names = parser.parse_args(argv).sections or list(SECTIONS)
    if unknown := set(names) - set(SECTIONS):
        parser.error(f"unknown section(s): {', '.join(sorted(unknown))}")
    results = json.loads(RESULTS.read_text()) if names != list(SECTIONS) and RESULTS.is_file() else {}
    results["machine"] = machine()
    start_all = time.perf_counter()
    for name in names:
        start = time.perf_counter()
        results[name] = SECTIONS[name]() | {"section_s": time.perf_counter() - start}
        say(f"{name}: {time.perf_counter() - start:.0f} s")
    results["load_average_end"] = os.getloadavg()[0]
    results["run_s"] = time.perf_counter() - start_all
    RESULTS.write_text(json.dumps(results, indent=1) + "\n")
    return render.main()


if __name__ == "__main__":
    sys.exit(main())
