"""The cases of the conformance fixtures: the tiny set, valid and damaged, and the outcome a reader must give.

Each :class:`Case` makes its set from :class:`~.tinyset.TinySet` (edits before
hashing) or :class:`~.tinyset.CaseDir` (edits of the files and manifest after);
:func:`cases_json` writes them all as ``cases.json``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from twoplustwo.tables.format import MANIFEST, npy_header

from .tinyset import TINY_NODES, CaseDir, TinySet, dump_manifest, entry_for

__all__ = ["CASES", "TINY_GAME", "TINY_STRENGTH", "Case", "cases_json"]


@dataclass(frozen=True)
class Case:
    """One fixture: how it is damaged and what a reader must do with it."""

    name: str
    damage: str
    expect: str
    make: Callable[[], CaseDir]
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


def _valid() -> CaseDir:
    return TinySet().build()


def _edit(change: Callable[[CaseDir], None], base: Callable[[], CaseDir] = _valid) -> Callable[[], CaseDir]:
    def make() -> CaseDir:
        d = base()
        change(d)
        return d

    return make


def _edit_set(change: Callable[[TinySet], None]) -> Callable[[], CaseDir]:
    def make() -> CaseDir:
        s = TinySet()
        change(s)
        return s.build()

    return make


def _edit_text(change: Callable[[bytes], bytes], base: Callable[[], CaseDir] = _valid) -> Callable[[], CaseDir]:
    def make() -> CaseDir:
        d = base()
        d.text = change(dump_manifest(d.manifest).encode("utf-8"))
        return d

    return make


def _set_key(key: str, value: Any) -> Callable[[CaseDir], None]:
    return lambda d: d.manifest.__setitem__(key, value)


def _extra_files(d: CaseDir) -> None:
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


def _unknown_roles(d: CaseDir) -> None:
    raw = npy_header("|u1", 52, 128) + bytes(52)
    entry = entry_for("dag8/layer1", raw, "|u1", 52, 128)
    d.files[entry["name"]] = raw
    d.manifest["files"].append(entry)
    # An entry of a later version may look like nothing this version knows.
    d.manifest["files"].append(
        {"role": "dag8/layer1", "name": "no/such/file", "dtype": "<f8", "shape": [2, 3], "offset": 3, "nbytes": -1}
    )
    d.manifest["files"].append({"role": "dag9/fancy", "compression": "zstd"})


#: The game of the game-roles case: a made-up name, since any lowercase name makes a game role.
TINY_GAME = "tiny"


def _game_arrays(s: TinySet) -> None:
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


def _game_keys(d: CaseDir) -> None:
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


def _nested(depth: int) -> Any:
    """A JSON array nested ``depth`` levels deep."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def _unknown_keys(d: CaseDir) -> None:
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


def _strength(roles: Sequence[str]) -> Callable[[TinySet], None]:
    def change(s: TinySet) -> None:
        for role in roles:
            s.arrays[role] = list(TINY_STRENGTH[role])
            s.dtypes[role] = "|u1" if role.endswith("histogram") else "<u4"
            s.offsets[role] = 128

    return change


def _zero_value(s: TinySet) -> None:
    s.arrays["dag7/layer7"][5] = 0


def _missing_role(d: CaseDir) -> None:
    d.manifest["files"].remove(d.entry("dag6/layer2"))


def _duplicate_role(d: CaseDir) -> None:
    d.manifest["files"].append(dict(d.entry("dag5/layer3")))


def _missing_key(d: CaseDir) -> None:
    del d.entry("dag7/layer2")["offset"]


def _name_with_slash(d: CaseDir) -> None:
    # The file is really there, so only the name check refuses it.
    name = d.names["dag5/layer1"]
    d.files["sub/" + name] = d.files[name]
    d.entry("dag5/layer1")["name"] = "sub/" + name


def _shape_wraps(d: CaseDir) -> None:
    # 4 * (2**62 + n) is 4 * n modulo 2**64: nbytes still "matches" in
    # 64-bit arithmetic, and a reader trusting the length reads past the file.
    e = d.entry("dag5/layer5")
    e["shape"] = [2**62 + e["shape"][0]]


def _nbytes_wrong(d: CaseDir) -> None:
    d.entry("dag6/layer4")["nbytes"] += 1


def _root_not_1(s: TinySet) -> None:
    s.arrays["dag5/layer1"] = s.arrays["dag5/layer1"] * 2


def _root_not_1_nodes(d: CaseDir) -> None:
    d.manifest["nodes"]["dag5"][0] = 2


def _extra_row(role: str) -> Callable[[TinySet], None]:
    def change(s: TinySet) -> None:
        s.arrays[role] = s.arrays[role] + s.arrays[role][-52:]

    return change


def _one_more_value(s: TinySet) -> None:
    s.arrays["dag7/value6"].append(6001)


def _drop_file(role: str) -> Callable[[CaseDir], None]:
    def apply(d: CaseDir) -> None:
        del d.files[d.names[role]]

    return apply


def _change_file(role: str, change: Callable[[bytes], bytes]) -> Callable[[CaseDir], None]:
    def apply(d: CaseDir) -> None:
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


def _header_offset(s: TinySet) -> None:
    # The header ends at 128 but the manifest (and the data) say 192.
    role = "dag7/layer6"
    s.offsets[role] = 192
    s.edits[role] = lambda raw: npy_header(s.dtypes[role], len(s.arrays[role]), 128) + b"\0" * 64 + raw[192:]


def _tab_padding(raw: bytes) -> bytes:
    hlen = int.from_bytes(raw[8:10], "little")
    return raw[: 10 + hlen - 2] + b"\t\n" + raw[10 + hlen :]


def _flip_in_range(role: str) -> Callable[[CaseDir], None]:
    def apply(d: CaseDir) -> None:
        # 0 -> 1 in a node layer: still a node, so only the hash can tell.
        raw = bytearray(d.content(role))
        at = raw.index(0, d.entry(role)["offset"])
        raw[at] = 1
        d.files[d.names[role]] = bytes(raw)

    return apply


def _set_entry(role: str, i: int, value: int) -> Callable[[TinySet], None]:
    return lambda s: s.arrays[role].__setitem__(i, value)


def _set_dtype(role: str, dtype: str) -> Callable[[TinySet], None]:
    return lambda s: s.dtypes.__setitem__(role, dtype)


def _set_offset(role: str, offset: int) -> Callable[[TinySet], None]:
    return lambda s: s.offsets.__setitem__(role, offset)


def _edit_file(role: str, change: Callable[[bytes], bytes]) -> Callable[[TinySet], None]:
    return lambda s: s.edits.__setitem__(role, change)


def _both(first: Callable[[TinySet], None], then: Callable[[CaseDir], None]) -> Callable[[], CaseDir]:
    def make() -> CaseDir:
        s = TinySet()
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


def _resolve(names: tuple[str, ...], d: CaseDir) -> list[str]:
    return [d.names[n[1:]] if n.startswith("@") else n for n in names]


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
