"""Reading what a command printed."""

from __future__ import annotations

import re

_BOX_AND_BREAKS = re.compile(r"[\s│╭╮╰╯─]+")


def said(output: str) -> str:
    """``output`` as one line: Rich's error box and its line breaks taken out."""
    return _BOX_AND_BREAKS.sub(" ", output).strip()
