"""Table bundles: byte-exact round trips, and installs that are all or nothing.

Bundles are crafted in the tests themselves with tarfile and zstandard, as
the format describes them (spec/README.md): one per session from the
checkout's tables (under a second, at a low zstd level), and tiny table
sets, hostile names, member kinds and decompression bombs. The tests install
them into scratch directories, damage copies of them, and interrupt installs
at their worst moments; the bombs are kilobytes on disk and are installed in
a subprocess that reports its peak memory. Writing bundles is the builder's
job, tested in ``tests/builder/test_bundle_writer.py``.
"""

from __future__ import annotations

import errno
import hashlib
import io
import json
import os
import shutil
import signal
import subprocess
import sys
import tarfile
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from tests.tinysets import tiny_files
from twoplustwo.tables.bundle import BundleError, encode, install_bundle
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import FORMAT_VERSION, MANIFEST, bundle_name, npy_header
from twoplustwo.tables.load import default_path
from twoplustwo.tables.pages import all_huge, huge_page_bytes

zstandard = pytest.importorskip("zstandard", reason="bundles need zstandard, a dependency")

SOURCE = default_path()
GOAL = 10_000_000


@pytest.fixture(scope="session")
def bundle(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A bundle of the checkout's tables, layers in ``columns-delta`` as the builder stores them."""
    text = (SOURCE / MANIFEST).read_bytes()
    manifest = json.loads(text)
    files = {f["name"]: (SOURCE / f["name"]).read_bytes() for f in manifest["files"]}
    parts = [*set_members(manifest, files, "columns-delta", manifest_bytes=text), END]
    return write_zst(tmp_path_factory.mktemp("dist") / bundle_name(), parts)


@pytest.fixture
def installed(bundle: Path, tmp_path: Path) -> Path:
    """A directory that already holds an installed table set."""
    return install_bundle(bundle, to=tmp_path / "tables")


@pytest.fixture(scope="module")
def installed_once(bundle: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An installed table set shared by the tests whose installs must fail and change nothing (each checks that)."""
    return install_bundle(bundle, to=tmp_path_factory.mktemp("installed") / "tables")


def test_installed_tables_map_with_huge_pages(system_maps_huge_file_pages: None, installed: Path) -> None:
    # Written in pieces, the files would stay cached in small ones, and map
    # with small pages; the install drops them, so they come back in 2 MiB pieces.
    report = huge_page_bytes(load_tables(installed))
    assert report is not None and "dag7/layer6" in report
    assert all_huge(report), report


def _snapshot(d: Path) -> dict[str, bytes]:
    """Every entry's name, with the content of the manifest (files are named by hash)."""
    return {p.name: (p.read_bytes() if p.name == MANIFEST else b"") for p in d.iterdir()}


def assert_installs_byte_identical(bundle: Path, source: Path, target: Path) -> None:
    """Install ``bundle`` into ``target``: the set at ``source``, byte for byte, nothing else, in under 20 s of CPU."""
    # CPU time (this process's threads), not wall time: the machine may be busy.
    t0 = time.process_time()
    assert install_bundle(bundle, to=target) == target
    seconds = time.process_time() - t0
    print(f"\ninstall: {seconds:.2f} s of CPU")
    t = load_tables(target, verify=True)
    want = json.loads((source / MANIFEST).read_text())
    assert (target / MANIFEST).read_bytes() == (source / MANIFEST).read_bytes()
    for f in want["files"]:
        assert (target / f["name"]).read_bytes() == (source / f["name"]).read_bytes(), f["name"]
    # Nothing but the table set and the lock file: no staging left behind.
    assert {p.name for p in target.iterdir()} == {f["name"] for f in want["files"]} | {MANIFEST, ".lock"}
    assert t.nodes == want["nodes"]
    assert seconds < 20


def test_round_trip_is_byte_identical(bundle: Path, tmp_path: Path) -> None:
    assert_installs_byte_identical(bundle, SOURCE, tmp_path / "new" / "tables")


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
    bundle: Path, installed_once: Path, tmp_path: Path, how: str
) -> None:
    installed = installed_once
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


def test_bundle_of_another_version_is_refused(installed_once: Path, tmp_path: Path) -> None:
    installed = installed_once
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
        old = f"{f['role'].replace('/', '.')}.previous.npy"
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
    # The old manifest still rules, and the interrupted publish took back the
    # arrays it had moved in: no staging, no ledger, no unlisted array.
    assert len(calls) == 10
    assert _snapshot(installed) == before
    assert load_tables(installed, verify=True).manifest == manifest
    # The next install completes and removes the old files.
    install_bundle(bundle, to=installed)
    assert (installed / MANIFEST).read_bytes() == (SOURCE / MANIFEST).read_bytes()
    assert not [p for p in installed.iterdir() if ".previous." in p.name]
    load_tables(installed, verify=True)


def test_killed_install_leaves_previous_tables(advisory_locks: None, bundle: Path, installed: Path) -> None:
    """SIGKILL in the middle of unpacking: nothing changes but a stale staging directory,
    which the next install removes."""
    before = _snapshot(installed)
    # Slow each table file's opening down so that the kill lands while files are being written.
    code = (
        "import builtins, sys, time, twoplustwo.tables.bundle as b\n"
        "real_open = builtins.open\n"
        "def slow(file, mode='r', *a, **k):\n"
        "    if 'w' in mode and str(file).endswith('.npy'):\n"
        "        time.sleep(0.2)\n"
        "    return real_open(file, mode, *a, **k)\n"
        "builtins.open = slow\n"
        "b.install_bundle(sys.argv[1], to=sys.argv[2])\n"
    )
    root = Path(__file__).resolve().parents[2]
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


# ------------------------------------------------------------ crafted bundles


def header(name: str, size: int, kind: bytes = tarfile.REGTYPE, linkname: str = "") -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.type, info.linkname, info.mode = size, kind, linkname, 0o644
    return info.tobuf(format=tarfile.USTAR_FORMAT)


def member(name: str, data: bytes) -> list[bytes]:
    """One regular tar member: header, data, padding to the next 512-byte block."""
    return [header(name, len(data)), data, bytes(-len(data) % 512)]


def zeros(n: int) -> Iterable[bytes]:
    block = bytes(1 << 20)
    while n > 0:
        yield block[: min(n, len(block))]
        n -= len(block)


END = [bytes(2 * 512)]  # a tar's end: two zero blocks


def set_members(
    manifest: dict[str, Any],
    files: dict[str, bytes],
    transform: str = "raw",
    *,
    member_names: dict[int, str] | None = None,
    all_zeros: frozenset[str] = frozenset(),
    manifest_bytes: bytes | None = None,
) -> list[Iterable[bytes]]:
    """The tar members of a bundle of ``manifest``, one list of pieces each.

    Layers take ``transform``, value arrays ``raw``. ``member_names``
    renames the bundle.json entry (and member) of the files at those
    positions; the data of files in ``all_zeros`` is zeros after their
    header, generated as it is compressed. ``manifest_bytes``, if given, is
    the manifest's member as it is (else ``manifest`` written as JSON).
    """
    entries = []
    for f in manifest["files"]:
        # As the builder does: only layers have rows of 52 to take deltas down.
        t = transform if "/layer" in f["role"] else "raw"
        entries.append({"name": f["name"], "member": f"{f['name']}.{t}", "transform": t})
    for i, name in (member_names or {}).items():
        entries[i]["member"] = name
    index = {"bundle_version": 1, "format_version": FORMAT_VERSION, "files": entries}
    out: list[Iterable[bytes]] = [member("bundle.json", json.dumps(index).encode())]
    out.append(member(MANIFEST, json.dumps(manifest).encode() if manifest_bytes is None else manifest_bytes))
    for f, e in zip(manifest["files"], entries):
        offset, nbytes = f["offset"], f["nbytes"]
        if f["name"] in all_zeros:
            head = npy_header(f["dtype"], f["shape"][0], offset)
            out += [[header(e["member"], offset + nbytes), head], zeros(nbytes), [bytes(-(offset + nbytes) % 512)]]
        else:
            raw = files[f["name"]]
            out.append(member(e["member"], raw[:offset] + encode(raw[offset:], f["dtype"], e["transform"])))
    return out


def write_zst(path: Path, parts: Iterable[Iterable[bytes]], *, checksum: bool = True) -> Path:
    """Compress ``parts`` as one zstd frame into ``path``, streaming (bombs never exist uncompressed)."""
    cctx = zstandard.ZstdCompressor(level=3, write_checksum=checksum)
    with open(path, "wb") as fh, cctx.stream_writer(fh, closefd=False) as z:
        for part in parts:
            for piece in part:
                z.write(piece)
    return path


@pytest.fixture
def tiny_installed(tmp_path: Path) -> Path:
    """A target holding an installed tiny set and a user's README.md."""
    target = tmp_path / "tables"
    install_bundle(write_zst(tmp_path / "tiny1.tar.zst", [*set_members(*tiny_files(1)), END]), to=target)
    (target / "README.md").write_bytes(b"the user's own notes")
    return target


def test_crafted_tiny_bundle_installs(tiny_installed: Path, tmp_path: Path) -> None:
    manifest, files = tiny_files(2)
    bundle = write_zst(tmp_path / "tiny2.tar.zst", [*set_members(manifest, files, "columns-delta"), END])
    install_bundle(bundle, to=tiny_installed)
    assert load_tables(tiny_installed, verify=True).manifest["files"] == manifest["files"]
    assert sorted(os.listdir(tiny_installed)) == sorted([*files, MANIFEST, ".lock", "README.md"])


def test_a_bundle_installs_every_game_and_the_next_removes_them(tiny_installed: Path, tmp_path: Path) -> None:
    manifest, files = tiny_files(2, ("short-deck",))
    bundle = write_zst(tmp_path / "games.tar.zst", [*set_members(manifest, files, "columns-delta"), END])
    install_bundle(bundle, to=tiny_installed)
    t = load_tables(tiny_installed, verify=True)
    assert t.manifest["files"] == manifest["files"] and len(t.buffers) == 29
    assert sorted(os.listdir(tiny_installed)) == sorted([*files, MANIFEST, ".lock", "README.md"])
    plain, plain_files = tiny_files(3)
    install_bundle(write_zst(tmp_path / "plain.tar.zst", [*set_members(plain, plain_files), END]), to=tiny_installed)
    assert sorted(os.listdir(tiny_installed)) == sorted([*plain_files, MANIFEST, ".lock", "README.md"])


def test_a_bundle_with_a_role_this_version_does_not_know_is_refused(tiny_installed: Path, tmp_path: Path) -> None:
    before = _snapshot(tiny_installed)
    manifest, files = tiny_files(2)
    f = {**manifest["files"][0], "role": "omaha/dag9/layer1"}
    f["name"] = f"omaha.dag9.layer1.{f['sha256'][:16]}.npy"
    files[f["name"]] = files[manifest["files"][0]["name"]]
    manifest["files"].append(f)
    bundle = write_zst(tmp_path / "later.tar.zst", [*set_members(manifest, files), END])
    with pytest.raises(BundleError, match="role 'omaha/dag9/layer1' is not one this twoplustwo knows"):
        install_bundle(bundle, to=tiny_installed)
    assert _snapshot(tiny_installed) == before


def _rename(files: dict[str, bytes], f: dict[str, Any], name: str) -> str:
    files[name] = files.pop(f["name"])
    f["name"] = name
    return name


@pytest.mark.parametrize(
    "edit",
    [
        lambda m, files: _rename(files, m["files"][0], "README.md"),
        # dag5/layer1, named as dag5/layer2 would be
        lambda m, files: _rename(files, m["files"][0], f"dag5.layer2.{m['files'][0]['sha256'][:16]}.npy"),
        lambda m, files: _rename(files, m["files"][3], f"dag5.layer4.{'0' * 16}.npy"),
        {5: ".lock"},
        {5: "../escape"},
        {0: "README.md"},
    ],
    ids=["README.md", "another role's name", "a hash not its own", "member .lock", "member ../escape", "member README"],
)
def test_crafted_names_are_refused(
    tiny_installed: Path, tmp_path: Path, edit: Callable[[dict[str, Any], dict[str, bytes]], str] | dict[int, str]
) -> None:
    before = _snapshot(tiny_installed)
    readme = (tiny_installed / "README.md").read_bytes()
    manifest, files = tiny_files(2)
    if isinstance(edit, dict):
        members, bad = set_members(manifest, files, member_names=edit), next(iter(edit.values()))
    else:
        bad = edit(manifest, files)
        members = set_members(manifest, files)
    bundle = write_zst(tmp_path / "crafted.tar.zst", [*members, END])
    with pytest.raises(BundleError) as e:
        install_bundle(bundle, to=tiny_installed)
    assert repr(bad) in str(e.value) and str(bundle) in str(e.value)
    assert _snapshot(tiny_installed) == before
    assert (tiny_installed / "README.md").read_bytes() == readme
    load_tables(tiny_installed, verify=True)


@pytest.mark.parametrize(
    "which, kind, linkname, says",
    [
        (0, tarfile.DIRTYPE, "", "a directory"),
        (0, tarfile.SYMTYPE, MANIFEST, "a symbolic link"),
        (1, tarfile.LNKTYPE, "bundle.json", "a hard link"),
        (1, tarfile.FIFOTYPE, "", "a FIFO"),
        (4, tarfile.CHRTYPE, "", "a character device"),
    ],
)
def test_member_of_another_kind_is_named_as_such(
    tiny_installed: Path, tmp_path: Path, which: int, kind: bytes, linkname: str, says: str
) -> None:
    before = _snapshot(tiny_installed)
    manifest, files = tiny_files(2)
    names = ["bundle.json", MANIFEST, *(f"{f['name']}.raw" for f in manifest["files"])]
    members = set_members(manifest, files)
    members[which] = [header(names[which], 0, kind, linkname)]
    bundle = write_zst(tmp_path / "kind.tar.zst", [*members, END])
    with pytest.raises(BundleError, match=f"member {names[which]!r} is {says}, expected a regular file"):
        install_bundle(bundle, to=tiny_installed)
    assert _snapshot(tiny_installed) == before


def test_member_larger_than_its_entry_is_refused(tiny_installed: Path, tmp_path: Path) -> None:
    before = _snapshot(tiny_installed)
    manifest, files = tiny_files(2)
    f = manifest["files"][1]
    members = set_members(manifest, files)
    members[3] = member(f"{f['name']}.raw", files[f["name"]] + bytes(10))
    bundle = write_zst(tmp_path / "large.tar.zst", [*members, END])
    with pytest.raises(BundleError, match=f"'{f['name']}.raw' has 190 bytes, expected 180"):
        install_bundle(bundle, to=tiny_installed)
    assert _snapshot(tiny_installed) == before


def test_frame_without_checksum_is_refused(tiny_installed: Path, tmp_path: Path) -> None:
    before = _snapshot(tiny_installed)
    bundle = write_zst(tmp_path / "nosum.tar.zst", [*set_members(*tiny_files(2)), END], checksum=False)
    with pytest.raises(BundleError, match="no content checksum"):
        install_bundle(bundle, to=tiny_installed)
    assert _snapshot(tiny_installed) == before


def test_frame_with_a_huge_window_is_refused(tiny_installed: Path, tmp_path: Path) -> None:
    before = _snapshot(tiny_installed)
    params = zstandard.ZstdCompressionParameters(window_log=26, write_checksum=True)
    bundle = tmp_path / "window.tar.zst"
    with open(bundle, "wb") as fh, zstandard.ZstdCompressor(compression_params=params).stream_writer(fh) as z:
        z.write(b"".join(piece for part in [*set_members(*tiny_files(2)), END] for piece in part))
    with pytest.raises(BundleError, match="window"):
        install_bundle(bundle, to=tiny_installed)
    assert _snapshot(tiny_installed) == before


def test_failed_install_removes_only_the_target_it_created(tmp_path: Path) -> None:
    bundle = write_zst(tmp_path / "nosum.tar.zst", [*set_members(*tiny_files(2)), END], checksum=False)
    with pytest.raises(BundleError):
        install_bundle(bundle, to=tmp_path / "new" / "tables")
    assert not (tmp_path / "new").exists()
    (tmp_path / "mine").mkdir()
    with pytest.raises(BundleError):
        install_bundle(bundle, to=tmp_path / "mine")
    assert (tmp_path / "mine").is_dir() and os.listdir(tmp_path / "mine") == []


def test_bundle_that_cannot_fit_fails_before_writing(
    tiny_installed: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _snapshot(tiny_installed)
    manifest, files = tiny_files(2)
    bundle = write_zst(tmp_path / "tiny2.tar.zst", [*set_members(manifest, files, "columns-delta"), END])
    # Every file, and beside it the scratch copy of the largest columns-delta payload.
    scratch = max(f["nbytes"] for f in manifest["files"] if "/layer" in f["role"])
    need = sum(len(raw) for raw in files.values()) + scratch
    written = []
    real_open = open

    def spy(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if "w" in mode:
            written.append(file)
        return real_open(file, mode, *args, **kwargs)

    monkeypatch.setattr(shutil, "disk_usage", lambda path: SimpleNamespace(free=need - 1))
    monkeypatch.setattr("builtins.open", spy)
    with pytest.raises(OSError, match=f"unpacking takes {need:,} bytes, {need - 1:,} are free") as e:
        install_bundle(bundle, to=tiny_installed)
    monkeypatch.undo()
    assert e.value.errno == errno.ENOSPC
    assert written == []
    assert _snapshot(tiny_installed) == before
    # One byte more is room enough.
    monkeypatch.setattr(shutil, "disk_usage", lambda path: SimpleNamespace(free=need))
    install_bundle(bundle, to=tiny_installed)
    load_tables(tiny_installed, verify=True)


MEASURE = """
import contextlib, json, sys, time
import numpy, zstandard  # loaded before the baseline: only the install is measured
from twoplustwo.tables.bundle import BundleError, install_bundle

def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith(key))

# Not ru_maxrss: Linux carries it over from the parent across fork and exec.
# VmHWM is this process's own peak; resetting it to the resident size now
# keeps the imports' peak from hiding the install's (without the reset the
# measure only errs high).
with contextlib.suppress(OSError), open("/proc/self/clear_refs", "w") as f:
    f.write("5")
base = status("VmRSS:")
t0 = time.perf_counter()
try:
    install_bundle(sys.argv[1], to=sys.argv[2])
    outcome = "installed"
except BundleError as e:
    outcome = str(e)
print(json.dumps({"grew": status("VmHWM:") - base, "outcome": outcome, "seconds": time.perf_counter() - t0}))
"""

BOMB = 256 << 20  # bytes of zeros each bomb expands to, from a few kilobytes


def _bomb_after_the_end() -> tuple[list[Iterable[bytes]], str]:
    return [*set_members(*tiny_files(2)), END, zeros(BOMB)], "after the tar's end"


def _bomb_in_a_pax_header() -> tuple[list[Iterable[bytes]], str]:
    # tarfile reads an extended header whole before it shows the member it describes.
    return [[header("././@PaxHeader", BOMB, tarfile.XHDTYPE)], zeros(BOMB)], "more data than"


def _bomb_declared_table() -> tuple[list[Iterable[bytes]], str]:
    # A manifest that declares a large set consistently, its data all zeros:
    # the install must stream it to disk, never hold a member in memory.
    nodes = (BOMB // 2) // 52
    manifest, files = tiny_files(2)
    manifest["nodes"]["dag7"][6] = nodes
    big = set()
    for f in manifest["files"]:
        if f["role"] in ("dag7/layer7", "dag7/value6"):
            length = nodes * 52 if f["role"] == "dag7/layer7" else nodes
            sha = hashlib.sha256(f["role"].encode()).hexdigest()  # not the content's: that check comes last
            f.update(shape=[length], nbytes=length, sha256=sha)
            big.add(_rename(files, f, f"{f['role'].replace('/', '.')}.{sha[:16]}.npy"))
    return [*set_members(manifest, files, "columns-delta", all_zeros=frozenset(big)), END], "does not match"


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="measures memory through Linux /proc")
@pytest.mark.parametrize(
    "make", [_bomb_after_the_end, _bomb_in_a_pax_header, _bomb_declared_table], ids=["tail", "pax", "declared"]
)
def test_decompression_bomb_is_refused_in_bounded_memory(
    tiny_installed: Path, tmp_path: Path, make: Callable[[], tuple[list[Iterable[bytes]], str]]
) -> None:
    before = _snapshot(tiny_installed)
    parts, says = make()
    bundle = write_zst(tmp_path / "bomb.tar.zst", parts)
    assert bundle.stat().st_size < 100_000
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(bundle), str(tiny_installed)],
        cwd=root, capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    print(f"\n{bundle.stat().st_size:,} bytes: {result}")
    assert says in result["outcome"]
    assert result["grew"] < 64 << 20
    assert _snapshot(tiny_installed) == before
    load_tables(tiny_installed, verify=True)


@pytest.mark.parametrize("dtype", ["|u1", "<u2", "<u4"])
def test_streamed_columns_delta_matches_decode(tmp_path: Path, dtype: str) -> None:
    from twoplustwo.tables import bundle as b

    rng = np.random.default_rng(7)
    data = rng.integers(0, np.iinfo(np.dtype(dtype)).max, 52 * 11, dtype=np.dtype(dtype)).tobytes()
    payload = encode(data, dtype, "columns-delta")
    for block_rows in (1, 3, 11, 64):
        out = io.BytesIO()
        h = hashlib.sha256()
        b.copy_columns_delta(io.BytesIO(payload), len(payload), dtype, out, h, tmp_path / "scratch", block_rows)
        assert out.getvalue() == data == b.decode(payload, dtype, "columns-delta")
        assert h.hexdigest() == hashlib.sha256(data).hexdigest()
        assert not (tmp_path / "scratch").exists()
