"""Hands: single and batch evaluation, prefixes, rankings, iteration, value counts, Omaha, HandRanks export."""
