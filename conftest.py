"""The README's examples: those marked ``+BUCKET_TABLES`` run only where the table set holds the bucket tables.

Those tables take about half an hour to build (``make abstraction``), so a fresh checkout has none; where
they are, the README's solver example runs against them like every other example.
"""

from __future__ import annotations

import doctest

import pytest

BUCKET_TABLES = doctest.register_optionflag("BUCKET_TABLES")
# The tables the marked examples read.
NEEDED = ("buckets/flop/emd/200", "buckets/flop/potential/200", "buckets/turn/emd/200", "buckets/river/ochs/200")


def pytest_runtest_setup(item: pytest.Item) -> None:
    test = getattr(item, "dtest", None)
    if test is None or not any(e.options.get(BUCKET_TABLES) for e in test.examples):
        return
    from twoplustwo.tables.default import get_tables

    if all(role in get_tables(None).arrays for role in NEEDED):
        return
    for example in test.examples:
        if example.options.get(BUCKET_TABLES):
            example.options[doctest.SKIP] = True
