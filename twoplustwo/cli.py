"""The ``twoplustwo`` command (also ``python -m twoplustwo``).

Subcommands:

- ``eval CARDS...``: value, category, code, description and best five cards
  of one hand of 5 to 7 cards (``--json`` for machine-readable output,
  ``--game`` for short deck);
- ``info``: where the tables are, their format version, files, node counts
  and bytes of each DAG (other games' too), size, load time, and how much
  of the large files is mapped with 2 MiB pages;
- ``warm``: re-read the large table files into the page cache, so that they
  are mapped with 2 MiB pages (:func:`twoplustwo.tables.pages.warm`);
- ``verify``: hash every table file and spot-check the value histograms;
- ``build``: build the tables (delegates to ``python -m twoplustwo_builder``);
- ``enumerate``: exact category counts and probabilities over all hands
  (of hold'em, or of short deck with ``--game``);
- ``equity``: equities of hands and ranges, exact or Monte Carlo (``--mc``,
  ``--stderr``, ``--samples``, ``--seed``);
- ``range``: the combos of a range and its canonical notation;
- ``preflop``: exact preflop equity of the 169 starting hands against a
  random hand (``--grid``: against each other; ``--csv``, ``--png``,
  ``--dask ADDRESS`` for a cluster);
- ``install-tables``: install a prebuilt table bundle;
- ``export-handranks OUT``: write the tables as a classic 2+2 ``HandRanks.dat``.

An output file (``--csv``, ``--png``, ``OUT``) of ``-`` is standard output;
other paths are written as :mod:`twoplustwo.tables.atomic` says.

Tables are found as :func:`twoplustwo.tables.load.default_path` says
(``$TWOPLUSTWO_TABLES`` first). Bad input prints one line,
``twoplustwo: error: <message>``, on stderr and exits with 2; missing or
damaged tables exit with 1.

>>> main(["eval", "As Ks Qs Js Ts 2c 3d"])
hand         As Ks Qs Js Ts 2c 3d
value        7462
category     straight_flush
code         0x8cba98
description  Royal flush
best five    As Ks Qs Js Ts
0
>>> main(["eval", "--game", "short-deck", "Ac 6d 7h 8s 9c 9d 9h"])
hand         Ac 6d 7h 8s 9c 9d 9h
game         short-deck
value        990
category     three_of_a_kind
code         0x4777c6
description  Three of a kind, nines, ace and eight kickers
best five    Ac 8s 9c 9d 9h
0
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from decimal import ROUND_HALF_EVEN, Context, Decimal
from pathlib import Path
from typing import Any, NoReturn

from twoplustwo import __version__
from twoplustwo.kernels.choice import ENV_VAR as BACKEND_VAR
from twoplustwo.kernels.choice import backend
from twoplustwo.tables.format import FORMAT_VERSION, TableError, role_dag
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_words
from twoplustwo.vocab.games import GAMES, HOLDEM
from twoplustwo.vocab.values import CATEGORIES, category_counts, describe, differs_from_published

__all__ = ["main"]

#: The games ``equity`` plays (twoplustwo.odds.calculate.EQUITY_GAMES, which would
#: import numpy here).
EQUITY_GAMES = (*GAMES, "omaha", "omaha-hilo")

PROG = "twoplustwo"

#: Exit codes: bad input or usage, and tables that are missing or damaged.
EXIT_USAGE = 2
EXIT_TABLES = 1

#: Seconds ``preflop --dask`` waits for the scheduler to answer, and then for a worker.
DASK_TIMEOUT = 30.0


class _UsageError(Exception):
    """A command line argparse rejected; reported in one line, not with usage."""


class _Parser(argparse.ArgumentParser):
    # argparse prints the usage and exits from inside parse_args; raising
    # instead lets main() report every error the same way and return a code.
    def error(self, message: str) -> NoReturn:
        # argparse quotes a bad value whole: a 5,000-digit --samples would
        # make a 5 KB line, so a long one keeps its first 40 characters.
        raise _UsageError(re.sub(r"'([^']{40})[^']{4,}'", r"'\1...'", message))


# ---------------------------------------------------------------- helpers


def _card_list(values: list[str] | None) -> list[int]:
    # Options such as --dead may be repeated or hold several cards each.
    return parse_words(values) if values else []


def _table(rows: list[list[str]], right: set[int]) -> list[str]:
    """Align columns; columns listed in ``right`` are right-aligned (numbers)."""
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    out = []
    for r in rows:
        cells = [c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


def _probability(count: int, total: int) -> str:
    # Exact rational turned into a fixed 12-place decimal, so tiny
    # probabilities such as a straight flush still show 8-9 significant digits.
    if total == 0:
        return "-"
    q = Context(prec=60).divide(Decimal(count), Decimal(total))
    return f"{q.quantize(Decimal('1e-12'), rounding=ROUND_HALF_EVEN):f}"


def _category_counts(hist: Any, game: str) -> dict[str, int]:
    """Hands per category, strongest first, from a value histogram of ``game``."""
    if game == HOLDEM:
        counts = category_counts(hist)
        return {CATEGORIES[c]: counts[c] for c in range(8, -1, -1)}
    from twoplustwo.vocab.games import resolve

    # Names as hold'em's are printed: "full_house".
    ranges = resolve(game).categories
    return {name.replace(" ", "_"): int(hist[first : last + 1].sum()) for name, first, last in reversed(ranges)}


# ------------------------------------------------------------- subcommands


def _cmd_eval(args: argparse.Namespace) -> int:
    from twoplustwo.hands.batch import best_five, evaluate

    cards = parse_words(args.cards)
    if not 5 <= len(cards) <= 7:
        raise ValueError(f"a hand has 5, 6 or 7 cards, got {len(cards)}")
    game = args.game
    value = evaluate(cards, game=game)
    d = describe(value, game=game)
    five = best_five(cards, game=game)
    if args.json:
        doc = {
            "cards": format_cards(cards).split(),
            "value": d.value,
            "category": str(d.category),
            "code": f"0x{d.code:06x}",
            "description": d.description,
            "best_five": format_cards(five).split(),
            "game": game,
            "cactus_kev_rank": d.cactus_kev_rank,
        }
        print(json.dumps(doc))
        return 0
    # Hold'em's lines stay as they always were; another game says which it is.
    game_line = [] if game == HOLDEM else [("game", game)]
    for label, text in [
        ("hand", format_cards(cards)),
        *game_line,
        ("value", str(d.value)),
        ("category", str(d.category)),
        ("code", f"0x{d.code:06x}"),
        ("description", d.description),
        ("best five", format_cards(five)),
    ]:
        print(f"{label:<12} {text}")
    return 0


def _cmd_info(args: argparse.Namespace) -> int:
    from twoplustwo.tables.load import default_path, load_tables

    root = default_path()
    t0 = time.perf_counter()
    t = load_tables(root)
    ms = (time.perf_counter() - t0) * 1e3
    m = t.manifest
    print(f"{'tables':<15} {t.path.resolve()}")
    version = m["format_version"]
    print(f"{'format version':<15} {version} (twoplustwo {__version__} reads {FORMAT_VERSION})")
    builder = m.get("builder")
    if isinstance(builder, dict) and "version" in builder:
        print(f"{'builder':<15} version {builder['version']}")
    print(f"{'load time':<15} {ms:.1f} ms (memory-mapped; manifest, headers and sizes checked)")
    print(f"{'backend':<15} {backend()} (${BACKEND_VAR}: c or numpy)")
    # The DAGs the set has files for, hold'em's first: those are the node
    # counts the loader checked (other keys of nodes may hold anything).
    dag_bytes: dict[str, int] = {}
    for f in m["files"]:
        dag = role_dag(f["role"])
        assert dag is not None  # the loader keeps the roles it knows, and only those
        dag_bytes[dag] = dag_bytes.get(dag, 0) + f["nbytes"]
    print("nodes per depth:")
    rows = [["  dag", "nodes at depth 0..", "total", "bytes"]]
    for dag in sorted(dag_bytes, key=lambda d: ("/" in d, d)):
        counts = t.nodes[dag]
        rows.append(["  " + dag, " ".join(str(n) for n in counts), f"{sum(counts):,}", f"{dag_bytes[dag]:,}"])
    for line in _table(rows, {2, 3}):
        print(line)
    print("files:")
    rows = [["  role", "dtype", "shape", "bytes", "name"]]
    for f in sorted(m["files"], key=lambda f: f["role"]):
        rows.append(["  " + f["role"], f["dtype"], str(f["shape"]), f"{f['nbytes']:,}", f["name"]])
    for line in _table(rows, {3}):
        print(line)
    print(f"{'total bytes':<15} {t.nbytes:,} ({t.nbytes / 2**20:.1f} MiB)")
    from twoplustwo.tables.pages import all_huge, huge_page_bytes

    report = huge_page_bytes(t)
    if report is not None:
        hint = "" if all_huge(report) else "; `twoplustwo warm` re-reads them"
        print(f"{'huge pages':<15} {_huge_summary(report)}{hint}")
    return 0


def _huge_summary(report: dict[str, tuple[int, int]]) -> str:
    huge = sum(h for h, _ in report.values())
    size = sum(n for _, n in report.values())
    files = f"the {len(report)} files of 2 MiB or more"
    return f"{huge / 2**20:.1f} of {size / 2**20:.1f} MiB of {files} mapped with 2 MiB pages"


def _cmd_warm(args: argparse.Namespace) -> int:
    from twoplustwo.tables.load import default_path, load_tables
    from twoplustwo.tables.pages import all_huge, huge_page_bytes, warm

    root = default_path()
    t = load_tables(root)
    before = huge_page_bytes(t)
    del t  # its mappings would keep the pages as they are
    t0 = time.perf_counter()
    after = warm(root)
    ms = (time.perf_counter() - t0) * 1e3
    if before is None or after is None:
        print(f"ok {root.resolve()}: re-read ({ms:.0f} ms); this system does not say how pages are mapped")
        return 0
    print(f"ok {root.resolve()}: re-read in {ms:.0f} ms")
    print(f"{'before':<7} {_huge_summary(before)}")
    print(f"{'after':<7} {_huge_summary(after)}")
    if not all_huge(after):
        print(
            "some pages stayed small: another process maps them, or the system makes no 2 MiB pages "
            "for files (Linux does on file systems with large folios, such as ext4 and xfs)"
        )
    return 0


def _cmd_verify(args: argparse.Namespace) -> int:
    from twoplustwo.hands.histograms import histogram
    from twoplustwo.tables.load import default_path, load_tables

    t0 = time.perf_counter()
    t = load_tables(default_path(), verify=True)
    checked = [f"{len(t.manifest['files'])} files match their sha256"]
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


def _cmd_build(args: argparse.Namespace) -> int:
    # The builder is another distribution: run it as its own program, so the
    # runtime never imports it.
    if importlib.util.find_spec("twoplustwo_builder") is None:
        raise ImportError(
            "building tables needs the twoplustwo-builder package "
            "(pip install ./builder from a checkout, or use `make`)"
        )
    argv = [sys.executable, "-m", "twoplustwo_builder"]
    if args.out is not None:
        argv += ["--out", str(args.out)]
    for flag in ("quiet", "no_check", "if_missing"):
        if getattr(args, flag):
            argv.append("--" + flag.replace("_", "-"))
    return subprocess.run(argv, check=False).returncode


def _cmd_enumerate(args: argparse.Namespace) -> int:
    from twoplustwo.hands.histograms import histogram

    include = _card_list(args.include)
    dead = _card_list(args.dead)
    check_disjoint([("--include", include), ("--dead", dead)])
    game = args.game
    # Only pass what was asked for, so plain enumeration needs no more than
    # histogram(n).
    options: dict[str, Any] = {}
    if include:
        options["include"] = include
    if dead:
        options["dead"] = dead
    if game != HOLDEM:
        options["game"] = game
    hist = histogram(args.n, **options)
    counts = _category_counts(hist, game)
    total = int(hist.sum())
    kind = "" if game == HOLDEM else f" {game}"
    print(
        f"{args.n}-card{kind} hands; include: {format_cards(include) or 'none'}; "
        f"dead: {format_cards(dead) or 'none'}"
    )
    rows = [["category", "hands", "probability"]]
    rows += [[c, f"{n:,}", _probability(n, total)] for c, n in counts.items()]
    rows.append(["total", f"{total:,}", _probability(total, total)])
    for line in _table(rows, {1, 2}):
        print(line)
    print(f"distinct values: {int((hist > 0).sum()):,}")
    return 0


def _player(word: str, omaha: bool) -> str | list[int]:
    """A command-line player: card ints or names making a hand (2 cards, or 4-6 in Omaha) are one, else a range."""
    try:
        cards = parse_words([word])
    except ValueError:
        return word
    return cards if len(cards) in ((4, 5, 6) if omaha else (2,)) else word


def _cmd_equity(args: argparse.Namespace) -> int:
    players = [_player(w, args.game.startswith("omaha")) for w in args.players]
    board = _card_list(args.board)
    dead = _card_list(args.dead)
    # Hands against each other and the board before any table is loaded;
    # ranges are checked by equity() itself.
    check_disjoint(
        [(f"hand {i + 1}", p) for i, p in enumerate(players) if isinstance(p, list)]
        + [("the board", board), ("the dead cards", dead)]
    )
    method = "monte-carlo" if args.mc else "exact" if args.exact else "auto"
    if method == "exact" and (args.stderr is not None or args.samples is not None or args.seed is not None):
        raise ValueError("--stderr, --samples and --seed are for Monte Carlo; --exact takes none of them")
    from twoplustwo.odds.calculate import equity, equity_table

    results = equity(
        players,
        board=board,
        dead=dead,
        game=args.game,
        method=method,
        stderr=args.stderr,
        samples=args.samples,
        seed=args.seed,
        threads=args.threads,
        quiet=args.quiet,
    )
    game = "" if args.game == HOLDEM else f"game: {args.game}; "
    print(f"{game}board: {format_cards(board) or 'none'}; dead: {format_cards(dead) or 'none'}")
    print(equity_table(results))
    return 0


def _cmd_range(args: argparse.Namespace) -> int:
    from twoplustwo.vocab.ranges import N_COMBOS, parse_range

    if args.per_line < 1:
        raise ValueError(f"--per-line must be at least 1, got {args.per_line}")
    r = parse_range(args.range)
    weights = r.weights.tolist()
    total = sum(weights)
    print(f"range   {r}")
    print(f"combos  {len(r):,} of {N_COMBOS:,} ({100 * total / N_COMBOS:.3f}% weighted)")
    cells = [format_cards(c) + ("" if w == 1 else f" [{100 * w:g}%]") for c, w in zip(r.combos.tolist(), weights)]
    for i in range(0, len(cells), args.per_line):
        print(", ".join(cells[i : i + args.per_line]))
    return 0


def _classes(text: str | None) -> list[str] | None:
    return None if text is None else [c for c in text.replace(",", " ").split() if c]


def _dask_client(address: str, timeout: float | None) -> Any:
    """A client of the dask scheduler at ``address`` once it has a worker (for ``preflop --dask``).

    Reaching the scheduler, the client's handshake and the wait for a worker
    each take at most ``timeout`` seconds (default :data:`DASK_TIMEOUT`),
    whatever the other end does; every failure is one error naming the address.
    """
    if timeout is None:
        timeout = DASK_TIMEOUT
    elif not 0 < timeout <= 86400:  # also refuses nan; a day is far enough, and larger ones overflow timers
        raise ValueError(f"--dask-timeout must be a number of seconds above 0 and at most 86400, got {timeout:g}")
    try:
        from distributed import Client
        from distributed.comm.addressing import get_address_host_port
        from distributed.comm.core import connect
    except ImportError:
        raise ValueError("--dask needs dask.distributed: pip install 'twoplustwo[dask]'") from None
    if not address.strip():
        raise ValueError(f"--dask needs a scheduler address such as tcp://host:8786, got {address!r}")
    try:
        port = get_address_host_port(address)[1]
    except ValueError as e:
        raise ValueError(f"--dask {address!r} is not a scheduler address such as tcp://host:8786: {e}") from None
    if not 0 < port < 65536:
        raise ValueError(f"--dask {address!r}: port {port} is not in 1..65535")
    import asyncio

    async def handshake() -> None:
        # Client's own timeout covers only the TCP connect: a server that
        # accepts and then says nothing would hold its handshake forever.
        comm = await asyncio.wait_for(connect(address, timeout=timeout), timeout)  # type: ignore[no-untyped-call]
        await comm.close()

    try:
        asyncio.run(handshake())
        client = Client(address, timeout=timeout)  # type: ignore[no-untyped-call]
    except (OSError, asyncio.TimeoutError):
        # Refused, unreachable or unresolved (dask retries these until the
        # timeout), silent, or hung up: no scheduler answered, all the same.
        raise OSError(f"no dask scheduler answered at {address} within {timeout:g} s (--dask-timeout)") from None
    except ImportError as e:  # the scheduler's word on mismatched versions
        raise OSError(f"cannot use the dask scheduler at {address}: {e}") from None
    except Exception:
        # dask reads a length prefix first, which other bytes (an SSH banner,
        # an HTTP reply) make a nonsense size: a refused allocation of
        # exabytes, or garbled frames, or a message that is not a dict.
        raise ValueError(
            f"{address} does not answer as a dask scheduler (--dask takes a scheduler's address, e.g. tcp://host:8786)"
        ) from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except BaseException as e:
        client.close()  # type: ignore[no-untyped-call]
        if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
            raise OSError(
                f"the dask scheduler at {address} has no worker after {timeout:g} s (--dask-timeout); "
                f"start one with: dask worker {address}"
            ) from None
        raise
    return client


def _cmd_preflop(args: argparse.Namespace) -> int:
    if args.png and args.grid:
        raise ValueError("--png draws the table against a random hand; it does not take --grid")
    if args.vs is not None and not args.grid:
        raise ValueError("--vs names the columns of --grid")
    if _is_stdout(args.csv) and _is_stdout(args.png):
        raise ValueError("--csv and --png cannot both write to standard output (-)")
    from contextlib import ExitStack

    from twoplustwo.tables.atomic import check_target, write_file

    for path, example in ((args.csv, "preflop.csv"), (args.png, "preflop.png")):
        if path is not None and not _is_stdout(path):
            check_target(path, example)  # a path it cannot write is refused before the work, not after
    from twoplustwo.odds.preflop import draw_png, preflop_matchups, preflop_table, preflop_vs_random, write_csv

    with ExitStack() as stack:
        executor = None
        if args.dask is not None:
            executor = stack.enter_context(_dask_client(args.dask, args.dask_timeout)).get_executor()
        elif args.dask_timeout is not None:
            raise ValueError("--dask-timeout is for --dask")
        options: dict[str, Any] = {"threads": args.threads, "executor": executor, "quiet": args.quiet}
        if args.grid:
            results: Any = preflop_matchups(_classes(args.classes), _classes(args.vs), **options)
        else:
            results = preflop_vs_random(_classes(args.classes), **options)
    if _is_stdout(args.csv):
        from twoplustwo.odds.preflop import csv_bytes

        write_file(_stdout_fd(), [csv_bytes(results)])
    elif args.csv:
        write_csv(results, args.csv)
    if _is_stdout(args.png):
        from twoplustwo.odds.preflop import png_bytes

        write_file(_stdout_fd(), [png_bytes(results)])
    elif args.png:
        draw_png(results, args.png)
    if not args.csv or args.print:
        print(preflop_table(results))
    return 0


def _cmd_install_tables(args: argparse.Namespace) -> int:
    from twoplustwo.tables.bundle import install_bundle

    path = install_bundle(args.bundle, to=args.to)
    print(f"tables installed to {path}")
    return 0


def _cmd_export_handranks(args: argparse.Namespace) -> int:
    from twoplustwo.hands.handranks import write_handranks
    from twoplustwo.tables.atomic import check_target

    start = time.perf_counter()
    target = _stdout_fd() if _is_stdout(args.out) else check_target(args.out, "HandRanks.dat")
    size = write_handranks(target, None, args.quiet)
    if not args.quiet:
        # Beside the bytes on standard output, the summary goes to stderr.
        where, to = ("standard output", sys.stderr) if isinstance(target, int) else (target, sys.stdout)
        print(f"wrote {where} ({size:,} bytes) in {time.perf_counter() - start:.1f} s", file=to)
    return 0


def _is_stdout(path: Path | None) -> bool:
    return path is not None and str(path) == "-"


def _stdout_fd() -> int:
    # The bytes go to the descriptor itself: anything printed before must be out first.
    sys.stdout.flush()
    return sys.stdout.fileno()


# ------------------------------------------------------------------ parser


def _parser() -> _Parser:
    p = _Parser(
        prog=PROG,
        description="Exact poker hand evaluation with the 2+2 lookup tables.",
        epilog="Tables are read from $TWOPLUSTWO_TABLES, else the checkout's tables/, "
        "else ~/.cache/twoplustwo/tables.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace], int], help: str) -> _Parser:
        sp = sub.add_parser(name, help=help, description=help)
        sp.set_defaults(handler=handler)
        return sp

    cards_help = "cards such as 'As Kd 7h' (blanks or commas between, or written back to back)"
    game_help = (
        "holdem (the default), short-deck (36 cards, six to ace; a flush beats a full house, trips a straight) "
        "or short-deck-classic (the same, but a straight beats trips)"
    )

    sp = add("eval", _cmd_eval, "value, category, description and best five cards of a 5-7 card hand")
    sp.add_argument("cards", nargs="+", metavar="CARDS", help=cards_help + ", or ints 0..51")
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument("--game", choices=GAMES, default=HOLDEM, help=game_help)

    add("info", _cmd_info, "where the tables are, their files, sizes and node counts")
    add("warm", _cmd_warm, "re-read the large table files into the page cache, to be mapped with 2 MiB pages")

    sp = add("verify", _cmd_verify, "hash every table file and spot-check the value histograms")
    sp.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        choices=(5, 6, 7),
        default=[5, 6, 7],
        metavar="N",
        help="hand sizes whose category counts to check (default: 5 6 7)",
    )

    sp = add("build", _cmd_build, "build the tables (needs the 'build' extra)")
    sp.add_argument(
        "--out", type=Path, default=None, help="target directory (default: where tables are read)"
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bars or summary")
    sp.add_argument("--no-check", action="store_true", help="skip the self-check against the oracles")
    sp.add_argument("--if-missing", action="store_true", help="do nothing when loadable tables exist")

    sp = add("enumerate", _cmd_enumerate, "exact category counts and probabilities over all hands")
    sp.add_argument("-n", type=int, choices=(5, 6, 7), default=7, help="cards per hand (default: 7)")
    sp.add_argument("--include", action="append", metavar="CARDS", help="cards every hand holds")
    sp.add_argument("--dead", action="append", metavar="CARDS", help="cards no hand holds")
    sp.add_argument("--game", choices=GAMES, default=HOLDEM, help=game_help)

    sp = add("equity", _cmd_equity, "equity of hands and ranges: exact, or Monte Carlo with a standard error")
    sp.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="one hand ('AsKs', 'As Ks') or range ('QQ+,AKs', '[50]AK[/50]', 'random') per argument",
    )
    sp.add_argument("--board", action="append", metavar="CARDS", help="cards already on the board (0 to 5)")
    sp.add_argument("--dead", action="append", metavar="CARDS", help="cards out of play")
    how = sp.add_mutually_exclusive_group()
    how.add_argument("--mc", action="store_true", help="Monte Carlo, whatever the size")
    how.add_argument("--exact", action="store_true", help="enumerate every game, whatever the size")
    sp.add_argument("--stderr", type=float, metavar="X", help="Monte Carlo: stop at this stderr (0.001 = 0.1%%)")
    sp.add_argument("--samples", type=int, metavar="N", help="Monte Carlo: stop after N games")
    sp.add_argument("--seed", type=int, metavar="N", help="Monte Carlo: seed, for a reproducible run")
    sp.add_argument("--threads", type=int, metavar="N", help="threads (default: one per CPU)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")
    sp.add_argument(
        "--game",
        choices=EQUITY_GAMES,
        default=HOLDEM,
        help="holdem (the default), short-deck, short-deck-classic, or omaha / omaha-hilo (hands of 4-6 cards)",
    )

    sp = add("preflop", _cmd_preflop, "exact preflop equity of the 169 starting hands, against a random hand or a grid")
    sp.add_argument("--classes", metavar="LIST", help="classes to compute, e.g. 'AA,AKs,72o' (default: all 169)")
    sp.add_argument("--grid", action="store_true", help="each class against each class (of --vs), not a random hand")
    sp.add_argument("--vs", metavar="LIST", help="with --grid: the opponents' classes (default: all 169)")
    sp.add_argument(
        "--csv", type=Path, metavar="FILE", help="write the results as CSV, - for stdout (then print only with --print)"
    )
    sp.add_argument("--print", action="store_true", help="print the table even with --csv")
    sp.add_argument(
        "--png", type=Path, metavar="FILE", help="draw the 13 x 13 heat map, - for stdout (needs twoplustwo[plot])"
    )
    sp.add_argument("--dask", metavar="ADDRESS", help="run on a dask.distributed cluster, e.g. tcp://host:8786")
    sp.add_argument(
        "--dask-timeout",
        type=float,
        metavar="SECONDS",
        help=f"with --dask: how long to wait for the scheduler to answer, then for a worker "
        f"(default: {DASK_TIMEOUT:g})",
    )
    sp.add_argument("--threads", type=int, metavar="N", help="threads (default: one per CPU)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")

    sp = add("range", _cmd_range, "the combos of a range and its canonical notation")
    sp.add_argument("range", metavar="RANGE", help="a range such as 'QQ+,AKs' or '[50]99-66[/50],AhKh'")
    sp.add_argument("--per-line", type=int, default=10, metavar="N", help="combos per output line (default: 10)")

    sp = add("install-tables", _cmd_install_tables, "install a prebuilt table bundle")
    sp.add_argument("bundle", metavar="BUNDLE", help="bundle file")
    sp.add_argument("--to", type=Path, default=None, help="target directory (default: where tables are read)")

    sp = add("export-handranks", _cmd_export_handranks, "write the tables as a classic 2+2 HandRanks.dat")
    sp.add_argument(
        "out", type=Path, metavar="OUT", help="file to write, - for stdout; one already there is replaced atomically"
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    return p


def _error(message: object) -> None:
    # Exactly one line, whatever the exception text holds.
    text = " ".join(str(message).split())
    print(f"{PROG}: error: {text}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code.

    >>> main(["eval", "7c", "5d", "4h", "3s", "2c", "--json"])  # doctest: +ELLIPSIS
    {"cards": ["7c", "5d", "4h", "3s", "2c"], "value": 1, "category": "high_card", ..., "cactus_kev_rank": 7462}
    0
    """
    parser = _parser()
    try:
        args = parser.parse_args(argv)
        code = int(args.handler(args))
        # Output that cannot be written (a full disk, /dev/full) is a failure,
        # not a success the interpreter would only complain about at exit.
        sys.stdout.flush()
        return code
    except _UsageError as e:
        _error(f"{e} (see {PROG} --help)")
        return EXIT_USAGE
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else 0
    except TableError as e:
        _error(e)
        return EXIT_TABLES
    except ValueError as e:
        _error(e)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away; nothing left worth saying.
        return EXIT_TABLES
    except (OSError, ImportError) as e:
        _error(e)
        return EXIT_TABLES
    except KeyboardInterrupt:
        _error("interrupted")
        return 130
