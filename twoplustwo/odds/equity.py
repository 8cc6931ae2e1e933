"""Hold'em equity of hands and ranges: exact enumeration or Monte Carlo with error bars.

>>> aa, kk = equity(["As Ah", "Kd Kc"])
>>> aa.wins, aa.ties, aa.losses, aa.games
(1388072, 6538, 317694, 1712304)
>>> print(aa)
As Ah  win 81.065%  tie 0.382%  equity 81.255%  (1,388,072 wins, 6,538 ties, 1,712,304 games)

A player is a hand or a range in PokerStove/Equilab notation
(:func:`~twoplustwo.parse_range`), and a range's result breaks down per combo:

>>> hero, villain = equity(["QQ+,AKs", "AK"], board="Qh 7c 2d")
>>> print(hero)
QQ+,AKs  win 75.333%  tie 19.091%  equity 84.879%  (134,244 wins, 34,020 ties, 178,200 games)
>>> [round(float(e), 3) for e in hero.combo_equity[:4]]  # three sets of queens, then Kd Kc
[0.979, 0.979, 0.979, 0.851]

Exact enumeration counts every deal of the players' combos (no card shared)
with every board completion once, PokerStove's convention; Monte Carlo
samples the same games and says how far off it may be:

>>> a, b = equity(["AhKh", "22"], method="monte-carlo", samples=100_000, seed=7)
>>> abs(a.equity - 0.50) < 4 * a.stderr + 0.02
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.kernels.games import Game, resolve
from twoplustwo.kernels.pots import POT_UNITS
from twoplustwo.odds import exact
from twoplustwo.odds.cost import work
from twoplustwo.odds.montecarlo import Stopping, check_stopping, sample
from twoplustwo.odds.players import MAX_PLAYERS, CheckedPlayer, check_count, parse_player, without
from twoplustwo.odds.request import Request
from twoplustwo.odds.results import EquityResults, PlayerEquity, equity_table
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, check_disjoint, parse_cards
from twoplustwo.vocab.ranges import Range
from twoplustwo.vocab.rules import EQUITY_GAMES, HOLDEM, OWN_CARD_GAMES, check_equity_game

__all__ = [
    "AUTO_EXACT_WORK",
    "AUTO_OMAHA_WORK",
    "EQUITY_GAMES",
    "MAX_PLAYERS",
    "METHODS",
    "Player",
    "PlayerEquity",
    "equity",
    "equity_table",
]

#: The values ``method=`` takes.
METHODS = ("auto", "exact", "monte-carlo")
#: ``method="auto"`` enumerates ranges exactly when the work of the route
#: enumeration takes (:func:`twoplustwo.odds.cost.work`) is at most this:
#: about a second on one core. Listing, boards times (distinct combos +
#: compatible deals x players); counting (hold'em on the C backend), each
#: suit class of deals times the rank multisets of the missing cards and
#: the players, at ``COUNTED_STEP`` each. Hands alone (no range) always
#: enumerate: at most C(50, 5) boards per player.
AUTO_EXACT_WORK = 3e9
#: ``method="auto"`` enumerates Omaha when boards x players x hole pairs is
#: at most this (heads-up PLO4 before the flop: 6.5 million, about 0.4 s).
AUTO_OMAHA_WORK = 2e7

#: One player: a hand (``"AsKs"``, ``["As", "Ks"]``, ``[51, 47]``) or a range
#: (``"QQ+,AKs"`` or a :class:`~twoplustwo.Range`).
Player = Cards | Range


def _check_method(method: object, stderr: object, samples: object, seed: object) -> Stopping:
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(map(repr, METHODS))}, got {method!r}")
    if method == "exact" and (stderr is not None or samples is not None or seed is not None):
        raise ValueError("stderr, samples and seed are for Monte Carlo; method='exact' takes none of them")
    # Before "auto" chooses: a bad one is refused even where it then enumerates.
    return check_stopping(stderr, samples, seed)


def equity(
    players: Sequence[Player | None],
    board: Cards | None = (),
    dead: Cards = (),
    *,
    game: str = HOLDEM,
    method: str = "auto",
    stderr: float | None = None,
    samples: int | None = None,
    seed: int | None = None,
    tables: Tables | None = None,
    threads: int | None = None,
    quiet: bool = False,
) -> EquityResults:
    """Win, tie and equity of 2 to 9 players, each a hand or a range.

    A player is a hand (``"AsKs"``, ``"As Ks"``, a sequence of card strings
    or ints) or a range (notation such as ``"QQ+,AKs"``, see
    :func:`~twoplustwo.parse_range`, or a :class:`~twoplustwo.Range`). A
    string that reads as two cards is a hand. ``board`` holds 0 to 5 known
    cards and ``dead`` cards out of play; a range loses the combos that
    touch them or another player's hand. Results come back in the order of
    ``players``, one :class:`PlayerEquity` each.

    ``game`` is ``"holdem"`` (the default), ``"short-deck"`` or
    ``"short-deck-classic"`` (36 cards: a range loses its combos below the
    six), or ``"omaha"`` / ``"omaha-hilo"``, whose players are hands of 4 to
    6 cards. In hi/lo each pot splits into a high half and a low half (eight
    or better), quartered when ties share a half; ``wins`` then counts the
    games a player scoops alone and ``ties`` those they take part of.

    ``method="exact"`` enumerates every game: every deal of one combo per
    player with no card shared, with every completion of the board, each
    counted once and weighted by the product of its combos' weights.
    ``method="monte-carlo"`` samples games from the same distribution
    (:mod:`twoplustwo.odds.montecarlo`), reproducibly for a given ``seed``, until
    every player's standard error is at most ``stderr`` or after
    ``samples`` games. ``method="auto"`` (the default) enumerates hands
    always, and ranges when the work is at most :data:`AUTO_EXACT_WORK`;
    else it samples.

    Raises ``ValueError`` for a card used twice by hands, the board and the
    dead cards, a hand without exactly two cards, a bad range, a range left
    empty, no compatible deal, fewer than 2 or more than 9 players, a board
    of more than 5 cards, too few cards left to complete the board, or a
    bad ``method``, ``stderr``, ``samples`` or ``seed``. Long enumerations
    run on ``threads`` threads (default: one per CPU); enumerating ranges and
    sampling show a progress bar on stderr when they take a while, unless
    stderr is not a terminal or ``quiet`` is true.

    Memory: hands alone take 2 bytes per player and board for the call; the
    first such call also builds the process's index of card subsets
    (:func:`twoplustwo.kernels.numpy.draws.subsets`, 65 MiB) on the numpy path, kept for
    later calls and for :func:`~twoplustwo.iter_hands`. Ranges take 2 bytes
    per distinct combo and board of a block (at most C(50, 3) boards) per
    thread, and counters of 24 bytes per player and deal, a set per group
    of boards counted side by side: all sets at most
    :data:`~twoplustwo.odds.exact.COUNTER_BYTES` (1 GiB), or one set when that
    alone is more, whatever ``threads``. Ctrl-C stops an enumeration within
    one short step and leaves the threads idle.

    >>> [r.wins for r in equity(["AsKs", "Qh Qd", [0, 1]], board="Kh Qs 2h")]
    [60, 802, 41]
    >>> print(equity(["As 2d 3c 4h 5s", "Kh 7d 8c 9h Ts"], game="razz")[1])
    Kh 7d 8c 9h Ts  win 0.000%  tie 0.000%  equity 0.000%  (0 wins, 0 ties, 671,580 games)
    >>> equity(["AsKs", "AsQd"])
    Traceback (most recent call last):
    ...
    ValueError: As is in both hand 1 and hand 2
    >>> equity(["AsKs", "QQ+,AKx"])
    Traceback (most recent call last):
    ...
    ValueError: player 2: item 2 ('AKx') at offset 4: expected a class like 'AKs', 'QQ+', 'A2s+' or \
'A5s-A2s', a hand like 'AhKh', or 'random'
    """
    workers = pool.resolve_threads(threads)
    stopping = _check_method(method, stderr, samples, seed)
    game = check_equity_game(game)  # the plain name, whatever str subclass (a StrEnum member, np.str_) equals it
    if game in OWN_CARD_GAMES:
        from twoplustwo.odds.own_cards import equity_of

        return EquityResults(
            equity_of(
                players, game, method, stopping, board=board, dead=dead, tables=tables, workers=workers, quiet=quiet
            )
        )
    if board is None:
        board = ()
    omaha = game.startswith("omaha")
    if isinstance(players, (str, bytes)):
        raise ValueError("players must be a sequence of hands or ranges, e.g. ['AsAh', 'KdKc'], not one string")
    parsed = [parse_player(i, p, omaha) for i, p in enumerate(players)]
    check_count(len(parsed), "equity")
    known = parse_cards(board)
    if len(known) > 5:
        raise ValueError(f"the board holds at most 5 cards, got {len(known)}")
    out = parse_cards(dead)
    fixed = [(f"hand {i + 1}", p.combos[0].tolist()) for i, p in enumerate(parsed) if not p.ranged]
    check_disjoint(fixed + [("the board", known), ("the dead cards", out)])
    g: Game | None = None
    if not omaha and game != HOLDEM:
        # A short-deck game's deck comes from its tables, loaded here.
        g = resolve(game, tables)
        for what, cards in fixed + [("the board", known), ("the dead cards", out)]:
            g.check_cards(cards, f"{what}: card")
    deck = range(52) if g is None else g.deck
    taken = {c for _, h in fixed for c in h} | set(known) | set(out) | set(range(deck.start))
    parsed = [without(i, p, taken, game) if p.ranged else p for i, p in enumerate(parsed)]
    rest = len(deck) - len((set(known) | set(out)) & set(deck))
    held = sum(p.combos.shape[1] for p in parsed)
    missing = 5 - len(known)
    if rest - held < missing:
        raise ValueError(f"only {rest - held} cards left after the hands, the board needs {missing} more")
    # Resolved once, after every check of the cards: the routes below take the game as it is.
    if g is None:
        g = resolve(HOLDEM, tables)
    request = Request(parsed, known, out, g, game, workers, quiet)
    if omaha:
        return EquityResults(_omaha(request, method, stopping))
    return EquityResults(_table_game(request, method, stopping))


def _table_game(request: Request, method: str, stopping: Stopping) -> list[PlayerEquity]:
    """Equity in a game of the tables (hold'em, short deck): enumerated when small enough (or asked), else sampled."""
    parsed, known, out, g = request.players, request.board, request.dead, request.game
    combos = [p.combos for p in parsed]
    ranged = request.ranged
    # The deals are enumerated once: for the cost estimate, then for the counts.
    found = exact.find_deals(combos) if ranged and method == "auto" else None
    if method == "auto":
        small = not ranged or work(combos, known, out, found, game=g) <= AUTO_EXACT_WORK
        method = "exact" if small else "monte-carlo"
    if method == "monte-carlo":
        return sample(request, stopping)
    if not ranged:
        counts = exact.hands(request.holes(), known, out, game=g, threads=request.workers)
        return [
            PlayerEquity(p.label, games, wins, ties, units / (POT_UNITS * games))
            for p, (games, wins, ties, units) in zip(parsed, counts)
        ]
    dealt, weight = exact.deals(
        [(p.combos, p.weights) for p in parsed],
        known,
        out,
        game=g,
        threads=request.workers,
        quiet=request.quiet,
        found=found,
    )
    return _results(parsed, dealt, weight)


def _omaha(request: Request, method: str, stopping: Stopping) -> list[PlayerEquity]:
    """Omaha equity of hands: enumerated when small enough (or asked), else sampled."""
    from math import comb

    from twoplustwo.odds import omaha as omaha_equity

    holes = request.holes()
    known, out = request.board, request.dead
    if method == "auto":
        rest = 52 - len(known) - len(out) - sum(len(h) for h in holes)
        cost = comb(rest, 5 - len(known)) * sum(comb(len(h), 2) for h in holes)
        method = "exact" if cost <= AUTO_OMAHA_WORK else "monte-carlo"
    if method == "monte-carlo":
        return sample(request, stopping)
    hilo = request.variant == "omaha-hilo"
    counts = omaha_equity.counts(holes, known, out, hilo=hilo, game=request.game, threads=request.workers)
    return [PlayerEquity(p.label, *c) for p, c in zip(request.players, counts)]


def _results(
    parsed: list[CheckedPlayer], found: exact.DealCounts, weight: npt.NDArray[np.float64]
) -> list[PlayerEquity]:
    """Each player's results, weighted by each deal's weight, with a range's per-combo breakdown."""
    deals, counts, games = found
    weighted = bool((weight != 1).any())
    sums: list[list[Any]]
    if weighted:
        sums = (counts * weight[:, None, None]).sum(axis=0).tolist()  # floats
        all_games: float = float(games @ weight)
    else:
        sums = counts.sum(axis=0).tolist()  # ints, from int64: exact
        all_games = int(games.sum())
    results = []
    for i, p in enumerate(parsed):
        wins, ties, units = sums[i]
        extra: dict[str, Any] = {}
        if p.ranged:
            # A combo's games and shares weigh by the other players' combos
            # only: all 1 when no deal weighs less.
            column = deals[:, i]
            combo_games_of: npt.NDArray[Any] = games
            combo_units_of: npt.NDArray[Any] = counts[:, i, 2]
            if weighted:
                others = weight / p.weights[column]
                combo_games_of, combo_units_of = games * others, counts[:, i, 2] * others
            combo_games = np.bincount(column, combo_games_of, minlength=len(p.combos))
            combo_units = np.bincount(column, combo_units_of, minlength=len(p.combos))
            with np.errstate(invalid="ignore", divide="ignore"):
                combo_equity = combo_units / (POT_UNITS * combo_games)
            extra = {"combos": p.combos, "combo_games": combo_games, "combo_equity": combo_equity}
        results.append(
            PlayerEquity(p.label, all_games, wins, ties, units / (POT_UNITS * all_games), 0.0, **extra)
        )
    return results
