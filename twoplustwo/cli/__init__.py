"""The ``twoplustwo`` command (also ``python -m twoplustwo``).

Subcommands:

- ``eval CARDS...``: value, category, code, description and best five cards
  of one hand of 5 to 7 cards (``--json`` for machine-readable output,
  ``--game`` for short deck); with ``--game omaha`` or ``omaha-hilo``, CARDS
  are 4 to 6 hole cards and ``--board`` 3 to 5 board cards, and hi-lo adds
  the eight-or-better low (:mod:`twoplustwo.cli.omaha`);
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
  ``--stderr``, ``--samples``, ``--seed``; ``--combos``: each combo's equity);
- ``range``: the combos of a range and its canonical notation;
- ``preflop``: exact preflop equity of the 169 starting hands against a
  random hand (``--grid``: against each other; ``--csv``, ``--png``,
  ``--dask ADDRESS`` for a cluster);
- ``install-tables``: install a prebuilt table bundle;
- ``export-handranks OUT``: write the tables as a classic 2+2 ``HandRanks.dat``.

An output file (``--csv``, ``--png``, ``OUT``) of ``-`` is standard output;
other paths are written as :mod:`twoplustwo.tables.atomic` says, and
``preflop`` says on stderr what each got (not with ``--quiet``).

Tables are found as :func:`twoplustwo.tables.load.default_path` says
(``$TWOPLUSTWO_TABLES`` first). Bad input prints one line,
``twoplustwo: error: <message>``, on stderr and exits with 2; missing or
damaged tables exit with 1. Ctrl-C at any moment after start-up prints one
line too, ``twoplustwo: error: interrupted`` (``build`` and
``abstraction``: the builder's, which says what it left) and exits with 130.

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

import sys
from collections.abc import Sequence

from twoplustwo.cli.prog import PROG
from twoplustwo.tables.format import TableError

__all__ = ["EXIT_TABLES", "EXIT_USAGE", "main"]

#: Exit codes: bad input or usage, and tables that are missing or damaged.
EXIT_USAGE = 2
EXIT_TABLES = 1


def _report(message: object) -> None:
    # Exactly one line, whatever the exception text holds.
    text = " ".join(str(message).split())
    print(f"{PROG}: error: {text}", file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line ``argv`` (default ``sys.argv[1:]``); return the exit code.

    >>> main(["eval", "7c", "5d", "4h", "3s", "2c", "--json"])  # doctest: +ELLIPSIS
    {"cards": ["7c", "5d", "4h", "3s", "2c"], "value": 1, "category": "high_card", ..., "cactus_kev_rank": 7462}
    0
    """
    try:
        return _run(argv)
    except KeyboardInterrupt:
        _report("interrupted")
        return 130


def _run(argv: Sequence[str] | None) -> int:
    # The commands' modules (numpy among what they import) load here, not when the script imports this
    # package: a Ctrl-C while they load is then one line too.
    from twoplustwo.cli.parser import UsageError, build_parser

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        code = int(args.handler(args))
        # Output that cannot be written (a full disk, /dev/full) is a failure,
        # not a success the interpreter would only complain about at exit.
        sys.stdout.flush()
        return code
    except UsageError as e:
        _report(f"{e} (see {PROG} --help)")
        return EXIT_USAGE
    except SystemExit as e:  # --help and --version
        return e.code if isinstance(e.code, int) else 0
    except TableError as e:
        _report(e)
        return EXIT_TABLES
    except ValueError as e:
        _report(e)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader (e.g. `| head`) went away; nothing left worth saying.
        return EXIT_TABLES
    except (OSError, ImportError) as e:
        _report(e)
        return EXIT_TABLES
