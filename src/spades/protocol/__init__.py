"""``spades-bot/1``: bots in any language play over stdin/stdout, one JSON object a line.

``ExternalBot`` is the host side (a program seen as a ``Bot``), ``serve`` the
bot side (a built-in ``Bot`` answering a host); ``docs/bot-protocol.md`` is the
reference.
"""

from .host import ExternalBot
from .messages import PROTOCOL, ProtocolError
from .mirror import SeatMirror
from .serve import BotServer, serve

__all__ = ["PROTOCOL", "BotServer", "ExternalBot", "ProtocolError", "SeatMirror", "serve"]
