"""Hands: single and batch evaluation, prefixes, rankings, iteration, histograms, Omaha, HandRanks export."""
