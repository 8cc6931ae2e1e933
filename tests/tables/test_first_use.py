"""The default set on first use: the package's bundle installed once, where no set is, and never over one.

The bundles here are tiny table sets crafted as ``test_bundle.py`` crafts
them; :data:`twoplustwo.tables.default.BUNDLED` is pointed at one. The real
wheel, built and installed into a fresh virtualenv, is
``tests/builder/test_wheel.py``.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tables.test_bundle import END, set_members, write_zst
from tests.tinysets import tiny_files
from twoplustwo.tables import default, system
from twoplustwo.tables.bundle import BundleError
from twoplustwo.tables.format import MANIFEST, TableError
from twoplustwo.tables.load import ENV_VAR

pytest.importorskip("zstandard")

NOTICE = "twoplustwo: first use: installing the tables"


@pytest.fixture
def bundled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A tiny bundle standing where the package keeps its own."""
    path = write_zst(tmp_path / "bundle.tar.zst", [*set_members(*tiny_files(2)), END])
    monkeypatch.setattr(default, "BUNDLED", str(path))
    return path


def test_the_bundle_installs_where_no_set_is_and_only_there(
    bundled: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "cache" / "twoplustwo" / "tables"
    assert default.install_bundled(target) is True
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(NOTICE) and str(target) in err, err
    manifest = (target / MANIFEST).read_bytes()
    assert json.loads(manifest)["files"] == tiny_files(2)[0]["files"]
    assert default.load_tables(target, verify=True).path == target
    # Once a set is there, nothing more happens.
    assert default.install_bundled(target) is False
    assert capsys.readouterr().err == "" and (target / MANIFEST).read_bytes() == manifest


def test_a_set_that_is_there_is_never_replaced_even_damaged(bundled: Path, tmp_path: Path) -> None:
    target = tmp_path / "t"
    target.mkdir()
    (target / MANIFEST).write_text("not json")
    assert default.install_bundled(target) is False
    assert (target / MANIFEST).read_text() == "not json" and os.listdir(target) == [MANIFEST]
    with pytest.raises(TableError, match="manifest.json"):
        default.load_tables(target)


def test_without_a_bundle_nothing_is_made_and_the_error_says_how(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(default, "BUNDLED", str(tmp_path / "none.tar.zst"))
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "t"))
    assert default.install_bundled(tmp_path / "t") is False
    with pytest.raises(TableError, match="no tables at .*`make`.*install-tables"):
        default.load_tables()
    assert not (tmp_path / "t").exists()


def test_load_tables_of_the_default_path_installs_on_first_use(
    bundled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "env" / "tables"))
    assert default.load_tables().path == tmp_path / "env" / "tables"
    # An explicit path is the caller's: it is never installed into.
    with pytest.raises(TableError, match="no tables at"):
        default.load_tables(tmp_path / "elsewhere")
    assert not (tmp_path / "elsewhere").exists()


def test_a_failed_first_install_leaves_no_directory_it_made(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    damaged = write_zst(tmp_path / "nosum.tar.zst", [*set_members(*tiny_files(2)), END], checksum=False)
    monkeypatch.setattr(default, "BUNDLED", str(damaged))
    with pytest.raises(BundleError, match="checksum"):
        default.install_bundled(tmp_path / "a" / "b" / "tables")
    assert not (tmp_path / "a").exists()
    (tmp_path / "mine").mkdir()
    with pytest.raises(BundleError):
        default.install_bundled(tmp_path / "mine" / "tables")
    assert os.listdir(tmp_path / "mine") == []


_RACER = """
import sys
from twoplustwo.tables import default, system
default.BUNDLED = sys.argv[1]
sys.stdin.readline()  # all start together
print(default.install_bundled(sys.argv[2]), default.load_tables(sys.argv[2], verify=True).path)
"""


def test_processes_that_start_together_install_once_and_all_load(bundled: Path, tmp_path: Path) -> None:
    target = tmp_path / "shared" / "tables"
    racers = [
        subprocess.Popen(
            [sys.executable, "-c", _RACER, str(bundled), str(target)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for p in racers:
        assert p.stdin is not None
        p.stdin.write("go\n")
        p.stdin.flush()
    done = [p.communicate(timeout=120) for p in racers]
    assert [p.returncode for p in racers] == [0] * 6, [err for _, err in done]
    assert all(out.split()[1] == str(target) for out, _ in done)
    installs = [out.split()[0] for out, _ in done].count("True")
    assert sum(err.count(NOTICE) for _, err in done) == installs
    if system.LOCKS:
        assert installs == 1
    else:
        # Without locks several may install; each publishes the same files, whole.
        assert installs >= 1
    # One set, and nothing left over: no staging directory of a second install.
    names = set(os.listdir(target))
    listed = {f["name"] for f in json.loads((target / MANIFEST).read_text())["files"]}
    assert names == listed | {MANIFEST, ".lock"}, names


def _unmakeable(tmp_path: Path, how: str) -> Path:
    """A default directory the bundle cannot be installed into, ``how`` says why."""
    if how == "a file in the way":
        (tmp_path / "file").write_text("mine")
        return tmp_path / "file" / "twoplustwo" / "tables"
    if how == "a file in its place":
        (tmp_path / "tables").write_text("mine")
        return tmp_path / "tables"
    if how == "a symlink loop":
        os.symlink(tmp_path / "loop", tmp_path / "loop")
        return tmp_path / "loop" / "tables"
    if how == "a symlink loop in its place":
        os.symlink(tmp_path / "tables", tmp_path / "tables")
        return tmp_path / "tables"
    if how == "a directory without write permission":
        if os.geteuid() == 0:
            pytest.skip("root writes into a read-only directory (see the next test and the sysfs case)")
        (tmp_path / "ro").mkdir(mode=0o555)
        return tmp_path / "ro" / "tables"
    assert how == "sysfs, where not even root may make a directory"
    if not os.path.isdir("/sys/kernel") or os.path.lexists("/sys/twoplustwo"):
        pytest.skip("no sysfs here")
    return Path("/sys/twoplustwo/tables")


UNMAKEABLE = [
    "a file in the way",
    "a file in its place",
    "a symlink loop",
    "a symlink loop in its place",
    "a directory without write permission",
    "sysfs, where not even root may make a directory",
]


@pytest.mark.parametrize("how", UNMAKEABLE)
def test_a_default_directory_that_cannot_be_made_is_a_table_error_naming_it_and_the_variable(
    bundled: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    target = _unmakeable(tmp_path, how)
    before = sorted(os.listdir(tmp_path))
    monkeypatch.setenv(ENV_VAR, str(target))
    with pytest.raises(TableError) as e:
        default.load_tables()
    message = str(e.value)
    assert message.startswith(f"no tables at {target}, and the package's bundle cannot be installed there: ")
    assert message.endswith(f"; set ${ENV_VAR} to a directory that can hold them"), message
    reason = message.split(" there: ")[1].split(f"; set ${ENV_VAR}")[0]
    if "file" in how:
        assert reason == f"{tmp_path / ('file' if 'way' in how else 'tables')} is not a directory"
    elif "loop" in how:
        assert reason.startswith(os.strerror(errno.ELOOP)) and str(tmp_path) in reason
    else:
        assert reason.startswith((os.strerror(errno.EACCES), os.strerror(errno.EPERM), os.strerror(errno.EROFS)))
    # Nothing made, nothing changed.
    assert sorted(os.listdir(tmp_path)) == before


@pytest.mark.skipif(not hasattr(os, "fork") or not hasattr(os, "geteuid") or os.geteuid() != 0, reason="root only")
def test_a_directory_without_write_permission_is_a_table_error_for_a_user_that_is_not_root(bundled: Path) -> None:
    # Root may write anywhere, so a forked child becomes nobody first. Its
    # files live outside pytest's temporary directory, which only root may enter.
    import pwd
    import shutil
    import tempfile

    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user nobody")
    base = Path(tempfile.mkdtemp())
    try:
        base.chmod(0o755)
        default.BUNDLED = str(shutil.copy(bundled, base / "bundle.tar.zst"))  # the fixture's monkeypatch undoes it
        (base / "ro").mkdir(mode=0o555)
        (base / "ro").chmod(0o555)
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: report each outcome on the pipe, then leave without running pytest's clean-up
            try:
                os.setgid(nobody.pw_gid)
                os.setuid(nobody.pw_uid)
                for target in (base / "ro" / "tables", base / "ro"):
                    os.environ[ENV_VAR] = str(target)
                    try:
                        default.load_tables()
                        outcome = "loaded"
                    except Exception as e:
                        outcome = f"{type(e).__name__}: {e}"
                    os.write(write, (outcome.replace("\n", " ") + "\n").encode())
            finally:
                os._exit(0)
        os.close(write)
        with os.fdopen(read) as fh:
            lines = fh.read().splitlines()
        os.waitpid(pid, 0)
    finally:
        shutil.rmtree(base)
    assert len(lines) == 2, lines
    for line, target in zip(lines, (base / "ro" / "tables", base / "ro")):
        assert line.startswith(f"TableError: no tables at {target}, and the package's bundle cannot be installed"), line
        assert f": {os.strerror(errno.EACCES)} ({base / 'ro'}" in line and f"set ${ENV_VAR}" in line, line
