"""Heads-up showdowns over deals of card sets that share no card, counted without listing the pairs.

Player A has completions ``a`` (sets of cards ``S_a``) with values ``v_a``,
player B completions ``b`` with ``v_b``. A deal is a pair with ``S_a`` and
``S_b`` disjoint. By inclusion-exclusion over the subsets ``T`` of ``S_a``,
the completions of B disjoint from ``S_a`` with a value below ``v`` number

    sum over T of (-1)**|T| * #{b : T is a subset of S_b and v_b < v},

and only ``T`` of at most ``min(|S_a|, |S_b|)`` cards count. So every
subset of every ``S_b`` is listed once with ``v_b``, sorted, and each
subset of each ``S_a`` looks its counts up by binary search: about
``n_a * 2**m_a + n_b * 2**m_b`` entries instead of ``n_a * n_b`` pairs.

>>> a = np.array([[0], [1]], dtype=np.uint8); b = np.array([[1], [2]], dtype=np.uint8)
>>> heads_up(a, np.array([8, 9], np.uint16), b, np.array([7, 9], np.uint16))  # pairs (0,1) (0,2) (1,2)
(3, 1, 1)
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import numpy.typing as npt

__all__ = ["entries", "heads_up"]

_BIT = np.array([1 << c for c in range(52)], dtype=np.uint64)


def entries(n: int, m: int, other: int) -> int:
    """Subsets listed for ``n`` completions of ``m`` cards against completions of ``other`` cards."""
    from math import comb

    return n * sum(comb(m, k) for k in range(min(m, other) + 1))


def _subsets(drawn: npt.NDArray[np.uint8], most: int) -> list[tuple[int, npt.NDArray[np.uint64]]]:
    """Per subset of the columns of at most ``most``: its size and each row's cards in it as a mask."""
    out = []
    for k in range(most + 1):
        for cols in combinations(range(drawn.shape[1]), k):
            mask = np.zeros(len(drawn), dtype=np.uint64)
            for c in cols:
                mask |= _BIT[drawn[:, c]]
            out.append((k, mask))
    return out


def heads_up(
    drawn_a: npt.NDArray[np.uint8],
    values_a: npt.NDArray[np.unsignedinteger],
    drawn_b: npt.NDArray[np.uint8],
    values_b: npt.NDArray[np.unsignedinteger],
) -> tuple[int, int, int]:
    """``(deals, a_wins, ties)`` over the pairs of a row of ``drawn_a`` and one of ``drawn_b`` sharing no card.

    ``drawn_x`` is ``(n, m)`` distinct cards per row; higher values win. B wins the other deals.
    """
    most = min(drawn_a.shape[1], drawn_b.shape[1])
    top = int(max(values_a.max(initial=0), values_b.max(initial=0))) + 2
    b_masks = _subsets(drawn_b, most)
    masks = np.concatenate([m for _, m in b_masks])
    unique, ids = np.unique(masks, return_inverse=True)
    keys = np.sort(ids.astype(np.int64) * top + np.tile(values_b.astype(np.int64), len(b_masks)))
    deals = below = equal = 0
    v = values_a.astype(np.int64)
    for k, mask in _subsets(drawn_a, most):
        at = np.minimum(np.searchsorted(unique, mask), len(unique) - 1)
        found = unique[at] == mask
        base = at.astype(np.int64)[found] * top
        vf = v[found]
        start = np.searchsorted(keys, base)
        lo = np.searchsorted(keys, base + vf)
        hi = np.searchsorted(keys, base + vf + 1)
        end = np.searchsorted(keys, base + top)
        sign = -1 if k % 2 else 1
        deals += sign * int((end - start).sum())
        below += sign * int((lo - start).sum())
        equal += sign * int((hi - lo).sum())
    return deals, below, equal
