"""What the builder's tests share, made once a session: the builder's own bundle of the checkout's tables,
and every five-card hand and every short-deck hand with the oracles' values of them.

The arrays are read-only: several modules compare against the same ones.
"""

from __future__ import annotations

import zipfile
from pathlib import Path, PurePosixPath

import numpy as np
import pytest

from tests.wheels import Built
from twoplustwo_builder.dag.games import SHORT_DECK
from twoplustwo_builder.oracles import cactus_kev, categoriser, short_deck, signature, specialk
from twoplustwo_builder.testdata.hands import all_hands, deck_hands

SHORT_DECK_VARIANTS = ("short-deck", "short-deck-classic")


def _frozen(a: np.ndarray) -> np.ndarray:
    a.flags.writeable = False
    return a


@pytest.fixture(scope="session")
def real_bundle(checkout_wheel: Built, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundle of the tables at the default path, as ``write_bundle`` writes it (level 19, 20 s of CPU).

    Taken from the wheel ``pip wheel .`` builds (``checkout_wheel`` in tests/conftest.py), whose build
    writes it with ``write_bundle`` and which the wheel's tests build anyway: the suite compresses the
    set once.
    """
    with zipfile.ZipFile(checkout_wheel.wheel) as whl:
        (member,) = [n for n in whl.namelist() if n.startswith("twoplustwo/tables/bundled/")]
        path = tmp_path_factory.mktemp("dist") / PurePosixPath(member).name
        path.write_bytes(whl.read(member))
    return path


@pytest.fixture(scope="session")
def five_card_hands() -> np.ndarray:
    """All 2,598,960 five-card hands, sorted rows in lexicographic order."""
    return _frozen(np.concatenate(list(all_hands(5))))


@pytest.fixture(scope="session")
def oracle_five_card_values(five_card_hands: np.ndarray) -> dict[str, np.ndarray]:
    """Each oracle's values of every five-card hand, by the oracle's module name (about 3 s)."""
    oracles = (categoriser, cactus_kev, signature, specialk)
    return {oracle.__name__: _frozen(oracle.evaluate(five_card_hands)) for oracle in oracles}


@pytest.fixture(scope="session")
def short_deck_hands() -> dict[int, np.ndarray]:
    """Every 5-, 6- and 7-card hand of the short deck, sorted rows in lexicographic order (from the builder)."""
    return {n: _frozen(deck_hands(n, SHORT_DECK.deck)) for n in (5, 6, 7)}


@pytest.fixture(scope="session")
def short_deck_oracle(short_deck_hands: dict[int, np.ndarray]) -> dict[int, dict[str, np.ndarray]]:
    """The short-deck oracle's values of those hands, by size, then variant."""
    values = {n: short_deck.evaluate_variants(h, SHORT_DECK_VARIANTS) for n, h in short_deck_hands.items()}
    return {n: {v: _frozen(a) for v, a in by_variant.items()} for n, by_variant in values.items()}
