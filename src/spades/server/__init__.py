"""The web game: play Spades in the browser as South (``spades serve``).

``app.create_app`` assembles it; each folder is a feature (``play``,
``tables``, ``records``, ``stats``) with its routes on top, ``http`` the
plumbing below them (docs/architecture.md). Importing this package imports
nothing: ``spades serve`` and the tests import ``spades.server.app``.
"""
