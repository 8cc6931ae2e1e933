"""Install a prebuilt table set from a compressed bundle, atomically.

A bundle (``twoplustwo-tables-<format_version>.tar.zst``, written by
``python -m twoplustwo_builder.bundle``) is one zstd frame holding a tar stream:

1. ``bundle.json``: the bundle version, the table format version and one
   entry per table file: its file name, tar member and transform;
2. ``manifest.json``: the table set's manifest, byte for byte;
3. one member per table file, in ``bundle.json`` order: the file's ``.npy``
   header (its first ``offset`` bytes) followed by its array data after a
   reversible transform.

The transform is what makes the bundle small. A layer's rows are the 52
transitions of one node, and similar nodes tend to have nearby numbers, so
a column (one card across all nodes) changes slowly: ``columns-delta`` stores
each entry as its difference from the entry one row above (wrapping in the
array's own unsigned width, zigzag-coded so small negative steps stay small
numbers) and writes the array column by column. That takes zstd from about
13 MB to about 3.0 MB for the whole set. ``raw`` stores data unchanged.

:func:`install_bundle` streams the bundle (one member in memory at a time),
writes every file into a staging directory beside the target, checks each
against the manifest's sha256 and the loader's own checks, and only then
publishes it the way the builder does: files first, ``manifest.json`` last
in one rename. Readers and an interrupted install therefore only ever see
the previous table set or the new one.

zstandard is an optional dependency (the ``build`` extra); it is imported
only when a bundle is read or written.

>>> data = np.arange(104, dtype="<u2").tobytes()
>>> decode(encode(data, "<u2", "columns-delta"), "<u2", "columns-delta") == data
True
"""

from __future__ import annotations

import hashlib
import json
import os
import tarfile
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np

from .format import FORMAT_VERSION, MANIFEST, TableError, parse_manifest
from .publish import discard, new_staging, publish
from .tables import default_path, load_tables

__all__ = [
    "BUNDLE_INDEX",
    "BUNDLE_VERSION",
    "BundleError",
    "ROW",
    "TRANSFORMS",
    "bundle_name",
    "decode",
    "encode",
    "import_zstandard",
    "install_bundle",
]

#: Bumped whenever the bundle layout or a transform changes.
BUNDLE_VERSION = 1

#: Name of the bundle's index, its first tar member.
BUNDLE_INDEX = "bundle.json"

#: Entries per layer row: one per card.
ROW = 52

#: Every transform a bundle entry may name.
TRANSFORMS = ("raw", "columns-delta")

# Same prefix as the builder's staging directories, so either one removes
# what a killed build or install of the other left behind.
# Compressed bytes per read: at a ratio of 40 this is about 1.3 MB of tables.
_CHUNK = 1 << 15
_JSON_LIMIT = 1 << 20

_Bytes = bytes | bytearray | memoryview


class BundleError(TableError):
    """A bundle that is damaged, truncated or of another version."""


def bundle_name(format_version: int = FORMAT_VERSION) -> str:
    """File name of the bundle of a table format version.

    >>> bundle_name()
    'twoplustwo-tables-1.tar.zst'
    """
    return f"twoplustwo-tables-{format_version}.tar.zst"


def import_zstandard() -> ModuleType:
    """The ``zstandard`` module, or an ImportError that says how to get it."""
    try:
        import zstandard
    except ImportError:
        raise ImportError(
            "table bundles need the 'zstandard' package: "
            "pip install zstandard (or pip install 'twoplustwo[build]')"
        ) from None
    return zstandard


def encode(data: _Bytes, dtype: str, transform: str) -> bytes:
    """Apply ``transform`` to the raw array bytes ``data`` of dtype ``dtype``.

    The result has the same length as ``data``; :func:`decode` inverts it.
    """
    if transform == "raw":
        return bytes(data)
    if transform != "columns-delta":
        raise ValueError(f"unknown transform {transform!r}")
    dt = np.dtype(dtype)
    rows = np.frombuffer(data, dtype=dt).reshape(-1, ROW)
    step = rows.copy()
    step[1:] -= rows[:-1]  # unsigned, so it wraps: exact in both directions
    # Zigzag in unsigned arithmetic: a step of -1 becomes 1, not 0xffff.
    top = 8 * dt.itemsize - 1
    zigzag = (step << 1) ^ -(step >> top)
    return np.ascontiguousarray(zigzag.T).tobytes()


def decode(payload: _Bytes, dtype: str, transform: str) -> bytes:
    """Invert :func:`encode`: the array's raw bytes from a bundle payload."""
    if transform == "raw":
        return bytes(payload)
    if transform != "columns-delta":
        raise BundleError(f"unknown transform {transform!r}")
    dt = np.dtype(dtype)
    if len(payload) % (ROW * dt.itemsize):
        raise BundleError(f"{len(payload)} bytes of {dtype} are not whole rows of {ROW}")
    columns = np.frombuffer(payload, dtype=dt).reshape(ROW, -1)
    step = (columns >> 1) ^ -(columns & 1)
    # Summing down each column in the array's own width undoes the wrapping deltas.
    rows = np.cumsum(step, axis=1, dtype=dt)
    return np.ascontiguousarray(rows.T).tobytes()


def _read_member(tar: tarfile.TarFile, want: str, size: int | None, where: str) -> bytes:
    """The next member's content, which must be named ``want`` and have ``size`` bytes.

    Without ``size`` (the JSON members) it may have at most :data:`_JSON_LIMIT`.
    """
    member = tar.next()
    if member is None:
        raise BundleError(f"{where}: ends before member {want!r} (truncated?)")
    if member.name != want or not member.isfile():
        raise BundleError(f"{where}: expected member {want!r}, found {member.name!r}")
    if size is None and member.size > _JSON_LIMIT:
        raise BundleError(f"{where}: member {want!r} is implausibly large ({member.size} bytes)")
    if size is not None and member.size != size:
        raise BundleError(f"{where}: member {want!r} has {member.size} bytes, expected {size}")
    fh = tar.extractfile(member)
    assert fh is not None  # a regular file always has a reader
    data = fh.read()
    if len(data) != member.size:
        raise BundleError(f"{where}: member {want!r} is truncated")
    return data


def _check_index(index: Any, manifest: dict[str, Any], where: str) -> list[dict[str, Any]]:
    if not isinstance(index, dict) or index.get("bundle_version") != BUNDLE_VERSION:
        got = index.get("bundle_version") if isinstance(index, dict) else None
        raise BundleError(
            f"{where}: bundle version {got!r}, this twoplustwo reads version {BUNDLE_VERSION}"
        )
    if index.get("format_version") != FORMAT_VERSION:
        raise BundleError(
            f"{where}: holds tables of format version {index.get('format_version')!r}, "
            f"this twoplustwo reads version {FORMAT_VERSION}"
        )
    entries = index.get("files")
    names = [f["name"] for f in manifest["files"]]
    if not isinstance(entries, list) or [
        e.get("name") if isinstance(e, dict) else None for e in entries
    ] != names:
        raise BundleError(f"{where}: {BUNDLE_INDEX} does not list the manifest's files in order")
    for e in entries:
        if e.get("transform") not in TRANSFORMS or not isinstance(e.get("member"), str):
            raise BundleError(f"{where}: {e['name']}: bad member or unknown transform")
    return entries


def _unpack(tar: tarfile.TarFile, staging: Path, where: str) -> None:
    """Write every file of the bundle into ``staging``, checking each sha256."""
    try:
        index = json.loads(_read_member(tar, BUNDLE_INDEX, None, where))
        text = _read_member(tar, MANIFEST, None, where).decode("utf-8")
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise BundleError(f"{where}: unreadable index or manifest ({e})") from None
    try:
        manifest = parse_manifest(text, f"{where}: {MANIFEST}")
    except TableError as e:
        raise BundleError(str(e)) from None
    entries = _check_index(index, manifest, where)
    for f, entry in zip(manifest["files"], entries):
        member = _read_member(tar, entry["member"], f["offset"] + f["nbytes"], where)
        data = decode(memoryview(member)[f["offset"] :], f["dtype"], entry["transform"])
        h = hashlib.sha256(member[: f["offset"]])
        h.update(data)
        if h.hexdigest() != f["sha256"]:
            raise BundleError(
                f"{where}: {f['name']} does not match its sha256 in the manifest (corrupt bundle)"
            )
        with open(staging / f["name"], "wb") as out:
            out.write(member[: f["offset"]])
            out.write(data)
    if tar.next() is not None:
        raise BundleError(f"{where}: unexpected members after the table files")
    (staging / MANIFEST).write_text(text)
    try:
        # The runtime's own checks (npy headers, shapes, node counts) before publishing.
        load_tables(staging)
    except TableError as e:
        raise BundleError(f"{where}: its tables would not load: {e}") from None


class _Frame:
    """The decompressed bytes of a bundle's one zstd frame, as a file to read in order.

    ``decompressobj`` rather than ``stream_reader``: it says when the frame
    has ended, so a bundle cut short is an error even where only the frame's
    checksum is missing, and reaching the end verifies that checksum.
    """

    def __init__(self, fh: IO[bytes], zstandard: ModuleType, where: str) -> None:
        self._fh = fh
        self._frame = zstandard.ZstdDecompressor().decompressobj()
        self._buf = bytearray()
        self._pos = 0
        self._where = where

    def _fill(self) -> bool:
        if self._frame.eof:
            return False
        chunk = self._fh.read(_CHUNK)
        if not chunk:
            raise BundleError(f"{self._where}: ends inside its zstd frame (truncated bundle)")
        del self._buf[: self._pos]
        self._pos = 0
        self._buf += self._frame.decompress(chunk)
        return True

    def read(self, size: int = -1) -> bytes:
        while (size < 0 or len(self._buf) - self._pos < size) and self._fill():
            pass
        end = len(self._buf) if size < 0 else min(len(self._buf), self._pos + size)
        out = bytes(self._buf[self._pos : end])
        self._pos = end
        return out

    def finish(self) -> None:
        """Read to the end of the frame (checking its checksum); refuse trailing bytes."""
        while self._fill():
            self._pos = len(self._buf)
        if self._frame.unused_data or self._fh.read(1):
            raise BundleError(f"{self._where}: unexpected bytes after the zstd frame")


def install_bundle(bundle: str | os.PathLike[str], to: str | os.PathLike[str] | None = None) -> Path:
    """Install the table set in ``bundle`` into ``to`` (default :func:`default_path`).

    Returns the directory installed into. A damaged, truncated or foreign
    bundle raises :class:`BundleError` (a ``ValueError``) and leaves the
    directory as it was: tables already there stay loadable. A missing
    ``zstandard`` raises ``ImportError``; a missing bundle ``OSError``.
    """
    zstandard = import_zstandard()
    where = os.fspath(bundle)
    target = Path(to) if to is not None else default_path()
    with open(bundle, "rb") as fh:
        staging = new_staging(target)
        try:
            frame = _Frame(fh, zstandard, where)
            try:
                with tarfile.open(fileobj=frame, mode="r|") as tar:  # type: ignore[call-overload]
                    _unpack(tar, staging, where)
                frame.finish()
            except (tarfile.TarError, zstandard.ZstdError, EOFError) as e:
                raise BundleError(f"{where}: damaged or truncated bundle ({e})") from None
            return publish(staging)
        except BaseException:
            discard(staging)
            raise
