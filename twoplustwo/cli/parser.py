"""The command line's arguments: one subparser per command, each bound to its handler."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from pathlib import Path
from typing import NoReturn

from twoplustwo import __version__
from twoplustwo.cli.board import cmd_board, cmd_flops
from twoplustwo.cli.hands import cmd_enumerate, cmd_eval
from twoplustwo.cli.odds import EQUITY_GAMES, cmd_equity, cmd_preflop, cmd_range
from twoplustwo.cli.prog import PROG
from twoplustwo.cli.tableset import (
    cmd_abstraction,
    cmd_build,
    cmd_export_handranks,
    cmd_info,
    cmd_install_tables,
    cmd_verify,
    cmd_warm,
)
from twoplustwo.cluster import DASK_TIMEOUT
from twoplustwo.tables.optional import MAX_BUCKETS
from twoplustwo.vocab.rules import GAMES, HOLDEM, OMAHA_GAMES

__all__ = ["Parser", "UsageError", "build_parser"]


class UsageError(Exception):
    """A command line argparse rejected; reported in one line, not with usage."""


class Parser(argparse.ArgumentParser):
    # argparse prints the usage and exits from inside parse_args; raising
    # instead lets main() report every error the same way and return a code.
    def error(self, message: str) -> NoReturn:
        # argparse quotes a bad value whole: a 5,000-digit --samples would
        # make a 5 KB line, so a long one keeps its first 40 characters.
        raise UsageError(re.sub(r"'([^']{40})[^']{4,}'", r"'\1...'", message))


def build_parser() -> Parser:
    p = Parser(
        prog=PROG,
        description="Exact poker hand evaluation with the 2+2 lookup tables.",
        epilog="Tables are read from $TWOPLUSTWO_TABLES, else the checkout's tables/, "
        "else ~/.cache/twoplustwo/tables.",
    )
    p.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, handler: Callable[[argparse.Namespace], int], help: str) -> Parser:
        sp = sub.add_parser(name, help=help, description=help)
        sp.set_defaults(handler=handler)
        return sp

    cards_help = "cards such as 'As Kd 7h' (blanks or commas between, or written back to back)"
    game_help = (
        "holdem (the default), short-deck (36 cards, six to ace; a flush beats a full house, trips a straight), "
        "short-deck-classic (the same, but a straight beats trips), stud and stud-hilo (5-7 cards, the high as "
        "hold'em's; stud-hilo adds the eight-or-better low), razz (5-7 cards, ace-to-five low), lowball-27 and "
        "lowball-a5 (5 cards) or badugi (4 cards)"
    )

    sp = add(
        "eval",
        cmd_eval,
        "value, category, description and best five cards of a 5-7 card hand, or of Omaha hole cards and a board",
    )
    sp.epilog = (
        "Omaha: CARDS are the 4, 5 or 6 hole cards and --board the 3, 4 or 5 board cards; the hand is the best "
        "of two hole cards and three board cards, and omaha-hilo adds the eight-or-better low (or says there is "
        "none), e.g. twoplustwo eval --game omaha-hilo As2dKcKd --board 3h6c8dQsJs"
    )
    sp.add_argument(
        "cards", nargs="+", metavar="CARDS", help=cards_help + ", or ints 0..51; in Omaha the 4-6 hole cards"
    )
    sp.add_argument(
        "--board", action="append", metavar="CARDS", help="Omaha only, and needed there: the 3, 4 or 5 board cards"
    )
    sp.add_argument("--json", action="store_true", help="print one JSON object")
    sp.add_argument(
        "--game",
        choices=(*GAMES, *OMAHA_GAMES),
        default=HOLDEM,
        help=game_help + ", or omaha / omaha-hilo (hole cards and --board)",
    )

    add("info", cmd_info, "where the tables are, their files, sizes and node counts")
    add("warm", cmd_warm, "re-read the large table files into the page cache, to be mapped with 2 MiB pages")

    sp = add("verify", cmd_verify, "hash every table file and spot-check the value histograms")
    sp.add_argument(
        "--sizes",
        type=int,
        nargs="+",
        choices=(5, 6, 7),
        default=[5, 6, 7],
        metavar="N",
        help="hand sizes whose category counts to check (default: 5 6 7)",
    )

    sp = add(
        "abstraction",
        cmd_abstraction,
        "add a table of k buckets per canonical hand of a street to the set (runs the twoplustwo-builder package)",
    )
    sp.add_argument("--street", required=True, choices=("flop", "turn", "river"), help="the street")
    sp.add_argument(
        "--method", required=True, choices=("emd", "potential", "ochs", "percentile"),
        help="emd: k-means under the earth mover's distance (flop, turn); potential: where the turns take a flop "
        "hand, over the turn emd buckets of the same k (build those first); ochs: equity against 8 clusters of "
        "preflop hands (river); percentile: by ehs alone",
    )  # fmt: skip
    sp.add_argument("--k", type=int, required=True, help=f"the number of buckets, 1 to {MAX_BUCKETS}")
    sp.add_argument("--seed", type=int, default=0, help="the seed of the first centers (default 0)")
    sp.add_argument("--max-iter", type=int, default=100, help="the most rounds of the clustering (default 100)")
    sp.add_argument("--out", type=Path, default=None, help="the table set (default: where tables are read)")
    sp.add_argument("--dask", metavar="ADDRESS", help="run the assignment steps on this dask scheduler")
    sp.add_argument(
        "--dask-timeout", type=float, default=DASK_TIMEOUT, metavar="SECONDS",
        help=f"how long to wait for the scheduler, then for its first worker (default {DASK_TIMEOUT:g})",
    )  # fmt: skip
    sp.add_argument("--quiet", action="store_true", help="no progress bars or summary")

    sp = add("build", cmd_build, "build the tables (runs the twoplustwo-builder package)")
    sp.add_argument(
        "--out", type=Path, default=None, help="target directory (default: where tables are read)"
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bars or summary")
    sp.add_argument("--no-check", action="store_true", help="skip the self-check against the oracles")
    sp.add_argument("--if-missing", action="store_true", help="do nothing when loadable tables exist")

    sp = add("enumerate", cmd_enumerate, "exact category counts and probabilities over all hands")
    sp.add_argument("-n", type=int, choices=(5, 6, 7), default=7, help="cards per hand (default: 7)")
    sp.add_argument("--include", action="append", metavar="CARDS", help="cards every hand holds")
    sp.add_argument("--dead", action="append", metavar="CARDS", help="cards no hand holds")
    sp.add_argument("--game", choices=GAMES, default=HOLDEM, help=game_help)

    sp = add("equity", cmd_equity, "equity of hands and ranges: exact, or Monte Carlo with a standard error")
    sp.add_argument(
        "players",
        nargs="+",
        metavar="PLAYER",
        help="one hand ('AsKs', 'As Ks') or range ('QQ+,AKs', '[50]AK[/50]', 'random') per argument; in stud, "
        "razz and the draws, the cards known for a player ('As 2d 3c') or 'random'",
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
        "--combos",
        action="store_true",
        help="after the table, each player's combos with each one's equity and games, exact or Monte Carlo "
        "(a hand is one combo; - for a combo that played no game)",
    )
    sp.add_argument(
        "--game",
        choices=EQUITY_GAMES,
        default=HOLDEM,
        help="holdem (the default), short-deck, short-deck-classic, omaha / omaha-hilo (hands of 4-6 cards), "
        "or without a board: stud, stud-hilo, razz (7 cards each), lowball-27, lowball-a5 (5), badugi (4)",
    )

    sp = add("preflop", cmd_preflop, "exact preflop equity of the 169 starting hands, against a random hand or a grid")
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
    sp.add_argument(
        "--quiet", action="store_true", help="no progress bar, nor the line on stderr saying what a file got"
    )

    sp = add("range", cmd_range, "the combos of a range and its canonical notation")
    sp.add_argument("range", metavar="RANGE", help="a range such as 'QQ+,AKs' or '[50]99-66[/50],AhKh'")
    sp.add_argument("--per-line", type=int, default=10, metavar="N", help="combos per output line (default: 10)")

    range_help = "a range such as 'QQ+,AK,T9s' or '[50]99-66[/50],AhKh'"
    sp = add("board", cmd_board, "how a range hits a board: its combos in each made-hand class and draw")
    sp.add_argument("range", metavar="RANGE", help=range_help)
    sp.add_argument("--board", action="append", required=True, metavar="CARDS", help="the 3, 4 or 5 board cards")
    sp.add_argument("--dead", action="append", metavar="CARDS", help="cards out of play")
    sp.add_argument("--villain", metavar="RANGE", help="also each class's exact equity against this range")
    sp.add_argument(
        "--png", type=Path, metavar="FILE", help="draw the 13 x 13 grid by class and the class bars, - for stdout "
        "(needs twoplustwo[plot])",
    )  # fmt: skip

    sp = add("flops", cmd_flops, "how a range hits every flop: its classes over all 22,100, and per canonical flop")
    sp.add_argument("range", metavar="RANGE", help=range_help)
    sp.add_argument("--villain", metavar="RANGE", help="also each class's exact equity against this range (slow)")
    sp.add_argument(
        "--csv", type=Path, metavar="FILE", help="write one row per canonical flop as CSV, - for stdout "
        "(then print the summary only with --print)",
    )  # fmt: skip
    sp.add_argument("--print", action="store_true", help="print the summary even with --csv")
    sp.add_argument("--threads", type=int, metavar="N", help="threads (default: one per CPU)")
    sp.add_argument(
        "--quiet", action="store_true", help="no progress bar, nor the line on stderr saying what a file got"
    )

    sp = add("install-tables", cmd_install_tables, "install a prebuilt table bundle")
    sp.add_argument("bundle", metavar="BUNDLE", help="bundle file")
    sp.add_argument("--to", type=Path, default=None, help="target directory (default: where tables are read)")
    sp.add_argument("--quiet", action="store_true", help="no progress bar")

    sp = add("export-handranks", cmd_export_handranks, "write the tables as a classic 2+2 HandRanks.dat")
    sp.add_argument(
        "out", type=Path, metavar="OUT", help="file to write, - for stdout; one already there is replaced atomically"
    )
    sp.add_argument("--quiet", action="store_true", help="no progress bar or summary")
    return p
