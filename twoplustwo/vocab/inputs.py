"""What a caller may pass as an int or an integer array: one set of rules and one wording for every entry point.

An int is a Python int or a numpy integer, never a bool. An integer array
is anything numpy reads as one, except a masked array (its masked entries
hold no value to compute with); an empty one is fine whatever its dtype,
since ``[]`` arrives as float64.

:func:`int_array` reads the caller's array once, into a private copy: every
check and all the work then see the same values, even while another thread
writes to the caller's memory. A check of the caller's array followed by a
second read (a cast, a copy) would let a value written in between through
unchecked: a 300 cast to uint8 is 44, a valid card.

>>> import numpy as np
>>> is_int(3), is_int(np.int64(3)), is_int(True), is_int(3.0)
(True, True, False, False)
>>> int_array([[1, 2], [3, 4]], "hands").tolist()
[[1, 2], [3, 4]]
>>> int_array([], "indices").dtype
dtype('uint8')
>>> int_array([0.5], "indices")
Traceback (most recent call last):
...
ValueError: indices must be integers, got dtype float64
>>> int_array(np.ma.array([1, 2], mask=[0, 1]), "indices")
Traceback (most recent call last):
...
TypeError: indices must be a plain array, not a masked array (fill or compress it first)
"""

from __future__ import annotations

import operator
import sys

# Checking an int imports no numpy (tables.format checks ints, and a first
# evaluate() must stay cheap); typing's names are for the type checker only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    import numpy as np
    import numpy.typing as npt

__all__ = ["check_int", "int_array", "is_int", "refuse_masked"]


def is_int(x: object) -> bool:
    """Whether ``x`` is an int: a Python int or a numpy integer, not a bool (an int subclass, but never a count)."""
    if isinstance(x, int):
        return not isinstance(x, bool)
    numpy = sys.modules.get("numpy")  # without numpy imported, nothing is a numpy integer
    return numpy is not None and isinstance(x, numpy.integer)


def check_int(x: object, what: str) -> int:
    """``x`` as a Python int, or ``TypeError`` naming ``what`` when it is not an int (see :func:`is_int`).

    >>> import numpy as np
    >>> check_int(np.uint8(7), "k")
    7
    >>> check_int("7", "k")
    Traceback (most recent call last):
    ...
    TypeError: k must be an int, got str
    """
    if not is_int(x):
        raise TypeError(f"{what} must be an int, got {type(x).__name__}")
    return operator.index(x)  # type: ignore[arg-type]  # an int or numpy integer, just checked


def refuse_masked(x: object, what: str) -> None:
    """``TypeError`` if ``x`` is a masked array: reading it would compute on the values under the mask."""
    numpy = sys.modules.get("numpy")  # without numpy imported, nothing is a masked array
    if numpy is not None and isinstance(x, numpy.ma.MaskedArray):
        raise TypeError(f"{what} must be a plain array, not a masked array (fill or compress it first)")


def int_array(x: npt.ArrayLike, what: str, *, copy: bool = True) -> npt.NDArray[np.integer[Any]]:
    """``x`` as an integer array of its own dtype: a private copy, or the error (naming ``what``) that says why not.

    A masked array is a ``TypeError``; anything numpy cannot read as an
    array, or reads as other than integers, a ``ValueError``. An empty
    ``x`` of another dtype comes back as an empty uint8 array of its shape.
    ``copy=False`` returns the caller's own array where it is one, for a
    caller that reads it once itself (into a buffer of its own) and checks
    that.
    """
    import numpy as np

    refuse_masked(x, what)
    try:
        a = np.array(x) if copy else np.asarray(x)
    except (ValueError, TypeError, OverflowError) as e:
        raise ValueError(f"{what} must be an integer array: {e}") from None
    if a.dtype.kind not in "iu":
        if a.size:
            raise ValueError(f"{what} must be integers, got dtype {a.dtype}")
        a = np.zeros(a.shape, dtype=np.uint8)
    return a
