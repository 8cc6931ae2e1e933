"""Fuzzing every entry point users feed by hand: only ValueError or TypeError escapes.

Hypothesis throws random strings (any unicode, card-like fragments glued
with odd separators), ints of any size and sign, floats, None, bools, bytes,
nested containers and numpy arrays of random shapes and dtypes at
``parse_cards``, ``evaluate``, ``evaluate_batch``, ``equity`` and the
command line. The properties:

- a refusal is a ``ValueError`` or ``TypeError`` with a non-empty message,
  never anything else;
- an accepted hand has a value in 1..7462, the same through the single and
  the batch path, and the single path accepts exactly what ``parse_cards``
  accepts (so a fast path cannot silently read garbage);
- the command returns a non-zero int and prints exactly one stderr line
  ``twoplustwo: error: ...`` for bad input, and nothing on stderr when it
  succeeds; it never raises, not even ``SystemExit``.

Each input is drawn once and given to every installed backend
(``every_backend``, tests/conftest.py), which must each hold the properties
and agree with each other: the same value, or the same refusal and message.
Runs are derandomized and use no example database, so CI sees the same
inputs every time. :data:`EXAMPLES` holds the examples per property; their
sum, :data:`INPUTS_FUZZED`, is the figure quoted in the README.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from twoplustwo.cli import main
from twoplustwo.hands.batch import evaluate, evaluate_batch
from twoplustwo.odds.equity import equity
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import format_cards, parse_cards

ROOT = Path(__file__).resolve().parents[2]
# Hypothesis notes the strategy on an exception raised while drawing (a rejected draw included) and warns once that
# the repr of these large strategies is long: it is the strategies', not a finding.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr:hypothesis.errors.HypothesisWarning")

#: Examples per property. Sized so the file runs in well under a minute.
EXAMPLES: dict[str, int] = {
    "parse_cards": 2500,
    "evaluate": 2500,
    "evaluate hand-like": 3000,
    "evaluate_batch": 1500,
    "evaluate_batch valid": 300,
    "equity": 400,
    "cli": 800,
    "cli subprocess": 8,
}
#: Fixed command lines run in subprocesses besides the generated ones:
#: (argv, extra environment, id).
EDGE_CASES: list[tuple[list[str | bytes], dict[str, str], str]] = [
    # Not UTF-8: Python hands it over surrogate-escaped.
    ([b"eval", b"\xff\xfeAs", b"Ks Qs Js Ts"], {}, "non-utf8-argv"),
    # The message echoes a suit symbol that an ASCII stderr cannot encode.
    (["eval", "A\u2660 K\u2660 Q\u2660 J\u2660 X\u2660"], {"PYTHONIOENCODING": "ascii"}, "ascii-stderr"),
    (["equity", "AsAh", "KdKc", "--board", "Q" * 10_000], {}, "huge-word"),
    (["eval", "As Ks Qs Js Ts"], {"TWOPLUSTWO_TABLES": "/nonexistent/twoplustwo"}, "no-tables"),
]
INPUTS_FUZZED = sum(EXAMPLES.values()) + len(EDGE_CASES)

# Derandomized and database-less: the same inputs on every machine and run.
# Health checks are off because some strategies filter or are slow to draw
# on purpose (big arrays, recursive containers); that is not a test defect.
_BASE = settings(
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=list(HealthCheck),
)


def fuzz(name: str) -> settings:
    """The settings of one property: the base profile with its example budget."""
    return settings(_BASE, max_examples=EXAMPLES[name])


# ------------------------------------------------------------------ strategies

RANK_BITS = list("23456789TJQKA") + ["t", "j", "q", "k", "a", "10", "1", "0", "11", "X", "", "٣", "²", "Ａ"]
SUIT_BITS = list("cdhsCDHS♣♦♥♠♧♢♡♤") + ["♠\ufe0f", "\ufe0f", "x", "", "🂡", "s\u0301", "ß"]
SEPARATORS = [" ", "", ",", ", ", " ,", ",,", "\t", "\n", "\r\n", "\u00a0", "\u3000", "  ", ";", "|", "\x00", "\ufe0f"]

card_text = st.builds(str.__add__, st.sampled_from(RANK_BITS), st.sampled_from(SUIT_BITS))
card_strings = st.lists(st.tuples(card_text, st.sampled_from(SEPARATORS)), max_size=10).map(
    lambda parts: "".join(c + s for c, s in parts)
)
valid_hand = st.integers(5, 7).flatmap(
    lambda k: st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True)
)
# A valid hand written out in one of the accepted text forms, blanks or not.
valid_hand_text = st.tuples(valid_hand, st.sampled_from([" ", "", ",", ", ", "\n"]), st.booleans()).map(
    lambda t: t[1].join(format_cards(t[0]).split()).lower() if t[2] else t[1].join(format_cards(t[0]).split())
)

big_ints = st.sampled_from([2**31, 2**32, 2**63 - 1, 2**63, 2**64, -(2**63) - 1, 10**100, -(10**100), 10**4000])
ints = st.one_of(st.integers(), st.integers(-110, 110), big_ints)
floats = st.one_of(st.floats(), st.integers(0, 51).map(float))
INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", ">i4", "<u2"]
OTHER_DTYPES = ["float16", "float32", "float64", "bool", "complex128", "U3", "S3", "M8[s]", "m8[s]"]


@st.composite
def numpy_scalars(draw: st.DrawFn) -> Any:
    dt = np.dtype(draw(st.sampled_from(INT_DTYPES + OTHER_DTYPES)))
    return draw(hnp.arrays(dt, ()))[()]


scalars = st.one_of(
    st.none(),
    st.booleans(),
    ints,
    floats,
    st.text(max_size=20),
    card_text,
    card_strings,
    st.binary(max_size=10),
    st.builds(bytearray, st.binary(max_size=10)),
    st.complex_numbers(max_magnitude=100),
    numpy_scalars(),
    st.sampled_from([object(), Ellipsis, NotImplemented, slice(1, 5), range(5), range(7), type]),
)


@st.composite
def arrays(draw: st.DrawFn, shapes: st.SearchStrategy[tuple[int, ...]] | None = None) -> np.ndarray:
    """A numpy array of a random dtype and shape, biased towards card-like entries."""
    if shapes is None:
        shapes = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=8)
    shape = draw(shapes)
    name = draw(st.sampled_from(INT_DTYPES + OTHER_DTYPES + ["object"]))
    if name == "object":
        size = int(np.prod(shape))
        items = draw(st.lists(st.one_of(ints, card_text, st.none(), floats), min_size=size, max_size=size))
        out = np.empty(len(items), dtype=object)
        for i, item in enumerate(items):  # a slice assignment would unpack nested items
            out[i] = item
        return out.reshape(shape)
    dt = np.dtype(name)
    # Mostly cards 0..51, so some arrays are valid hands; otherwise anything the dtype holds.
    elements = st.one_of(st.integers(0, 51), hnp.from_dtype(dt)) if dt.kind in "iu" else hnp.from_dtype(dt)
    return draw(hnp.arrays(dt, shape, elements=elements))


anything = st.recursive(
    st.one_of(scalars, arrays()),
    lambda children: st.one_of(
        st.lists(children, max_size=8),
        st.lists(children, max_size=8).map(tuple),
        st.dictionaries(st.text(max_size=3), children, max_size=3),
        st.frozensets(st.one_of(ints, card_text), max_size=7),
    ),
    max_leaves=12,
)

# Close to a hand: 4 to 8 entries of card-ish things, as a list or a tuple.
# Seven plain ints reach the fast path of evaluate, so these are over-represented.
card_ish = st.one_of(
    st.integers(0, 51),
    st.integers(-110, 110),
    big_ints,
    card_text,
    st.booleans(),
    st.integers(0, 51).map(np.int64),
    st.integers(0, 51).map(np.uint8),
    st.integers(0, 51).map(float),
    st.none(),
)
hand_like = st.one_of(
    st.lists(card_ish, min_size=4, max_size=8),
    st.lists(card_ish, min_size=7, max_size=7).map(tuple),
    st.lists(st.integers(-110, 110), min_size=7, max_size=7, unique=True),
    valid_hand,
    valid_hand.map(tuple),
    valid_hand.map(np.array),
    valid_hand_text,
)


# ---------------------------------------------------------------- properties


def refused(e: BaseException) -> None:
    """A refusal must be a ValueError or TypeError with something to say."""
    assert isinstance(e, (ValueError, TypeError)), f"{type(e).__name__} escaped: {e!r}"
    assert str(e).strip(), f"{type(e).__name__} without a message"


def outcome(what: str, fn: Callable[[], Any]) -> Any:
    """``fn()``, or the ValueError or TypeError it raised (anything else propagates).

    Records whether ``what`` accepted or refused the input, so
    ``pytest --hypothesis-show-statistics`` shows that both sides are reached.
    """
    try:
        result = fn()
    except (ValueError, TypeError) as e:
        refused(e)
        event(f"{what}: refused ({type(e).__name__})")
        return e
    event(f"{what}: accepted")
    return result


def said(got: object) -> object:
    """What a call gave, as the backends must agree on it: its value, or its refusal's type and message."""
    return (type(got).__name__, str(got)) if isinstance(got, Exception) else got


def on_every_backend(every_backend: dict[str, Tables], check: Callable[[Tables], object]) -> None:
    """``check(tables)`` on each backend's tables; what each gives must be the same."""
    seen = {name: check(tables) for name, tables in every_backend.items()}
    first = next(iter(seen.values()))
    for name, got in seen.items():
        assert got == first, f"{name} gave {got!r}, {next(iter(seen))} gave {first!r}"


def check_parse(cards: object) -> None:
    got = outcome("parse_cards", lambda: parse_cards(cards))  # type: ignore[arg-type]
    if isinstance(got, Exception):
        return
    assert isinstance(got, list) and all(type(c) is int and 0 <= c <= 51 for c in got)
    assert len(set(got)) == len(got)
    assert parse_cards(format_cards(got)) == got


def check_evaluate(cards: object, tables: Tables) -> object:
    want = outcome("parse_cards", lambda: parse_cards(cards))  # type: ignore[arg-type]
    got = outcome("evaluate", lambda: evaluate(cards, tables=tables))  # type: ignore[arg-type]
    if isinstance(got, Exception):
        # Refused: so parse_cards refuses it too, or it is not 5 to 7 cards.
        assert isinstance(want, Exception) or len(want) not in (5, 6, 7), (cards, got)
        return said(got)
    assert not isinstance(want, Exception), f"evaluate({cards!r}) = {got}, but parse_cards refuses it: {want}"
    assert type(got) is int and 1 <= got <= 7462
    assert got == int(evaluate_batch(np.array([want]), tables=tables)[0])
    return got


@pytest.mark.one_backend  # plain Python: no kernel runs
@fuzz("parse_cards")
@given(cards=st.one_of(anything, card_strings, st.text(), hand_like))
def test_parse_cards(cards: object) -> None:
    check_parse(cards)


@fuzz("evaluate")
@given(cards=st.one_of(anything, card_strings, st.text()))
def test_evaluate_anything(cards: object, every_backend: dict[str, Tables]) -> None:
    on_every_backend(every_backend, lambda t: check_evaluate(cards, t))


@fuzz("evaluate hand-like")
@given(cards=hand_like)
def test_evaluate_hand_like(cards: object, every_backend: dict[str, Tables]) -> None:
    on_every_backend(every_backend, lambda t: check_evaluate(cards, t))


batch_shapes = st.one_of(
    st.tuples(st.integers(0, 12), st.integers(4, 8)),
    hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=8),
)


@fuzz("evaluate_batch")
@given(
    hands=st.one_of(arrays(batch_shapes), anything, st.lists(st.lists(card_ish, min_size=5, max_size=5), max_size=4)),
    check=st.booleans(),
)
def test_evaluate_batch_anything(hands: object, check: bool, every_backend: dict[str, Tables]) -> None:
    def check_batch(tables: Tables) -> object:
        try:
            got = evaluate_batch(hands, check=check, tables=tables)  # type: ignore[arg-type]
        except IndexError:
            # check=False is documented as unchecked; an out-of-range card may then
            # fail the lookup. With the check on, it must be named instead.
            assert not check, f"IndexError escaped evaluate_batch({hands!r})"
            event("evaluate_batch: IndexError with check=False")
            return None
        except (ValueError, TypeError) as e:
            refused(e)
            event(f"evaluate_batch: refused ({type(e).__name__})")
            return said(e)
        event(f"evaluate_batch: accepted, check={check}")
        h = np.asarray(hands)
        assert got.dtype == np.uint16 and got.shape == (len(h),)
        if not check:
            return None  # unchecked: what garbage gives is not the backends' to agree on
        assert ((got >= 1) & (got <= 7462)).all()
        assert got.tolist() == [evaluate(row, tables=tables) for row in h.tolist()]
        return got.tolist()

    on_every_backend(every_backend, check_batch)


@fuzz("evaluate_batch valid")
@given(
    hands=st.integers(5, 7).flatmap(
        lambda k: st.lists(st.lists(st.integers(0, 51), min_size=k, max_size=k, unique=True), min_size=1, max_size=20)
    ),
    dtype=st.sampled_from(INT_DTYPES),
)
def test_evaluate_batch_valid_hands_any_integer_dtype(
    hands: list[list[int]], dtype: str, every_backend: dict[str, Tables]
) -> None:
    def check_valid(tables: Tables) -> object:
        want = [evaluate(h, tables=tables) for h in hands]
        a = np.array(hands, dtype=dtype)
        assert evaluate_batch(a, tables=tables).tolist() == want
        assert evaluate_batch(a, check=False, tables=tables).tolist() == want
        assert all(1 <= v <= 7462 for v in want)
        return want

    on_every_backend(every_backend, check_valid)


@pytest.mark.parametrize(
    "cards",
    [
        (20, 21, 22, 23, 24, 25, -53),  # reads As's bit: returns a value
        (20, 21, 22, 23, 24, 25, -104),  # reads 2c's bit: returns a value
        [20, 21, 22, 23, 24, -60, 25],  # a list, the wrapped card in the middle
        (-53, 20, 21, 22, 23, 24, 25),  # first card: IndexError from the layer-1 view
    ],
    ids=repr,
)
def test_negative_cards_on_the_fast_path_are_refused(cards: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match="out of range"):
        evaluate(cards)


# --------------------------------------------------------------------- equity


two_cards = st.lists(st.integers(0, 51), min_size=2, max_size=2, unique=True)
hole = st.one_of(
    two_cards,
    two_cards.map(format_cards),
    two_cards.map(lambda h: format_cards(h).replace(" ", "")),
    two_cards.map(np.array),
    st.lists(card_ish, min_size=1, max_size=3),
    card_strings,
)
card_group = st.one_of(st.just(()), st.lists(st.integers(0, 51), max_size=6, unique=True), card_strings, hole)


@st.composite
def deals(draw: st.DrawFn) -> tuple[list[Any], Any, Any]:
    """Mostly valid deals: 1 to 10 hands, a board of 0 to 6 cards and dead cards, all distinct."""
    players = draw(st.integers(1, 10))
    n_board = draw(st.sampled_from([0, 3, 4, 5, 0, 3, 4, 5, 1, 6]))
    n_dead = draw(st.integers(0, 6))
    deck = draw(st.permutations(range(52)))
    cards = deck[: 2 * players + n_board + n_dead]
    hands: list[Any] = [cards[2 * i : 2 * i + 2] for i in range(players)]
    board, dead = cards[2 * players : 2 * players + n_board], cards[2 * players + n_board :]
    text = draw(st.booleans())
    if text:  # the same deal written as strings
        hands = [format_cards(h).replace(" ", "") for h in hands]
        return hands, format_cards(board), ",".join(format_cards(dead).split())
    return hands, board, dead


@fuzz("equity")
@given(
    deal=st.one_of(
        deals(),
        st.tuples(
            st.one_of(st.lists(hole, max_size=10), st.lists(hole, max_size=4).map(tuple), anything),
            st.one_of(card_group, anything),
            st.one_of(card_group, anything),
        ),
    )
)
def test_equity(deal: tuple[Any, Any, Any], every_backend: dict[str, Tables]) -> None:
    on_every_backend(every_backend, lambda t: check_equity(deal, t))


def check_equity(deal: tuple[Any, Any, Any], tables: Tables) -> object:
    hands, board, dead = deal
    got = outcome("equity", lambda: equity(hands, board=board, dead=dead, tables=tables))
    if isinstance(got, Exception):
        return said(got)
    assert len(got) == len(hands)
    games = got[0].games
    assert games >= 1
    for r in got:
        assert r.games == games and r.wins >= 0 and r.ties >= 0 and r.wins + r.ties <= games
    # Every game's pot is shared out in full.
    assert sum(r.equity for r in got) == pytest.approx(1)
    known = parse_cards(board)
    if len(known) == 5 and all(r.combos is None for r in got):
        # One board left: the winners are those with the best seven-card value.
        values = [evaluate(parse_cards(h) + known, tables=tables) for h in hands]
        best = max(values)
        winners = [v == best for v in values]
        for r, won in zip(got, winners):
            alone = won and winners.count(True) == 1
            assert (r.wins, r.ties) == (int(alone), int(won and not alone))
    if any(r.stderr for r in got):
        return "sampled"  # Monte Carlo from fresh entropy: each backend deals its own games
    return [(r.wins, r.ties, r.games, None if r.combos is None else r.combos.tolist()) for r in got]


# ------------------------------------------------------------------ command line

# Words the parser knows, so the fuzzing gets past argparse into the commands.
# `build` and `verify` are left out: a valid build writes tables, a valid
# verify takes seconds; tests/cli/test_cli_tableset.py covers both.
COMMANDS = ["eval", "equity", "enumerate", "info", "install-tables"]
OPTIONS = ["--json", "--board", "--dead", "--include", "-n", "--to", "--help", "--version", "--", "-", "-h"]


def no_slash(word: str) -> str:
    # install-tables creates its --to directory: keep every path relative, and
    # so inside the temporary working directory the test runs in.
    return word.replace("/", "_").replace(os.sep, "_")


cli_words = st.one_of(
    st.sampled_from(COMMANDS + OPTIONS),
    card_text,
    card_strings,
    valid_hand_text,
    two_cards.map(lambda h: format_cards(h).replace(" ", "")),
    st.integers(-60, 120).map(str),
    ints.map(str),
    st.text(max_size=12),
).map(no_slash)
argv_lists = st.one_of(
    st.lists(cli_words, max_size=8),
    st.tuples(st.sampled_from(COMMANDS), st.lists(cli_words, max_size=7)).map(lambda t: [t[0], *t[1]]),
)


def check_cli_result(code: object, out: str, err: str) -> None:
    assert type(code) is int
    assert "Traceback" not in err
    if code == 0:
        assert err == ""  # success is quiet on stderr (help and version go to stdout)
        return
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("twoplustwo: error: ") and lines[0][len("twoplustwo: error: "):].strip()


@pytest.fixture(scope="module")
def scratch_cwd(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("cli-cwd")


@pytest.mark.one_backend  # the command line's own checks: the kernels' are fuzzed above on each backend
@fuzz("cli")
@given(argv=argv_lists)
def test_cli_in_process(argv: list[str], scratch_cwd: Path) -> None:
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(scratch_cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except BaseException as e:  # noqa: BLE001 - main must never raise, not even SystemExit
        pytest.fail(f"main({argv!r}) raised {type(e).__name__}: {e}")
    finally:
        os.chdir(here)
    event(f"exit code {code}")
    check_cli_result(code, out.getvalue(), err.getvalue())


def python_m(argv: list[str | bytes], **env: str) -> subprocess.CompletedProcess[bytes]:
    environ = dict(os.environ, **env)
    environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return subprocess.run(
        [sys.executable, "-m", "twoplustwo", *argv], capture_output=True, cwd=ROOT, env=environ, timeout=120
    )


def check_process(p: subprocess.CompletedProcess[bytes]) -> None:
    # Decode as the child wrote: stderr is UTF-8 with backslashreplace.
    check_cli_result(p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace"))


@pytest.mark.one_backend  # the command line's own checks: the kernels' are fuzzed above on each backend
@fuzz("cli subprocess")
@given(argv=st.lists(cli_words.map(lambda w: w.replace("\x00", "")), min_size=1, max_size=6))
def test_cli_subprocess(argv: list[str]) -> None:
    # The real interpreter, streams and exit code (NUL cannot go through execve).
    check_process(python_m(argv))


@pytest.mark.one_backend  # the command line's own checks: the kernels' are fuzzed above on each backend
@pytest.mark.parametrize(("argv", "env"), [c[:2] for c in EDGE_CASES], ids=[c[2] for c in EDGE_CASES])
def test_cli_subprocess_edge_cases(argv: list[str | bytes], env: dict[str, str]) -> None:
    p = python_m(argv, **env)
    assert p.returncode != 0
    check_process(p)
