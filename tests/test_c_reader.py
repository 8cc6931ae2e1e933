"""The C reader in ``examples/c`` agrees with the Python runtime and passes the conformance fixtures.

It is built with the system C compiler into a scratch directory (the tests
are skipped when there is none), warning-free under ``-Wall -Wextra
-Werror``, and again with the address and undefined-behaviour sanitizers.
It is fed random hands, every 7-card hand, bad input, bad tables, every case
of ``tables/conformance`` and the conformance vectors. It proves that
``tables/README.md`` is enough to read the tables from another language.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo.cards import RANKS, SUITS, format_cards
from twoplustwo.evaluate import evaluate, evaluate_batch
from twoplustwo.format import MANIFEST
from twoplustwo.histograms import histogram
from twoplustwo.tables import default_path
from twoplustwo.values import CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST, HAND_COUNTS, categories

SOURCE = Path(__file__).resolve().parent.parent / "examples" / "c" / "eval.c"
TABLES = default_path()

#: Published 7-card category counts, by category name.
PUBLISHED_7 = dict(zip(CATEGORIES, HAND_COUNTS[7][0]))

FIXTURES = Path(__file__).resolve().parent.parent / "tables" / "conformance"
CASES: list[dict[str, Any]] = json.loads((FIXTURES / "cases.json").read_text(encoding="utf-8"))["cases"]

WARNINGS = ["-std=c99", "-Wall", "-Wextra", "-Werror"]
SANITIZERS = ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=all"]
# Sanitizer reports end the run with status 1 (neither 0 nor 2) and say so on stderr.
SANITIZER_ENV = {
    "ASAN_OPTIONS": "halt_on_error=1:detect_leaks=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1",
}


def _compiler() -> str | None:
    for name in ("cc", "gcc", "clang"):
        path = shutil.which(name)
        if path:
            return path
    return None


def _build(tmp: Path, flags: list[str]) -> tuple[Path, subprocess.CompletedProcess[str]]:
    cc = _compiler()
    if cc is None:
        pytest.skip("no C compiler found on PATH (tried cc, gcc, clang): the C reader is not built")
    if not (TABLES / MANIFEST).is_file():
        pytest.skip(f"no tables at {TABLES}: run `python -m twoplustwo_builder`")
    exe = tmp / "eval"
    cmd = [cc, *flags, "-o", str(exe), str(SOURCE)]
    return exe, subprocess.run(cmd, capture_output=True, text=True)


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C reader, built as examples/c/Makefile does, with warnings as errors."""
    exe, r = _build(tmp_path_factory.mktemp("c-reader"), ["-O2", *WARNINGS])
    assert r.returncode == 0, f"build failed:\n{r.stderr}"
    assert "warning" not in r.stderr, f"compiler warnings:\n{r.stderr}"
    return exe


@pytest.fixture(scope="module")
def sanitized(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The C reader built with AddressSanitizer and UndefinedBehaviorSanitizer."""
    tmp = tmp_path_factory.mktemp("c-reader-sanitized")
    probe = tmp / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    cc = _compiler()
    if cc is not None:
        r = subprocess.run([cc, *SANITIZERS, "-o", str(tmp / "probe"), str(probe)], capture_output=True, text=True)
        if r.returncode != 0:
            pytest.skip(f"{cc} cannot link -fsanitize=address,undefined here: {r.stderr.strip()[:200]}")
    exe, r = _build(tmp, ["-O1", "-g", *WARNINGS, *SANITIZERS])
    assert r.returncode == 0, f"sanitized build failed:\n{r.stderr}"
    return exe


def run(
    exe: Path, *args: str | os.PathLike[str], stdin: str = "", sanitizers: bool = False
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **SANITIZER_ENV} if sanitizers else None
    return subprocess.run(
        [str(exe), *map(str, args)], input=stdin, capture_output=True, text=True, timeout=120, env=env
    )


def _spell(card: int, rng: np.random.Generator) -> str:
    """A card string in one of the spellings of section 6.1."""
    rank = "10" if card >> 2 == 8 and rng.random() < 0.5 else RANKS[card >> 2]
    suit = SUITS[card & 3]
    r = rng.random()
    if r < 0.2:
        return rank.lower() + suit.upper()
    if r < 0.3:
        return rank + "♣♦♥♠"[card & 3]
    return rank + suit


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
        "A♠ K♠ Q♠ J♠ 10♠ 2♥ 3♦",  # good: suit symbols
        "As Ks Qs Js T♤",  # an outlined symbol: not in the notation this reader takes
    ]
    r = run(program, TABLES, stdin="\n".join(lines) + "\n")
    assert r.returncode == 1
    assert r.stdout.splitlines() == [
        f"As Kd 7h 7c 2s 3d 9c pair {evaluate('As Kd 7h 7c 2s 3d 9c')}",
        "Tc Jc Qc Kc Ac straight_flush 7462",
        "As Ks Qs Js Ts 2h 3d straight_flush 7462",
    ]
    errors = r.stderr.splitlines()
    assert len(errors) == 6
    for lineno, error, pattern in zip(
        (2, 3, 4, 5, 6, 11),
        errors,
        ("duplicate", "'Xs'.*not a card", "'2x'.*not a card", "4 cards", "more than 7", "card 4 .*not a card"),
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
    assert r.returncode == 2 and "out of range" in r.stderr and "dag5/layer3" in r.stderr


def test_real_tables_check_and_verify(program: Path) -> None:
    # Every sha256 of the real set, computed by the reader's own SHA-256.
    r = run(program, "--check", "--verify", TABLES)
    assert r.returncode == 0, r.stderr
    assert "sha256 verified" in r.stdout


def test_usage_errors(program: Path) -> None:
    for args in (["--bogus"], ["--all", "--check"], ["a", "b"], ["--vectors"]):
        r = run(program, *args)
        assert r.returncode == 2 and r.stderr.startswith("usage:"), (args, r.stderr)


# ------------------------------------------------------------- conformance


def _expected(case: dict[str, Any], verify: bool) -> str:
    """The C reader always range-checks, and verifies sha256 with --verify."""
    outcomes = [case["expect"], case.get("range_check")]
    if verify:
        outcomes.append(case.get("verify"))
    return "reject" if "reject" in outcomes else "load"


def _run_cases(exe: Path, verify: bool, sanitizers: bool) -> list[str]:
    failures = []
    for case in CASES:
        path = FIXTURES / "cases" / case["name"]
        r = run(exe, "--check", *(["--verify"] if verify else []), path, sanitizers=sanitizers)
        want = _expected(case, verify)
        got = {0: "load", 2: "reject"}.get(r.returncode, f"exit status {r.returncode}")
        if got != want or "Sanitizer" in r.stderr or "runtime error" in r.stderr:
            failures.append(f"{case['name']}: {got}, expected {want}: {r.stderr.strip()[-2000:]}")
        elif got == "reject":
            lines = r.stderr.splitlines()
            missing = [n for n in case["names"] if n not in r.stderr]
            if len(lines) != 1 or missing:
                failures.append(f"{case['name']}: error should be one line naming {missing}: {r.stderr!r}")
        elif "vectors" in case:
            v = run(exe, "--vectors", FIXTURES / case["vectors"], path, sanitizers=sanitizers)
            if v.returncode != 0:
                failures.append(f"{case['name']}: vectors: {v.stderr.strip()[-2000:]}")
    return failures


@pytest.mark.parametrize("verify", [False, True], ids=["check", "verify"])
def test_conformance_cases(program: Path, verify: bool) -> None:
    failures = _run_cases(program, verify, sanitizers=False)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("verify", [False, True], ids=["check", "verify"])
def test_conformance_cases_sanitized(sanitized: Path, verify: bool) -> None:
    failures = _run_cases(sanitized, verify, sanitizers=True)
    assert not failures, "\n".join(failures)


def test_missing_file_rereads_the_manifest_five_times(program: Path) -> None:
    r = run(program, "--check", FIXTURES / "cases" / "missing-file")
    assert r.returncode == 2 and "read the manifest 5 times" in r.stderr


def test_conformance_vectors(program: Path) -> None:
    r = run(program, "--vectors", FIXTURES / "vectors.txt", TABLES)
    assert r.returncode == 0, r.stderr
    assert re.fullmatch(r".*vectors\.txt: 10\d\d\d hands, 0 wrong or malformed\n", r.stdout), r.stdout


def test_conformance_vectors_sanitized(sanitized: Path, tmp_path: Path) -> None:
    lines = (FIXTURES / "vectors.txt").read_text(encoding="utf-8").splitlines(keepends=True)
    part = tmp_path / "part.txt"
    part.write_text("".join(lines[:3000]), encoding="utf-8")
    r = run(sanitized, "--vectors", part, TABLES, sanitizers=True)
    assert r.returncode == 0, r.stderr
    assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr


def test_vectors_report_a_wrong_value(program: Path, tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("As Ks Qs Js Ts\t7462\nAs Ks Qs Js Ts\t7000\nAs Ks\t1\nAs Ks Qs Js Ts 7462\n", encoding="utf-8")
    r = run(program, "--vectors", wrong, TABLES)
    assert r.returncode == 1
    assert "wrong.txt: 2 hands, 3 wrong or malformed" in r.stdout
    assert "expected 7000, dag5 gives 7462, dag7 gives 7462" in r.stderr
