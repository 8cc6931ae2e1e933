"""The optional roles: the strength tables (spec/README.md, section 14) and the bucket tables (section 15).

A set may list each at most once, beside hold'em's 20 roles; this module
says which there are, how long each is, and which serve together.
:mod:`twoplustwo.tables.format` checks them in a manifest like any role.

>>> optional_length("strength/preflop/sum"), optional_length(bucket_role("flop", "emd", 200))
(169, 1286792)
>>> optional_length("dag7/layer1") is None
True
"""

from __future__ import annotations

import re

from twoplustwo.vocab.inputs import check_int

# typing's names are for the type checker only (twoplustwo/__init__.py says why).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Collection

__all__ = [
    "BUCKET_METHODS",
    "BUCKET_STREETS",
    "MAX_BUCKETS",
    "STRENGTH_BINS",
    "STRENGTH_ROLES",
    "STRENGTH_STREETS",
    "bucket_role",
    "optional_length",
    "parse_bucket_role",
    "strength_gap",
]

#: The strength tables' roles (spec/README.md, section 14) and their lengths:
#: optional, each at most once. Their index is a hand's suit-isomorphic
#: index (:class:`twoplustwo.HandIndexer`) of the street's rounds: (2, 5) on
#: the river, (2, 4) on the turn, (2, 3) on the flop, (2,) before it; a
#: histogram has :data:`STRENGTH_BINS` entries per index, and the preflop
#: ``sum2`` two per index (its low and high 32 bits).
STRENGTH_BINS = 50
STRENGTH_ROLES: dict[str, int] = {
    "strength/river/wins": 123_156_254,
    "strength/river/ties": 123_156_254,
    "strength/turn/sum": 13_960_050,
    "strength/turn/sum2": 13_960_050,
    "strength/flop/sum": 1_286_792,
    "strength/flop/sum2": 1_286_792,
    "strength/flop/histogram": 1_286_792 * STRENGTH_BINS,
    "strength/preflop/sum": 169,
    "strength/preflop/sum2": 2 * 169,
    "strength/preflop/histogram": 169 * STRENGTH_BINS,
}

#: Which strength roles serve together (spec/README.md, section 14): a
#: street's strength comes from the roles it lists here, all of them, and
#: its ``histogram`` (where it has one) adds ``bins=STRENGTH_BINS`` on top.
#: A set listing none of a street's roles does not serve it; one listing
#: some but not all the street needs is refused on that street
#: (:func:`strength_served`), never served by half.
STRENGTH_STREETS: dict[str, tuple[str, ...]] = {
    "river": ("strength/river/wins", "strength/river/ties"),
    "turn": ("strength/turn/sum", "strength/turn/sum2"),
    "flop": ("strength/flop/sum", "strength/flop/sum2"),
    "preflop": ("strength/preflop/sum", "strength/preflop/sum2"),
}


def strength_gap(roles: Collection[str], street: str) -> str | None:
    """Why a set listing ``roles`` cannot serve ``street`` although it lists some of its strength roles, or None.

    None when it lists every role the street needs (:data:`STRENGTH_STREETS`),
    or none of the street's roles at all.

    >>> print(strength_gap({"strength/turn/sum"}, "turn"))  # doctest: +ELLIPSIS
    lists strength/turn/sum but not strength/turn/sum2: the turn's strength is read from ... together (...)
    >>> strength_gap(set(), "turn") is None and strength_gap(set(STRENGTH_ROLES), "turn") is None
    True
    """
    needs = STRENGTH_STREETS[street]
    missing = [r for r in needs if r not in roles]
    listed = [r for r in STRENGTH_ROLES if r.split("/")[1] == street and r in roles]
    if not missing or not listed:
        return None
    return (
        f"lists {', '.join(listed)} but not {', '.join(missing)}: the {street}'s strength is read from "
        f"{' and '.join(needs)} together (spec/README.md, section 14)"
    )


#: The bucket tables' streets (spec/README.md, section 15), each with its
#: indexer's rounds and length: one uint16 bucket per suit-isomorphic index.
BUCKET_STREETS: dict[str, tuple[tuple[int, ...], int]] = {
    "flop": ((2, 3), 1_286_792),
    "turn": ((2, 4), 13_960_050),
    "river": ((2, 5), 123_156_254),
}
#: The clustering methods of each street.
BUCKET_METHODS: dict[str, tuple[str, ...]] = {
    "flop": ("emd", "potential", "percentile"),
    "turn": ("emd", "percentile"),
    "river": ("ochs", "percentile"),
}
#: The most buckets a table may hold: its entries are uint16.
MAX_BUCKETS = 65536
_BUCKET_ROLE = re.compile(r"buckets/([a-z]+)/([a-z]+)/([1-9][0-9]{0,4})")


def bucket_role(street: str, method: str, k: int) -> str:
    """The role of the table of ``k`` buckets by ``method`` on ``street``.

    >>> bucket_role("flop", "emd", 200)
    'buckets/flop/emd/200'
    >>> bucket_role("river", "emd", 200)
    Traceback (most recent call last):
    ...
    ValueError: method must be one of 'ochs', 'percentile' on the river, got 'emd'
    """
    if street not in BUCKET_STREETS:
        raise ValueError(f"street must be one of {', '.join(map(repr, BUCKET_STREETS))}, got {street!r}")
    if method not in BUCKET_METHODS[street]:
        names = ", ".join(map(repr, BUCKET_METHODS[street]))
        raise ValueError(f"method must be one of {names} on the {street}, got {method!r}")
    n = check_int(k, "k")
    if not 1 <= n <= MAX_BUCKETS:
        raise ValueError(f"k must be from 1 to {MAX_BUCKETS}, got {n}")
    return f"buckets/{street}/{method}/{n}"


def parse_bucket_role(role: str) -> tuple[str, str, int] | None:
    """``(street, method, k)`` of a bucket table's role, or None for any other role."""
    m = _BUCKET_ROLE.fullmatch(role)
    if m is None:
        return None
    street, method, k = m.group(1), m.group(2), int(m.group(3))
    if street not in BUCKET_STREETS or method not in BUCKET_METHODS[street] or k > MAX_BUCKETS:
        return None
    return street, method, k


def optional_length(role: str) -> int | None:
    """The length of an optional role of fixed length (a strength or bucket table's), or None for other roles."""
    if role in STRENGTH_ROLES:
        return STRENGTH_ROLES[role]
    bucket = parse_bucket_role(role)
    return None if bucket is None else BUCKET_STREETS[bucket[0]][1]
