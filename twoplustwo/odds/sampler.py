"""Playing sampled games: deals drawn from the players' ranges, boards from the rest, pots split.

:class:`Sampler` plays a batch of games for :func:`twoplustwo.odds.montecarlo.monte_carlo`
and tallies them (:class:`Tally`); the same batch index and size always
play the same games. Deals are drawn by whole-deal rejection, boards one
card at a time from random bytes, and pots split by :mod:`twoplustwo.kernels.pots`.

Hold'em games whose players each hold one hand or a uniformly random one
(a range of every combo of the cards left, equal weights) are played whole
by the walker's ``sample_games`` instead, one call a batch, without the
GIL in C: the deal comes from counter-based random words keyed by the
batch (:mod:`twoplustwo.kernels.numpy.sample` says exactly how), uniform over
the compatible deals, which is the distribution whole-deal rejection
samples for such players.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Protocol

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.batch import walk_batch
from twoplustwo.hands.omaha import evaluate_omaha_batch, evaluate_omaha_low_batch
from twoplustwo.kernels.games import Game, walker_of
from twoplustwo.kernels.pots import HILO_UNIT, POT_UNITS, hilo_shares, outcomes, shares
from twoplustwo.odds.players import CheckedPlayer, any_deal
from twoplustwo.vocab.combos import COMBO_ROW, N_COMBOS
from twoplustwo.vocab.draws import RANDOM
from twoplustwo.vocab.rules import HOLDEM, OMAHA_GAMES

__all__ = ["MIN_ACCEPTANCE", "OMAHA", "Counted", "Plays", "Sampler", "Seat", "Tally", "batch_seed", "hand_rows"]

#: The fewest compatible deals, as a share of the drawn ones, that rejection sampling accepts.
MIN_ACCEPTANCE = 1e-3
#: The Omaha games a sampler plays, besides the table games.
OMAHA = OMAHA_GAMES

# Deals drawn up front to measure how often deals are compatible.
_PILOT = 1 << 16
# Candidate deals drawn at once while filling a batch: bounds the memory.
_MAX_DRAW = 1 << 18

_BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)
# A bit no card uses: set in every deal's held cards, it marks a random
# byte that picks no card as taken.
_SENTINEL = np.uint64(1 << 63)


class Seat:
    """One player's combos, how to draw them, and their cards as bit masks."""

    def __init__(self, player: CheckedPlayer) -> None:
        combos, weights, ranged = player.combos, player.weights, player.ranged
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


class Counted(Protocol):
    """What a :class:`Tally` asks of a player: how many combos, and whether it breaks down per combo."""

    @property
    def n(self) -> int: ...
    @property
    def ranged(self) -> bool: ...


class Plays(Protocol):
    """What plays batches of games: the pot's units, and ``play(first, sizes)`` (as :meth:`Sampler.play`)."""

    pot: int

    def play(self, first: int, sizes: Sequence[int]) -> Tally: ...


def batch_seed(root: np.random.SeedSequence, index: int) -> np.random.SeedSequence:
    """The seed of batch ``index`` of the games ``root`` seeds: from ``root`` and ``index`` alone, so a batch plays
    the same games whichever thread plays it, and after whichever batches came before."""
    return np.random.SeedSequence(root.entropy, spawn_key=(*root.spawn_key, index))


class Tally:
    """Sums over games: per player wins, ties, pot units and squared units; per combo games and units."""

    def __init__(self, players: Sequence[Counted], pot: int) -> None:
        k = len(players)
        self.pot = pot
        self.games = 0
        self.wins = np.zeros(k, dtype=np.int64)
        self.ties = np.zeros(k, dtype=np.int64)
        self.units = [0] * k
        self.squares = [0] * k
        self.combo_games = [np.zeros(p.n, dtype=np.int64) if p.ranged else None for p in players]
        self.combo_units = [np.zeros(p.n, dtype=np.int64) if p.ranged else None for p in players]

    def add(self, other: Tally) -> None:
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


class Sampler:
    """Plays batches of games; the same batch index and size always play the same games."""

    def __init__(
        self,
        players: list[Seat],
        board: list[int],
        dead: list[int],
        root: np.random.SeedSequence,
        table_game: Game,
        game: str | None = None,
    ) -> None:
        self.players = players
        # The game as the caller resolved it, once: its deck, walker and tables
        # (hold'em's for Omaha, ``game`` naming the Omaha variant).
        self.table_game = table_game
        self.tables = table_game.tables
        self.game = game = table_game.name if game is None else game
        deck = table_game.deck
        self.pot = HILO_UNIT if game == "omaha-hilo" else POT_UNITS
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
        self.whole = self._whole_games(board, dead)
        self.rate = 1.0
        if self.clashing and self.whole is None:
            self.rate = self._acceptance(np.random.default_rng(pilot))

    def _whole_games(self, board: list[int], dead: list[int]) -> _Whole | None:
        """How the walker plays these games whole (``sample_games``), or None if it cannot.

        It can in hold'em when every player holds either one hand (the hands
        sharing no card) or, with equal weights, every combo of the cards
        left (its combos that touch no hand, each once), and the walker
        serves the game.
        """
        if self.game != HOLDEM:
            return None
        fixed = [int(c) for p in self.players if p.n == 1 for c in p.combos[0]]
        left = sorted(set(range(52)) - set(board) - set(dead) - set(fixed))
        if len(set(fixed)) != len(fixed):
            return None  # the hands clash: _acceptance says so
        hands = np.full((len(self.players), 2), RANDOM, dtype=np.uint8)
        rows: list[npt.NDArray[np.intp] | None] = []
        for p, player in enumerate(self.players):
            if player.n == 1:
                hands[p] = player.combos[0]
                rows.append(None)
                continue
            if player.cdf is not None or player.combos.shape[1] != 2:
                return None
            row = COMBO_ROW[player.combos[:, 0], player.combos[:, 1]]
            live = row[~np.isin(player.combos, fixed).any(axis=1)]
            if len(live) != len(left) * (len(left) - 1) // 2 or len(np.unique(live)) != len(live):
                return None
            rows.append(row)
        ranged = [p.ranged for p in self.players]
        whole = _Whole(hands, np.array(board, dtype=np.uint8), np.array(dead, dtype=np.uint8), rows, ranged)
        # Nothing played (n = 0): whether the walker serves the game at all.
        served = walker_of(self.tables).sample_games(whole.hands, whole.board, whole.dead, 0, 0, *whole.tallies())
        return whole if served else None

    def _acceptance(self, rng: np.random.Generator) -> float:
        """The share of independently drawn deals that are compatible, measured on a pilot sample.

        Raises ``ValueError`` when there is no compatible deal or too few
        for rejection sampling.
        """
        found = any_deal([sorted({int(m) for m in p.masks}) for p in self.players])
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
        raw = _random_bytes(rng, self.missing * n).astype(np.intp).reshape(self.missing, n)
        for byte, cards in zip(raw, self.byte_cards):
            bit = self.byte_bits.take(byte)
            again = np.flatnonzero((held & bit) != 0)
            while len(again):
                redo = _random_bytes(rng, len(again)).astype(np.intp)
                byte[again] = redo
                bit[again] = self.byte_bits.take(redo)
                again = again[(held[again] & bit[again]) != 0]
            held |= bit
            board |= cards.take(byte)
        return board

    def play(self, first: int, sizes: Sequence[int]) -> Tally:
        """Play batches ``first, first + 1, ...`` of ``sizes`` games, their tallies summed.

        The same batches give the same sum however they are grouped into calls.
        """
        if self.whole is not None:
            return self._whole_batches(first, sizes, self.whole)
        total = Tally(self.players, self.pot)
        for index, n in enumerate(sizes, start=first):
            total.add(self.batch(index, n))
        return total

    def _seq(self, index: int) -> np.random.SeedSequence:
        return batch_seed(self.batches, index)

    def batch(self, index: int, n: int) -> Tally:
        """Play ``n`` games with batch ``index``'s generator."""
        if self.whole is not None:
            return self._whole_batches(index, [n], self.whole)
        rng = np.random.default_rng(self._seq(index))
        players = self.players
        idx = self._deals(rng, n)
        held = players[0].masks[idx[0]]
        for p, i in zip(players[1:], idx[1:]):
            held = held | p.masks[i]
        board = self._board(rng, held)
        if self.game in OMAHA:
            return self._score(self._omaha_shares(board, idx), idx)
        words = np.empty((len(players), n), dtype=np.uint64)
        for w, p, i in zip(words, players, idx):
            np.bitwise_or(p.words[i], board, out=w)
        # One call for all players; the threads are spent on batches instead.
        # The rows hold distinct cards, yet checked: a checked batch of
        # hold'em hands reads the keyed tables, 3x the DAG walk on random hands.
        g = self.table_game
        values = walk_batch(hand_rows(words.ravel()), g.layers(7), g.walker, check=True, game=g)
        return self._score(shares(values.reshape(len(players), n)), idx)

    def _whole_batches(self, first: int, sizes: Sequence[int], whole: _Whole) -> Tally:
        """Play batches ``first, ...`` whole in the walker, each keyed by the first 64 bits of its generator.

        The walker adds each batch's tallies to the same arrays, read into one :class:`Tally` at the end.
        """
        counts, combos = whole.tallies()
        for index, n in enumerate(sizes, start=first):
            key = int(self._seq(index).generate_state(1, np.uint64)[0])
            walker_of(self.tables).sample_games(whole.hands, whole.board, whole.dead, key, n, counts, combos)
        tally = Tally(self.players, self.pot)
        tally.games = games = sum(sizes)
        tally.wins[:] = counts[:, 0]
        tally.ties[:] = counts[:, 1]
        tally.units = counts[:, 2].tolist()
        tally.squares = counts[:, 3].tolist()
        for p, r, row in whole.breakdowns:
            if row is None:  # a range of one combo
                tally.combo_games[p], tally.combo_units[p] = np.array([games]), np.array([tally.units[p]])
            else:
                tally.combo_games[p], tally.combo_units[p] = combos[r].take(row, axis=1)
        return tally

    def _omaha_shares(self, board: npt.NDArray[np.uint64], idx: list[npt.NDArray[np.intp]]) -> npt.NDArray[np.int64]:
        boards = np.ascontiguousarray(board.astype("<u8").view(np.uint8).reshape(-1, 8)[:, 2:7])
        holes = [p.combos[i] for p, i in zip(self.players, idx)]
        high = np.stack([evaluate_omaha_batch(h, boards, tables=self.tables, threads=1) for h in holes])
        if self.game == "omaha":
            return shares(high)
        low = np.stack([evaluate_omaha_low_batch(h, boards, threads=1) for h in holes])
        return hilo_shares(high, low)

    def _score(self, units: npt.NDArray[np.int64], idx: list[npt.NDArray[np.intp]]) -> Tally:
        """The tally of games whose pots went ``units`` (players x games, in units of :attr:`pot`)."""
        tally = Tally(self.players, self.pot)
        tally.games = units.shape[1]
        for p, (player, row, (wins, ties, total), i) in enumerate(
            zip(self.players, units, outcomes(units, self.pot), idx)
        ):
            tally.wins[p], tally.ties[p], tally.units[p] = wins, ties, total
            tally.squares[p] = int(np.dot(row, row))
            if player.ranged:
                tally.combo_games[p] = np.bincount(i, minlength=player.n)
                # Float sums of integers this small (under 2**53) are exact.
                tally.combo_units[p] = np.bincount(i, weights=row, minlength=player.n).astype(np.int64)
        return tally


class _Whole:
    """What the walker's ``sample_games`` needs to play one sampler's games, but the keys and counts."""

    def __init__(
        self,
        hands: npt.NDArray[np.uint8],
        board: npt.NDArray[np.uint8],
        dead: npt.NDArray[np.uint8],
        rows: list[npt.NDArray[np.intp] | None],
        ranged: list[bool],
    ) -> None:
        self.hands, self.board, self.dead = hands, board, dead
        self.randoms = sum(row is not None for row in rows)
        # Per ranged player (p, r, row): its seat, its order among the
        # players dealt at random and each of its combos' COMBOS row; r and
        # row are None for a range of one combo, a fixed hand.
        self.breakdowns: list[tuple[int, int, npt.NDArray[np.intp] | None]] = []
        r = 0
        for p, (row, is_range) in enumerate(zip(rows, ranged)):
            if is_range:
                self.breakdowns.append((p, r, row))
            r += row is not None

    def tallies(self) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Fresh zero tallies for the walker to add to: per player, and per random player and combo."""
        return np.zeros((len(self.hands), 5), dtype=np.int64), np.zeros((self.randoms, 2, N_COMBOS), dtype=np.int64)


def _random_bytes(rng: np.random.Generator, k: int) -> npt.NDArray[np.uint8]:
    """``k`` uniform random bytes: eight to a raw 64-bit draw, far cheaper than ``integers`` per card."""
    raw: npt.NDArray[np.uint64] = rng.bit_generator.random_raw(-(-k // 8))
    return raw.view(np.uint8)[:k]


def hand_rows(words: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint8]:
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
