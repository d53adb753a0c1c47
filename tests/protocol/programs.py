"""The bot programs the protocol tests run: the example bot, a quirky one the
tests steer by its mode, and the `spades` console script."""

from __future__ import annotations

import sys
from pathlib import Path

SPADES_SCRIPT = str(Path(sys.executable).parent / "spades")


ROOT = Path(__file__).resolve().parents[2]


SIMPLE_BOT = [sys.executable, str(ROOT / "examples" / "simple_bot.py")]


QUIRKY_BOT = [sys.executable, str(Path(__file__).with_name("quirky_bot.py"))]
