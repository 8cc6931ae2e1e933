"""``python -m twoplustwo_builder``: build the tables (the default ``make`` target)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from twoplustwo.tables.load import default_path

from .pipeline import build, tables_present
from .selfcheck import SelfCheckError


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m twoplustwo_builder", description="Build the twoplustwo tables.")
    p.add_argument("--out", type=Path, default=None, help="target directory (default: where the runtime reads tables)")
    p.add_argument("--quiet", action="store_true", help="no progress bars or summary")
    p.add_argument("--no-check", action="store_true", help="skip the self-check against the oracles")
    p.add_argument("--if-missing", action="store_true", help="do nothing when loadable tables exist")
    p.add_argument(
        "--strength",
        action="store_true",
        help="add the strength tables to the set (about a minute and 800 MB; the set is built first if missing)",
    )
    p.add_argument("--dask", metavar="ADDRESS", help="with --strength: run the sweeps on this dask scheduler")
    p.add_argument("--dask-timeout", type=float, default=None, metavar="SECONDS",
                   help="how long to wait for the scheduler, then for its first worker (default 30)")  # fmt: skip
    args = p.parse_args(argv)
    target = args.out or default_path()
    if args.dask is not None and not args.strength:
        p.error("--dask runs the strength tables' sweeps: give --strength too")
    if args.strength and tables_present(target):
        return _strength(target, args.quiet, args.dask, args.dask_timeout)
    if args.if_missing and tables_present(target):
        if not args.quiet:
            print(f"tables present at {target}", file=sys.stderr)
        return 0
    try:
        report = build(target, quiet=args.quiet, check=not args.no_check)
    except SelfCheckError as e:
        print(f"build failed its self-check, nothing published: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"build failed: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("build interrupted, previous tables left as they were", file=sys.stderr)
        return 130
    if not args.quiet:
        print(report.summary(), file=sys.stderr)
        print(f"tables written to {target}", file=sys.stderr)
    return _strength(target, args.quiet, args.dask, args.dask_timeout) if args.strength else 0


def _strength(target: Path, quiet: bool, dask: str | None, timeout: float | None) -> int:
    from .strength import publish_strength

    try:
        if dask is None:
            seconds = publish_strength(target, quiet=quiet)
        else:
            from twoplustwo.cli.cluster import dask_client

            with dask_client(dask, timeout) as client:
                seconds = publish_strength(target, quiet=quiet, executor=client.get_executor())
    except (OSError, ValueError) as e:
        print(f"strength tables failed: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("strength tables interrupted, the tables left as they were", file=sys.stderr)
        return 130
    if not quiet:
        print(f"strength tables built in {seconds['build']:.1f} s and published to {target}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
