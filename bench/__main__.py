"""``python -m bench [section ...]``: run benchmark sections, print and save them.

Without arguments every section in :data:`SECTIONS` runs, in order. The
report goes to stdout and to ``bench/results.md`` (``--out`` to change).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import numpy as np

from . import Section, oracles, runtime

__all__ = ["SECTIONS", "main"]

#: Benchmark sections by name, in report order.
SECTIONS: dict[str, Section] = {
    "oracles": oracles.run,
    "runtime": runtime.section,
}

_DEFAULT_OUT = Path(__file__).with_name("results.md")


def _machine() -> str:
    return (
        f"Python {platform.python_version()}, numpy {np.__version__}, "
        f"{platform.machine()}, {os.cpu_count()} CPUs, {platform.system()}"
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

    lines = ["# Benchmarks", "", _machine() + ", " + time.strftime("%Y-%m-%d") + ".", ""]
    for name in names:
        start = time.perf_counter()
        section = SECTIONS[name]()
        lines += section + ["", f"_Section `{name}` took {time.perf_counter() - start:.1f} s._", ""]
        print("\n".join(section), end="\n\n", flush=True)
    args.out.write_text("\n".join(lines))
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
