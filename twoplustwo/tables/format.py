"""The on-disk table format: the one thing the builder and the runtime share.

A table set is a directory holding ``manifest.json`` and one ``.npy`` file
per array (see ``spec/README.md`` for the full specification, whose
reader checklist this module implements). This module names the format
version and the roles, and checks a manifest and a file header; it never
touches numpy arrays, so any reader can follow it. The optional roles
(strength and bucket tables) are listed in :mod:`twoplustwo.tables.optional`,
and how a reader opens a file in :mod:`twoplustwo.tables.system`
(:func:`~twoplustwo.tables.system.open_regular`).

A set holds hold'em's 20 roles, which every reader needs, and may hold the
roles of other games' DAGs (*game roles*, section 13 of the spec), which
this module checks like hold'em's whenever they are listed.

>>> sorted(ROLES)[:3]
['dag5/layer1', 'dag5/layer2', 'dag5/layer3']
>>> len(ROLES)
20
>>> role_dag("dag6/layer2"), role_dag("short-deck/dag7/value5"), role_dag("dag8/layer1")
('dag6', 'short-deck/dag7', None)
>>> role_dag("badugi/dag4/layer4"), role_dag("badugi/dag4/layer5"), role_dag("razz/dag5/value5")
('badugi/dag4', None, None)
>>> npy_header("<u2", 2704, 128)[10:70]
b"{'descr': '<u2', 'fortran_order': False, 'shape': (2704,), }"
"""

from __future__ import annotations

import json
import os
import re
import reprlib

from twoplustwo.tables.optional import STRENGTH_STREETS, optional_length, strength_gap

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection
    from typing import Any

    from twoplustwo.vocab.rules import Rules

__all__ = [
    "bundle_name",
    "ALIGN",
    "DAGS",
    "DTYPES",
    "FORMAT_VERSION",
    "MANIFEST",
    "MAX_DEPTH",
    "MAX_INT",
    "MAX_MANIFEST_BYTES",
    "MAX_OFFSET",
    "ROLES",
    "TableError",
    "check_game_entry",
    "check_header",
    "check_shapes",
    "dag_depth",
    "known_role",
    "layer_role",
    "npy_header",
    "parse_manifest",
    "role_dag",
    "strength_served",
]

#: Bumped whenever the card or value contract or the file layout changes.
FORMAT_VERSION = 1

MANIFEST = "manifest.json"

#: Cards per hand for each DAG, by name.
DAGS: dict[str, int] = {"dag5": 5, "dag6": 6, "dag7": 7}

#: Bytes per entry of each dtype a table file may have.
DTYPES: dict[str, int] = {"|u1": 1, "<u2": 2, "<u4": 4}

#: Largest integer a manifest may hold: every JSON parser reads up to 2**53 - 1 exactly.
MAX_INT = 2**53 - 1

#: Deepest nesting of arrays and objects a manifest may have (the top-level object is depth 1).
MAX_DEPTH = 64

#: Largest manifest a reader accepts, in bytes.
MAX_MANIFEST_BYTES = 1 << 20

#: Data offsets are multiples of this, so data mapped at a page boundary is 64-byte aligned.
ALIGN = 64

#: A version 1.0 header length is a uint16, so data starts at byte 10 + 65535 at the latest.
MAX_OFFSET = 65536

_MAGIC = b"\x93NUMPY"


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

# A game role: "<game>/dagN/layerK" (N = 4..7 cards, K = 1..N) or "<game>/dag7/value5|6" (only a 7-card
# DAG has value arrays), the game a lowercase name with inner hyphens ("short-deck").
_GAME_ROLE = re.compile(r"([a-z][a-z0-9]*(?:-[a-z0-9]+)*/dag([4-7]))/(?:layer([1-7])|value[56])")


def dag_depth(dag: str) -> int:
    """Cards per hand of the DAG ``dag`` (``dag6``: 6; ``badugi/dag4``: 4), one layer each."""
    return int(dag.rpartition("/")[2][3:])


def strength_served(roles: Collection[str], street: str, where: str | os.PathLike[str]) -> bool:
    """Whether a set listing ``roles`` serves ``street``'s strength from its tables; :class:`TableError` if in part.

    True when it lists every role the street needs, False when it lists
    none of the street's roles; otherwise the error names the set
    (``where``) and the missing role, the one rule that
    :func:`twoplustwo.strength`, ``twoplustwo info`` and ``twoplustwo
    verify`` all follow.

    >>> strength_served({"strength/river/wins", "strength/river/ties"}, "river", "manifest.json")
    True
    >>> strength_served({"strength/river/wins"}, "river", "manifest.json")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twoplustwo.tables.format.TableError: manifest.json: lists strength/river/wins but not strength/river/ties: ...
    """
    gap = strength_gap(roles, street)
    if gap is not None:
        raise TableError(f"{os.fspath(where)}: {gap}")
    return all(r in roles for r in STRENGTH_STREETS[street])


def known_role(role: str) -> bool:
    """Whether this version knows ``role``: a DAG's (:func:`role_dag`), a strength or a bucket table's."""
    return optional_length(role) is not None or role_dag(role) is not None


def role_dag(role: str) -> str | None:
    """The DAG a role belongs to, its key in the manifest's ``nodes``; None for a role this version does not know.

    Hold'em's roles belong to ``dag5``, ``dag6`` and ``dag7``; a game role
    ``<game>/dagN/...`` to ``<game>/dagN``.
    """
    if role in ROLES:
        return role.partition("/")[0]
    found = _GAME_ROLE.fullmatch(role)
    n = int(found.group(2)) if found else 0
    return found.group(1) if found and (int(found.group(3)) <= n if found.group(3) else n == 7) else None


_FILE_KEYS = ("name", "role", "dtype", "shape", "offset", "nbytes", "sha256")
# Plain names only: no directory part, no dotfile (those belong to writers),
# and characters every file system and every shell takes as they are.
_NAME = re.compile(r"[A-Za-z0-9_-][A-Za-z0-9._-]{0,254}")
_SHA256 = re.compile(r"[0-9a-f]{64}")
# Strings are removed first, so that brackets inside them are not counted as
# nesting; then everything but brackets, so that the loop over what is left
# stays short in a manifest of many strings (it is most of a table load).
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_HEADER = re.compile(r"\{'descr': '([^']*)', 'fortran_order': (True|False), 'shape': \((0|[1-9][0-9]*),\), \}")
_show = reprlib.Repr()
_show.maxstring = 40
_show.maxother = 40


class TableError(ValueError):
    """Tables that are missing, damaged or of another format version."""


class _Duplicate(Exception):
    def __init__(self, key: str) -> None:
        super().__init__(key)
        self.key = key


class _NotJSON(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # JSON parsers disagree on which copy of a repeated key wins, so two
    # readers could see two different sets: refuse instead.
    obj: dict[str, Any] = {}
    for key, value in pairs:
        if key in obj:
            raise _Duplicate(key)
        obj[key] = value
    return obj


def _no_constant(name: str) -> Any:
    raise _NotJSON(f"{name} is not a JSON number")


def _is_int(v: object) -> bool:
    # bool is an int subclass, but true is not a count.
    return type(v) is int


def _check_depth(text: str, where: str | os.PathLike[str]) -> None:
    depth = 0
    for c in _NOT_BRACKET.sub("", _STRING.sub("", text)):
        if c == "[" or c == "{":
            depth += 1
            if depth > MAX_DEPTH:
                raise TableError(f"{where}: nested more than {MAX_DEPTH} levels deep (not a manifest)")
        else:
            depth -= 1


def _load_json(text: str, where: str | os.PathLike[str]) -> Any:
    if len(text) > MAX_MANIFEST_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_MANIFEST_BYTES:
        raise TableError(f"{where}: larger than {MAX_MANIFEST_BYTES} bytes (not a manifest)")
    _check_depth(text, where)
    try:
        return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)
    except _Duplicate as e:
        raise TableError(f"{where}: key {_show.repr(e.key)} appears twice in one object") from None
    except _NotJSON as e:
        raise TableError(f"{where}: not valid JSON ({e})") from None
    except (ValueError, RecursionError) as e:
        # ValueError covers JSONDecodeError and integers of thousands of digits.
        raise TableError(f"{where}: not valid JSON ({str(e)[:200]})") from None


def _check_entry(f: dict[str, Any], i: int, where: str | os.PathLike[str]) -> None:
    """Check one files[] entry of a known role (its ``role`` is already checked)."""
    role = f["role"]
    missing = [k for k in _FILE_KEYS if k not in f]
    if missing:
        raise TableError(f"{where}: files[{i}] must have keys for every field; {role} has no {missing[0]!r}")
    name = f["name"]
    if not (isinstance(name, str) and _NAME.fullmatch(name)):
        raise TableError(
            f"{where}: {role}: file name {_show.repr(name)} must be a plain file name "
            f"(field name: 1 to 255 of A-Z a-z 0-9 . _ -, not starting with '.')"
        )
    dtype = f["dtype"]
    if not (isinstance(dtype, str) and dtype in DTYPES):
        raise TableError(f"{where}: {role}: unsupported dtype {_show.repr(dtype)} (field dtype: one of {list(DTYPES)})")
    shape = f["shape"]
    if not (isinstance(shape, list) and len(shape) == 1 and _is_int(shape[0]) and 0 <= shape[0] <= MAX_INT):
        raise TableError(
            f"{where}: {role}: shape must be [length], one integer 0..2**53-1, got {_show.repr(shape)}"
        )
    offset = f["offset"]
    if not (_is_int(offset) and ALIGN <= offset <= MAX_OFFSET and offset % ALIGN == 0):
        raise TableError(
            f"{where}: {role}: offset must be an integer multiple of {ALIGN} from {ALIGN} to {MAX_OFFSET} "
            f"(where the .npy header ends), got {_show.repr(offset)}"
        )
    nbytes = f["nbytes"]
    want = shape[0] * DTYPES[dtype]
    if not (_is_int(nbytes) and nbytes == want):
        raise TableError(
            f"{where}: {role}: nbytes is {_show.repr(nbytes)}, but shape {shape} of {dtype} is {want} bytes"
        )
    sha = f["sha256"]
    if not (isinstance(sha, str) and _SHA256.fullmatch(sha)):
        raise TableError(f"{where}: {role}: sha256 must be 64 lowercase hex digits, got {_show.repr(sha)}")


def parse_manifest(text: str, where: str | os.PathLike[str] = MANIFEST, *, strict: bool = False) -> dict[str, Any]:
    """Parse and check a manifest's structure; raise :class:`TableError` on any defect.

    Hold'em's 20 roles must each appear once. Game roles may appear, each
    at most once, and are checked like hold'em's. Entries of roles this
    version does not know are dropped from the returned ``files`` (readers
    ignore them, so roles can be added without a version bump), unless
    ``strict``: a writer refuses them, since it could not tell their files
    from a user's when it cleans up later. Every entry left is fully
    checked. The ``games`` key is not read (see :func:`check_shapes`).

    >>> parse_manifest('{"format_version": 99}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    twoplustwo.tables.format.TableError: manifest.json: format version 99, this twoplustwo reads version 1 (rebuild ...)
    """
    m = _load_json(text, where)
    if not isinstance(m, dict):
        raise TableError(f"{where}: expected a JSON object, got {type(m).__name__}")
    version = m.get("format_version")
    if not (_is_int(version) and version == FORMAT_VERSION):
        raise TableError(
            f"{where}: format version {_show.repr(version)}, this twoplustwo reads version "
            f"{FORMAT_VERSION} (rebuild the tables: twoplustwo build)"
        )
    files = m.get("files")
    if not isinstance(files, list):
        raise TableError(f"{where}: 'files' must be a list, got {_show.repr(files)}")
    known: list[dict[str, Any]] = []
    seen: set[str] = set()
    for i, f in enumerate(files):
        if not isinstance(f, dict):
            raise TableError(f"{where}: files[{i}] must be an object, got {_show.repr(f)}")
        role = f.get("role")
        if not isinstance(role, str):
            raise TableError(f"{where}: files[{i}]: role must be a string, got {_show.repr(role)}")
        if not known_role(role):
            if strict:
                raise TableError(
                    f"{where}: files[{i}]: role {_show.repr(role)} is not one this twoplustwo knows, so it "
                    f"cannot publish the set (upgrade twoplustwo)"
                )
            continue  # a role of a later version: not ours to read or check
        if role in seen:
            raise TableError(f"{where}: role {role!r} appears twice")
        seen.add(role)
        _check_entry(f, i, where)
        known.append(f)
    missing = ROLES - seen
    if missing:
        raise TableError(f"{where}: missing roles {sorted(missing)}")
    m["files"] = known
    return m


def _node_counts(nodes: dict[str, Any], dag: str, n: int, where: str | os.PathLike[str]) -> list[int]:
    counts = nodes.get(dag)
    if not (
        isinstance(counts, list)
        and len(counts) == n
        and all(_is_int(c) and 1 <= c <= MAX_INT for c in counts)
        and counts[0] == 1
    ):
        raise TableError(
            f"{where}: nodes[{dag!r}] must list {n} node counts, integers 1..2**53-1 starting "
            f"with 1 (the root), got {_show.repr(counts)}"
        )
    return counts


def check_shapes(m: dict[str, Any], where: str | os.PathLike[str]) -> None:
    """Check ``m['nodes']`` and that each role's length matches it; ``m`` comes from :func:`parse_manifest`.

    Node counts are checked for hold'em's DAGs and for the DAG of every
    game role listed; other keys of ``nodes`` are ignored. So is the
    ``games`` key: a game's description is checked when that game is first
    used (:func:`check_game_entry`), so a damaged one never
    stops hold'em or another game from loading (spec/README.md, section 13).
    """
    nodes = m.get("nodes")
    if not isinstance(nodes, dict):
        raise TableError(f"{where}: 'nodes' must map each DAG to its node counts, got {_show.repr(nodes)}")
    by_dag: dict[str, list[dict[str, Any]]] = {dag: [] for dag in DAGS}
    for f in m["files"]:
        dag = role_dag(f["role"])
        if dag is not None:
            by_dag.setdefault(dag, []).append(f)
    for f in m["files"]:
        want = optional_length(f["role"])
        if want is not None and f["shape"][0] != want:
            raise TableError(f"{where}: {f['role']} has {f['shape'][0]} entries (shape), expected {want}")
    for dag, files in by_dag.items():
        counts = _node_counts(nodes, dag, dag_depth(dag), where)
        for f in files:
            role, length = f["role"], f["shape"][0]
            what = role.rpartition("/")[2]
            if what.startswith("layer"):
                k = int(what[5:])
                if length != counts[k - 1] * 52:
                    raise TableError(
                        f"{where}: {role} has {length} entries, expected {counts[k - 1] * 52} "
                        f"(shape; nodes[{dag!r}][{k - 1}] = {counts[k - 1]} nodes x 52 cards)"
                    )
            else:
                depth = int(what[5:])
                if length != counts[depth]:
                    raise TableError(
                        f"{where}: {role} has {length} entries (shape), expected one per depth-{depth} "
                        f"node: nodes[{dag!r}][{depth}] = {counts[depth]}"
                    )


_COUNT_WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve")


def check_game_entry(m: dict[str, Any], rules: Rules, where: str | os.PathLike[str]) -> None:
    """Check the manifest ``m``'s ``games`` entry for the game of ``rules``, as spec/README.md section 13 has it.

    The entry gives the game's deck, hand sizes, DAGs, value scale and
    categories; each must be well formed and agree with the rules the
    runtime plays (:mod:`twoplustwo.vocab.rules`), else a
    :class:`TableError` naming the key. ``where`` is the manifest's path.
    Hold'em's values are fixed by the spec (section 7): its reader never
    depends on this entry.
    """
    name = rules.name
    at = f"{where}: games[{name!r}]"
    games = m.get("games")
    entry = games.get(name) if isinstance(games, dict) else None
    if not isinstance(entry, dict):
        raise TableError(
            f"{at} is missing or not an object, though the set holds the {name} DAG: rebuild the tables "
            f"with `make` or `python -m twoplustwo_builder --out {os.path.dirname(where)}`"
        )

    def bad(key: str, want: str) -> TableError:
        return TableError(f"{at}.{key} must be {want}, got {_show.repr(entry.get(key))}")

    deck = entry.get("deck")
    if not isinstance(deck, list) or not rules.deck_fits(deck):
        raise bad("deck", rules.deck_rule)
    if not all(type(c) is int for c in deck):
        raise bad("deck", "a list of integers")
    sizes = entry.get("sizes")
    if sizes != list(rules.sizes) or not all(type(s) is int for s in sizes):
        raise bad("sizes", str(list(rules.sizes)))
    values = entry.get("values")
    if type(values) is not int or not 1 <= values <= 65535:
        raise bad("values", "an integer from 1 to 65535")
    dags = sorted({rules.layout(n)[0] for n in rules.sizes})
    if not isinstance(entry.get("dags"), list) or not set(dags) <= set(entry["dags"]):
        raise bad("dags", f"a list holding {', '.join(map(repr, dags))}")
    cats = entry.get("categories")
    names = [c[0] for c in rules.categories]
    count = _COUNT_WORDS[len(names)] if len(names) < len(_COUNT_WORDS) else str(len(names))
    want = f"the {count} categories {', '.join(names)}, each once, as [name, first, last] from 1 to {values}"
    if not isinstance(cats, list) or len(cats) != len(names):
        raise bad("categories", want)
    categories: list[tuple[str, int, int]] = []
    following = 1
    for c in cats:
        if not (isinstance(c, list) and len(c) == 3 and isinstance(c[0], str) and type(c[1]) is type(c[2]) is int):
            raise bad("categories", want)
        cname, first, last = c
        if cname not in names or first != following or last < first:
            raise bad("categories", want)
        categories.append((cname, first, last))
        following = last + 1
    if (names and following != values + 1) or len({c[0] for c in categories}) != len(categories):
        raise bad("categories", want)
    differ = rules.categories_differ(deck, categories)
    if differ is not None:
        raise TableError(f"{at}.categories {differ}")
    if deck != list(rules.deck) or values != rules.values or tuple(categories) != rules.categories:
        raise TableError(
            f"{at} describes another game than the {name} rules: theirs has the cards "
            f"{rules.deck.start}..{rules.deck.stop - 1}, the values 1..{rules.values} and the categories "
            f"{_show.repr(list(rules.categories))}"
        )


def npy_header(dtype: str, length: int, offset: int) -> bytes:
    """The exact first ``offset`` bytes of the file of a 1-D array: magic, version, HLEN, header.

    The header is the one dict literal the format allows, padded with
    spaces to end, with a newline, at byte ``offset``.
    """
    text = f"{{'descr': '{dtype}', 'fortran_order': False, 'shape': ({length},), }}".encode("ascii")
    hlen = offset - 10
    if not 0 <= len(text) < hlen <= 0xFFFF:
        raise ValueError(f"a header of {len(text) + 1} bytes does not end at offset {offset}")
    return _MAGIC + b"\x01\x00" + hlen.to_bytes(2, "little") + text + b" " * (hlen - len(text) - 1) + b"\n"


def check_header(p: str | os.PathLike[str], f: dict[str, Any], data: Any) -> None:
    """Check that file ``p``, whose bytes are ``data``, has the .npy header and size its manifest entry ``f`` promises.

    ``f`` is an entry :func:`parse_manifest` accepted; ``data`` is a
    buffer of the whole file (the loader passes its mapping). The header
    must be exactly :func:`npy_header` of the entry; the messages say which
    part differs.
    """
    pre = bytes(data[:10])
    if len(pre) < 10 or pre[:6] != _MAGIC:
        raise TableError(f"{p}: not a readable .npy file (no \\x93NUMPY magic at its start)")
    if pre[6:8] != b"\x01\x00":
        raise TableError(
            f"{p}: not a readable .npy file: npy format version {pre[6]}.{pre[7]}, "
            f"the table format allows version 1.0 only"
        )
    hlen = int.from_bytes(pre[8:10], "little")
    raw = bytes(data[10 : 10 + hlen])
    size = len(data)
    if len(raw) < hlen:
        raise TableError(f"{p}: not a readable .npy file (the header is cut short: {size} bytes)")
    text = raw.decode("latin-1")
    body = text[:-1].rstrip(" ")
    found = _HEADER.fullmatch(body) if text.endswith("\n") and text.isascii() else None
    if found is None:
        raise TableError(
            f"{p}: .npy header {_show.repr(text)} is not the one dict literal the format allows, "
            f"padded with spaces and a newline (spec/README.md, section 3)"
        )
    descr, fortran, length = found.group(1), found.group(2), int(found.group(3))
    if fortran == "True":
        raise TableError(f"{p}: .npy header has fortran_order True, the format requires False")
    offset = 10 + hlen
    if (descr, [length], offset) != (f["dtype"], f["shape"], f["offset"]):
        raise TableError(
            f"{p}: header says dtype {descr} shape [{length}] at offset {offset}, "
            f"manifest says dtype {f['dtype']} shape {f['shape']} at offset {f['offset']}"
        )
    if size != f["offset"] + f["nbytes"]:
        raise TableError(f"{p}: {size} bytes, expected {f['offset'] + f['nbytes']} (truncated or padded)")


def bundle_name(format_version: int = FORMAT_VERSION) -> str:
    """File name of the bundle of a table format version.

    >>> bundle_name()
    'twoplustwo-tables-1.tar.zst'
    """
    return f"twoplustwo-tables-{format_version}.tar.zst"
