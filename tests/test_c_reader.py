"""The C reader in ``examples/c`` agrees with the Python runtime.

It is built with the system C compiler into a scratch directory (the test is
skipped when there is none), then fed random hands, every 7-card hand, bad
input and bad tables. It proves that ``tables/README.md`` is enough to read
the tables from another language.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from twoplustwo.cards import RANKS, SUITS, format_cards
from twoplustwo.evaluate import evaluate, evaluate_batch
from twoplustwo.exhaustive import histogram
from twoplustwo.format import MANIFEST
from twoplustwo.tables import default_path
from twoplustwo.values import CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST, HAND_COUNTS, categories

SOURCE = Path(__file__).resolve().parent.parent / "examples" / "c" / "eval.c"
TABLES = default_path()

#: Published 7-card category counts, by category name.
PUBLISHED_7 = dict(zip(CATEGORIES, HAND_COUNTS[7][0]))

def _compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C reader, built warning-free with the flags of examples/c/Makefile."""
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler found on PATH (tried cc, gcc, clang): the C reader is not built")
    if not (TABLES / MANIFEST).is_file():
        pytest.skip(f"no tables at {TABLES}: run `python -m twoplustwo_builder`")
    exe = tmp_path_factory.mktemp("c-reader") / "eval"
    cmd = [cc, "-O2", "-std=c99", "-Wall", "-Wextra", "-o", str(exe), str(SOURCE)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, f"{' '.join(cmd)} failed:\n{r.stderr}"
    assert "warning" not in r.stderr, f"compiler warnings:\n{r.stderr}"
    return exe


def run(exe: Path, *args: str | os.PathLike[str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(exe), *map(str, args)], input=stdin, capture_output=True, text=True, timeout=120
    )


def _spell(card: int, rng: np.random.Generator) -> str:
    """A card string in one of the spellings the reader accepts."""
    rank = "10" if card >> 2 == 8 and rng.random() < 0.5 else RANKS[card >> 2]
    suit = SUITS[card & 3]
    return rank.lower() + suit.upper() if rng.random() < 0.3 else rank + suit


@pytest.fixture(scope="module")
def random_hands() -> list[list[int]]:
    rng = np.random.default_rng(20261121)
    sizes = rng.integers(5, 8, size=10_000)
    return [rng.permutation(52)[:n].tolist() for n in sizes]


@pytest.mark.parametrize("mode", [[], ["--dag7"]], ids=["dag5-dag6-dag7", "dag7-only"])
def test_random_hands_match_python(program: Path, random_hands: list[list[int]], mode: list[str]) -> None:
    rng = np.random.default_rng(6)
    text = "".join(" ".join(_spell(c, rng) for c in h) + "\n" for h in random_hands)
    r = run(program, *mode, TABLES, stdin=text)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    lines = r.stdout.splitlines()
    assert len(lines) == len(random_hands)
    got = np.array([int(line.rsplit(" ", 1)[1]) for line in lines])
    want = np.array([evaluate(h) for h in random_hands])
    np.testing.assert_array_equal(got, want)
    for n in (5, 6, 7):
        idx = [i for i, h in enumerate(random_hands) if len(h) == n]
        batch = evaluate_batch(np.array([random_hands[i] for i in idx]))
        np.testing.assert_array_equal(got[idx], batch)
    # Each line echoes the hand in canonical spelling, then category, then value.
    cats = [CATEGORIES[c] for c in categories(want)]
    for line, h, cat, v in zip(lines, random_hands, cats, want):
        assert line == f"{format_cards(h)} {cat} {v}"


def test_all_hands_category_counts(program: Path) -> None:
    r = run(program, "--all", TABLES)
    assert r.returncode == 0, r.stderr
    fields = dict(line.split() for line in r.stdout.splitlines())
    counts = {name: int(fields[name]) for name in CATEGORIES}
    assert counts == PUBLISHED_7
    assert int(fields["total"]) == 133_784_560
    hist = histogram(7)
    by_category = {
        name: int(hist[lo : hi + 1].sum())
        for name, lo, hi in zip(CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST)
    }
    assert counts == by_category
    seconds = float(fields["seconds"])
    print(f"C reader: all 133,784,560 seven-card hands in {seconds:.3f} s")
    assert seconds < 30


def test_bad_lines_are_reported_and_skipped(program: Path) -> None:
    lines = [
        "As Kd 7h 7c 2s 3d 9c",  # good
        "As Kd 7h 7c As 3d",  # duplicate
        "As Kd 7h 7c Xs",  # unknown rank
        "As Kd 7h 7c 2x",  # unknown suit
        "As Kd 7h 7c",  # too few
        "As Kd 7h 7c 2s 3d 9c 8c",  # too many
        "",  # blank: skipped
        "# a comment",  # skipped
        "10c,jc, qc kc AC",  # good: commas, 10, lower case
    ]
    r = run(program, TABLES, stdin="\n".join(lines) + "\n")
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        f"As Kd 7h 7c 2s 3d 9c pair {evaluate('As Kd 7h 7c 2s 3d 9c')}",
        "Tc Jc Qc Kc Ac straight_flush 7462",
    ]
    errors = r.stderr.splitlines()
    assert len(errors) == 5
    for lineno, error, pattern in zip(
        (2, 3, 4, 5, 6),
        errors,
        ("duplicate", "'Xs'.*not a card", "'2x'.*not a card", "4 cards", "more than 7"),
    ):
        assert error.startswith(f"eval: line {lineno}: "), error
        assert re.search(pattern, error), error


def _linked_copy(tmp_path: Path) -> Path:
    """The table set as symlinks, with a real manifest a test may edit."""
    dst = tmp_path / "tables"
    dst.mkdir()
    manifest = json.loads((TABLES / MANIFEST).read_text())
    for f in manifest["files"]:
        (dst / f["name"]).symlink_to((TABLES / f["name"]).resolve())
    (dst / MANIFEST).write_text(json.dumps(manifest))
    return dst


def test_bad_tables_are_refused(program: Path, tmp_path: Path) -> None:
    r = run(program, tmp_path / "nowhere", stdin="As Ks Qs Js Ts\n")
    assert r.returncode == 2 and "manifest.json" in r.stderr

    copy = _linked_copy(tmp_path)
    assert run(program, copy, stdin="As Ks Qs Js Ts\n").stdout == "As Ks Qs Js Ts straight_flush 7462\n"

    manifest = json.loads((copy / MANIFEST).read_text())
    (copy / MANIFEST).write_text(json.dumps({**manifest, "format_version": 2}))
    r = run(program, copy, stdin="As Ks Qs Js Ts\n")
    assert r.returncode == 2 and "format version 2" in r.stderr

    # A truncated file: caught by its size before it is mapped.
    (copy / MANIFEST).write_text(json.dumps(manifest))
    f = next(f for f in manifest["files"] if f["role"] == "dag5/layer3")
    data = (copy / f["name"]).read_bytes()
    (copy / f["name"]).unlink()
    (copy / f["name"]).write_bytes(data[:-2])
    r = run(program, copy, stdin="As Ks Qs Js Ts\n")
    assert r.returncode == 2 and "truncated" in r.stderr

    # An entry pointing past the next layer: caught by the range check.
    a = np.frombuffer(data, dtype=np.uint8).copy()
    a[f["offset"] : f["offset"] + 2] = 0xFF
    (copy / f["name"]).write_bytes(a.tobytes())
    r = run(program, copy, stdin="As Ks Qs Js Ts\n")
    assert r.returncode == 2 and "out of range" in r.stderr
