"""``python -m twoplustwo_builder``: build the tables (the default ``make`` target)."""

from __future__ import annotations

import argparse
import signal
import sys
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path
from typing import TypeVar

from twoplustwo.kernels.limits import MAX_GROUND
from twoplustwo.tables.load import default_path
from twoplustwo.tables.optional import bucket_role

from .dag.pipeline import build, tables_present
from .dag.selfcheck import SelfCheckError
from .derived.abstraction import describe_summary

T = TypeVar("T")


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
    p.add_argument(
        "--abstraction",
        action="store_true",
        help="add one bucket table (--street, --method, --k) to the set, after the strength tables if they are missing",
    )
    p.add_argument("--street", choices=("flop", "turn", "river"), help="with --abstraction: the street")
    p.add_argument(
        "--method", help="with --abstraction: emd (flop, turn), potential (flop), ochs (river) or percentile"
    )
    p.add_argument("--k", type=int, help="with --abstraction: the number of buckets")
    p.add_argument("--seed", type=int, default=0, help="with --abstraction: the seed of the first centers (default 0)")
    p.add_argument("--max-iter", type=int, default=100, help="with --abstraction: the most rounds (default 100)")
    p.add_argument("--dask", metavar="ADDRESS", help="with --strength or --abstraction: run on this dask scheduler")
    p.add_argument("--dask-timeout", type=float, default=None, metavar="SECONDS",
                   help="how long to wait for the scheduler, then for its first worker (default 30)")  # fmt: skip
    args = p.parse_args(argv)
    target = args.out or default_path()
    if args.dask is not None and not (args.strength or args.abstraction):
        p.error("--dask runs the strength tables' sweeps or the clustering: give --strength or --abstraction too")
    if args.abstraction:
        if args.street is None or args.method is None or args.k is None:
            p.error("--abstraction needs --street, --method and --k")
        if args.max_iter < 1:
            p.error(f"--max-iter must be at least 1, got {args.max_iter}")
        if args.seed < 0:
            p.error(f"--seed must be at least 0, got {args.seed}")
        try:
            bucket_role(args.street, args.method, args.k)
        except ValueError as e:
            p.error(str(e))
        if args.method == "potential" and args.k > MAX_GROUND:
            p.error(f"potential buckets are over at most {MAX_GROUND:,} turn buckets, got k = {args.k}")
    elif args.street is not None or args.method is not None or args.k is not None:
        p.error("--street, --method and --k go with --abstraction")
    if args.abstraction and tables_present(target):
        return _abstraction(target, args)
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
    if args.abstraction:
        return _abstraction(target, args)
    return _strength(target, args.quiet, args.dask, args.dask_timeout) if args.strength else 0


def _on_executor(dask: str | None, timeout: float | None, work: Callable[[Executor | None], T]) -> T:
    """``work(None)`` here, or ``work(executor)`` on the dask scheduler at ``dask``."""
    if dask is None:
        return work(None)
    from twoplustwo.cluster import dask_client

    with dask_client(dask, timeout) as client:
        return work(client.get_executor())


def _strength(target: Path, quiet: bool, dask: str | None, timeout: float | None) -> int:
    from .derived.strength import publish_strength

    try:
        seconds = _on_executor(dask, timeout, lambda executor: publish_strength(target, quiet=quiet, executor=executor))
    except (OSError, ValueError) as e:
        print(f"strength tables failed: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("strength tables interrupted, the tables left as they were", file=sys.stderr)
        return 130
    if not quiet:
        print(f"strength tables built in {seconds['build']:.1f} s and published to {target}", file=sys.stderr)
    return 0


def _abstraction(target: Path, args: argparse.Namespace) -> int:
    from twoplustwo.tables.load import open_tables

    from .derived.abstraction import publish_buckets

    if not any(r.startswith("strength/") for r in open_tables(target).arrays) or args.strength:
        code = _strength(target, args.quiet, args.dask, args.dask_timeout)
        if code:
            return code
    try:
        summary = _on_executor(args.dask, args.dask_timeout, lambda executor: publish_buckets(
            target, args.street, args.method, args.k, seed=args.seed, max_iter=args.max_iter, quiet=args.quiet,
            executor=executor))  # fmt: skip
    except (OSError, ValueError) as e:
        print(f"bucket table failed: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("bucket table interrupted, the tables left as they were", file=sys.stderr)
        return 130
    if not args.quiet:
        print(describe_summary(summary), file=sys.stderr)
        print(f"published to {target}", file=sys.stderr)
    return 0


# Whether a KeyboardInterrupt was raised for a SIGINT: later ones are ignored.
_raised = False


def _interrupted(signum: int, frame: object) -> None:
    # Once: what follows tidies up (the staging directory), and a second SIGINT must not cut it short; the
    # terminal's and the twoplustwo command's, passed on, may both come.
    global _raised
    if not _raised:
        _raised = True
        raise KeyboardInterrupt


def _unraisable(u: sys.UnraisableHookArgs) -> None:
    # Raised inside a weakref callback or a __del__ (import's module locks have such callbacks), the
    # KeyboardInterrupt is only reported here, and the build goes on: the next SIGINT must raise again
    # (the twoplustwo command sends one every half second until the builder exits).
    global _raised
    if isinstance(u.exc_value, KeyboardInterrupt):
        _raised = False
    else:
        sys.__unraisablehook__(u)


def take_interrupts() -> None:
    """Take SIGINT as :func:`program` says (unless it is ignored), and unblock it."""
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        signal.signal(signal.SIGINT, _interrupted)
        sys.unraisablehook = _unraisable
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def program() -> int:
    """:func:`main` as the program: Ctrl-C at any moment is one line on stderr and exit 130.

    The ``twoplustwo`` command starts this program with SIGINT blocked, so
    that a Ctrl-C while it imports waits, pending, until here; a program
    started with SIGINT ignored (in the background) keeps it ignored. One
    SIGINT stops it; those that follow while it tidies up are ignored.
    """
    try:
        take_interrupts()
        return main()
    except KeyboardInterrupt:
        print("interrupted, the tables left as they were", file=sys.stderr)
        return 130
    finally:
        # Python's exit puts back the default SIGINT action, which would kill this process with no word
        # after it has said what it left: the twoplustwo command passes on a SIGINT every half second
        # until the builder exits, and on a loaded machine one lands during the exit.
        if signal.getsignal(signal.SIGINT) is _interrupted:
            signal.signal(signal.SIGINT, signal.SIG_IGN)


if __name__ == "__main__":
    sys.exit(program())
