"""Conformance fixtures for readers of the table format: ``python -m twoplustwo_builder.testdata.conformance``.

Writes ``spec/conformance/`` (see its README.md): a tiny valid table set,
damaged variants of it, each with the outcome a reader must give
(``cases.json``), and hands in the card text notation with their values
for the real tables (``vectors.txt``), each checked against an independent
oracle as it is written. Everything is derived from this file, the format
and the card and value contract alone, so two runs give the same bytes.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from twoplustwo.hands.batch import evaluate_batch
from twoplustwo.tables.default import load_tables
from twoplustwo.tables.format import DAGS, MANIFEST, ROLES, TableError, layer_role, npy_header
from twoplustwo.tables.load import default_path
from twoplustwo.vocab.cards import RANKS, SUITS, parse_cards
from twoplustwo.vocab.values import N_VALUES

from ..oracles import categoriser

__all__ = [
    "CASES",
    "VECTOR_HANDS",
    "Case",
    "generate",
    "main",
    "tiny_arrays",
    "tiny_value",
]

#: Hands of each size (5, 6 and 7 cards) in vectors.txt, after the fixed ones.
VECTOR_HANDS = 3334

# ---------------------------------------------------------------- tiny set

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
class _Dir:
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
        text = self.text if self.text is not None else _dump_manifest(self.manifest).encode("utf-8")
        for rel, data in sorted({**self.files, MANIFEST: text}.items()):
            p = root / rel
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_bytes(data)


@dataclass
class _Set:
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

    def build(self) -> _Dir:
        files: dict[str, bytes] = {}
        names: dict[str, str] = {}
        entries = []
        for role in sorted(self.arrays):
            raw = self.content(role)
            entry = _entry_for(role, raw, self.dtypes[role], len(self.arrays[role]), self.offsets[role])
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
        return _Dir(files, manifest, names)


def _entry_for(role: str, raw: bytes, dtype: str, length: int, offset: int) -> dict[str, Any]:
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


def _dump_manifest(m: Any) -> str:
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


def _nested(depth: int) -> Any:
    """A JSON array nested ``depth`` levels deep."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


# ------------------------------------------------------------------- cases


@dataclass(frozen=True)
class Case:
    """One fixture: how it is damaged and what a reader must do with it."""

    name: str
    damage: str
    expect: str
    make: Callable[[], _Dir]
    #: What a good error names: "@role" stands for that role's file name.
    names: tuple[str, ...] = ()
    #: The outcome for a reader that checks every sha256, when it differs from ``expect``.
    verify: str | None = None
    #: The outcome for a reader that range-checks every entry, when it differs from ``expect``.
    range_check: str | None = None
    #: Walks of this set give the values of tiny-vectors.txt.
    vectors: bool = False
    #: For a reader of the strength tables: each street it must serve or refuse (naming ``names``).
    strength: tuple[tuple[str, str], ...] = ()


def _valid() -> _Dir:
    return _Set().build()


def _edit(change: Callable[[_Dir], None], base: Callable[[], _Dir] = _valid) -> Callable[[], _Dir]:
    def make() -> _Dir:
        d = base()
        change(d)
        return d

    return make


def _edit_set(change: Callable[[_Set], None]) -> Callable[[], _Dir]:
    def make() -> _Dir:
        s = _Set()
        change(s)
        return s.build()

    return make


def _edit_text(change: Callable[[bytes], bytes], base: Callable[[], _Dir] = _valid) -> Callable[[], _Dir]:
    def make() -> _Dir:
        d = base()
        d.text = change(_dump_manifest(d.manifest).encode("utf-8"))
        return d

    return make


def _set_key(key: str, value: Any) -> Callable[[_Dir], None]:
    return lambda d: d.manifest.__setitem__(key, value)


def _extra_files(d: _Dir) -> None:
    d.files.update(
        {
            ".lock": b"",
            ".publishing": b'["dag7.layer1.0123456789abcdef.npy"]\n',
            ".build-4242-k3x9q1/.twoplustwo-staging": b"",
            ".build-4242-k3x9q1/manifest.json": b'{"format_version": 1, "files": [',
            "README.md": b"Not part of the set.\n",
            "dag7.layer1.0000000000000000.npy": b"an unlisted file, not even an array\n",
            "old/manifest.json": b"[",
        }
    )


def _unknown_roles(d: _Dir) -> None:
    raw = npy_header("|u1", 52, 128) + bytes(52)
    entry = _entry_for("dag8/layer1", raw, "|u1", 52, 128)
    d.files[entry["name"]] = raw
    d.manifest["files"].append(entry)
    # An entry of a later version may look like nothing this version knows.
    d.manifest["files"].append(
        {"role": "dag8/layer1", "name": "no/such/file", "dtype": "<f8", "shape": [2, 3], "offset": 3, "nbytes": -1}
    )
    d.manifest["files"].append({"role": "dag9/fancy", "compression": "zstd"})


#: The game of the game-roles case: a made-up name, since any lowercase name makes a game role.
TINY_GAME = "tiny"


def _game_arrays(s: _Set) -> None:
    # The game's DAG is dag7 with the two nodes of every depth swapped and
    # every value one higher: a reader that took one of its files for
    # hold'em's, or the other way round, walks to wrong values.
    for role in [r for r in s.arrays if r.startswith("dag7/")]:
        entries, what = s.arrays[role], role.partition("/")[2]
        if what.startswith("value"):
            game = [v + 1 for v in reversed(entries)]
        else:
            k = int(what[5:])
            rows = [entries[i : i + 52] for i in range(0, len(entries), 52)]
            if k > 1:
                rows.reverse()
            game = [e + 1 if k == 7 else 1 - e for row in rows for e in row]
        s.arrays[f"{TINY_GAME}/{role}"] = game
        s.dtypes[f"{TINY_GAME}/{role}"] = s.dtypes[role]
        s.offsets[f"{TINY_GAME}/{role}"] = s.offsets[role]


def _game_keys(d: _Dir) -> None:
    d.manifest["nodes"][f"{TINY_GAME}/dag7"] = list(TINY_NODES["dag7"])
    d.manifest["games"] = {
        TINY_GAME: {
            "deck": list(range(52)),
            "sizes": [5, 6, 7],
            "values": 7102,
            "dags": [f"{TINY_GAME}/dag7"],
            "ranking": "none: a conformance fixture, not poker values",
            "categories": [["any", 1, 7102]],
        }
    }


def _unknown_keys(d: _Dir) -> None:
    d.manifest["x-future"] = {"list": [1, 2.5, None, True, "text"], "deep": _nested(62)}
    d.manifest["nodes"]["dag8"] = [1, 52, 1326]
    d.entry("dag7/layer3")["compression"] = "none"


#: The preflop strength tables of the strength cases (spec section 14), by the
#: class index i of the hole cards: sum 1000 i + 1, sum2 i * 2**32 + 7 i (its
#: high word is i, its low word 7 i), and histogram entry i * 50 + b is b.
TINY_STRENGTH: dict[str, list[int]] = {
    "strength/preflop/sum": [1000 * i + 1 for i in range(169)],
    "strength/preflop/sum2": [w for i in range(169) for w in (7 * i, i)],
    "strength/preflop/histogram": [b for _ in range(169) for b in range(50)],
}


def _strength(roles: Sequence[str]) -> Callable[[_Set], None]:
    def change(s: _Set) -> None:
        for role in roles:
            s.arrays[role] = list(TINY_STRENGTH[role])
            s.dtypes[role] = "|u1" if role.endswith("histogram") else "<u4"
            s.offsets[role] = 128

    return change


def _zero_value(s: _Set) -> None:
    s.arrays["dag7/layer7"][5] = 0


def _missing_role(d: _Dir) -> None:
    d.manifest["files"].remove(d.entry("dag6/layer2"))


def _duplicate_role(d: _Dir) -> None:
    d.manifest["files"].append(dict(d.entry("dag5/layer3")))


def _missing_key(d: _Dir) -> None:
    del d.entry("dag7/layer2")["offset"]


def _name_with_slash(d: _Dir) -> None:
    # The file is really there, so only the name check refuses it.
    name = d.names["dag5/layer1"]
    d.files["sub/" + name] = d.files[name]
    d.entry("dag5/layer1")["name"] = "sub/" + name


def _shape_wraps(d: _Dir) -> None:
    # 4 * (2**62 + n) is 4 * n modulo 2**64: nbytes still "matches" in
    # 64-bit arithmetic, and a reader trusting the length reads past the file.
    e = d.entry("dag5/layer5")
    e["shape"] = [2**62 + e["shape"][0]]


def _nbytes_wrong(d: _Dir) -> None:
    d.entry("dag6/layer4")["nbytes"] += 1


def _root_not_1(s: _Set) -> None:
    s.arrays["dag5/layer1"] = s.arrays["dag5/layer1"] * 2


def _root_not_1_nodes(d: _Dir) -> None:
    d.manifest["nodes"]["dag5"][0] = 2


def _extra_row(role: str) -> Callable[[_Set], None]:
    def change(s: _Set) -> None:
        s.arrays[role] = s.arrays[role] + s.arrays[role][-52:]

    return change


def _one_more_value(s: _Set) -> None:
    s.arrays["dag7/value6"].append(6001)


def _drop_file(role: str) -> Callable[[_Dir], None]:
    def apply(d: _Dir) -> None:
        del d.files[d.names[role]]

    return apply


def _change_file(role: str, change: Callable[[bytes], bytes]) -> Callable[[_Dir], None]:
    def apply(d: _Dir) -> None:
        d.files[d.names[role]] = change(d.files[d.names[role]])

    return apply


def _header_text(raw: bytes, old: bytes, new: bytes) -> bytes:
    # Same length, so the header still ends at the offset.
    if len(old) != len(new) or raw.count(old) != 1:
        raise ValueError(f"cannot replace {old!r} by {new!r} in one header")
    return raw.replace(old, new)


def _npy_version_2(raw: bytes) -> bytes:
    # Version 2.0: a 4-byte HLEN, so the header text starts at byte 12.
    hlen = int.from_bytes(raw[8:10], "little")
    end = 10 + hlen
    return raw[:6] + b"\x02\x00" + (hlen - 2).to_bytes(4, "little") + raw[10 : end - 3] + b"\n" + raw[end:]


def _fortran(raw: bytes) -> bytes:
    # A well-formed header in every other way: "True" is one byte shorter, the padding one longer.
    end = 10 + int.from_bytes(raw[8:10], "little")
    return raw[:10] + raw[10 : end - 1].replace(b"False", b"True", 1) + b" \n" + raw[end:]


def _header_offset(s: _Set) -> None:
    # The header ends at 128 but the manifest (and the data) say 192.
    role = "dag7/layer6"
    s.offsets[role] = 192
    s.edits[role] = lambda raw: npy_header(s.dtypes[role], len(s.arrays[role]), 128) + b"\0" * 64 + raw[192:]


def _tab_padding(raw: bytes) -> bytes:
    hlen = int.from_bytes(raw[8:10], "little")
    return raw[: 10 + hlen - 2] + b"\t\n" + raw[10 + hlen :]


def _flip_in_range(role: str) -> Callable[[_Dir], None]:
    def apply(d: _Dir) -> None:
        # 0 -> 1 in a node layer: still a node, so only the hash can tell.
        raw = bytearray(d.content(role))
        at = raw.index(0, d.entry(role)["offset"])
        raw[at] = 1
        d.files[d.names[role]] = bytes(raw)

    return apply


def _set_entry(role: str, i: int, value: int) -> Callable[[_Set], None]:
    return lambda s: s.arrays[role].__setitem__(i, value)


def _set_dtype(role: str, dtype: str) -> Callable[[_Set], None]:
    return lambda s: s.dtypes.__setitem__(role, dtype)


def _set_offset(role: str, offset: int) -> Callable[[_Set], None]:
    return lambda s: s.offsets.__setitem__(role, offset)


def _edit_file(role: str, change: Callable[[bytes], bytes]) -> Callable[[_Set], None]:
    return lambda s: s.edits.__setitem__(role, change)


def _both(first: Callable[[_Set], None], then: Callable[[_Dir], None]) -> Callable[[], _Dir]:
    def make() -> _Dir:
        s = _Set()
        first(s)
        d = s.build()
        then(d)
        return d

    return make


def _insert_after_brace(extra: bytes) -> Callable[[bytes], bytes]:
    return lambda text: text.replace(b"{\n", b"{\n" + extra, 1)


M = MANIFEST

CASES: tuple[Case, ...] = (
    # Sets a reader must load.
    Case("valid", "nothing: the tiny valid set", "load", _valid, vectors=True),
    Case("extra-files", "dotfiles, a staging directory, a README, an unlisted .npy and a subdirectory beside the set",
         "load", _edit(_extra_files), vectors=True),
    Case("unknown-roles", "three more files[] entries of roles this version does not know, one of them odd",
         "load", _edit(_unknown_roles), vectors=True),
    Case("game-roles", f"the 9 roles of another game's DAG {TINY_GAME}/dag7 (section 13), its nodes and games "
         "entries", "load", _both(_game_arrays, _game_keys), vectors=True),
    Case("unknown-keys", "unknown keys in the manifest, a file entry and nodes; an informative value nested "
         "64 levels deep in all", "load", _edit(_unknown_keys), vectors=True),
    Case("zero-value-entry", "dag7/layer7[5] is 0: in range, since a last layer's dead entries may be 0",
         "load", _edit_set(_zero_value)),
    Case("strength-preflop", "the preflop strength tables (section 14): sum, sum2 and histogram, as documented",
         "load", _edit_set(_strength(list(TINY_STRENGTH))), vectors=True, strength=(("preflop", "serve"),)),
    Case("strength-partial", "strength/preflop/sum and histogram without strength/preflop/sum2: the set loads, "
         "its preflop strength is refused", "load",
         _edit_set(_strength(["strength/preflop/sum", "strength/preflop/histogram"])), ("strength/preflop/sum2",),
         vectors=True, strength=(("preflop", "refuse"),)),
    # Broken JSON.
    Case("bad-json", "manifest.json cut in half", "reject", _edit_text(lambda t: t[: len(t) // 2]), (M, "JSON")),
    Case("trailing-garbage", "a stray character after the manifest's object", "reject",
         _edit_text(lambda t: t + b"x\n"), (M, "JSON")),
    Case("not-an-object", "the manifest is a JSON array", "reject", _edit_text(lambda t: b"[1, 2]\n"), (M, "object")),
    Case("nan", "an informative key holds NaN, which is not JSON", "reject",
         _edit(_set_key("note", float("nan"))), (M, "JSON")),
    Case("duplicate-key", "format_version appears twice", "reject",
         _edit_text(_insert_after_brace(b'"format_version": 1,\n')), (M, "format_version")),
    Case("nested-65", "an informative value nested 65 levels deep in all", "reject",
         _edit(_set_key("x-future", _nested(64))), (M, "nested")),
    # Bad manifest fields.
    Case("format-version-2", "format_version is 2", "reject", _edit(_set_key("format_version", 2)),
         (M, "format version")),
    Case("format-version-string", 'format_version is "1", a string', "reject",
         _edit(_set_key("format_version", "1")), (M, "format version")),
    Case("format-version-true", "format_version is true, a bool", "reject",
         _edit(_set_key("format_version", True)), (M, "format version")),
    Case("file-entry-not-an-object", "files[20] is the number 7", "reject",
         _edit(lambda d: d.manifest["files"].append(7)), (M, "files[20]")),
    Case("role-not-a-string", "files[20] has role 7", "reject",
         _edit(lambda d: d.manifest["files"].append({**d.entry("dag5/layer1"), "role": 7})), (M, "role")),
    Case("missing-role", "the entry of dag6/layer2 is gone (its file is still there)", "reject",
         _edit(_missing_role), (M, "dag6/layer2")),
    Case("duplicate-role", "dag5/layer3 is listed twice", "reject", _edit(_duplicate_role), (M, "dag5/layer3")),
    Case("missing-key", "the entry of dag7/layer2 has no offset", "reject", _edit(_missing_key), (M, "offset")),
    Case("name-with-slash", "dag5/layer1's name is sub/<name>, and that file exists", "reject",
         _edit(_name_with_slash), (M, "name")),
    Case("bad-dtype", "dag5/layer2 is <i2 (signed), in the manifest and the file alike", "reject",
         _edit_set(_set_dtype("dag5/layer2", "<i2")), (M, "dtype")),
    Case("big-endian-dtype", "dag6/layer5 is >u2, in the manifest and the file alike", "reject",
         _edit_set(_set_dtype("dag6/layer5", ">u2")), (M, "dtype")),
    Case("shape-wraps", "dag5/layer5 (<u4) has shape [2**62 + length]: times 4 it wraps to nbytes in 64 bits",
         "reject", _edit(_shape_wraps), (M, "shape")),
    Case("nbytes-wrong", "dag6/layer4's nbytes is one more than length x itemsize", "reject",
         _edit(_nbytes_wrong), (M, "nbytes")),
    Case("offset-misaligned", "dag7/layer1's header ends at byte 100, and its offset says so: not a multiple of 64",
         "reject", _edit_set(_set_offset("dag7/layer1", 100)), (M, "offset")),
    Case("sha256-uppercase", "dag7/layer7's sha256 is in upper case", "reject",
         _edit(lambda d: d.entry("dag7/layer7").__setitem__("sha256", d.entry("dag7/layer7")["sha256"].upper())),
         (M, "sha256")),
    Case("nodes-root-not-1", "nodes['dag5'][0] is 2, and dag5/layer1 has two rows to match", "reject",
         _both(_root_not_1, _root_not_1_nodes), (M, "nodes")),
    Case("shape-vs-nodes", "dag5/layer3 has one row more than nodes['dag5'][2] (its file agrees)", "reject",
         _edit_set(_extra_row("dag5/layer3")), (M, "dag5/layer3", "nodes")),
    Case("value-shape-vs-nodes", "dag7/value6 has one entry more than nodes['dag7'][6] (its file agrees)",
         "reject", _edit_set(_one_more_value), (M, "dag7/value6", "nodes")),
    # Bad files.
    Case("missing-file", "dag7/layer4's file is gone", "reject", _edit(_drop_file("dag7/layer4")), ("@dag7/layer4",)),
    Case("truncated-file", "dag5/layer2's file lacks its last 3 bytes", "reject",
         _edit(_change_file("dag5/layer2", lambda b: b[:-3])), ("@dag5/layer2",)),
    Case("padded-file", "dag6/layer3's file has 8 zero bytes more", "reject",
         _edit(_change_file("dag6/layer3", lambda b: b + bytes(8))), ("@dag6/layer3",)),
    Case("bad-magic", "dag5/layer1's file starts \\x93NUMPX", "reject",
         _edit_set(_edit_file("dag5/layer1", lambda b: b[:5] + b"X" + b[6:])), ("@dag5/layer1",)),
    Case("npy-version-2", "dag7/layer3's file is .npy version 2.0 (4-byte HLEN), data still at its offset",
         "reject", _edit_set(_edit_file("dag7/layer3", _npy_version_2)), ("@dag7/layer3", "version")),
    Case("fortran-order", "dag5/layer3's header has fortran_order True", "reject",
         _edit_set(_edit_file("dag5/layer3", _fortran)), ("@dag5/layer3", "fortran_order")),
    Case("header-dtype", "dag6/layer2's header says |i1, the manifest |u1", "reject",
         _edit_set(_edit_file("dag6/layer2", lambda b: _header_text(b, b"'|u1'", b"'|i1'"))),
         ("@dag6/layer2", "dtype")),
    Case("header-shape", "dag7/layer5's header says (156,), the manifest [104]", "reject",
         _edit_set(_edit_file("dag7/layer5", lambda b: _header_text(b, b"(104,)", b"(156,)"))),
         ("@dag7/layer5", "shape")),
    Case("header-offset", "dag7/layer6's header ends at byte 128, its offset (and its data) is at 192", "reject",
         _edit_set(_header_offset), ("@dag7/layer6", "offset")),
    Case("header-padding", "dag5/layer4's header is padded with a tab before its newline", "reject",
         _edit_set(_edit_file("dag5/layer4", _tab_padding)), ("@dag5/layer4", "header")),
    # Damage only some readers see.
    Case("wrong-sha256", "one entry of dag6/layer4 changed from 0 to 1 after hashing: still in range",
         "load", _edit(_flip_in_range("dag6/layer4")), ("@dag6/layer4", "sha256"), verify="reject"),
    Case("entry-out-of-range", "dag5/layer2[0] is 2, but depth 2 has 2 nodes (0 and 1)", "load",
         _edit_set(_set_entry("dag5/layer2", 0, 2)), ("dag5/layer2",), range_check="reject"),
    Case("value-out-of-range", "dag6/layer6[0] is 7463, above the largest value", "load",
         _edit_set(_set_entry("dag6/layer6", 0, 7463)), ("dag6/layer6",), range_check="reject"),
)  # fmt: skip


def _resolve(names: tuple[str, ...], d: _Dir) -> list[str]:
    return [d.names[n[1:]] if n.startswith("@") else n for n in names]


# ----------------------------------------------------------------- vectors


class _Rng:
    """splitmix64: fixed forever, unlike library generators, so the vectors never change."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & (2**64 - 1)
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & (2**64 - 1)
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & (2**64 - 1)
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        # Rejection keeps every outcome equally likely.
        limit = (2**64 // n) * n
        while True:
            x = self.next()
            if x < limit:
                return x % n


def _spell(card: int, rng: _Rng) -> str:
    """A card in one of the spellings of the notation: mostly canonical, sometimes not."""
    rank, suit = RANKS[card >> 2], SUITS[card & 3]
    style = rng.below(10)
    if style == 7 and rank == "T":
        rank = "10"
    elif style == 8:
        rank, suit = rank.lower(), suit.upper()
    elif style == 9:
        suit = "♣♦♥♠"[card & 3]
    return rank + suit


def _parse(text: str) -> list[int]:
    return [RANKS.index(t[:-1].upper()) * 4 + SUITS.index(t[-1]) for t in text.split()]


# Hands at the edges of the value scale, in canonical spelling.
_FIXED = (
    "As Ks Qs Js Ts",  # royal flush: 7462
    "5d 4d 3d 2d Ad",  # five-high straight flush: 7453
    "7c 5d 4h 3s 2c",  # the weakest hand: 1
    "Ah 5c 4d 3s 2h",  # five-high straight: 5854
    "As Ah Ad Ac Ks Kh Kd",  # four aces, king kicker
    "2c 3d 4h 5s 7c 8d 9h",  # the weakest 7-card hand
    "Th 9h 8h 7h 6h 5h",  # six hearts in a row: a straight flush
)


def vector_hands() -> list[list[int]]:
    """The hands of vectors.txt, in order: the fixed ones, then random 5-, 6- and 7-card hands."""
    hands = [_parse(h) for h in _FIXED]
    rng = _Rng(20261123)
    for _ in range(VECTOR_HANDS):
        for n in (5, 6, 7):
            deck = list(range(52))
            for i in range(n):  # a partial Fisher-Yates shuffle: random cards in random order
                j = i + rng.below(52 - i)
                deck[i], deck[j] = deck[j], deck[i]
            hands.append(deck[:n])
    return hands


def vectors_text(tables: Path) -> str:
    """vectors.txt for the real tables at ``tables``; raise if the runtime and the oracle disagree anywhere."""
    t = load_tables(tables)
    hands = vector_hands()
    values = [0] * len(hands)
    for n in (5, 6, 7):
        idx = [i for i, h in enumerate(hands) if len(h) == n]
        batch = np.array([hands[i] for i in idx])
        got = evaluate_batch(batch, tables=t)
        want = categoriser.evaluate(batch)
        bad = np.flatnonzero(got != want)
        if bad.size:
            j = int(bad[0])
            raise RuntimeError(
                f"{tables}: hand {hands[idx[j]]} is {int(got[j])} by the tables but {int(want[j])} by the "
                f"categoriser oracle ({bad.size} of {len(idx)} {n}-card hands disagree): no vectors written"
            )
        for i, v in zip(idx, got.tolist()):
            values[i] = v
    rng = _Rng(7)
    lines = [
        "# twoplustwo conformance vectors: spec/README.md, format version 1.\n",
        "# One hand per line: 5 to 7 cards in the card text notation (section 6.1) separated by spaces,\n",
        "# a tab, and the hand's value (section 7). Every correct table set gives these values.\n",
    ]
    for h, v in zip(hands, values):
        text = " ".join(_spell(c, rng) for c in h)
        if parse_cards(text) != h or not 1 <= v <= N_VALUES:
            raise RuntimeError(f"vector {text!r} -> {v} does not parse back to {h} or is no value")
        lines.append(f"{text}\t{v}\n")
    return "".join(lines)


def _draw(pool: list[int], k: int, rng: _Rng) -> list[int]:
    pool = list(pool)
    for i in range(k):
        j = i + rng.below(len(pool) - i)
        pool[i], pool[j] = pool[j], pool[i]
    return pool[:k]


def tiny_vectors_text() -> str:
    """tiny-vectors.txt: hands of every size, with none to all of their cards high, and their tiny-set values."""
    rng = _Rng(5)
    lines = [
        "# Values a walk of the tiny set (cases/valid) gives: 1000 per card, 100 more if any card is a ten\n",
        "# or higher, plus 1. Same layout as vectors.txt: cards, a tab, the value.\n",
    ]
    for n in (5, 6, 7):
        for high in sorted({0, 1, 2, n}):
            for _ in range(2):
                cards = _draw(_draw(list(range(32, 52)), high, rng) + _draw(list(range(32)), n - high, rng), n, rng)
                lines.append(" ".join(_spell(c, rng) for c in cards) + f"\t{tiny_value(cards)}\n")
    return "".join(lines)


def cases_json() -> str:
    """cases.json: every case's damage and the outcome a reader must give."""
    cases = []
    for c in CASES:
        entry: dict[str, Any] = {"name": c.name, "damage": c.damage, "expect": c.expect}
        if c.verify:
            entry["verify"] = c.verify
        if c.range_check:
            entry["range_check"] = c.range_check
        if c.names:
            entry["names"] = _resolve(c.names, c.make())
        if c.vectors:
            entry["vectors"] = "tiny-vectors.txt"
        if c.strength:
            entry["strength"] = dict(c.strength)
        cases.append(json.dumps(entry, ensure_ascii=False))
    return '{\n"format_version": 1,\n"cases": [\n' + ",\n".join(cases) + "\n]\n}\n"


_README = """\
# Conformance fixtures for the twoplustwo table format

Generated by `python -m twoplustwo_builder.testdata.conformance` (from
`builder/testdata/conformance.py`; edit that, not these files). Running it again
gives the same bytes. The format is specified in [../README.md](../README.md);
section 11 is the reader checklist these fixtures test.

```
conformance/
  cases.json         every case: its damage and the outcome a reader must give
  cases/NAME/        one table set per case: manifest.json and its files
  tiny-vectors.txt   hands and the values a walk of cases/valid gives
  vectors.txt        {n_vectors:,} hands and their values for the real tables
```

## Running the cases

For each entry of `cases.json`, point your reader at `cases/<name>/` as a
table directory and load it the way your reader loads tables:

- `expect` is `"load"` or `"reject"`: the outcome for a reader that neither
  verifies sha256 nor range-checks entries (checklist items R1 and R15).
- `verify`, when present, is the outcome for a reader that verifies every
  file's sha256; otherwise it is `expect`.
- `range_check`, when present, is the outcome for a reader that checks every
  entry is in range; otherwise it is `expect`. A reader that does both
  rejects if either says `"reject"`.
- `names`, for a case some reader rejects (or whose strength it refuses),
  lists what a good error message contains: the file at fault
  (`manifest.json` or an array's file name) and the field or the part of it
  (`offset`, `dtype`, `nodes`, `version`, ...), or the missing role.
- `vectors`, when present, names a file of hands whose values a walk of the
  set must give once loaded.
- `strength`, when present, is for a reader that serves the strength tables
  (section 14): it maps a street to `"serve"`, the street is read from the
  set's tables (below), or `"refuse"`, the set loads but asking for that
  street's strength is an error naming each of `names`. A reader that does
  not serve them ignores the key (and the roles).

A reader that crashes, hangs or loads a set it should reject fails the case,
whatever it prints. The `missing-file` case also tests the retry bound: the
reader re-reads `manifest.json` (at most 5 reads in all) before it gives up
naming the missing file.

## The tiny set

`cases/valid/` is a complete, structurally valid set of all 20 roles whose
entries do not rank poker hands. A depth-k node of every DAG (k >= 1) is
`(h + k) % 2`, where h is 1 if one of the first k cards is a ten or higher
(card >= 32) and 0 otherwise, so `nodes` is `[1, 2, 2, ...]`. The last layer
of an n-card DAG, and `dag7/value5` and `dag7/value6`, give the value
`1000 * n + 100 * h + 1`: 5001 or 5101, 6001 or 6101, 7001 or 7101. For
example `2c 3c 4c 5c 7d` is 5001 and `As 2c 3c 4c 5c 7d 8h` is 7101.

Its dtypes are mixed on purpose, wider than the entries need (a writer
should pick the smallest; a reader must take each role's dtype from the
manifest), and the `dag6` files have 192-byte headers where the others have
128: take `offset` from the manifest. The damaged cases are this set with
one thing wrong, with names and sha256s recomputed wherever the damage is
not the hash itself.

`cases/game-roles/` adds the DAG of a game named `tiny` (section 13 of
the spec): the roles `tiny/dag7/layer1..7`, `tiny/dag7/value5` and
`tiny/dag7/value6`, `nodes["tiny/dag7"]` and a `games` entry. Its arrays
are those of `dag7` with the two nodes of every depth swapped and every
value one higher, so a walk of `tiny/dag7` gives `tiny-vectors.txt`'s
values plus one for 7 cards (and, through its value arrays, for 5 and 6),
and a reader that mixes up the two DAGs' files goes wrong. A reader of
hold'em alone walks `dag7` as before; one that knows game roles checks
the game's entries too.

`cases/strength-preflop/` adds the preflop strength tables (section 14) of
made-up numbers: for the hole cards of class index `i` (section 14.1),
`strength/preflop/sum` is `1000 i + 1`, `strength/preflop/sum2` is
`i * 2**32 + 7 i` (entry `2i` is `7 i`, entry `2i + 1` is `i`), and the
histogram's entry `i * 50 + b` is `b`. So `As Ah` (index 90) has `ehs =
90001 / (1980 * 2118760)` and `ehs2 = (90 * 2**32 + 630) / (1980² *
2118760)`. `cases/strength-partial/` lists the `sum` and the `histogram`
but not `sum2`: a street is read from both its roles or refused.

## Vectors

`vectors.txt` and `tiny-vectors.txt` hold one hand per line: 5 to 7 cards in
the card text notation of section 6.1, separated by single spaces, in random
order, then a tab and the value. Lines starting with `#` are comments. The
cards use every spelling of the notation: `T` or `10`, either case, and the
suit symbols ♣ ♦ ♥ ♠. The values of `vectors.txt` hold for every correct
table set; each was computed with the runtime (`twoplustwo.evaluate_batch`)
on the tables in `tables/` and checked, when written, against an
independent evaluator (`twoplustwo_builder.oracles.categoriser`).

## The cases

| case | expect | damage |
|---|---|---|
{case_rows}

## Readers that run them

- Python: `tests/spec/test_conformance.py` loads every case with
  `twoplustwo.load_tables(path)` and `load_tables(path, verify=True)` (the
  Python loader does not range-check; numpy's indexing is bounds-checked),
  checks every vector, and asks `twoplustwo.strength` of the strength cases.
- C: `tests/spec/test_c_reader.py` runs `examples/c/eval --check [--verify] DIR`
  on every case (it always range-checks), `eval --vectors FILE DIR` and, for
  the strength cases, `eval --strength DIR`, also built with the address and
  undefined-behaviour sanitizers.
"""


def readme_text(n_vectors: int) -> str:
    """README.md of the fixtures folder."""

    def outcome(c: Case) -> str:
        parts = [c.expect]
        if c.verify:
            parts.append(f"{c.verify} when verifying")
        if c.range_check:
            parts.append(f"{c.range_check} when range-checking")
        return "; ".join(parts)

    def cell(text: str) -> str:
        return text.replace("|", "\\|")  # a dtype such as |u1 would end the table cell

    rows = "\n".join(f"| `{c.name}` | {outcome(c)} | {cell(c.damage)} |" for c in CASES)
    return _README.replace("{n_vectors:,}", f"{n_vectors:,}").replace("{case_rows}", rows)


# --------------------------------------------------------------- generating


def _default_out() -> Path:
    checkout = Path(__file__).resolve().parents[2]
    if (checkout / "pyproject.toml").is_file() and (checkout / "spec").is_dir():
        return checkout / "spec" / "conformance"
    return Path("spec") / "conformance"


def generate(out: Path, tables: Path) -> int:
    """Write every fixture into ``out`` (replacing an earlier run's); return the number of bytes written.

    The vectors need the real tables at ``tables``. ``out`` must be absent,
    empty or an earlier output (it has a cases.json): nothing else is replaced.
    """
    if out.exists() and not (out / "cases.json").is_file() and any(out.iterdir()):
        raise ValueError(f"{out}: not empty and not an earlier conformance output (no cases.json); not replaced")
    vectors = vectors_text(tables)
    n_vectors = sum(1 for line in vectors.splitlines() if not line.startswith("#"))
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.new-{os.getpid()}"
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir()
    try:
        top = {
            ".gitattributes": "# Byte for byte: the test regenerates these files and compares them.\n* -text\n",
            "README.md": readme_text(n_vectors),
            "cases.json": cases_json(),
            "tiny-vectors.txt": tiny_vectors_text(),
            "vectors.txt": vectors,
        }
        for name, text in top.items():
            (tmp / name).write_bytes(text.encode("utf-8"))
        for c in CASES:
            c.make().write(tmp / "cases" / c.name)
        if out.exists():
            old = out.parent / f".{out.name}.old-{os.getpid()}"
            out.rename(old)
            tmp.rename(out)
            shutil.rmtree(old)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return sum(p.stat().st_size for p in out.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    """Command line: write the fixtures, or say why not."""
    p = argparse.ArgumentParser(
        prog="python -m twoplustwo_builder.testdata.conformance",
        description="Write the table format's conformance fixtures.",
    )
    p.add_argument("--out", type=Path, default=_default_out(), help="output directory (default: %(default)s)")
    p.add_argument(
        "--tables", type=Path, default=None, help="the real tables, for vectors.txt (default: where the runtime looks)"
    )
    args = p.parse_args(argv)
    try:
        size = generate(args.out, args.tables or default_path())
    except (TableError, ValueError, RuntimeError, OSError) as e:
        print(f"conformance: {e}", file=sys.stderr)
        return 1
    print(f"conformance: {len(CASES)} cases and vectors written to {args.out} ({size:,} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
