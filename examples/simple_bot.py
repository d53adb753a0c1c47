#!/usr/bin/env python3
"""A complete Spades bot speaking the ``spades-bot/1`` protocol, standard library only.

It bids 3 every hand and plays its lowest legal card: weak, but legal in every
position, and short enough to read in a minute. Start your own bot from it; the
protocol is described in docs/bot-protocol.md.

Play it against the built-in bots (the arena runs it as a child process):

    spades arena ... cmd:python examples/simple_bot.py

or talk to it by hand, one JSON object a line:

    $ python examples/simple_bot.py
    {"type": "hello", "protocol": "spades-bot/1", "seat": "E", "rules": {}}
    {"type":"ready","name":"simple_bot"}
    {"type": "bid", "bids": []}
    {"bid":3}
    {"type": "play", "trick": {"leader": "S", "cards": ["4H"]}, "legal": ["KH", "2H"]}
    {"card":"2H"}
    {"type": "quit"}
"""

from __future__ import annotations

import json
import sys
from typing import Any

RANKS = "23456789TJQKA"  # lowest first; a card is written rank then suit: "TD", "AS"


def lowest(cards: list[str]) -> str:
    """The lowest-ranked card (a card is rank then suit, "TD" is the ten of diamonds)."""
    return min(cards, key=lambda card: RANKS.index(card[0]))


def answer(message: dict[str, Any]) -> dict[str, Any] | None:
    """The reply to one host message, or None when the message needs none."""
    kind = message.get("type")
    if kind == "hello":
        return {"type": "ready", "name": "simple_bot"}
    if kind == "bid":
        return {"bid": 3}  # or {"bid": "nil"}
    if kind == "play":
        # The host lists the legal cards, so a bot need not know the rules of
        # following suit or of breaking spades to stay legal.
        return {"card": lowest(message["legal"])}
    if kind == "new_hand":
        # stderr is free for logs; only answers go to stdout.
        print(f"hand {message['hand']}: {' '.join(message['cards'])}", file=sys.stderr)
    # The events (bid_made, card_played, trick_won, ...) need no answer; a bot
    # that counts cards would remember them here. Unknown types are ignored, so
    # later versions of the protocol can add messages.
    return None


def main() -> None:
    for line in sys.stdin:  # one message a line; the loop ends when the host closes stdin
        if not line.strip():
            continue
        message = json.loads(line)
        if message.get("type") == "quit":
            break
        reply = answer(message)
        if reply is not None:
            # Flush every answer: the host waits for it (10 s by default).
            print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
