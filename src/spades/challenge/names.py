"""Display names: what a player is shown as on the leaderboard.

The same rule as the names at a table with friends (``server/tables.py``,
``check_name``; ``tests/server/challenge`` checks that both accept and refuse
the same names): trimmed, letters, digits, spaces and a little punctuation, at
most 24 characters. The page writes every name as text, never as markup.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Final

NAME_PATTERN: Final = re.compile(r"[\w .,'&()!?-]{1,24}")
MAX_NAME: Final = 24


class NameRefused(ValueError):
    """A display name that cannot be shown; the message says why."""


def check_display_name(name: str) -> str:
    """A display name as it will be shown, or ``NameRefused``.

    >>> check_display_name("  Ann   Lee ")
    'Ann Lee'
    >>> check_display_name("<b>Ann</b>")
    Traceback (most recent call last):
    ...
    spades.challenge.names.NameRefused: A name is up to 24 letters, digits, spaces and simple punctuation (. , ' & ( ) ! ? -).
    """
    name = unicodedata.normalize("NFC", " ".join(name.split()))
    if not name:
        raise NameRefused("Give a name the others will see (up to 24 characters).")
    if len(name) > MAX_NAME or NAME_PATTERN.fullmatch(name) is None:
        raise NameRefused(
            "A name is up to 24 letters, digits, spaces and simple punctuation (. , ' & ( ) ! ? -)."
        )
    return name
