"""Range notation: every item form against a brute-force oracle, errors, weights, and the canonical form."""

from __future__ import annotations

import re
from collections.abc import Iterable
from decimal import Decimal, localcontext
from functools import cache
from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from twoplustwo.vocab.combos import (
    CLASS_OF,
    CLASS_ROWS,
    CLASS_SIZE,
    COMBOS,
    HAND_CLASSES,
    N_COMBOS,
    combo_index,
    combo_indices,
)
from twoplustwo.vocab.range_notation import class_combos, class_index
from twoplustwo.vocab.ranges import Range, parse_range
from twoplustwo.vocab.starting_hands import CLASS_ORDER

# The oracle works on card ints by division and remainder and on its own
# spellings, so it shares no tables with the parser.
R = "23456789TJQKA"
S = "cdhs"
PAIRS = list(combinations(range(52), 2))
Combo = frozenset[int]


def name(card: int) -> str:
    return R[card // 4] + S[card % 4]


@cache
def one_class(hi: int, lo: int, kind: str) -> frozenset[Combo]:
    """The combos with these ranks; kind is "" for a pair, "s" suited, "o" offsuit."""
    out = set()
    for a, b in PAIRS:
        if {a // 4, b // 4} != {hi, lo}:
            continue
        same_suit = a % 4 == b % 4
        if kind == "" or (kind == "s") == same_suit:
            out.add(frozenset((a, b)))
    return frozenset(out)


def pairs(ranks: Iterable[int]) -> set[Combo]:
    return set().union(*(one_class(r, r, "") for r in ranks))


def suited(top: int, kickers: Iterable[int]) -> set[Combo]:
    return set().union(*(one_class(top, k, "s") for k in kickers))


def offsuit(top: int, kickers: Iterable[int]) -> set[Combo]:
    return set().union(*(one_class(top, k, "o") for k in kickers))


def content(r: Range) -> dict[Combo, float]:
    assert r.combos.shape == (len(r), 2) and r.weights.shape == (len(r),)
    return {frozenset(row): w for row, w in zip(r.combos.tolist(), r.weights.tolist())}


def combos_of(r: Range) -> set[Combo]:
    return set(content(r))


def from_dict(d: dict[Combo, float]) -> Range:
    rows = [sorted(c) for c in d]
    return Range.from_combos(np.array(rows, dtype=np.int64).reshape(-1, 2), list(d.values()))


# --- COMBOS, combo_index, HAND_CLASSES --------------------------------------


def test_combos_table() -> None:
    assert COMBOS.shape == (N_COMBOS, 2) == (1326, 2)
    assert COMBOS.dtype == np.uint8
    assert [tuple(row) for row in COMBOS.tolist()] == PAIRS
    with pytest.raises(ValueError):
        COMBOS[0, 0] = 5


def test_combo_index_every_combo_both_orders() -> None:
    for i, (a, b) in enumerate(PAIRS):
        assert combo_index(a, b) == i
        assert combo_index(b, a) == i
    assert combo_index("2c", "2d") == 0 and combo_index("As", "Ah") == 1325


def test_combo_indices_vectorised() -> None:
    a = np.array([p[0] for p in PAIRS])
    b = np.array([p[1] for p in PAIRS])
    assert combo_indices(a, b).tolist() == list(range(1326))
    assert combo_indices(b, a).tolist() == list(range(1326))
    assert combo_indices(np.array([[51]]), np.array([50])).tolist() == [[1325]]


@pytest.mark.parametrize(
    ("c1", "c2", "message"),
    [
        (7, 7, "the same card twice: 3s"),
        ("Ah", 50, "the same card twice: Ah"),
        (52, 0, "card 0 (52): out of range 0..51"),
    ],
)
def test_combo_index_errors(c1: int | str, c2: int, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        combo_index(c1, c2)


@pytest.mark.parametrize(
    ("c1", "c2", "message"),
    [
        ([1, 2], [1, 3], "the same card twice in one combo"),
        ([1, 52], [2, 3], "card out of range 0..51"),
        ([-1], [2], "card out of range 0..51"),
        ([1.0], [2], "cards must be integers, got dtype float64"),
    ],
)
def test_combo_indices_errors(c1: list[float], c2: list[int], message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        combo_indices(c1, c2)


def test_hand_classes_grid() -> None:
    assert len(HAND_CLASSES) == 169 == len(set(HAND_CLASSES))
    assert HAND_CLASSES[:4] == ("AA", "AKs", "AQs", "AJs")
    assert HAND_CLASSES[12:16] == ("A2s", "AKo", "KK", "KQs")
    assert HAND_CLASSES[-2:] == ("32o", "22")
    for i in range(13):
        for j in range(13):
            hi, lo = R[12 - min(i, j)], R[12 - max(i, j)]
            expected = hi + lo + ("" if i == j else "s" if i < j else "o")
            assert HAND_CLASSES[13 * i + j] == expected


def class_oracle(cls: str) -> set[Combo]:
    hi, lo = R.index(cls[0]), R.index(cls[1])
    if len(cls) == 2:
        return pairs([hi])
    return suited(hi, [lo]) if cls[2] == "s" else offsuit(hi, [lo])


def test_class_combos_every_class() -> None:
    seen: set[Combo] = set()
    for cls in HAND_CLASSES:
        got = class_combos(cls)
        assert got.dtype == np.uint8
        assert all(row[0] > row[1] for row in got.tolist())
        rows = [tuple(sorted(row)) for row in got.tolist()]
        assert rows == sorted(rows)  # COMBOS order
        expected = class_oracle(cls)
        assert {frozenset(r) for r in rows} == expected
        assert len(got) == {2: 6, 3: 4 if cls.endswith("s") else 12}[len(cls)]
        assert class_combos(cls.lower()).tolist() == got.tolist()
        seen |= expected
    assert len(seen) == 1326


def test_each_combo_has_the_class_of_its_cards() -> None:
    for cls in HAND_CLASSES:
        k = class_index(cls)
        assert HAND_CLASSES[k] == cls and class_index(cls.lower().replace("t", "10")) == k
        expected = sorted(COMBOS.tolist().index(sorted(c)) for c in class_oracle(cls))
        assert CLASS_ROWS[k].tolist() == expected
        assert (CLASS_OF[expected] == k).all() and CLASS_SIZE[k] == len(expected)
    assert not CLASS_OF.flags.writeable and not CLASS_ROWS[0].flags.writeable


@pytest.mark.parametrize("bad", ["AK", "AKs+", "KAs", "QQs", "XY"])
def test_class_combos_rejects(bad: str) -> None:
    for fn in (class_combos, class_index):
        with pytest.raises(ValueError, match=re.escape(f"{bad!r} is not a hand class")):
            fn(bad)


# --- every item form against the oracle ---------------------------------------


def oracle_items() -> list[tuple[str, set[Combo]]]:
    out: list[tuple[str, set[Combo]]] = []
    for r in range(13):
        out.append((R[r] * 2, pairs([r])))
        out.append((R[r] * 2 + "+", pairs(range(r, 13))))
        for r2 in range(13):
            out.append((f"{R[r] * 2}-{R[r2] * 2}", pairs(range(min(r, r2), max(r, r2) + 1))))
    for top in range(1, 13):
        for k in range(top):
            t, kk = R[top], R[k]
            out.append((t + kk + "s", suited(top, [k])))
            out.append((t + kk + "o", offsuit(top, [k])))
            out.append((t + kk, suited(top, [k]) | offsuit(top, [k])))
            out.append((t + kk + "s+", suited(top, range(k, top))))
            out.append((t + kk + "o+", offsuit(top, range(k, top))))
            for k2 in range(top):
                span = range(min(k, k2), max(k, k2) + 1)
                out.append((f"{t}{kk}s-{t}{R[k2]}s", suited(top, span)))
                out.append((f"{t}{kk}o-{t}{R[k2]}o", offsuit(top, span)))
    for a in range(52):
        for b in range(52):
            if a != b:
                out.append((name(a) + name(b), {frozenset((a, b))}))
    return out


def test_every_item_form_matches_the_oracle() -> None:
    items = oracle_items()
    assert len(items) == 13 * 15 + 5 * 78 + 2 * sum(t * t for t in range(1, 13)) + 52 * 51
    wrong = [text for text, expected in items if combos_of(parse_range(text)) != expected]
    assert wrong == []


def test_every_item_form_in_other_spellings() -> None:
    wrong = []
    for text, expected in oracle_items():
        # "10" would make a hand five characters, which the notation does not allow.
        tens = [] if text[1] in S else [text.replace("T", "10")]
        for spelling in [text.lower(), text.upper(), *tens]:
            r = parse_range(spelling)
            if combos_of(r) != expected or set(r.weights.tolist()) != {1.0}:
                wrong.append(spelling)
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("random", 1326),
        ("any", 1326),
        ("RANDOM", 1326),
        ("Any", 1326),
        ("AK", 16),
        ("AKs", 4),
        ("AKo", 12),
        ("QQ", 6),
        ("QQ+", 18),
        ("22+", 78),
        ("AA+", 6),
        ("99-66", 24),
        ("A2s+", 48),
        ("A2o+", 144),
        ("KTo+", 36),
        ("A5s-A2s", 16),
        ("32s+", 4),
        ("AhKh", 1),
        ("QQ+,AKs", 22),
        ("22+,A2s+,K2s+,Q2s+,J2s+,T2s+,92s+,82s+,72s+,62s+,52s+,42s+,32s", 78 + 78 * 4),
        ("22+ A2+s", -1),
    ],
)
def test_exact_counts(text: str, count: int) -> None:
    if count < 0:
        with pytest.raises(ValueError):
            parse_range(text)
    else:
        assert len(parse_range(text)) == count


def test_every_suit_spelling_in_a_hand() -> None:
    expected = {frozenset((51, 46))}
    for text in ["AsKh", "asKH", "A\u2660K\u2665", "A\u2664K\u2661", "A\u2660\ufe0fK\u2665\ufe0f"]:
        assert combos_of(parse_range(text)) == expected, text


def test_separators() -> None:
    expected = pairs(range(10, 13)) | suited(12, [11])
    for text in ["QQ+,AKs", "QQ+ AKs", "QQ+, AKs", " QQ+ ,\tAKs\n", "QQ+\n\nAKs"]:
        assert combos_of(parse_range(text)) == expected, text


def test_blank_text_is_the_empty_range() -> None:
    for text in ["", "  ", "\n"]:
        r = parse_range(text)
        assert len(r) == 0 and r.combos.shape == (0, 2) and str(r) == ""


# --- errors ---------------------------------------------------------------------

SUFFIXES = "both ends of a '-' range of non-pairs need 's', both 'o' or both neither, as in 'A5s-A2s' or 'A5-A2'"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AAs", "item 1 ('AAs') at offset 0: a pair cannot be suited or offsuit"),
        ("AK+s", "item 1 ('AK+s') at offset 0: '+' must come last, as in 'QQ+' or 'A2s+'"),
        ("QQ-KKs", "item 1 ('QQ-KKs') at offset 0: a pair cannot be suited or offsuit"),
        ("AsAs", "item 1 ('AsAs') at offset 0: the same card twice"),
        ("AKs,,QQ", "item 2 ('') at offset 4: empty item"),
        ("AKs, ,QQ", "item 2 ('') at offset 5: empty item"),
        (",AKs", "item 1 ('') at offset 0: empty item"),
        ("AKs,", "item 2 ('') at offset 4: empty item"),
        (
            "XYZ",
            "item 1 ('XYZ') at offset 0: expected a class like 'AKs', 'QQ+', 'A2s+' or 'A5s-A2s', "
            "a hand like 'AhKh', or 'random'",
        ),
        ("QQ+, AKs , XYZ", "item 3 ('XYZ') at offset 11"),
        ("[50]AKs,QQ[/50] ZZ", "item 3 ('ZZ') at offset 16"),
        ("KAs", "item 1 ('KAs') at offset 0: write the higher rank first ('AKs')"),
        # "AT+" and "A5-A2" were errors before runs without 's' or 'o' (test_unsuffixed_runs_match_the_oracle).
        ("A5-A2s", "item 1 ('A5-A2s') at offset 0: " + SUFFIXES),
        ("A5o-A2", "item 1 ('A5o-A2') at offset 0: " + SUFFIXES),
        ("A5s-K2s", "both ends of a '-' range need the same top card, as in 'A5s-A2s'"),
        ("A5s-A2o", "both ends of a '-' range must be suited or both offsuit"),
        ("QQ-AKs", "a '-' range joins two pairs or two non-pairs"),
        ("AKs-AQs+", "a range has either '+' or '-', not both"),
        ("QQ-JJ-TT", "item 1 ('QQ-JJ-TT') at offset 0: expected a class like"),
        ("Ah", "item 1 ('Ah') at offset 0: one card is not a hand (write two cards, as in 'AhKh')"),
        ("Ah Kh", "item 1 ('Ah') at offset 0: one card is not a hand"),
        ("10h9h", "item 1 ('10h9h') at offset 0: expected a class like"),
        ("AxKh", "item 1 ('AxKh') at offset 0: expected a class like"),
        ("A\u2660A\u2660", "item 1 ('A\\u2660A\\u2660') at offset 0: the same card twice"),
        ("[0]AKs[/0]", "bracket '[0]' at offset 0: a weight must be more than 0 and at most 100"),
        ("[0.0]AKs[/0.0]", "bracket '[0.0]' at offset 0: a weight must be more than 0 and at most 100"),
        ("[101]AKs[/101]", "bracket '[101]' at offset 0: a weight must be more than 0 and at most 100"),
        ("[100.01]AKs[/100.01]", "bracket '[100.01]' at offset 0: a weight must be more than 0"),
        ("[-5]AKs[/-5]", "bracket '[-5]' at offset 0: expected a weight in percent, as in '[50]' .. '[/50]'"),
        ("[abc]AKs", "bracket '[abc]' at offset 0: expected a weight in percent"),
        ("[1e2]AKs[/1e2]", "bracket '[1e2]' at offset 0: expected a weight in percent"),
        ("[]AKs[/]", "bracket '[]' at offset 0: expected a weight in percent"),
        ("[50]AKs", "bracket '[50]' at offset 0: no closing bracket"),
        ("AKs[/50]", "bracket '[/50]' at offset 3: no bracket is open"),
        ("[50]AKs[/40]", "bracket '[/40]' at offset 7: does not match '[50]' at offset 0"),
        ("[50][30]AKs[/30][/50]", "bracket '[30]' at offset 4: brackets do not nest ('[50]' at offset 0 is open)"),
        ("[50]AKs[/50][/50]", "bracket '[/50]' at offset 12: no bracket is open"),
        ("[50 AKs", "bracket '[' at offset 0: no ']' closes it"),
        ("AKs]", "bracket ']' at offset 3: no '[' opens it"),
        ("[1e-999]AKs[/1e-999]", "expected a weight in percent"),
        ("[0." + "0" * 400 + "1]AKs", "the weight is too small for a float"),
    ],
)
def test_bad_items(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_range(text)


LONG = 10**6
WEIGHT = "1" * 5000  # more digits than Python turns into an int by default (4,300)
WIDE = "50." + "0" * 60  # a good weight, too long to echo whole
TOO_LONG = "a weight has at most 1,000 characters"


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("A" * LONG, "item 1 ('" + "A" * 40 + "'...) at offset 0: expected a class like"),
        ("AKs, QQ " + "x" * LONG, "item 3 ('" + "x" * 40 + "'...) at offset 8: expected a class like"),
        ("\u2660" * LONG, "item 1 ('" + "\\u2660" * 6 + "'...) at offset 0: expected a class like"),
        (f"[{WEIGHT}]AA[/{WEIGHT}]", "bracket '[" + "1" * 39 + "'... at offset 0: " + TOO_LONG),
        ("AA [0." + "0" * 5000 + "1]KK", "bracket '[0." + "0" * 37 + "'... at offset 3: " + TOO_LONG),
        ("[" + "5" * LONG + "]AKs", "bracket '[" + "5" * 39 + "'... at offset 0: " + TOO_LONG),
        ("[" + "5" * LONG, "bracket '[' at offset 0: no ']' closes it"),
        (f"[{WIDE}]AKs[/40]", f"bracket '[/40]' at offset 68: does not match '[{WIDE[:39]}'... at offset 0"),
        (f"[{WIDE}][30]", f"bracket '[30]' at offset 65: brackets do not nest ('[{WIDE[:39]}'... at offset 0 is open)"),
        (f"[/{WIDE}]", f"bracket '[/{WIDE[:38]}'... at offset 0: no bracket is open"),
    ],
    ids=lambda x: x[:12],
)
def test_long_text_is_cut_short_in_messages(text: str, start: str) -> None:
    with pytest.raises(ValueError) as e:
        parse_range(text)
    assert str(e.value).startswith(start) and len(str(e.value)) < 200


def test_a_weight_of_up_to_1000_characters_is_read() -> None:
    weight = "50." + "0" * 997
    assert parse_range(f"[{weight}]AKs[/{weight}]").weight_of("AsKs") == 0.5


def test_a_long_class_name_is_cut_short() -> None:
    with pytest.raises(ValueError) as e:
        class_combos("A" * LONG)
    assert str(e.value) == "'" + "A" * 40 + "'... is not a hand class: " + "expected a class like 'AKs', 'QQ+', " \
        "'A2s+' or 'A5s-A2s', a hand like 'AhKh', or 'random'"


@pytest.mark.parametrize("bad", [None, b"AKs", 5, ["AKs"]])
def test_non_str_is_a_type_error(bad: object) -> None:
    with pytest.raises(TypeError, match="expected a range as a str"):
        parse_range(bad)  # type: ignore[arg-type]


# --- weights and duplicates -------------------------------------------------------


def test_bracket_weights() -> None:
    got = content(parse_range("[50]AKs,QQ[/50],JJ"))
    expected = {c: 0.5 for c in suited(12, [11]) | pairs([10])} | {c: 1.0 for c in pairs([9])}
    assert got == expected


@pytest.mark.parametrize(
    ("percent", "weight"),
    [
        ("50", 0.5),
        ("33.3", 0.333),
        ("12.5", 0.125),
        ("0.1", 0.001),
        ("100", 1.0),
        ("100.0", 1.0),
        (".5", 0.005),
        ("7.", 0.07),
        ("66.666", 0.66666),
    ],
)
def test_weight_is_the_decimal_over_100_rounded_once(percent: str, weight: float) -> None:
    assert content(parse_range(f"[{percent}]AhKh[/{percent}]")) == {frozenset((50, 46)): weight}


def test_close_tag_matches_by_value() -> None:
    assert len(parse_range("[50]AKs[/50.0]")) == 4


def test_tags_delimit_items_and_blanks_are_allowed_around_them() -> None:
    expected = {c: 0.25 for c in suited(12, [11]) | pairs([12])} | {c: 1.0 for c in pairs([11])}
    for text in ["[25]AKs,AA[/25],KK", "[25] AKs, AA [/25] KK", "[25]AKs AA[/25]KK", "KK,[25],AKs,AA,[/25]"]:
        assert content(parse_range(text)) == expected, text


def test_duplicates_collapse() -> None:
    assert len(parse_range("AKs,AKs")) == 4
    assert len(parse_range("AhKh,AKs,KhAh")) == 4
    assert len(parse_range("random,AA,any")) == 1326
    assert len(parse_range("QQ+,KK+,AA")) == 18


def test_later_item_wins_the_weight() -> None:
    ahkh = frozenset((50, 46))
    r = parse_range("[50]AKs[/50],AhKh")
    assert r.weight_of("AhKh") == 1.0 and content(r)[ahkh] == 1.0
    assert sorted(content(r).values()) == [0.5, 0.5, 0.5, 1.0]
    r = parse_range("AhKh,[50]AKs[/50]")
    assert set(content(r).values()) == {0.5}
    r = parse_range("[20]random[/20],[80]AA[/80],AA")
    assert len(r) == 1326 and sorted(set(content(r).values())) == [0.2, 1.0]
    assert {c for c, w in content(r).items() if w == 1.0} == pairs([12])


# --- Range -----------------------------------------------------------------------


def test_combos_order_and_dtypes() -> None:
    r = parse_range("[40]random[/40]")
    assert r.combos.dtype == np.uint8 and r.weights.dtype == np.float64
    assert [tuple(row) for row in r.combos.tolist()] == [(b, a) for a, b in PAIRS]
    r = parse_range("AhKh, 2c2d, Td9d")
    assert r.combos.tolist() == [[1, 0], [33, 29], [50, 46]]


def test_range_is_read_only_and_hashable() -> None:
    r = parse_range("QQ+")
    for arr in (r.combos, r.weights, r.dense):
        with pytest.raises(ValueError):
            arr[0] = 0
    assert hash(r) == hash(parse_range("AA,KK,QQ")) and r == parse_range("AA,KK,QQ")
    assert r != parse_range("KK+") and r != parse_range("[50]QQ+[/50]")
    assert len({r, parse_range("QQ-AA"), parse_range("KK+")}) == 2
    assert (r == "QQ+") is False


def test_negative_zero_weight_hashes_like_zero() -> None:
    w = np.zeros(1326)
    w[5] = 1.0
    v = w.copy()
    v[7] = -0.0
    assert Range(w) == Range(v) and hash(Range(w)) == hash(Range(v))


def test_membership() -> None:
    r = parse_range("AKs, [50]QdQc[/50]")
    assert "AhKh" in r and "KhAh" in r and ("Ah", "Kh") in r and (50, 46) in r
    assert "AhKd" not in r and "QcQd" in r and "QhQs" not in r
    assert r.weight_of("QcQd") == 0.5 and r.weight_of("AhKd") == 0.0
    with pytest.raises(ValueError, match="a hand has 2 cards, got 3"):
        _ = "AhKhQh" in r
    with pytest.raises(ValueError, match="duplicate"):
        _ = "AhAh" in r
    with pytest.raises(TypeError):
        _ = 5 in r


def test_dense_is_aligned_with_combos() -> None:
    r = parse_range("[30]AKo[/30], 72o")
    dense = r.dense
    assert dense.shape == (1326,)
    for i, (a, b) in enumerate(PAIRS):
        assert dense[i] == content(r).get(frozenset((a, b)), 0.0)
    assert Range(dense) == r


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        (np.zeros(1325), "expected 1326 weights"),
        (np.full(1326, 1.5), "weight 1.5 of combo 0 is not in [0, 1]"),
        (np.full(1326, -0.5), "weight -0.5 of combo 0 is not in [0, 1]"),
        (np.full(1326, np.nan), "weight nan of combo 0 is not in [0, 1]"),
        (np.full(1326, "a"), "expected real weights"),
    ],
)
def test_dense_constructor_errors(weights: np.ndarray, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        Range(weights)


def test_bool_mask_constructor() -> None:
    mask = np.zeros(1326, dtype=bool)
    mask[[0, 1325]] = True
    assert str(Range(mask)) == "AsAh,2d2c"


def test_from_combos() -> None:
    r = Range.from_combos([[51, 47], [0, 1], [47, 51]], [0.5, 1, 0.25])
    assert content(r) == {frozenset((47, 51)): 0.25, frozenset((0, 1)): 1.0}
    assert Range.from_combos(np.array([[3, 7]], dtype=np.uint8)) == parse_range("2s3s")
    assert Range.from_combos([[3, 7], [8, 9]], 0.5) == parse_range("[50]2s3s,4c4d[/50]")
    assert len(Range.from_combos([])) == 0
    with pytest.raises(ValueError, match="the same card twice"):
        Range.from_combos([[3, 3]])
    with pytest.raises(ValueError, match=re.escape("weight 0.0 of row 1 is not in (0, 1]")):
        Range.from_combos([[3, 4], [5, 6]], [1.0, 0.0])
    with pytest.raises(ValueError, match=re.escape("expected an (n, 2) array")):
        Range.from_combos([1, 2, 3])


# --- canonical form ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("AA,KK,QQ", "QQ+"),
        ("AA", "AA"),
        ("AA+", "AA"),
        ("99,88,77,66", "99-66"),
        ("66-99", "99-66"),
        ("KK,QQ,99", "KK-QQ,99"),
        ("22+", "22+"),
        ("AKs,AQs,AJs,ATs,A9s,A8s,A7s,A6s,A5s,A4s,A3s,A2s", "A2s+"),
        ("AKs+", "AKs"),
        ("K9o,K6o,K7o,K8o", "K9o-K6o"),
        ("AKs,AKo", "AK"),
        ("AKs,AQs,AKo", "AQs+,AKo"),
        ("AhKh,AsKs,AdKd,AcKc", "AKs"),
        ("AhKh,AsKs,AdKd", "AsKs,AhKh,AdKd"),
        ("random", "random"),
        ("[50]any[/50]", "[50]random[/50]"),
        ("[100]AKs[/100]", "AKs"),
        ("22+,AK,[50]T9s[/50],[75]QQ[/75]", "KK+,JJ-22,AK,[75]QQ[/75],[50]T9s[/50]"),
        ("KTo+,AK,KQs,AJo+", "AKs,KQs,AJo+,KTo+"),
        ("QQ+,AKs,AhKd", "QQ+,AKs,AhKd"),
        ("[33.3]AKs[/33.3]", "[33.3]AKs[/33.3]"),
        ("[33.30]AKs[/33.3]", "[33.3]AKs[/33.3]"),
        ("", ""),
    ],
)
def test_canonical_form(text: str, canonical: str) -> None:
    r = parse_range(text)
    assert str(r) == canonical
    assert repr(r) == f"parse_range({canonical!r})"
    assert parse_range(canonical) == r


weights = st.one_of(
    st.sampled_from([1.0, 0.5, 0.25, 0.333, 0.1]),
    st.floats(min_value=0.0, max_value=1.0, exclude_min=True, allow_subnormal=True),
)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(PAIRS).map(frozenset), weights, max_size=60))
def test_round_trip_random_combos(d: dict[Combo, float]) -> None:
    r = from_dict(d)
    assert content(r) == d
    text = str(r)
    back = parse_range(text)
    assert content(back) == d
    assert str(back) == text


CLASS_ITEM = re.compile(r"random|(..)(\+|-..)?|(...)(\+|-...)?")


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(st.sampled_from(HAND_CLASSES), st.sampled_from([1.0, 0.5, 0.125, 0.9])),
    st.dictionaries(st.sampled_from(PAIRS).map(frozenset), weights, max_size=8),
)
def test_round_trip_whole_classes(classes: dict[str, float], extra: dict[Combo, float]) -> None:
    d = {c: w for cls, w in classes.items() for c in class_oracle(cls)}
    # Whole classes alone are written without a single hand item.
    text = str(from_dict(d))
    items = [i for i in re.split(r"\[/?[0-9.]+\]|,", text) if i]
    assert all(CLASS_ITEM.fullmatch(i) for i in items), text
    assert content(parse_range(text)) == d
    d.update(extra)
    text = str(from_dict(d))
    assert content(parse_range(text)) == d


# --- runs without 's' or 'o' --------------------------------------------------------


def unsuffixed_items() -> list[tuple[str, set[Combo]]]:
    """'XY+' and 'XY-XZ' without 's' or 'o', every top card and kicker: suited and offsuit together."""
    out: list[tuple[str, set[Combo]]] = []
    for top in range(1, 13):
        t = R[top]
        for k in range(top):
            up = range(k, top)
            out.append((t + R[k] + "+", suited(top, up) | offsuit(top, up)))
            for k2 in range(top):
                span = range(min(k, k2), max(k, k2) + 1)
                out.append((f"{t}{R[k]}-{t}{R[k2]}", suited(top, span) | offsuit(top, span)))
    return out


def test_unsuffixed_runs_match_the_oracle() -> None:
    items = unsuffixed_items()
    assert len(items) == 78 + sum(t * t for t in range(1, 13))
    wrong = []
    for text, expected in items:
        for spelling in [text, text.lower(), text.replace("T", "10")]:
            r = parse_range(spelling)
            if combos_of(r) != expected or set(r.weights.tolist()) != {1.0}:
                wrong.append(spelling)
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "same", "count"),
    [
        ("A2+", "A2s+,A2o+", 192),
        ("KT+", "KTs+,KTo+", 48),
        ("AK-AJ", "AKs-AJs,AKo-AJo", 48),
        ("AJ-AK", "AKs-AJs,AKo-AJo", 48),
        ("87-82", "87s-82s,87o-82o", 96),
        ("AT+", "ATs+,ATo+", 64),
        ("A5-A2", "A5s-A2s,A5o-A2o", 64),
        ("AK+", "AK", 16),
        ("AK-AK", "AK", 16),
        ("32+", "32s,32o", 16),
        ("a2+ k10+", "A2s+,A2o+,KTs+,KTo+", 240),
    ],
)
def test_unsuffixed_runs_are_both_kinds(text: str, same: str, count: int) -> None:
    r = parse_range(text)
    assert r == parse_range(same) and len(r) == count


# --- percent ranges -------------------------------------------------------------------


def top_oracle(percent: str) -> set[Combo]:
    """The top percent by the documented rule, one class at a time in the committed order, in decimals."""
    with localcontext() as ctx:
        ctx.prec = 100
        share = Decimal(percent) * 1326 / 100
    out: set[Combo] = set()
    for cls in CLASS_ORDER:
        if len(out) >= share:  # the classes before this one already hold the share
            break
        out |= class_oracle(cls)
    return out


def cumulative() -> list[int]:
    """The combos of the first 1, 2, .., 169 classes of the order."""
    out, total = [], 0
    for cls in CLASS_ORDER:
        total += len(class_oracle(cls))
        out.append(total)
    return out


def decimal(numerator: int, places: int) -> str:
    """numerator / 10**places written as a decimal."""
    whole, part = divmod(numerator, 10**places)
    return f"{whole}.{part:0{places}d}"


PERCENTS = [str(p) for p in range(101)] + ["0.0", "100.0", ".5", "7.", "12.5", "33.333", "99.99", "0.001", "050"]


def test_percent_matches_the_oracle() -> None:
    wrong = []
    for p in PERCENTS:
        expected = top_oracle(p)
        for text in [f"{p}%", f"top {p}%", f"TOP{p}%", f"Top \t\n {p}%"]:
            r = parse_range(text)
            if combos_of(r) != expected or set(r.weights.tolist()) - {1.0}:
                wrong.append(text)
    assert wrong == []


def test_percent_is_the_smallest_prefix_of_whole_classes_reaching_the_share() -> None:
    sizes = [len(class_oracle(cls)) for cls in CLASS_ORDER]
    for p in PERCENTS:
        r = parse_range(f"{p}%")
        got = combos_of(r)
        taken = [cls for cls in CLASS_ORDER if class_oracle(cls) <= got]
        assert taken == list(CLASS_ORDER[: len(taken)]), p  # whole classes, a prefix of the order
        assert len(r) == sum(sizes[: len(taken)])
        share = Decimal(p) * 1326 / 100
        assert len(r) >= share, p
        if taken:
            assert len(r) - sizes[len(taken) - 1] < share, p


def test_percent_at_every_class_boundary() -> None:
    cum = cumulative()
    assert cum[-1] == 1326
    exact = []
    for k, total in enumerate(cum):
        # The share is `total` combos at total * 100 / 1326 percent: at or just below it the
        # first k + 1 classes reach the share, just above it the next class is needed too.
        scaled, rest = divmod(total * 100 * 10**12, 1326)
        below = decimal(scaled if rest else scaled - 1, 12)
        assert len(parse_range(below + "%")) == total
        if rest == 0:
            exact.append(decimal(scaled, 12))
            assert len(parse_range(exact[-1] + "%")) == total
        if k + 1 < len(cum):
            assert len(parse_range(decimal(scaled + 1, 12) + "%")) == cum[k + 1]
    assert exact[-1] == "100.000000000000"
    assert [len(parse_range(f"{p}%")) for p in ["0", "0.000000001", "100"]] == [0, 6, 1326]


SPANS = ["0", "2.5", "5", "10", "15", "33.3", "50", "99.9", "100"]


def test_percent_spans_match_the_oracle() -> None:
    wrong = []
    for a in SPANS:
        for b in SPANS:
            low, high = sorted((a, b), key=Decimal)
            expected = top_oracle(high) - top_oracle(low)
            for text in [f"{a}%-{b}%", f"top {a}%-{b}%"]:
                if combos_of(parse_range(text)) != expected:
                    wrong.append(text)
    assert wrong == []


@pytest.mark.parametrize(
    ("text", "canonical", "count"),
    [
        ("0%", "", 0),
        ("100%", "random", 1326),
        ("top 2%", "TT+", 30),
        ("10%", "66+,A8s+,KJs+,ATo+", 134),
        ("5%-15%", "66-55,ATs-A5s,K9s+,QJs,AQo-A9o,KJo+", 128),
        ("15%-5%", "66-55,ATs-A5s,K9s+,QJs,AQo-A9o,KJo+", 128),
        ("2%-2%", "", 0),
        ("[50]top 2%[/50], AhAs", "AsAh,[50]KK-TT,AsAd,AsAc,AhAd,AhAc,AdAc[/50]", 30),
        ("top 2%, AA:0", "KK-TT", 24),
        ("AKs, top 1%:0.5", "AKs,[50]QQ+[/50]", 22),
    ],
)
def test_percent_examples(text: str, canonical: str, count: int) -> None:
    r = parse_range(text)
    assert str(r) == canonical and len(r) == count and parse_range(canonical) == r


# --- ':' weights ------------------------------------------------------------------------

AHKH = frozenset((50, 46))


@pytest.mark.parametrize(
    ("number", "weight"),
    [
        ("1", 1.0),
        ("1.0", 1.0),
        ("1.", 1.0),
        ("0.5", 0.5),
        (".25", 0.25),
        ("0.333", 0.333),
        ("0.1", 0.1),
        ("0.0000001", 1e-7),
        ("0." + "0" * 300 + "1", 1e-301),
        ("0", 0.0),
        ("0.000", 0.0),
    ],
)
def test_colon_weight_is_the_decimal_rounded_once(number: str, weight: float) -> None:
    assert content(parse_range(f"AhKh:{number}")) == ({AHKH: weight} if weight else {})


def test_colon_weights_against_the_oracle() -> None:
    got = content(parse_range("AK:0.5,QQ+:0.25,AhKh:1"))
    expected = {c: 0.5 for c in suited(12, [11]) | offsuit(12, [11])}
    expected |= {c: 0.25 for c in pairs([10, 11, 12])}
    expected[AHKH] = 1.0
    assert got == expected
    every = {frozenset(p) for p in PAIRS}
    assert combos_of(parse_range("random,AA:0")) == every - pairs([12])
    aces = suited(12, range(12)) | offsuit(12, range(12))
    assert combos_of(parse_range("any:1, A2+:0, 22+:0")) == every - pairs(range(13)) - aces
    assert content(parse_range("AK:0,AhKh")) == {AHKH: 1.0}
    assert content(parse_range("AhKh,AK:0")) == {}
    assert content(parse_range("AA:0")) == {}
    assert content(parse_range("[50]QQ[/50],QhQs:0.75,KK:0.125")) == (
        {c: 0.5 for c in pairs([10])} | {frozenset((42, 43)): 0.75} | {c: 0.125 for c in pairs([11])}
    )
    assert content(parse_range("top 1%:0.5, 10%-2%:0")) == {c: 0.5 for c in pairs([10, 11, 12])}


# --- errors of the new forms -------------------------------------------------------------

PERCENT = "expected a percent like '10%', 'top 10%' or '5%-15%'"
OUTSIDE = "a percent must be at least 0 and at most 100"
TOP = "'top' comes before a percent, as in 'top 10%'"
COLON = "expected a weight from 0 to 1 after ':', as in 'AK:0.5'"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("101%", f"item 1 ('101%') at offset 0: {OUTSIDE}"),
        ("100.001%", f"item 1 ('100.001%') at offset 0: {OUTSIDE}"),
        ("5%-100.5%", f"item 1 ('5%-100.5%') at offset 0: {OUTSIDE}"),
        ("top 200%", f"item 1 ('top 200%') at offset 0: {OUTSIDE}"),
        ("-5%", f"item 1 ('-5%') at offset 0: {PERCENT}"),
        ("5%-", f"item 1 ('5%-') at offset 0: {PERCENT}"),
        ("%", f"item 1 ('%') at offset 0: {PERCENT}"),
        ("10%%", f"item 1 ('10%%') at offset 0: {PERCENT}"),
        ("5-15%", f"item 1 ('5-15%') at offset 0: {PERCENT}"),
        ("5%15%", f"item 1 ('5%15%') at offset 0: {PERCENT}"),
        ("1e1%", f"item 1 ('1e1%') at offset 0: {PERCENT}"),
        ("5%-10%-15%", f"item 1 ('5%-10%-15%') at offset 0: {PERCENT}"),
        ("AK%", f"item 1 ('AK%') at offset 0: {PERCENT}"),
        ("top 10%%", f"item 1 ('top 10%%') at offset 0: {PERCENT}"),
        ("QQ+, top\t10%, 5%-x%", f"item 3 ('5%-x%') at offset 14: {PERCENT}"),
        ("AKs, top 10%, XYZ", "item 3 ('XYZ') at offset 14: expected a class like"),
        ("top", f"item 1 ('top') at offset 0: {TOP}"),
        ("top 5", f"item 1 ('top') at offset 0: {TOP}"),
        ("top 10 %", f"item 1 ('top') at offset 0: {TOP}"),
        ("AKs TOP", f"item 2 ('TOP') at offset 4: {TOP}"),
        ("top, 10%", f"item 1 ('top') at offset 0: {TOP}"),
        ("top top 10%", f"item 1 ('top') at offset 0: {TOP}"),
        ("top [50]10%[/50]", f"item 1 ('top') at offset 0: {TOP}"),
        ("top:0.5 10%", f"item 1 ('top:0.5') at offset 0: {TOP}"),
        ("AK:2", "item 1 ('AK:2') at offset 0: a ':' weight must be at least 0 and at most 1"),
        ("AK:1.0001", "item 1 ('AK:1.0001') at offset 0: a ':' weight must be at least 0 and at most 1"),
        ("AK:-1", f"item 1 ('AK:-1') at offset 0: {COLON}"),
        ("AK:", f"item 1 ('AK:') at offset 0: {COLON}"),
        ("AK: 0.5", f"item 1 ('AK:') at offset 0: {COLON}"),
        ("AK:0.5:0.5", f"item 1 ('AK:0.5:0.5') at offset 0: {COLON}"),
        ("AK:1e-1", f"item 1 ('AK:1e-1') at offset 0: {COLON}"),
        ("AK:50%", f"item 1 ('AK:50%') at offset 0: {COLON}"),
        (":0.5", "item 1 (':0.5') at offset 0: expected an item before ':', as in 'AK:0.5'"),
        ("QQ :0.5", "item 2 (':0.5') at offset 3: expected an item before ':', as in 'AK:0.5'"),
        ("XYZ:0.5", "item 1 ('XYZ:0.5') at offset 0: expected a class like"),
        ("AK+s:0.5", "item 1 ('AK+s:0.5') at offset 0: '+' must come last, as in 'QQ+' or 'A2s+'"),
        ("AAs:0.5", "item 1 ('AAs:0.5') at offset 0: a pair cannot be suited or offsuit"),
        ("101%:0.5", f"item 1 ('101%:0.5') at offset 0: {OUTSIDE}"),
        (
            "[50]AK:0.5[/50]",
            "item 1 ('AK:0.5') at offset 4: a ':' weight cannot go inside a bracket ('[50]' at offset 0 is open)",
        ),
        (
            "QQ, [50]AK, KK:1[/50]",
            "item 3 ('KK:1') at offset 12: a ':' weight cannot go inside a bracket ('[50]' at offset 4 is open)",
        ),
        ("[50]AK:2[/50]", "item 1 ('AK:2') at offset 4: a ':' weight cannot go inside a bracket"),
        ("AK:0." + "0" * 400 + "1", "at offset 0: the weight is too small for a float"),
    ],
)
def test_bad_new_items(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_range(text)


@pytest.mark.parametrize(
    ("text", "start"),
    [
        ("1" * 1001 + "%", "item 1 ('" + "1" * 40 + "'...) at offset 0: a percent has at most 1,000 characters"),
        ("5%-0." + "0" * 5000 + "1%", "item 1 ('5%-0." + "0" * 35 + "'...) at offset 0: a percent has at most 1,000"),
        ("AK:" + "1" * 5000, "item 1 ('AK:" + "1" * 37 + "'...) at offset 0: a weight has at most 1,000 characters"),
        ("top" + " " * LONG + "1%%", "item 1 ('top" + " " * 37 + "'...) at offset 0: " + PERCENT),
        ("top " + "x" * LONG, "item 1 ('top') at offset 0: " + TOP),
    ],
    ids=lambda x: x[:12],
)
def test_long_new_items_are_cut_short_in_messages(text: str, start: str) -> None:
    with pytest.raises(ValueError) as e:
        parse_range(text)
    assert str(e.value).startswith(start) and len(str(e.value)) < 200


def test_percent_and_weight_of_up_to_1000_characters_are_read() -> None:
    assert len(parse_range("2." + "0" * 998 + "%")) == 30
    assert parse_range("AhKh:0." + "5" * 998).weight_of("AhKh") == float("0." + "5" * 998)


# --- round trips with every item form ------------------------------------------------------


@cache
def item_pool() -> list[tuple[str, frozenset[Combo]]]:
    items = oracle_items() + unsuffixed_items() + [("random", {frozenset(p) for p in PAIRS})]
    return [(text, frozenset(expected)) for text, expected in items]


def percent_text(n: int) -> str:
    return decimal(n, 2).rstrip("0").rstrip(".") or "0"


percent_items = st.one_of(
    st.builds(
        lambda n, top: (("top " if top else "") + percent_text(n) + "%", top_oracle(percent_text(n))),
        st.integers(0, 10000),
        st.booleans(),
    ),
    st.builds(
        lambda a, b: (
            f"{percent_text(a)}%-{percent_text(b)}%",
            top_oracle(percent_text(max(a, b))) - top_oracle(percent_text(min(a, b))),
        ),
        st.integers(0, 10000),
        st.integers(0, 10000),
    ),
)
colon_weights = st.one_of(
    st.sampled_from([None, None, None, "1", "0", "0.5", ".25", "0.333", "1.0", "0.125"]),
    st.floats(min_value=0.0, max_value=1.0).map(lambda x: format(Decimal(repr(x)), "f")),
)
BRACKETS = {"50": 0.5, "25": 0.25, "33.3": 0.333, "12.5": 0.125, "100": 1.0}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.one_of(st.sampled_from(item_pool()), percent_items),
            colon_weights,
            st.sampled_from([None, None, *BRACKETS]),
        ),
        max_size=12,
    ),
    st.sampled_from([",", ", ", " ", "\n"]),
)
def test_round_trip_every_form(
    items: list[tuple[tuple[str, set[Combo]], str | None, str | None]], separator: str
) -> None:
    parts: list[str] = []
    expected: dict[Combo, float] = {}
    for (text, combos), number, bracket in items:
        if bracket is not None:
            parts.append(f"[{bracket}]{text}[/{bracket}]")
            weight = BRACKETS[bracket]
        elif number is not None:
            parts.append(f"{text}:{number}")
            weight = float(number)
        else:
            parts.append(text)
            weight = 1.0
        for c in combos:
            if weight:
                expected[c] = weight
            else:
                expected.pop(c, None)
    r = parse_range(separator.join(parts))
    assert content(r) == expected
    canonical = str(r)
    back = parse_range(canonical)
    assert back == r and str(back) == canonical
