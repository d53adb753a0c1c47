"""Single-player games: South against the bots. ``games.py`` applies South's
intents through the engine and lets the bots answer, ``views.py`` turns the
game into South's view (the models in ``schemas.py``), ``routes.py`` is their
thin HTTP layer."""
