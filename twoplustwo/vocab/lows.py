"""The eight-or-better low as bits: what Omaha hi/lo's single-hand, batch and reference paths all read.

A low is a set of five ranks, held as a byte: bit 0 the ace, bit r - 1 the
rank r = 2..8. Cards of a higher rank have no bit, so two hole cards and
three board cards make five bits exactly when they are five distinct low
ranks. Of two five-bit masks, the one with the lower highest differing bit
is the better low, which is plain integer order: the smallest mask (A-5) is
the best, worth :data:`N_LOWS`.

>>> int(LOW_VALUE[LOW_BIT[48] | LOW_BIT[0] | LOW_BIT[4] | LOW_BIT[8] | LOW_BIT[12]])  # A-2-3-4-5
56
"""

from __future__ import annotations

import numpy as np

__all__ = ["LOWEST_FIVE", "LOW_BIT", "LOW_BITS", "LOW_MASKS", "LOW_VALUE", "LOW_VALUES", "N_LOWS"]

#: How many distinct eight-or-better lows there are, C(8, 5): the best low's value.
N_LOWS = 56

#: Each card's low bit (0 for a nine or higher), as a (52,) uint8 array.
LOW_BIT = np.zeros(52, dtype=np.uint8)
for _card in range(52):
    _rank = _card >> 2  # 0 = deuce .. 12 = ace
    if _rank == 12:
        LOW_BIT[_card] = 1
    elif _rank <= 6:
        LOW_BIT[_card] = 1 << (_rank + 1)
#: The five-bit masks in order, best first: ``LOW_MASKS[i]`` is the low of value ``N_LOWS - i``.
LOW_MASKS = [m for m in range(256) if bin(m).count("1") == 5]
#: Each byte's low value: 1..56 for five bits, else 0 (no low).
LOW_VALUE = np.zeros(256, dtype=np.uint8)
for _i, _mask in enumerate(LOW_MASKS):
    LOW_VALUE[_mask] = N_LOWS - _i
#: Each byte's best low, of its five lowest bits: 1..56 for five bits or more, else 0. Five to seven
#: cards (stud hi/lo) have the low of their distinct low ranks' mask, whose lowest five are the best five.
LOWEST_FIVE = np.zeros(256, dtype=np.uint8)
for _mask in range(256):
    _bits = [b for b in range(8) if _mask >> b & 1][:5]
    if len(_bits) == 5:
        LOWEST_FIVE[_mask] = LOW_VALUE[sum(1 << b for b in _bits)]
#: :data:`LOW_BIT` and :data:`LOW_VALUE` as lists, for loops over single hands.
LOW_BITS: list[int] = LOW_BIT.tolist()
LOW_VALUES: list[int] = LOW_VALUE.tolist()
del _card, _rank, _i, _mask, _bits
