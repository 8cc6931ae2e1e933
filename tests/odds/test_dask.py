"""``preflop --dask``: every address that is not a working scheduler fails quickly, in one line."""

from __future__ import annotations

import contextlib
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from twoplustwo.cli import main
from twoplustwo.odds import preflop

# The first backend only: every --dask address here fails before any work, so no kernel runs.
pytestmark = pytest.mark.one_backend

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]

#: How long the fake servers hold a connection open. A client that never gives
#: up then fails (on the closed connection, after this long) instead of hanging.
HOLD = 20.0

#: Generous bound on a run with --dask-timeout 1, for a loaded 2-core machine.
QUICK = 10.0

#: What an SSH server says first: dask reads "SSH-2.0-" as a 2.8 EiB length.
SSH_BANNER = b"SSH-2.0-OpenSSH_9.6\r\n" + bytes(range(256))


@contextlib.contextmanager
def fake_server(reply: bytes) -> Iterator[str]:
    """A TCP server on 127.0.0.1 that sends ``reply`` on each connection and never reads; yields its address."""
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.05)
    stop = threading.Event()
    deadline = time.monotonic() + HOLD

    def serve() -> None:
        held = []
        while not stop.is_set() and time.monotonic() < deadline:
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            held.append(conn)
            with contextlib.suppress(OSError):  # the client may be gone already
                conn.sendall(reply)
        for conn in held:
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join()
        listener.close()


@pytest.fixture(autouse=True)
def _never_local(monkeypatch: pytest.MonkeyPatch) -> None:
    # A run that went ahead (locally, or on some cluster) fails at once instead of computing.
    def must_not_run(*args: object, **kwargs: object) -> object:
        raise AssertionError("preflop ran")

    monkeypatch.setattr(preflop, "preflop_vs_random", must_not_run)
    monkeypatch.setattr(preflop, "preflop_matchups", must_not_run)


def one_error_line(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, float]:
    """Run the command; check it printed just one error line; return the exit code, that line and the seconds."""
    start = time.monotonic()
    code = main(argv)
    seconds = time.monotonic() - start
    out, err = capsys.readouterr()
    assert (out, len(err.splitlines())) == ("", 1), err
    assert err.startswith("twoplustwo: error: ") and code != 0
    return code, err.strip(), seconds


def test_a_server_that_never_speaks_times_out(capsys: pytest.CaptureFixture[str]) -> None:
    with fake_server(b"") as address:
        code, line, seconds = one_error_line(["preflop", "--dask", address, "--dask-timeout", "1", "--quiet"], capsys)
    assert address in line and "within 1 s" in line and "--dask-timeout" in line
    assert 0.9 <= seconds < QUICK  # it waited for the timeout, not for ever


@pytest.mark.parametrize(
    "reply",
    [
        SSH_BANNER,
        b"\xff" * 16,  # a length past what numpy can allocate
        struct.pack("<Q", 16) + b"\x07" * 16,  # a small length, then frames that are garbage
        b"HTTP/1.1 400 Bad Request\r\n\r\n",
    ],
    ids=["ssh", "huge-length", "garbled-frames", "http"],
)
def test_a_server_speaking_another_protocol(reply: bytes, capsys: pytest.CaptureFixture[str]) -> None:
    with fake_server(reply) as address:
        code, line, seconds = one_error_line(["preflop", "--dask", address, "--dask-timeout", "1"], capsys)
    assert address in line and "not answer as a dask scheduler" in line
    assert seconds < QUICK


def test_another_protocol_in_a_process_of_its_own() -> None:
    # Nothing left behind prints at exit either (a half-made Client's __del__ once did).
    with fake_server(SSH_BANNER) as address:
        done = subprocess.run(
            [sys.executable, "-m", "twoplustwo", "preflop", "--dask", address, "--dask-timeout", "1"],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [f"twoplustwo: error: {address} does not answer as a dask scheduler "
                                        "(--dask takes a scheduler's address, e.g. tcp://host:8786)"]


def test_a_scheduler_without_workers(capsys: pytest.CaptureFixture[str]) -> None:
    with distributed.LocalCluster(
        n_workers=0, processes=False, protocol="tcp", host="127.0.0.1", dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        argv = ["preflop", "--dask", address, "--dask-timeout", "1", "--quiet"]
        code, line, seconds = one_error_line(argv, capsys)
    assert code == 1
    assert address in line and "no worker" in line and "1 s" in line and "--dask-timeout" in line
    assert 0.9 <= seconds < QUICK  # it waited for the timeout, not for ever


@pytest.mark.parametrize(
    ("address", "message"),
    [
        ("", "--dask needs a scheduler address such as tcp://host:8786, got ''"),
        (" ", "--dask needs a scheduler address such as tcp://host:8786, got ' '"),
        ("inproc://x", "--dask 'inproc://x' is not a scheduler address such as tcp://host:8786"),
        ("nonsense", "--dask 'nonsense' is not a scheduler address such as tcp://host:8786: missing port number"),
        ("udp://127.0.0.1:8786", "--dask 'udp://127.0.0.1:8786' is not a scheduler address such as tcp://host:8786"),
        ("tcp://127.0.0.1:port", "--dask 'tcp://127.0.0.1:port' is not a scheduler address"),
        ("tcp://127.0.0.1:99999", "--dask 'tcp://127.0.0.1:99999': port 99999 is not in 1..65535"),
    ],
)
def test_bad_addresses(address: str, message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, line, seconds = one_error_line(["preflop", "--dask", address], capsys)
    assert code == 2 and message in line
    assert seconds < QUICK


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--dask-timeout", "0"], "--dask-timeout must be a number of seconds above 0 and at most 86400, got 0"),
        (["--dask-timeout", "-1"], "--dask-timeout must be a number of seconds above 0 and at most 86400, got -1"),
        (["--dask-timeout", "nan"], "--dask-timeout must be a number of seconds above 0 and at most 86400, got nan"),
        (["--dask-timeout", "inf"], "--dask-timeout must be a number of seconds above 0 and at most 86400, got inf"),
        (["--dask-timeout", "1e300"], "got 1e+300"),
        (["--dask-timeout", "soon"], "argument --dask-timeout: invalid float value: 'soon'"),
        (["--dask-timeout"], "argument --dask-timeout: expected one argument"),
    ],
)
def test_bad_timeouts(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code, line, _ = one_error_line(["preflop", "--dask", "tcp://127.0.0.1:8786", *argv], capsys)
    assert code == 2 and message in line


def test_a_timeout_needs_dask(capsys: pytest.CaptureFixture[str]) -> None:
    code, line, _ = one_error_line(["preflop", "--dask-timeout", "5"], capsys)
    assert code == 2 and "--dask-timeout is for --dask" in line
