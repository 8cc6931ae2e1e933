"""The tiny table set of the conformance fixtures: two nodes at every depth, values that are not poker values.

A walk of it gives :func:`tiny_value`; :class:`TinySet` holds its arrays before
they are hashed (the damaged cases of :mod:`.cases` edit them there) and builds
a :class:`CaseDir`, one case's files and manifest (edited there too).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from twoplustwo.tables.format import DAGS, MANIFEST, ROLES, layer_role, npy_header

__all__ = [
    "TINY_DTYPES",
    "TINY_NODES",
    "TINY_OFFSETS",
    "CaseDir",
    "TinySet",
    "dump_manifest",
    "entry_for",
    "tiny_arrays",
    "tiny_value",
]

#: Node counts of the tiny set: the root, then two nodes at every depth.
TINY_NODES: dict[str, list[int]] = {dag: [1] + [2] * (n - 1) for dag, n in DAGS.items()}

# Every width for node and value arrays alike, and wider than needed: a
# reader must take each role's dtype from the manifest, never assume one.
TINY_DTYPES: dict[str, str] = {
    "dag5/layer1": "|u1", "dag5/layer2": "<u2", "dag5/layer3": "|u1", "dag5/layer4": "|u1", "dag5/layer5": "<u4",
    "dag6/layer1": "<u2", "dag6/layer2": "|u1", "dag6/layer3": "|u1", "dag6/layer4": "|u1", "dag6/layer5": "|u1",
    "dag6/layer6": "<u2",
    "dag7/layer1": "<u4", "dag7/layer2": "|u1", "dag7/layer3": "<u2", "dag7/layer4": "|u1", "dag7/layer5": "|u1",
    "dag7/layer6": "|u1", "dag7/layer7": "<u2",
    "dag7/value5": "<u2", "dag7/value6": "<u4",
}  # fmt: skip

# Mostly today's 128, but dag6 at 192: a reader that hard-codes 128 fails.
TINY_OFFSETS: dict[str, int] = {role: 192 if role.startswith("dag6/") else 128 for role in ROLES}


def _high(card: int) -> int:
    return 1 if card >= 32 else 0  # a ten or higher


def _tiny_node(depth: int, high: int) -> int:
    # Not simply the count, so that a reader mixing up layers goes wrong.
    return 0 if depth == 0 else (high + depth) % 2


def tiny_value(cards: Sequence[int]) -> int:
    """The value a walk of the tiny set gives: 1000 per card, 100 more if a card is a ten or higher, plus 1.

    >>> tiny_value([0, 4, 8, 12, 17]), tiny_value([51, 0, 1, 2, 3, 4, 5])
    (5001, 7101)
    """
    return 1000 * len(cards) + 100 * max(_high(c) for c in cards) + 1


def tiny_arrays() -> dict[str, list[int]]:
    """The entries of every role of the tiny valid set."""
    arrays: dict[str, list[int]] = {}
    for dag, n in DAGS.items():
        for k in range(1, n + 1):
            entries = []
            for node in range(TINY_NODES[dag][k - 1]):
                high = 0 if k == 1 else (node - (k - 1)) % 2
                for card in range(52):
                    h = max(high, _high(card))
                    entries.append(_tiny_node(k, h) if k < n else 1000 * n + 100 * h + 1)
            arrays[layer_role(dag, k)] = entries
    for depth in (5, 6):
        arrays[f"dag7/value{depth}"] = [1000 * depth + 100 * ((node - depth) % 2) + 1 for node in range(2)]
    return arrays


@dataclass
class CaseDir:
    """One case directory: its files by relative path, and its manifest as data or as bytes."""

    files: dict[str, bytes]
    manifest: Any
    names: dict[str, str]
    text: bytes | None = None

    def entry(self, role: str) -> dict[str, Any]:
        entry: dict[str, Any] = next(f for f in self.manifest["files"] if f.get("role") == role)
        return entry

    def content(self, role: str) -> bytes:
        return self.files[self.names[role]]

    def write(self, root: Path) -> None:
        root.mkdir(parents=True)
        text = self.text if self.text is not None else dump_manifest(self.manifest).encode("utf-8")
        for rel, data in sorted({**self.files, MANIFEST: text}.items()):
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)


@dataclass
class TinySet:
    """The tiny set before it is hashed: arrays, dtypes, offsets and file-level edits."""

    arrays: dict[str, list[int]] = field(default_factory=tiny_arrays)
    dtypes: dict[str, str] = field(default_factory=lambda: dict(TINY_DTYPES))
    offsets: dict[str, int] = field(default_factory=lambda: dict(TINY_OFFSETS))
    #: role -> replacement of the file's bytes, made before hashing.
    edits: dict[str, Callable[[bytes], bytes]] = field(default_factory=dict)

    def content(self, role: str) -> bytes:
        a = self.arrays[role]
        data = np.array(a, dtype=np.dtype(self.dtypes[role])).tobytes()
        raw = npy_header(self.dtypes[role], len(a), self.offsets[role]) + data
        edit = self.edits.get(role)
        return edit(raw) if edit else raw

    def build(self) -> CaseDir:
        files: dict[str, bytes] = {}
        names: dict[str, str] = {}
        entries = []
        for role in sorted(self.arrays):
            raw = self.content(role)
            entry = entry_for(role, raw, self.dtypes[role], len(self.arrays[role]), self.offsets[role])
            files[entry["name"]] = raw
            names[role] = entry["name"]
            entries.append(entry)
        nodes = {dag: list(TINY_NODES[dag]) for dag in ("dag7", "dag6", "dag5")}
        manifest = {
            "format_version": 1,
            "note": "conformance fixture: the tiny set of spec/conformance/README.md, not poker values",
            "nodes": nodes,
            "files": entries,
        }
        return CaseDir(files, manifest, names)


def entry_for(role: str, raw: bytes, dtype: str, length: int, offset: int) -> dict[str, Any]:
    sha = hashlib.sha256(raw).hexdigest()
    return {
        "name": f"{role.replace('/', '.')}.{sha[:16]}.npy",
        "role": role,
        "dtype": dtype,
        "shape": [length],
        "offset": offset,
        "nbytes": length * np.dtype(dtype).itemsize,
        "sha256": sha,
    }


def dump_manifest(m: Any) -> str:
    """JSON with one line per top-level key and per file entry: small, and easy to read in a diff."""
    if not (isinstance(m, dict) and isinstance(m.get("files"), list)):
        return json.dumps(m) + "\n"
    lines = []
    for key, value in m.items():
        if key == "files":
            body = "[\n" + ",\n".join(json.dumps(f) for f in value) + "\n]"
        else:
            body = json.dumps(value)
        lines.append(f"{json.dumps(key)}: {body}")
    return "{\n" + ",\n".join(lines) + "\n}\n"
