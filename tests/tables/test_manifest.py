"""Damaged manifests: whatever shape of JSON arrives, parse_manifest and check_shapes raise only TableError.

Every message names the manifest (the path given) and the field at fault.
The manifest is built here, with the real node counts, so no table files
are needed. Hypothesis mutates it into arbitrary JSON, derandomized so
every run tries the same examples.
"""

from __future__ import annotations

import copy
import io
import json
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twoplustwo.tables.format import (
    DAGS,
    DTYPES,
    MAX_DEPTH,
    MAX_MANIFEST_BYTES,
    ROLES,
    TableError,
    check_shapes,
    npy_header,
    parse_manifest,
    role_dag,
)

WHERE = "some/dir/manifest.json"
NODES = {
    "dag7": [1, 52, 1326, 22100, 84448, 152604, 279861],
    "dag6": [1, 52, 1326, 5655, 19552, 48500],
    "dag5": [1, 52, 403, 1599, 4680],
}


#: A game's DAG as the builder makes it (spec/README.md, section 13), and its roles.
GAME_DAG = "short-deck/dag7"
GAME_NODES = [1, 36, 630, 7140, 18279, 21435, 25433]
GAME_ROLES = [f"{GAME_DAG}/layer{k}" for k in range(1, 8)] + [f"{GAME_DAG}/value5", f"{GAME_DAG}/value6"]


def length_of(role: str, nodes: dict[str, list[int]]) -> int:
    dag, _, what = role.rpartition("/")
    if what.startswith("value"):
        return nodes[dag][int(what[5:])]
    return nodes[dag][int(what[5:]) - 1] * 52


def file_entry(role: str, i: int, nodes: dict[str, list[int]]) -> dict[str, Any]:
    dtype = list(DTYPES)[i % 3]
    n = length_of(role, nodes)
    return {
        "name": f"{role.replace('/', '.')}.{i:016x}.npy",
        "role": role,
        "dtype": dtype,
        "shape": [n],
        "offset": 128,
        "nbytes": n * DTYPES[dtype],
        "sha256": f"{i:064x}",
    }


def valid_manifest() -> dict[str, Any]:
    files = [file_entry(role, i, NODES) for i, role in enumerate(sorted(ROLES))]
    return {"format_version": 1, "card_encoding": "rank*4 + suit", "nodes": copy.deepcopy(NODES), "files": files}


def with_game(m: dict[str, Any]) -> dict[str, Any]:
    """``m`` with the short-deck DAG's nodes and its 9 roles added, as the builder writes them."""
    m["nodes"][GAME_DAG] = list(GAME_NODES)
    m["files"] += [file_entry(role, 100 + i, {GAME_DAG: GAME_NODES}) for i, role in enumerate(GAME_ROLES)]
    m["games"] = {"short-deck": {"deck": list(range(16, 52)), "values": 1404, "dags": [GAME_DAG]}}
    return m


def load(m: object) -> dict[str, Any]:
    """parse_manifest and check_shapes of ``m`` written as JSON (NaN and Infinity as Python writes them)."""
    parsed = parse_manifest(json.dumps(m), WHERE)
    check_shapes(parsed, WHERE)
    return parsed


def refused(m: object) -> str:
    with pytest.raises(TableError) as e:
        load(m)
    message = str(e.value)
    assert message.startswith(f"{WHERE}: "), message
    return message


def entry(m: dict[str, Any], role: str) -> dict[str, Any]:
    found: dict[str, Any] = next(f for f in m["files"] if f.get("role") == role)
    return found


def test_the_valid_manifest_loads() -> None:
    m = load(valid_manifest())
    assert sorted(f["role"] for f in m["files"]) == sorted(ROLES)


# ------------------------------------------------------- every field, every type

JUNK: list[object] = [None, True, False, 0, -1, 1.5, 2**53, 2**64, "x", "", [], {}, [1], {"a": 1}]

FIELD_JUNK: dict[str, list[object]] = {
    "name": [v for v in JUNK if v != "x"]
    + ["a/b", "/etc/passwd", "..", ".", ".hidden.npy", "a" * 256, "a\x00b", "caf\xe9.npy", "a b.npy"],
    "dtype": JUNK + ["<f8", ">u2", "<i2", "uint16", "<u8", "u1", "<u1", "|b1"],
    "shape": JUNK + [[1, 2], [52.0], [True], [-1], [2**53], [2**62 + 52], [[52]], ["52"]],
    "offset": [*JUNK, 10, 100, 127, 129, 64 * 1025 + 64, 128.0, "128"],
    "nbytes": [*JUNK, 104.0, "104", 2**70],
    "sha256": [*JUNK, "abc", "A" * 64, "g" * 64, "0" * 63, "0" * 65, ["0" * 64]],
}


@pytest.mark.parametrize("role", ["dag5/layer2", f"{GAME_DAG}/layer4"])
@pytest.mark.parametrize(
    ("key", "value"), [(k, v) for k, vs in FIELD_JUNK.items() for v in vs], ids=lambda v: repr(v)[:20]
)
def test_bad_file_field_names_the_field(key: str, value: object, role: str) -> None:
    m = with_game(valid_manifest())
    entry(m, role)[key] = value
    message = refused(m)
    assert key in message and role in message, message


@pytest.mark.parametrize("role", ["dag6/layer3", f"{GAME_DAG}/value6"])
@pytest.mark.parametrize("key", ["name", "dtype", "shape", "offset", "nbytes", "sha256"])
def test_missing_file_field_names_the_field(key: str, role: str) -> None:
    m = with_game(valid_manifest())
    del entry(m, role)[key]
    assert repr(key) in refused(m)


@pytest.mark.parametrize("value", [v for v in JUNK if not isinstance(v, str)] + [[52], {"dag5": 1}], ids=repr)
def test_bad_role_is_named(value: object) -> None:
    m = valid_manifest()
    m["files"].append({"role": value, "name": "x.npy"})
    message = refused(m)
    assert "role" in message and "files[20]" in message


@pytest.mark.parametrize("value", [*JUNK, 2, "1", 1.0, [1]], ids=repr)
def test_bad_format_version(value: object) -> None:
    m = valid_manifest()
    m["format_version"] = value
    assert "format version" in refused(m)


@pytest.mark.parametrize("value", [v for v in JUNK if not isinstance(v, list)], ids=repr)
def test_bad_files(value: object) -> None:
    m = valid_manifest()
    m["files"] = value
    assert "'files'" in refused(m)


@pytest.mark.parametrize("value", [v for v in JUNK if not isinstance(v, dict)], ids=repr)
def test_bad_file_entry(value: object) -> None:
    m = valid_manifest()
    m["files"][3] = value
    assert "files[3]" in refused(m)


@pytest.mark.parametrize(
    "counts",
    [None, 7, "x", {}, [], [1, 52, 403, 1599], [1, 52, 403, 1599, 4680, 1], [2, 52, 403, 1599, 4680],
     [1, 0, 403, 1599, 4680], [1, True, 403, 1599, 4680], [1, 52.0, 403, 1599, 4680],
     [1, 52, 403, 1599, 2**53], [1, 52, 403, 1599, -4680], [True, 52, 403, 1599, 4680]],
    ids=repr,
)  # fmt: skip
def test_bad_node_counts(counts: object) -> None:
    m = valid_manifest()
    m["nodes"]["dag5"] = counts
    assert "nodes['dag5']" in refused(m)


@pytest.mark.parametrize("value", [None, [], "x", 5, True], ids=repr)
def test_bad_nodes(value: object) -> None:
    m = valid_manifest()
    m["nodes"] = value
    assert "'nodes'" in refused(m)


@pytest.mark.parametrize("role", sorted(ROLES))
def test_shape_disagreeing_with_nodes_names_the_role(role: str) -> None:
    m = valid_manifest()
    e = entry(m, role)
    e["shape"] = [e["shape"][0] + 52]
    e["nbytes"] = e["shape"][0] * DTYPES[e["dtype"]]
    message = refused(m)
    assert role in message and "nodes" in message and "shape" in message


def test_missing_and_repeated_roles() -> None:
    m = valid_manifest()
    m["files"].remove(entry(m, "dag7/value5"))
    assert "missing roles ['dag7/value5']" in refused(m)
    m = valid_manifest()
    m["files"].append(dict(entry(m, "dag7/value5")))
    assert "'dag7/value5' appears twice" in refused(m)


def test_unknown_roles_are_dropped_whatever_they_hold() -> None:
    m = valid_manifest()
    m["files"] += [
        {"role": "dag8/layer1", "name": "../../etc/passwd", "dtype": "<f8", "shape": [2, 3], "offset": -1},
        {"role": "dag8/layer1"},
        {"role": "future", "nbytes": "many"},
    ]
    parsed = load(m)
    assert sorted(f["role"] for f in parsed["files"]) == sorted(ROLES)


def test_a_known_role_renamed_to_an_unknown_one_leaves_it_missing() -> None:
    m = valid_manifest()
    entry(m, "dag5/layer3")["role"] = "dag5/layer9"
    assert "missing roles ['dag5/layer3']" in refused(m)


# ---------------------------------------------------------------- game roles


def test_game_roles_are_kept_and_checked_like_holdems() -> None:
    m = load(with_game(valid_manifest()))
    assert sorted(f["role"] for f in m["files"]) == sorted(ROLES | set(GAME_ROLES))
    assert [role_dag(r) for r in GAME_ROLES] == [GAME_DAG] * 9
    assert {role_dag(r) for r in ROLES} == set(DAGS)


def test_game_roles_are_optional() -> None:
    m = with_game(valid_manifest())
    m["files"] = [f for f in m["files"] if f["role"] not in GAME_ROLES[2:]]
    assert sorted(f["role"] for f in load(m)["files"]) == sorted(ROLES | set(GAME_ROLES[:2]))


def test_a_repeated_game_role_is_refused() -> None:
    m = with_game(valid_manifest())
    m["files"].append(dict(entry(m, f"{GAME_DAG}/layer3")))
    assert f"'{GAME_DAG}/layer3' appears twice" in refused(m)


@pytest.mark.parametrize(
    "counts",
    [None, "x", [], GAME_NODES[:6], [*GAME_NODES, 1], [2, *GAME_NODES[1:]], [1, 36, 630, 7140, 18279, 21435, 0],
     [1, 36, 630.0, 7140, 18279, 21435, 25433], [True, 36, 630, 7140, 18279, 21435, 25433]],
    ids=repr,
)  # fmt: skip
def test_bad_node_counts_of_a_game_role(counts: object) -> None:
    m = with_game(valid_manifest())
    if counts is None:
        del m["nodes"][GAME_DAG]
    else:
        m["nodes"][GAME_DAG] = counts
    assert f"nodes['{GAME_DAG}'] must list 7 node counts" in refused(m)


@pytest.mark.parametrize("role", GAME_ROLES)
def test_game_shape_disagreeing_with_nodes_names_the_role(role: str) -> None:
    m = with_game(valid_manifest())
    m["files"] = [f for f in m["files"] if f["role"] in ROLES or f["role"] == role]
    e = entry(m, role)
    e["shape"] = [e["shape"][0] + 52]
    e["nbytes"] = e["shape"][0] * DTYPES[e["dtype"]]
    message = refused(m)
    assert role in message and f"nodes['{GAME_DAG}']" in message and "shape" in message


NOT_GAME_ROLES = [
    "Short-Deck/dag7/layer1", "short-deck/dag8/layer1", "short-deck/dag3/layer1", "short-deck/dag7/layer8",
    "short-deck/dag5/layer6", "short-deck/dag4/layer5", "short-deck/dag5/value5", "badugi/dag4/value6",
    "short-deck/dag7/layer0", "short-deck/dag7/layer01", "short-deck/dag7/value7", "short-deck/dag7/value",
    "short-deck/dag7", "-deck/dag7/layer1", "short--deck/dag7/layer1", "short-deck-/dag7/layer1",
    "short deck/dag7/layer1", "7deck/dag7/layer1", "a/b/dag7/layer1", "/dag7/layer1", "short-deck/dag7/layer1/",
    "short-deck/dag7/layer1\n", "short_deck/dag7/layer1", "dag7/layer8", "dag7/value7",
]  # fmt: skip


@pytest.mark.parametrize("role", NOT_GAME_ROLES, ids=repr)
def test_roles_that_only_look_like_game_roles_are_dropped_whatever_they_hold(role: str) -> None:
    m = valid_manifest()
    m["files"].append({"role": role, "name": "../x", "shape": "many"})
    assert role_dag(role) is None
    assert sorted(f["role"] for f in load(m)["files"]) == sorted(ROLES)


def test_nodes_and_games_of_games_the_set_lacks_are_not_read() -> None:
    m = valid_manifest()
    m["nodes"][GAME_DAG] = "anything"
    m["games"] = ["not", {"an": "object"}]
    load(m)
    m = with_game(valid_manifest())
    m["games"] = 5  # informative to this reader: it evaluates hold'em alone
    load(m)


def test_strict_parsing_refuses_roles_it_does_not_know() -> None:
    m = with_game(valid_manifest())
    assert len(parse_manifest(json.dumps(m), WHERE, strict=True)["files"]) == 29
    m["files"].insert(3, {"role": "dag8/layer1"})
    with pytest.raises(TableError, match=r"files\[3\]: role 'dag8/layer1' is not one this twoplustwo knows"):
        parse_manifest(json.dumps(m), WHERE, strict=True)
    assert len(parse_manifest(json.dumps(m), WHERE)["files"]) == 29


def test_unknown_keys_are_ignored() -> None:
    def extras(m: dict[str, Any]) -> dict[str, Any]:
        m["x-later"] = {"a": [1, 2.5, None]}
        m["nodes"]["dag8"] = "anything"
        entry(m, "dag7/layer1")["compression"] = {"kind": "none"}
        return m

    got = load(extras(valid_manifest()))
    # Nothing known changes: the result is the plain manifest's, the extras
    # carried along unread.
    assert got == extras(load(valid_manifest()))
    # Where the reader does look, the same value is refused: the extras sat
    # in checked places and were passed by.
    m = valid_manifest()
    m["nodes"]["dag7"] = "anything"
    assert "dag7" in refused(m)


# ---------------------------------------------------------- text that is not JSON


def text_refused(text: str) -> str:
    with pytest.raises(TableError) as e:
        parse_manifest(text, WHERE)
    assert str(e.value).startswith(f"{WHERE}: "), e.value
    return str(e.value)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("", "JSON"),
        ("{", "JSON"),
        ("\ufeff{}", "JSON"),
        ('{"format_version": 1,}', "JSON"),
        ('{"format_version": 1} x', "JSON"),
        ('{"format_version": NaN}', "NaN"),
        ('{"format_version": Infinity}', "Infinity"),
        ('{"format_version": -Infinity}', "Infinity"),
        ('{"format_version": 1, "format_version": 1}', "'format_version' appears twice"),
        ('{"nodes": {"dag5": [], "dag5": []}}', "'dag5' appears twice"),
        ('{"format_version": ' + "9" * 5000 + "}", "JSON"),
        ("[1, 2]", "JSON object"),
        ('"manifest"', "JSON object"),
        ("null", "JSON object"),
        ("[" * 100_000 + "]" * 100_000, "nested"),
        ('{"a": ' + "[" * MAX_DEPTH + "]" * MAX_DEPTH + "}", "nested"),
        (" " * (MAX_MANIFEST_BYTES + 1), "larger than"),
    ],
    ids=lambda v: repr(v)[:30],
)
def test_not_a_manifest(text: str, says: str) -> None:
    assert says in text_refused(text)


def test_nesting_up_to_the_limit_is_fine() -> None:
    m = valid_manifest()
    deep: Any = []
    for _ in range(MAX_DEPTH - 2):
        deep = [deep]
    m["x-deep"] = deep  # the manifest is level 1, so this reaches level 64 exactly
    # Brackets inside strings, after escaped quotes and backslashes too, are text, not nesting.
    m["x-text"] = ["[" * 100, '\\"{' * 100, "\\" * 3 + "[" * 100, 'a"b[' * 70]
    load(m)
    m["x-deep"] = [deep]
    assert "nested more than 64" in refused(m)


# ------------------------------------------------------------------- fuzzing

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=8)
    | st.sampled_from(["|u1", "<u2", "<u4", "dag5/layer1", "dag8/layer1", "0" * 64]),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=12,
)

FILE_KEYS = ["name", "role", "dtype", "shape", "offset", "nbytes", "sha256", "extra"]
TOP_KEYS = ["format_version", "files", "nodes", "card_encoding", "extra"]


@st.composite
def mutated(draw: st.DrawFn) -> object:
    """The valid manifest, with or without a game's roles, with one to three places replaced, deleted or wrapped."""
    m: Any = with_game(valid_manifest()) if draw(st.booleans()) else valid_manifest()
    for _ in range(draw(st.integers(1, 3))):
        where = draw(st.sampled_from(["top", "file", "file_key", "nodes", "node_count", "shape", "whole"]))
        value = draw(json_values)
        delete = draw(st.booleans()) and where != "whole"
        if not isinstance(m, dict):
            break
        if where == "whole":
            m = value
        elif where == "top":
            key = draw(st.sampled_from(TOP_KEYS))
            if delete:
                m.pop(key, None)
            else:
                m[key] = value
        elif where in ("file", "file_key", "shape") and isinstance(m.get("files"), list) and m["files"]:
            i = draw(st.integers(0, len(m["files"]) - 1))
            f = m["files"][i]
            if where == "file":
                m["files"][i] = value if not delete else {}
            elif isinstance(f, dict) and where == "file_key":
                key = draw(st.sampled_from(FILE_KEYS))
                if delete:
                    f.pop(key, None)
                else:
                    f[key] = value
            elif isinstance(f, dict):
                f["shape"] = [value] if not delete else value
        elif where in ("nodes", "node_count") and isinstance(m.get("nodes"), dict):
            dag = draw(st.sampled_from([*sorted(DAGS), GAME_DAG]))
            counts = m["nodes"].get(dag)
            if where == "nodes" or not isinstance(counts, list) or not counts:
                m["nodes"][dag] = value
            else:
                counts[draw(st.integers(0, len(counts) - 1))] = value
    return m


FUZZ = settings(
    derandomize=True,
    max_examples=2000,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(mutated())
def test_fuzzed_structure_only_ever_raises_table_error(m: object) -> None:
    try:
        load(m)
    except TableError as e:
        assert str(e).startswith(f"{WHERE}: "), e


@settings(FUZZ, max_examples=1000)
@given(st.data())
def test_fuzzed_text_only_ever_raises_table_error(data: st.DataObject) -> None:
    text = json.dumps(valid_manifest())
    cut = data.draw(st.integers(0, len(text)))
    junk = data.draw(st.text(alphabet='{}[]",:0123456789.eE+-tfnaNIy \\u\x00\ufeff', max_size=12))
    drop = data.draw(st.integers(0, 3))
    try:
        parsed = parse_manifest(text[:cut] + junk + text[cut + drop :], WHERE)
        check_shapes(parsed, WHERE)
    except TableError as e:
        assert str(e).startswith(f"{WHERE}: "), e


# ------------------------------------------------------------------- headers


@pytest.mark.parametrize("dtype", sorted(DTYPES))
@pytest.mark.parametrize("length", [0, 52, 2704, 14552772])
def test_npy_header_is_what_numpy_writes(dtype: str, length: int) -> None:
    # The builder writes with numpy; readers compare with npy_header: they must agree byte for byte.
    buf = io.BytesIO()
    np.lib.format.write_array_header_1_0(buf, {"descr": dtype, "fortran_order": False, "shape": (length,)})
    written = buf.getvalue()
    assert npy_header(dtype, length, len(written)) == written


def test_npy_header_refuses_an_offset_it_cannot_reach() -> None:
    with pytest.raises(ValueError, match="does not end at offset 64"):
        npy_header("<u4", 14552772, 64)

