"""``python -m bench [section ...]``: run benchmark sections, print and save them.

Without arguments every section in :data:`SECTIONS` runs, in order, and
the ``summary`` last: one table of the key figures, each next to the best
oracle, which is written at the top of the report. The report goes to
stdout and to ``bench/results.md`` (``--out`` to change), headed by the
machine it ran on.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from . import Section, build, exhaustive, memory, oracles, runtime, summary

__all__ = ["SECTIONS", "main"]

#: Benchmark sections by name, in report order.
SECTIONS: dict[str, Section] = {
    "build": build.section,
    "oracles": oracles.run,
    "runtime": runtime.section,
    "exhaustive": exhaustive.section,
    "memory": memory.section,
    # Reads the figures the sections above returned, so it must stay last.
    "summary": summary.section,
}

_DEFAULT_OUT = Path(__file__).with_name("results.md")


def _cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == "model name":
                    return value.strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def _load_average() -> str:
    try:
        return f"{os.getloadavg()[0]:.2f}"
    except OSError:
        return "unknown"


def _machine() -> str:
    """CPU, cores, Python and numpy: the line that says where the figures come from."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return (
        f"{_cpu_model()}, {os.cpu_count()} cores ({usable} usable), {platform.machine()} "
        f"{platform.system()}; Python {platform.python_version()}, numpy {np.__version__}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument(
        "sections", nargs="*", metavar="section", help=f"any of {', '.join(SECTIONS)} (default all)"
    )
    parser.add_argument("--out", type=Path, default=_DEFAULT_OUT, help="markdown report path")
    args = parser.parse_args(argv)
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s): {', '.join(unknown)}")
    names = args.sections or list(SECTIONS)

    # The summary reads the other sections' figures, so it runs after them
    # whatever order they were named in.
    names = [n for n in names if n != "summary"] + (["summary"] if "summary" in names else [])

    load_before = _load_average()
    start_all = time.perf_counter()
    bodies: dict[str, list[str]] = {}
    for name in names:
        start = time.perf_counter()
        section = SECTIONS[name]()
        summary.record(name, section)
        bodies[name] = section + ["", f"_Section `{name}` took {time.perf_counter() - start:.1f} s._", ""]
        print("\n".join(section), end="\n\n", flush=True)

    lines = [
        "# Benchmarks",
        "",
        f"{_machine()}; {time.strftime('%Y-%m-%d')}.",
        "",
        f"One-minute load average {load_before} at the start and {_load_average()} at the end "
        f"of this {time.perf_counter() - start_all:.0f} s run; other work on the machine makes "
        "the figures noisy, the more so the higher the load.",
        "",
    ]
    # The summary is the headline, so it comes first in the file.
    for name in sorted(names, key=lambda n: n != "summary"):
        lines += bodies[name]
    args.out.write_text("\n".join(lines))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
