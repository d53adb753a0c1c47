"""Matches between bots: the referee loop, and the arena built on it."""

from .referee import game_seeds, play_game, seat_bots

__all__ = ["game_seeds", "play_game", "seat_bots"]
