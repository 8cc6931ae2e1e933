"""The numpy backend mirrors the C core file by file, exports its interface, and declares what it cannot do.

- every C unit of ``kernels/c/`` has a numpy module of the same name in
  ``kernels/numpy/`` (``module.c`` is the package itself; ``keyed_x86.c`` is
  a second loop of ``keyed.c``), and each says which unit it twins;
- both backends export every member of the interface's protocols;
- a walker's capabilities are declared, not probed: ``count_showdowns``
  counts exactly where ``keyed_tables()`` says so, on either backend, and
  exact equity's cost model asks the walker that instead of calling the
  counting kernel with an empty batch.
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo.kernels import interface
from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.choice import extension
from twoplustwo.kernels.games import resolve
from twoplustwo.odds import cost, counting, exact
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.ranges import parse_range

KERNELS = Path(interface.__file__).parent
#: C units that have no numpy module of their own name, and why.
NOT_A_UNIT = {"module": "the package's __init__ is its twin", "keyed_x86": "a second loop of keyed.c"}


def test_every_c_unit_has_a_numpy_module_of_its_name() -> None:
    units = sorted(p.stem for p in (KERNELS / "c").glob("*.c"))
    modules = sorted(p.stem for p in (KERNELS / "numpy").glob("*.py"))
    assert units and set(units) - set(NOT_A_UNIT) <= set(modules), sorted(set(units) - set(modules))
    for unit in set(units) - set(NOT_A_UNIT):
        text = (KERNELS / "numpy" / f"{unit}.py").read_text()
        assert f"{unit}.c" in text.split('"""')[1], f"numpy/{unit}.py does not say it twins {unit}.c"
    # The numpy modules beside the units: the package, and the draws enumerate.py lists.
    assert set(modules) - set(units) == {"__init__", "draws"}


def _members(protocol: type) -> set[str]:
    return {
        name
        for klass in protocol.__mro__
        if klass.__module__ == interface.__name__
        for name, value in vars(klass).items()
        if not name.startswith("_") and (callable(value) or isinstance(value, property))
    }


def test_the_interface_is_split_by_job_and_both_backends_export_all_of_it() -> None:
    jobs = (interface.Evaluating, interface.Enumerating, interface.Scoring, interface.Sampling, interface.Sweeping)
    walker = _members(interface.Walker)
    assert walker == set().union(*(_members(j) for j in jobs))
    # Each method has one job.
    assert sum(len(_members(j)) for j in jobs) == len(walker) == 19
    module = _members(interface.Backend) - {"Walker"}
    assert module == (
        _members(interface.Indexing)
        | _members(interface.Clustering)
        | _members(interface.Classifying)
        | {"omaha_low_rows"}
    )
    backends: list[Any] = [numpy_backend] + ([extension()] if extension() is not None else [])
    for backend in backends:
        assert all(callable(getattr(backend.Walker, name, None)) for name in walker), backend
        assert all(callable(getattr(backend, name, None)) for name in module), backend
    for name in module:
        assert name in numpy_backend.__all__
        assert inspect.signature(getattr(numpy_backend, name)).parameters  # positional, as C's


@pytest.mark.parametrize("game", ["holdem", "short-deck"])
def test_count_showdowns_counts_exactly_where_keyed_tables_say(both: tuple[Tables, Tables], game: str) -> None:
    holes = np.array([[[51, 50], [45, 44]]], dtype=np.uint8)  # AsAh vs KdKc
    for tables in both:
        walker = resolve(game, tables).walker
        counts, games = np.zeros((1, 2, 3), dtype=np.int64), np.zeros(1, dtype=np.int64)
        counted = walker.count_showdowns(holes, np.zeros(0, np.uint8), np.zeros(0, np.uint8), counts, games)
        assert counted is walker.keyed_tables()
        assert bool(games.any()) is counted  # nothing written where it declines
    assert resolve("holdem", both[0]).walker.keyed_tables() is True  # C counts hold'em
    assert resolve("holdem", both[1]).walker.keyed_tables() is False  # numpy never does


def test_the_cost_model_asks_the_walker_and_calls_no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any) -> None:
        raise AssertionError("work() ran the counting kernel to learn whether the walker counts")

    aa, anything = parse_range("AA").combos, parse_range("random").combos
    found = exact.find_deals([anything, aa])
    holdem = resolve("holdem")
    expected = cost.work([anything, aa], [], [], found, game=holdem)
    monkeypatch.setattr(counting, "count_showdowns", refuse)
    assert cost.work([anything, aa], [], [], found, game=holdem) == expected > 0
