"""``eval --game omaha|omaha-hilo``: an Omaha hand, its hole cards and a board, high and (hi-lo) low.

>>> from twoplustwo.cli import main
>>> main(["eval", "--game", "omaha-hilo", "As 2d Kc Kd", "--board", "3h 6c 8d Qs Js"])
hand         As 2d Kc Kd
board        3h 6c 8d Qs Js
game         omaha-hilo
value        3860
category     pair
code         0x1bba96
description  Pair of kings, queen, jack and eight kickers
best five    Kc Kd 8d Qs Js
low value    30
low          8-6-3-2-A
low five     As 2d 3h 6c 8d
0
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from itertools import combinations

from twoplustwo.cli.output import hand_fields, hand_lines
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_words
from twoplustwo.vocab.rules import OMAHA_GAMES

__all__ = ["OMAHA_GAMES", "best_low_five", "best_omaha_five", "eval_omaha"]



def _cards(what: str, words: Sequence[str]) -> list[int]:
    try:
        return parse_words(words)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


def _fives(hole: list[int], board: list[int]) -> list[list[int]]:
    """Every legal Omaha five: two hole cards, then three board cards, in the order given."""
    return [[*pair, *three] for pair in combinations(hole, 2) for three in combinations(board, 3)]


def best_omaha_five(hole: list[int], board: list[int], value: int) -> list[int]:
    """The first legal five (two of ``hole``, three of ``board``) whose hold'em value is ``value``."""
    from twoplustwo.hands.single import evaluate

    return next(five for five in _fives(hole, board) if evaluate(five) == value)


def best_low_five(hole: list[int], board: list[int], low: int) -> list[int] | None:
    """The first legal five making the eight-or-better low ``low``; ``None`` when ``low`` is 0 (no low)."""
    if low == 0:
        return None
    from twoplustwo.vocab.lows import LOW_BITS, LOW_VALUES

    def value(five: list[int]) -> int:
        bits = 0
        for c in five:
            bits |= LOW_BITS[c]
        return LOW_VALUES[bits]

    return next(five for five in _fives(hole, board) if value(five) == low)


def eval_omaha(args: argparse.Namespace) -> int:
    """``eval`` of Omaha: ``args.cards`` the 4-6 hole cards, ``args.board`` the 3-5 board cards."""
    from twoplustwo.hands.omaha import HOLE_SIZES, OMAHA_BOARD_SIZES

    game = args.game
    if not args.board:
        raise ValueError(f"--game {game} needs the board: --board CARDS (3, 4 or 5 cards)")
    hole = _cards("the hole cards", args.cards)
    board = _cards("the board", args.board)
    # The library's checks, made here before any table is loaded.
    if len(hole) not in HOLE_SIZES:
        raise ValueError(f"an Omaha hand has 4, 5 or 6 hole cards, got {len(hole)}")
    if len(board) not in OMAHA_BOARD_SIZES:
        raise ValueError(f"an Omaha board has 3, 4 or 5 cards, got {len(board)}")
    check_disjoint([("the hole cards", hole), ("the board", board)])
    from twoplustwo.hands.omaha import describe_low, evaluate_omaha, evaluate_omaha_low
    from twoplustwo.vocab.values import describe

    value = evaluate_omaha(hole, board)
    d = describe(value)
    five = best_omaha_five(hole, board, value)
    hilo = game == "omaha-hilo"
    low = evaluate_omaha_low(hole, board) if hilo else 0
    low_five = best_low_five(hole, board, low)
    if args.json:
        doc = {
            "cards": format_cards(hole).split(),
            "board": format_cards(board).split(),
            **hand_fields(d, five, game),
        }
        if hilo:
            doc["low_value"] = low
            doc["low"] = describe_low(low)
            doc["low_five"] = None if low_five is None else format_cards(low_five).split()
        print(json.dumps(doc))
        return 0
    lines = [("hand", format_cards(hole)), ("board", format_cards(board)), ("game", game), *hand_lines(d, five)]
    if hilo:
        lines += [
            ("low value", str(low)),
            ("low", describe_low(low)),
            ("low five", "none" if low_five is None else format_cards(low_five)),
        ]
    for label, text in lines:
        print(f"{label:<12} {text}")
    return 0
