"""The backends a test can run on, and running on one of them for a while.

>>> INSTALLED[-1]
'numpy'
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from twoplustwo.kernels.choice import BACKENDS, ENV_VAR, extension
from twoplustwo.tables.default import clear_cache

__all__ = ["INSTALLED", "use_backend"]

#: The backends this install has, fastest first: the C core where it was built, and the numpy reference.
INSTALLED = tuple(b for b in BACKENDS if b != "c" or extension() is not None)


@contextmanager
def use_backend(name: str) -> Iterator[str]:
    """``$TWOPLUSTWO_BACKEND`` set to ``name``, and the default table set loaded afresh on it, within a ``with``.

    Afterwards the variable is as it was, and the default set is loaded again on first use.
    """
    before = os.environ.get(ENV_VAR)
    os.environ[ENV_VAR] = name
    clear_cache()
    try:
        yield name
    finally:
        if before is None:
            os.environ.pop(ENV_VAR, None)
        else:
            os.environ[ENV_VAR] = before
        clear_cache()
