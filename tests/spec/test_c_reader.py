"""The C reader in ``examples/c`` agrees with the Python runtime and passes the conformance fixtures.

It is built with the system C compiler into a scratch directory (the tests
are skipped when there is none), warning-free under ``-Wall -Wextra
-Werror``, and again with the address and undefined-behaviour sanitizers.
It is fed random hands, every 7-card hand, bad input, bad tables, every case
of ``spec/conformance`` and the conformance vectors, in hold'em and, with
``--game``, in both short decks (section 13 of the spec). It proves that
``spec/README.md`` is enough to read the tables from another language.
"""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from twoplustwo.hands.batch import evaluate, evaluate_batch
from twoplustwo.hands.value_counts import histogram
from twoplustwo.kernels.games import resolve
from twoplustwo.tables.format import MANIFEST
from twoplustwo.tables.load import default_path
from twoplustwo.vocab.cards import RANKS, SUITS, format_cards
from twoplustwo.vocab.values import CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST, HAND_COUNTS, categories

SOURCE = Path(__file__).resolve().parents[2] / "examples" / "c" / "eval.c"
TABLES = default_path()

#: Published 7-card category counts, by category name.
PUBLISHED_7 = dict(zip(CATEGORIES, HAND_COUNTS[7][0]))

FIXTURES = Path(__file__).resolve().parents[2] / "spec" / "conformance"
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
    # -O0: the sanitizers check every access as written, and the build takes a third of the time at -O1.
    exe, r = _build(tmp, ["-O0", "-g", *WARNINGS, *SANITIZERS])
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


def _children_cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def test_all_hands_category_counts(program: Path) -> None:
    cpu = _children_cpu_seconds()
    r = run(program, "--all", TABLES)
    # CPU time, not the wall time the reader reports: the machine may be busy.
    cpu = _children_cpu_seconds() - cpu
    assert r.returncode == 0, r.stderr
    fields = dict(line.split() for line in r.stdout.splitlines())
    counts = {name: int(fields[name]) for name in CATEGORIES}
    assert counts == PUBLISHED_7
    assert int(fields["total"]) == 133_784_560
    hist = histogram(7)
    by_category = {
        name: int(hist[lo : hi + 1].sum()) for name, lo, hi in zip(CATEGORIES, CATEGORY_FIRST, CATEGORY_LAST)
    }
    assert counts == by_category
    seconds = float(fields["seconds"])
    print(f"C reader: all 133,784,560 seven-card hands in {seconds:.3f} s ({cpu:.3f} s of CPU)")
    assert cpu < 30


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


@pytest.mark.parametrize("which", ["manifest", "array"])
def test_a_fifo_in_the_set_is_refused_not_waited_on(program: Path, tmp_path: Path, which: str) -> None:
    # Checklist R10: a FIFO where a file should be would block open() forever.
    copy = _linked_copy(tmp_path)
    if which == "manifest":
        path = copy / MANIFEST
    else:
        name = next(f["name"] for f in json.loads((copy / MANIFEST).read_text())["files"] if f["role"] == "dag5/layer1")
        path = copy / name
    path.unlink()
    os.mkfifo(path)
    r = subprocess.run([str(program), str(copy)], input="As Ks Qs Js Ts\n", capture_output=True, text=True, timeout=20)
    assert r.returncode == 2 and f"{path}: not a regular file" in r.stderr, r.stderr


def test_real_tables_check_and_verify(program: Path) -> None:
    # Every sha256 of the real set, computed by the reader's own SHA-256.
    r = run(program, "--check", "--verify", TABLES)
    assert r.returncode == 0, r.stderr
    assert "sha256 verified" in r.stdout


@pytest.mark.parametrize("rounds", [(2,), (2, 3), (2, 4), (2, 5), (2, 3, 1, 1), (1, 1, 1), (3, 4)])
def test_the_suit_isomorphic_index_matches_python(program: Path, rounds: tuple[int, ...]) -> None:
    from twoplustwo import HandIndexer, format_cards

    rng = np.random.default_rng(sum(rounds))
    hands = np.argsort(rng.random((400, 52)), axis=1)[:, : sum(rounds)].astype(np.uint8)
    r = run(program, "--index", ",".join(map(str, rounds)), stdin="\n".join(format_cards(h.tolist()) for h in hands))
    assert r.returncode == 0, r.stderr
    assert [int(x) for x in r.stdout.split()] == HandIndexer(rounds).index(hands).tolist()
    bad = run(program, "--index", "2,3", stdin="As Ks Qs Js\nAs As 2c 3d 4h\n")
    assert bad.returncode == 1 and bad.stderr.count("\n") == 2, bad.stderr


def test_strength_lookups_say_which_table_the_set_lacks(program: Path) -> None:
    # The real set carries no strength tables (make strength adds them): each line says so.
    r = run(program, "--strength", TABLES, stdin="As Ah Kd 7c 2h\nAs Ah\nAs Ah Kd\n")
    assert r.returncode == 1 and r.stdout == ""
    assert "no strength/flop/sum table" in r.stderr and "no strength/preflop/sum table" in r.stderr
    assert "0, 3, 4 or 5 board cards" in r.stderr


def test_strength_lookups_read_a_street_from_both_its_roles_or_refuse_it(program: Path, tmp_path: Path) -> None:
    # Section 14: a street is read from its two roles together; a set listing
    # only part of them is refused on that street, naming the missing role
    # (the preflop's files are small; the rule is the same on every street).
    from tests.tables.test_strength_roles import HANDS, read, set_on_disk, street_arrays, with_arrays

    arrays = street_arrays("preflop")
    needs = ["strength/preflop/sum", "strength/preflop/sum2"]
    whole = set_on_disk(tmp_path / "whole", {r: arrays[r] for r in needs})
    r = run(program, "--strength", whole, stdin=HANDS["preflop"] + "\n")
    assert r.returncode == 0, r.stderr
    want = read(with_arrays({r: arrays[r] for r in needs}), "preflop")
    assert want is not None
    *cards, ehs, ehs2 = r.stdout.split()
    assert (cards, float(ehs), float(ehs2)) == (HANDS["preflop"].split(), want.ehs[0], want.ehs2[0])
    for missing in reversed(needs):  # sum2 first: without it the reader read through a null pointer
        part = set_on_disk(tmp_path / missing.replace("/", "."), {k: a for k, a in arrays.items() if k != missing})
        r = run(program, "--strength", part, stdin=HANDS["preflop"] + "\n")
        assert (r.returncode, r.stdout) == (1, ""), r.stderr
        assert r.stderr.startswith("eval: line 1: ") and f"but not {missing}:" in r.stderr, r.stderr


def test_usage_errors(program: Path) -> None:
    for args in (["--bogus"], ["--all", "--check"], ["a", "b"], ["--vectors"], ["--game"], ["--strength", "--all"]):
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
        else:
            if "vectors" in case:
                v = run(exe, "--vectors", FIXTURES / case["vectors"], path, sanitizers=sanitizers)
                if v.returncode != 0:
                    failures.append(f"{case['name']}: vectors: {v.stderr.strip()[-2000:]}")
            if "strength" in case:
                failures += _strength_failures(exe, case, path, sanitizers)
    return failures


def _strength_failures(exe: Path, case: dict[str, Any], path: Path, sanitizers: bool) -> list[str]:
    """``eval --strength`` of every preflop class: served as the fixtures' README documents, or refused by name."""
    from tests.spec.test_conformance import tiny_strength
    from twoplustwo import HandIndexer

    holes = HandIndexer((2,)).unindex(np.arange(169, dtype=np.uint64))
    lines = "".join(format_cards(h.tolist()) + "\n" for h in holes)
    r = run(exe, "--strength", path, stdin=lines, sanitizers=sanitizers)
    name, boards = case["name"], comb(50, 5)
    if "Sanitizer" in r.stderr or "runtime error" in r.stderr:
        return [f"{name}: --strength: {r.stderr.strip()[-2000:]}"]
    if case["strength"] == {"preflop": "refuse"}:
        errors = r.stderr.splitlines()
        named = all(n in x for x in errors for n in case["names"])
        if r.returncode != 1 or r.stdout or len(errors) != 169 or not named:
            return [f"{name}: --strength should refuse each line naming {case['names']}: {r.stderr[-500:]!r}"]
        return []
    assert case["strength"] == {"preflop": "serve"}
    if r.returncode != 0:
        return [f"{name}: --strength: {r.stderr.strip()[-2000:]}"]
    for i, line in enumerate(r.stdout.splitlines()):
        first, second, _ = tiny_strength(i)
        want = [format_cards(holes[i].tolist()), first / (1980 * boards), second / (1980**2 * boards)]
        *cards, ehs, ehs2 = line.split()
        if [" ".join(cards), float(ehs), float(ehs2)] != want:
            return [f"{name}: --strength of class {i}: {line!r}, expected {want}"]
    return []


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


@pytest.mark.parametrize(("game", "count"), [("razz", 900), ("lowball-a5", 300), ("lowball-27", 300), ("badugi", 300)])
def test_the_game_vectors_through_their_dags(program: Path, game: str, count: int) -> None:
    # Razz walks its 7-card DAG as short deck does, the draw games their 5- and 4-card DAGs whole (section 13).
    r = run(program, "--vectors", FIXTURES / f"{game}-vectors.txt", "--game", game, TABLES)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(f"{game}-vectors.txt: {count} hands, 0 wrong or malformed\n"), r.stdout


def test_the_new_games_hands_and_sizes(program: Path) -> None:
    said = {
        "razz": ("8c 6d 4h 3s Ac Kd Kh", "-"),  # an entry without categories: "-"
        "stud": ("As 2d 3c 4h 5s Kd Kh", "straight"),  # hold'em's DAGs, by its entry's dags
        "lowball-27": ("7c 5d 4h 3s 2c", "high_card"),
        "badugi": ("Kc 4c 2d 3h", "three-card"),
    }
    for game, (hand, category) in said.items():
        r = run(program, "--game", game, TABLES, stdin=hand + "\n")
        assert r.returncode == 0 and r.stdout == f"{hand} {category} {evaluate(hand, game=game)}\n", r.stderr
    r = run(program, "--game", "badugi", TABLES, stdin="As 2d 3c 4h 5s\n")
    assert r.returncode == 1 and "5 cards, not a hand size of badugi" in r.stderr
    r = run(program, "--all", "--game", "lowball-a5", TABLES)
    assert r.returncode == 2 and "--all walks 7-card hands" in r.stderr


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


# ------------------------------------------------------------- other games

SHORT_DECKS = ("short-deck", "short-deck-classic")


def _category_names(game: str) -> list[str]:
    """The game's categories, weakest first, as the C reader prints them (one word each)."""
    return [name.replace(" ", "_") for name, _, _ in resolve(game).categories]


@pytest.fixture(scope="module")
def short_deck_hands() -> dict[int, np.ndarray]:
    """20,000 random hands of the short deck (cards 16..51) of each size 5, 6, 7."""
    rng = np.random.default_rng(20261122)
    return {n: rng.random((20_000, 36)).argsort(axis=1)[:, :n] + 16 for n in (5, 6, 7)}


def _hand_lines(hands: np.ndarray, rng: np.random.Generator, spelled: int) -> str:
    """Hands as text: the first ``spelled`` in mixed spellings of section 6.1, the rest canonical."""
    return "".join(
        (" ".join(_spell(c, rng) for c in h) if i < spelled else format_cards(h)) + "\n"
        for i, h in enumerate(hands.tolist())
    )


@pytest.mark.parametrize("game", SHORT_DECKS)
def test_short_deck_random_hands_match_python(
    program: Path, short_deck_hands: dict[int, np.ndarray], game: str
) -> None:
    rng = np.random.default_rng(8)
    names = _category_names(game)
    for hands in short_deck_hands.values():
        r = run(program, "--game", game, TABLES, stdin=_hand_lines(hands, rng, 2000))
        assert r.returncode == 0, r.stderr
        assert r.stderr == ""
        lines = r.stdout.splitlines()
        assert len(lines) == len(hands)
        got = np.array([int(line.rsplit(" ", 1)[1]) for line in lines])
        want = evaluate_batch(hands, game=game)
        np.testing.assert_array_equal(got, want)
        assert 1 <= want.min() and want.max() <= 1404
        cats = categories(want, game=game)
        for line, h, c, v in zip(lines, hands.tolist(), cats.tolist(), want.tolist()):
            assert line == f"{format_cards(h)} {names[c]} {v}"
    # --dag7 changes nothing outside hold'em: every game walks its dag7.
    hands = short_deck_hands[5][:500]
    r = run(program, "--game", game, "--dag7", TABLES, stdin=_hand_lines(hands, rng, 0))
    assert r.returncode == 0, r.stderr
    np.testing.assert_array_equal(
        [int(x.rsplit(" ", 1)[1]) for x in r.stdout.splitlines()], evaluate_batch(hands, game=game)
    )


@pytest.mark.parametrize("game", SHORT_DECKS)
def test_short_deck_all_hands_category_counts(program: Path, game: str) -> None:
    r = run(program, "--all", "--game", game, TABLES)
    assert r.returncode == 0, r.stderr
    lines = r.stdout.splitlines()
    fields = dict(line.split() for line in lines)
    hist = histogram(7, game=game)
    want = {name.replace(" ", "_"): int(hist[first : last + 1].sum()) for name, first, last in resolve(game).categories}
    assert {name: int(fields[name]) for name in want} == want
    assert int(fields["total"]) == comb(36, 7) == int(hist.sum())
    # Strongest first, in the game's own order (a flush beats a full house).
    assert [line.split()[0] for line in lines[:9]] == _category_names(game)[::-1]
    assert len(lines) == 11


def test_short_deck_bad_lines(program: Path) -> None:
    good = ["As Kd 7h 7c 6s 8d 9c", "a♥ 6h 7h 8h 9h", "10c,jc, qc kc AC 6d"]
    lines = [
        good[0],
        "As Kd 7h 7c 2s 8d 9c",  # a deuce: not in the deck
        "5c 6c 7c 8c 9c",  # a five
        good[1],
        "As Kd 7h 7c 6s 8d 9c 8c",  # too many
        "Xs 6c 7c 8c 9c",  # not a card
        good[2],
    ]
    r = run(program, "--game", "short-deck", TABLES, stdin="\n".join(lines) + "\n")
    assert r.returncode == 1
    names = _category_names("short-deck")
    want = [evaluate(h, game="short-deck") for h in good]
    assert r.stdout.splitlines() == [
        f"{format_cards(h)} {names[int(c)]} {v}" for h, c, v in zip(good, categories(want, game="short-deck"), want)
    ]
    assert r.stdout.splitlines()[1] == "Ah 6h 7h 8h 9h straight_flush 1399"
    errors = r.stderr.splitlines()
    assert len(errors) == 4
    for lineno, error, pattern in zip(
        (2, 3, 5, 6),
        errors,
        (
            "card 4 \\('2s'\\): not in the short-deck deck",
            "card 0 \\('5c'\\): not in the short-deck deck",
            "more than 7",
            "'Xs'.*not a card",
        ),
    ):
        assert error.startswith(f"eval: line {lineno}: "), error
        assert re.search(pattern, error), error
    # Hold'em takes the deuce.
    assert run(program, TABLES, stdin=lines[1] + "\n").returncode == 0


def test_unknown_game_is_refused(program: Path) -> None:
    for name in ("pineapple", "", "Short-Deck", "holdem/dag7"):
        r = run(program, "--game", name, TABLES, stdin="As Ks Qs Js Ts\n")
        assert r.returncode == 2 and r.stdout == "", (name, r.stderr)
        assert len(r.stderr.splitlines()) == 1, r.stderr
        assert f"unknown game '{name}'" in r.stderr
        assert "known games: holdem, short-deck, short-deck-classic, stud, stud-hilo, razz, lowball-27" in r.stderr
    # hold'em by name is the default.
    assert run(program, "--game", "holdem", TABLES, stdin="As Ks Qs Js Ts\n").stdout == (
        "As Ks Qs Js Ts straight_flush 7462\n"
    )


def _edit(copy: Path, change: Any) -> None:
    manifest = json.loads((copy / MANIFEST).read_text())
    change(manifest)
    (copy / MANIFEST).write_text(json.dumps(manifest))


def test_set_without_the_game(program: Path, tmp_path: Path) -> None:
    copy = _linked_copy(tmp_path)
    original = (copy / MANIFEST).read_text()
    hand = "As Kd 7h 7c 6s 8d 9c\n"

    def refused(game: str, *patterns: str) -> None:
        r = run(program, "--game", game, copy, stdin=hand)
        assert r.returncode == 2 and r.stdout == "" and len(r.stderr.splitlines()) == 1, r.stderr
        for p in patterns:
            assert p in r.stderr, (p, r.stderr)

    def loads(*args: str) -> None:
        r = run(program, *args, copy, stdin=hand)
        assert r.returncode == 0 and r.stderr == "", (args, r.stderr)

    def drop_roles(m: dict[str, Any], game: str) -> None:
        m["files"] = [f for f in m["files"] if not f["role"].startswith(f"{game}/")]

    # The games entry without the roles: a table error naming the role.
    _edit(copy, lambda m: drop_roles(m, "short-deck"))
    refused("short-deck", "manifest.json", "no short-deck DAG", "short-deck/dag7/layer1")
    loads("--game", "short-deck-classic")
    loads("--check")
    loads()

    # One role of the nine missing.
    (copy / MANIFEST).write_text(original)
    _edit(copy, lambda m: m.update(files=[f for f in m["files"] if f["role"] != "short-deck/dag7/value6"]))
    refused("short-deck", "no short-deck DAG", "short-deck/dag7/value6")

    # The roles without the games entry (section 13: the game's reader refuses it).
    (copy / MANIFEST).write_text(original)
    _edit(copy, lambda m: m["games"].pop("short-deck"))
    refused("short-deck", "manifest.json", "games has no entry 'short-deck'")
    loads("--game", "short-deck-classic")

    # Neither: an unknown game, among the games the set knows.
    (copy / MANIFEST).write_text(original)
    _edit(copy, lambda m: (m["games"].pop("short-deck"), drop_roles(m, "short-deck")))
    refused("short-deck", "unknown game 'short-deck'", "known games: holdem, short-deck-classic")

    # A set built before games were added: hold'em only.
    (copy / MANIFEST).write_text(original)
    _edit(copy, lambda m: (m.pop("games"), drop_roles(m, "short-deck"), drop_roles(m, "short-deck-classic")))
    refused("short-deck-classic", "unknown game 'short-deck-classic'", "known games: holdem ")
    loads("--check")


def test_damaged_games_entry_stops_that_game_only(program: Path, tmp_path: Path) -> None:
    copy = _linked_copy(tmp_path)
    original = (copy / MANIFEST).read_text()
    cases: list[tuple[Any, str]] = [
        (lambda e: e["categories"][3].__setitem__(2, 881), "games['short-deck'].categories"),
        (lambda e: e.update(deck=[17, 16]), "games['short-deck'].deck"),
        (lambda e: e.update(values=1404.0), "games['short-deck'].values"),
        (lambda e: e.update(dags=["dag7"]), "games['short-deck'].dags"),
        (lambda e: e.update(sizes=[4, 5]), "games['short-deck'].sizes"),
    ]
    for change, pattern in cases:
        (copy / MANIFEST).write_text(original)
        _edit(copy, lambda m, change=change: change(m["games"]["short-deck"]))
        r = run(program, "--game", "short-deck", copy, stdin="As Kd 7h 7c 6s 8d 9c\n")
        assert r.returncode == 2 and pattern in r.stderr and len(r.stderr.splitlines()) == 1, (pattern, r.stderr)
        # Hold'em never reads games, and the other variant reads its own entry.
        for args in ([], ["--game", "short-deck-classic"], ["--check"]):
            r = run(program, *args, copy, stdin="As Kd 7h 7c 6s 8d 9c\n")
            assert r.returncode == 0, (pattern, args, r.stderr)
    # Without categories, the short decks fall back on section 13.1's.
    (copy / MANIFEST).write_text(original)
    _edit(copy, lambda m: m["games"]["short-deck"].pop("categories"))
    r = run(program, "--game", "short-deck", copy, stdin="Ah 6h 7h 8h 9h\nAs Kd 7h 7c 6s 8d 9c\n")
    assert r.stdout == "Ah 6h 7h 8h 9h straight_flush 1399\nAs Kd 7h 7c 6s 8d 9c straight 877\n", r.stderr


def _damage_entry(copy: Path, role: str, value: int) -> str:
    """Entry 0 of the file of ``role`` in the linked copy becomes ``value``; returns the file's name."""
    manifest = json.loads((copy / MANIFEST).read_text())
    f = next(f for f in manifest["files"] if f["role"] == role)
    data = bytearray((copy / f["name"]).read_bytes())
    width = {"|u1": 1, "<u2": 2, "<u4": 4}[f["dtype"]]
    data[f["offset"] : f["offset"] + width] = min(value, 256**width - 1).to_bytes(width, "little")
    (copy / f["name"]).unlink()
    (copy / f["name"]).write_bytes(bytes(data))
    return str(f["name"])


def test_game_roles_are_checked(program: Path, tmp_path: Path) -> None:
    # Every listed game role is checked like hold'em's, whichever game is evaluated.
    copy = _linked_copy(tmp_path)
    original = (copy / MANIFEST).read_text()
    nodes = json.loads(original)["nodes"]["short-deck/dag7"]
    for change, pattern in [
        (lambda m: m["nodes"].pop("short-deck/dag7"), "nodes['short-deck/dag7']"),
        (lambda m: m["nodes"]["short-deck/dag7"].__setitem__(3, nodes[3] + 1), "short-deck/dag7/layer4 has"),
        (lambda m: m["files"].append(dict(m["files"][-1])), "appears twice"),
        (
            lambda m: next(f for f in m["files"] if f["role"] == "short-deck-classic/dag7/layer2").update(offset=100),
            "short-deck-classic/dag7/layer2: offset",
        ),
    ]:
        (copy / MANIFEST).write_text(original)
        _edit(copy, change)
        for args in ([], ["--check"], ["--game", "short-deck-classic"]):
            r = run(program, *args, copy, stdin="As Ks Qs Js Ts\n")
            assert r.returncode == 2 and pattern in r.stderr and len(r.stderr.splitlines()) == 1, (pattern, r.stderr)
    (copy / MANIFEST).write_text(original)

    # A node entry out of range: refused by the range check, whatever the game.
    name = _damage_entry(copy, "short-deck/dag7/layer3", nodes[3])
    r = run(program, "--check", copy)
    assert r.returncode == 2 and "out of range" in r.stderr and name in r.stderr, r.stderr
    assert "short-deck/dag7/layer3" in r.stderr

    # A value above the game's 1404: refused when that game is evaluated.
    (tmp_path / "values").mkdir()
    copy = _linked_copy(tmp_path / "values")
    name = _damage_entry(copy, "short-deck/dag7/value5", 1405)
    r = run(program, "--check", "--game", "short-deck", copy)
    assert r.returncode == 2 and "not a value of short-deck" in r.stderr and name in r.stderr, r.stderr
    for args in (["--check"], ["--check", "--game", "short-deck-classic"]):
        r = run(program, *args, copy)
        assert r.returncode == 0, r.stderr
        assert "but other games' values" in r.stdout
    # --verify catches it whatever the game.
    r = run(program, "--check", "--verify", copy)
    assert r.returncode == 2 and "sha256" in r.stderr and name in r.stderr


def test_real_tables_check_every_game(program: Path) -> None:
    # Every file is hashed whatever the game (test_real_tables_check_and_verify): once here is enough.
    for game, verify in zip(SHORT_DECKS, (["--verify"], [])):
        r = run(program, "--check", *verify, "--game", game, TABLES)
        assert r.returncode == 0, r.stderr
        assert "61 files" in r.stdout and ("sha256 verified" in r.stdout) == bool(verify)
        assert f"game {game}: 36 cards, values 1..1404 in 9 categories" in r.stdout


def _short_deck_vectors(path: Path, hands: dict[int, np.ndarray], game: str, each: int) -> int:
    rng = np.random.default_rng(9)
    lines = []
    for h in hands.values():
        values = evaluate_batch(h[:each], game=game)
        lines += [f"{' '.join(_spell(c, rng) for c in cards)}\t{v}\n" for cards, v in zip(h[:each].tolist(), values)]
    path.write_text("# short-deck vectors\n" + "".join(lines), encoding="utf-8")
    return len(lines)


@pytest.mark.parametrize("game", SHORT_DECKS)
def test_short_deck_vectors(program: Path, short_deck_hands: dict[int, np.ndarray], tmp_path: Path, game: str) -> None:
    vectors = tmp_path / "vectors.txt"
    count = _short_deck_vectors(vectors, short_deck_hands, game, 2000)
    r = run(program, "--vectors", vectors, "--game", game, TABLES)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith(f"vectors.txt: {count} hands, 0 wrong or malformed\n")
    # The other variant ranks straights and trips the other way round.
    other = SHORT_DECKS[1 - SHORT_DECKS.index(game)]
    r = run(program, "--vectors", vectors, "--game", other, TABLES)
    assert r.returncode == 1 and f"{other}/dag7 gives" in r.stderr
    # A deuce, a wrong value.
    wrong = tmp_path / "wrong.txt"
    wrong.write_text("As Ks Qs Js Ts\t1404\nAs Ks Qs Js Ts\t1403\n2s Ks Qs Js Ts\t1\n", encoding="utf-8")
    r = run(program, "--vectors", wrong, "--game", game, TABLES)
    assert r.returncode == 1
    assert "wrong.txt: 2 hands, 2 wrong or malformed" in r.stdout
    assert f"expected 1403, {game}/dag7 gives 1404" in r.stderr
    assert "not in the" in r.stderr


def test_conformance_tiny_game(program: Path, tmp_path: Path) -> None:
    """The game-roles case's made-up game: data alone, a walk of its DAG gives tiny-vectors' values plus one."""
    case = FIXTURES / "cases" / "game-roles"
    r = run(program, "--check", "--game", "tiny", case)
    assert r.returncode == 0, r.stderr
    plus_one = tmp_path / "tiny-plus-one.txt"
    lines = (FIXTURES / "tiny-vectors.txt").read_text(encoding="utf-8").splitlines()
    plus_one.write_text(
        "".join(f"{cards}\t{int(v) + 1}\n" for cards, v in (x.split("\t") for x in lines if not x.startswith("#"))),
        encoding="utf-8",
    )
    r = run(program, "--vectors", plus_one, "--game", "tiny", case)
    assert r.returncode == 0, r.stderr
    r = run(program, "--game", "tiny", case, stdin="As 2c 3c 4c 5c 7d 8h\n")
    assert r.stdout == "As 2c 3c 4c 5c 7d 8h any 7102\n"
    r = run(program, "--game", "short-deck", case, stdin="As 2c 3c 4c 5c 7d 8h\n")
    assert r.returncode == 2 and "known games: holdem, tiny" in r.stderr


def test_game_sanitized(sanitized: Path, short_deck_hands: dict[int, np.ndarray], tmp_path: Path) -> None:
    def clean(r: subprocess.CompletedProcess[str]) -> None:
        assert "Sanitizer" not in r.stderr and "runtime error" not in r.stderr, r.stderr

    vectors = tmp_path / "vectors.txt"
    _short_deck_vectors(vectors, short_deck_hands, "short-deck-classic", 1000)
    r = run(sanitized, "--vectors", vectors, "--game", "short-deck-classic", TABLES, sanitizers=True)
    clean(r)
    assert r.returncode == 0, r.stderr
    r = run(sanitized, "--game", "short-deck", TABLES, stdin="As Kd 7h 7c 7s 8d 9c\n2c 6c 7c 8c 9c\n", sanitizers=True)
    clean(r)
    trips = evaluate("As Kd 7h 7c 7s 8d 9c", game="short-deck")
    assert r.returncode == 1 and r.stdout == f"As Kd 7h 7c 7s 8d 9c three_of_a_kind {trips}\n"
    assert "'2c'" in r.stderr
    r = run(sanitized, "--all", "--game", "short-deck", TABLES, sanitizers=True)
    clean(r)
    assert r.returncode == 0 and "total            8347680" in r.stdout
    r = run(sanitized, "--check", "--game", "short-deck", TABLES, sanitizers=True)
    clean(r)
    assert r.returncode == 0
    r = run(sanitized, "--game", "pineapple", TABLES, sanitizers=True)
    clean(r)
    assert r.returncode == 2 and "unknown game 'pineapple'" in r.stderr
    r = run(sanitized, "--vectors", FIXTURES / "razz-vectors.txt", "--game", "razz", TABLES, sanitizers=True)
    clean(r)
    assert r.returncode == 0, r.stderr
    tiny = FIXTURES / "cases" / "game-roles"
    r = run(sanitized, "--vectors", FIXTURES / "tiny-vectors.txt", "--game", "tiny", tiny, sanitizers=True)
    clean(r)
    assert r.returncode == 1  # every value one off
