"""``equity``, ``range`` and ``preflop``: equities of hands and ranges, and the preflop tables."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from twoplustwo.cli.hands import card_list
from twoplustwo.cli.output import aligned, is_stdout, stdout_fd
from twoplustwo.cluster import dask_client
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_words
from twoplustwo.vocab.rules import EQUITY_GAMES, HOLDEM, OWN_CARD_GAMES

if TYPE_CHECKING:
    from twoplustwo.odds.results import PlayerEquity

__all__ = ["EQUITY_GAMES", "cmd_equity", "cmd_preflop", "cmd_range", "combo_tables"]


def player(word: str, omaha: bool) -> str | list[int]:
    """A command-line player: card ints or names making a hand (2 cards, or 4-6 in Omaha) are one, else a range."""
    try:
        cards = parse_words([word])
    except ValueError:
        return word
    return cards if len(cards) in ((4, 5, 6) if omaha else (2,)) else word


def cmd_equity(args: argparse.Namespace) -> int:
    own = args.game in OWN_CARD_GAMES
    # A stud or draw player is the cards known for them (or "random"): equity() reads and checks them.
    players: list[str | list[int]] = (
        list(args.players) if own else [player(w, args.game.startswith("omaha")) for w in args.players]
    )
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
    from twoplustwo.odds.equity import equity, equity_table

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
    shown = "" if own else f"board: {format_cards(board) or 'none'}; "
    print(f"{game}{shown}dead: {format_cards(dead) or 'none'}")
    print(equity_table(results))
    if args.combos:
        for line in combo_tables(results):
            print(line)
    return 0


def _games(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.2f}"


def combo_tables(results: Sequence[PlayerEquity]) -> list[str]:
    """Lines of ``equity --combos``: per player a blank line, a heading and its combos' equity and games.

    A range's rows are its ``combos`` with ``combo_equity`` and ``combo_games``,
    in the library's order; a hand is one row of its own results. A combo
    that played no game (blocked by the others, or never sampled) shows ``-``.
    """
    lines: list[str] = []
    for i, r in enumerate(results):
        rows: list[tuple[str, float, float]] = [(r.player, r.equity, r.games)]
        if r.combos is not None and r.combo_equity is not None and r.combo_games is not None:
            rows = [
                (format_cards(c), float(e), float(g))
                for c, e, g in zip(r.combos.tolist(), r.combo_equity.tolist(), r.combo_games.tolist())
            ]
        n = len(rows)
        lines += ["", f"player {i + 1}: {r.player} ({n} combo{'s' if n != 1 else ''})"]
        cells = [["combo", "equity %", "games"]]
        cells += [[c, "-" if not g or e != e else f"{100 * e:.3f}", _games(g)] for c, e, g in rows]
        lines += aligned(cells, {1, 2})
    return lines


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


def _plural(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _wrote(args: argparse.Namespace, what: str) -> None:
    # A file's summary goes to stderr, so that stdout holds only the table (or the other file).
    if not args.quiet:
        print(f"wrote {what}", file=sys.stderr)


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
        _wrote(args, f"{_plural(len(results), 'row')} to {args.csv}")
    if is_stdout(args.png):
        from twoplustwo.odds.charts import png_bytes

        write_file(stdout_fd(), [png_bytes(results)])
    elif args.png:
        draw_png(results, args.png)
        _wrote(args, f"the 13 x 13 heat map ({_plural(len(results), 'class', 'classes')}) to {args.png}")
    if not args.csv or args.print:
        print(preflop_table(results))
    return 0
