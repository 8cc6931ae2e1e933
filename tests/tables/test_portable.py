"""The table set, single hands and batches once more on the portable paths, in a child pytest.

Systems without the POSIX calls (mmap with page advice, flock) take the
portable stand-ins of :mod:`twoplustwo.tables.system`, chosen once, at
import, by ``$TWOPLUSTWO_PORTABLE``. So these tests run in a child process
with the variable set: loading, publishing, first-use installs and pages,
single hands and batches, and many users of one set.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.backends import INSTALLED
from tests.tinysets import ROOT
from twoplustwo.tables.system import ENV_VAR

PORTABLE_TESTS = [
    "tests/tables/test_tables.py",
    "tests/tables/test_publish.py",
    "tests/tables/test_pages.py",
    "tests/tables/test_readers.py",
    "tests/tables/test_first_use.py",
    "tests/hands/test_evaluate.py",
    "tests/kernels/test_many_users.py",
]


@pytest.mark.slow
def test_the_portable_paths_pass_the_same_tests() -> None:
    # The first backend alone: the kernels do not depend on how the tables were mapped.
    argv = ["-q", "-p", "no:cacheprovider", "-p", "no:xdist", "-m", "not slow", "--backend", INSTALLED[0]]
    child = subprocess.run(
        [sys.executable, "-m", "pytest", *argv, *PORTABLE_TESTS],
        cwd=ROOT,
        env={**os.environ, ENV_VAR: "1"},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert child.returncode == 0, child.stdout[-6000:] + child.stderr[-2000:]
    assert " passed" in child.stdout.splitlines()[-1], child.stdout[-2000:]
