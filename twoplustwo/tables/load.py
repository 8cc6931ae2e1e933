"""Check and memory-map a table set read-only; where the default set lives.

Every array is a read-only view of a shared memory mapping, so all
processes on a machine share one copy of the pages, and loading costs
milliseconds: only the manifest and each file's ``.npy`` header are read.
``verify=True`` also hashes every byte. No file descriptor stays open once
a file is mapped.

>>> t = open_tables(default_path())
>>> t.nodes["dag5"]
[1, 52, 403, 1599, 4680]
>>> t.arrays["dag7/layer7"].dtype, t.arrays["dag7/layer7"].flags.writeable
(dtype('uint16'), False)

A reader can meet a publisher halfway: between reading ``manifest.json``
and opening a file it lists, a new set may be published and the old files
removed. The loader then reads the manifest again and starts over, at most
:data:`MAX_MANIFEST_READS` times in all (``spec/README.md``, section 8).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Mapping
from functools import cached_property

from twoplustwo.tables.format import (
    MANIFEST,
    MAX_MANIFEST_BYTES,
    TableError,
    check_header,
    check_shapes,
    dag_depth,
    layer_role,
    parse_manifest,
)
from twoplustwo.tables.system import map_readonly, open_regular

# typing and pathlib cost milliseconds to import, which a fresh process's
# first evaluate() would pay: loading works on str paths, and Tables.path
# makes its Path on demand.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any


__all__ = [
    "ENV_VAR",
    "MAX_MANIFEST_READS",
    "TableError",
    "Tables",
    "default_dir",
    "default_path",
    "open_tables",
]

ENV_VAR = "TWOPLUSTWO_TABLES"

#: How often :func:`open_tables` reads the manifest before it gives up on a
#: directory whose files keep vanishing under concurrent publishes.
MAX_MANIFEST_READS = 5

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    Array = npt.NDArray[np.unsignedinteger[Any]]

# memoryview formats of the format's 1, 2 and 4 byte unsigned entries.
_VIEW_FORMAT = {1: "B", 2: "H", 4: "I"}


def default_path() -> Path:
    """Where tables are looked for when no path is given.

    ``$TWOPLUSTWO_TABLES``, else the checkout's ``tables/`` (beside
    ``pyproject.toml``), else a per-user cache directory.
    """
    from pathlib import Path

    return Path(default_dir())


def default_dir() -> str:
    """:func:`default_path` as a str, without importing pathlib (a fresh process's first evaluate() reads it)."""
    env = os.environ.get(ENV_VAR)
    if env:
        return env
    # This file is <checkout>/twoplustwo/tables/load.py.
    checkout = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
    if os.path.isfile(os.path.join(checkout, "pyproject.toml")):
        return os.path.join(checkout, "tables")
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(cache, "twoplustwo", "tables")


class Tables:
    """A loaded table set: its manifest and one read-only buffer per role.

    ``buffers`` are what :func:`open_tables` maps: typed ``memoryview``
    objects over the files' entries, which the C walker and the single-hand
    path read without numpy. :attr:`arrays` gives the same bytes as numpy
    arrays, importing numpy on first use. (``buffers`` may also be numpy
    arrays, say of another byte order.) Treat a ``Tables`` as immutable;
    two are equal only when they are the same object.
    """

    # A plain class, not a dataclass: importing dataclasses (and inspect)
    # would cost a fresh process's first evaluate() several milliseconds.
    def __init__(self, path: str | os.PathLike[str], manifest: dict[str, Any], buffers: Mapping[str, Any]) -> None:
        self._root = os.fspath(path)
        self.manifest = manifest
        self.buffers = buffers
        self._layers: dict[str, list[Array]] = {}
        self._views: dict[str, list[memoryview]] = {}
        #: What the floors above make once per set and keep with it, by a key each names: the
        #: games :func:`twoplustwo.kernels.games.resolve` read, the backend their walkers run on.
        self.cache: dict[str, Any] = {}

    @cached_property
    def path(self) -> Path:
        """The table directory."""
        from pathlib import Path

        return Path(self._root)

    def __repr__(self) -> str:
        return f"Tables(path={self.path!r})"

    @cached_property
    def arrays(self) -> dict[str, Array]:
        """One read-only numpy array per role, over the same mapped pages."""
        import numpy as np

        dtypes = {f["role"]: f["dtype"] for f in self.manifest["files"]}
        return {
            role: b if isinstance(b, np.ndarray) else np.frombuffer(b, dtype=np.dtype(dtypes[role]))
            for role, b in self.buffers.items()
        }

    @property
    def nodes(self) -> dict[str, list[int]]:
        """Node count per depth of each DAG."""
        nodes: dict[str, list[int]] = self.manifest["nodes"]
        return nodes

    @property
    def nbytes(self) -> int:
        """Bytes of array data in the whole set."""
        return sum(memoryview(b).nbytes for b in self.buffers.values())

    def layers(self, dag: str = "dag7") -> list[Array]:
        """The transition arrays of ``dag``, layer 1 first."""
        layers = self._layers.get(dag)
        if layers is None:
            # Small batches and prefixes ask for these on every call.
            layers = self._layers[dag] = [self.arrays[layer_role(dag, k)] for k in range(1, _depth(dag) + 1)]
        return layers

    def layer_views(self, dag: str = "dag7") -> list[memoryview]:
        """The transition arrays of ``dag`` as :meth:`native_view` memoryviews, layer 1 first."""
        views = self._views.get(dag)
        if views is None:
            views = self._views[dag] = [self.native_view(layer_role(dag, k)) for k in range(1, _depth(dag) + 1)]
        return views

    def native_view(self, role: str) -> memoryview:
        """The array of ``role`` as a ``memoryview`` in native byte order, for walks from Python.

        Indexing a memoryview returns a plain int without numpy's per-call
        overhead, and the view still points into the shared read-only
        pages. memoryview only reads native byte order, so an array stored
        in the other order (the format is little-endian; a big-endian host,
        or a byte-swapped array) is first copied into native order.
        """
        b = self.buffers[role]
        if isinstance(b, memoryview) and (sys.byteorder == "little" or b.itemsize == 1):
            return b  # the mapped file's own typed view: no numpy needed
        import numpy as np

        a = self.arrays[role]
        if not a.dtype.isnative:
            a = a.astype(a.dtype.newbyteorder("="))
        raw: Any = np.ascontiguousarray(a)  # numpy's stubs do not declare the buffer protocol
        fmt: Any = a.dtype.char
        out: memoryview = memoryview(raw).cast("B").cast(fmt)
        return out

    def verify(self) -> None:
        """Hash every file and compare with the manifest; raise :class:`TableError`."""
        for f in self.manifest["files"]:
            p = os.path.join(self._root, f["name"])
            try:
                digest = _sha256_mapped(p)
            except OSError as e:
                raise TableError(f"{p}: cannot be read to verify it ({e.strerror})") from None
            if digest != f["sha256"]:
                raise TableError(f"{p}: content does not match its sha256 in the manifest (corrupt)")


def _depth(dag: str) -> int:
    """Cards per hand of the DAG ``dag``: ``dag5`` and so on, or a game's ``<game>/dagN``."""
    return dag_depth(dag)


def _sha256_mapped(path: str) -> str:
    """The sha256 of a whole file, read through a mapping made as the loader makes it.

    Not with read(): a file not yet cached would then stay cached in small
    pieces, and later mappings of it would get small pages.
    """
    import hashlib  # here: loading tables never hashes, only verifying does

    fd = open_regular(path)
    try:
        data = map_readonly(fd, os.fstat(fd).st_size, path)
    finally:
        os.close(fd)
    return hashlib.sha256(data).hexdigest()


class _Vanished(Exception):
    """A file the manifest lists is gone: a publish happened since it was read."""

    def __init__(self, path: str, role: str) -> None:
        super().__init__(str(path))
        self.path, self.role = path, role


def _open_set(root: str, mpath: str) -> Tables:
    try:
        with open(open_regular(mpath), encoding="utf-8") as fh:
            # One character past the limit is enough for parse_manifest to refuse it.
            text = fh.read(MAX_MANIFEST_BYTES + 1)
    except FileNotFoundError:
        raise _Vanished(mpath, "the manifest") from None
    except (OSError, UnicodeDecodeError) as e:
        raise TableError(f"{mpath}: cannot be read ({e})") from None
    m = parse_manifest(text, mpath)
    check_shapes(m, mpath)
    views: dict[str, memoryview] = {}
    for f in m["files"]:
        p = os.path.join(root, f["name"])
        try:
            fd = open_regular(p)
        except FileNotFoundError:
            raise _Vanished(p, f["role"]) from None
        except OSError as e:
            raise TableError(f"{p}: cannot be opened ({e.strerror}; listed in {mpath} as {f['role']})") from None
        try:
            data = map_readonly(fd, os.fstat(fd).st_size, p)
        finally:
            os.close(fd)
        # The header is read through the mapping, not with read(): a file
        # not yet cached then comes in through the advised mapping, in 2 MiB
        # pieces, where read()'s readahead would cache it in small ones.
        check_header(p, f, data)
        entries = data[f["offset"] : f["offset"] + f["nbytes"]]
        fmt: Any = _VIEW_FORMAT[int(f["dtype"][-1])]  # typeshed wants a literal format
        views[f["role"]] = entries.cast(fmt)
    return Tables(root, m, views)


def open_tables(path: str | os.PathLike[str], *, verify: bool = False) -> Tables:
    """Memory-map the table set at ``path`` read-only after checking its manifest and file sizes.

    :func:`twoplustwo.tables.default.load_tables` is the public face of this
    function: it also finds the default set and installs it on first use. Missing tables raise
    :class:`TableError` saying how to build or install them; nothing is
    ever built behind the caller's back. A manifest or listed file that is
    not a regular file raises :class:`TableError` too, naming it (a FIFO is
    refused, never waited on); a symbolic link to a regular file is fine.
    """
    root = os.fspath(path)
    mpath = os.path.join(root, MANIFEST)
    # exists, not isfile: a manifest that is not a regular file is refused by name when opened.
    if not os.path.exists(mpath):
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
