"""Suite-wide set-up: the tables every test needs, the markers, the tests that run on each backend, and the wheel.

``make test`` runs everything but the packaging tests, spread over
the machine's cores by pytest-xdist; ``make test-packaging`` runs those
(tests marked ``packaging``: every test that builds or installs a wheel,
among them the round trip of the wheel built from the sdist, which builds
its tables from nothing, and a fresh virtualenv that installs it), and CI
runs both; ``make test-fast`` (``pytest -m "not slow"``) leaves
out the tests marked slow too, for a quick check while editing. Missing tables stop the
run with one clear message instead of turning hundreds of tests into skips,
which could hide a regression.

**Each backend in one session.** The tests of the floors that run kernels
(``tests/hands``, ``tests/odds``, ``tests/abstraction``) ask for
:func:`kernel_backend` through their folder's ``conftest.py``, so each runs
once on the C core and once on the numpy reference (its id ends in ``[c]``
or ``[numpy]``), both held to the same assertions. The numpy run leaves out
what it would only repeat: tests marked ``slow``, tests marked
``one_backend`` (they run no kernel, or time one that the kernel tests
already hold to the other), and tests that take :func:`both` or
:func:`every_backend` and run each backend themselves (a fuzzer draws
each input once and holds every backend to it). ``pytest --backend numpy`` (or ``c``) runs one only.
"""

from __future__ import annotations

import fcntl
import mmap
import os
import re
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

from tests.backends import INSTALLED, use_backend
from tests.wheels import NO_COMPILER, Built, pip_wheel, source_copy
from twoplustwo.kernels import numpy as numpy_backend
from twoplustwo.kernels.choice import BACKENDS, ENV_VAR, extension
from twoplustwo.kernels.games import walker_of
from twoplustwo.tables import system
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import Tables, default_path


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--backend",
        choices=("all", *BACKENDS),
        default="all",
        help="the backend the kernel tests run on (default: each one installed)",
    )


def pytest_configure(config: pytest.Config) -> None:
    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        # A suite started in the background (a non-interactive shell's `&`) inherits SIGINT ignored, and so would
        # the xdist workers and every program the Ctrl-C tests start: those tests press Ctrl-C at a program in
        # the foreground, whose SIGINT is not ignored.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    config.addinivalue_line(
        "markers", "slow: takes several seconds (builds, kills, races, exhaustive sweeps); left out by make test-fast"
    )
    config.addinivalue_line(
        "markers", "one_backend: runs on the first backend only (it runs no kernel, or repeats a kernel test's work)"
    )
    config.addinivalue_line(
        "markers",
        "packaging: builds or installs a wheel (the checkout's, with its table bundle, or the sdist's, with tables "
        "from nothing, in a fresh virtualenv: minutes of CPU); make test-packaging runs these, make test leaves "
        "them out",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "kernel_backend" in metafunc.fixturenames:
        wanted = metafunc.config.getoption("backend")
        params = INSTALLED if wanted == "all" else tuple(b for b in INSTALLED if b == wanted)
        if not params:
            raise pytest.UsageError(f"--backend {wanted}: that backend is not installed here")
        metafunc.parametrize("kernel_backend", params, indirect=True, scope="module")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Only the first backend runs what the numpy run would only repeat (above).
    first = INSTALLED[0]
    keep, drop = [], []
    for item in items:
        spec = getattr(item, "callspec", None)
        later = spec is not None and spec.params.get("kernel_backend", first) != first
        repeats = item.get_closest_marker("slow") or item.get_closest_marker("one_backend")
        compares = not {"both", "every_backend"}.isdisjoint(getattr(item, "fixturenames", ()))
        (drop if later and (repeats or compares) else keep).append(item)
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_sessionstart(session: pytest.Session) -> None:
    tables = default_path()
    if not (tables / MANIFEST).is_file():
        pytest.exit(
            f"no tables at {tables}: build them with `make` (or set $TWOPLUSTWO_TABLES) before testing",
            returncode=1,
        )


@pytest.fixture(scope="module")
def kernel_backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """The backend this module's tests run on now: ``"c"`` or ``"numpy"`` (parametrized above)."""
    with use_backend(request.param) as name:
        yield name


def _tables_with(backend: str, monkeypatch: pytest.MonkeyPatch) -> Tables:
    base = load_tables()
    with monkeypatch.context() as m:
        m.setenv(ENV_VAR, backend)
        t = Tables(base.path, base.manifest, base.buffers)
        _ = walker_of(t)  # chosen now, while the variable says so
    return t


@pytest.fixture(scope="module")
def every_backend() -> dict[str, Tables]:
    """A table set on each installed backend (``INSTALLED``, fastest first), over the same mapped buffers.

    For tests that run every backend themselves: a fuzzer that draws each
    input once and holds each backend to it, and the backends to each other.
    Runs where the C core was not built too (numpy alone).
    """
    with pytest.MonkeyPatch.context() as m:
        return {name: _tables_with(name, m) for name in INSTALLED}


@pytest.fixture
def both(monkeypatch: pytest.MonkeyPatch) -> tuple[Tables, Tables]:
    """(C, numpy) table sets over the same mapped buffers, for tests that hold the backends together."""
    if extension() is None:
        pytest.skip("twoplustwo.kernels._core was not built (no C compiler at install)")
    c, ref = _tables_with("c", monkeypatch), _tables_with("numpy", monkeypatch)
    assert not isinstance(walker_of(c), numpy_backend.Walker) and isinstance(walker_of(ref), numpy_backend.Walker)
    return c, ref


def _pmd_kib(addr: int) -> int:
    """FilePmdMapped of the mapping holding ``addr`` in this process, in KiB."""
    inside = False
    with open("/proc/self/smaps") as fh:
        for line in fh:
            m = re.match(r"^([0-9a-f]+)-([0-9a-f]+) ", line)
            if m:
                inside = int(m.group(1), 16) <= addr < int(m.group(2), 16)
            elif inside and line.startswith("FilePmdMapped:"):
                return int(line.split()[1])
    raise AssertionError(f"no mapping holds {addr:#x}")


@pytest.fixture
def advisory_locks() -> None:
    """Skip where publishers take no locks (no flock, or the portable paths forced): nothing tells a live writer."""
    if not system.LOCKS:
        pytest.skip("no advisory locks on this path (twoplustwo.tables.system)")


@pytest.fixture(scope="session")
def system_maps_huge_file_pages(tmp_path_factory: pytest.TempPathFactory) -> None:
    """Skip unless a file written in one write() and mapped with MADV_HUGEPAGE gets a 2 MiB page (Linux)."""
    if not sys.platform.startswith("linux") or not hasattr(mmap, "MADV_HUGEPAGE"):
        pytest.skip("2 MiB pages of files are Linux's")
    if system.PORTABLE:
        pytest.skip(f"${system.ENV_VAR} maps with Python's mmap, which gives no page advice")
    path = tmp_path_factory.mktemp("control") / "control.bin"
    with open(path, "wb", buffering=0) as fh:
        fh.write(np.arange(6 << 20, dtype=np.uint8).tobytes())
    with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as m:
        m.madvise(mmap.MADV_HUGEPAGE)
        view = np.frombuffer(m, dtype=np.uint8)
        int(view[::4096].sum(dtype=np.uint64))
        huge = _pmd_kib(view.ctypes.data)
        del view
    if huge == 0:
        pytest.skip("this system maps no file with 2 MiB pages (a control file written in one write() got none)")


def made_once(tmp_path_factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None]) -> Path:
    """The folder ``name`` that ``make`` fills once per run of the suite, however many xdist workers ask for it.

    Each worker makes its own session fixtures; a costly one that several
    workers need is made here once, under a lock, in the base folder the
    run's workers share, and the others wait for it and read it.
    """
    root = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        root = root.parent  # the run's own folder: each worker's is a folder in it
    out, done = root / name, root / f"{name}.done"
    with open(root / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file closes
        if not done.exists():
            shutil.rmtree(out, ignore_errors=True)  # a worker that failed half-way
            out.mkdir()
            make(out)
            done.touch()
    return out


@pytest.fixture(scope="session")
def checkout_wheel(tmp_path_factory: pytest.TempPathFactory) -> Built:
    """The runtime's wheel that ``pip wheel .`` builds in a checkout after ``make``, built once per run.

    Built in this virtualenv (no build isolation) with no compiler, so the C
    core is left out (tests/house checks that such an install works), from a
    copy of the source whose ``tables/`` is the suite's set: the build
    bundles that set (about 20 s of CPU, the compression). The wheels' tests
    in tests/builder and tests/house share it.
    """

    def build(out: Path) -> None:
        built = pip_wheel(source_copy(out / "src", tables=True), out / "wheel", isolated=False, env=NO_COMPILER)
        (out / "log.txt").write_text(built.log)

    out = made_once(tmp_path_factory, "checkout-wheel", build)
    (wheel,) = (out / "wheel").glob("twoplustwo-*.whl")
    return Built(wheel, out / "src", (out / "log.txt").read_text())
