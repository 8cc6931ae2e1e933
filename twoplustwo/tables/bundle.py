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
13 MB to about 3.0 MB for hold'em's files (3.6 MB for the whole set, the
short-deck games' files included). ``raw`` stores data unchanged.

A bundle names nothing of the target: every file it installs is named
by content (:func:`twoplustwo.tables.publish.content_name`) and its member is that
name, a dot and its transform; anything else is refused before a file is
written. :func:`install_bundle` streams the bundle in bounded memory (a few
tens of MB, whatever the bundle declares): the frame must carry a checksum, no
member may exceed what its manifest entry declares, little may follow the
tar's end, and each file goes to disk as it arrives. It writes every file
into a staging directory in the target, checks each against the manifest's
sha256 and the loader's own checks, and only then publishes it the way the
builder does (:mod:`twoplustwo.tables.publish`): files first, ``manifest.json``
last in one rename. Readers and an interrupted install therefore only ever
see the previous table set or the new one.

zstandard, a dependency, is imported only when a bundle is read or
written, so that loading tables never pays for it.

>>> data = np.arange(104, dtype="<u2").tobytes()
>>> decode(encode(data, "<u2", "columns-delta"), "<u2", "columns-delta") == data
True
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import shutil
import tarfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import IO, Any

import numpy as np
import numpy.typing as npt

from twoplustwo.progress import progress
from twoplustwo.tables.format import (
    FORMAT_VERSION,
    MANIFEST,
    MAX_MANIFEST_BYTES,
    TableError,
    check_shapes,
    parse_manifest,
)
from twoplustwo.tables.load import default_path, open_tables
from twoplustwo.tables.pages import uncache
from twoplustwo.tables.publish import content_name, discard, new_staging, publish

__all__ = [
    "BUNDLE_INDEX",
    "BUNDLE_VERSION",
    "BundleError",
    "ROW",
    "TRANSFORMS",
    "copy_columns_delta",
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

# Compressed bytes read from the bundle at a time.
_CHUNK = 1 << 16
# Compressed bytes per decompress call: see _Frame.
_FEED = 256
# A zstd frame header is at most this long.
_FRAME_HEADER_MAX = 18
# Our bundles use a 16 MiB window (twoplustwo_builder.bundle.WINDOW_LOG); a
# frame that asks for more than twice that is not one of ours.
_MAX_WINDOW = 1 << 25
# Member bytes per read, and array bytes per block when undoing columns-delta.
_READ = 1 << 20
_BLOCK = 1 << 20
# Largest bundle.json or manifest.json.
_JSON_LIMIT = MAX_MANIFEST_BYTES
# Extension headers (pax, GNU long names) a tar tool may put before a member.
_HEADER_SLACK = 1 << 16
# What may follow the last member: the end-of-archive blocks and record padding.
_TAIL_LIMIT = 1 << 16

_Bytes = bytes | bytearray | memoryview


class BundleError(TableError):
    """A bundle that is damaged, truncated or of another version."""


def import_zstandard() -> ModuleType:
    """The ``zstandard`` module, or an ImportError that says how to get it."""
    try:
        import zstandard
    except ImportError:
        raise ImportError(
            "table bundles need the 'zstandard' package, a dependency of twoplustwo that is missing here: "
            "pip install zstandard"
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
    return _unzigzag_rows(columns, np.zeros(ROW, dtype=dt)).tobytes()


def _unzigzag_rows(columns: npt.NDArray[Any], carry: npt.NDArray[Any]) -> npt.NDArray[Any]:
    """Rows from a block of ``columns-delta`` columns, continuing the sums in ``carry`` (updated in place)."""
    step = (columns >> 1) ^ -(columns & 1)
    step[:, 0] += carry
    # Summing down each column (a row here) in the array's own width undoes the wrapping deltas.
    np.cumsum(step, axis=1, dtype=step.dtype, out=step)
    carry[:] = step[:, -1]
    return np.ascontiguousarray(step.T)


def _copy(src: IO[bytes], n: int, out: IO[bytes], h: Any | None) -> None:
    """Copy exactly ``n`` bytes from ``src`` to ``out`` in bounded pieces, hashing them into ``h``."""
    while n > 0:
        chunk = src.read(min(n, _READ))
        if not chunk:
            raise EOFError("a member ends early")
        if h is not None:
            h.update(chunk)
        out.write(chunk)
        n -= len(chunk)


def copy_columns_delta(
    src: IO[bytes], nbytes: int, dtype: str, out: IO[bytes], h: Any, scratch: Path, block_rows: int = 0
) -> None:
    """Undo ``columns-delta`` on ``nbytes`` of payload from ``src``, writing (and hashing) the array's bytes.

    The payload is column by column and the array row by row, so the first
    row needs the last column: the payload goes to the file ``scratch``
    first, and comes back in blocks of ``block_rows`` rows (default about
    1 MiB), so memory stays bounded whatever size a manifest declares.
    """
    dt = np.dtype(dtype)
    row = ROW * dt.itemsize
    if nbytes % row:
        raise BundleError(f"{nbytes} bytes of {dtype} are not whole rows of {ROW}")
    rows = nbytes // row
    block = block_rows or max(1, _BLOCK // row)
    try:
        with open(scratch, "w+b") as columns:
            _copy(src, nbytes, columns, None)
            carry = np.zeros(ROW, dtype=dt)
            for r0 in range(0, rows, block):
                n = min(block, rows - r0)
                part = np.empty((ROW, n), dtype=dt)
                for c in range(ROW):
                    columns.seek((c * rows + r0) * dt.itemsize)
                    if columns.readinto(part[c]) != n * dt.itemsize:
                        raise EOFError(f"{scratch} ends early")
                data = _unzigzag_rows(part, carry)
                h.update(data)
                out.write(data.data)
    finally:
        scratch.unlink(missing_ok=True)


_KINDS = {
    tarfile.DIRTYPE: "a directory",
    tarfile.SYMTYPE: "a symbolic link",
    tarfile.LNKTYPE: "a hard link",
    tarfile.CHRTYPE: "a character device",
    tarfile.BLKTYPE: "a block device",
    tarfile.FIFOTYPE: "a FIFO",
    tarfile.CONTTYPE: "a contiguous file",
    tarfile.GNUTYPE_SPARSE: "a sparse file",
}


def _next_member(tar: tarfile.TarFile, frame: _Frame, want: str, size: int | None, where: str) -> IO[bytes]:
    """A reader of the next member, which must be the regular file ``want`` of ``size`` bytes.

    Without ``size`` (the JSON members) it may have at most :data:`_JSON_LIMIT`.
    """
    frame.allow(_JSON_LIMIT if size is None else size, f"for member {want!r}")
    member = tar.next()
    if member is None:
        raise BundleError(f"{where}: ends before member {want!r} (truncated?)")
    if member.name != want:
        raise BundleError(f"{where}: expected member {want!r}, found {member.name!r}")
    if member.type not in (tarfile.REGTYPE, tarfile.AREGTYPE):
        kind = _KINDS.get(member.type, f"of tar type {member.type!r}")
        raise BundleError(f"{where}: member {want!r} is {kind}, expected a regular file")
    if size is None and member.size > _JSON_LIMIT:
        raise BundleError(f"{where}: member {want!r} is implausibly large ({member.size} bytes)")
    if size is not None and member.size != size:
        raise BundleError(f"{where}: member {want!r} has {member.size} bytes, expected {size}")
    fh = tar.extractfile(member)
    assert fh is not None  # a regular file always has a reader
    return fh


def _read_all(fh: IO[bytes], n: int) -> bytes:
    parts = []
    while n > 0:
        chunk = fh.read(n)
        if not chunk:
            raise EOFError("a member ends early")
        parts.append(chunk)
        n -= len(chunk)
    return b"".join(parts)


def _check_index(index: Any, manifest: dict[str, Any], where: str) -> list[dict[str, Any]]:
    """The index's entries, in manifest order, once every name in them and in the manifest is one we may write."""
    if not isinstance(index, dict) or index.get("bundle_version") != BUNDLE_VERSION:
        got = index.get("bundle_version") if isinstance(index, dict) else None
        raise BundleError(f"{where}: bundle version {got!r}, this twoplustwo reads version {BUNDLE_VERSION}")
    if index.get("format_version") != FORMAT_VERSION:
        raise BundleError(
            f"{where}: holds tables of format version {index.get('format_version')!r}, "
            f"this twoplustwo reads version {FORMAT_VERSION}"
        )
    entries = index.get("files")
    names = [f["name"] for f in manifest["files"]]
    if not isinstance(entries, list) or [e.get("name") if isinstance(e, dict) else None for e in entries] != names:
        raise BundleError(f"{where}: {BUNDLE_INDEX} does not list the manifest's files in order")
    for f, e in zip(manifest["files"], entries):
        # Only content names: nothing in a bundle can name README.md, .lock or any other file of the target.
        want = content_name(f["role"], f["sha256"])
        if f["name"] != want:
            raise BundleError(
                f"{where}: {MANIFEST}: {f['role']} is named {f['name']!r}; a bundle installs arrays only "
                f"under their content name, here {want!r} (role with '/' as '.', 16 hex digits of its sha256, .npy)"
            )
        transform = e.get("transform")
        if not (isinstance(transform, str) and transform in TRANSFORMS):
            raise BundleError(
                f"{where}: {BUNDLE_INDEX}: {want}: unknown transform {transform!r} (known: {', '.join(TRANSFORMS)})"
            )
        if e.get("member") != f"{want}.{transform}":
            raise BundleError(
                f"{where}: {BUNDLE_INDEX}: {want}: member {e.get('member')!r} must be named {want + '.' + transform!r}"
            )
    return entries


def _unpack_file(fh: IO[bytes], f: dict[str, Any], transform: str, staging: Path, where: str) -> None:
    """Write one table file from its member into ``staging``, checking its sha256."""
    h = hashlib.sha256()
    with open(staging / f["name"], "wb") as out:
        head = _read_all(fh, f["offset"])
        h.update(head)
        out.write(head)
        if transform == "raw":
            _copy(fh, f["nbytes"], out, h)
        else:
            try:
                copy_columns_delta(fh, f["nbytes"], f["dtype"], out, h, staging / f"{f['name']}.columns")
            except BundleError as e:
                raise BundleError(f"{where}: {f['name']}: {e}") from None
    if h.hexdigest() != f["sha256"]:
        raise BundleError(f"{where}: {f['name']} does not match its sha256 in the manifest (corrupt bundle)")
    # Written in pieces, the file is cached in small ones, which would map
    # with small pages until they left the cache: let them leave now.
    uncache(staging / f["name"])


def _unpack(tar: tarfile.TarFile, frame: _Frame, staging: Path, where: str) -> None:
    """Write every file of the bundle into ``staging``, checking each sha256."""
    try:
        fh = _next_member(tar, frame, BUNDLE_INDEX, None, where)
        index = json.loads(fh.read(_JSON_LIMIT + 1))
        fh = _next_member(tar, frame, MANIFEST, None, where)
        raw = fh.read(_JSON_LIMIT + 1)
        text = raw.decode("utf-8")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as e:
        raise BundleError(f"{where}: unreadable index or manifest ({e})") from None
    try:
        # Strict: a set is installed whole, game roles included, and a role
        # this version does not know could not be published (see publish).
        manifest = parse_manifest(text, f"{where}: {MANIFEST}", strict=True)
        # Node counts before any data: a set that could never load is not worth unpacking.
        check_shapes(manifest, f"{where}: {MANIFEST}")
    except TableError as e:
        raise BundleError(str(e)) from None
    entries = _check_index(index, manifest, where)
    # Each file, and the scratch copy of the largest columns-delta payload, at once.
    need = sum(f["offset"] + f["nbytes"] for f in manifest["files"])
    need += max((f["nbytes"] for f, e in zip(manifest["files"], entries) if e["transform"] != "raw"), default=0)
    free = shutil.disk_usage(staging).free
    if need > free:
        # Before writing: a bundle that declares more than fits fails now, not with a full disk.
        raise OSError(errno.ENOSPC, f"{where}: unpacking takes {need:,} bytes, {free:,} are free", str(staging.parent))
    for f, entry in zip(manifest["files"], entries):
        fh = _next_member(tar, frame, entry["member"], f["offset"] + f["nbytes"], where)
        _unpack_file(fh, f, entry["transform"], staging, where)
    frame.allow(_TAIL_LIMIT, "after the tar's end")
    if tar.next() is not None:
        raise BundleError(f"{where}: unexpected members after the table files")
    (staging / MANIFEST).write_bytes(raw)
    try:
        # The runtime's own checks (npy headers, shapes, node counts) before publishing.
        open_tables(staging)
    except TableError as e:
        raise BundleError(f"{where}: its tables would not load: {e}") from None


class _Counted:
    """A file read in order, each read counted on a progress bar."""

    def __init__(self, fh: IO[bytes], update: Callable[[int], object]) -> None:
        self._fh, self._update = fh, update

    def read(self, n: int) -> bytes:
        data = self._fh.read(n)
        self._update(len(data))
        return data


class _Frame:
    """The decompressed bytes of a bundle's one zstd frame, as a file to read in order, in bounded memory.

    ``decompressobj`` rather than ``stream_reader``: it says where the frame
    ends, so bytes after it and a frame cut short (even by its checksum
    alone) are errors. It has no output limit, so it gets at most ``_FEED``
    compressed bytes a call: a zstd block takes at least 4 of them and holds
    at most 128 KiB, so one call gives at most about 8 MiB. And no more is
    read than :meth:`allow` allows: what the manifest declares, and a little.
    """

    def __init__(self, fh: IO[bytes] | _Counted, zstandard: ModuleType, where: str) -> None:
        head = fh.read(_FRAME_HEADER_MAX)
        try:
            params = zstandard.get_frame_parameters(head)
        except zstandard.ZstdError as e:
            raise BundleError(f"{where}: damaged or truncated bundle: no zstd frame header ({e})") from None
        if not params.has_checksum:
            # The sha256 of each file is checked anyway; the checksum also covers the index and the manifest.
            raise BundleError(f"{where}: its zstd frame carries no content checksum (bundles are written with one)")
        if params.window_size > _MAX_WINDOW:
            raise BundleError(
                f"{where}: its zstd frame asks for a {params.window_size:,}-byte window; bundles use at most "
                f"{_MAX_WINDOW:,} bytes"
            )
        self._fh = fh
        self._frame = zstandard.ZstdDecompressor(max_window_size=_MAX_WINDOW).decompressobj()
        self._input = head
        self._used = 0
        self._buf = bytearray()
        self._pos = 0
        self._where = where
        self._offset = 0  # decompressed bytes handed out
        self._limit = 0
        self._what = ""

    def allow(self, n: int, what: str) -> None:
        """Let the next tar member, of ``n`` bytes, be read; ``what`` it is, for errors.

        On top of ``n``: its header and any extension headers a tar tool may
        put before it, its padding, and one record tarfile may have read ahead.
        """
        self._limit = self._offset + tarfile.BLOCKSIZE + _HEADER_SLACK + n + tarfile.RECORDSIZE
        self._what = what

    def _fill(self) -> bool:
        if self._frame.eof:
            return False
        if self._used >= len(self._input):
            self._input = self._fh.read(_CHUNK)
            self._used = 0
            if not self._input:
                raise BundleError(f"{self._where}: ends inside its zstd frame (truncated bundle)")
        piece = self._input[self._used : self._used + _FEED]
        self._used += len(piece)
        out = self._frame.decompress(piece)
        if out:
            del self._buf[: self._pos]
            self._pos = 0
            self._buf += out
        return True

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = _READ
        while len(self._buf) - self._pos < size and self._fill():
            pass
        end = min(len(self._buf), self._pos + size)
        if self._offset + end - self._pos > self._limit:
            raise BundleError(
                f"{self._where}: more data than expected {self._what} (over {self._limit:,} bytes of tar "
                f"stream: a decompression bomb?)"
            )
        out = bytes(self._buf[self._pos : end])
        self._pos = end
        self._offset += len(out)
        return out

    def finish(self) -> None:
        """Read to the end of the frame (checking its checksum); refuse bytes after it."""
        while self.read(_READ):
            pass
        if self._frame.unused_data or self._used < len(self._input) or self._fh.read(1):
            raise BundleError(f"{self._where}: unexpected bytes after the zstd frame")


def install_bundle(
    bundle: str | os.PathLike[str], to: str | os.PathLike[str] | None = None, *, quiet: bool = False
) -> Path:
    """Install the table set in ``bundle`` into ``to`` (default :func:`default_path`).

    Returns the directory installed into. A damaged, truncated, foreign or
    hostile bundle raises :class:`BundleError` (a ``ValueError``) and leaves
    the directory as it was: tables already there stay loadable, and a
    directory the install created is removed again. A missing
    ``zstandard`` raises ``ImportError``; a missing bundle ``OSError``. A
    bar on a terminal shows the bundle's bytes read, unless ``quiet``.
    """
    zstandard = import_zstandard()
    where = os.fspath(bundle)
    target = Path(to) if to is not None else default_path()
    with open(bundle, "rb") as raw, progress(os.fstat(raw.fileno()).st_size, "B", desc="tables", quiet=quiet) as bar:
        fh = _Counted(raw, bar)
        staging = new_staging(target)
        try:
            try:
                frame = _Frame(fh, zstandard, where)
                # tarfile reads the first member's header as it opens.
                frame.allow(_JSON_LIMIT, f"for member {BUNDLE_INDEX!r}")
                with tarfile.open(fileobj=frame, mode="r|") as tar:  # type: ignore[call-overload]
                    _unpack(tar, frame, staging, where)
                frame.finish()
            except (tarfile.TarError, zstandard.ZstdError, EOFError) as e:
                raise BundleError(f"{where}: damaged or truncated bundle ({e})") from None
            return publish(staging)
        except BaseException:
            discard(staging)
            raise
