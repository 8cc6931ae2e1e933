"""Find, check and memory-map a table set read-only.

Every array is a read-only ``numpy.memmap``, so all processes on a machine
share one copy of the pages and loading costs milliseconds: only the
manifest and each file's ``.npy`` header are read. ``verify=True`` also
hashes every byte.

>>> t = load_tables()
>>> t.nodes["dag5"]
[1, 52, 403, 1599, 4680]
>>> t.arrays["dag7/layer7"].dtype, t.arrays["dag7/layer7"].flags.writeable
(dtype('uint16'), False)
"""

from __future__ import annotations

import hashlib
import os
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import numpy as np
import numpy.typing as npt

from .format import DAGS, MANIFEST, TableError, check_header, check_shapes, layer_role, parse_manifest

__all__ = ["Tables", "TableError", "clear_cache", "default_path", "get_tables", "load_tables", "on_clear"]

ENV_VAR = "TWOPLUSTWO_TABLES"


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


@dataclass(frozen=True)
class Tables:
    """A loaded table set: its manifest and one read-only array per role."""

    path: Path
    manifest: dict[str, Any]
    arrays: dict[str, npt.NDArray[np.unsignedinteger]] = field(repr=False)

    @property
    def nodes(self) -> dict[str, list[int]]:
        """Node count per depth of each DAG."""
        return self.manifest["nodes"]

    @property
    def nbytes(self) -> int:
        """Bytes of array data in the whole set."""
        return sum(int(a.nbytes) for a in self.arrays.values())

    def layers(self, dag: str = "dag7") -> list[npt.NDArray[np.unsignedinteger]]:
        """The transition arrays of ``dag``, layer 1 first."""
        return [self.arrays[layer_role(dag, k)] for k in range(1, DAGS[dag] + 1)]

    def verify(self) -> None:
        """Hash every file and compare with the manifest; raise :class:`TableError`."""
        for f in self.manifest["files"]:
            p = self.path / f["name"]
            h = hashlib.sha256()
            with open(p, "rb") as fh:
                for block in iter(lambda: fh.read(1 << 20), b""):
                    h.update(block)
            if h.hexdigest() != f["sha256"]:
                raise TableError(f"{p}: content does not match its sha256 in the manifest (corrupt)")


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
    m = parse_manifest(mpath.read_text(), mpath)
    check_shapes(m, mpath)
    arrays: dict[str, npt.NDArray[np.unsignedinteger]] = {}
    for f in m["files"]:
        p = root / f["name"]
        if not p.is_file():
            raise TableError(f"{p}: missing (listed in {mpath} as {f['role']})")
        check_header(p, f)
        arrays[f["role"]] = np.memmap(
            p, dtype=np.dtype(f["dtype"]), mode="r", offset=f["offset"], shape=tuple(f["shape"])
        )
    tables = Tables(root, m, arrays)
    if verify:
        tables.verify()
    return tables


_lock = threading.Lock()
_cached: Tables | None = None
_on_clear: list[Callable[[], None]] = []


def on_clear(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever :func:`clear_cache` runs (for caches built on the tables)."""
    _on_clear.append(callback)


def clear_cache() -> None:
    """Forget the default tables, so the next use loads them again (say after a rebuild)."""
    global _cached
    with _lock:
        _cached = None
        for callback in _on_clear:
            callback()


def get_tables() -> Tables:
    """The default table set, loaded on first use and shared afterwards."""
    global _cached
    if _cached is None:
        with _lock:
            if _cached is None:
                _cached = load_tables()
    return _cached
