"""The numpy backend's one reading of arguments, as ``kernels/c/args.c`` reads them for the C core.

Every method of the numpy walker and every function of the backend takes
its scalars and buffers through these, so that both backends refuse the
same input with the same exception: a buffer that is not C-contiguous, a
read-only one where the method writes, an int beyond a C ``long``. What
each method then asks of the shapes is checked in its own module, as each
C unit checks its own.

>>> long(7), mask(-1) == (1 << 64) - 1
(7, True)
>>> array(b"ab").tolist()
[97, 98]
>>> array(b"ab", writable=True)
Traceback (most recent call last):
...
BufferError: Object is not writable.
"""

from __future__ import annotations

import operator
import sys

# numpy and typing cost milliseconds to import, which a fresh process's
# first evaluate() would pay: a walker's construction and its single hands
# need neither.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy.typing as npt

__all__ = ["ALL_CARDS", "array", "buffer_view", "entries", "long", "mask", "plain", "sorted_cards"]

#: Every card of the 52: hold'em's deck, as a mask.
ALL_CARDS = (1 << 52) - 1

_FORMAT = {1: "B", 2: "H", 4: "I"}
_MASK64 = (1 << 64) - 1


def long(x: int) -> int:
    """``x`` as C reads a ``long`` (args.c's ``l``): an int of 64 bits, else OverflowError."""
    v = operator.index(x)
    if not -(1 << 63) <= v < 1 << 63:
        raise OverflowError("Python int too large to convert to C long")
    return int(v)


def mask(x: int) -> int:
    """``x`` as C reads a mask of cards (args.c's ``m``): the int's low 64 bits."""
    return int(operator.index(x)) & _MASK64


def buffer_view(obj: object) -> memoryview:
    """``obj``'s buffer, C-contiguous, else the TypeError or ValueError C raises."""
    try:
        view = memoryview(obj)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"a bytes-like object is required, not '{type(obj).__name__}'") from None
    if not view.c_contiguous:
        raise ValueError("ndarray is not C-contiguous")
    return view


def array(obj: object, writable: bool = False) -> npt.NDArray[Any]:
    """The buffer ``obj`` as a numpy array (args.c's ``r``, or ``w`` if ``writable``), refused as C refuses it."""
    import numpy as np

    if isinstance(obj, np.ndarray):
        if not obj.flags.c_contiguous:
            raise ValueError("ndarray is not C-contiguous")
        if writable and not obj.flags.writeable:
            raise ValueError("buffer source array is read-only")
        return obj
    view = buffer_view(obj)
    if writable and view.readonly:
        raise BufferError("Object is not writable.")
    return np.asarray(view)


def entries(obj: object) -> memoryview:
    """A table array of little-endian entries as a memoryview of native entries, over the same pages."""
    view = buffer_view(obj)
    if view.itemsize not in _FORMAT:
        raise ValueError(f"table arrays hold 1, 2 or 4 byte entries, got {view.itemsize}")
    raw = view.cast("B")
    if sys.byteorder == "big" and view.itemsize > 1:
        import numpy as np

        swapped: Any = np.frombuffer(raw, dtype=f"<u{view.itemsize}").astype(f"=u{view.itemsize}")
        raw = memoryview(swapped).cast("B")
    fmt: Any = _FORMAT[view.itemsize]  # typeshed wants a literal format
    return raw.cast(fmt)


def plain(cards: object, most: int) -> list[int] | None:
    """A list or tuple of at most ``most`` plain ints 0..51, else None (the single-hand paths' input)."""
    if type(cards) is not list and type(cards) is not tuple:
        return None
    if len(cards) > most:
        return None
    for x in cards:
        if type(x) is not int or not 0 <= x <= 51:
            return None
    return list(cards)


def sorted_cards(cards: npt.NDArray[Any], deck: int, increasing: bool = True) -> bool:
    """Whether ``cards`` are cards of the mask ``deck``, each above the one before if ``increasing``."""
    last = -1
    for c in cards.tolist():
        if c > 51 or not deck >> c & 1 or (increasing and c <= last):
            return False
        last = c
    return True
