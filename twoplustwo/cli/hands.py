"""``eval`` and ``enumerate``: one hand, and category counts over all hands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from twoplustwo.cli.omaha import OMAHA_GAMES, eval_omaha
from twoplustwo.cli.output import aligned, hand_fields, hand_lines, probability
from twoplustwo.vocab.cards import check_disjoint, format_cards, parse_words
from twoplustwo.vocab.rules import HOLDEM, rules_of
from twoplustwo.vocab.values import CATEGORIES, category_counts, describe

__all__ = ["card_list", "cmd_enumerate", "cmd_eval"]


def card_list(values: list[str] | None) -> list[int]:
    # Options such as --dead may be repeated or hold several cards each.
    return parse_words(values) if values else []


def category_counts_of(hist: Any, game: str) -> dict[str, int]:
    """Hands per category, strongest first, from a value histogram of ``game``."""
    if game == HOLDEM:
        counts = category_counts(hist)
        return {CATEGORIES[c]: counts[c] for c in range(8, -1, -1)}
    from twoplustwo.kernels.games import resolve

    # Names as hold'em's are printed: "full_house".
    ranges = resolve(game).categories
    return {name.replace(" ", "_"): int(hist[first : last + 1].sum()) for name, first, last in reversed(ranges)}


def cmd_eval(args: argparse.Namespace) -> int:
    """``eval``: one hand of the game's sizes (5-7 cards in hold'em), or Omaha hole cards and a ``--board``
    (:mod:`twoplustwo.cli.omaha`)."""
    if args.game in OMAHA_GAMES:
        return eval_omaha(args)
    if args.board:
        raise ValueError(f"--board is for --game omaha and omaha-hilo; a {args.game} hand is all in CARDS")
    from twoplustwo.hands.batch import best_five, evaluate

    cards = parse_words(args.cards)
    game = args.game
    value = evaluate(cards, game=game)  # which says what is wrong with the cards, their count too
    d = describe(value, game=game)
    five = best_five(cards, game=game)
    low: list[tuple[str, str]] = []
    if rules_of(game).split_low:
        from twoplustwo.hands.omaha import describe_low
        from twoplustwo.hands.stud_low import evaluate_low

        lv = evaluate_low(cards)
        low = [("low", f"{lv} ({describe_low(lv)})")]
    if args.json:
        extra = {"low": lv, "low_description": describe_low(lv)} if low else {}
        print(json.dumps({"cards": format_cards(cards).split(), **hand_fields(d, five, game), **extra}))
        return 0
    # Hold'em's lines stay as they always were; another game says which it is.
    game_line = [] if game == HOLDEM else [("game", game)]
    for label, text in [("hand", format_cards(cards)), *game_line, *hand_lines(d, five), *low]:
        print(f"{label:<12} {text}")
    return 0


def cmd_enumerate(args: argparse.Namespace) -> int:
    from twoplustwo.hands.value_counts import histogram

    include = card_list(args.include)
    dead = card_list(args.dead)
    check_disjoint([("--include", include), ("--dead", dead)])
    game = args.game
    # Only pass what was asked for, so plain enumeration needs no more than
    # histogram(n).
    options: dict[str, Any] = {}
    if include:
        options["include"] = include
    if dead:
        options["dead"] = dead
    if game != HOLDEM:
        options["game"] = game
    hist = histogram(args.n, **options)
    counts = category_counts_of(hist, game)
    total = int(hist.sum())
    kind = "" if game == HOLDEM else f" {game}"
    print(
        f"{args.n}-card{kind} hands; include: {format_cards(include) or 'none'}; "
        f"dead: {format_cards(dead) or 'none'}"
    )
    rows = [["category", "hands", "probability"]]
    rows += [[c, f"{n:,}", probability(n, total)] for c, n in counts.items()]
    rows.append(["total", f"{total:,}", probability(total, total)])
    for line in aligned(rows, {1, 2}):
        print(line)
    print(f"distinct values: {int((hist > 0).sum()):,}")
    return 0
