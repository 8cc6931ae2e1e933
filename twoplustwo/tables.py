"""Find, check and memory-map a table set read-only; the process's one table cache.

Every array is a read-only view of a shared memory mapping, so all
processes on a machine share one copy of the pages, and loading costs
milliseconds: only the manifest and each file's ``.npy`` header are read.
``verify=True`` also hashes every byte. No file descriptor stays open once
a file is mapped.

>>> t = load_tables()
>>> t.nodes["dag5"]
[1, 52, 403, 1599, 4680]
>>> t.arrays["dag7/layer7"].dtype, t.arrays["dag7/layer7"].flags.writeable
(dtype('uint16'), False)

A reader can meet a publisher halfway: between reading ``manifest.json``
and opening a file it lists, a new set may be published and the old files
removed. The loader then reads the manifest again and starts over, at most
:data:`MAX_MANIFEST_READS` times in all (``tables/README.md``, section 8).
"""

from __future__ import annotations

import ctypes
import mmap
import os
import threading
import time
import weakref
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from . import pool
from .backend import core, extension
from .format import DAGS, MANIFEST, TableError, check_header, check_shapes, layer_role, parse_manifest, sha256_file

__all__ = [
    "ENV_VAR",
    "MAX_MANIFEST_READS",
    "TableError",
    "Tables",
    "clear_cache",
    "default_path",
    "get_tables",
    "load_tables",
]

ENV_VAR = "TWOPLUSTWO_TABLES"

#: How often :func:`load_tables` reads the manifest before it gives up on a
#: directory whose files keep vanishing under concurrent publishes.
MAX_MANIFEST_READS = 5

Array = npt.NDArray[np.unsignedinteger[Any]]


def default_path() -> Path:
    """Where tables are looked for when no path is given.

    ``$TWOPLUSTWO_TABLES``, else the checkout's ``tables/`` (beside
    ``pyproject.toml``), else a per-user cache directory.
    """
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env)
    checkout = Path(__file__).resolve().parent.parent
    if (checkout / "pyproject.toml").is_file():
        return checkout / "tables"
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "twoplustwo" / "tables"


class HandViews:
    """The dag7 arrays as ``memoryview`` objects, for the single-hand path.

    Indexing a memoryview returns a plain int without numpy's per-call
    overhead, and the views still point into the shared read-only pages.
    memoryview only reads native byte order, so an array stored in the
    other order (the format is little-endian; a big-endian host, or a
    byte-swapped view) is first copied into native order.
    """

    def __init__(self, t: Tables) -> None:
        def view(a: Array) -> memoryview:
            if not a.dtype.isnative:
                a = a.astype(a.dtype.newbyteorder("="))
            raw: Any = np.ascontiguousarray(a)  # numpy's stubs do not declare the buffer protocol
            fmt: Any = a.dtype.char
            out: memoryview = memoryview(raw).cast("B").cast(fmt)
            return out

        self.l1, self.l2, self.l3, self.l4, self.l5, self.l6, self.l7 = (view(a) for a in t.layers("dag7"))
        self.v5 = view(t.arrays["dag7/value5"])
        self.v6 = view(t.arrays["dag7/value6"])


@dataclass(frozen=True)
class Tables:
    """A loaded table set: its manifest and one read-only array per role."""

    path: Path
    manifest: dict[str, Any]
    arrays: dict[str, Array] = field(repr=False)

    @property
    def nodes(self) -> dict[str, list[int]]:
        """Node count per depth of each DAG."""
        nodes: dict[str, list[int]] = self.manifest["nodes"]
        return nodes

    @property
    def nbytes(self) -> int:
        """Bytes of array data in the whole set."""
        return sum(int(a.nbytes) for a in self.arrays.values())

    def layers(self, dag: str = "dag7") -> list[Array]:
        """The transition arrays of ``dag``, layer 1 first."""
        return [self.arrays[layer_role(dag, k)] for k in range(1, DAGS[dag] + 1)]

    @cached_property
    def hand_views(self) -> HandViews:
        """The arrays the single-hand path reads, made once per table set."""
        return HandViews(self)

    @cached_property
    def walker(self) -> Any:
        """The C backend's walker over this set, or None on the numpy backend (made once per set)."""
        module = core()
        if module is None:
            return None

        def little(a: Array) -> Array:
            # The C walker reads little-endian bytes, as the format stores them.
            return a if a.dtype.str[0] in "<|" else a.astype(a.dtype.newbyteorder("<"))

        dags = [[little(a) for a in self.layers(dag)] for dag in ("dag5", "dag6", "dag7")]
        return module.Walker(
            *dags, little(self.arrays["dag7/value5"]), little(self.arrays["dag7/value6"])
        )

    def verify(self) -> None:
        """Hash every file and compare with the manifest; raise :class:`TableError`."""
        for f in self.manifest["files"]:
            p = self.path / f["name"]
            try:
                digest = sha256_file(p)
            except OSError as e:
                raise TableError(f"{p}: cannot be read to verify it ({e.strerror})") from None
            if digest != f["sha256"]:
                raise TableError(f"{p}: content does not match its sha256 in the manifest (corrupt)")


# ------------------------------------------------------------------ mapping

_PROT_READ = getattr(mmap, "PROT_READ", 1)
_MAP_SHARED = getattr(mmap, "MAP_SHARED", 1)


def _libc_mmap() -> Any:
    """libc's mmap and munmap through ctypes, or None where there is no such libc."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        return libc
    except (OSError, AttributeError):
        return None


_libc = _libc_mmap()


def _map(fd: int, size: int, path: Path) -> memoryview:
    """A read-only view of the whole file ``fd``; the mapping does not keep ``fd`` open.

    Python's own ``mmap`` keeps a duplicate of the descriptor for the life of
    the mapping (20 per table set); mapping through libc does not. The
    mapping is released when the last array viewing it is gone.
    """
    if size == 0:
        return memoryview(b"")
    if _libc is None:
        return memoryview(mmap.mmap(fd, size, access=mmap.ACCESS_READ))
    addr = _libc.mmap(None, size, _PROT_READ, _MAP_SHARED, fd, 0)
    if addr is None or addr == ctypes.c_void_p(-1).value:
        err = ctypes.get_errno()
        raise TableError(f"{path}: cannot be memory-mapped ({os.strerror(err)})")
    buf = (ctypes.c_ubyte * size).from_address(addr)
    unmap = weakref.finalize(buf, _libc.munmap, addr, size)
    # Arrays may still be read by other threads while the interpreter exits.
    unmap.atexit = False
    return memoryview(buf).cast("B").toreadonly()


class _Vanished(Exception):
    """A file the manifest lists is gone: a publish happened since it was read."""

    def __init__(self, path: Path, role: str) -> None:
        super().__init__(str(path))
        self.path, self.role = path, role


def _open_set(root: Path, mpath: Path) -> Tables:
    try:
        text = mpath.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise _Vanished(mpath, "the manifest") from None
    except (OSError, UnicodeDecodeError) as e:
        raise TableError(f"{mpath}: cannot be read ({e})") from None
    m = parse_manifest(text, mpath)
    check_shapes(m, mpath)
    arrays: dict[str, Array] = {}
    for f in m["files"]:
        p = root / f["name"]
        try:
            fd = os.open(p, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except FileNotFoundError:
            raise _Vanished(p, f["role"]) from None
        except OSError as e:
            raise TableError(f"{p}: cannot be opened ({e.strerror}; listed in {mpath} as {f['role']})") from None
        try:
            try:
                check_header(p, f)
            except TableError:
                if not p.exists():  # removed between our open and the header check
                    raise _Vanished(p, f["role"]) from None
                raise
            size = os.fstat(fd).st_size
            data = _map(fd, size, p)
        finally:
            os.close(fd)
        a = np.frombuffer(data, dtype=np.dtype(f["dtype"]), count=f["shape"][0], offset=f["offset"])
        arrays[f["role"]] = a
    return Tables(root, m, arrays)


def load_tables(path: str | os.PathLike[str] | None = None, *, verify: bool = False) -> Tables:
    """Memory-map a table set read-only after checking its manifest and file sizes.

    ``path`` defaults to :func:`default_path`. Missing tables raise
    :class:`TableError` saying how to build or install them; nothing is
    ever built behind the caller's back.
    """
    root = Path(path) if path is not None else default_path()
    mpath = root / MANIFEST
    if not mpath.is_file():
        raise TableError(
            f"no tables at {root} (missing {MANIFEST}): build them with `make` or "
            f"`twoplustwo build` (needs the twoplustwo-builder package), or install a bundle "
            f"with `twoplustwo install-tables BUNDLE`; set ${ENV_VAR} to use tables elsewhere"
        )
    for attempt in range(MAX_MANIFEST_READS):
        try:
            tables = _open_set(root, mpath)
            break
        except _Vanished as gone:
            missing = gone
            # Back off a little, so a reader does not keep colliding with a
            # publisher that is mid-way through its clean-up.
            time.sleep(0.002 * 2**attempt)
    else:
        raise TableError(
            f"{missing.path}: missing (listed in {mpath} as {missing.role}; read the manifest "
            f"{MAX_MANIFEST_READS} times and a listed file was gone each time)"
        )
    if verify:
        tables.verify()
    return tables


# -------------------------------------------------------------------- cache

_lock = threading.Lock()
_cached: Tables | None = None


def clear_cache() -> None:
    """Forget the default tables, so the next use loads them again (say after a rebuild)."""
    global _cached
    with _lock:
        _cached = None
        ext = extension()
        if ext is not None:
            ext.set_default(None)


def get_tables(tables: Tables | None = None) -> Tables:
    """``tables`` if given, else the default set, loaded on first use and shared afterwards.

    Every function that reads tables takes ``tables=None`` and resolves it here.
    """
    if tables is not None:
        if not isinstance(tables, Tables):
            raise TypeError(f"tables must be a Tables from load_tables() or None, got {type(tables).__name__}")
        return tables
    t = _cached
    if t is None:
        t = _load_default()
    return t


def _load_default() -> Tables:
    global _cached
    with _lock:
        if _cached is None:
            t = load_tables()
            ext = extension()
            if ext is not None:
                # The C entry point of evaluate() serves the default set
                # without a Python frame (None on the numpy backend).
                ext.set_default(t.walker)
            _cached = t
        return _cached


def _fresh_lock_in_child() -> None:
    global _lock
    _lock = threading.Lock()


pool.after_fork(_fresh_lock_in_child)
