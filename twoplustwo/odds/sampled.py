"""Monte Carlo equity: sampled deals, a standard error, the same answer for a seed.

:func:`monte_carlo` estimates what exact enumeration computes, for hands
and weighted ranges alike, by sampling games: a combo for every player
and a completion of the board. It plays Hold'em, short deck (either rules)
and Omaha (4 to 6 hole cards, high or hi/lo eight or better, pots split as
:mod:`twoplustwo.odds.omaha` splits them).

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
player's combo would favour combos that clash less. When compatible deals
are too rare for that (under :data:`MIN_ACCEPTANCE` of the drawn ones), or
there are none at all, :func:`monte_carlo` raises ``ValueError`` rather
than run for ever.

**Reproducibility.** Games come in batches of :data:`BATCH`, batch ``i``
drawing from its own generator, spawned from ``np.random.SeedSequence(seed)``
by ``i`` alone. Batches run on ``threads`` threads in rounds of a number of
batches that never depends on ``threads``, and the stopping rule is checked
only between rounds, so a seed gives the same result for every ``threads``
and on both backends (whose hand values are identical).

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

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.hands.omaha import evaluate_omaha_batch, evaluate_omaha_low_batch
from twoplustwo.kernels import pool
from twoplustwo.odds.exact import SHARES, SPLIT
from twoplustwo.odds.omaha import HILO_UNIT, hilo_shares
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.progress import progress
from twoplustwo.tables.load import Tables, get_tables
from twoplustwo.vocab.cards import format_cards
from twoplustwo.vocab.games import GAMES, HOLDEM, resolve

__all__ = [
    "BATCH",
    "DEFAULT_STDERR",
    "MAX_SAMPLES",
    "MIN_ACCEPTANCE",
    "MIN_SAMPLES",
    "monte_carlo",
]

#: The stderr target (of every player's equity) when neither ``stderr`` nor ``samples`` is given.
DEFAULT_STDERR = 1e-3
#: The most games a call plays: the default of ``samples``, and the most it may ask for.
MAX_SAMPLES = 10**8
#: Games per batch: each batch has its own generator, so this is part of what a seed means.
BATCH = 1 << 15
#: The fewest compatible deals, as a share of the drawn ones, that rejection sampling accepts.
MIN_ACCEPTANCE = 1e-3

# Batches per round. The first round is the least a stderr target plays;
# later rounds are sized from the variance seen so far, between the two
# bounds (the lower one keeps several cores busy, the upper one bounds the
# overshoot of a poor early estimate and the wait between stop checks).
_FIRST_ROUND = 8
_MIN_ROUND = 4
_MAX_ROUND = 64
#: The games every ``stderr``-stopped call plays at least (unless ``samples`` is smaller).
MIN_SAMPLES = _FIRST_ROUND * BATCH

# Deals drawn up front to measure how often deals are compatible.
_PILOT = 1 << 16
# Nodes the search for one compatible deal may visit before leaving the
# question to the pilot sample.
_SEARCH_BUDGET = 100_000
# Candidate deals drawn at once while filling a batch: bounds the memory.
_MAX_DRAW = 1 << 18

# A k-way split pays 1/k: counted in units of 1/2520, every share is an
# integer and the sums are exact whatever order the batches add up in.
_BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)
# A bit no card uses: set in every deal's held cards, it marks a random
# byte that picks no card as taken.
_SENTINEL = np.uint64(1 << 63)
_MAX_PLAYERS = 9
_OMAHA = ("omaha", "omaha-hilo")


class _Player:
    """One player's combos, how to draw them, and their cards as bit masks."""

    def __init__(self, combos: npt.NDArray[np.uint8], weights: npt.NDArray[np.float64], ranged: bool) -> None:
        self.combos = combos
        self.ranged = ranged
        self.n = len(combos)
        self.masks: npt.NDArray[np.uint64] = np.bitwise_or.reduce(_BIT[combos], axis=1)
        # A two-card combo as the first two bytes of a hand row.
        self.words = combos[:, 0].astype(np.uint64) | combos[:, -1].astype(np.uint64) << np.uint64(8)
        # Equal weights need no table; otherwise the inverse of the cumulative weights.
        self.cdf: npt.NDArray[np.float64] | None = None
        if self.n > 1 and not np.all(weights == weights[0]):
            cdf = np.cumsum(weights)
            self.cdf = cdf / cdf[-1]

    def draw(self, rng: np.random.Generator, m: int) -> npt.NDArray[np.intp]:
        """``m`` combo indices, each drawn in proportion to its weight."""
        if self.n == 1:
            return np.zeros(m, dtype=np.intp)
        if self.cdf is None:
            return rng.integers(0, self.n, size=m, dtype=np.intp)
        idx = np.searchsorted(self.cdf, rng.random(m), side="right")
        # Rounding may leave the last cumulative weight a hair under 1.
        return np.minimum(idx, self.n - 1)


class _Tally:
    """Sums over games: per player wins, ties, pot units and squared units; per combo games and units."""

    def __init__(self, players: Sequence[_Player], pot: int) -> None:
        k = len(players)
        self.pot = pot
        self.games = 0
        self.wins = np.zeros(k, dtype=np.int64)
        self.ties = np.zeros(k, dtype=np.int64)
        self.units = [0] * k
        self.squares = [0] * k
        self.combo_games = [np.zeros(p.n, dtype=np.int64) if p.ranged else None for p in players]
        self.combo_units = [np.zeros(p.n, dtype=np.int64) if p.ranged else None for p in players]

    def add(self, other: _Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.ties += other.ties
        for i in range(len(self.units)):
            self.units[i] += other.units[i]
            self.squares[i] += other.squares[i]
        for mine, theirs in zip(self.combo_games + self.combo_units, other.combo_games + other.combo_units):
            if mine is not None and theirs is not None:
                mine += theirs

    def variances(self) -> list[float]:
        """Each player's sample variance of the per-game share."""
        n = self.games
        if n < 2:
            return [math.inf] * len(self.units)
        # Integers throughout, so the variance of a near-certain result is never negative.
        return [(n * s - u * u) / (self.pot * self.pot * n * (n - 1)) for u, s in zip(self.units, self.squares)]

    def stderrs(self) -> list[float]:
        """Each player's standard error of the equity: nan after a single game, whose variance is unknown."""
        if self.games < 2:
            return [math.nan] * len(self.units)
        return [math.sqrt(v / self.games) for v in self.variances()]


class _Sampler:
    """Plays batches of games; the same batch index and size always play the same games."""

    def __init__(
        self,
        players: list[_Player],
        board: list[int],
        dead: list[int],
        root: np.random.SeedSequence,
        tables: Tables,
        game: str = HOLDEM,
        deck: Sequence[int] = range(52),
    ) -> None:
        self.players = players
        self.tables = tables
        self.game = game
        self.pot = HILO_UNIT if game == "omaha-hilo" else SPLIT
        self.missing = 5 - len(board)
        # A single hand's cards are in every deal: leaving them out of the
        # deck saves redrawing the board cards that would hit them.
        out = set(board) | set(dead) | {int(c) for p in players if p.n == 1 for c in p.combos[0]}
        self.deck = np.array([c for c in deck if c not in out], dtype=np.uint8)
        held = sum(p.combos.shape[1] for p in players if p.n > 1)
        if len(self.deck) - held < self.missing:
            left = len(set(deck) - set(board) - set(dead))
            raise ValueError(
                f"only {left} cards are left for {len(players)} players' hole cards and {self.missing} more board cards"
            )
        # Hand rows are built as words: hole cards in bytes 0 and 1, the board in bytes 2 to 6.
        self.known_word = np.uint64(sum(c << 8 * (2 + j) for j, c in enumerate(board)))
        # A random byte b picks deck card b % size, unless b is past the
        # last whole multiple of the deck size: then it picks none.
        size = len(self.deck)
        picks = np.arange(256) < 256 // max(size, 1) * size
        card = self.deck[np.arange(256) % max(size, 1)].astype(np.uint64) if size else np.zeros(256, np.uint64)
        self.byte_bits = np.where(picks, _BIT[card], _SENTINEL)
        self.byte_cards = [
            np.where(picks, card << np.uint64(8 * (2 + len(board) + j)), np.uint64(0)) for j in range(self.missing)
        ]
        pilot, self.batches = root.spawn(2)
        # Deals need checking only if two players' combos can share a card at all.
        union = [int(np.bitwise_or.reduce(p.masks)) for p in players]
        self.clashing = any(union[i] & union[j] for i in range(len(union)) for j in range(i))
        self.rate = 1.0
        if self.clashing:
            self.rate = self._acceptance(np.random.default_rng(pilot))

    def _acceptance(self, rng: np.random.Generator) -> float:
        """The share of independently drawn deals that are compatible, measured on a pilot sample.

        Raises ``ValueError`` when there is no compatible deal or too few
        for rejection sampling.
        """
        found = _any_deal([sorted({int(m) for m in p.masks}) for p in self.players])
        if found is False:
            raise ValueError("no compatible deal: every choice of one combo per player uses some card twice")
        ok = len(self._candidates(rng, _PILOT)[0])
        if ok < MIN_ACCEPTANCE * _PILOT:
            raise ValueError(
                f"compatible deals are too rare to sample: {ok} of {_PILOT} deals drawn from the ranges "
                f"had no card twice (Monte Carlo needs at least {MIN_ACCEPTANCE:.2%})"
            )
        return ok / _PILOT

    def _candidates(self, rng: np.random.Generator, m: int) -> list[npt.NDArray[np.intp]]:
        """The compatible ones of ``m`` deals drawn independently: each player's combo index, in draw order.

        A deal is dropped at the first player whose combo clashes with the
        cards dealt before, and later players draw only for the deals still
        standing: the same deals survive as if every player drew for all,
        for fewer draws when clashes are common.
        """
        first = self.players[0]
        drawn = [first.draw(rng, m)]
        held = first.masks[drawn[0]]
        kept: list[npt.NDArray[np.intp]] = []
        for p in self.players[1:]:
            i = p.draw(rng, len(held))
            mask = p.masks[i]
            keep = np.flatnonzero((held & mask) == 0)
            drawn.append(i)
            kept.append(keep)
            held = (held | mask)[keep]
        # Follow the survivors back through each step's keep list; the
        # first two players drew for the same deals.
        rows = np.arange(len(held))
        deals = []
        for i, keep in zip(drawn[:0:-1], kept[::-1]):
            rows = keep[rows]
            deals.append(i[rows])
        deals.append(drawn[0][rows])
        return deals[::-1]

    def _deals(self, rng: np.random.Generator, n: int) -> list[npt.NDArray[np.intp]]:
        """Each player's combo index in ``n`` compatible deals, by whole-deal rejection."""
        if not self.clashing:
            return [p.draw(rng, n) for p in self.players]
        parts: list[list[npt.NDArray[np.intp]]] = [[] for _ in self.players]
        have = drawn = 0
        # A backstop only: the pilot has shown the acceptance rate is at
        # least MIN_ACCEPTANCE, so a batch needs about n / rate draws.
        limit = 8 * n / MIN_ACCEPTANCE
        while have < n:
            m = min(_MAX_DRAW, int((n - have) / self.rate * 1.1) + 64)
            deals = self._candidates(rng, m)
            for part, i in zip(parts, deals):
                part.append(i[: n - have])
            have += min(len(deals[0]), n - have)
            drawn += m
            if have < n and drawn > limit:
                raise ValueError(
                    f"compatible deals are too rare to sample: {have} of {drawn} deals drawn had no card twice"
                )
        return [np.concatenate(p) for p in parts]

    def _board(self, rng: np.random.Generator, held: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        """Each deal's board cards packed into bytes 2..6 of a word (the hand row minus the hole cards).

        The missing cards are uniform over the cards no player ``held``,
        drawn one at a time: a random byte picks a deck card (bytes past
        the largest multiple of the deck size count as taken), and a taken
        card is drawn again. Each card is then uniform over the cards left,
        so the whole completion is uniform.
        """
        n = len(held)
        board = np.full(n, self.known_word, dtype=np.uint64)
        if not self.missing:
            return board
        held = held | _SENTINEL
        # take() with intp indices beats indexing with the bytes themselves.
        raw = _bytes(rng, self.missing * n).astype(np.intp).reshape(self.missing, n)
        for byte, cards in zip(raw, self.byte_cards):
            bit = self.byte_bits.take(byte)
            again = np.flatnonzero((held & bit) != 0)
            while len(again):
                redo = _bytes(rng, len(again)).astype(np.intp)
                byte[again] = redo
                bit[again] = self.byte_bits.take(redo)
                again = again[(held[again] & bit[again]) != 0]
            held |= bit
            board |= cards.take(byte)
        return board

    def batch(self, index: int, n: int) -> _Tally:
        """Play ``n`` games with batch ``index``'s generator."""
        seq = self.batches
        rng = np.random.default_rng(np.random.SeedSequence(seq.entropy, spawn_key=(*seq.spawn_key, index)))
        players = self.players
        idx = self._deals(rng, n)
        held = players[0].masks[idx[0]]
        for p, i in zip(players[1:], idx[1:]):
            held = held | p.masks[i]
        board = self._board(rng, held)
        if self.game in _OMAHA:
            return self._score(self._omaha_shares(board, idx), idx)
        words = np.empty((len(players), n), dtype=np.uint64)
        for w, p, i in zip(words, players, idx):
            np.bitwise_or(p.words[i], board, out=w)
        # One call for all players; the threads are spent on batches instead.
        values = evaluate_batch(_rows(words.ravel()), check=False, game=self.game, tables=self.tables, threads=1)
        return self._score(_shares(values.reshape(len(players), n)), idx)

    def _omaha_shares(self, board: npt.NDArray[np.uint64], idx: list[npt.NDArray[np.intp]]) -> npt.NDArray[np.int64]:
        boards = np.ascontiguousarray(board.astype("<u8").view(np.uint8).reshape(-1, 8)[:, 2:7])
        holes = [p.combos[i] for p, i in zip(self.players, idx)]
        high = np.stack([evaluate_omaha_batch(h, boards, tables=self.tables, threads=1) for h in holes])
        if self.game == "omaha":
            return _shares(high)
        low = np.stack([evaluate_omaha_low_batch(h, boards, threads=1) for h in holes])
        return hilo_shares(high, low)

    def _score(self, shares: npt.NDArray[np.int64], idx: list[npt.NDArray[np.intp]]) -> _Tally:
        """The tally of games whose pots went ``shares`` (players x games, in units of :attr:`pot`)."""
        tally = _Tally(self.players, self.pot)
        tally.games = shares.shape[1]
        for p, (player, units, i) in enumerate(zip(self.players, shares, idx)):
            tally.wins[p] = wins = np.count_nonzero(units == self.pot)
            tally.ties[p] = np.count_nonzero(units) - wins
            tally.units[p] = int(units.sum())
            tally.squares[p] = int(np.dot(units, units))
            if player.ranged:
                tally.combo_games[p] = np.bincount(i, minlength=player.n)
                # Float sums of integers this small (under 2**53) are exact.
                tally.combo_units[p] = np.bincount(i, weights=units, minlength=player.n).astype(np.int64)
        return tally


def _shares(values: npt.NDArray[np.uint16]) -> npt.NDArray[np.int64]:
    """Each player's share of each pot (players x games) in units of 1/2520: the best hands split it."""
    top = values == values.max(axis=0)
    share: npt.NDArray[np.int64] = top * SHARES[top.sum(axis=0)]
    return share


def _bytes(rng: np.random.Generator, k: int) -> npt.NDArray[np.uint8]:
    """``k`` uniform random bytes: eight to a raw 64-bit draw, far cheaper than ``integers`` per card."""
    raw: npt.NDArray[np.uint64] = rng.bit_generator.random_raw(-(-k // 8))
    return raw.view(np.uint8)[:k]


def _rows(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
    """``(N, 7)`` contiguous hand rows from words that hold a row each in their low seven bytes.

    Copying seven of every eight bytes costs numpy several nanoseconds a
    row; storing the words seven bytes apart costs a fraction of that. A
    word's top byte then lands on the next row's first byte, so it is made
    that very byte: overlapping stores agree, in whatever order they run.
    """
    n = len(words)
    buf = np.empty(7 * n + 1, dtype=np.uint8)
    top = np.zeros_like(words)
    np.left_shift(words[1:], np.uint64(56), out=top[:-1])
    # Little-endian words whatever the machine's order: byte k of a row is bits 8k..8k+7.
    view: npt.NDArray[np.uint64] = np.ndarray((n,), dtype=np.dtype("<u8"), buffer=buf, strides=(7,))
    np.bitwise_or(words, top, out=view)
    return buf[: 7 * n].reshape(n, 7)


def _any_deal(masks: list[list[int]]) -> bool | None:
    """Whether one mask per player can be chosen with no bit twice; ``None`` if the search ran out of budget."""
    # Small ranges first: they fail soonest, which prunes the search most.
    order = sorted(masks, key=len)
    visited = 0

    class OutOfBudget(Exception):
        pass

    def search(level: int, used: int) -> bool:
        nonlocal visited
        if level == len(order):
            return True
        for m in order[level]:
            visited += 1
            if visited > _SEARCH_BUDGET:
                raise OutOfBudget
            if not m & used and search(level + 1, used | m):
                return True
        return False

    try:
        return search(0, 0)
    except OutOfBudget:
        return None


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


def _check_game(game: object, tables: Tables | None) -> tuple[str, Sequence[int]]:
    """``game`` checked, as the plain name a str subclass of it may stand for, with its deck."""
    if isinstance(game, str) and game in _OMAHA:
        return _OMAHA[_OMAHA.index(game)], range(52)
    if not isinstance(game, str) or game not in GAMES:
        shown = repr(game) if isinstance(game, str) else type(game).__name__
        raise ValueError(f"game must be one of {', '.join((*GAMES, *_OMAHA))}, got {shown}")
    if game == HOLDEM:
        return HOLDEM, range(52)
    g = resolve(game, tables)
    return g.name, g.deck


def _check_players(
    players: Sequence[tuple[npt.NDArray[np.uint8], npt.NDArray[np.float64]]],
    labels: Sequence[str],
    ranged: Sequence[bool],
    taken: Sequence[int] = (),
    game: str = HOLDEM,
    deck: Sequence[int] = range(52),
) -> list[_Player]:
    """The players checked: shapes, cards in the deck and none twice, weights, no combo holding a card of ``taken``."""
    if not 2 <= len(players) <= _MAX_PLAYERS:
        raise ValueError(f"Monte Carlo equity needs 2 to {_MAX_PLAYERS} players, got {len(players)}")
    if len(labels) != len(players) or len(ranged) != len(players):
        raise ValueError(
            f"{len(players)} players need as many labels and ranged flags, got {len(labels)} and {len(ranged)}"
        )
    widths = range(4, 7) if game in _OMAHA else range(2, 3)
    shape = "(n, 4..6)" if game in _OMAHA else "(n, 2)"
    taken_mask = np.uint64(sum(1 << int(t) for t in set(taken)))
    out = []
    for label, (combos, weights), is_range in zip(labels, players, ranged):
        c = np.asarray(combos)
        w = np.asarray(weights, dtype=np.float64)
        if c.ndim != 2 or c.shape[1] not in widths or len(c) == 0 or w.shape != (len(c),):
            raise ValueError(
                f"{label}: needs {shape} combos and (n,) weights with n >= 1, got shapes {c.shape} and {w.shape}"
            )
        if c.dtype.kind not in "iu" or c.min() < deck[0] or c.max() > 51:
            raise ValueError(f"{label}: combos must be card ints {deck[0]}..51")
        rows = np.sort(c, axis=1)
        # Unchecked hand rows with a card twice would get some value, silently.
        if np.any(rows[:, 1:] == rows[:, :-1]):
            raise ValueError(f"{label}: a combo holds a card twice")
        if not np.all((w > 0) & (w <= 1)):
            raise ValueError(f"{label}: weights must be in (0, 1]")
        player = _Player(np.asarray(c, dtype=np.uint8), w, bool(is_range))
        touching = np.flatnonzero(player.masks & taken_mask)
        if len(touching):
            raise ValueError(f"{label}: combo {format_cards(c[touching[0]])} uses a board or dead card")
        out.append(player)
    return out


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
    target = _check_stderr(stderr)
    cap = _check_count("samples", samples, 1)
    if cap is not None and cap > MAX_SAMPLES:
        # Far more games than any answer needs, which would run for hours or for ever.
        shown = f"{cap:,}" if cap < 10**30 else "more than 10**30"
        raise ValueError(f"samples must be at most {MAX_SAMPLES:,} (MAX_SAMPLES), got {shown}")
    root = np.random.SeedSequence(_check_count("seed", seed, 0))
    if target is None and cap is None:
        target = DEFAULT_STDERR
    if cap is None:
        cap = MAX_SAMPLES
    game, deck = _check_game(game, tables)
    known = [int(c) for c in board]
    out = [int(c) for c in dead]
    people = _check_players(players, labels, ranged, [*known, *out], game, deck)
    sampler = _Sampler(people, known, out, root, get_tables(tables), game, deck)

    total = _Tally(people, sampler.pot)
    with progress(cap if target is None else None, "games", quiet=quiet) as update:
        _sample(sampler, total, workers, cap, target, update)
    return _results(total, people, labels)


def _sample(
    sampler: _Sampler, total: _Tally, workers: int, cap: int, target: float | None, update: Callable[[int], object]
) -> None:
    """Play rounds of batches into ``total`` until the stopping rule holds."""
    rounds = _FIRST_ROUND
    while total.games < cap:
        left = cap - total.games
        sizes = [min(BATCH, left - BATCH * b) for b in range(min(rounds, -(-left // BATCH)))]
        first = total.games // BATCH  # only the last batch is ever short
        for tally in pool.run(min(workers, len(sizes)), sampler.batch, range(first, first + len(sizes)), sizes):
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


def _results(total: _Tally, players: list[_Player], labels: Sequence[str]) -> list[PlayerEquity]:
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
