"""The limits both backends hold their input to, for the callers that check it first.

>>> MAX_GROUND
2048
"""

from __future__ import annotations

__all__ = ["MAX_GROUND"]

#: The most ground points (K) of ``transport_rows``, in C as in numpy: its work space holds K x K costs.
MAX_GROUND = 2048
