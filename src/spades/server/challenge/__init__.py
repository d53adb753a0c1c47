"""The daily challenge in the browser: thin routes over ``spades.challenge``.

``routes.py`` holds the router (``include_challenge`` adds it and its error
answers to the app), ``schemas.py`` the request and response models and
``views.py`` turns the service's answers into them.
"""

from __future__ import annotations
