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

from .format import DAGS, MANIFEST, TableError, layer_role, parse_manifest

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


def _check_header(p: Path, f: dict[str, Any]) -> None:
    try:
        with open(p, "rb") as fh:
            version = np.lib.format.read_magic(fh)
            if version != (1, 0):
                raise ValueError(f"npy version {version}")
            shape, fortran, dtype = np.lib.format.read_array_header_1_0(fh)
            offset = fh.tell()
    except (ValueError, OSError, SyntaxError) as e:
        raise TableError(f"{p}: not a readable .npy file ({e})") from None
    if (dtype.str, list(shape), offset) != (f["dtype"], f["shape"], f["offset"]) or fortran:
        raise TableError(
            f"{p}: header says dtype {dtype.str} shape {list(shape)} at offset {offset}, "
            f"manifest says dtype {f['dtype']} shape {f['shape']} at offset {f['offset']}"
        )
    size = p.stat().st_size
    if size != f["offset"] + f["nbytes"]:
        raise TableError(
            f"{p}: {size} bytes, expected {f['offset'] + f['nbytes']} (truncated or padded)"
        )


def _check_shapes(m: dict[str, Any], where: Path) -> None:
    nodes = m.get("nodes")
    if not isinstance(nodes, dict):
        raise TableError(f"{where}: 'nodes' must map each DAG to its node counts")
    shapes = {f["role"]: f["shape"][0] for f in m["files"]}
    for dag, n in DAGS.items():
        counts = nodes.get(dag)
        if not (isinstance(counts, list) and len(counts) == n and counts[0] == 1):
            raise TableError(f"{where}: nodes[{dag!r}] must list {n} depths starting at 1")
        for k in range(1, n + 1):
            want = counts[k - 1] * 52
            if shapes[layer_role(dag, k)] != want:
                raise TableError(
                    f"{where}: {layer_role(dag, k)} has {shapes[layer_role(dag, k)]} entries, "
                    f"expected {want} ({counts[k - 1]} nodes x 52 cards)"
                )
    for depth in (5, 6):
        role = f"dag7/value{depth}"
        if shapes[role] != nodes["dag7"][depth]:
            raise TableError(f"{where}: {role} must have one entry per depth-{depth} node")


def load_tables(
    path: str | os.PathLike[str] | None = None, *, verify: bool = False, build: bool = False
) -> Tables:
    """Memory-map a table set read-only after checking its manifest and file sizes.

    ``path`` defaults to :func:`default_path`. Missing tables raise
    :class:`TableError` saying how to build them, or are built first when
    ``build=True`` (needs the ``build`` extra: tqdm).
    """
    root = Path(path) if path is not None else default_path()
    mpath = root / MANIFEST
    if not mpath.is_file():
        if build:
            from twoplustwo_builder.pipeline import build as run_build  # only on request

            run_build(root)
            return load_tables(root, verify=verify)
        raise TableError(
            f"no tables at {root} (missing {MANIFEST}); build them with `make`, "
            f"`twoplustwo build`, or load_tables(build=True)"
        )
    m = parse_manifest(mpath.read_text(), mpath)
    _check_shapes(m, mpath)
    arrays: dict[str, npt.NDArray[np.unsignedinteger]] = {}
    for f in m["files"]:
        p = root / f["name"]
        if not p.is_file():
            raise TableError(f"{p}: missing (listed in {mpath} as {f['role']})")
        _check_header(p, f)
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
