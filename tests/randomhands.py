"""Seeded random hands for the runtime's tests, from numpy alone.

>>> h = random_hands(4, 7, seed=1)
>>> h.shape, h.dtype.name, all(len(set(row)) == 7 for row in h.tolist())
((4, 7), 'uint8', True)
>>> bool((random_hands(4, 7, seed=1) == h).all())
True
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt


def random_hands(n: int, k: int, seed: int = 0, deck: int = 52) -> npt.NDArray[np.uint8]:
    """``n`` hands of ``k`` distinct cards of ``0..deck-1``, each row in random card order."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, k), dtype=np.uint8)
    # Keys per card in blocks: the k smallest keys of a row are a uniform
    # k-subset in uniform order, and blocks bound the (rows, deck) keys' memory.
    block = 1 << 16
    for lo in range(0, n, block):
        keys = rng.random((min(block, n - lo), deck))
        out[lo : lo + len(keys)] = np.argsort(keys, axis=1)[:, :k]
    return out
