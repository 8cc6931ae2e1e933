"""``board`` and ``flops``: how a range hits one board, and every flop (the board reports)."""

from __future__ import annotations

import argparse
import sys

from twoplustwo.cli.hands import card_list
from twoplustwo.cli.output import is_stdout, stdout_fd

__all__ = ["cmd_board", "cmd_flops"]


def cmd_board(args: argparse.Namespace) -> int:
    from twoplustwo.tables.atomic import check_target, write_file

    if args.png is not None and not is_stdout(args.png):
        check_target(args.png, "board.png")  # a path it cannot write is refused before the work, not after
    from twoplustwo.odds.board_report import board_report

    report = board_report(args.range, card_list(args.board), dead=card_list(args.dead), villain=args.villain)
    if args.png is not None:
        from twoplustwo.odds.board_charts import board_png_bytes, draw_board_png

        if is_stdout(args.png):
            write_file(stdout_fd(), [board_png_bytes(report)])
            return 0
        draw_board_png(report, args.png)
        print(f"wrote the 13 x 13 grid and the class bars to {args.png}", file=sys.stderr)
    print(report)
    return 0


def cmd_flops(args: argparse.Namespace) -> int:
    from twoplustwo.tables.atomic import check_target, write_file

    if args.csv is not None and not is_stdout(args.csv):
        check_target(args.csv, "flops.csv")  # a path it cannot write is refused before the work, not after
    from twoplustwo.odds.flop_report import flop_report

    report = flop_report(args.range, villain=args.villain, threads=args.threads, quiet=args.quiet)
    if is_stdout(args.csv):
        write_file(stdout_fd(), [report.csv_bytes()])
    elif args.csv is not None:
        write_file(check_target(args.csv, "flops.csv"), [report.csv_bytes()])
        if not args.quiet:
            # The summary goes to stderr, so that stdout holds only the table.
            print(f"wrote {len(report.flops):,} flops to {args.csv}", file=sys.stderr)
    if args.csv is None or args.print:
        print(report)
    return 0
