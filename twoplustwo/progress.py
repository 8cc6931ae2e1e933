"""Progress bars for long work: tqdm on stderr, on a terminal or in a notebook, unless asked to be quiet.

tqdm is a dependency, imported only when a bar is drawn; were it missing,
the work would run all the same, with no bar. A bar appears only after half a second, so quick calls never
draw one.

>>> with progress(3, "boards", quiet=True) as update:
...     for _ in range(3):
...         update(1)
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

__all__ = ["DELAY", "in_notebook", "is_terminal", "progress"]

#: Seconds of work before a bar appears.
DELAY = 0.5


def is_terminal(stream: Any) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream is not)."""
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def in_notebook() -> bool:
    """Whether this process is a Jupyter kernel (whose stderr is no terminal, yet shows bars)."""
    shell = getattr(sys.modules.get("IPython"), "get_ipython", lambda: None)()
    return type(shell).__name__ == "ZMQInteractiveShell"


def _ignore(n: int) -> None:
    pass


class progress:  # noqa: N801 (used like a function: ``with progress(...) as update``)
    """A context whose value is the bar's ``update(n)``, or a no-op when no bar is drawn.

    ``total`` may be None when the amount of work is not known in advance.
    """

    def __init__(self, total: float | None, unit: str, *, desc: str | None = None, quiet: bool = False) -> None:
        self._bar: Any = None
        notebook = in_notebook()
        if quiet or not (notebook or is_terminal(sys.stderr)):
            return
        try:
            # tqdm.auto draws a widget in a notebook (where ipywidgets is installed), text elsewhere.
            from tqdm.auto import tqdm
        except ImportError:
            return
        self._bar = tqdm(
            total=total, desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False, delay=DELAY
        )

    def __enter__(self) -> Callable[[int], object]:
        return self._bar.update if self._bar is not None else _ignore

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()
