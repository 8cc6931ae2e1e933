"""Offline pipeline that builds the twoplustwo lookup tables, and the seed evaluators used as oracles."""
