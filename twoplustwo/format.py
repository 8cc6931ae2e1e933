"""The on-disk table format: the one thing the builder and the runtime share.

A table set is a directory holding ``manifest.json`` and one ``.npy`` file
per array (see ``tables/README.md`` for the full specification). This module
names the format version, the roles and how a manifest is checked; it never
touches numpy arrays, so any reader can follow it.

>>> sorted(ROLES)[:3]
['dag5/layer1', 'dag5/layer2', 'dag5/layer3']
>>> len(ROLES)
20
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import numpy as np

__all__ = [
    "FORMAT_VERSION",
    "MANIFEST",
    "ROLES",
    "DAGS",
    "TableError",
    "check_header",
    "check_shapes",
    "layer_role",
    "parse_manifest",
]

#: Bumped whenever the card or value contract or the file layout changes.
FORMAT_VERSION = 1

MANIFEST = "manifest.json"

#: Cards per hand for each DAG, by name.
DAGS: dict[str, int] = {"dag5": 5, "dag6": 6, "dag7": 7}


def layer_role(dag: str, k: int) -> str:
    """Role of the array that takes depth ``k - 1`` nodes to depth ``k``."""
    return f"{dag}/layer{k}"


#: Every role a complete table set has. ``layerK`` arrays are flattened
#: ``(nodes at depth K-1) x 52`` transitions; ``dag7/value5`` and
#: ``dag7/value6`` hold the 5- and 6-card value of each depth-5 and depth-6
#: node of the 7-card DAG.
ROLES: frozenset[str] = frozenset(
    [layer_role(d, k) for d, n in DAGS.items() for k in range(1, n + 1)]
    + ["dag7/value5", "dag7/value6"]
)

_FILE_KEYS = {"name", "role", "dtype", "shape", "offset", "nbytes", "sha256"}
_DTYPES = {"|u1", "<u2", "<u4"}


class TableError(ValueError):
    """Tables that are missing, damaged or of another format version."""


def parse_manifest(text: str, where: str | os.PathLike[str] = MANIFEST) -> dict[str, Any]:
    """Parse and check a manifest's structure; raise :class:`TableError` on any defect.

    >>> parse_manifest('{"format_version": 99}')
    Traceback (most recent call last):
    ...
    twoplustwo.format.TableError: manifest.json: format version 99, this twoplustwo reads version 1 (rebuild the tables: twoplustwo build)
    """
    try:
        m = json.loads(text)
    except json.JSONDecodeError as e:
        raise TableError(f"{where}: not valid JSON ({e})") from None
    if not isinstance(m, dict):
        raise TableError(f"{where}: expected a JSON object")
    version = m.get("format_version")
    if version != FORMAT_VERSION:
        raise TableError(
            f"{where}: format version {version!r}, this twoplustwo reads version "
            f"{FORMAT_VERSION} (rebuild the tables: twoplustwo build)"
        )
    files = m.get("files")
    if not isinstance(files, list):
        raise TableError(f"{where}: 'files' must be a list")
    seen: set[str] = set()
    for i, f in enumerate(files):
        if not isinstance(f, dict) or not _FILE_KEYS <= f.keys():
            raise TableError(f"{where}: files[{i}] must have keys {sorted(_FILE_KEYS)}")
        role = f["role"]
        if role not in ROLES:
            raise TableError(f"{where}: files[{i}] has unknown role {role!r}")
        if role in seen:
            raise TableError(f"{where}: role {role!r} appears twice")
        seen.add(role)
        if f["dtype"] not in _DTYPES:
            raise TableError(f"{where}: {role}: unsupported dtype {f['dtype']!r}")
        name = f["name"]
        if not isinstance(name, str) or os.path.basename(name) != name or not name:
            raise TableError(f"{where}: {role}: file name {name!r} must be a plain file name")
        shape = f["shape"]
        if not (isinstance(shape, list) and len(shape) == 1 and isinstance(shape[0], int)):
            raise TableError(f"{where}: {role}: shape must be [length]")
        for key in ("offset", "nbytes"):
            if not isinstance(f[key], int) or f[key] < 0:
                raise TableError(f"{where}: {role}: {key} must be a non-negative int")
    missing = ROLES - seen
    if missing:
        raise TableError(f"{where}: missing roles {sorted(missing)}")
    return m


def check_header(p: Path, f: dict[str, Any]) -> None:
    """Check that file ``p`` has the .npy header and size its manifest entry ``f`` promises."""
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


def check_shapes(m: dict[str, Any], where: str | os.PathLike[str]) -> None:
    """Check that each role's length matches the node counts in ``m['nodes']``."""
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
