"""A bot program that misbehaves on purpose, one way per mode (the first argument).

It plays like examples/simple_bot.py (bid 3, lowest legal card) until the
moment its mode names; the host tests run it to check every forfeit.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any

RANKS = "23456789TJQKA"
DECK = [rank + suit for suit in "CDHS" for rank in RANKS]


def say(message: dict[str, Any]) -> None:
    print(json.dumps(message), flush=True)


def main(mode: str) -> None:
    held: list[str] = []
    seat = ""
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        seat = message.get("seat", seat) if kind == "hello" else seat
        if kind == "hello":
            if mode == "mute":
                time.sleep(60)
            ready = {"type": "ready", "name": f"quirky-{mode}"}
            if mode in ("blind", "bad-pass"):
                ready["accepts"] = ["blind_nil", "pass"]
            say(ready)
        elif kind == "new_hand":
            held = message.get("cards", [])
        elif kind == "cards":
            held = message["cards"]
        elif kind == "blind_nil":
            # Says, for the test to check, how many cards it held when offered.
            print(f"offered blind Nil holding {len(held)} cards", file=sys.stderr, flush=True)
            say({"blind_nil": True})
        elif kind == "pass":
            count = message["count"]
            say({"cards": held[: count + 1] if mode == "bad-pass" else held[:count]})
        elif kind == "card_played" and message["seat"] == seat:
            held = [card for card in held if card != message["card"]]
        elif kind == "cards_passed" and "cards" in message:
            held = [card for card in held if card not in message["cards"]]
        elif kind == "bid":
            answer_bid(mode)
        elif kind == "play":
            answer_play(mode, message["legal"], held)
        elif kind == "quit" and mode != "stubborn":
            return
    if mode == "stubborn":  # ignores quit and the end of its input
        time.sleep(60)


def answer_bid(mode: str) -> None:
    if mode == "exit":
        print("boom", file=sys.stderr, flush=True)
        sys.exit(3)
    if mode == "garbage":
        print("I bid three", flush=True)
    elif mode == "illegal-bid":
        say({"bid": 14})
    elif mode == "blind-bid":  # blind Nil the old way, with the cards seen: refused
        say({"bid": "blind_nil"})
    elif mode == "wrong-key":
        say({"card": "AS"})
    elif mode == "chatty":
        print("x" * 100_000, file=sys.stderr, flush=True)  # more than a pipe holds
        say({"type": "log", "text": "thinking"})  # an unknown type: skipped by the host
        say({"bid": 3, "confidence": 0.5})  # an unknown field: ignored
    else:
        say({"bid": 3})


def answer_play(mode: str, legal: list[str], held: list[str]) -> None:
    if mode == "sleepy":
        time.sleep(60)
    if mode == "illegal-card":
        say({"card": next(card for card in DECK if card not in held)})
        return
    say({"card": min(legal, key=lambda card: RANKS.index(card[0]))})


if __name__ == "__main__":
    main(sys.argv[1])
