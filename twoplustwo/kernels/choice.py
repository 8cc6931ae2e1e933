"""Which backend runs the hot paths: the C core or the numpy backend, chosen here and nowhere else.

The C backend (``twoplustwo.kernels._core``) is built by ``pip install`` and ``make``
when a compiler is there; the numpy backend (:mod:`twoplustwo.kernels.numpy`, one
module per C unit) is always there, and the C core is tested against it. Both export one
interface (:mod:`twoplustwo.kernels.interface`): callers hold a walker and
call it, never asking which backend runs. ``$TWOPLUSTWO_BACKEND`` chooses:
``numpy`` forces the numpy backend, ``c`` insists on the C core (an
``ImportError`` at first use if it was not built), and unset or empty takes
C when it is available.

The C core runs checked batches of whole hands by one of several loops,
chosen once when it is imported: ``$TWOPLUSTWO_BATCH_LOOP`` (:data:`LOOP_VAR`)
names one of :data:`LOOPS`, and unset or empty takes the best the
processor has. A word it does not know, or a loop the processor lacks,
raises ``ValueError`` at import, naming the variable, the value and the
choices; ``_core.VECTOR_BATCHES`` names the loop that runs, and
``_core.BATCH_LOOPS`` those this processor has.

>>> backend() in ("c", "numpy")
True
"""

from __future__ import annotations

import os

# typing costs milliseconds to import, which a fresh process's first
# evaluate() would pay: the interface is for the type checker only.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

    from twoplustwo.kernels.interface import Backend, Walker

__all__ = [
    "BACKENDS",
    "ENV_VAR",
    "LOOPS",
    "LOOP_VAR",
    "backend",
    "chosen",
    "entry_point",
    "extension",
    "serve_default",
    "serve_game",
]

ENV_VAR = "TWOPLUSTWO_BACKEND"
#: The backends there are, fastest first.
BACKENDS = ("c", "numpy")
#: The C core's batch loops, by their words, in the order of ``_core.keyed_rows``'s numbers (the slowest first):
#: the portable scalar loop, AVX2 and AVX-512 (with VBMI and BITALG), the last two on x86 processors that have them.
LOOPS = ("scalar", "avx2", "avx512")
LOOP_VAR = "TWOPLUSTWO_BATCH_LOOP"


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


def chosen() -> Backend:
    """The chosen backend's module, ``twoplustwo.kernels._core`` or :mod:`twoplustwo.kernels.numpy`."""
    choice = os.environ.get(ENV_VAR, "").strip().lower()
    if choice not in ("", *BACKENDS):
        raise ValueError(f"${ENV_VAR} must be 'c', 'numpy' or unset, got {choice!r}")
    if choice == "c" and _core_module is None:
        raise ImportError(
            f"${ENV_VAR}=c, but the C extension twoplustwo.kernels._core was not built "
            "(reinstall with a C compiler, or unset the variable to use the numpy path)"
        )
    if choice == "numpy" or _core_module is None:
        if choice == "":
            _warn_no_extension()
        from twoplustwo.kernels import numpy

        return numpy
    from twoplustwo.kernels import _core

    return _core


_warned = False


def _warn_no_extension() -> None:
    # Once per process: the install succeeded without a compiler, and the
    # user should know why everything is slower and how to change it.
    global _warned
    if not _warned:
        _warned = True
        import warnings

        warnings.warn(
            "twoplustwo: the C extension was not built (no C compiler at install), so the numpy path runs, "
            "several times slower; reinstall with a C compiler (gcc or clang and the Python headers) to get it, "
            f"or set ${ENV_VAR}=numpy to choose the numpy path and silence this",
            RuntimeWarning,
            stacklevel=2,
        )


def backend() -> str:
    """``"c"`` or ``"numpy"``: the backend new table sets use for single hands and batches."""
    return "c" if chosen() is _core_module else "numpy"


# The C core also has an entry point of evaluate() that serves the default
# table set without a Python frame: a registry of C walkers, and a Python
# fallback for everything else. A walker of the numpy backend is never
# registered, so the entry point hands its calls to the fallback.


def entry_point(fallback: Callable[..., int]) -> Callable[..., int] | None:
    """The C core's frameless ``evaluate``, falling back to ``fallback``, when C is the chosen backend; else None."""
    if _core_module is None or chosen() is not _core_module:
        return None
    _core_module.set_fallback(fallback)
    fn: Callable[..., int] = _core_module.evaluate
    return fn


def serve_default(walker: Walker | None) -> None:
    """Let the C entry point serve the default table set with ``walker``, if it is a C walker (else: nothing)."""
    if _core_module is not None:
        _core_module.set_default(walker if isinstance(walker, _core_module.Walker) else None)


def serve_game(name: str, walker: Walker) -> None:
    """Let the C entry point serve ``evaluate(cards, game=name)`` on the default set, if ``walker`` is a C walker."""
    if _core_module is not None and isinstance(walker, _core_module.Walker):
        _core_module.set_game(name, walker)
