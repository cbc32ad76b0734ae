"""Spades: every variant people play, honest computer players, and a table in the browser."""

__version__ = "0.1.0"
