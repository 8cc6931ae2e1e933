"""Each public call of odds/ resolves its game on its table set once and checks its input once, then passes it down.

``resolve`` is counted in every module of the package that imported it
(:func:`tests.resolving.count_resolves`), so a route that resolves the game
again, wherever it does, is seen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import twoplustwo.hands.batch
import twoplustwo.odds.cost
import twoplustwo.odds.counting
import twoplustwo.odds.equity
import twoplustwo.odds.exact
import twoplustwo.odds.montecarlo
import twoplustwo.odds.omaha
import twoplustwo.odds.preflop  # noqa: F401  (every module that may resolve, imported before counting)
from tests.resolving import count_resolves
from twoplustwo.kernels.games import walker_of
from twoplustwo.odds import montecarlo
from twoplustwo.odds.equity import equity
from twoplustwo.odds.preflop import BOARDS_HEADS_UP, preflop_matchups
from twoplustwo.tables.load import Tables
from twoplustwo.vocab.cards import parse_cards


@pytest.fixture
def resolved(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The games resolved during the test, one entry a call of ``resolve``, from whichever module."""
    return count_resolves(monkeypatch)


@pytest.mark.parametrize(
    ("players", "board", "game", "method"),
    [
        (["AsKs", "QhQd"], "Ts 9h 8c", "short-deck", "exact"),  # hands, listed in every game
        (["AsKs", "QhQd"], "Ts 9h 8c", "holdem", "exact"),  # hands, counted on the C backend
        (["QQ+,AKs", "AK"], "Qh 7c 2d", "holdem", "auto"),  # ranges: priced, then enumerated
        (["QQ+,AKs", "AK"], "Qh 7c 8d 6s", "short-deck-classic", "auto"),
        (["As Kh Qs 2d", "Ah Ks 5c 4c"], "2h 3d 4d", "omaha-hilo", "exact"),
    ],
)
def test_equity_resolves_once_when_it_enumerates(
    resolved: list[str], players: list[str], board: str, game: str, method: str
) -> None:
    results = equity(players, board=board, game=game, method=method, threads=2)
    assert results[0].stderr == 0  # enumerated
    assert resolved == ["holdem" if game.startswith("omaha") else game]


@pytest.mark.parametrize(
    ("players", "game"),
    [
        (["AsKs", "QQ"], "short-deck"),
        (["AsKs", "random"], "holdem"),
        (["As Kh Qs 2d", "Ah Ks 5c 4c"], "omaha"),
    ],
)
def test_equity_resolves_and_checks_once_when_it_samples(
    resolved: list[str], monkeypatch: pytest.MonkeyPatch, players: list[str], game: str
) -> None:
    # equity() has checked the players and the stopping rule: Monte Carlo takes them as they are.
    def again(*args: object) -> None:
        raise AssertionError("checked twice")

    stopping: list[tuple[object, ...]] = []
    check = montecarlo.check_stopping

    def once(*args: object) -> Any:
        stopping.append(args)
        return check(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(montecarlo, "check_players", again)
    monkeypatch.setattr(twoplustwo.odds.equity, "check_stopping", once)
    monkeypatch.setattr(montecarlo, "check_stopping", once)
    a, b = equity(players, game=game, method="monte-carlo", samples=2000, seed=5, threads=2)
    assert a.games == b.games == 2000 and a.stderr > 0
    assert stopping == [(None, 2000, 5)]
    assert resolved == ["holdem" if game.startswith("omaha") else game]


@pytest.mark.parametrize("game", ["holdem", "short-deck", "omaha"])
def test_monte_carlo_resolves_once(resolved: list[str], game: str) -> None:
    hands = ["As Kh Qs 2d", "Ah Ks 5c 4c"] if game == "omaha" else ["As Ks", "Qh Qd"]
    players = [(np.array([parse_cards(h)], dtype=np.uint8), np.ones(1)) for h in hands]
    a, _ = montecarlo.monte_carlo(players, hands, [False, False], [], [], samples=1000, seed=2, game=game)
    assert a.games == 1000
    assert resolved == ["holdem" if game == "omaha" else game]


def test_preflop_matchups_resolve_once(resolved: list[str]) -> None:
    # On the numpy backend each deal up to suit isomorphism is enumerated on the game resolved once,
    # not through a public equity() call per deal.
    grid = preflop_matchups(["AA"], ["KK"], threads=2, quiet=True)
    assert grid["AA", "KK"].games == 36 * BOARDS_HEADS_UP and grid["AA", "KK"].wins == 50371344
    assert resolved == ["holdem"]


@pytest.mark.parametrize("which", [0, 1])
def test_the_game_handed_down_is_the_callers_tables(
    resolved: list[str], monkeypatch: pytest.MonkeyPatch, both: tuple[Tables, Tables], which: int
) -> None:
    # Resolved once on the caller's set (C or numpy), not on the default one.
    t = both[which]
    seen: list[Any] = []
    deals: Callable[..., Any] = twoplustwo.odds.exact.deals

    def spy(*args: Any, **kw: Any) -> Any:
        seen.append(kw["game"])
        return deals(*args, **kw)

    monkeypatch.setattr(twoplustwo.odds.exact, "deals", spy)
    hero, _ = equity(["QQ+", "AKs"], board="2c 7d 9h", method="exact", tables=t)
    assert [g.tables for g in seen] == [t] and seen[0].walker is walker_of(t) and resolved == ["holdem"]
    assert hero.games > 0
