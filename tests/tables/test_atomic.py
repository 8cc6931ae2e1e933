"""Output files: what is at the path decides how it is written, and nothing of the user's is lost.

A missing path or a regular file is replaced atomically, keeping the old
file's mode (and owner where allowed); a symbolic link is followed and its
target replaced; a FIFO, a character device or the command line's ``-`` is
written into; anything else is refused. The three writers share one
function (:func:`twoplustwo.tables.atomic.write_file`), so most cases go through
the cheapest, :func:`write_csv`; each writer is run once through a link.
"""

from __future__ import annotations

import contextlib
import os
import socket
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.tinysets import write_tiny
from twoplustwo.cli import main
from twoplustwo.hands.handranks import export_handranks
from twoplustwo.odds.charts import draw_png, write_csv
from twoplustwo.odds.results import PlayerEquity
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.load import ENV_VAR, Tables

ROOT = Path(__file__).resolve().parents[2]
RESULTS = {"AA": PlayerEquity("AA", 2_097_572_400, 1_781_508_418, 11_402_312, 0.8520371330210104)}
CSV = b"class,wins,ties,losses,games,equity\nAA,1781508418,11402312,304661670,2097572400,0.8520371330210104\n"


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Tables:
    """A table set of one node per depth: it exports in milliseconds (fill 0 passes the range checks)."""
    return load_tables(write_tiny(tmp_path_factory.mktemp("tiny"), 0))


@pytest.fixture
def umask_022() -> Iterator[None]:
    # A fixed umask, so that a mode the old code would give by chance cannot pass for a kept one.
    old = os.umask(0o022)
    yield
    os.umask(old)


def _csv(path: Path) -> None:
    write_csv(RESULTS, path)


def _png(path: Path) -> None:
    pytest.importorskip("matplotlib")
    draw_png(RESULTS, path)


def _names(directory: Path) -> list[str]:
    return sorted(os.listdir(directory))


# ------------------------------------------------------------ symbolic links


@pytest.mark.parametrize("writer", ["csv", "png", "handranks"])
def test_a_link_stays_a_link_and_its_target_gets_the_bytes(tmp_path: Path, tiny: Tables, writer: str) -> None:
    write: Callable[[Path], Any] = {
        "csv": _csv,
        "png": _png,
        "handranks": lambda p: export_handranks(p, tables=tiny, quiet=True),
    }[writer]
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    target = there / "shared.out"
    target.write_bytes(b"old bytes")
    link = here / "out"
    link.symlink_to(target)
    write(link)
    assert link.is_symlink() and os.readlink(link) == str(target)
    data = target.read_bytes()
    assert data != b"old bytes" and data[:4] in (b"clas", b"\x89PNG", b"\0\0\0\0")
    assert _names(here) == ["out"] and _names(there) == ["shared.out"]


def test_a_chain_of_links_and_a_dangling_link(tmp_path: Path) -> None:
    final = tmp_path / "final.csv"
    final.write_bytes(b"old")
    (tmp_path / "middle").symlink_to("final.csv")  # relative, as ln -s makes them
    (tmp_path / "first").symlink_to(tmp_path / "middle")
    _csv(tmp_path / "first")
    assert final.read_bytes() == CSV
    assert (tmp_path / "first").is_symlink() and (tmp_path / "middle").is_symlink()

    (tmp_path / "dangling").symlink_to("made.csv")
    _csv(tmp_path / "dangling")
    assert (tmp_path / "dangling").is_symlink() and (tmp_path / "made.csv").read_bytes() == CSV
    assert _names(tmp_path) == ["dangling", "final.csv", "first", "made.csv", "middle"]

    (tmp_path / "nowhere").symlink_to(tmp_path / "missing" / "x.csv")
    with pytest.raises(ValueError, match=r"nowhere: a symbolic link to .*missing/x\.csv, in no directory that exists"):
        _csv(tmp_path / "nowhere")


def test_a_failure_through_a_link_leaves_the_target_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    here, there = tmp_path / "here", tmp_path / "there"
    here.mkdir()
    there.mkdir()
    (there / "t.csv").write_bytes(b"old")
    (here / "out.csv").symlink_to(there / "t.csv")

    def interrupted(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _csv(here / "out.csv")
    monkeypatch.undo()
    assert (there / "t.csv").read_bytes() == b"old"
    assert _names(here) == ["out.csv"] and _names(there) == ["t.csv"]


# ------------------------------------------------- FIFOs and character devices


def test_a_fifo_is_written_into_not_replaced(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    # A second name for the FIFO: if it were replaced, opening this one for
    # writing releases the reader, which would otherwise wait for ever.
    keep = tmp_path / "pipe-kept"
    os.link(fifo, keep)
    got: list[bytes] = []

    def read() -> None:
        with open(fifo, "rb") as f:
            got.append(f.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        _csv(fifo)
    finally:
        with contextlib.suppress(OSError):  # ENXIO: the reader is done already
            os.close(os.open(keep, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(60)
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO was replaced"
    assert got == [CSV]
    assert _names(tmp_path) == ["pipe", "pipe-kept"]


@pytest.mark.skipif(not os.path.exists("/dev/null"), reason="no /dev/null")
def test_dev_null_is_written_into_not_replaced(tmp_path: Path) -> None:
    before = os.stat("/dev/null")
    _csv(Path("/dev/null"))
    after = os.lstat("/dev/null")
    assert stat.S_ISCHR(after.st_mode) and after.st_rdev == before.st_rdev and after.st_ino == before.st_ino
    # Through a link too: the link stays, the device is written.
    (tmp_path / "sink").symlink_to("/dev/null")
    _csv(tmp_path / "sink")
    assert (tmp_path / "sink").is_symlink() and stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert _names(tmp_path) == ["sink"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
def test_a_full_device_is_an_error_not_a_replacement() -> None:
    with pytest.raises(OSError, match="No space left on device"):
        _csv(Path("/dev/full"))
    assert stat.S_ISCHR(os.lstat("/dev/full").st_mode)


# ------------------------------------------------------------ refused kinds


def test_other_kinds_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tiny: Tables) -> None:
    monkeypatch.chdir(tmp_path)  # a socket's path must be short
    with socket.socket(socket.AF_UNIX) as s:
        s.bind("sock")
        with pytest.raises(ValueError, match=r"^sock: is a socket; only a regular file, a FIFO or a character device"):
            _csv(Path("sock"))
        with pytest.raises(ValueError, match=r"^sock: is a socket"):
            export_handranks("sock", tables=tiny, quiet=True)
        assert stat.S_ISSOCK(os.lstat("sock").st_mode)
    block = next((f"/dev/{n}" for n in sorted(os.listdir("/dev")) if _is_block(f"/dev/{n}")), None)
    if block is not None:
        Path("disk").symlink_to(block)
        with pytest.raises(ValueError, match=r"^disk: is a block device"):
            _csv(Path("disk"))
        assert Path("disk").is_symlink()
    assert sorted(os.listdir()) == (["disk", "sock"] if block else ["sock"])


def _is_block(path: str) -> bool:
    try:
        return stat.S_ISBLK(os.stat(path).st_mode)
    except OSError:
        return False


# ------------------------------------------------------------ mode and owner


@pytest.mark.parametrize("mode", [0o640, 0o600, 0o444, 0o750], ids=oct)
def test_a_replaced_file_keeps_its_mode(tmp_path: Path, umask_022: None, mode: int) -> None:
    path = tmp_path / "out.csv"
    path.write_bytes(b"old")
    path.chmod(mode)
    _csv(path)
    assert path.read_bytes() == CSV
    assert stat.S_IMODE(path.stat().st_mode) == mode
    assert _names(tmp_path) == ["out.csv"]


def test_a_new_file_gets_the_umask(tmp_path: Path, umask_022: None) -> None:
    _csv(tmp_path / "new.csv")
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o644


def _other_owner() -> tuple[int, int] | None:
    """An owner and group this process may give a file, not its own; None if it may not."""
    if os.geteuid() == 0:
        return 4321, 8765
    others = [g for g in os.getgroups() if g != os.getegid()]
    return (os.geteuid(), others[0]) if others else None


@pytest.mark.skipif(_other_owner() is None, reason="neither root nor in a second group: no owner to keep")
def test_a_replaced_file_keeps_its_owner(tmp_path: Path) -> None:
    owner = _other_owner()
    assert owner is not None
    path = tmp_path / "out.csv"
    path.write_bytes(b"old")
    os.chown(path, *owner)
    path.chmod(0o640)
    _csv(path)
    st = path.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (*owner, 0o640)


# ------------------------------------------------------------ long names


def _name_max(directory: Path) -> int:
    try:
        return os.pathconf(directory, "PC_NAME_MAX")
    except (OSError, ValueError):
        return 255


@pytest.mark.parametrize("kind", ["250", "the limit", "multibyte"])
def test_a_name_near_the_limit_is_written(tmp_path: Path, kind: str) -> None:
    limit = _name_max(tmp_path)
    name = {"250": "x" * 246 + ".csv", "the limit": "y" * (limit - 4) + ".csv", "multibyte": "é" * (limit // 2)}[kind]
    path = tmp_path / name
    _csv(path)
    assert path.read_bytes() == CSV
    _csv(path)  # and replaced
    assert _names(tmp_path) == [name]


# ------------------------------------------------------------ the command line


def _python_m(*args: str, tables: Tables, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env[ENV_VAR] = str(tables.path)
    return subprocess.run(
        [sys.executable, "-m", "twoplustwo", *args], capture_output=True, cwd=cwd, env=env, timeout=120
    )


def test_export_handranks_dash_and_a_link_to_the_pipe_stream(tmp_path: Path, tiny: Tables) -> None:
    expected = export_handranks(tmp_path / "expected.dat", tables=tiny, quiet=True).read_bytes()
    p = _python_m("export-handranks", "-", tables=tiny, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout == expected
    assert p.stderr.decode().startswith(f"wrote standard output ({len(expected):,} bytes) in ")
    assert _names(tmp_path) == ["expected.dat"]
    if not Path("/proc/self/fd").is_dir():
        return
    # What /dev/stdout is, made here so that code that replaces it can only replace this link.
    (tmp_path / "stdout").symlink_to("/proc/self/fd/1")
    p = _python_m("export-handranks", "stdout", "--quiet", tables=tiny, cwd=tmp_path)
    assert (p.returncode, p.stdout, p.stderr) == (0, expected, b"")
    assert (tmp_path / "stdout").is_symlink() and _names(tmp_path) == ["expected.dat", "stdout"]


def test_preflop_csv_dash(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capfd: pytest.CaptureFixture[str]) -> None:
    from twoplustwo.odds import preflop

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(preflop, "preflop_vs_random", lambda *a, **k: RESULTS)
    assert main(["preflop", "--classes", "AA", "--csv", "-"]) == 0
    out, err = capfd.readouterr()
    assert (out, err) == (CSV.decode(), "")
    assert main(["preflop", "--csv", "-", "--png", "-"]) == 2
    assert capfd.readouterr().err == ("twoplustwo: error: --csv and --png cannot both write to standard output (-)\n")
    assert os.listdir(tmp_path) == []
