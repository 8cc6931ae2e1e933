"""Which implementation runs the hot paths: the C extension or the numpy reference.

The C backend (``twoplustwo.kernels._core``) is built by ``pip install`` and ``make``
when a compiler is there; the numpy path is always there and stays the
reference the C path is tested against. ``$TWOPLUSTWO_BACKEND`` chooses:
``numpy`` forces the numpy path, ``c`` insists on the C one (an
``ImportError`` at first use if it was not built), and unset or empty
takes C when it is available.

>>> backend() in ("c", "numpy")
True
"""

from __future__ import annotations

import os
from types import ModuleType

__all__ = ["BACKENDS", "ENV_VAR", "backend", "core", "extension"]

ENV_VAR = "TWOPLUSTWO_BACKEND"
#: The backends there are, fastest first.
BACKENDS = ("c", "numpy")


def _import_core() -> ModuleType | None:
    try:
        from twoplustwo.kernels import _core
    except ImportError:
        return None
    module: ModuleType = _core
    return module


_core_module = _import_core()


def extension() -> ModuleType | None:
    """The C extension module if it was built, whatever backend is chosen."""
    return _core_module


def core() -> ModuleType | None:
    """The C extension module if the chosen backend is C, else None."""
    choice = os.environ.get(ENV_VAR, "").strip().lower()
    if choice not in ("", *BACKENDS):
        raise ValueError(f"${ENV_VAR} must be 'c', 'numpy' or unset, got {choice!r}")
    if choice == "numpy":
        return None
    if choice == "c" and _core_module is None:
        raise ImportError(
            f"${ENV_VAR}=c, but the C extension twoplustwo.kernels._core was not built "
            "(reinstall with a C compiler, or unset the variable to use the numpy path)"
        )
    return _core_module


def backend() -> str:
    """``"c"`` or ``"numpy"``: the backend new table sets use for single hands and batches."""
    return "numpy" if core() is None else "c"
