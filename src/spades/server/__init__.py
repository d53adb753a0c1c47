"""The web game: play Spades in the browser as South (``spades serve``)."""

from .app import create_app

__all__ = ["create_app"]
