"""The package's own examples once more, on the numpy reference.

pytest runs every docstring example of ``twoplustwo`` on the default
backend (the C core where it was built); here each module's examples run
again with ``$TWOPLUSTWO_BACKEND=numpy`` and a default table set loaded on
it, and must print the same.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import twoplustwo
from tests.backends import INSTALLED, use_backend


def _modules_with_examples() -> list[str]:
    names = [twoplustwo.__name__]
    for info in pkgutil.walk_packages(twoplustwo.__path__, prefix=f"{twoplustwo.__name__}."):
        if not info.name.endswith(("._core", ".__main__")):
            names.append(info.name)
    finder = doctest.DocTestFinder()
    return [n for n in names if any(t.examples for t in finder.find(importlib.import_module(n)))]


@pytest.mark.skipif(INSTALLED == ("numpy",), reason="numpy is the default backend here: pytest ran these already")
@pytest.mark.parametrize("name", _modules_with_examples())
def test_the_examples_hold_on_the_numpy_backend(name: str) -> None:
    module = importlib.import_module(name)
    # pytest's own flags for doctests (ELLIPSIS by default; none set in pyproject.toml)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    report: list[str] = []
    with use_backend("numpy"):
        for test in doctest.DocTestFinder().find(module, module.__name__):
            runner.run(test, out=report.append)
    assert runner.failures == 0 and runner.tries > 0, "".join(report)
