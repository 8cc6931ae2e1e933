"""The shape of the code: two distributions joined by the file format, no import cycles.

- the runtime wheel holds ``twoplustwo`` only and the builder wheel
  ``twoplustwo_builder`` only (a top-level ``builder`` would clash with
  another distribution's package);
- no module of the runtime imports the builder, and the runtime's tests
  run without it (read from their source, and shown by running a sample
  of them where importing the builder fails);
- no module of the runtime, the builder, the tests or bench reaches
  another module's underscore names: not by import, not by attribute
  (``module._name``), not by name in ``setattr``/``monkeypatch.setattr``,
  not in code they hand to a child Python. A private module (one whose own
  name starts with an underscore: the C core ``twoplustwo.kernels._core``)
  belongs to its package: its package's modules and that package's tests
  (``tests/kernels``) import it, nothing else does (the rest ask
  :func:`twoplustwo.kernels.choice.extension`);
- the runtime's import graph, read from the source with ``ast``, has no cycle;
- its floors run one way: a module of ``twoplustwo/<floor>/`` imports its own
  floor and those below it (:data:`FLOORS`), never one above; the builder
  imports none of the command line;
- no module of the runtime or the builder, Python or C, is over
  :data:`MAX_LINES` lines unless its first lines say why ("Long because ...").
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import textwrap
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.backends import INSTALLED
from tests.wheels import Built, source_copy
from twoplustwo.kernels.choice import extension

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "twoplustwo"
#: The folders of the code the guards read; the builder's is importable as twoplustwo_builder.
PROJECT = {
    "twoplustwo": RUNTIME,
    "twoplustwo_builder": ROOT / "builder",
    "bench": ROOT / "bench",
    "tests": ROOT / "tests",
}
#: The runtime's tests: these folders of tests/, and the helpers and conftest.py at its top.
RUNTIME_TESTS = ("vocab", "tables", "kernels", "hands", "odds", "abstraction", "cli", "spec", "house")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path) -> list[tuple[str, list[str]]]:
    """``(module, names)`` for every import in ``path``, relative imports resolved."""
    package = _module_name(path) if path.name == "__init__.py" else _module_name(path).rpartition(".")[0]
    out: list[tuple[str, list[str]]] = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            out += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            names = [alias.name for alias in node.names]
            # "from . import pool" imports the module twoplustwo.kernels.pool.
            folder = ROOT / base.replace(".", "/")
            # A submodule is a .py file, or a C extension's stub (twoplustwo/kernels/_core.pyi).
            submodules = [f"{base}.{n}" for n in names if any((folder / f"{n}{e}").exists() for e in (".py", ".pyi"))]
            if submodules:
                out += [(m, []) for m in submodules]
            else:
                out.append((base, names))
    return out


def _runtime_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {}
    for path in sorted(RUNTIME.rglob("*.py")):
        edges = {m for m, _ in _imports(path) if m == "twoplustwo" or m.startswith("twoplustwo.")}
        graph[_module_name(path)] = edges - {_module_name(path)}
    return graph


def test_the_runtime_never_imports_the_builder() -> None:
    for path in sorted(RUNTIME.rglob("*.py")):
        for module, _ in _imports(path):
            assert not module.startswith(("twoplustwo_builder", "builder")), f"{path.name} imports {module}"


def _runtime_test_files() -> list[Path]:
    """The runtime's tests and the helpers and conftest.py at the top of tests/."""
    tests = ROOT / "tests"
    return sorted(tests.glob("*.py")) + sorted(p for d in RUNTIME_TESTS for p in (tests / d).rglob("*.py"))


def _builder_imports(path: Path) -> list[str]:
    """The builder's modules ``path`` imports: by statement anywhere in it, or by name through ``importlib``."""
    modules = [m for m, _ in _imports(path)]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            modules.append(str(node.args[0].value))
    # tests.builder holds the builder's tests and their helpers, which import it.
    return [m for m in modules if m.split(".")[0] == "twoplustwo_builder" or m.startswith("tests.builder")]


def test_the_runtimes_tests_never_import_the_builder() -> None:
    # Not even lazily: a test that needs the builder runs it as a program
    # (``python -m twoplustwo_builder``), or is a builder's test (tests/builder).
    files = _runtime_test_files()
    assert ROOT / "tests" / "conftest.py" in files and ROOT / "tests" / "tinysets.py" in files
    assert len(files) > 30
    found = {str(p.relative_to(ROOT)): _builder_imports(p) for p in files}
    assert not {k: v for k, v in found.items() if v}
    # The reader sees each form, or this test could not fail.
    probe = ROOT / "tests" / "builder" / "tinybuild.py"
    assert _builder_imports(probe) == ["twoplustwo_builder.dag"]


#: Run where importing the builder fails: the files that once imported it,
#: and spec/ (fixtures without the builder's generator). A few seconds.
BUILDER_FREE_SAMPLE = [
    "tests/spec/test_conformance.py",
    "tests/hands/test_evaluate.py",
    "tests/tables/test_atomic.py",
]

_WITHOUT_BUILDER = """
import sys


class NoBuilder:
    # First on sys.meta_path, so that an installed builder (editable or
    # not) is out of reach: import twoplustwo_builder fails as if it were
    # not installed.
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "twoplustwo_builder":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None


sys.meta_path.insert(0, NoBuilder())
try:
    import twoplustwo_builder  # noqa: F401
except ModuleNotFoundError:
    pass
else:
    sys.exit("the builder could still be imported")
import pytest

sys.exit(pytest.main(sys.argv[1:]))
"""


def test_a_sample_of_the_runtimes_tests_passes_without_the_builder() -> None:
    # One backend: the point is the missing builder, and the suite runs both already.
    argv = ["-q", "-p", "no:cacheprovider", "-m", "not slow", "--backend", INSTALLED[0]]
    r = subprocess.run(
        [sys.executable, "-c", _WITHOUT_BUILDER, *argv, *BUILDER_FREE_SAMPLE],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    summary = r.stdout.strip().splitlines()[-1]
    assert " passed" in summary and "skipped" not in summary and "error" not in summary, summary
    assert int(summary.split(" passed")[0].split()[-1]) > 150, summary


def _project_files() -> list[Path]:
    return sorted(p for folder in PROJECT.values() for p in folder.rglob("*.py") if ".egg-info" not in str(p))


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_no_module_imports_another_modules_private_names() -> None:
    for path in _project_files():
        for module, names in _imports(path):
            private = [n for n in names if _private(n)]
            assert not private, f"{path.relative_to(ROOT)} imports {private} from {module}"


def _project_module(path: Path) -> str:
    """The name ``path`` is imported under: the builder's folder is the package ``twoplustwo_builder``."""
    name = _module_name(path)
    return "twoplustwo_builder" + name[len("builder") :] if name.split(".")[0] == "builder" else name


def _is_project_module(name: str) -> bool:
    top, *rest = name.split(".")
    if top not in PROJECT:
        return False
    where = PROJECT[top].joinpath(*rest)
    return any(where.with_suffix(e).is_file() for e in (".py", ".pyi")) or where.is_dir()


def _code_strings(tree: ast.AST) -> Iterator[ast.Module]:
    """Python source held in string constants of ``tree`` (code run by ``python -c``), parsed."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "import " in node.value:
            try:
                yield ast.parse(textwrap.dedent(node.value))
            except SyntaxError:
                continue  # prose that mentions an import


def _private_reaches(tree: ast.AST, me: str, package: str) -> Iterator[tuple[int, str]]:
    """``(line, what)`` for each reach into another project module's underscore names in ``tree``.

    ``me`` is the module of the file, ``package`` the package its relative imports start from.
    """
    bound: dict[str, str] = {}  # local name -> the project module it is bound to
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                # "import a.b" binds a; "import a.b as n" binds n to a.b.
                top = alias.name.split(".")[0]
                bound[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                if _is_project_module(f"{base}.{alias.name}"):
                    bound[alias.asname or alias.name] = f"{base}.{alias.name}"
        elif (
            isinstance(node, ast.Assign)
            and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name)
            and isinstance(node.value, ast.Call)
            and isinstance(node.value.func, ast.Attribute)
            and node.value.func.attr == "import_module"
            and node.value.args
            and isinstance(node.value.args[0], ast.Constant)
        ):
            bound[node.targets[0].id] = str(node.value.args[0].value)

    def module_of(node: ast.expr) -> str | None:
        """The dotted project module ``node`` names, if it names one other than ``me``."""
        if isinstance(node, ast.Name):
            name = bound.get(node.id)
        elif isinstance(node, ast.Attribute):
            outer = module_of(node.value)
            name = f"{outer}.{node.attr}" if outer else None
        else:
            return None
        return name if name and name != me and _is_project_module(name) else None

    def private_path(text: str) -> bool:
        """Whether a dotted ``"module.path._name"`` reaches past a project module into an underscore name."""
        parts = text.split(".")
        return any(_is_project_module(".".join(parts[:i])) and _private(parts[i]) for i in range(1, len(parts)))

    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and module_of(node.value):
            yield node.lineno, f"{module_of(node.value)}.{node.attr}"
        elif isinstance(node, ast.Call):
            func = node.func
            called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            args = node.args
            first = args[0] if args else None
            if called in ("setattr", "getattr", "delattr", "hasattr") and len(args) >= 2 and first is not None:
                name = args[1]
                if isinstance(name, ast.Constant) and isinstance(name.value, str) and _private(name.value):
                    if module_of(first):
                        yield node.lineno, f"{called}({module_of(first)}, {name.value!r})"
            if called in ("setattr", "delattr") and isinstance(first, ast.Constant) and isinstance(first.value, str):
                if private_path(first.value):
                    yield node.lineno, f"{called}({first.value!r})"


def test_no_module_reaches_another_modules_private_names_by_attribute() -> None:
    found = []
    for path in _project_files():
        me = _project_module(path)
        package = me if path.name == "__init__.py" else me.rpartition(".")[0]
        tree = ast.parse(path.read_text(), str(path))
        where = path.relative_to(ROOT)
        found += [f"{where}:{line} reaches {what}" for line, what in _private_reaches(tree, me, package)]
        for code in _code_strings(tree):
            found += [f"{where}: code it runs reaches {what}" for _, what in _private_reaches(code, me, package)]
    assert not found, "\n".join(found)


def test_the_private_reach_finder_sees_each_form() -> None:
    # Line by line: written as one string, this test's own source would be code the guard reads.
    code = "\n".join([
        "import twoplustwo.tables.load",
        "from twoplustwo.odds import exact",
        "from twoplustwo.tables import bundle as b",
        "import importlib",
        "pre = importlib.import_module('twoplustwo.odds.preflop')",
        "exact._score",
        "b._copy(1)",
        "twoplustwo.tables.load._cached",
        "pre._PERM",
        "monkeypatch.setattr(exact, '_STEP', 1)",
        "setattr(b, '_x', 2)",
        "monkeypatch.setattr('twoplustwo.odds.exact._STEP', 3)",
        "exact.__name__, exact.public, obj._private, monkeypatch.setattr(obj, '_x', 1)",
    ])  # fmt: skip
    found = sorted(what for _, what in _private_reaches(ast.parse(code), "tests.x", "tests"))
    assert found == sorted([
        "twoplustwo.odds.exact._score",
        "twoplustwo.tables.bundle._copy",
        "twoplustwo.tables.load._cached",
        "twoplustwo.odds.preflop._PERM",
        "setattr(twoplustwo.odds.exact, '_STEP')",
        "setattr(twoplustwo.tables.bundle, '_x')",
        "setattr('twoplustwo.odds.exact._STEP')",
    ])  # fmt: skip
    # A module's own names are its own.
    own = ast.parse("\n".join(["from twoplustwo.odds import exact", "exact._x"]))
    assert not list(_private_reaches(own, "twoplustwo.odds.exact", "twoplustwo.odds"))
    # Code in a string is read too; prose that mentions an import is not.
    held = ast.parse(f"code = {code!r}\nprose = 'import this, and that.'")
    assert [type(m.body[0]) for m in _code_strings(held)] == [ast.Import]


def _private_module_users(path: Path) -> Iterator[str]:
    """The private modules (``pkg._mod``) ``path`` imports, by statement, ``importlib`` or ``importorskip``."""
    tree = ast.parse(path.read_text(), str(path))
    modules = [m for m, _ in _imports(path)]
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute | ast.Name)
            and (node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id)
            in ("import_module", "importorskip", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            modules.append(node.args[0].value)
    for module in modules:
        if any(_private(part) for part in module.split(".")):
            # Relative imports in the builder's folder resolve to its folder's name.
            yield "twoplustwo_builder" + module[len("builder") :] if module.split(".")[0] == "builder" else module


def test_a_private_module_is_imported_by_its_own_package_and_its_tests_only() -> None:
    for path in _project_files():
        for module in _private_module_users(path):
            package = module.rpartition(".")[0]  # twoplustwo.kernels for twoplustwo.kernels._core
            own = _project_module(path).startswith(package + ".")
            its_tests = path.is_relative_to(ROOT / "tests" / package.split(".")[-1])
            assert own or its_tests, f"{path.relative_to(ROOT)} imports the private module {module}"


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a path that ends where it starts, or None."""
    done: set[str] = set()

    def visit(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return path[path.index(node) :] + [node]
        if node in done:
            return None
        for nxt in sorted(graph.get(node, ())):
            cycle = visit(nxt, path + [node])
            if cycle:
                return cycle
        done.add(node)
        return None

    for node in sorted(graph):
        cycle = visit(node, [])
        if cycle:
            return cycle
    return None


def test_the_runtime_import_graph_has_no_cycle() -> None:
    graph = _runtime_graph()
    # The reader sees the imports, or this test could not fail.
    assert {"twoplustwo.tables.load", "twoplustwo.kernels.pool"} <= graph["twoplustwo.hands.batch"]
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or [])


#: The runtime's floors, lowest first. The package itself (its
#: ``__init__``, the public face) stands on the abstraction floor's level,
#: below the command line; ``__main__`` is above everything. Any other module
#: at the package's top (``progress.py``, ``cluster.py``) is below every
#: floor: it imports no other module of the package.
FLOORS = ("vocab", "tables", "kernels", "hands", "odds", "abstraction", "cli")


def _floor(module: str) -> int:
    """The floor of a runtime module: its index in :data:`FLOORS`, or -1 below them all (above)."""
    parts = module.split(".")
    if len(parts) == 1:
        return FLOORS.index("abstraction")
    if parts[1] in FLOORS:
        return FLOORS.index(parts[1])
    return len(FLOORS) if parts[1] == "__main__" else -1


def upward(graph: dict[str, set[str]]) -> set[tuple[str, str]]:
    """The imports of ``graph`` that run up a floor: ``(importer, imported)``."""
    return {(m, d) for m, deps in graph.items() for d in deps if _floor(d) > _floor(m)}


def test_the_runtimes_floors_run_one_way() -> None:
    graph = _runtime_graph()
    assert upward(graph) == set(), "these imports run up a floor"
    # The check finds an import that runs up, or this test could not fail.
    assert upward({"twoplustwo.vocab.x": {"twoplustwo.tables.load", "twoplustwo.vocab.cards"}}) == {
        ("twoplustwo.vocab.x", "twoplustwo.tables.load")
    }
    # The reader places modules on their floors, or this test could not fail.
    assert _floor("twoplustwo.vocab.cards") < _floor("twoplustwo.tables.load") < _floor("twoplustwo.cli.parser")
    assert _floor("twoplustwo.progress") < 0 < _floor("twoplustwo") < _floor("twoplustwo.cli")
    assert _floor("twoplustwo.cli") < _floor("twoplustwo.__main__")
    below = [m for m in graph if _floor(m) < 0]
    assert "twoplustwo.cluster" in below and all(_floor(d) < 0 for m in below for d in graph[m])


def test_the_builder_uses_no_command_line() -> None:
    used = {
        (_module_name(path).replace("builder", "twoplustwo_builder", 1), m)
        for path in sorted((ROOT / "builder").rglob("*.py"))
        for m, _ in _imports(path)
        if m.startswith("twoplustwo.")
    }
    # The reader sees the builder's imports of the runtime, or this test could not fail.
    assert ("twoplustwo_builder.__main__", "twoplustwo.cluster") in used
    assert {m for _, m in used if m.startswith("twoplustwo.cli")} == set()


def test_the_builder_uses_only_the_runtimes_public_modules_and_names() -> None:
    private = {
        (path.relative_to(ROOT).as_posix(), m, n)
        for path in sorted((ROOT / "builder").rglob("*.py"))
        for m, names in _imports(path)
        if m.startswith("twoplustwo.")
        for n in names or [""]
        if any(part.startswith("_") for part in m.split(".")) or n.startswith("_")
    }
    assert private == set(), "the builder reaches the runtime's private modules or names"
    # The reader sees the builder's imports of the runtime's modules and names, or this test could not fail.
    used = {(m, n) for path in (ROOT / "builder").rglob("*.py") for m, names in _imports(path) for n in names}
    assert ("twoplustwo.vocab.rules.high", "HOLDEM_RULES") in used


def test_the_cycle_finder_finds_cycles() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b", "c"}, "b": {"c"}, "c": set()}) is None


_FRESH = """
import sys
import twoplustwo
assert "numpy" not in sys.modules, "import twoplustwo imported numpy"
values = [twoplustwo.evaluate([51, 47, 43, 39, 35, 0, 5]), twoplustwo.evaluate("As Ks Qs Js Ts 2c 3d")]
try:
    twoplustwo.evaluate("As As Ks Qs Js")
except ValueError as e:
    values.append(str(e))
print(values, twoplustwo.backend(), "numpy" in sys.modules)
"""


@pytest.mark.parametrize("backend", ["c", "numpy"])
def test_a_fresh_process_evaluates_without_importing_numpy(backend: str) -> None:
    # numpy's import is most of a fresh process's first evaluate(); the
    # single-hand path, table loading included, must not need it.
    env = {**os.environ, "TWOPLUSTWO_BACKEND": backend}
    if backend == "c" and extension() is None:
        pytest.skip("the C extension was not built (no C compiler at install)")
    out = subprocess.run([sys.executable, "-c", _FRESH], cwd=ROOT, env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == [
        "[7462,", "7462,", "\"card", "1", "('As'):", "duplicate", "of", "card", "0\"]", backend, "False"
    ]


def test_public_names_resolve_lazily_and_stay_functions() -> None:
    # Importing a submodule binds it on its package under its own name: no
    # module or folder of the package may be named like a public name.
    tops = {p.stem for p in RUNTIME.iterdir() if p.suffix == ".py" or (p / "__init__.py").is_file()}
    code = """
import importlib, pkgutil, sys, types, twoplustwo
clash = set(sys.argv[1].split()) & set(twoplustwo.__all__)
assert not clash, clash
for m in pkgutil.walk_packages(twoplustwo.__path__, "twoplustwo."):
    if m.name != "twoplustwo.__main__":
        importlib.import_module(m.name)
for name in twoplustwo.__all__:
    assert not isinstance(getattr(twoplustwo, name), types.ModuleType), name
assert set(twoplustwo.__all__) <= set(dir(twoplustwo))
try:
    twoplustwo.no_such_name
except AttributeError as e:
    print(e)
"""
    out = subprocess.run([sys.executable, "-c", code, " ".join(sorted(tops))], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "module 'twoplustwo' has no attribute 'no_such_name'"


def test_every_public_callable_has_a_signature() -> None:
    # What a REPL's help() and a notebook's completion show; the C entry point
    # of evaluate() included, through its text signature.
    import inspect

    import twoplustwo

    def is_error(obj: object) -> bool:
        return isinstance(obj, type) and issubclass(obj, BaseException)

    callables = [n for n in twoplustwo.__all__ if callable(obj := getattr(twoplustwo, n)) and not is_error(obj)]
    assert "evaluate" in callables and "equity" in callables
    for name in callables:
        params = inspect.signature(getattr(twoplustwo, name)).parameters
        assert "args" not in params and "kwargs" not in params, name  # no (*args, **kwargs) stand-ins
    assert list(inspect.signature(twoplustwo.evaluate).parameters) == ["cards", "game", "tables"]


@pytest.mark.packaging
def test_each_wheel_holds_exactly_its_own_package(tmp_path: Path, checkout_wheel: Built) -> None:
    # The runtime's wheel is the one pip wheel . builds in a checkout (tests/conftest.py); the builder's
    # is built here, from a copy: setuptools leaves build/ and egg-info folders in the source tree.
    src = source_copy(tmp_path / "src", tables=False)
    wheels = tmp_path / "wheels"
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(src / "builder")],
        capture_output=True,
        text=True,
        timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    tops = {}
    for wheel in [checkout_wheel.wheel, *sorted(wheels.glob("*.whl"))]:
        names = zipfile.ZipFile(wheel).namelist()
        tops[wheel.name.split("-")[0]] = sorted({n.split("/")[0] for n in names if ".dist-info" not in n})
    assert tops == {"twoplustwo": ["twoplustwo"], "twoplustwo_builder": ["twoplustwo_builder"]}


@pytest.mark.packaging
def test_without_a_compiler_the_install_succeeds_on_the_numpy_path(tmp_path: Path, checkout_wheel: Built) -> None:
    # That wheel was built where every compile fails (tests/conftest.py); the build succeeded.
    r = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(tmp_path / "site"),
         str(checkout_wheel.wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert r.returncode == 0, r.stderr
    assert not list((tmp_path / "site" / "twoplustwo").rglob("_core*.so")), "the extension was built after all"
    # The checkout's editable install would win over PYTHONPATH: leave its finder out.
    probe = (
        "import sys; sys.meta_path = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
        "import twoplustwo as tp; assert tp.__file__.startswith(sys.argv[1]), tp.__file__; "
        "print(tp.backend(), tp.evaluate('As Ks Qs Js Ts'))"
    )
    r = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "site")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**{k: v for k, v in os.environ.items() if k != "TWOPLUSTWO_BACKEND"},
             "PYTHONPATH": str(tmp_path / "site"), "TWOPLUSTWO_TABLES": str(ROOT / "tables")},
    )  # fmt: skip
    assert (r.returncode, r.stdout.split()) == (0, ["numpy", "7462"]), r.stderr
    # The first use said once why the numpy path runs and how to get the C one.
    assert r.stderr.count("RuntimeWarning") == 1 and "C extension was not built" in r.stderr, r.stderr
    assert "reinstall with a C compiler" in r.stderr
    # Choosing the numpy path on purpose says nothing.
    chosen = subprocess.run(
        [sys.executable, "-c", probe, str(tmp_path / "site")],
        capture_output=True, text=True, timeout=120, cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site"), "TWOPLUSTWO_TABLES": str(ROOT / "tables"),
             "TWOPLUSTWO_BACKEND": "numpy"},
    )  # fmt: skip
    assert (chosen.returncode, chosen.stderr) == (0, ""), chosen.stderr


#: The most lines a module of ``twoplustwo/`` or ``builder/`` (Python or C) may
#: have without a written reason: about 500, so that each holds one job.
MAX_LINES = 520
#: A long module says why at its top: a line among its first
#: :data:`REASON_LINES`, in its docstring or a comment (``#``, ``/*``, `` *``,
#: ``//``), that starts "Long because" and gives the reason, for a module that
#: is one job and reads best whole. For example::
#:
#:     """The k-means loop.
#:
#:     Long because the loop, its bounds and its stops share every local name.
#:     """
REASON = "Long because"
REASON_LINES = 30
def _gives_a_reason(text: str) -> bool:
    """Whether one of the first :data:`REASON_LINES` lines of ``text`` starts with :data:`REASON` and goes on."""
    for line in text.splitlines()[:REASON_LINES]:
        bare = line.strip().lstrip("#/*").strip().removeprefix('"""').removeprefix("'''").strip()
        if bare.startswith(REASON) and len(bare[len(REASON) :].strip(" :.,")) >= 10:
            return True
    return False


def _long_modules() -> set[str]:
    """The modules of twoplustwo/ and builder/ over :data:`MAX_LINES` lines that give no reason."""
    long = set()
    for top in ("twoplustwo", "builder"):
        for path in sorted((ROOT / top).rglob("*")):
            if path.suffix not in (".py", ".pyi", ".c", ".h") or not path.is_file():
                continue
            text = path.read_text(encoding="utf-8")
            if len(text.splitlines()) > MAX_LINES and not _gives_a_reason(text):
                long.add(path.relative_to(ROOT).as_posix())
    return long


def test_no_module_is_long_without_a_reason() -> None:
    assert _long_modules() == set(), f"over {MAX_LINES} lines: split by job, or say at the top '{REASON} ...'"


def test_the_reason_reader_sees_each_form() -> None:
    # Read from a docstring and from each kind of comment, or the test above could not fail.
    assert _gives_a_reason('"""The loop.\n\nLong because the loop and its stops share every local."""\n')
    assert _gives_a_reason('"""Long because the loop and its stops share every local."""\n')
    assert _gives_a_reason("# Long because the table below is one piece of data.\nimport os\n")
    assert _gives_a_reason("/* The walker.\n * Long because the unrolled walks are one job.\n */\n")
    assert _gives_a_reason("// Long because the unrolled walks are one job.\n")
    # Not without a reason after the words, not below the first lines, not elsewhere in a line.
    assert not _gives_a_reason('"""Long because."""\n')
    assert not _gives_a_reason("\n" * REASON_LINES + "# Long because the table below is one piece of data.\n")
    assert not _gives_a_reason("x = 1  # Long because the table below is one piece of data.\n")
    assert not _gives_a_reason('"""The loop, which is long."""\n')
