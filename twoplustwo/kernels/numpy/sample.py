"""Sampled hold'em games, the numpy twin of the C core's ``sample_games`` (``kernels/c/sample.c``).

:func:`sample_games` plays a batch of Monte Carlo games of players who each
hold a fixed hand or a uniformly random one (:data:`twoplustwo.vocab.draws.RANDOM`),
and adds up who won: the numpy walker's ``sample_games``. Both backends deal the very same games from the same key,
so a seed gives the same tallies on either, bit for bit.

**The generator** is part of what a seed means. All arithmetic is modulo
2**64. A batch has a 64-bit key (from its ``SeedSequence``), and game ``g``
(0, 1, ... within the batch) reads the words
``word(g, j) = mix(key + (j * 2**32 + g) * GAMMA)`` for ``j = 0, 1, ...``, where
``GAMMA = 0x9E3779B97F4A7C15`` and ``mix`` is the splitmix64 finalizer
(``z ^= z >> 30``, ``z *= 0xBF58476D1CE4E5B9``, ``z ^= z >> 27``,
``z *= 0x94D049BB133111EB``, ``z ^= z >> 31``): output number ``j * 2**32 + g``
of SplitMix64 started at the key. Word ``j`` of a batch's games is a run of
consecutive SplitMix64 outputs, the runs 2**32 apart (a batch has fewer
than 2**32 games), and a game's words depend on ``(key, g, j)`` alone: the
same whoever plays the game and whatever was played before.

**The deal.** The cards no fixed hand, board card or dead card holds, in
increasing order, make a deck of ``left`` cards. Draw ``t`` takes a position
``p`` uniform in ``[0, s)``, ``s = left - t``, deals the card there and moves
the last live card (position ``s - 1``) into its place: a partial
Fisher-Yates shuffle, from the sorted deck for every game. Random players
take draws ``2r`` and ``2r + 1`` (``r``: their order among the random
players), then the missing board cards the rest.

Positions come in groups (:func:`groups`): a group takes consecutive draws
while the product ``S`` of their bounds stays at most :data:`GROUP_LIMIT`,
and reads the game's next unused word ``x``: each draw in turn splits
``x * s`` into its high 64 bits (the position) and its low 64 bits (the next
``x``). So ``word * S = P * 2**64 + x_last``, with ``P`` the positions read as
one mixed-radix number in ``[0, S)``: Lemire's multiply-shift on the range
``S``. If ``x_last < 2**64 % S`` the group is rejected and drawn again from
the next word, which leaves every tuple of positions exactly
``2**64 // S`` accepted words: exactly uniform, no modulo bias. Rejections
are rare (odds under ``S / 2**64 <= 2**-16`` a group), and vectorised
here by drawing every game as if there were none, then dealing again,
one by one, the few games where one happened.

Every ordered deal of distinct cards is then equally likely, so the deal
is uniform over compatible deals: for random players (every combo of the
cards left, equal weights) it is the distribution that whole-deal
rejection samples.

>>> g = groups([48, 47, 46, 45, 44, 43, 42])  # heads-up, a fixed hand against a random one
>>> g == [(0, 7, 2**64 % (48 * 47 * 46 * 45 * 44 * 43 * 42))]
True
>>> positions(12345, 3, [48, 47, 46, 45, 44, 43, 42])[0].shape  # key 12345, games 0..2
(3, 7)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import ALL_CARDS, array, long, mask
from twoplustwo.kernels.pots import POT_UNITS, shares
from twoplustwo.vocab.draws import RANDOM

if TYPE_CHECKING:
    from twoplustwo.kernels.interface import I64, U8
    from twoplustwo.kernels.numpy.walker import Dags

__all__ = [
    "GAMMA",
    "GROUP_LIMIT",
    "STRIDE",
    "combo_rows",
    "groups",
    "mix",
    "positions",
    "sample_games",
    "shuffle",
]

#: The odd constant that steps the counters of the generator (2**64 over the golden ratio).
GAMMA = 0x9E3779B97F4A7C15
#: From word ``j`` of a game to word ``j + 1``: ``2**32 * GAMMA``.
STRIDE = (GAMMA << 32) & ((1 << 64) - 1)
#: The largest product of the bounds of one group of draws.
GROUP_LIMIT = 1 << 48

_MASK = (1 << 64) - 1
_M1, _M2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB
_N_COMBOS = 1326
_MAX_PLAYERS = 9

U64 = npt.NDArray[np.uint64]


def mix(z: U64) -> U64:
    """The splitmix64 finalizer of each entry (uint64, wrapping as C does)."""
    z = (z ^ (z >> np.uint64(30))) * np.uint64(_M1)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(_M2)
    out: U64 = z ^ (z >> np.uint64(31))
    return out


def _mix(z: int) -> int:
    """:func:`mix` of one Python int."""
    z = (z ^ z >> 30) * _M1 & _MASK
    z = (z ^ z >> 27) * _M2 & _MASK
    return z ^ z >> 31


def groups(bounds: Sequence[int]) -> list[tuple[int, int, int]]:
    """The groups of draws with these bounds: ``(first, end, threshold)``, a word rejected below ``threshold``.

    A group takes draws in order while the product ``S`` of their bounds
    stays at most :data:`GROUP_LIMIT`; its threshold is ``2**64 % S``.
    """
    out = []
    t = 0
    while t < len(bounds):
        first, product = t, 1
        while t < len(bounds) and product * bounds[t] <= GROUP_LIMIT:
            product *= bounds[t]
            t += 1
        out.append((first, t, (1 << 64) % product))
    return out


def _deal_positions(key: int, g: int, bounds: Sequence[int]) -> list[int]:
    """Game ``g``'s positions, one Python int at a time, rejections and all."""
    j = 0
    out: list[int] = []
    for first, end, threshold in groups(bounds):
        while True:
            x = _mix((key + (j * 2**32 + g) * GAMMA) & _MASK)
            j += 1
            drawn = []
            for s in bounds[first:end]:
                m = x * s
                drawn.append(m >> 64)
                x = m & _MASK
            if x >= threshold:
                break
        out.extend(drawn)
    return out


def positions(key: int, n: int, bounds: Sequence[int]) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """The positions of games ``0..n-1`` (``(n, len(bounds))``), and the games where some group was rejected."""
    base = np.uint64(key) + np.arange(n, dtype=np.uint64) * np.uint64(GAMMA)
    out = np.empty((n, len(bounds)), dtype=np.intp)
    rejected = np.zeros(n, dtype=bool)
    low = np.uint64(0xFFFFFFFF)
    for q, (first, end, threshold) in enumerate(groups(bounds)):
        x = mix(base + np.uint64(q * STRIDE & _MASK))
        for t in range(first, end):
            s = np.uint64(bounds[t])
            # The high half of a 128-bit x * s from 32-bit halves: s < 2**6, so nothing overflows.
            out[:, t] = ((x >> np.uint64(32)) * s + ((x & low) * s >> np.uint64(32))) >> np.uint64(32)
            x = x * s
        rejected |= x < np.uint64(threshold)
    redo = np.flatnonzero(rejected)
    for g in redo.tolist():
        out[g] = _deal_positions(key, g, bounds)
    return out, redo


def combo_rows(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> npt.NDArray[np.intp]:
    """The :data:`~twoplustwo.vocab.combos.COMBOS` row of each pair of distinct cards, either order."""
    lo = np.minimum(a, b).astype(np.intp)
    hi = np.maximum(a, b).astype(np.intp)
    out: npt.NDArray[np.intp] = lo * (103 - lo) // 2 + hi - lo - 1
    return out


def sample_games(
    w: Dags, hands: U8, board: U8, dead: U8, key: int, n: int, counts: I64, combos: I64, /
) -> bool:
    """``Walker.sample_games``: play games ``0..n-1`` of the batch keyed ``key`` and add their tallies.

    On another game's walker nothing is played and the answer is False (the
    sampled equity of hold'em alone is played whole in a kernel). The
    checks and their messages are C's:
    ``hands`` (players, 2) uint8, a fixed hand's cards or :data:`RANDOM`
    twice; ``board`` 0 to 5 cards and ``dead`` cards, uint8; ``n`` from 0 to
    2**32 - 1; ``counts`` (players, 5) int64 gains each player's wins, ties,
    units, squared units and games; ``combos`` (random players, 2, 1326)
    int64 gains each random player's games and units per combo.
    """
    key, n = mask(key), long(n)  # the scalars before the buffers, as C reads them
    hands, board, dead = array(hands), array(board), array(dead)
    counts, combos = array(counts, writable=True), array(combos, writable=True)
    layers = w.layers(7) if w.deck == ALL_CARDS and not w.derived else None
    if hands.ndim != 2 or hands.itemsize != 1 or hands.shape[1] != 2 or not 2 <= hands.shape[0] <= _MAX_PLAYERS:
        raise ValueError("hands must be a C-contiguous (players, 2) uint8 array of 2 to 9 players")
    if board.ndim != 1 or board.itemsize != 1 or board.shape[0] > 5:
        raise ValueError("board must be a uint8 array of 0 to 5 cards")
    if dead.ndim != 1 or dead.itemsize != 1:
        raise ValueError("dead must be a uint8 array of cards")
    if not 0 <= n <= 2**32 - 1:
        raise ValueError("n must be 0 to 2**32 - 1 games")
    # One copy of each, checked and played from: the caller may change its arrays.
    rows = hands.view(np.uint8).tolist()
    known = board.view(np.uint8).tolist()
    out = dead.view(np.uint8).tolist()
    random = [a == RANDOM and b == RANDOM for a, b in rows]
    fixed = [c for row, r in zip(rows, random) if not r for c in row]
    cards = fixed + known + out
    if max(cards, default=0) > 51:
        raise ValueError("a hand is two cards 0..51, or 255 twice for a random hand; board and dead cards are 0..51")
    if len(set(cards)) != len(cards):
        raise ValueError("a card is held twice among the hands, the board and the dead cards")
    deck = sorted(set(range(52)) - set(cards))
    randoms = sum(random)
    draws = 2 * randoms + 5 - len(known)
    if len(deck) < draws:
        raise ValueError("too few cards are left to deal the random hands and the board")
    if counts.dtype != np.int64 or counts.nbytes != len(rows) * 5 * 8:
        raise ValueError("counts must be a C-contiguous (players, 5) int64 array")
    if combos.dtype != np.int64 or combos.nbytes != randoms * 2 * _N_COMBOS * 8:
        raise ValueError("combos must be a C-contiguous (random players, 2, 1326) int64 array")
    if layers is None:
        return False
    dealt = shuffle(deck, positions(key, n, [len(deck) - t for t in range(draws)])[0])
    values = _values(layers, rows, random, known, dealt)
    units = shares(values)
    tally = counts.reshape(len(rows), 5)
    per_combo = combos.reshape(randoms, 2, _N_COMBOS)
    r = 0
    for p, row in enumerate(units):
        wins = int(np.count_nonzero(row == POT_UNITS))
        tally[p] += (wins, int(np.count_nonzero(row)) - wins, int(row.sum()), int(np.dot(row, row)), n)
        if random[p]:
            at = combo_rows(dealt[:, 2 * r], dealt[:, 2 * r + 1])
            per_combo[r, 0] += np.bincount(at, minlength=_N_COMBOS)
            # Float sums of integers this small (under 2**53) are exact.
            per_combo[r, 1] += np.bincount(at, weights=row, minlength=_N_COMBOS).astype(np.int64)
            r += 1
    return True


def shuffle(deck: Sequence[int], at: npt.NDArray[np.intp]) -> npt.NDArray[np.uint8]:
    """The cards each row of positions ``at`` deals from ``deck`` by the partial Fisher-Yates shuffle, ``(n, draws)``.

    Draw ``t`` deals the card at position ``at[:, t]`` and moves the last of
    the ``len(deck) - t`` live cards into its place.

    >>> shuffle([10, 20, 30, 40], np.array([[0, 0, 1], [3, 2, 0]])).tolist()
    [[10, 40, 20], [40, 30, 10]]
    """
    n, draws = at.shape
    left = len(deck)
    cards = np.tile(np.array(deck, dtype=np.uint8), (n, 1))
    games = np.arange(n)
    dealt = np.empty((n, draws), dtype=np.uint8)
    for t in range(draws):
        p = at[:, t]
        dealt[:, t] = cards[games, p]
        cards[games, p] = cards[:, left - 1 - t]
    return dealt


def _values(
    layers: list[npt.NDArray[np.unsignedinteger[Any]]],
    rows: list[list[int]],
    random: list[bool],
    known: list[int],
    dealt: npt.NDArray[np.uint8],
) -> npt.NDArray[np.uint16]:
    """Each player's value in each game, ``(players, n)``: the board walked once, then each player's two cards."""
    n = len(dealt)
    randoms = sum(random)
    node = np.zeros(n, dtype=np.intp)
    for layer, card in zip(layers, [*known, *dealt[:, 2 * randoms :].T]):
        node = layer.take(node * 52 + card).astype(np.intp)
    values = np.empty((len(rows), n), dtype=np.uint16)
    r = 0
    for p, (row, is_random) in enumerate(zip(rows, random)):
        a, b = (dealt[:, 2 * r], dealt[:, 2 * r + 1]) if is_random else row
        r += is_random
        values[p] = layers[6].take(layers[5].take(node * 52 + a).astype(np.intp) * 52 + b)
    return values
