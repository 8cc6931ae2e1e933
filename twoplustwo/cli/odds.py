"""``equity``, ``range`` and ``preflop``: equities of hands and ranges, and the preflop tables."""

from __future__ import annotations

import argparse
from typing import Any

from twoplustwo.cli.cluster import dask_client
from twoplustwo.cli.hands import card_list
from twoplustwo.cli.output import is_stdout, stdout_fd
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_words
from twoplustwo.vocab.games import GAMES, HOLDEM

__all__ = ["EQUITY_GAMES", "cmd_equity", "cmd_preflop", "cmd_range"]

#: The games ``equity`` plays (twoplustwo.odds.calculate.EQUITY_GAMES, which would
#: import numpy here).
EQUITY_GAMES = (*GAMES, "omaha", "omaha-hilo")


def player(word: str, omaha: bool) -> str | list[int]:
    """A command-line player: card ints or names making a hand (2 cards, or 4-6 in Omaha) are one, else a range."""
    try:
        cards = parse_words([word])
    except ValueError:
        return word
    return cards if len(cards) in ((4, 5, 6) if omaha else (2,)) else word


def cmd_equity(args: argparse.Namespace) -> int:
    players = [player(w, args.game.startswith("omaha")) for w in args.players]
    board = card_list(args.board)
    dead = card_list(args.dead)
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


def cmd_range(args: argparse.Namespace) -> int:
    from twoplustwo.vocab.combos import N_COMBOS
    from twoplustwo.vocab.ranges import parse_range

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


def classes(text: str | None) -> list[str] | None:
    return None if text is None else [c for c in text.replace(",", " ").split() if c]


def cmd_preflop(args: argparse.Namespace) -> int:
    if args.png and args.grid:
        raise ValueError("--png draws the table against a random hand; it does not take --grid")
    if args.vs is not None and not args.grid:
        raise ValueError("--vs names the columns of --grid")
    if is_stdout(args.csv) and is_stdout(args.png):
        raise ValueError("--csv and --png cannot both write to standard output (-)")
    from contextlib import ExitStack

    from twoplustwo.tables.atomic import check_target, write_file

    for path, example in ((args.csv, "preflop.csv"), (args.png, "preflop.png")):
        if path is not None and not is_stdout(path):
            check_target(path, example)  # a path it cannot write is refused before the work, not after
    from twoplustwo.odds.charts import draw_png, preflop_table, write_csv
    from twoplustwo.odds.preflop import preflop_matchups, preflop_vs_random

    with ExitStack() as stack:
        executor = None
        if args.dask is not None:
            executor = stack.enter_context(dask_client(args.dask, args.dask_timeout)).get_executor()
        elif args.dask_timeout is not None:
            raise ValueError("--dask-timeout is for --dask")
        options: dict[str, Any] = {"threads": args.threads, "executor": executor, "quiet": args.quiet}
        if args.grid:
            results: Any = preflop_matchups(classes(args.classes), classes(args.vs), **options)
        else:
            results = preflop_vs_random(classes(args.classes), **options)
    if is_stdout(args.csv):
        from twoplustwo.odds.charts import csv_bytes

        write_file(stdout_fd(), [csv_bytes(results)])
    elif args.csv:
        write_csv(results, args.csv)
    if is_stdout(args.png):
        from twoplustwo.odds.charts import png_bytes

        write_file(stdout_fd(), [png_bytes(results)])
    elif args.png:
        draw_png(results, args.png)
    if not args.csv or args.print:
        print(preflop_table(results))
    return 0
