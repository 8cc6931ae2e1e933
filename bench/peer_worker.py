"""Run in the peers' virtualenv: ``python -m bench.peer_worker PEER ...`` times twoplustwo and each peer
in this one process, on the same hands and boards, and prints JSON.

Per call: :func:`bench.single_hands` as each library's own cards, made beforehand, one call per hand.
Equity: AsAh vs KdKc on every board in a Python loop; a loop expected to take over :data:`BUDGET_S`
runs on the first :data:`SLICE` boards and is extrapolated. A peer agrees when its results, mapped
so that higher is stronger, are a strictly increasing function of twoplustwo's values (it orders every
pair of hands alike), and when its equity counts equal twoplustwo's on the boards it ran.
"""

from __future__ import annotations

import hashlib
import json
import random
import struct
import sys
from collections.abc import Callable, Sequence
from importlib.metadata import version
from itertools import combinations, islice
from typing import Any

import twoplustwo

from . import REPEATS, SEED, best_of, say, single_hands

HERO, VILLAIN = (51, 50), (45, 44)  # As Ah, Kd Kc as rank * 4 + suit
REST = [c for c in range(52) if c not in HERO + VILLAIN]
BOARDS = 1_712_304  # C(48, 5)
BUDGET_S = 30.0
SLICE = 100_000
PROBE = 20_000
OMAHA_DEALS = 20_000
Route = tuple[str, Callable[..., int], str]


def card_name(card: int) -> str:
    return "23456789TJQKA"[card >> 2] + "cdhs"[card & 3]


def adapter(name: str) -> tuple[str, list[Any], list[Route], bool]:
    """Label, the library's 52 cards, its (call, function, call style) routes, and whether higher is stronger."""
    if name == "twoplustwo":
        route: Route = ("evaluate(cards)", twoplustwo.evaluate, "seq")
        return f"twoplustwo {twoplustwo.__version__}", list(range(52)), [route], True
    if name == "eval7":
        import eval7  # type: ignore[import-not-found]

        route = ("eval7.evaluate(cards)", eval7.evaluate, "seq")
        return f"eval7 {version(name)}", [eval7.Card(card_name(c)) for c in range(52)], [route], True
    if name == "phevaluator":
        import phevaluator as ph  # type: ignore[import-not-found]

        routes = [("phevaluator.evaluate_7cards(*cards)", ph.evaluate_7cards, "star"),
                  ("phevaluator.evaluate_cards(*cards)", ph.evaluate_cards, "star")]
        return f"phevaluator {version(name)}", [ph.Card(card_name(c)).id_ for c in range(52)], routes, False
    from treys import Card, Evaluator  # type: ignore[import-not-found]

    route = ("Evaluator().evaluate(hole, board)", Evaluator().evaluate, "pair")
    return f"treys {version(name)}", [Card.new(card_name(c)) for c in range(52)], [route], False


def shaped(hands: list[tuple[int, ...]], cards: list[Any], style: str) -> list[Any]:
    """The hands as the library's cards, as its call style takes them: one tuple, or (hole, board) lists."""
    if style == "pair":
        return [([cards[c] for c in h[:2]], [cards[c] for c in h[2:]]) for h in hands]
    return [tuple(cards[c] for c in h) for h in hands]


def calls(f: Callable[..., int], hands: Sequence[Any], style: str) -> None:
    """One call per hand, ``f(cards)``, ``f(*cards)`` or ``f(hole, board)``, with nothing in between."""
    if style == "seq":
        for h in hands:
            f(h)
    elif style == "star":
        for h in hands:
            f(*h)
    else:
        for hole, board in hands:
            f(hole, board)


def equity_loop(f: Callable[..., int], cards: Sequence[Any], style: str, higher_wins: bool, n: int) -> list[int]:
    """The hero's wins, ties and losses over the first ``n`` boards, evaluating both hands on each."""
    hero, villain = [tuple(cards[c] for c in hand) for hand in (HERO, VILLAIN)]
    boards = islice(combinations([cards[c] for c in REST], 5), n)
    # The style is settled before the loop, so that every library pays the same per board.
    if style == "seq":
        pairs = ((f(hero + b), f(villain + b)) for b in boards)
    elif style == "star":
        pairs = ((f(*hero, *b), f(*villain, *b)) for b in boards)
    else:
        hole_a, hole_b = list(hero), list(villain)
        pairs = ((f(hole_a, b), f(hole_b, b)) for b in map(list, boards))
    wins = ties = 0
    for a, b in pairs:
        if a == b:
            ties += 1
        elif (a > b) == higher_wins:
            wins += 1
    return [wins, ties, min(n, BOARDS) - wins - ties]


def digest(values: list[int]) -> str:
    """As :func:`bench.checksum` for values that fit in uint16, else over int64."""
    fmt = "H" if 0 <= min(values) and max(values) < 1 << 16 else "q"
    return hashlib.sha256(struct.pack(f"<{len(values)}{fmt}", *values)).hexdigest()[:12]


def ordered_like(values: list[int], scores: list[int]) -> bool:
    """Whether ``scores`` is a strictly increasing function of ``values``: one score per value, rising with it."""
    pairs = sorted(set(zip(values, scores)))
    return all(a[0] < b[0] and a[1] < b[1] for a, b in zip(pairs, pairs[1:]))


def main(names: list[str]) -> None:
    hands = single_hands()
    per_call: list[dict[str, Any]] = []
    equity: list[dict[str, Any]] = []
    notes: list[str] = []
    ours: list[int] = []
    ours_counts: list[int] = []
    for name in ["twoplustwo", *names]:
        try:
            label, cards, routes, higher = adapter(name)
            rates = []
            for call, f, style in routes:
                say(f"peers: {call}")
                prepared = shaped(hands, cards, style)
                calls(f, prepared[:100], style)
                rates.append((call, len(hands) / best_of(calls, f, prepared, style)[0]))
            call, f, style = routes[0]
            raw = [f(h) if style == "seq" else f(*h) for h in shaped(hands, cards, style)]
            values = raw if higher else [7463 - v for v in raw]  # Cactus Kev ranks: 1 is a royal flush
            say(f"peers: {name}: equity loop")
            probe_s = best_of(equity_loop, f, cards, style, higher, PROBE, repeats=1)[0]
            n = BOARDS if probe_s * BOARDS / PROBE <= BUDGET_S else SLICE
            seconds, counts = best_of(equity_loop, f, cards, style, higher, n, repeats=1)
        except Exception as e:  # one broken peer must not hide the others
            if name == "twoplustwo":
                raise
            notes.append(f"{name} failed while measuring: {type(e).__name__}: {e}")
            continue
        if name == "twoplustwo":
            ours, ours_counts = values, counts
            eq_s, (aa, _) = best_of(twoplustwo.equity, ["As Ah", "Kd Kc"])
            equity.append({"evaluator": label, "route": "equity(['As Ah', 'Kd Kc'])", "boards": BOARDS,
                           "seconds": eq_s, "how": f"best of {REPEATS}", "counts": [aa.wins, aa.ties, aa.losses]})
        want = ours_counts if n == BOARDS else equity_loop(twoplustwo.evaluate, range(52), "seq", True, n)
        agrees = ordered_like(ours, values)
        per_call += [{"evaluator": label, "call": c, "hands": len(hands), "calls_per_s": r,
                      "checksum": digest(values), "orders_like_twoplustwo": agrees} for c, r in rates]
        equity.append({"evaluator": label, "route": f"loop, {call}", "boards": n, "seconds": seconds * BOARDS / n,
                       "how": "measured" if n == BOARDS else f"extrapolated from {seconds:.2f} s", "counts": counts,
                       "agrees": counts == want})
    print(json.dumps({"numpy": sys.modules["numpy"].__version__, "per_call": per_call, "equity": equity,
                      "omaha": omaha_calls(names), "notes": notes}))


def omaha_calls(names: list[str]) -> list[dict[str, Any]]:
    """Single Omaha (PLO4) calls from Python, twoplustwo against phevaluator, on the same seeded deals."""
    rng = random.Random(SEED)
    deals = [rng.sample(range(52), 9) for _ in range(OMAHA_DEALS)]
    say("peers: evaluate_omaha")
    ours = [(d[:4], d[4:]) for d in deals]
    rows = [{"evaluator": "twoplustwo", "call": "evaluate_omaha(hole, board)", "deals": len(deals),
             "calls_per_s": len(deals) / best_of(calls, twoplustwo.evaluate_omaha, ours, "pair")[0],
             "checksum": digest([twoplustwo.evaluate_omaha(h, b) for h, b in ours])}]
    if "phevaluator" in names:
        import phevaluator as ph

        say("peers: phevaluator.evaluate_omaha_cards")
        # Its cards go board first, then the hand; its ranks are Cactus Kev's (1 is best).
        theirs = [tuple(ph.Card(card_name(c)).id_ for c in d[4:] + d[:4]) for d in deals]
        values = [7463 - ph.evaluate_omaha_cards(*t) for t in theirs]
        rows.append({"evaluator": f"phevaluator {version('phevaluator')}", "call": "evaluate_omaha_cards(*cards)",
                     "deals": len(deals), "checksum": digest(values),
                     "calls_per_s": len(deals) / best_of(calls, ph.evaluate_omaha_cards, theirs, "star")[0],
                     "agrees": digest(values) == rows[0]["checksum"]})
    return rows


if __name__ == "__main__":
    main(sys.argv[1:])
