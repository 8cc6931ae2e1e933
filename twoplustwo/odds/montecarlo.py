"""Monte Carlo equity: sampled deals, a standard error, the same answer for a seed.

:func:`monte_carlo` estimates what exact enumeration computes, for hands
and weighted ranges alike, by sampling games: a combo for every player
and a completion of the board. It plays Hold'em, short deck (either rules)
and Omaha (4 to 6 hole cards, high or hi/lo eight or better, pots split as
:mod:`twoplustwo.kernels.pots` splits them). The games themselves are played by
:class:`twoplustwo.odds.sampler.Sampler`.

>>> aces = (np.array([[51, 50]], dtype=np.uint8), np.ones(1))  # As Ah
>>> kings = (np.array([[47, 46]], dtype=np.uint8), np.ones(1))  # Ks Kh
>>> aa, kk = monte_carlo([aces, kings], ["AsAh", "KsKh"], [False, False], (), (), samples=50_000, seed=7)
>>> aa.games, aa.wins + aa.ties + kk.wins == aa.games, round(aa.equity + kk.equity, 9)
(50000, True, 1.0)
>>> abs(aa.equity - 0.8264) < 4 * aa.stderr < 0.01  # the exact equity is 82.64%
True

**The distribution** is the one enumeration averages over: a deal (one
combo per player, no card twice, none on the board or dead) has
probability proportional to the product of its combos' weights, and the
missing board cards are uniform over the rest of the deck. Each player's
combo is drawn independently in proportion to its weight and a deal that
uses a card twice is thrown away whole; redrawing only the clashing
player's combo would favour combos that clash less. In Hold'em, players
who each hold one hand or a random one (every combo left, equal weights)
are dealt straight from the deck instead, uniformly over the compatible
deals, which is the same distribution (:class:`~twoplustwo.odds.sampler.Sampler`
plays those games whole in the walker). When compatible deals
are too rare for that (under :data:`MIN_ACCEPTANCE` of the drawn ones), or
there are none at all, :func:`monte_carlo` raises ``ValueError`` rather
than run for ever.

**Reproducibility.** Games come in batches of :data:`BATCH`, batch ``i``
drawing from its own generator, spawned from ``np.random.SeedSequence(seed)``
by ``i`` alone (games dealt straight from the deck take a 64-bit key from
it, and counter-based words from the key: :mod:`twoplustwo.kernels.numpy.sample`).
Batches run on ``threads`` threads in rounds of a number of batches that
never depends on ``threads``, and the stopping rule is checked only between
rounds, so a seed gives the same result for every ``threads`` and on both
backends (whose hand values, and deals, are identical).

**Stopping.** With ``samples``, exactly that many games are played (the
last batch is cut short). With ``stderr``, sampling stops after the first
round at which every player's standard error is at most ``stderr``;
the first round (:data:`MIN_SAMPLES` games) always runs, so a small early
variance cannot stop it, and ``samples`` (default :data:`MAX_SAMPLES`)
caps the games. A target too small to reach, however tiny (``1e-300``),
plays to that cap. With neither, the target is :data:`DEFAULT_STDERR`.
``samples`` is at most :data:`MAX_SAMPLES` (10**8 games, a standard error
near 0.005% at worst).
"""

from __future__ import annotations

import math
import numbers
import operator
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels import pool
from twoplustwo.kernels.games import resolve
from twoplustwo.odds.players import check_players
from twoplustwo.odds.request import Request
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.odds.sampler import MIN_ACCEPTANCE, OMAHA, Counted, Plays, Sampler, Seat, Tally
from twoplustwo.progress import progress
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.rules import HOLDEM, OWN_CARD_GAMES, check_equity_game

__all__ = [
    "BATCH",
    "DEFAULT_STDERR",
    "MAX_SAMPLES",
    "MIN_ACCEPTANCE",
    "MIN_SAMPLES",
    "Stopping",
    "check_stopping",
    "monte_carlo",
    "play",
    "sample",
]

#: The stderr target (of every player's equity) when neither ``stderr`` nor ``samples`` is given.
DEFAULT_STDERR = 1e-3
#: The most games a call plays: the default of ``samples``, and the most it may ask for.
MAX_SAMPLES = 10**8
#: Games per batch: each batch has its own generator, so this is part of what a seed means.
BATCH = 1 << 15
# Batches per round. The first round is the least a stderr target plays;
# later rounds are sized from the variance seen so far, between the two
# bounds (the lower one keeps several cores busy, the upper one bounds the
# overshoot of a poor early estimate and the wait between stop checks).
_FIRST_ROUND = 8
_MIN_ROUND = 4
_MAX_ROUND = 64
#: The games every ``stderr``-stopped call plays at least (unless ``samples`` is smaller).
MIN_SAMPLES = _FIRST_ROUND * BATCH


def _check_stderr(stderr: object) -> float | None:
    if stderr is None:
        return None
    if isinstance(stderr, bool) or not isinstance(stderr, numbers.Real):
        raise TypeError(f"stderr must be None or a positive number, got {type(stderr).__name__}")
    value = float(stderr)
    if not (math.isfinite(value) and value > 0):
        raise ValueError(f"stderr must be a positive finite number, got {stderr!r}")
    return value


def _check_count(name: str, value: object, least: int) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not hasattr(value, "__index__"):
        raise TypeError(f"{name} must be None or an int, got {type(value).__name__}")
    n = operator.index(value)
    if n < least:
        kind = "positive" if least == 1 else "non-negative"
        raise ValueError(f"{name} must be None or a {kind} int, got {n}")
    return int(n)


def _check_game(game: object) -> str:
    """``game`` checked, as the plain name a str subclass of it may stand for: a game with a board."""
    name = check_equity_game(game)
    if name in OWN_CARD_GAMES:
        raise ValueError(f"monte_carlo plays games with a board; {name} is played by equity(..., game={name!r})")
    return name


#: ``stderr``, ``samples`` and ``seed`` checked (:func:`check_stopping`).
Stopping = tuple[float | None, int | None, int | None]


def check_stopping(stderr: object, samples: object, seed: object) -> Stopping:
    """``stderr``, ``samples`` and ``seed`` checked as :func:`monte_carlo` takes them, as a float and ints.

    Every caller that may sample checks them here before it chooses how to
    count, so that a bad one is refused whether it then samples or not.

    >>> check_stopping(0.001, 10**6, 7)
    (0.001, 1000000, 7)
    >>> check_stopping(None, -1, None)
    Traceback (most recent call last):
    ...
    ValueError: samples must be None or a positive int, got -1
    """
    target = _check_stderr(stderr)
    cap = _check_count("samples", samples, 1)
    if cap is not None and cap > MAX_SAMPLES:
        # Far more games than any answer needs, which would run for hours or for ever.
        shown = f"{cap:,}" if cap < 10**30 else "more than 10**30"
        raise ValueError(f"samples must be at most {MAX_SAMPLES:,} (MAX_SAMPLES), got {shown}")
    return target, cap, _check_count("seed", seed, 0)


def monte_carlo(
    players: Sequence[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
    labels: Sequence[str],
    ranged: Sequence[bool],
    board: Sequence[int],
    dead: Sequence[int],
    *,
    stderr: float | None = None,
    samples: int | None = None,
    seed: int | None = None,
    game: str = HOLDEM,
    tables: Tables | None = None,
    threads: int | None = None,
    quiet: bool = False,
) -> list[PlayerEquity]:
    """Sampled win, tie and equity of 2 to 9 players, each a hand or a weighted range.

    ``players`` holds per player ``(combos, weights)``: an ``(n, k)`` array
    of card ints (k = 2; 4 to 6 in Omaha) and ``n`` weights in (0, 1].
    Combos of one player may share cards with another's (the sampler
    rejects such deals) but none may touch ``board`` (0 to 5 known cards)
    or ``dead``, or hold a card outside the game's deck: the caller removes
    those. ``labels`` name the players in the results and ``ranged`` says
    who gets a per-combo breakdown. ``game`` is ``"holdem"``,
    ``"short-deck"``, ``"short-deck-classic"``, ``"omaha"`` or ``"omaha-hilo"``.

    Each result's ``games`` counts the sampled games, ``wins`` those whose
    whole pot the player takes alone and ``ties`` those they take part of;
    ``equity`` is the mean share of the pot and ``stderr`` its standard
    error. A ranged player's ``combo_games`` counts the games each combo
    played (they sum to ``games``) and ``combo_equity`` is each combo's mean
    share, ``nan`` for a combo never drawn (one that every deal of the
    others blocks, or a rare one in a short run). ``stderr`` is ``nan``
    after a single game (``samples=1``).

    Stops as the module docstring says: ``stderr`` a positive number (one
    too small to reach plays ``samples`` games), ``samples`` a positive int
    of at most :data:`MAX_SAMPLES`, ``seed`` ``None`` (fresh entropy) or a
    non-negative int; otherwise ``TypeError`` or ``ValueError`` naming the
    argument. Batches run on ``threads`` threads (default: one per CPU). A
    long run shows a progress bar of games on a terminal unless ``quiet``.
    Raises ``ValueError`` when no deal is compatible, when compatible deals
    are under :data:`MIN_ACCEPTANCE` of those drawn, or when too few cards
    are left to deal.
    """
    workers = pool.resolve_threads(threads)
    stopping = check_stopping(stderr, samples, seed)
    variant = _check_game(game)
    # Another game's deck comes from its tables; hold'em's (and Omaha's)
    # cards are checked before any table is loaded.
    table_game = HOLDEM if variant in OMAHA else variant
    g = resolve(table_game, tables) if table_game != HOLDEM else None
    known = [int(c) for c in board]
    out = [int(c) for c in dead]
    deck = range(52) if g is None else g.deck
    checked = check_players(players, labels, ranged, [*known, *out], variant in OMAHA, deck)
    if g is None:
        g = resolve(HOLDEM, tables)
    return sample(Request(checked, known, out, g, variant, workers, quiet), stopping)


def sample(request: Request, stopping: Stopping) -> list[PlayerEquity]:
    """Monte Carlo equity of a checked :class:`~twoplustwo.odds.request.Request`, stopped as ``stopping`` says.

    What :func:`monte_carlo` returns, for players and stopping rules already
    checked (:func:`twoplustwo.equity` checks them once and comes here).
    """
    root = np.random.SeedSequence(stopping[2])
    people = [Seat(p) for p in request.players]
    sampler = Sampler(people, request.board, request.dead, root, request.game, request.variant)
    total = play(sampler, people, sampler.pot, stopping, request.workers, request.quiet)
    return _results(total, people, request.labels)


def play(
    sampler: Plays, seats: Sequence[Counted], pot: int, stopping: Stopping, workers: int, quiet: bool
) -> Tally:
    """The games ``sampler`` plays for ``seats`` until ``stopping`` holds, summed into one :class:`Tally`.

    ``stopping`` is checked (:func:`check_stopping`): a stderr target, a cap
    of games, both, or neither (the target :data:`DEFAULT_STDERR`, the cap
    :data:`MAX_SAMPLES`); its seed is the sampler's already. Every route of
    Monte Carlo equity plays through here, with a progress bar of games on a
    terminal unless ``quiet``.
    """
    target, cap, _ = stopping
    if target is None and cap is None:
        target = DEFAULT_STDERR
    if cap is None:
        cap = MAX_SAMPLES
    total = Tally(seats, pot)
    with progress(cap if target is None else None, "games", quiet=quiet) as update:
        sample_rounds(sampler, total, workers, cap, target, update)
    return total


def sample_rounds(
    sampler: Plays, total: Tally, workers: int, cap: int, target: float | None, update: Callable[[int], object]
) -> None:
    """Play rounds of batches into ``total`` until the stopping rule holds.

    Looked up in the module at each call: tests replace it to see a call get this far.
    """
    # Without a target nothing is checked between rounds: no short first round.
    rounds = _FIRST_ROUND if target is not None else _MAX_ROUND
    while total.games < cap:
        left = cap - total.games
        sizes = [min(BATCH, left - BATCH * b) for b in range(min(rounds, -(-left // BATCH)))]
        first = total.games // BATCH  # only the last batch is ever short
        # A few runs of consecutive batches a thread, rather than a task a
        # batch: each task's Python work holds the GIL, which the other
        # threads then wait for (two threads played 1.65x one, now 1.8x).
        # The sums are exact, so the grouping changes nothing.
        parts = min(len(sizes), 2 * workers) if workers > 1 else 1
        cuts = [len(sizes) * k // parts for k in range(parts + 1)]
        starts = [first + cuts[k] for k in range(parts)]
        runs = [sizes[cuts[k] : cuts[k + 1]] for k in range(parts)]
        for tally in pool.run(min(workers, parts), sampler.play, starts, runs):
            total.add(tally)
        update(sum(sizes))
        if target is None:
            rounds = _MAX_ROUND
            continue
        variances = total.variances()
        if max(math.sqrt(v / total.games) for v in variances) <= target:
            break
        # Games the noisiest player needs for the target, with some margin:
        # inf for a target so small that its square underflows, which the
        # cap then stops.
        need = 1.05 * max(variances) / target / target - total.games
        rounds = max(_MIN_ROUND, math.ceil(min(_MAX_ROUND, need / BATCH)))


def _results(total: Tally, players: list[Seat], labels: Sequence[str]) -> list[PlayerEquity]:
    n = total.games
    out = []
    for p, (player, label, err) in enumerate(zip(players, labels, total.stderrs())):
        combos = games = shares = None
        g, u = total.combo_games[p], total.combo_units[p]
        if g is not None and u is not None:
            combos = player.combos
            games = g.astype(np.float64)
            with np.errstate(invalid="ignore", divide="ignore"):
                shares = u / (total.pot * games)
            shares[g == 0] = np.nan
        out.append(
            PlayerEquity(
                label,
                n,
                int(total.wins[p]),
                int(total.ties[p]),
                total.units[p] / (total.pot * n),
                err,
                combos,
                games,
                shares,
            )
        )
    return out
