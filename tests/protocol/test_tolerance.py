"""A served bot never dies on a notification, and always answers a request legally.

Hypothesis takes the messages a real host sends one seat over two whole games,
and inserts or substitutes mangled notifications: junk objects, types this
version does not know, known notifications with a field deleted, null or of the
wrong type, and well-formed ones that say something false. The served bot must
read to the end and answer every request with a legal bid or one of the
request's legal cards.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from spades.arena import play_game
from spades.arena.referee import play_hand
from spades.bots import Bot, make_bot
from spades.core import (
    EAST,
    NORTH,
    SEATS,
    SOUTH,
    Card,
    Event,
    HandDealt,
    PlayerView,
    Rules,
    Seat,
)
from spades.core.cards import CARD_NAMES
from spades.core.hand import deal_from_seed
from spades.protocol import serve
from spades.protocol.host import BotProcess
from spades.protocol.messages import (
    bid_from_reply,
    bid_request,
    card_from_reply,
    decode,
    encode,
    event_message,
    hello,
    play_request,
    score_json,
)

SPADES_SCRIPT = str(Path(sys.executable).parent / "spades")
REQUESTS = ("hello", "bid", "play")
NOTIFICATIONS = ("new_hand", "bid_made", "card_played", "trick_won", "hand_over", "game_over")
Message = dict[str, Any]


class Scribe(Bot):
    """Plays ``inner`` and writes down every message a host sends its seat."""

    def __init__(self, inner: Bot, seed: int) -> None:
        super().__init__(seed)
        self.inner, self.seed = inner, seed
        self.messages: list[Message] = []

    def write(self, message: Message) -> None:
        self.messages.append(decode(encode(message)))  # exactly what crosses the wire

    def start_game(self, seat: Seat, rules: Rules) -> None:
        self.write(hello(seat, rules, self.seed))
        self.inner.start_game(seat, rules)

    def observe(self, event: Event, view: PlayerView) -> None:
        self.write(event_message(event, view))

    def bid(self, view: PlayerView) -> int:
        self.write(bid_request(view))
        return self.inner.bid(view)

    def play(self, view: PlayerView) -> Card:
        self.write(play_request(view))
        return self.inner.play(view)


def game_stream(seat: Seat, seed: int) -> list[Message]:
    """What a host sends ``seat``, played by ``normal`` seeded ``seed``, over a short game."""
    scribe = Scribe(make_bot("normal", seed=seed), seed)
    bots = {other: make_bot("normal", seed=seed + other) for other in SEATS}
    bots[seat] = scribe
    game = play_game(bots, seed=seed, rules=Rules(target=150, floor=-150))
    assert game.outcome is not None
    return scribe.messages


@cache
def streams() -> tuple[tuple[Message, ...], ...]:
    """Two games on one process, the seat changing between them; a few such pairs."""
    return tuple(
        tuple(game_stream(SOUTH, seed) + game_stream(EAST, seed + 100)) for seed in range(3)
    )


def run(stream: list[Message], log: list[str]) -> list[Message]:
    out = io.StringIO()
    lines = "".join(json.dumps(message) + "\n" for message in stream)
    serve(make_bot("normal"), io.StringIO(lines), out, log=log.append)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def check_every_request_answered_legally(stream: list[Message], replies: list[Message]) -> None:
    requests = [message for message in stream if message.get("type") in REQUESTS]
    assert len(replies) == len(requests)
    for request, reply in zip(requests, replies, strict=True):
        if request["type"] == "hello":
            assert reply["type"] == "ready"
        elif request["type"] == "bid":
            bid = reply["bid"]
            assert bid == "nil" or (type(bid) is int and 1 <= bid <= 13)
        else:
            assert reply["card"] in request["legal"]


def test_an_unmangled_stream_is_played_as_in_process_without_a_word_in_the_log() -> None:
    stream = list(streams()[0])
    log: list[str] = []
    replies = run(stream, log)
    check_every_request_answered_legally(stream, replies)
    assert log == []


# ------------------------------------------------------------------ mangling

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(["N", "EW", "AS", "10H", "nil", "target"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=5), children, max_size=3)
    ),
    max_leaves=8,
)
JUNK_OBJECTS = st.dictionaries(st.text(max_size=6), JSON_VALUES, max_size=4).filter(
    lambda junk: junk.get("type") not in (*REQUESTS, "quit")
)
UNKNOWN_TYPES = st.builds(
    lambda kind, junk: {**junk, "type": kind},
    st.text(max_size=12).filter(lambda kind: kind not in (*REQUESTS, *NOTIFICATIONS, "quit")),
    JUNK_OBJECTS,
)
SEAT_NAMES = st.sampled_from("NESW")
CARDS = st.sampled_from(CARD_NAMES)
BIDS = st.sampled_from(["nil", *range(1, 14)])
SCORES = st.fixed_dictionaries(
    {
        team: st.fixed_dictionaries({"total": st.integers(-300, 600), "bags": st.integers(0, 9)})
        for team in ("NS", "EW")
    }
)
FALSE_NOTIFICATIONS = st.one_of(
    st.fixed_dictionaries({"type": st.just("card_played"), "seat": SEAT_NAMES, "card": CARDS}),
    st.fixed_dictionaries({"type": st.just("bid_made"), "seat": SEAT_NAMES, "bid": BIDS}),
    st.fixed_dictionaries(
        {
            "type": st.just("trick_won"),
            "seat": SEAT_NAMES,
            "leader": SEAT_NAMES,
            "cards": st.lists(CARDS, min_size=4, max_size=4, unique=True),
        }
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("new_hand"),
            "hand": st.integers(1, 20),
            "dealer": SEAT_NAMES,
            "cards": st.lists(CARDS, min_size=13, max_size=13, unique=True),
            "score": SCORES,
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("hand_over"), "hand": st.integers(1, 20), "score": SCORES}
    ),
    st.fixed_dictionaries(
        {
            "type": st.just("game_over"),
            "winner": st.sampled_from(["NS", "EW", None]),
            "reason": st.sampled_from(["target", "floor", "forfeit", "duplicate", None]),
            "score": SCORES,
        }
    ),
)
"""Well-formed notifications that say something false."""


@st.composite
def broken(draw: st.DrawFn, message: Message) -> Message:
    """``message`` with one field (or a field of a field) deleted, null or of another type."""
    copy: Message = json.loads(json.dumps(message))
    keys = [key for key in copy if key != "type"]
    if not keys:
        return copy
    holder: Any = copy
    key: Any = draw(st.sampled_from(keys))
    inner = holder[key]
    if isinstance(inner, dict | list) and inner and draw(st.booleans()):
        holder, key = (
            inner,
            draw(st.sampled_from(list(inner) if isinstance(inner, dict) else range(len(inner)))),
        )
    action = draw(st.sampled_from(["delete", "null", "other"]))
    if action == "delete":
        del holder[key]
    elif action == "null":
        holder[key] = None
    else:
        kind = type(holder[key])
        holder[key] = draw(JSON_VALUES.filter(lambda value: type(value) is not kind))
    return copy


@st.composite
def mangled_streams(draw: st.DrawFn) -> list[Message]:
    stream = list(draw(st.sampled_from(streams())))
    notifications = [i for i, m in enumerate(stream) if m["type"] in NOTIFICATIONS]
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(["junk", "unknown", "broken", "false"]))
        if kind == "broken":
            original = stream[draw(st.sampled_from(notifications))]
            bad = draw(broken(original))
        else:
            strategy = {"junk": JUNK_OBJECTS, "unknown": UNKNOWN_TYPES}.get(
                kind, FALSE_NOTIFICATIONS
            )
            bad = draw(strategy)
        if draw(st.booleans()):  # substitute a notification
            stream[draw(st.sampled_from(notifications))] = bad
        else:  # insert, anywhere
            stream.insert(draw(st.integers(0, len(stream))), bad)
            notifications = [i for i, m in enumerate(stream) if m.get("type") in NOTIFICATIONS]
    return stream


@settings(max_examples=80)
@given(mangled_streams())
def test_mangled_notifications_are_skipped_and_every_request_is_answered_legally(
    stream: list[Message],
) -> None:
    log: list[str] = []
    replies = run(stream, log)  # raises if the bot gave up
    check_every_request_answered_legally(stream, replies)
    for line in log:
        assert "\n" not in line
        assert "unexpected" not in line, line


# ------------------------------------------------- the real program, twice


class KeptProcess(Bot):
    """One ``spades bot`` process kept for several games, as some hosts do."""

    def __init__(self, process: BotProcess) -> None:
        super().__init__()
        self.process = process

    def ask(self, message: Message) -> Message:
        self.tell(message)
        line = self.process.read_line(timeout=30)
        assert line is not None, self.process.exit_reason()
        return decode(line)

    def tell(self, message: Message) -> None:
        self.process.send(encode(message))

    def start_game(self, seat: Seat, rules: Rules) -> None:
        assert self.ask(hello(seat, rules))["type"] == "ready"

    def observe(self, event: Event, view: PlayerView) -> None:
        if not (isinstance(event, HandDealt) and event.number > 1):  # one-hand tables
            self.tell(event_message(event, view))

    def bid(self, view: PlayerView) -> int:
        return bid_from_reply(self.ask(bid_request(view)))

    def play(self, view: PlayerView) -> Card:
        return card_from_reply(self.ask(play_request(view)))


def test_game_over_without_a_winner_leaves_the_program_up_for_the_next_game() -> None:
    process = BotProcess([SPADES_SCRIPT, "bot", "normal", "--seed", "1"])
    kept = KeptProcess(process)
    try:
        for number in range(2):  # two one-hand duplicate tables on the same process
            bots: dict[Seat, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
            bots[NORTH] = kept
            game = play_hand(bots, dealer=EAST, deal=deal_from_seed(number), seed=number)
            assert game.forfeited_by is None and len(game.history) == 1
            score = score_json(game.totals, game.bags)
            kept.tell({"type": "game_over", "winner": None, "reason": "target", "score": score})
        kept.tell({"type": "quit"})
        assert (
            process.exit_reason()
            == "exited with code 0 (last line on stderr: "
            + repr("spades bot: the game ended without a winner (game_over says null)")
            + ")"
        )
    finally:
        process.stop()
    assert (
        list(process.stderr_tail)
        == ["spades bot: the game ended without a winner (game_over says null)"] * 2
    )


def test_the_program_logs_a_skipped_notification_in_one_line_on_stderr() -> None:
    hello_line = json.dumps(hello(SOUTH, Rules()))
    result = subprocess.run(
        [SPADES_SCRIPT, "bot", "normal"],
        input=f'{hello_line}\n{{"type": "card_played", "seat": "E", "card": 10}}\n',
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0
    assert result.stderr == "spades bot: skipped the host's card_played message: 10 is not a card\n"
