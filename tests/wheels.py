"""Wheels and sdists of the runtime, built the standard way from a copy of the source, for the tests of what users get.

Builds run on a copy: setuptools leaves ``build/`` and ``*.egg-info`` in the
tree it builds. The copy leaves out what a clean checkout lacks (compiled
cores, caches, the virtualenv) and, unless asked to have them, the tables;
with ``tables=True`` its ``tables/`` is a link to the suite's set (the
default path: this checkout's ``tables/`` unless ``$TWOPLUSTWO_TABLES``
says otherwise), as a checkout after ``make`` has one (the wheel build only
reads it).

Every wheel build of the runtime runs the builder (``wheel_tables.py``), and
a build that finds no tables builds a new set (about 30 s of CPU): the suite
does that once, for the sdist round trip (``tests/builder/test_wheel.py``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

from twoplustwo.tables.load import default_path

__all__ = ["NO_COMPILER", "ROOT", "Built", "build_sdist", "pip_wheel", "run_pip_wheel", "source_copy"]

ROOT = Path(__file__).resolve().parents[1]
#: The environment of a build where every compile fails at once: the C core, optional, is left out, and the
#: build takes seconds instead of the compile's fifteen.
NO_COMPILER = {"CC": "false", "LDSHARED": "false"}


def source_copy(dest: Path, *, tables: bool) -> Path:
    """A copy of the source at ``dest``, as a clean checkout has it; with ``tables``, the suite's tables in it."""
    anywhere = shutil.ignore_patterns(".*", "build", "dist", "*.egg-info", "__pycache__", "*.so", "_build")

    def ignore(folder: str, names: list[str]) -> set[str]:
        # tables/ at the top only: twoplustwo/tables is the runtime's code.
        top = {"tables"} & set(names) if Path(folder) == ROOT else set()
        return set(anywhere(folder, names)) | top

    shutil.copytree(ROOT, dest, ignore=ignore)
    if tables:
        (dest / "tables").symlink_to(default_path(), target_is_directory=True)
    return dest


def build_sdist(source: Path, out: Path) -> Path:
    """The sdist of the runtime at ``source``, written into ``out`` by setuptools' own PEP 517 hook."""
    code = "import sys; from setuptools import build_meta; print(build_meta.build_sdist(sys.argv[1]))"
    r = subprocess.run([sys.executable, "-c", code, str(out)], cwd=source, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return out / r.stdout.split()[-1]


class Built(NamedTuple):
    """A wheel :func:`pip_wheel` built, what it was built from, and pip's verbose output (the builder's notes)."""

    wheel: Path
    source: Path
    log: str


def run_pip_wheel(
    source: Path, out: Path, *, isolated: bool, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``pip wheel`` of ``source`` (a folder or an sdist) into ``out``, without dependencies: the finished process.

    ``isolated`` builds as users' pip does, in a fresh build environment with
    the build requirements from the package index; else in this virtualenv,
    which holds them (faster). The output is verbose: it holds the builder's notes.
    """
    args = [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "-w", str(out), str(source)]
    if not isolated:
        args.insert(4, "--no-build-isolation")
    return subprocess.run(args, capture_output=True, text=True, timeout=900, env={**os.environ, **(env or {})})


def pip_wheel(source: Path, out: Path, *, isolated: bool, env: dict[str, str] | None = None) -> Built:
    """The wheel :func:`run_pip_wheel` builds, which must succeed."""
    r = run_pip_wheel(source, out, isolated=isolated, env=env)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    (wheel,) = out.glob("twoplustwo-*.whl")
    return Built(wheel, source, r.stdout + r.stderr)
