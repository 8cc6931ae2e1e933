"""Table bundles: small, byte-exact round trips, and installs that are all or nothing.

One bundle is made per session from the checkout's tables (about 15 s); the
tests install it into scratch directories, damage copies of it, and
interrupt installs at their worst moments.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import tarfile
import time
from pathlib import Path

import pytest

from twoplustwo.bundle import BundleError, bundle_name, install_bundle
from twoplustwo.format import MANIFEST
from twoplustwo.tables import default_path, load_tables

zstandard = pytest.importorskip("zstandard", reason="bundles need zstandard (the build extra)")

SOURCE = default_path()
GOAL = 10_000_000


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not (SOURCE / MANIFEST).is_file():
        pytest.skip(f"no tables at {SOURCE}: run `python -m twoplustwo_builder`")
    from twoplustwo_builder.bundle import write_bundle

    report = write_bundle(SOURCE, tmp_path_factory.mktemp("dist"), check=False)
    print(f"\n{report.summary()}")
    return report.path


@pytest.fixture
def installed(bundle: Path, tmp_path: Path) -> Path:
    """A directory that already holds an installed table set."""
    return install_bundle(bundle, to=tmp_path / "tables")


def _snapshot(d: Path) -> dict[str, bytes]:
    """Every entry's name, with the content of the manifest (files are named by hash)."""
    return {p.name: (p.read_bytes() if p.name == MANIFEST else b"") for p in d.iterdir()}


def test_round_trip_is_byte_identical(bundle: Path, tmp_path: Path) -> None:
    assert bundle.name == bundle_name() == "twoplustwo-tables-1.tar.zst"
    t0 = time.perf_counter()
    target = install_bundle(bundle, to=tmp_path / "new" / "tables")
    seconds = time.perf_counter() - t0
    print(f"\ninstall: {seconds:.2f} s")
    assert target == tmp_path / "new" / "tables"
    t = load_tables(target, verify=True)
    want = json.loads((SOURCE / MANIFEST).read_text())
    assert (target / MANIFEST).read_bytes() == (SOURCE / MANIFEST).read_bytes()
    for f in want["files"]:
        assert (target / f["name"]).read_bytes() == (SOURCE / f["name"]).read_bytes(), f["name"]
    # Nothing but the table set and the lock file: no staging left behind.
    assert {p.name for p in target.iterdir()} == {f["name"] for f in want["files"]} | {MANIFEST, ".lock"}
    assert t.nodes == want["nodes"]
    assert seconds < 20


def test_size_goal(bundle: Path) -> None:
    size = bundle.stat().st_size
    raw = sum(p.stat().st_size for p in SOURCE.glob("*.npy"))
    print(f"\nbundle: {size:,} bytes, tables {raw:,} bytes, ratio {raw / size:.1f}")
    assert size < GOAL


def _damaged(bundle: Path, tmp_path: Path, how: str) -> Path:
    data = bytearray(bundle.read_bytes())
    n = len(data)
    if how.startswith("flip"):
        # Not byte 5, the frame's window size: a flip there that only makes
        # the window larger decodes to the same, correct bytes.
        pos = {"flip-magic": 0, "flip-early": 200, "flip-middle": n // 2, "flip-checksum": n - 2}[how]
        data[pos] ^= 0x10
    elif how == "truncated-half":
        del data[n // 2 :]
    elif how == "truncated-checksum":
        del data[n - 4 :]  # every table byte is there, the frame's checksum is not
    elif how == "trailing-garbage":
        data += b"\0junk"
    elif how == "empty":
        data = bytearray()
    bad = tmp_path / f"{how}.tar.zst"
    bad.write_bytes(bytes(data))
    return bad


@pytest.mark.parametrize(
    "how",
    [
        "flip-magic",
        "flip-early",
        "flip-middle",
        "flip-checksum",
        "truncated-half",
        "truncated-checksum",
        "trailing-garbage",
        "empty",
    ],
)
def test_damaged_bundle_is_refused_and_changes_nothing(
    bundle: Path, installed: Path, tmp_path: Path, how: str
) -> None:
    before = _snapshot(installed)
    bad = _damaged(bundle, tmp_path, how)
    with pytest.raises(ValueError, match="damaged|truncated|corrupt|sha256|unexpected|unreadable") as e:
        install_bundle(bad, to=installed)
    assert isinstance(e.value, BundleError)
    assert str(bad) in str(e.value)
    assert _snapshot(installed) == before
    load_tables(installed, verify=True)


def _tar_zst(members: dict[str, bytes]) -> bytes:
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.USTAR_FORMAT) as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return bytes(zstandard.ZstdCompressor(write_checksum=True).compress(raw.getvalue()))


def test_bundle_of_another_version_is_refused(installed: Path, tmp_path: Path) -> None:
    manifest = (SOURCE / MANIFEST).read_bytes()
    before = _snapshot(installed)
    for index, message in [
        ({"bundle_version": 2}, "bundle version 2"),
        ({"bundle_version": 1, "format_version": 2, "files": []}, "format version 2"),
    ]:
        bad = tmp_path / "other.tar.zst"
        bad.write_bytes(_tar_zst({"bundle.json": json.dumps(index).encode(), MANIFEST: manifest}))
        with pytest.raises(BundleError, match=message):
            install_bundle(bad, to=installed)
    assert _snapshot(installed) == before


def test_missing_bundle_is_an_os_error(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError):
        install_bundle(tmp_path / "nope.tar.zst", to=tmp_path / "tables")
    assert not (tmp_path / "tables").exists()


def test_interrupted_publish_keeps_previous_tables(
    bundle: Path, installed: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped after some files are renamed into place but before the manifest."""
    # Make the previous set differ from the new one: its files under other names.
    manifest = json.loads((installed / MANIFEST).read_text())
    for f in manifest["files"]:
        old = f"old.{f['name']}"
        os.replace(installed / f["name"], installed / old)
        f["name"] = old
    (installed / MANIFEST).write_text(json.dumps(manifest))
    before = _snapshot(installed)

    real_replace = os.replace
    calls = []

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        calls.append(dst)
        if len(calls) == 10:
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(KeyboardInterrupt):
        install_bundle(bundle, to=installed)
    monkeypatch.undo()
    # Nine new files sit beside the old set; the old manifest still rules.
    assert (installed / MANIFEST).read_bytes() == before[MANIFEST]
    assert not [p for p in installed.iterdir() if p.name.startswith(".build-")]
    assert load_tables(installed, verify=True).manifest == manifest
    # The next install completes and removes the old files.
    install_bundle(bundle, to=installed)
    assert (installed / MANIFEST).read_bytes() == (SOURCE / MANIFEST).read_bytes()
    assert not [p for p in installed.iterdir() if p.name.startswith("old.")]
    load_tables(installed, verify=True)


def test_killed_install_leaves_previous_tables(bundle: Path, installed: Path) -> None:
    """SIGKILL in the middle of unpacking: nothing changes but a stale staging directory,
    which the next install removes."""
    before = _snapshot(installed)
    # Slow each file down so that the kill lands while files are being written.
    code = (
        "import sys, time, twoplustwo.bundle as b\n"
        "decode = b.decode\n"
        "def slow(*a):\n"
        "    time.sleep(0.2)\n"
        "    return decode(*a)\n"
        "b.decode = slow\n"
        "b.install_bundle(sys.argv[1], to=sys.argv[2])\n"
    )
    root = Path(__file__).resolve().parent.parent
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(bundle), str(installed)],
        cwd=root,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            staged = [p for p in installed.glob(".build-*") if any(p.glob("*.npy"))]
            if staged:
                break
            time.sleep(0.01)
        else:
            pytest.fail("the install never staged a file")
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    assert {k: v for k, v in _snapshot(installed).items() if not k.startswith(".build-")} == before
    load_tables(installed, verify=True)
    install_bundle(bundle, to=installed)
    assert not list(installed.glob(".build-*"))
    load_tables(installed, verify=True)
