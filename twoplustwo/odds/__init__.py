"""Equity: the entry point, exact enumeration, Monte Carlo sampling, results, preflop tables, Omaha."""
