"""Damaged, missing and misdescribed tables: every defect is a TableError that says where and what.

Each test works on a copy of the real table set under ``tmp_path`` in which
every file is a symlink to the original, except the manifest (small, always
a real copy) and the one file a test damages, which :func:`own` first turns
into a real copy, so the shared tables are never written.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from twoplustwo.cli import main
from twoplustwo.hands.batch import evaluate
from twoplustwo.kernels.games import walker_of
from twoplustwo.tables.default import clear_cache, get_tables, load_tables
from twoplustwo.tables.format import MANIFEST, ROLES, TableError
from twoplustwo.tables.load import ENV_VAR, default_path
from twoplustwo.tables.pages import uncache, warm

SOURCE = default_path()

# A small array, so that owning a real copy of it is cheap.
SMALL_ROLE = "dag5/layer3"


def _file_of(manifest: dict[str, Any], role: str) -> dict[str, Any]:
    return next(f for f in manifest["files"] if f["role"] == role)


@pytest.fixture
def copy(tmp_path: Path) -> Path:
    """A loadable copy of the table set: symlinks, plus a real manifest."""
    dst = tmp_path / "tables"
    shutil.copytree(
        SOURCE.resolve(), dst, copy_function=os.symlink, ignore=shutil.ignore_patterns(".*")
    )
    own(dst / MANIFEST)
    return dst


def own(path: Path) -> Path:
    """Replace a symlink by a real copy of its target, so writes stay local."""
    data = path.read_bytes()
    path.unlink()
    path.write_bytes(data)
    return path


def manifest(root: Path) -> dict[str, Any]:
    return json.loads((root / MANIFEST).read_text())


def edit_manifest(root: Path, change: Callable[[dict[str, Any]], None]) -> None:
    m = manifest(root)
    change(m)
    (root / MANIFEST).write_text(json.dumps(m, indent=2))


def small_file(root: Path) -> Path:
    return own(root / _file_of(manifest(root), SMALL_ROLE)["name"])


def test_copy_loads_and_leaves_the_source_alone(copy: Path) -> None:
    t = load_tables(copy, verify=True)
    assert t.path == copy
    assert sorted(t.arrays) == sorted(f["role"] for f in t.manifest["files"])
    assert os.path.islink(copy / _file_of(t.manifest, "dag7/layer7")["name"])


# ------------------------------------------------------------- damaged arrays


def test_truncated_array(copy: Path) -> None:
    p = small_file(copy)
    with open(p, "r+b") as f:
        f.truncate(p.stat().st_size - 2)
    with pytest.raises(TableError, match=rf"{p.name}.*truncated or padded"):
        load_tables(copy)


def test_padded_array(copy: Path) -> None:
    p = small_file(copy)
    with open(p, "ab") as f:
        f.write(b"\0" * 16)
    with pytest.raises(TableError, match=rf"{p.name}.*truncated or padded"):
        load_tables(copy)


def test_flipped_byte_is_found_by_verify(copy: Path) -> None:
    p = small_file(copy)
    data = bytearray(p.read_bytes())
    data[-100] ^= 0x01  # in the array data, past the header
    p.write_bytes(bytes(data))
    t = load_tables(copy)  # sizes and headers are fine: only hashing notices
    with pytest.raises(TableError, match=rf"{p.name}.*sha256"):
        t.verify()
    with pytest.raises(TableError, match=rf"{p.name}.*sha256"):
        load_tables(copy, verify=True)


def test_damaged_npy_header(copy: Path) -> None:
    p = small_file(copy)
    data = bytearray(p.read_bytes())
    data[:6] = b"NOTNPY"
    p.write_bytes(bytes(data))
    with pytest.raises(TableError, match=rf"{p.name}.*not a readable \.npy file"):
        load_tables(copy)


def test_missing_array_file(copy: Path) -> None:
    name = _file_of(manifest(copy), "dag7/layer4")["name"]
    (copy / name).unlink()
    with pytest.raises(TableError, match=rf"{name}: missing .*dag7/layer4"):
        load_tables(copy)


# ---------------------------------------------------------------- the manifest


def test_missing_manifest_says_how_to_build(copy: Path) -> None:
    (copy / MANIFEST).unlink()
    with pytest.raises(TableError) as e:
        load_tables(copy)
    assert MANIFEST in str(e.value) and str(copy) in str(e.value)
    assert "twoplustwo build" in str(e.value)


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(TableError, match=r"no tables at .*nowhere.*build"):
        load_tables(tmp_path / "nowhere")


@pytest.mark.parametrize("text", ["{", "", "not json", '{"format_version": 1,}'])
def test_malformed_json(copy: Path, text: str) -> None:
    (copy / MANIFEST).write_text(text)
    with pytest.raises(TableError, match=rf"{MANIFEST}: not valid JSON"):
        load_tables(copy)


def test_manifest_not_an_object(copy: Path) -> None:
    (copy / MANIFEST).write_text("[1, 2]")
    with pytest.raises(TableError, match=rf"{MANIFEST}: expected a JSON object"):
        load_tables(copy)


@pytest.mark.parametrize("version", [2, 0, "1", None])
def test_unknown_format_version(copy: Path, version: object) -> None:
    edit_manifest(copy, lambda m: m.update(format_version=version))
    with pytest.raises(TableError, match=rf"{MANIFEST}: format version {version!r}.*reads version 1"):
        load_tables(copy)


def test_format_version_missing(copy: Path) -> None:
    edit_manifest(copy, lambda m: m.pop("format_version"))
    with pytest.raises(TableError, match="format version None"):
        load_tables(copy)


def test_dtype_disagrees_with_file(copy: Path) -> None:
    # "<u4" is a valid table dtype, but the file holds "<u2".
    name = _file_of(manifest(copy), SMALL_ROLE)["name"]
    def change(m: dict[str, Any]) -> None:
        f = _file_of(m, SMALL_ROLE)
        f.update(dtype="<u4", nbytes=f["shape"][0] * 4)  # consistent within the manifest

    edit_manifest(copy, change)
    with pytest.raises(TableError, match=rf"{name}: .*<u2.*<u4"):
        load_tables(copy)


@pytest.mark.parametrize("dtype", ["<f8", "<i2", ">u2", "uint16", 2])
def test_unsupported_dtype(copy: Path, dtype: object) -> None:
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).update(dtype=dtype))
    with pytest.raises(TableError, match=rf"{SMALL_ROLE}: unsupported dtype"):
        load_tables(copy)


def test_shape_disagrees_with_node_counts(copy: Path) -> None:
    def change(m: dict[str, Any]) -> None:
        f = _file_of(m, SMALL_ROLE)
        f["shape"] = [f["shape"][0] + 52]
        f["nbytes"] += 52 * 2

    edit_manifest(copy, change)
    with pytest.raises(TableError, match=rf"{SMALL_ROLE} has \d+ entries, expected \d+"):
        load_tables(copy)


def test_shape_and_nodes_disagree_with_file(copy: Path) -> None:
    # Consistent within the manifest, so only the file's header can tell.
    name = _file_of(manifest(copy), "dag5/layer5")["name"]

    def change(m: dict[str, Any]) -> None:
        m["nodes"]["dag5"][4] += 1
        _file_of(m, "dag5/layer5")["shape"][0] += 52
        _file_of(m, "dag5/layer5")["nbytes"] += 52 * 2

    edit_manifest(copy, change)
    with pytest.raises(TableError, match=rf"{name}: .*243360.*243412"):
        load_tables(copy)


@pytest.mark.parametrize("shape", [[], [1, 2], 52, "52", [52.0]])
def test_malformed_shape(copy: Path, shape: object) -> None:
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).update(shape=shape))
    with pytest.raises(TableError, match=rf"{SMALL_ROLE}: shape must be \[length\]"):
        load_tables(copy)


def test_missing_role(copy: Path) -> None:
    edit_manifest(copy, lambda m: m["files"].remove(_file_of(m, "dag6/layer2")))
    with pytest.raises(TableError, match=r"missing roles \['dag6/layer2'\]"):
        load_tables(copy)


def test_unknown_role_is_ignored_but_the_known_one_is_missed(copy: Path) -> None:
    # Readers ignore roles of later versions (spec/README.md, section 11),
    # so the renamed entry only counts as the loss of its known role.
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).update(role="dag5/layer9"))
    with pytest.raises(TableError, match=r"missing roles \['dag5/layer3'\]") as e:
        load_tables(copy)
    assert "dag5/layer9" not in str(e.value)
    # Beside every known role, the same entry is dropped: the set loads
    # without it, and nothing of it is mapped.
    edit_manifest(copy, lambda m: m["files"].append({**_file_of(m, "dag5/layer9"), "role": SMALL_ROLE}))
    t = load_tables(copy)
    assert ROLES <= set(t.arrays) and "dag5/layer9" not in set(t.arrays) | set(t.buffers)
    assert "dag5/layer9" not in {f["role"] for f in t.manifest["files"]}


def test_role_twice(copy: Path) -> None:
    edit_manifest(copy, lambda m: _file_of(m, "dag6/layer2").update(role=SMALL_ROLE))
    with pytest.raises(TableError, match=rf"role '{SMALL_ROLE}' appears twice"):
        load_tables(copy)


@pytest.mark.parametrize("name", ["../manifest.json", "sub/x.npy", "/etc/passwd", ""])
def test_file_name_with_a_path(copy: Path, name: str) -> None:
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).update(name=name))
    with pytest.raises(TableError, match=rf"{SMALL_ROLE}: file name .* must be a plain file name"):
        load_tables(copy)


def test_file_entry_missing_a_key(copy: Path) -> None:
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).pop("sha256"))
    with pytest.raises(TableError, match=r"files\[\d+\] must have keys"):
        load_tables(copy)


def test_nbytes_wrong(copy: Path) -> None:
    edit_manifest(copy, lambda m: _file_of(m, SMALL_ROLE).update(nbytes=12))
    with pytest.raises(TableError, match=rf"{MANIFEST}: {SMALL_ROLE}: nbytes is 12"):
        load_tables(copy)


def test_nodes_missing(copy: Path) -> None:
    edit_manifest(copy, lambda m: m.pop("nodes"))
    with pytest.raises(TableError, match="'nodes' must map each DAG"):
        load_tables(copy)


def test_every_defect_is_a_value_error(copy: Path) -> None:
    (copy / MANIFEST).write_text("{")
    with pytest.raises(ValueError):
        load_tables(copy)
    assert issubclass(TableError, ValueError)


# ------------------------------------------------------- finding and mapping


@pytest.fixture(autouse=True)
def _default_tables_afresh() -> Iterator[None]:
    # Tests that point $TWOPLUSTWO_TABLES elsewhere must not leave their
    # tables as the default for the tests after them.
    yield
    clear_cache()


def _forget_tables(monkeypatch: pytest.MonkeyPatch) -> None:
    clear_cache()


def test_env_var_is_honoured(copy: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(copy))
    _forget_tables(monkeypatch)
    assert default_path() == copy
    t = get_tables()
    assert t.path == copy
    assert get_tables() is t  # loaded once, then shared
    assert evaluate("As Ks Qs Js Ts 2c 3d") == 7462
    walker = walker_of(t)
    assert walker_of(t) is walker  # made once per table set


def test_env_var_pointing_nowhere(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "nowhere"))
    _forget_tables(monkeypatch)
    with pytest.raises(TableError, match=r"no tables at .*nowhere"):
        get_tables()
    with pytest.raises(TableError, match=r"no tables at .*nowhere"):
        evaluate("As Ks Qs Js Ts")


def test_empty_env_var_falls_back(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENV_VAR, "")
    assert default_path() != Path("")


def test_maps_are_read_only(copy: Path) -> None:
    t = load_tables(copy)
    for role, a in t.arrays.items():
        assert not a.flags.owndata, role  # a view of the mapping, not a copy
        assert not a.flags.writeable, role
        with pytest.raises(ValueError, match="read-only"):
            a[0] = 0
        with pytest.raises(ValueError):
            a.flags.writeable = True  # the pages are mapped read-only: writing would crash
    # The shared set too, since every process maps the same pages.
    assert not get_tables().arrays["dag7/layer7"].flags.writeable


def test_nbytes_and_nodes(copy: Path) -> None:
    t = load_tables(copy)
    assert t.nbytes == sum(f["nbytes"] for f in t.manifest["files"])
    assert t.nodes["dag7"][0] == 1 and len(t.nodes["dag7"]) == 7
    assert [len(t.layers(d)) for d in ("dag5", "dag6", "dag7")] == [5, 6, 7]


# ------------------------------------------------------- not regular files

needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs are POSIX's")

# How long a call may keep a FIFO open for reading before it counts as
# waiting on it. Refusing one takes microseconds; a reader blocked in open()
# would wait forever.
WAIT_LIMIT = 5.0


@contextlib.contextmanager
def never_waits_on(fifo: Path) -> Iterator[None]:
    """Fail the block if it still waits on ``fifo`` after :data:`WAIT_LIMIT` s, unblocking it first.

    A watchdog thread opens the FIFO for writing once the limit has passed,
    which lets a reader blocked in open() go on (and read nothing), so a
    regression fails the test instead of hanging the suite.
    """
    done = threading.Event()
    waited: list[bool] = []

    def watch() -> None:
        if done.wait(WAIT_LIMIT):
            return
        while not done.is_set():
            try:
                fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            except OSError:  # no reader has it open (yet)
                time.sleep(0.05)
                continue
            waited.append(True)
            os.close(fd)
            return

    watchdog = threading.Thread(target=watch, daemon=True)
    watchdog.start()
    try:
        yield
    finally:
        done.set()
        watchdog.join()
    assert not waited, f"waited on the FIFO {fifo} for {WAIT_LIMIT} s"


def plant(path: Path, kind: str) -> Path:
    """Put ``kind`` in place of the file ``path``: a FIFO, a symlink to a FIFO beside the set, a directory or a socket.

    A socket is made in the current directory, which must be ``path``'s: its
    full path might be longer than a socket's address may be.
    """
    path.unlink()
    if kind == "socket":
        with socket.socket(socket.AF_UNIX) as s:
            s.bind(path.name)
        return path
    if kind == "fifo":
        os.mkfifo(path)
        return path
    if kind == "directory":
        path.mkdir()
        return path
    elsewhere = path.parent.parent / f"elsewhere-{path.name}"
    os.mkfifo(elsewhere)
    path.symlink_to(elsewhere)
    return elsewhere


KIND = {"fifo": "a FIFO", "link-to-fifo": "a FIFO", "directory": "a directory", "socket": "a socket"}


def small_name(root: Path) -> str:
    name: str = _file_of(manifest(root), SMALL_ROLE)["name"]
    return name


@needs_fifo
@pytest.mark.parametrize("kind", list(KIND))
@pytest.mark.parametrize("which", ["array", "manifest"])
def test_load_refuses_what_is_not_a_regular_file(
    copy: Path, which: str, kind: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    name = MANIFEST if which == "manifest" else small_name(copy)
    monkeypatch.chdir(copy)
    planted = plant(copy / name, kind)
    with never_waits_on(planted), pytest.raises(TableError) as e:
        load_tables(copy)
    assert f"{copy / name}: is {KIND[kind]}, not a regular file" in str(e.value)


@needs_fifo
def test_verify_refuses_a_fifo_planted_after_loading(copy: Path) -> None:
    t = load_tables(copy)
    fifo = plant(copy / small_name(copy), "fifo")
    with never_waits_on(fifo), pytest.raises(TableError, match=re.escape(f"{fifo}: is a FIFO, not a regular file")):
        t.verify()


@needs_fifo
def test_uncache_refuses_a_fifo(copy: Path) -> None:
    fifo = plant(copy / small_name(copy), "fifo")
    with never_waits_on(fifo), pytest.raises(TableError, match=re.escape(f"{fifo}: is a FIFO, not a regular file")):
        uncache(fifo)


@needs_fifo
def test_warm_refuses_a_fifo(copy: Path) -> None:
    name = _file_of(manifest(copy), "dag7/layer7")["name"]  # a file warm would drop from the cache
    fifo = plant(copy / name, "fifo")
    with never_waits_on(fifo), pytest.raises(TableError, match=re.escape(f"{fifo}: is a FIFO, not a regular file")):
        warm(copy)


@needs_fifo
@pytest.mark.parametrize("command", [["eval", "As Ks Qs Js Ts"], ["info"], ["verify"], ["warm"]], ids=lambda c: c[0])
@pytest.mark.parametrize("which", ["array", "manifest"])
def test_cli_refuses_a_fifo_in_one_line(
    copy: Path, which: str, command: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fifo = plant(copy / (MANIFEST if which == "manifest" else small_name(copy)), "fifo")
    monkeypatch.setenv(ENV_VAR, str(copy))
    _forget_tables(monkeypatch)
    with never_waits_on(fifo):
        code = main(command)
    out, err = capsys.readouterr()
    assert (code, out, err) == (1, "", f"twoplustwo: error: {fifo}: is a FIFO, not a regular file\n")
