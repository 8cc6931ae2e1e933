"""The shape of the code: two distributions joined by the file format, no import cycles.

- the runtime wheel holds ``twoplustwo`` only and the builder wheel
  ``twoplustwo_builder`` only (a top-level ``builder`` would clash with
  another distribution's package);
- no module of the runtime imports the builder, and none imports another
  module's underscore names;
- the runtime's import graph, read from the source with ``ast``, has no cycle.
"""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RUNTIME = ROOT / "twoplustwo"


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


def test_no_module_imports_another_modules_private_names() -> None:
    for path in sorted(RUNTIME.rglob("*.py")) + sorted((ROOT / "builder").rglob("*.py")):
        for module, names in _imports(path):
            private = [n for n in names if n.startswith("_") and not n.startswith("__")]
            assert not private, f"{path.relative_to(ROOT)} imports {private} from {module}"


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
    if backend == "c":
        pytest.importorskip("twoplustwo.kernels._core")
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


@pytest.mark.slow
def test_each_wheel_holds_exactly_its_own_package(tmp_path: Path) -> None:
    # Build from a copy: setuptools leaves build/ and egg-info folders in the source tree.
    src = tmp_path / "src"
    shutil.copytree(
        ROOT,
        src,
        ignore=shutil.ignore_patterns(".*", "tables", "build", "dist", "*.egg-info", "__pycache__", "bench"),
    )
    wheels = tmp_path / "wheels"
    r = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "-w", str(wheels), str(src), str(src / "builder")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stderr
    tops = {}
    for wheel in sorted(wheels.glob("*.whl")):
        names = zipfile.ZipFile(wheel).namelist()
        tops[wheel.name.split("-")[0]] = sorted({n.split("/")[0] for n in names if ".dist-info" not in n})
    assert tops == {"twoplustwo": ["twoplustwo"], "twoplustwo_builder": ["twoplustwo_builder"]}


@pytest.mark.slow
def test_without_a_compiler_the_install_succeeds_on_the_numpy_path(tmp_path: Path) -> None:
    src = tmp_path / "src"
    shutil.copytree(
        ROOT / "twoplustwo", src / "twoplustwo", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}  # a compiler that always fails
    r = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--target", str(tmp_path / "site"), str(src)],
        capture_output=True, text=True, timeout=300, env=env,
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
        env={**os.environ, "PYTHONPATH": str(tmp_path / "site"), "TWOPLUSTWO_TABLES": str(ROOT / "tables")},
    )  # fmt: skip
    assert (r.returncode, r.stdout.split()) == (0, ["numpy", "7462"]), r.stderr
