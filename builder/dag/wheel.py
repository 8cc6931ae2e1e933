"""``python -m twoplustwo_builder.dag.wheel --tables DIR --out DIR``: the table bundle a wheel of the runtime carries.

The runtime's wheel build runs this (``wheel_tables.py`` at the top of the
source tree, from setuptools' ``build_py``), with this builder imported from
the same source tree. The tables at ``--tables`` (the tree's ``tables/``) are
bundled when they are a whole set this version loads and every byte matches
its manifest's hash (a checkout after ``make``); else, as in
an sdist or a fresh clone, a new set is built and checked in a scratch
directory (about 30 s of one core) and that is bundled. ``--tables`` is only
read, and the scratch directory is removed: nothing is written but the
bundle in ``--out``. A failed build or bundle exits non-zero, and the wheel
build with it: a wheel without its tables would fail at its first use.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

from .bundle import BundleReport, write_bundle
from .pipeline import build, tables_present
from .selfcheck import SelfCheckError

__all__ = ["main", "wheel_bundle"]


def wheel_bundle(tables: str | Path, out: str | Path, *, quiet: bool = False) -> BundleReport:
    """Bundle the set at ``tables`` into ``out`` if it is whole and sound, else build a new set and bundle that.

    ``quiet`` silences the notes on stderr (which set is bundled); the build
    draws no bars either way (a wheel build's log is no terminal). Example,
    with a checkout's tables (they are bundled as they are, no build)::

        wheel_bundle("tables", "build/lib/twoplustwo/tables/bundled")
    """
    if tables_present(tables):
        try:
            # write_bundle hashes every file first: a damaged set is never bundled.
            report = write_bundle(tables, out)
        except (OSError, ValueError) as e:
            _note(quiet, f"the tables at {tables} cannot be bundled ({e}); building a new set")
        else:
            _note(quiet, f"bundled the tables at {tables}: {report.summary()}")
            return report
    else:
        _note(quiet, f"no whole table set at {tables}: building a new set (about 30 s)")
    with tempfile.TemporaryDirectory(prefix="twoplustwo-wheel-tables-") as scratch:
        built = Path(scratch) / "tables"
        build(built, quiet=True, check=True)
        report = write_bundle(built, out)
    _note(quiet, f"bundled a new set: {report.summary()}")
    return report


def _note(quiet: bool, text: str) -> None:
    if not quiet:
        print(f"twoplustwo_builder.dag.wheel: {text}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m twoplustwo_builder.dag.wheel",
        description="Write the table bundle a wheel of the runtime carries: the given tables if whole, else new ones.",
    )
    p.add_argument("--tables", type=Path, required=True, help="the tables to bundle if whole (only read)")
    p.add_argument("--out", type=Path, required=True, help="the directory the bundle is written to")
    p.add_argument("--quiet", action="store_true", help="no notes on stderr")
    args = p.parse_args(argv)
    try:
        wheel_bundle(args.tables, args.out, quiet=args.quiet)
    except (SelfCheckError, OSError, ValueError, ImportError) as e:
        print(f"twoplustwo_builder.dag.wheel: no table bundle: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("twoplustwo_builder.dag.wheel: interrupted, no table bundle", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
