"""Exact equity by counting boards (odds.counting.count_showdowns) against listing every board down the DAG.

The counting kernel is C's alone: on the numpy backend it declines, and
these tests check that it does, so that the listing route serves there.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest

from twoplustwo import backend
from twoplustwo.kernels.games import resolve, walker_of
from twoplustwo.odds import counting, exact
from twoplustwo.tables.default import get_tables
from twoplustwo.vocab.cards import parse_cards
from twoplustwo.vocab.ranges import parse_range
from twoplustwo.vocab.rules import HOLDEM
from twoplustwo.vocab.suits import PERM_CARDS, suit_classes


def kernel_counts() -> bool:
    """Whether the backend this test runs on counts showdowns itself (the C core), else None is its answer."""
    return backend() == "c"


def _counted(holes: list[list[int]], known: list[int], dead: list[int]) -> list[tuple[int, int, int, int]] | None:
    counted = counting.count_showdowns(walker_of(get_tables()), np.array([holes], dtype=np.uint8), known, dead)
    if counted is None:
        return None
    counts, games = counted
    return [(int(games[0]), int(w), int(t), int(u)) for w, t, u in counts[0]]


def _deal(
    rng: random.Random, players: int, known: int, dead: int, suits: int = 4
) -> tuple[list[list[int]], list[int], list[int]]:
    """A random deal; with ``suits`` < 4 all cards come from that many suits first, for flush-heavy deals."""
    pool = [c for c in range(52) if c % 4 < suits]
    need = 2 * players + known + dead
    if len(pool) - 5 + known < need:
        pool = list(range(52))
    cards = rng.sample(pool, need)
    holes = [sorted(cards[2 * i : 2 * i + 2]) for i in range(players)]
    return holes, cards[2 * players : 2 * players + known], cards[2 * players + known :]


def _check(holes: list[list[int]], known: list[int], dead: list[int]) -> None:
    got = _counted(holes, known, dead)
    if not kernel_counts():
        assert got is None
        return
    assert got == exact.list_hands(holes, known, dead, game=resolve(HOLDEM))
    left = 52 - 2 * len(holes) - len(known) - len(dead)
    assert got[0][0] == comb(left, 5 - len(known))


@pytest.mark.parametrize(
    ("hands", "board", "dead"),
    [
        (["As Ah", "Kd Kc"], "", ""),
        (["As Ks", "Qs Js"], "", ""),  # both suited in one suit
        (["Ah Kh", "Qh Jh", "Th 9h"], "", ""),
        (["As Ah", "Kd Kc", "Qs Jh"], "", ""),
        (["2c 3d", "4h 5s", "6c 7d", "8h 9s", "Tc Jd", "Qh Ks", "Ac 2d", "3h 4s", "5c 6d"], "", ""),
        (["Ah Kh", "Qh Jh"], "2h 7h 9c", ""),  # a flush draw each
        (["Ah Kh", "2c 2d"], "3h 4h 5h", ""),  # a flush already, and a straight flush draw
        (["Ah 2c", "Kd Kc"], "Th 9h 8h 7h", ""),  # four to a flush on the turn
        (["As Ks", "Ah Kh"], "2s 3s 2h 3h", "4s"),  # two suits that each could flush, for different players
        (["As Ks", "Qd Qc"], "", "2s 3s 4s 5s 6s 7s 8s 9s"),  # the dead cards leave few spades
        (["7c 2d", "8h 3s"], "Ac Kc Qc Jc Tc", ""),  # the board plays: a royal flush for both
    ],
)
def test_counting_matches_listing_on_chosen_deals(hands: list[str], board: str, dead: str) -> None:
    _check([parse_cards(h) for h in hands], parse_cards(board), parse_cards(dead))


@pytest.mark.parametrize("known", [0, 1, 2, 3, 4, 5])
def test_counting_matches_listing_on_random_deals(known: int) -> None:
    rng = random.Random(known)
    # Listing a preflop deal walks 1.7 million boards: fewer of those.
    for trial in range(6 if known < 2 else 60):
        players = rng.randint(2, 9 if known >= 2 else 4)
        _check(*_deal(rng, players, known, rng.randint(0, 4), suits=1 + trial % 4))


def test_suit_classes_hold_deals_equal_up_to_a_renaming_of_suits() -> None:
    aces, suited = parse_range("AA,KK"), parse_range("AKs,QJs")
    found = exact.find_deals([aces.combos, suited.combos])
    assert found is not None
    holes = np.stack([aces.combos[found[:, 0]], suited.combos[found[:, 1]]], axis=1).astype(np.uint8)
    for known, dead in [([], []), (parse_cards("2h"), []), (parse_cards("2h 3h"), parse_cards("4c"))]:
        live = ~np.isin(holes, known + dead).reshape(len(holes), -1).any(axis=1)
        classes, inverse = suit_classes(holes[live], known, dead)
        keep = [p for p in PERM_CARDS if set(p[known].tolist()) == set(known) and set(p[dead].tolist()) == set(dead)]
        for deal, k in zip(holes[live], inverse):
            images = [np.sort(p[deal], axis=1).tolist() for p in keep]
            assert classes[k].tolist() in images  # every deal is a renaming of its class's deal
        # Deals of different classes are no renaming of each other.
        for a in range(len(classes)):
            for b in range(a):
                assert not any(np.sort(p[classes[a]], axis=1).tolist() == classes[b].tolist() for p in keep)
        if not known:
            # Before the flop, 2 x 24 pairs times 16 suited combos fall into few classes.
            assert len(classes) < live.sum() / 4


def test_suit_classes_of_many_players_agree_with_those_of_few() -> None:
    # Six players take another path than five or fewer: both must find the same classes.
    rng = np.random.default_rng(3)
    deals = np.array([np.argsort(rng.random(52))[:12].reshape(6, 2) for _ in range(300)], dtype=np.uint8)
    deals[150:] = np.sort(deals[:150], axis=2)[:, :, ::-1]  # the same deals with the cards the other way round
    six, six_inverse = suit_classes(deals, [], [])
    five, five_inverse = suit_classes(deals[:, :5], [], [])
    assert (six_inverse[:150] == six_inverse[150:]).all()
    assert len(six) >= len(five) and len(six) <= 150
    for classes, inverse, players in ((six, six_inverse, 6), (five, five_inverse, 5)):
        for deal, k in zip(deals[:, :players], inverse):
            assert any(np.sort(p[deal], axis=1).tolist() == classes[k].tolist() for p in PERM_CARDS)


@pytest.mark.one_backend  # the C core's own counting: numpy has none to compare
@pytest.mark.parametrize(("board", "dead"), [("", ""), ("Qh 7c 2d", ""), ("Qh 7h", "2c"), ("Qh 7c 2d 3s", "")])
def test_range_deals_counted_by_class_match_every_deal_listed(board: str, dead: str) -> None:
    if not kernel_counts():
        pytest.skip("the numpy backend lists every deal's boards: there is no counting to compare")
    known, out = parse_cards(board), parse_cards(dead)
    players = []
    for text in ("QQ+,AKs", "AK,76s"):
        r = parse_range(text)
        live = ~np.isin(r.combos, known + out).any(axis=1)
        players.append((r.combos[live], r.weights[live]))
    got, weight = exact.deals(players, known, out, game=resolve(HOLDEM), threads=2, quiet=True)
    if not known:  # listing this before the flop takes a minute: the counts of each deal, one by one, instead
        for k in range(0, len(got.deals), 17):
            holes = [players[i][0][d].tolist() for i, d in enumerate(got.deals[k])]
            want = [list(x[1:]) for x in exact.list_hands(holes, known, out, game=resolve(HOLDEM))]
            assert got.counts[k].tolist() == want
            assert got.games[k] == comb(48, 5)
        return
    listed, listed_weight = exact.list_deals(players, known, out, game=resolve(HOLDEM), threads=2, quiet=True)
    assert (got.deals == listed.deals).all()
    assert (got.counts == listed.counts).all()
    assert (got.games == listed.games).all()
    assert (weight == listed_weight).all()


def test_count_showdowns_refuses_bad_input() -> None:
    walker = walker_of(get_tables())
    holes = np.array([[[51, 50], [45, 44]]], dtype=np.uint8)
    none = np.array([], dtype=np.uint8)

    def call(h: object = holes, k: object = none, d: object = none, c: object = None, g: object = None) -> object:
        n = np.asarray(h).shape
        counts = np.zeros((n[0], n[1], 3), np.int64) if c is None else c
        games = np.zeros(n[0], np.int64) if g is None else g
        return walker.count_showdowns(h, k, d, counts, games)  # type: ignore[arg-type]

    with pytest.raises(ValueError, match="uint8 \\(deals, players, 2\\)"):
        call(holes.astype(np.int64))
    with pytest.raises(ValueError, match="uint8 \\(deals, players, 2\\)"):
        call(holes.reshape(1, 4))
    with pytest.raises(ValueError, match="counts must be"):
        call(c=np.zeros((1, 2, 2), np.int64))
    if not kernel_counts():
        return
    with pytest.raises(ValueError, match="2 to 9 players"):
        call(holes[:, :1])
    with pytest.raises(ValueError, match="distinct cards 0..51"):
        call(np.array([[[51, 50], [51, 44]]], dtype=np.uint8))
    with pytest.raises(ValueError, match="distinct cards 0..51"):
        call(np.array([[[52, 50], [45, 44]]], dtype=np.uint8))
    with pytest.raises(ValueError, match="not known or dead"):
        call(k=np.array([51], dtype=np.uint8))
    with pytest.raises(ValueError, match="known and dead cards must be distinct"):
        call(k=np.array([3], dtype=np.uint8), d=np.array([3], dtype=np.uint8))
    with pytest.raises(ValueError, match="at most 5 known"):
        call(k=np.arange(6, dtype=np.uint8))
    with pytest.raises(ValueError, match="too few cards"):
        call(d=np.arange(44, dtype=np.uint8))


# With at most two cards to come the kernel scores each tuple of hole ranks
# once per call and then moves each deal's own flush boards: the deals of a
# call must still get their own counts, whatever they share.


def _resuited(rng: random.Random, ranks: list[tuple[int, int]], taken: set[int]) -> list[list[int]] | None:
    """Hole cards of the given ranks in random suits, none of ``taken``; None if the suits run out."""
    holes = []
    used = set(taken)
    for pair in ranks:
        hand = []
        for r in pair:
            free = [4 * r + s for s in range(4) if 4 * r + s not in used]
            if not free:
                return None
            card = rng.choice(free)
            used.add(card)
            hand.append(card)
        holes.append(sorted(hand))
    return holes


@pytest.mark.one_backend  # the C core's own counting: numpy has none to compare
@pytest.mark.parametrize("known", [3, 4, 5])
def test_a_batch_of_deals_counted_together_matches_each_listed(known: int) -> None:
    if not kernel_counts():
        pytest.skip("the numpy backend lists every deal's boards: there is no counting to compare")
    rng = random.Random(40 + known)
    walker = walker_of(get_tables())
    for trial in range(12):
        players = rng.randint(2, 6)
        # Flush-heavy boards first: the board and dead cards from few suits.
        pool = [c for c in range(52) if c % 4 < 1 + trial % 4]
        if len(pool) < known + 2:
            pool = list(range(52))
        cards = rng.sample(pool, known + rng.randint(0, 2))
        board, dead = cards[:known], cards[known:]
        # A few tuples of hole ranks, each dealt in several suits: deals that
        # share their rank counts but not their flush boards.
        tuples = [[(rng.randrange(13), rng.randrange(13)) for _ in range(players)] for _ in range(3)]
        deals = [d for d in (_resuited(rng, rng.choice(tuples), set(cards)) for _ in range(30)) if d is not None]
        if not deals:
            continue
        counted = counting.count_showdowns(walker, np.array(deals, dtype=np.uint8), board, dead)
        assert counted is not None
        counts, games = counted
        for holes, row, n in zip(deals, counts, games):
            got = [(int(n), *map(int, c)) for c in row]
            assert got == exact.list_hands(holes, board, dead, game=resolve(HOLDEM)), (holes, board, dead)


@pytest.mark.one_backend  # the C core's own counting: numpy has none to compare
def test_more_tuples_of_hole_ranks_than_the_kernel_keeps_are_counted_alike() -> None:
    # A call keeps at most 4096 tuples of hole ranks; the deals past that are
    # scored without being kept, and must neither count otherwise nor spoil
    # the tuples kept, which the same deals dealt again then look up.
    if not kernel_counts():
        pytest.skip("the numpy backend lists every deal's boards: there is no counting to compare")
    rng = random.Random(5)
    walker = walker_of(get_tables())
    board = parse_cards("Kh 9h 2c")
    rest = [c for c in range(52) if c not in board]
    first = np.array([np.reshape(rng.sample(rest, 6), (3, 2)) for _ in range(5000)], dtype=np.uint8)
    assert len({tuple(tuple(sorted(c >> 2 for c in hand)) for hand in deal) for deal in first.tolist()}) > 4096
    counted = counting.count_showdowns(walker, np.concatenate([first, first]), board, [])
    assert counted is not None
    counts, games = counted
    assert (counts[: len(first)] == counts[len(first) :]).all()
    assert (games == comb(52 - 3 - 6, 2)).all()
    for k in range(0, len(first), 7):
        alone = counting.count_showdowns(walker, first[k : k + 1], board, [])
        assert alone is not None
        assert (alone[0][0] == counts[k]).all()
    for k in range(0, len(first), 500):
        listed = exact.list_hands(first[k].tolist(), board, [], game=resolve(HOLDEM))
        assert [(int(games[k]), *map(int, c)) for c in counts[k]] == listed


@pytest.mark.parametrize(
    ("ranges", "board", "dead"),
    [
        (("QQ+,AKs", "AK"), "Qh 7c 2d", ""),  # rainbow: a flush needs both cards to come
        (("AhKh,AsKs,QhJh,T9s", "KK+,AK", "JJ-99"), "Ah 8h 3h", ""),  # monotone: flushes made, and drawn
        (("A2s+,KQs", "88+,AJo+:0.5", "T9s,87s:0.25"), "Ks 7s 2d", "3s"),  # two-tone, a dead spade, weights
        (("22+:0.5", "AK,AQ"), "Qh Qc 7d", ""),  # paired: some multisets are out of reach of some hole ranks
        (("QQ+,AKs", "AK", "T9s,98s", "JJ", "76s", "A5s"), "Kh 9h 2c 5h", ""),  # six players on the turn
        (("AKs,KQs", "QJs,JTs,T9s"), "Ah Kh Qh Jh", ""),  # four of a suit on the turn
        (("AA,KK,AKs", "QQ,JJ", "98s,87s"), "2h 3h 4h 5d 6d", "Ts"),  # the river
    ],
)
def test_range_deals_with_few_cards_to_come_match_listing(ranges: tuple[str, ...], board: str, dead: str) -> None:
    known, out = parse_cards(board), parse_cards(dead)
    players = []
    for text in ranges:
        r = parse_range(text)
        live = ~np.isin(r.combos, known + out).any(axis=1)
        players.append((r.combos[live], r.weights[live]))
    got, weight = exact.deals(players, known, out, game=resolve(HOLDEM), threads=1, quiet=True)
    listed, listed_weight = exact.list_deals(players, known, out, game=resolve(HOLDEM), threads=2, quiet=True)
    assert (got.deals == listed.deals).all()
    assert (got.counts == listed.counts).all()
    assert (got.games == listed.games).all()
    assert (weight == listed_weight).all()
