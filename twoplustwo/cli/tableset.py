"""``info``, ``warm``, ``verify``, ``build``, ``install-tables`` and ``export-handranks``: the table set."""

from __future__ import annotations

import argparse
import importlib.util
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from twoplustwo import __version__
from twoplustwo.cli.output import aligned, is_stdout, stdout_fd
from twoplustwo.kernels.choice import ENV_VAR as BACKEND_VAR
from twoplustwo.kernels.choice import LOOP_VAR, backend
from twoplustwo.tables.format import FORMAT_VERSION, MANIFEST, TableError, role_dag, strength_served
from twoplustwo.tables.optional import STRENGTH_ROLES, STRENGTH_STREETS, parse_bucket_role, strength_gap
from twoplustwo.vocab.values import differs_from_published

__all__ = [
    "cmd_abstraction",
    "cmd_build",
    "cmd_export_handranks",
    "cmd_info",
    "cmd_install_tables",
    "cmd_verify",
    "cmd_warm",
]


def cmd_info(args: argparse.Namespace) -> int:
    from twoplustwo.kernels.choice import extension
    from twoplustwo.tables.default import load_tables
    from twoplustwo.tables.system import ENV_VAR as PORTABLE_VAR
    from twoplustwo.tables.system import PORTABLE, describe

    t0 = time.perf_counter()
    t = load_tables()  # the default set, installed from the package's bundle on first use
    ms = (time.perf_counter() - t0) * 1e3
    m = t.manifest
    print(f"{'tables':<15} {t.path.resolve()}")
    version = m["format_version"]
    print(f"{'format version':<15} {version} (twoplustwo {__version__} reads {FORMAT_VERSION})")
    builder = m.get("builder")
    if isinstance(builder, dict) and "version" in builder:
        print(f"{'builder':<15} version {builder['version']}")
    print(f"{'load time':<15} {ms:.1f} ms (memory-mapped; manifest, headers and sizes checked)")
    core = extension()
    built = "built" if core is not None else "not built (no C compiler at install)"
    print(f"{'backend':<15} {backend()} (the C extension was {built}; ${BACKEND_VAR}: c or numpy)")
    if core is not None:
        loops = ", ".join(core.BATCH_LOOPS)
        print(f"{'batch loop':<15} {core.VECTOR_BATCHES} (the C core's checked batches of whole hands; "
              f"${LOOP_VAR}: one of {loops}, which this processor has)")
    paths = "; ".join(f"{job}: {how}" for job, how in describe().items())
    forced = f"forced by ${PORTABLE_VAR}=1" if PORTABLE else f"${PORTABLE_VAR}=1 forces the portable ones"
    print(f"{'system':<15} {paths} ({forced})")
    # The DAGs the set has files for, hold'em's first: those are the node
    # counts the loader checked (other keys of nodes may hold anything).
    dag_bytes: dict[str, int] = {}
    strength_bytes: dict[str, int] = {}
    buckets: list[str] = []
    for f in m["files"]:
        if f["role"] in STRENGTH_ROLES:
            street = f["role"].split("/")[1]
            strength_bytes[street] = strength_bytes.get(street, 0) + f["nbytes"]
            continue
        if parse_bucket_role(f["role"]) is not None:
            buckets.append(f["role"].removeprefix("buckets/"))
            continue
        dag = role_dag(f["role"])
        assert dag is not None  # the loader keeps the roles it knows, and only those
        dag_bytes[dag] = dag_bytes.get(dag, 0) + f["nbytes"]
    # A street listing only part of what it needs is refused by strength(): say so here, in the same words.
    roles = {f["role"] for f in m["files"]}
    present = ", ".join(
        f"{street} ({n / 2**20:,.0f} MiB" + ("" if gap is None else f"; refused: {gap}") + ")"
        for street, n in sorted(strength_bytes.items())
        for gap in [strength_gap(roles, street)]
    )
    print(f"{'strength':<15} {present or 'none (python -m twoplustwo_builder --strength, or make strength)'}")
    print(f"{'buckets':<15} {', '.join(sorted(buckets)) or 'none (twoplustwo abstraction)'}")
    print("nodes per depth:")
    rows = [["  dag", "nodes at depth 0..", "total", "bytes"]]
    for dag in sorted(dag_bytes, key=lambda d: ("/" in d, d)):
        counts = t.nodes[dag]
        rows.append(["  " + dag, " ".join(str(n) for n in counts), f"{sum(counts):,}", f"{dag_bytes[dag]:,}"])
    for line in aligned(rows, {2, 3}):
        print(line)
    print("files:")
    rows = [["  role", "dtype", "shape", "bytes", "name"]]
    for f in sorted(m["files"], key=lambda f: f["role"]):
        rows.append(["  " + f["role"], f["dtype"], str(f["shape"]), f"{f['nbytes']:,}", f["name"]])
    for line in aligned(rows, {3}):
        print(line)
    print(f"{'total bytes':<15} {t.nbytes:,} ({t.nbytes / 2**20:.1f} MiB)")
    from twoplustwo.tables.pages import all_huge, huge_page_bytes

    report = huge_page_bytes(t)
    if report is not None:
        hint = "" if all_huge(report) else "; `twoplustwo warm` re-reads them"
        print(f"{'huge pages':<15} {huge_summary(report)}{hint}")
    return 0


def huge_summary(report: dict[str, tuple[int, int]]) -> str:
    huge = sum(h for h, _ in report.values())
    size = sum(n for _, n in report.values())
    files = f"the {len(report)} files of 2 MiB or more"
    return f"{huge / 2**20:.1f} of {size / 2**20:.1f} MiB of {files} mapped with 2 MiB pages"


def cmd_warm(args: argparse.Namespace) -> int:
    from twoplustwo.tables.default import load_tables
    from twoplustwo.tables.pages import all_huge, huge_page_bytes, warm

    t = load_tables()
    root = t.path
    before = huge_page_bytes(t)
    del t  # its mappings would keep the pages as they are
    t0 = time.perf_counter()
    after = warm(root)
    ms = (time.perf_counter() - t0) * 1e3
    if before is None or after is None:
        print(f"ok {root.resolve()}: re-read ({ms:.0f} ms); this system does not say how pages are mapped")
        return 0
    print(f"ok {root.resolve()}: re-read in {ms:.0f} ms")
    print(f"{'before':<7} {huge_summary(before)}")
    print(f"{'after':<7} {huge_summary(after)}")
    if not all_huge(after):
        print(
            "some pages stayed small: another process maps them, or the system makes no 2 MiB pages "
            "for files (Linux does on file systems with large folios, such as ext4 and xfs)"
        )
    return 0


def cmd_verify(args: argparse.Namespace) -> int:
    from twoplustwo.hands.value_counts import histogram
    from twoplustwo.tables.default import load_tables

    t0 = time.perf_counter()
    t = load_tables(verify=True)
    checked = [f"{len(t.manifest['files'])} files match their sha256"]
    # The strength tables' rule, as strength() applies it: a street listing only part of what it needs fails here.
    roles = {f["role"] for f in t.manifest["files"]}
    served = [street for street in STRENGTH_STREETS if strength_served(roles, street, t.path / MANIFEST)]
    if served:
        checked.append(f"strength tables of the {', '.join(served)} whole")
    # Hashes only prove the files are the ones the manifest lists; the
    # histograms prove the manifest's tables actually rank hands right.
    for n in args.sizes:
        problem = differs_from_published(n, histogram(n, tables=t))
        if problem:
            raise TableError(f"{t.path}: {problem}")
        checked.append(f"{n}-card category counts")
    ms = (time.perf_counter() - t0) * 1e3
    print(f"ok {t.path.resolve()}: " + ", ".join(checked) + f" ({ms:.0f} ms)")
    return 0


def _builder() -> list[str]:
    # The builder is another distribution: run it as its own program, so the
    # runtime never imports it.
    if importlib.util.find_spec("twoplustwo_builder") is None:
        raise ImportError(
            "building tables needs the twoplustwo-builder package "
            "(pip install ./builder from a checkout, or use `make`)"
        )
    return [sys.executable, "-m", "twoplustwo_builder"]


def _run_builder(argv: list[str]) -> int:
    """Run the builder's program; its exit code. On Ctrl-C it says in one line what it left, and 130 is returned."""
    block = hasattr(signal, "pthread_sigmask")
    child = None
    try:
        # Blocked in the child from its start, until its main can report an interrupt in one line (its
        # program): a Ctrl-C while it imports then waits, pending, instead of printing a traceback.
        old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if block else set()
        try:
            child = subprocess.Popen(argv)
        finally:
            if block:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)
        return child.wait()
    except KeyboardInterrupt:
        if child is None:
            raise
        # Passed on in case it came here alone, and again every half second while the builder runs, in
        # case its KeyboardInterrupt was lost (raised inside a weakref callback, it is only reported). The
        # builder takes one SIGINT and ignores the rest while it tidies up and says so; a further Ctrl-C
        # here only passes on one more, for it would orphan the builder to leave now.
        while True:
            try:
                child.send_signal(signal.SIGINT)
                if child.wait(timeout=0.5) == 130:
                    return 130
                break
            except (subprocess.TimeoutExpired, KeyboardInterrupt):
                continue
        raise


def _check_out(out: Path | None) -> None:
    """Refuse an ``--out`` that is, or would be made inside, something other than a directory."""
    if out is None:
        return
    at = out
    while not os.path.lexists(at) and at.parent != at:
        at = at.parent
    if not at.is_dir():
        raise ValueError(f"--out {out}: {at} is not a directory")


def _check_abstraction(args: argparse.Namespace) -> None:
    """Refuse in one line, before the builder starts, what it would refuse or fail on for its arguments alone."""
    from twoplustwo.cluster import check_dask
    from twoplustwo.kernels.limits import MAX_GROUND
    from twoplustwo.tables.optional import bucket_role

    try:
        bucket_role(args.street, args.method, args.k)
    except ValueError as e:
        raise ValueError(f"--{e}") from None  # its words start with the argument's name
    if args.method == "potential" and args.k > MAX_GROUND:
        raise ValueError(f"--k of potential buckets is at most {MAX_GROUND} (they are over as many turn buckets), "
                         f"got {args.k}")
    if args.seed < 0:
        raise ValueError(f"--seed must be at least 0, got {args.seed}")
    if args.max_iter < 1:
        raise ValueError(f"--max-iter must be at least 1, got {args.max_iter}")
    check_dask(args.dask, args.dask_timeout)
    _check_out(args.out)


def cmd_abstraction(args: argparse.Namespace) -> int:
    _check_abstraction(args)
    argv = _builder() + ["--abstraction", "--street", args.street, "--method", args.method, "--k", str(args.k)]
    argv += ["--seed", str(args.seed), "--max-iter", str(args.max_iter)]
    if args.out is not None:
        argv += ["--out", str(args.out)]
    if args.dask is not None:
        argv += ["--dask", args.dask, "--dask-timeout", str(args.dask_timeout)]
    if args.quiet:
        argv.append("--quiet")
    return _run_builder(argv)


def cmd_build(args: argparse.Namespace) -> int:
    _check_out(args.out)
    argv = _builder()
    if args.out is not None:
        argv += ["--out", str(args.out)]
    for flag in ("quiet", "no_check", "if_missing"):
        if getattr(args, flag):
            argv.append("--" + flag.replace("_", "-"))
    return _run_builder(argv)


def cmd_install_tables(args: argparse.Namespace) -> int:
    from twoplustwo.tables.bundle import install_bundle

    path = install_bundle(args.bundle, to=args.to, quiet=args.quiet)
    print(f"tables installed to {path}")
    return 0


def cmd_export_handranks(args: argparse.Namespace) -> int:
    from twoplustwo.hands.handranks import write_handranks
    from twoplustwo.tables.atomic import check_target

    start = time.perf_counter()
    target = stdout_fd() if is_stdout(args.out) else check_target(args.out, "HandRanks.dat")
    size = write_handranks(target, None, args.quiet)
    if not args.quiet:
        # Beside the bytes on standard output, the summary goes to stderr.
        where, to = ("standard output", sys.stderr) if isinstance(target, int) else (target, sys.stdout)
        print(f"wrote {where} ({size:,} bytes) in {time.perf_counter() - start:.1f} s", file=to)
    return 0
