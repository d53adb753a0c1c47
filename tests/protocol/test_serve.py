"""The bot side: the mirror a served bot keeps gives it the very view the engine
would, and the server answers what it must and ignores what it does not know."""

from __future__ import annotations

import io
import json
import re
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
        self.log: list[str] = []
        self.server = BotServer(self.served, log=self.log.append)

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
        assert bot.log == []  # nothing skipped, every answer the bot's own


def run_serve(
    *messages: dict[str, Any] | str, log: list[str] | None = None
) -> list[dict[str, Any]]:
    """Serve a random bot on the given lines; its replies (and its log lines in ``log``)."""
    lines = [m if isinstance(m, str) else json.dumps(m) for m in messages]
    out = io.StringIO()
    logged = log if log is not None else []
    serve(make_bot("random", seed=1), io.StringIO("\n".join(lines) + "\n"), out, log=logged.append)
    return [json.loads(line) for line in out.getvalue().splitlines()]


READY = {"type": "ready", "name": "random", "accepts": ["blind_nil", "pass"]}
HELLO = {"type": "hello", "protocol": "spades-bot/1", "seat": "S", "rules": {}}
DEAL = {
    "type": "new_hand",
    "hand": 1,
    "dealer": "E",
    "cards": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    "score": {"NS": {"total": 0, "bags": 0}, "EW": {"total": 0, "bags": 0}},
}


def test_unknown_messages_and_fields_are_ignored() -> None:
    log: list[str] = []
    replies = run_serve(
        {**HELLO, "rules": {"target": 500, "jokers": True}, "table": "blue"},
        {"type": "weather", "forecast": "sunny"},
        "",
        {**DEAL, "mood": "hopeful"},
        {"type": "weather", "forecast": "rain"},
        {"type": "bid", "bids": [], "clock": 9.5},
        log=log,
    )
    assert replies[0] == READY
    assert len(replies) == 2 and "bid" in replies[1]
    # Extra fields pass in silence; an unknown type is named once; the bot chose its bid.
    assert log == [
        'skipped a message of a type this version does not know, "weather" '
        "(later ones are skipped silently)"
    ]


def test_serving_stops_at_quit() -> None:
    replies = run_serve(HELLO, {"type": "quit"}, DEAL, {"type": "bid", "bids": []})
    assert replies == [READY]


def test_the_hosts_seed_makes_a_served_bot_reproducible() -> None:
    def bids(seed: int) -> list[dict[str, Any]]:
        return run_serve({**HELLO, "seed": seed}, DEAL, {"type": "bid", "bids": []})

    assert bids(5) == bids(5)
    assert any(bids(5) != bids(seed) for seed in range(6, 12))


PLAY: dict[str, Any] = {
    "type": "play",
    "trick": {"leader": "S", "cards": []},
    "legal": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
    "hand": ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"],
}


def test_a_request_that_cannot_be_read_is_refused_not_guessed() -> None:
    with pytest.raises(ProtocolError, match="the host wrote a line that is not JSON"):
        run_serve(HELLO, "hello?")
    with pytest.raises(ProtocolError, match="the host's hello message has no 'seat'"):
        run_serve({"type": "hello", "rules": {}})
    with pytest.raises(ProtocolError, match="the host's play message has no 'legal'"):
        run_serve(HELLO, DEAL, {"type": "play", "trick": {"leader": "S", "cards": []}})
    with pytest.raises(ProtocolError, match="does not come to S's turn"):
        run_serve(HELLO, DEAL, {**PLAY, "trick": {"leader": "E", "cards": []}})
    with pytest.raises(ProtocolError, match="the legal cards are not some of the cards held"):
        run_serve(HELLO, DEAL, {**PLAY, "legal": ["AS"]})
    with pytest.raises(ProtocolError, match="the bids so far do not lead up to S's turn"):
        run_serve(HELLO, DEAL, {"type": "bid", "bids": [["W", 3]]})
    with pytest.raises(
        ProtocolError, match=re.escape('cannot read the host\'s bid message: "four" is not a bid')
    ):
        run_serve(HELLO, DEAL, {"type": "bid", "bids": [["E", "four"]]})


def test_a_notification_that_cannot_be_used_is_logged_and_skipped() -> None:
    log: list[str] = []
    replies = run_serve(
        HELLO,
        {"type": "new_hand", "hand": 1, "dealer": "E"},
        {"type": "bid_made", "seat": "E", "bid": None},
        {"type": "game_over", "winner": None, "reason": "target", "score": "final"},
        {"type": "bid", "bids": [["E", 4]]},
        log=log,
    )
    # The cards never came: the bot is not asked to bid on a hand it does not know.
    assert replies[1] == {"bid": 3}
    assert log == [
        "skipped the host's new_hand message: it has no 'cards'",
        "skipped the host's bid_made message: null is not a bid: "
        'a bid is "nil" or a number from 1 to 13',
        'ignored the score of the host\'s game_over message: it is "final", not an object',
        "the game ended without a winner (game_over says null)",
        "out of step with the host at a bid request: took the bids so far from it",
        "bid 3: the bot was not asked, as this seat holds 0 cards, not 13",
    ]


def test_a_request_out_of_step_with_the_mirror_is_answered_from_the_request() -> None:
    log: list[str] = []
    # No bid was ever reported: the play request alone says what is legal.
    replies = run_serve(HELLO, DEAL, {**PLAY, "legal": ["5C", "KC"]}, log=log)
    assert replies[1] == {"card": "5C"}
    assert log == [
        "played 5C, the lowest legal card: the bot was not asked, "
        "as only 0 of the 4 bids were reported"
    ]
    # A card of the trick was lost: the request brings it back, and the bot is asked.
    bids = [{"type": "bid_made", "seat": seat, "bid": 3} for seat in "SWNE"]
    log.clear()
    replies = run_serve(
        HELLO,
        DEAL,
        {"type": "bid", "bids": []},
        *bids,
        {"type": "card_played", "seat": "S", "card": "2C"},
        {"type": "card_played", "seat": "W", "card": "3D"},
        {"type": "card_played", "seat": "N"},
        {"type": "card_played", "seat": "E", "card": "4D"},
        {"type": "trick_won", "seat": "S", "leader": "S", "cards": ["2C", "3D", "KD", "4D"]},
        {**PLAY, "legal": PLAY["legal"][1:], "hand": PLAY["hand"][1:]},
        log=log,
    )
    assert replies[2]["card"] in PLAY["legal"][1:]
    assert log == [
        "skipped the host's card_played message: it has no 'card'",
        "out of step with the host at a trick_won: took the trick from it",
    ]


class Stumbling(Bot):
    """Fails every decision, as a bot may on a view it finds impossible."""

    def bid(self, view: PlayerView) -> int:
        raise ValueError("no deal of the unseen cards agrees with the voids shown")

    def play(self, view: PlayerView) -> Card:
        raise ValueError("no deal of the unseen cards agrees with the voids shown")


def test_a_bot_failing_on_a_mended_record_fails_one_answer_not_the_program() -> None:
    def serve_stumbling(*messages: dict[str, Any]) -> list[str]:
        lines = "".join(json.dumps(message) + "\n" for message in messages)
        log: list[str] = []
        serve(Stumbling(), io.StringIO(lines), io.StringIO(), log=log.append)
        return log

    # On a clean record a bot's error is its own, and stops the program.
    with pytest.raises(ValueError, match="no deal"):
        serve_stumbling(HELLO, DEAL, {"type": "bid", "bids": []})
    # After a skipped message the record may be false: the answer falls back.
    assert serve_stumbling(HELLO, DEAL, {"type": "bid_made"}, {"type": "bid", "bids": []}) == [
        "skipped the host's bid_made message: it has no 'seat'",
        "bid 3: the bot failed on the mended record "
        "(ValueError: no deal of the unseen cards agrees with the voids shown)",
    ]
    # A new deal starts a clean record.
    with pytest.raises(ValueError, match="no deal"):
        serve_stumbling(HELLO, {"type": "bid_made"}, DEAL, {"type": "bid", "bids": []})


@pytest.mark.slow
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
    assert replies[0] == READY and "bid" in replies[1]

    unknown = subprocess.run(
        [SPADES_SCRIPT, "bot", "genius"], input="", capture_output=True, text=True, timeout=30
    )
    assert unknown.returncode == 2 and "unknown bot 'genius'" in unknown.stderr

    broken = subprocess.run(
        [SPADES_SCRIPT, "bot", "random"], input="hello?\n", capture_output=True, text=True
    )
    assert broken.returncode == 2
    assert "spades bot: the host wrote a line that is not JSON: 'hello?'" in broken.stderr
