"""Reading bucket tables (twoplustwo.buckets, bucket_of) from a set, and their roles in the format."""

from __future__ import annotations

import numpy as np
import pytest

import twoplustwo as tp
from tests.racing import every_moment
from twoplustwo.tables.format import TableError, check_shapes, known_role
from twoplustwo.tables.load import Tables
from twoplustwo.tables.optional import BUCKET_STREETS, bucket_role, optional_length, parse_bucket_role


def with_arrays(arrays: dict[str, np.ndarray]) -> Tables:
    plain = tp.load_tables()
    return Tables(plain.path, plain.manifest, {**plain.buffers, **arrays})


def test_roles_name_street_method_and_k() -> None:
    assert bucket_role("turn", "emd", 200) == "buckets/turn/emd/200"
    assert parse_bucket_role("buckets/turn/emd/200") == ("turn", "emd", 200)
    assert optional_length("buckets/river/percentile/65536") == 123_156_254
    bad_roles = ["buckets/turn/emd/0", "buckets/turn/emd/065", "buckets/turn/emd/65537", "buckets/preflop/emd/9"]
    bad_roles += ["buckets/river/emd/9", "buckets/flop/kmeans/9", "buckets/flop/emd", "buckets/flop/emd/9/x"]
    for bad in bad_roles:
        assert parse_bucket_role(bad) is None and not known_role(bad), bad
    assert known_role("buckets/flop/percentile/1")


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (("preflop", "emd", 9), ValueError, "street must be one of"),
        (("river", "emd", 9), ValueError, "method must be one of 'ochs', 'percentile' on the river"),
        (("flop", "emd", 0), ValueError, "k must be from 1 to 65536"),
        (("flop", "emd", 65537), ValueError, "k must be from 1 to 65536"),
        (("flop", "emd", "9"), TypeError, "k must be an int"),
    ],
)
def test_bad_roles_raise(args: tuple, error: type, match: str) -> None:
    with pytest.raises(error, match=match):
        bucket_role(*args)
    with pytest.raises(error, match=match):
        tp.buckets(*args)


def test_a_table_of_the_wrong_length_is_refused() -> None:
    m = tp.load_tables().manifest
    entry = {"name": "x.npy", "role": "buckets/flop/emd/8", "dtype": "<u2", "shape": [5], "offset": 128,
             "nbytes": 10, "sha256": "0" * 64}  # fmt: skip
    with pytest.raises(TableError, match="buckets/flop/emd/8 has 5 entries"):
        check_shapes({**m, "files": [*m["files"], entry]}, "manifest.json")


def test_lookups_read_the_table() -> None:
    size = BUCKET_STREETS["flop"][1]
    table = (np.arange(size) % 7).astype(np.uint16)
    t = with_arrays({"buckets/flop/emd/7": table})
    assert tp.buckets("flop", "emd", 7, tables=t) is table
    flop = tp.HandIndexer((2, 3))
    for hole, board in [("As Ah", "Kd 7c 2h"), ("7c 2d", "Ah Kh Qh"), ("Td 9d", "8d 7s 2c")]:
        want = int(table[flop.index(f"{hole} {board}")])
        assert tp.bucket_of(hole, board, "emd", 7, tables=t) == want
        swap = str.maketrans("dh", "hd")  # diamonds and hearts renamed: the same hand up to suits
        assert tp.bucket_of(hole.translate(swap), board.translate(swap), "emd", 7, tables=t) == want
    small = with_arrays({"buckets/flop/emd/7": table.astype(np.uint8)})  # the writer's smallest dtype
    read = tp.buckets("flop", "emd", 7, tables=small)
    assert read is small.arrays["buckets/flop/emd/7"] and read.dtype == np.uint8 and (read == table).all()


def test_missing_and_damaged_tables_raise() -> None:
    with pytest.raises(ValueError, match="has no buckets/turn/emd/5 table: build it with twoplustwo abstraction"):
        tp.buckets("turn", "emd", 5, tables=tp.load_tables())
    table = np.zeros(BUCKET_STREETS["flop"][1], dtype=np.uint16)
    table[12345] = 7
    t = with_arrays({"buckets/flop/emd/7": table})
    with pytest.raises(ValueError, match="holds a bucket of 7 or more"):
        tp.buckets("flop", "emd", 7, tables=t)
    with pytest.raises(ValueError, match="holds a bucket of 7 or more"):
        tp.bucket_of("As Ah", "Kd 7c 2h", "emd", 7, tables=t)


@pytest.mark.parametrize(
    ("hole", "board", "match"),
    [
        ("As Ah", "Kd 7c", "board must be 3, 4 or 5 cards, got 2"),
        ("As", "Kd 7c 2h", "hole must be 2 cards, got 1"),
        ("As Ah", "As 7c 2h", "As is in both the hole and the board"),
        ("As Ah", "Kd 7c 2h 3h 4h 5h", "board must be 3, 4 or 5 cards, got 6"),
    ],
)
def test_bad_hands_raise(hole: str, board: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        tp.bucket_of(hole, board, "emd", 7)


def test_the_table_is_the_mapped_one_in_its_stored_dtype_and_a_lookup_copies_nothing() -> None:
    import tracemalloc

    size = BUCKET_STREETS["flop"][1]
    table = (np.arange(size) % 7).astype(np.uint8)  # 1.3 MB; as uint16 it was a 2.6 MB copy per process
    tp.bucket_of("As Ah", "Kd 7c 2h", "emd", 7, tables=with_arrays({"buckets/flop/emd/7": table}))  # indexer made
    t = with_arrays({"buckets/flop/emd/7": table})
    tracemalloc.start()
    try:
        got = tp.bucket_of("As Ah", "Kd 7c 2h", "emd", 7, tables=t)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got == int(table[tp.HandIndexer((2, 3)).index("As Ah Kd 7c 2h")])
    assert peak < size // 4, peak
    assert tp.buckets("flop", "emd", 7, tables=t) is table


def test_numpy_ints_are_ints_and_hands_are_read_once() -> None:
    size = BUCKET_STREETS["flop"][1]
    table = (np.arange(size) % 5).astype(np.uint16)
    t = with_arrays({"buckets/flop/emd/5": table})
    assert tp.buckets("flop", "emd", np.int64(5), tables=t) is table
    assert bucket_role("flop", "emd", np.uint16(5)) == "buckets/flop/emd/5"
    hole, board = np.array([51, 50], dtype=np.int64), np.array([45, 20, 2], dtype=np.int64)
    want = tp.bucket_of(hole, board, "emd", np.int8(5), tables=t)
    other = tp.bucket_of([51, 49], board, "emd", 5, tables=t)
    assert every_moment(hole, (1,), 49, lambda: tp.bucket_of(hole, board, "emd", 5, tables=t), [want, other])
    assert every_moment(hole, (1,), 300, lambda: tp.bucket_of(hole, board, "emd", 5, tables=t), [want])
    assert every_moment(board, (2,), 51, lambda: tp.bucket_of(hole, board, "emd", 5, tables=t), [want])
