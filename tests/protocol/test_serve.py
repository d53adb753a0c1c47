"""The bot side: the mirror a served bot keeps gives it the very view the engine
would, and the server answers what it must and ignores what it does not know."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from spades.arena import play_game
from spades.bots import Bot, make_bot
from spades.core import (
    SEATS,
    Card,
    Event,
    PlayerView,
    Rules,
    Seat,
)
from spades.protocol import BotServer, ProtocolError, serve
from spades.protocol.messages import (
    bid_from_reply,
    bid_request,
    card_from_reply,
    encode,
    event_message,
    hello,
    play_request,
)

SPADES_SCRIPT = str(Path(sys.executable).parent / "spades")


class Recorder(Bot):
    """A random bot that writes down every view and event it is given."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.inner = make_bot("random", seed=seed)
        self.decisions: list[PlayerView] = []
        self.events: list[tuple[Event, PlayerView]] = []

    def bid(self, view: PlayerView) -> int:
        self.decisions.append(view)
        return self.inner.bid(view)

    def play(self, view: PlayerView) -> Card:
        self.decisions.append(view)
        return self.inner.play(view)

    def observe(self, event: Event, view: PlayerView) -> None:
        self.events.append((event, view))


class Loopback(Recorder):
    """Plays a served ``Recorder`` in process: what the host would send goes
    through JSON to a ``BotServer``, and the answers come back the same way."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.served = Recorder(seed)
        self.server = BotServer(self.served)

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        reply = self.server.handle(json.loads(encode(message)))
        assert reply is not None
        reply_dict: dict[str, Any] = json.loads(encode(reply))
        return reply_dict

    def start_game(self, seat: Seat, rules: Rules) -> None:
        assert self.ask(hello(seat, rules))["type"] == "ready"

    def observe(self, event: Event, view: PlayerView) -> None:
        super().observe(event, view)
        assert self.server.handle(json.loads(encode(event_message(event, view)))) is None

    def bid(self, view: PlayerView) -> int:
        self.decisions.append(view)
        return bid_from_reply(self.ask(bid_request(view)))

    def play(self, view: PlayerView) -> Card:
        self.decisions.append(view)
        return card_from_reply(self.ask(play_request(view)))


@pytest.mark.parametrize("seed", range(6))
def test_the_mirror_gives_the_engines_view_at_every_decision_and_event(seed: int) -> None:
    rules = Rules(target=300) if seed % 2 else Rules()
    bots = {seat: Loopback(seed * 4 + seat) for seat in SEATS}
    game = play_game(bots, seed=seed, rules=rules)
    assert game.outcome is not None and game.forfeited_by is None
    for bot in bots.values():
        bot.server.finish()
        assert bot.served.decisions == bot.decisions  # the same PlayerView, field by field
        assert bot.served.events == bot.events  # the same events, each with the same view
        assert len(bot.decisions) == 14 * len(game.history)  # a bid and 13 cards a hand
        assert len(bot.events) == len(game.log)


def run_serve(*messages: dict[str, Any] | str) -> list[dict[str, Any]]:
    """Serve a random bot on the given lines; its replies."""
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    out = io.StringIO()
    serve(make_bot("random", seed=1), io.StringIO("\n".join(lines) + "\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


HELLO = {"type": "hello", "protocol": "spades-bot/1", "seat": "S", "rules": {}}
DEAL = {
    "type": "new_hand",
    "hand": 1,
    "dealer": "E",
    "cards": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    "score": {"NS": {"total": 0, "bags": 0}, "EW": {"total": 0, "bags": 0}},
}


def test_unknown_messages_and_fields_are_ignored() -> None:
    replies = run_serve(
        {**HELLO, "rules": {"target": 500, "jokers": True}, "table": "blue"},
        {"type": "weather", "forecast": "sunny"},
        "",
        {**DEAL, "mood": "hopeful"},
        {"type": "bid", "bids": [], "clock": 9.5},
    )
    assert replies[0] == {"type": "ready", "name": "random"}
    assert len(replies) == 2 and "bid" in replies[1]


def test_serving_stops_at_quit() -> None:
    replies = run_serve(HELLO, {"type": "quit"}, DEAL, {"type": "bid", "bids": []})
    assert replies == [{"type": "ready", "name": "random"}]


def test_the_hosts_seed_makes_a_served_bot_reproducible() -> None:
    def bids(seed: int) -> list[dict[str, Any]]:
        return run_serve({**HELLO, "seed": seed}, DEAL, {"type": "bid", "bids": []})

    assert bids(5) == bids(5)
    assert any(bids(5) != bids(seed) for seed in range(6, 12))


def test_a_request_out_of_turn_is_refused_not_guessed() -> None:
    with pytest.raises(ProtocolError, match="not this seat's turn to play"):
        run_serve(HELLO, DEAL, {"type": "play", "trick": {"leader": "S", "cards": []}})
    with pytest.raises(ProtocolError, match="the host wrote a line that is not JSON"):
        run_serve(HELLO, "hello?")
    with pytest.raises(ProtocolError, match="the host's new_hand message has no 'cards'"):
        run_serve(HELLO, {"type": "new_hand", "hand": 1, "dealer": "E"})


def test_the_bot_command_serves_a_builtin_bot() -> None:
    lines = [json.dumps(HELLO), json.dumps(DEAL), '{"type": "bid", "bids": []}']
    result = subprocess.run(
        [SPADES_SCRIPT, "bot", "random", "--seed", "3"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    replies = [json.loads(line) for line in result.stdout.splitlines()]
    assert replies[0] == {"type": "ready", "name": "random"} and "bid" in replies[1]

    unknown = subprocess.run(
        [SPADES_SCRIPT, "bot", "genius"], input="", capture_output=True, text=True, timeout=30
    )
    assert unknown.returncode == 2 and "unknown bot 'genius'" in unknown.stderr

    broken = subprocess.run(
        [SPADES_SCRIPT, "bot", "random"], input="hello?\n", capture_output=True, text=True
    )
    assert broken.returncode == 2
    assert "spades bot: the host wrote a line that is not JSON: 'hello?'" in broken.stderr
