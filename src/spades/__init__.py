"""Spades: a faithful engine, honest computer players, and a game to play."""

__version__ = "0.1.0"
