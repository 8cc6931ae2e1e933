"""Equity in games without a board, each player dealt their own cards: stud, stud hi/lo, razz and the draws.

:func:`twoplustwo.equity` comes here for the games of ``OWN_CARD_GAMES`` (:mod:`twoplustwo.vocab.rules`).
A player is the cards known for them: a stud, stud hi/lo or razz player ends
with 7 cards, so a player given four has three more dealt from the deck; a
draw-game player (``lowball-27``, ``lowball-a5``: 5 cards; ``badugi``: 4) is
the cards they keep and draws the rest once. A player given no cards (or
``"random"``) gets a whole random hand. Cards dead to everyone go in ``dead``.

**Exact.** Every completion of each player (the missing cards drawn from the
deck less every known and dead card) is valued once, in one batch through
the game's walker. The games are then every deal of one completion per
player with no card twice, each as likely as another, listed in blocks of
at most ``BLOCK`` (2**20) deals (so memory stays bounded and Ctrl-C stops it
between blocks) and scored by :mod:`twoplustwo.kernels.pots`: hi/lo in
``stud-hilo`` exactly as in ``omaha-hilo``. Heads-up, but in stud hi/lo,
the deals are counted instead of listed (:mod:`twoplustwo.odds.disjoint`:
inclusion-exclusion over the cards of one player's completion) when the
card subsets that takes are at most ``COUNT_ENTRIES`` (2**23): heads-up
razz from third street, 18 billion deals, in about a second.

>>> [(r.games, r.wins, r.ties) for r in equity_of(["As 2d 3c 4h 5s", "Kh 7d 8c 9h Ts"], "razz", "exact")]
[(671580, 671580, 0), (671580, 0, 0)]

``method="auto"`` is exact when the deals are counted (above) or when the
deals to list (the product of the players' completion counts, before those
that share a card are dropped) are at most :data:`AUTO_WORK`; else it samples. ``method="exact"`` refuses
a player with more than :data:`MAX_COMPLETIONS` completions (their values
alone would take too much memory).

**Monte Carlo** deals each player's missing cards uniformly from the deck
less the known and dead cards. Batch ``i`` of :data:`~twoplustwo.odds.montecarlo.BATCH`
games draws from its own generator, spawned from ``np.random.SeedSequence(seed)``
by ``i`` alone, and rounds of batches run as
:func:`~twoplustwo.odds.montecarlo.sample_rounds` runs them: a seed gives the
same result on any number of threads and on both backends.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.hands.stud_low import evaluate_low_batch
from twoplustwo.kernels import pool
from twoplustwo.kernels.games import resolve
from twoplustwo.kernels.pots import HILO_UNIT, POT_UNITS, hilo_shares, outcomes, shares
from twoplustwo.odds import montecarlo
from twoplustwo.odds.disjoint import entries, heads_up
from twoplustwo.odds.montecarlo import Stopping
from twoplustwo.odds.players import check_count
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.odds.sampler import Tally, batch_seed
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import Cards, check_disjoint, format_cards, parse_cards
from twoplustwo.vocab.draws import draw_index
from twoplustwo.vocab.ranges import Range
from twoplustwo.vocab.rules import OWN_CARD_GAMES, rules_of

__all__ = ["AUTO_WORK", "BLOCK", "COUNT_ENTRIES", "FINAL_CARDS", "MAX_COMPLETIONS", "OWN_CARD_GAMES", "equity_of"]

#: The cards each player of a game holds at the showdown: the most its rules value.
FINAL_CARDS = {game: max(rules_of(game).sizes) for game in OWN_CARD_GAMES}
#: ``method="auto"`` enumerates when the product of the players' completion
#: counts is at most this (heads-up stud from fifth street: 861**2 = 741,321).
AUTO_WORK = 2e7
#: The most completions of one player ``method="exact"`` values (a random
#: draw-game hand: C(47, 5) = 1,533,939; a stud player with four cards known: C(45, 3) = 14,190).
MAX_COMPLETIONS = 2_000_000
#: Heads-up (but in stud hi/lo) deals are counted by inclusion-exclusion
#: (:mod:`twoplustwo.odds.disjoint`), whatever their number, when the card
#: subsets that lists are at most this many (heads-up razz from third
#: street: 2 x 163,185 x 16 = 5.2 million: 200 MB peak for the process, 50 MB of it baseline).
COUNT_ENTRIES = 1 << 23
#: Deals listed and scored at once.
BLOCK = 1 << 20

_BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)


class _Deal:
    """A checked question: each player's known cards and label, the cards left to deal, and the game."""

    def __init__(self, players: Sequence[object], board: Cards | None, dead: Cards, game: str, tables: Tables | None):
        if isinstance(players, (str, bytes)):
            raise ValueError("players must be a sequence of hands, e.g. ['As 2d 3c', 'Kh 7d 8c'], not one string")
        check_count(len(players), "equity")
        if board is not None and len(parse_cards(board)):
            raise ValueError(f"{game} has no board: each player holds their own cards (dead cards go in dead=)")
        final = FINAL_CARDS[game]
        self.known = [_player(i, p, game, final) for i, p in enumerate(players)]
        self.dead = parse_cards(dead)
        check_disjoint([(f"hand {i + 1}", h) for i, h in enumerate(self.known)] + [("the dead cards", self.dead)])
        self.g = resolve(game, tables)
        for i, h in enumerate(self.known):
            self.g.check_cards(h, f"hand {i + 1}: card")
        self.g.check_cards(self.dead, "the dead cards: card")
        used = {c for h in self.known for c in h} | set(self.dead)
        self.rest = [c for c in self.g.deck if c not in used]
        self.missing = [final - len(h) for h in self.known]
        if sum(self.missing) > len(self.rest):
            raise ValueError(f"only {len(self.rest)} cards left to deal, the players need {sum(self.missing)} more")
        self.game = game
        self.labels = [format_cards(h) if h else "random" for h in self.known]
        self.hilo = rules_of(game).split_low
        self.pot = HILO_UNIT if self.hilo else POT_UNITS

    def completions(self) -> list[int]:
        """How many completions each player has."""
        return [math.comb(len(self.rest), m) for m in self.missing]

    def values(self, rows: npt.NDArray[np.uint8], workers: int) -> tuple[npt.NDArray[np.uint16], npt.NDArray[np.uint8]]:
        """High values of ``(N, final)`` hands, and their eight-or-better lows in stud hi/lo (else empty)."""
        high = evaluate_batch(rows, check=False, game=self.game, tables=self.g.tables, threads=workers)
        low = evaluate_low_batch(rows) if self.hilo else np.zeros(0, dtype=np.uint8)
        return high, low

    def shares(self, high: npt.NDArray[np.uint16], low: npt.NDArray[np.uint8]) -> npt.NDArray[np.int64]:
        """``(players, games)`` shares of the pots, in units of :attr:`pot`."""
        return hilo_shares(high, low) if self.hilo else shares(high)


def _player(i: int, p: object, game: str, final: int) -> list[int]:
    where = f"player {i + 1}"
    if isinstance(p, Range):
        raise ValueError(f"{where}: a {game} player is the cards known for them, not a range")
    if p is None or (isinstance(p, str) and p.strip().lower() in ("", "random")):
        return []
    try:
        cards = parse_cards(p)  # type: ignore[arg-type]
    except (TypeError, ValueError) as e:
        raise type(e)(f"{where}: {e}") from None
    if len(cards) > final:
        raise ValueError(f"{where}: a {game} player holds at most {final} cards, got {len(cards)}")
    return cards


def equity_of(
    players: Sequence[object],
    game: str,
    method: str,
    stopping: Stopping = (None, None, None),
    *,
    board: Cards | None = None,
    dead: Cards = (),
    tables: Tables | None = None,
    workers: int = 1,
    quiet: bool = False,
) -> list[PlayerEquity]:
    """Each player's :class:`PlayerEquity` in ``game`` (one of :data:`OWN_CARD_GAMES`), as the module says.

    ``method`` and ``stopping`` are checked already (:func:`twoplustwo.equity` does).
    """
    deal = _Deal(players, board, dead, game, tables)
    counts = deal.completions()
    if method == "auto":
        method = "exact" if _counted(deal, counts) or math.prod(counts) <= AUTO_WORK else "monte-carlo"
    if method == "monte-carlo":
        return _sample(deal, stopping, workers, quiet)
    worst = max(counts)
    if worst > MAX_COMPLETIONS:
        raise ValueError(
            f"a player has {worst:,} completions, more than method='exact' values ({MAX_COMPLETIONS:,}); "
            "use method='monte-carlo'"
        )
    return _exact(deal, workers)


def _counted(deal: _Deal, counts: list[int]) -> bool:
    """Whether heads-up inclusion-exclusion counts the deals (:mod:`twoplustwo.odds.disjoint`), within COUNT_ENTRIES."""
    if len(counts) != 2 or deal.hilo:
        return False
    (n_a, n_b), (m_a, m_b) = counts, deal.missing
    return entries(n_a, m_a, m_b) + entries(n_b, m_b, m_a) <= COUNT_ENTRIES


def _exact(deal: _Deal, workers: int) -> list[PlayerEquity]:
    rest = np.array(deal.rest, dtype=np.uint8)
    drawns, masks, highs, lows = [], [], [], []
    for known, m in zip(deal.known, deal.missing):
        drawn = rest[draw_index(len(rest), m)]
        drawns.append(drawn)
        masks.append(np.bitwise_or.reduce(_BIT[drawn], axis=1))
        rows = np.hstack([np.tile(np.array(known, dtype=np.uint8), (len(drawn), 1)), drawn])
        high, low = deal.values(rows, workers)
        highs.append(high)
        lows.append(low)
    if _counted(deal, [len(d) for d in drawns]):
        deals, a_wins, tied = heads_up(drawns[0], highs[0], drawns[1], highs[1])
        b_wins = deals - a_wins - tied
        return [
            PlayerEquity(label, deals, w, tied, (w + tied / 2) / deals, 0.0)
            for label, w in zip(deal.labels, (a_wins, b_wins))
        ]
    n = len(deal.known)
    games, wins, ties, units = 0, [0] * n, [0] * n, [0] * n
    for idx in _deals(masks):
        high = np.stack([h[i] for h, i in zip(highs, idx)])
        low = np.stack([lo[i] for lo, i in zip(lows, idx)]) if deal.hilo else np.zeros(0, dtype=np.uint8)
        games += len(idx[0])
        for p, (w, t, u) in enumerate(outcomes(deal.shares(high, low), deal.pot)):
            wins[p], ties[p], units[p] = wins[p] + w, ties[p] + t, units[p] + u
    if games == 0:
        raise ValueError("no deal gives every player their cards")  # unreachable: enough cards are left
    return [
        PlayerEquity(label, games, w, t, u / (deal.pot * games), 0.0)
        for label, w, t, u in zip(deal.labels, wins, ties, units)
    ]


_Index = list[npt.NDArray[np.intp]]


def _deals(masks: list[npt.NDArray[np.uint64]]) -> Iterator[_Index]:
    """Every deal of one completion per player with no card twice, as index arrays, in blocks of about BLOCK."""

    def extend(level: int, idx: _Index, held: npt.NDArray[np.uint64]) -> Iterator[_Index]:
        if level == len(masks):
            yield idx
            return
        nxt = masks[level]
        step = max(1, BLOCK // len(nxt))
        for s in range(0, len(held), step):
            part = held[s : s + step]
            a, b = np.nonzero((part[:, None] & nxt[None, :]) == 0)
            if len(a):
                a = a + s
                yield from extend(level + 1, [i[a] for i in idx] + [b], held[a] | nxt[b])

    first = masks[0]
    yield from extend(1, [np.arange(len(first))], first)


class _Sampler:
    """Plays batches of games; the same batch index and size always play the same games."""

    def __init__(self, deal: _Deal, root: np.random.SeedSequence) -> None:
        self.deal = deal
        self.root = root
        self.pot = deal.pot
        self.rest = np.array(deal.rest, dtype=np.uint8)
        self.seats = [_Seat() for _ in deal.known]

    def play(self, first: int, sizes: Sequence[int]) -> Tally:
        """Play batches ``first, first + 1, ...`` of ``sizes`` games, their tallies summed."""
        total = Tally(self.seats, self.pot)
        for index, n in enumerate(sizes, start=first):
            total.add(self.batch(index, n))
        return total

    def batch(self, index: int, n: int) -> Tally:
        """Play ``n`` games with batch ``index``'s generator."""
        rng = np.random.default_rng(batch_seed(self.root, index))
        deal = self.deal
        need = sum(deal.missing)
        # Each game's cards to come: the first ``need`` of a uniform shuffle of the rest.
        order = np.argsort(rng.random((n, len(self.rest))), axis=1)[:, :need]
        dealt = self.rest[order]
        hands, at = [], 0
        for known, m in zip(deal.known, deal.missing):
            hands.append(np.hstack([np.tile(np.array(known, dtype=np.uint8), (n, 1)), dealt[:, at : at + m]]))
            at += m
        valued = [deal.values(h, 1) for h in hands]
        high = np.stack([v[0] for v in valued])
        low = np.stack([v[1] for v in valued]) if deal.hilo else np.zeros(0, dtype=np.uint8)
        units = deal.shares(high, low)
        tally = Tally(self.seats, self.pot)
        tally.games = n
        for p, (row, (w, t, u)) in enumerate(zip(units, outcomes(units, self.pot))):
            tally.wins[p], tally.ties[p], tally.units[p] = w, t, u
            tally.squares[p] = int(np.dot(row, row))
        return tally


class _Seat:
    """What a :class:`~twoplustwo.odds.sampler.Tally` asks of a player: one hand, no per-combo breakdown."""

    n = 1
    ranged = False


def _sample(deal: _Deal, stopping: Stopping, workers: int, quiet: bool) -> list[PlayerEquity]:
    sampler = _Sampler(deal, np.random.SeedSequence(stopping[2]))
    total = montecarlo.play(sampler, sampler.seats, sampler.pot, stopping, pool.resolve_threads(workers), quiet)
    n = total.games
    return [
        PlayerEquity(label, n, int(total.wins[p]), int(total.ties[p]), total.units[p] / (total.pot * n), err)
        for p, (label, err) in enumerate(zip(deal.labels, total.stderrs()))
    ]
