"""``pip install`` and go: the runtime's wheel, with its table bundle, in a fresh virtualenv and an empty home.

The wheel is built as ``make wheel`` builds it (the builder's bundle of the
checkout's tables in the package, pip builds the wheel) from a copy of the
source, installed into a new virtualenv outside the repository with its
dependencies from the package index, and used from a directory outside the
repository with ``HOME`` pointed at an empty directory: the first uses, in
three processes at once, install the tables once into the user's cache and
give the checkout's own answers.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from twoplustwo.hands.single import evaluate
from twoplustwo.odds.calculate import equity
from twoplustwo.tables.format import bundle_name

ROOT = Path(__file__).resolve().parents[2]
#: The wheel's size limit: the bundle is about 3.6 MB, the C extension and the code under 1 MB.
MAX_WHEEL_BYTES = 6_000_000

_PROBE = """
import sys
import twoplustwo as tp
assert tp.__file__.startswith(sys.argv[1]), tp.__file__
e = tp.equity(["AsAh", "KdKc"], method="exact")[0]
print(tp.evaluate("As Ks Qs Js Ts 2c 3d"), e.wins, e.ties, e.games, tp.evaluate("Ac Kc Qc Jc 9c", game="short-deck"))
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory, real_bundle: Path) -> Path:
    src = tmp_path_factory.mktemp("src")
    shutil.copytree(ROOT / "twoplustwo", src / "twoplustwo", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, src / name)
    # Where `make wheel` has the builder write it.
    (src / "twoplustwo" / "tables" / "bundled").mkdir()
    shutil.copy(real_bundle, src / "twoplustwo" / "tables" / "bundled" / real_bundle.name)
    out = tmp_path_factory.mktemp("wheels")
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out), str(src)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr
    (whl,) = out.glob("twoplustwo-*.whl")
    return whl


def test_the_wheel_holds_the_bundle_the_license_and_the_extension(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    assert f"twoplustwo/tables/bundled/{bundle_name()}" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names
    assert any(n.startswith("twoplustwo/kernels/_core") for n in names)
    assert 3_000_000 < wheel.stat().st_size <= MAX_WHEEL_BYTES, wheel.stat().st_size


def test_a_fresh_venv_evaluates_with_no_step_beyond_pip_install(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    python = venv / ("Scripts" if os.name == "nt" else "bin") / "python"
    installed = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(wheel)],
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
