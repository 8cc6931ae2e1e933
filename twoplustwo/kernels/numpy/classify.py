"""What two hole cards hold on a board: the numpy twin of ``kernels/c/classify.c``.

The made-hand code (an index into
:data:`~twoplustwo.vocab.board_classes.MADE_HANDS`) and the draw bits
(:data:`~twoplustwo.vocab.board_classes.DRAWS`) of every row at once, from
masks as C forms them: the cards as one mask of 16 bits a suit, and from its
suits' 13-bit rank masks the ranks held at least once, twice, three and four
times, of all the cards and of the board's.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from twoplustwo.kernels.numpy.args import array
from twoplustwo.vocab.board_classes import DRAW_BIT, MADE_CODE, MADE_HANDS

__all__ = ["classify_rows"]

TYPE_CHECKING = False
if TYPE_CHECKING:
    from twoplustwo.kernels.interface import U8

U32 = npt.NDArray[np.uint32]
#: The ten runs of five ranks as 13-bit masks, the wheel (A-2-3-4-5) first.
RUNS = np.array([0x100F] + [0x1F << i for i in range(9)], dtype=np.uint32)
_STEP = 1 << 16


def classify_rows(holes: U8, boards: U8, made: U8, draws: U8, /) -> int:
    """Made-hand codes and draw bits of uint8 hole and board rows; the first bad row (a card twice or over 51) or -1."""
    hb, bb, mb, db = array(holes), array(boards), array(made, writable=True), array(draws, writable=True)
    ok = (
        hb.ndim == 2
        and bb.ndim == 2
        and hb.itemsize == 1
        and bb.itemsize == 1
        and mb.itemsize == 1
        and db.itemsize == 1
        and hb.shape[1] == 2
        and 3 <= bb.shape[1] <= 5
        and bb.shape[0] in (hb.shape[0], 1)
        and mb.nbytes == hb.shape[0]
        and db.nbytes == hb.shape[0]
    )
    if not ok:
        raise ValueError(
            "classify_rows takes (N, 2) uint8 holes, (N or 1, 3..5) uint8 boards and uint8 made and draws of N"
        )
    h, b = hb.view("u1"), bb.view("u1")
    m, d = mb.view("u1").reshape(-1), db.view("u1").reshape(-1)
    for lo in range(0, len(h), _STEP):
        hi = min(lo + _STEP, len(h))
        hs = np.array(h[lo:hi])  # copies: the rows checked are the rows classified
        bs = np.array(np.broadcast_to(b, (len(h), b.shape[1]))[lo:hi])
        cards = np.hstack([hs, bs])
        bits = np.left_shift(np.uint64(1), (cards & 63).astype(np.uint64))
        good = (cards <= 51).all(axis=1) & (np.bitwise_or.reduce(bits, axis=1) == bits.sum(axis=1, dtype=np.uint64))
        if not good.all():
            first = int(np.argmin(good))
            m[lo : lo + first], d[lo : lo + first] = _classify(hs[:first], bs[:first])
            return lo + first
        m[lo:hi], d[lo:hi] = _classify(hs, bs)
    return -1


def _count(x: Any) -> U32:
    """Each entry's set bits (13-bit masks)."""
    x = x - ((x >> 1) & 0x5555)
    x = (x & 0x3333) + ((x >> 2) & 0x3333)
    x = (x + (x >> 4)) & 0x0F0F
    out: U32 = (x + (x >> 8)) & 0x1F
    return out


def _highest(x: U32) -> npt.NDArray[np.intp]:
    """Each nonzero entry's highest set bit (13-bit masks)."""
    out: npt.NDArray[np.intp] = np.where(x > 0, np.log2(np.maximum(x, 1)).astype(np.intp), -1)
    return out


def _suits(mask: npt.NDArray[np.uint64]) -> U32:
    """``(4, n)``: each suit's 13-bit rank mask of masks of 16 bits a suit."""
    return np.stack([((mask >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint32) for s in range(4)])


def _rank_counts(suited: U32) -> tuple[U32, U32, U32, U32]:
    """The ranks in at least 1, 2, 3 and 4 of the four suits' rank masks ``(4, n)``, as ``classify.c`` forms them."""
    a, b, c, d = suited
    ab, cd, a_b, c_d = a & b, c & d, a | b, c | d
    return a_b | c_d, ab | cd | (a_b & c_d), (ab & c_d) | (cd & a_b), ab & cd


def _has_run(ranks: U32) -> npt.NDArray[np.bool_]:
    """Which masks hold five consecutive ranks, the ace also below the deuce."""
    m = (ranks << 1) | (ranks >> 12)
    out: npt.NDArray[np.bool_] = (m & (m >> 1) & (m >> 2) & (m >> 3) & (m >> 4)) != 0
    return out


def _classify(
    h: npt.NDArray[np.uint8], b: npt.NDArray[np.uint8]
) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """``classify.c``'s ``classify_one`` over checked rows."""
    n, nb = len(h), b.shape[1]
    one = np.uint32(1)
    # As C: the cards as one mask of 16 bits a suit (bit 16 * suit + rank), and the rank counts from the suits'.
    lanes = np.uint64(16) * (np.hstack([h, b]) & 3).astype(np.uint64) + (np.hstack([h, b]) >> 2).astype(np.uint64)
    bits = np.left_shift(np.uint64(1), lanes)
    board_mask = np.bitwise_or.reduce(bits[:, 2:], axis=1)
    cards = board_mask | bits[:, 0] | bits[:, 1]
    suited = np.stack([((cards >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint32) for s in range(4)])
    board_suited = np.stack(
        [((board_mask >> np.uint64(16 * s)) & np.uint64(0x1FFF)).astype(np.uint32) for s in range(4)]
    )
    once, twice, thrice, four = _rank_counts(suited)
    b1, b2, _, _ = _rank_counts(board_suited)
    r0, r1 = (h[:, 0] >> 2).astype(np.uint32), (h[:, 1] >> 2).astype(np.uint32)
    n_suited = _count(suited)
    flush_suit = np.where((n_suited >= 5).any(axis=0), np.argmax(n_suited >= 5, axis=0), -1)
    flush_ranks = suited[np.maximum(flush_suit, 0), np.arange(n)]
    top, low = _highest(b1), _highest(b1 & (~b1 + one))
    second = _highest(b1 & ~(one << top.astype(np.uint32)))
    on0, on1 = ((b1 >> r0) & 1) == 1, ((b1 >> r1) & 1) == 1
    twice0, twice1 = ((b2 >> r0) & 1) == 1, ((b2 >> r1) & 1) == 1
    pair = r0 == r1
    on = np.where(on0, r0, r1).astype(np.intp)
    c = MADE_CODE
    # The first that applies: np.select takes the first true condition.
    made = np.select(
        [
            (flush_suit >= 0) & _has_run(flush_ranks),
            four != 0,
            (thrice != 0) & ((_count(thrice) >= 2) | ((twice & ~thrice) != 0)),
            flush_suit >= 0,
            _has_run(once),
            (thrice != 0) & pair & on0 & ~twice0,
            (thrice != 0) & ~pair & (twice0 | twice1),
            thrice != 0,
            ~pair & on0 & on1,
            pair & (r0 > top),
            pair & (r0 < low),
            pair,
            (on0 | on1) & (on == top),
            (on0 | on1) & (on == second),
            on0 | on1,
            (r0 == 12) | (r1 == 12),
        ],
        list(range(len(MADE_HANDS) - 1)),  # the conditions are in MADE_HANDS order
        c["nothing"],
    ).astype(np.uint8)
    draws = np.zeros(n, np.uint8)
    if nb < 5:
        for s in range(4):
            mine = ((h[:, 0] & 3) == s) | ((h[:, 1] & 3) == s)
            flushed = (made == c["flush"]) | (made == c["straight flush"])
            fd = (n_suited[s] == 4) & mine & ~flushed
            nut = _highest(~board_suited[s] & 0x1FFF) * 4 + s
            draws |= np.where(fd, DRAW_BIT["flush draw"], 0).astype(np.uint8)
            nut_held = fd & ((h[:, 0] == nut) | (h[:, 1] == nut))
            draws |= np.where(nut_held, DRAW_BIT["nut flush draw"], 0).astype(np.uint8)
            if nb == 3:
                draws |= np.where((n_suited[s] == 3) & mine, DRAW_BIT["backdoor flush draw"], 0).astype(np.uint8)
        held = ((one << r0) | (one << r1)) & ~b1
        missing = RUNS[:, None] & ~once
        single = ((RUNS[:, None] & held) != 0) & (missing != 0) & ((missing & (missing - one)) == 0)
        outs = _count(np.bitwise_or.reduce(np.where(single, missing, 0).astype(np.uint32), axis=0))
        straight_free = ~_has_run(once)
        draws |= np.where(straight_free & (outs >= 2), DRAW_BIT["open-ended straight draw"], 0).astype(np.uint8)
        draws |= np.where(straight_free & (outs == 1), DRAW_BIT["gutshot"], 0).astype(np.uint8)
        unmade = (made == c["ace high"]) | (made == c["nothing"])
        draws |= np.where(unmade & (r0 > top) & (r1 > top), DRAW_BIT["overcards"], 0).astype(np.uint8)
        straight_draw = (draws & (DRAW_BIT["open-ended straight draw"] | DRAW_BIT["gutshot"])) != 0
        combo = ((draws & DRAW_BIT["flush draw"]) != 0) & straight_draw
        draws |= np.where(combo, DRAW_BIT["combo draw"], 0).astype(np.uint8)
    return made, draws
