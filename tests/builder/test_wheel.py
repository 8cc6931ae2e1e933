"""``pip install`` and go: every standard build of the runtime's wheel carries the table bundle.

A wheel build runs the builder of its own source tree (``wheel_tables.py``):

- the sdist carries the builder and no tables; pip builds a wheel from it in
  an isolated build environment, as ``pip install`` of an sdist does, and
  that build makes a new table set and bundles it (the suite's one table
  build from nothing, about 30 s of CPU);
- ``pip wheel .`` in a checkout after ``make`` (``checkout_wheel`` in
  tests/conftest.py) bundles the checkout's own tables instead, reading them
  only, into the same bytes;
- the wheel from the sdist, installed into a new virtualenv outside the
  repository with its dependencies from the package index, and used from a
  directory outside it with ``HOME`` an empty directory: the first uses, in
  three processes at once, install the tables once into the user's cache and
  give the checkout's own answers;
- a build whose builder fails or is missing fails, saying why, and leaves no
  wheel; an editable install (``make``) runs no builder.

The tests that build or install a wheel (the checkout's, whose build
compresses the tables, and the sdist's, a table build from nothing and a
fresh virtualenv) are marked ``packaging``: ``make test-packaging`` runs
them (CI too), ``make test`` leaves them out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from tests.wheels import NO_COMPILER, ROOT, Built, build_sdist, pip_wheel, run_pip_wheel, source_copy
from twoplustwo.hands.single import evaluate
from twoplustwo.odds.equity import equity
from twoplustwo.tables.format import bundle_name
from twoplustwo.tables.load import default_path
from twoplustwo_builder.dag import wheel as wheel_module
from twoplustwo_builder.dag.selfcheck import SelfCheckError

#: The wheel's size limit: the bundle is about 3.6 MB, the C extension and the code under 1 MB.
MAX_WHEEL_BYTES = 6_000_000
#: Where the bundle sits in a wheel.
BUNDLE = f"twoplustwo/tables/bundled/{bundle_name()}"

_PROBE = """
import sys
import twoplustwo as tp
assert tp.__file__.startswith(sys.argv[1]), tp.__file__
e = tp.equity(["AsAh", "KdKc"], method="exact")[0]
print(tp.evaluate("As Ks Qs Js Ts 2c 3d"), e.wins, e.ties, e.games, tp.evaluate("Ac Kc Qc Jc 9c", game="short-deck"))
"""


@pytest.fixture(scope="module")
def sdist(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sdist of a checkout after ``make``: its tables are there, and must stay out."""
    src = source_copy(tmp_path_factory.mktemp("sdist") / "src", tables=True)
    return build_sdist(src, tmp_path_factory.mktemp("dist"))


@pytest.fixture(scope="module")
def wheel(sdist: Path, tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The wheel pip builds from the sdist, in an isolated build environment."""
    return pip_wheel(sdist, tmp_path_factory.mktemp("wheels"), isolated=True)


def _bundle(wheel: Path) -> bytes:
    return zipfile.ZipFile(wheel).read(BUNDLE)


def _files(folder: Path) -> set[str]:
    """The files of ``folder`` a clean checkout has, relative to the checkout."""
    skip = ("__pycache__", "build", "dist")
    return {
        p.relative_to(ROOT).as_posix()
        for p in folder.rglob("*")
        if p.is_file()
        and p.suffix not in (".pyc", ".so")
        and not any(part in skip or part.endswith(".egg-info") for part in p.relative_to(folder).parts)
    }


def test_the_sdist_carries_the_runtime_the_builder_and_the_build_step_and_no_tables(sdist: Path) -> None:
    with tarfile.open(sdist) as tar:
        names = {n.partition("/")[2] for n in tar.getnames()}
    runtime, builder = _files(ROOT / "twoplustwo"), _files(ROOT / "builder")
    assert "twoplustwo/tables/default.py" in runtime and "builder/dag/wheel.py" in builder
    assert (runtime | builder) - names == set()
    assert {"wheel_tables.py", "pyproject.toml", "MANIFEST.in", "LICENSE", "README.md"} <= names
    built = [n for n in names if n.startswith(("tables", "build/")) or n.endswith((".npy", ".zst", ".so", ".pyc"))]
    assert built == [] and not any("twoplustwo_builder.egg-info" in n for n in names)


@pytest.mark.packaging
def test_the_wheel_from_the_sdist_holds_a_new_bundle_the_license_and_the_extension(wheel: Built) -> None:
    assert "twoplustwo_builder.dag.wheel: no whole table set at" in wheel.log, wheel.log[-3000:]
    names = zipfile.ZipFile(wheel.wheel).namelist()
    assert BUNDLE in names
    assert {f for f in _files(ROOT / "twoplustwo") if f.endswith(".py")} - set(names) == set()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert any(n.startswith("twoplustwo/kernels/_core") for n in names)
    assert 3_000_000 < wheel.wheel.stat().st_size <= MAX_WHEEL_BYTES, wheel.wheel.stat().st_size


@pytest.mark.packaging
def test_pip_wheel_in_a_checkout_bundles_its_tables_reading_them_only(checkout_wheel: Built, wheel: Built) -> None:
    src = checkout_wheel.source
    assert f"twoplustwo_builder.dag.wheel: bundled the tables at {src / 'tables'}" in checkout_wheel.log
    # The same bytes as the bundle of tables built from nothing: the checkout's set is that set.
    assert _bundle(checkout_wheel.wheel) == _bundle(wheel.wheel)
    # The bundle went into setuptools' build directory, not the package's folder, and the tables were
    # only read: nothing in them, nor the folder, changed between the copy's link to them and the wheel.
    assert not (src / "twoplustwo" / "tables" / "bundled").exists()
    linked, made = (src / "tables").lstat().st_mtime_ns, checkout_wheel.wheel.stat().st_mtime_ns
    tables = default_path()
    assert [p for p in [tables, *tables.iterdir()] if linked <= p.lstat().st_mtime_ns <= made] == []


def test_damaged_tables_are_never_bundled_a_new_set_is_built_instead(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The checkout's set, linked file by file, but for one array copied with a byte flipped: it loads
    # (sizes match), so only the hashes write_bundle checks find it.
    source = default_path()
    tables = tmp_path / "tables"
    tables.mkdir()
    for p in source.iterdir():
        if p.is_file() and not p.name.startswith("."):
            (tables / p.name).symlink_to(p)
    (damaged,) = [p for p in tables.iterdir() if p.name.startswith("dag5.layer2.")]
    data = bytearray(damaged.read_bytes())
    data[-1] ^= 1
    damaged.unlink()
    damaged.write_bytes(bytes(data))
    built: list[Path] = []

    def build(target: Path, **_: object) -> None:
        built.append(Path(target))
        raise SelfCheckError("stopped before building")

    monkeypatch.setattr(wheel_module, "build", build)
    out = tmp_path / "bundled"
    assert wheel_module.main(["--tables", str(tables), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"the tables at {tables} cannot be bundled" in err and damaged.name in err, err
    assert "no table bundle: stopped before building" in err, err
    # The new set was to go into a scratch directory, never into the tables given.
    assert len(built) == 1 and tables not in built[0].parents
    assert not list(out.glob("*"))


@pytest.mark.parametrize("damage", ["broken", "missing"])
def test_a_wheel_build_whose_builder_fails_fails_saying_why(damage: str, tmp_path: Path) -> None:
    src = source_copy(tmp_path / "src", tables=False)
    if damage == "missing":
        shutil.rmtree(src / "builder")
        said = [f"{src / 'builder'} is missing or incomplete"]
    else:
        (src / "builder" / "dag" / "pipeline.py").write_text('raise RuntimeError("the builder broke")\n')
        said = ["RuntimeError: the builder broke", "the table bundle the wheel carries could not be made"]
    out = tmp_path / "wheels"
    r = run_pip_wheel(src, out, isolated=False, env=NO_COMPILER)
    assert r.returncode != 0
    for text in said:
        assert text in r.stdout + r.stderr, r.stdout[-3000:] + r.stderr[-3000:]
    assert not list(out.glob("*.whl"))


def test_an_editable_install_runs_no_builder(tmp_path: Path) -> None:
    # Without the builder a wheel build fails (above); the editable one, which make runs, succeeds.
    src = source_copy(tmp_path / "src", tables=False)
    shutil.rmtree(src / "builder")
    code = "import sys; from setuptools import build_meta; print(build_meta.build_editable(sys.argv[1]))"
    r = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)], cwd=src, capture_output=True, text=True, timeout=300,
        env={**os.environ, **NO_COMPILER},
    )  # fmt: skip
    assert r.returncode == 0, r.stderr[-3000:]
    names = zipfile.ZipFile(tmp_path / r.stdout.split()[-1]).namelist()
    assert not [n for n in names if "bundled" in n or n.endswith(".zst")], names


@pytest.mark.packaging
def test_a_fresh_venv_evaluates_with_no_step_beyond_pip_install(wheel: Built, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel.wheel)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert installed.returncode == 0, installed.stderr
    home = tmp_path / "home"
    home.mkdir()
    away = tmp_path / "elsewhere"
    away.mkdir()
    drop = {"TWOPLUSTWO_TABLES", "TWOPLUSTWO_BACKEND", "XDG_CACHE_HOME", "PYTHONPATH", "VIRTUAL_ENV"}
    env = {k: v for k, v in os.environ.items() if k not in drop} | {"HOME": str(home)}
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, env=env, check=True,
    ).stdout.strip()  # fmt: skip
    first = [
        subprocess.Popen(
            [str(python), "-c", _PROBE, site], cwd=away, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            text=True,
        )  # fmt: skip
        for _ in range(3)
    ]
    done = [p.communicate(timeout=300) for p in first]
    assert [p.returncode for p in first] == [0, 0, 0], [err for _, err in done]
    aces = equity(["AsAh", "KdKc"], method="exact")[0]
    expected = [evaluate("As Ks Qs Js Ts 2c 3d"), aces.wins, aces.ties, aces.games]
    expected.append(evaluate("Ac Kc Qc Jc 9c", game="short-deck"))
    assert [list(map(int, out.split())) for out, _ in done] == [expected] * 3
    notices = [err for _, err in done if "first use: installing the tables" in err]
    assert len(notices) == 1, [err for _, err in done]
    assert str(home / ".cache" / "twoplustwo" / "tables") in notices[0]
    # Later processes load what the first use installed, and say nothing.
    again = subprocess.run([str(python), "-c", _PROBE, site], cwd=away, env=env, capture_output=True, text=True)
    assert (again.returncode, again.stderr) == (0, ""), again.stderr
