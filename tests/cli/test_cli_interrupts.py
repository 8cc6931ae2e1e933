"""Ctrl-C in ``twoplustwo build`` and ``abstraction`` at any moment: one line on stderr, exit 130, nothing left.

The command runs the builder as its own program. A Ctrl-C reaches both
processes (the terminal signals the whole group) or the command alone
(``kill -INT``). The moments that went wrong: while the builder imports
(its traceback, then the command's line), and once it works, when the
command killed it a quarter of a second after the signal, before it had
removed its staging directory. The moments are found by watching the
processes, not by sleeping: the builder's process appearing, its staging
directory appearing.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.cli.helpers import assert_one_error_line
from twoplustwo.cli import main

ROOT = Path(__file__).resolve().parents[2]
# Give up on a moment that never comes, or a command that never exits.
TIMEOUT = 120.0

pytestmark = pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")


def builder_started(pid: int) -> bool:
    """Whether a child of ``pid`` runs the builder's program: past its exec, so importing."""
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                argv = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid and b"twoplustwo_builder" in argv:
                return True
    return False


def wait_for(what: str, ready: Callable[[], bool], proc: subprocess.Popen[str]) -> None:
    end = time.monotonic() + TIMEOUT
    while not ready():
        assert proc.poll() is None, f"exited before {what}: {proc.communicate()}"
        assert time.monotonic() < end, f"no {what} in {TIMEOUT} s"
        time.sleep(0.002)


def twoplustwo(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, "-m", "twoplustwo", *args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT, start_new_session=True)  # fmt: skip


def finish(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return proc.returncode, out, err


@pytest.mark.parametrize("command", ["build", "abstraction"])
def test_ctrl_c_while_the_builder_imports(tmp_path: Path, command: str) -> None:
    target = tmp_path / "tables"
    args = ["--street", "flop", "--method", "emd", "--k", "5"] if command == "abstraction" else []
    proc = twoplustwo(command, *args, "--out", str(target), "--quiet")
    wait_for("builder process", lambda: builder_started(proc.pid), proc)
    os.killpg(proc.pid, signal.SIGINT)  # the terminal's Ctrl-C: to the command and the builder
    code, out, err = finish(proc)
    assert (code, out) == (130, ""), err
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert "interrupted" in err
    assert not target.exists()


@pytest.mark.parametrize("group", [True, False], ids=["to both", "to the command alone"])
def test_ctrl_c_while_the_builder_builds(tmp_path: Path, group: bool) -> None:
    target = tmp_path / "tables"
    proc = twoplustwo("build", "--out", str(target), "--quiet")
    wait_for("staging directory", lambda: target.is_dir() and any(target.glob(".build-*")), proc)
    if group:
        os.killpg(proc.pid, signal.SIGINT)
    else:
        proc.send_signal(signal.SIGINT)
    code, out, err = finish(proc)
    assert (code, out) == (130, ""), err
    assert err == "build interrupted, previous tables left as they were\n"
    assert not target.exists()  # the builder made it, and removed it again with its staging


def test_ctrl_c_while_the_command_loads_its_modules(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    class Loading:
        def __getattr__(self, name: str) -> object:
            raise KeyboardInterrupt

    # The script imports twoplustwo.cli and calls main, which loads the commands: interrupted there.
    monkeypatch.setitem(sys.modules, "twoplustwo.cli.parser", Loading())
    code = main(["--version"])
    line = assert_one_error_line(code, *capsys.readouterr())
    assert (code, line) == (130, "twoplustwo: error: interrupted")

