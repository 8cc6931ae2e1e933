"""Classic poker evaluators from the seed documents, re-written as exact oracles.

Each module exposes ``evaluate(hands)``: an ``(N, k)`` integer array of cards
(k = 5, 6 or 7) in, an ``(N,)`` ``uint16`` array of hand values out.
"""
