"""The messages of ``spades-bot/1``, as pure functions (no I/O).

The host turns engine events and views into messages with these functions and
checks the bot's replies with them; the bot side (``serve.py``) reads the same
notation back. Cards are written as in records (``"AS"``, ``"TD"``), seats as
``"N"``, ``"E"``, ``"S"``, ``"W"``, partnerships as ``"NS"`` and ``"EW"``, and
Nil as ``"nil"``. ``docs/bot-protocol.md`` is the reference.

>>> from spades.core import parse_card
>>> encode({"type": "bid", "bids": [["E", 3], ["S", "nil"]]})
'{"type":"bid","bids":[["E",3],["S","nil"]]}\\n'
>>> bid_from_reply(decode('{"bid": "nil"}')), card_from_reply({"card": "KH"}) == parse_card("KH")
(0, True)
>>> decode("I bid three")
Traceback (most recent call last):
...
spades.protocol.messages.ProtocolError: wrote a line that is not JSON: 'I bid three'
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any, Final, assert_never

from spades.core import (
    BidMade,
    BidProblem,
    BidReadError,
    BidSyntax,
    Card,
    CardPlayed,
    CardsPassed,
    Event,
    GameOver,
    HandDealt,
    HandScored,
    PlayerView,
    Rules,
    Seat,
    TrickWon,
    parse_card,
    read_bid,
)
from spades.core import bid_to_json as core_bid_to_json
from spades.core.cards import CARD_NAMES, cards_in
from spades.core.seats import SEAT_LETTERS, TEAM_NAMES

PROTOCOL: Final = "spades-bot/1"

Message = dict[str, Any]
"""One protocol message: a JSON object."""

BOT_MESSAGE_TYPES: Final = frozenset({"ready", "bid", "card", "play", "pass", "blind_nil", "cards"})
"""The ``type`` values a bot's line may carry in this version. A line with any
other ``type`` is a message from a later version and is skipped."""

OPTIONAL_REQUESTS: Final = ("blind_nil", "pass")
"""Requests a host sends only to a bot that lists them in ``ready``'s ``accepts``:
a bot written before them never receives one (the host decides for it instead)."""

QUOTE_LENGTH: Final = 80


class ProtocolError(ValueError):
    """A line or a reply that breaks the protocol; the message says how."""


def quote(text: str) -> str:
    """``text`` quoted for an error message, cut to a readable length.

    >>> quote("x" * 100)[-6:]
    "xx...'"
    """
    if len(text) > QUOTE_LENGTH:
        text = text[: QUOTE_LENGTH - 3] + "..."
    return repr(text)


def quote_json(value: object) -> str:
    """``value`` as JSON for an error message, cut to a readable length."""
    text = json.dumps(value)
    return text if len(text) <= QUOTE_LENGTH else text[: QUOTE_LENGTH - 3] + "..."


# ------------------------------------------------------------------- notation


def bid_to_json(bid: int) -> int | str:
    """A bid as written on the wire: ``"nil"``, ``"blind_nil"`` or the number."""
    written = core_bid_to_json(bid)
    assert written is not None
    return written


def bid_from_json(value: object) -> int:
    """A bid from the wire (``read_bid`` with ``BidSyntax.JSON``): ``NIL`` for ``"nil"``
    (any case), ``BLIND_NIL`` for ``"blind_nil"``, else the number as is.

    A number outside 1..13 is returned unchanged: the referee judges it (and
    forfeits the bot). Zero is refused here, because the engine would take it
    for Nil, which the protocol spells ``"nil"``.

    >>> bid_from_json("NIL"), bid_from_json(14), bid_from_json("blind_nil")
    (0, 14, -1)
    >>> bid_from_json("three")
    Traceback (most recent call last):
    ...
    spades.protocol.messages.ProtocolError: "three" is not a bid: a bid is "nil" or a number from 1 to 13
    """
    # The wire is strict: a number is a JSON number, and Nil is only ever named.
    try:
        return read_bid(value, BidSyntax.JSON)
    except BidReadError as error:
        if error.problem is BidProblem.NOT_A_BID and isinstance(value, str):
            raise ProtocolError(str(error)) from None
        raise ProtocolError(
            f'{quote_json(value)} is not a bid: a bid is "nil" or a number from 1 to 13'
        ) from None


def card_names(cards: int | Iterable[Card]) -> list[str]:
    """Card names of a mask (lowest first: clubs to spades, 2 to ace) or of a sequence."""
    return [CARD_NAMES[card] for card in (cards_in(cards) if isinstance(cards, int) else cards)]


def score_json(
    totals: tuple[int, int], bags: tuple[int, int], deltas: tuple[int, int] | None = None
) -> dict[str, dict[str, int]]:
    """Both partnerships' standing: ``{"NS": {"total": .., "bags": ..}, "EW": ...}``,
    with each ``delta`` first when given (the hand just scored)."""
    score: dict[str, dict[str, int]] = {}
    for team in (0, 1):
        entry = {"delta": deltas[team]} if deltas is not None else {}
        score[TEAM_NAMES[team]] = {**entry, "total": totals[team], "bags": bags[team]}
    return score


# ------------------------------------------------------------- host to bot


def hello(seat: Seat, rules: Rules, seed: int | str | None = None) -> Message:
    """The first message: the bot's seat and the rules (``seed`` only when given)."""
    message: Message = {
        "type": "hello",
        "protocol": PROTOCOL,
        "seat": SEAT_LETTERS[seat],
        "rules": rules.to_dict(),
    }
    if seed is not None:
        message["seed"] = seed
    return message


def event_message(event: Event, view: PlayerView, *, withhold_cards: bool = False) -> Message:
    """The message telling the bot of ``event``; ``view`` is the bot's view after
    the turn that caused it (as the referee gives it), used for the new hand's cards
    (left out with ``withhold_cards``: the seat is to decide blind Nil first)."""
    match event:
        case HandDealt():
            return new_hand(event, view, withhold_cards=withhold_cards)
        case BidMade():
            return {
                "type": "bid_made",
                "seat": SEAT_LETTERS[event.seat],
                "bid": bid_to_json(event.bid),
            }
        case CardsPassed():
            # Which cards is known to the two partners only: the giver sent them,
            # and the receiver learns them in its next ``play`` request's hand.
            message: Message = event.to_dict()
            if event.seat == view.seat:
                message["cards"] = card_names(view.passed)
            return message
        case CardPlayed():
            return {
                "type": "card_played",
                "seat": SEAT_LETTERS[event.seat],
                "card": CARD_NAMES[event.card],
            }
        case TrickWon():
            return {
                "type": "trick_won",
                "seat": SEAT_LETTERS[event.seat],
                "leader": SEAT_LETTERS[event.trick.leader],
                "cards": card_names(event.trick.cards),
            }
        case HandScored():
            return hand_over(event)
        case GameOver():
            return {
                "type": "game_over",
                "winner": TEAM_NAMES[event.outcome.winner],
                "reason": event.outcome.termination.value,
                "score": score_json(event.totals, view.bags),
            }
        case _:
            assert_never(event)


def new_hand(event: HandDealt, view: PlayerView, *, withhold_cards: bool = False) -> Message:
    """A new deal: the seat's 13 cards and the score before the hand.

    The referee reports a deal before anyone acts in the new hand, so the
    view's hand is still the whole deal. With ``withhold_cards`` the message
    says ``"cards_withheld": true`` instead of naming them: the seat will be
    offered blind Nil first, and must not have seen its cards when it answers.
    """
    message: Message = {
        "type": "new_hand",
        "hand": event.number,
        "dealer": SEAT_LETTERS[event.dealer],
        "cards": card_names(view.hand),
        "score": score_json(view.totals, view.bags),
    }
    if withhold_cards:
        del message["cards"]
        message["cards_withheld"] = True
    return message


def cards_message(hand: int) -> Message:
    """The cards the seat holds now, after they changed other than by its own
    play: once it decided blind Nil (its withheld deal), and once the Nil
    passes of the hand are all made (its hand with the cards it was passed)."""
    return {"type": "cards", "cards": card_names(hand)}


def hand_over(event: HandScored) -> Message:
    """The hand's tricks per seat and each partnership's delta, total and bags."""
    deltas = (event.scores[0].delta, event.scores[1].delta)
    bags = (event.scores[0].bags, event.scores[1].bags)
    return {
        "type": "hand_over",
        "hand": event.number,
        "tricks_won": dict(zip(SEAT_LETTERS, event.tricks_won, strict=True)),
        "score": score_json(event.totals, bags, deltas),
    }


def bid_request(view: PlayerView) -> Message:
    """Ask for a bid, with the bids made before it in bidding order."""
    return {
        "type": "bid",
        "bids": [[SEAT_LETTERS[seat], bid_to_json(bid)] for seat, bid in view.bids],
    }


def play_request(view: PlayerView) -> Message:
    """Ask for a card: the trick so far, the legal cards and (for bots that keep
    no state) the cards still held."""
    return {
        "type": "play",
        "trick": {"leader": SEAT_LETTERS[view.leader], "cards": card_names(view.trick)},
        "legal": card_names(view.legal_mask()),
        "hand": card_names(view.hand),
    }


def blind_nil_request(view: PlayerView) -> Message:
    """Offer blind Nil, before the seat has its cards: the bids so far and the score."""
    return {
        "type": "blind_nil",
        "bids": [[SEAT_LETTERS[seat], bid_to_json(bid)] for seat, bid in view.bids],
        "score": score_json(view.totals, view.bags),
    }


def pass_request(view: PlayerView) -> Message:
    """Ask for a Nil pass: to whom, how many cards, the cards held and the bids."""
    assert view.passing is not None and view.passing[0] == view.seat
    _, receiver, count = view.passing
    return {
        "type": "pass",
        "to": SEAT_LETTERS[receiver],
        "count": count,
        "hand": card_names(view.hand),
        "bids": [[SEAT_LETTERS[seat], bid_to_json(bid)] for seat, bid in view.bids],
    }


def quit_message() -> Message:
    return {"type": "quit"}


# ------------------------------------------------------------- bot to host


def encode(message: Mapping[str, Any]) -> str:
    """One message as one line, newline included."""
    return json.dumps(message, separators=(",", ":")) + "\n"


def decode(line: str) -> Message:
    """The JSON object on ``line``; a ``ProtocolError`` quoting it otherwise."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than json can read
        raise ProtocolError(f"wrote a line that is not JSON: {quote(line.strip())}") from None
    if not isinstance(message, dict):
        raise ProtocolError(f"wrote JSON that is not an object: {quote(line.strip())}")
    return message


ANSWER_KEY: Final = {"bid": "bid", "play": "card", "blind_nil": "blind_nil", "pass": "cards"}
"""The key that holds the answer to each request but ``hello``."""
EXPECTED_ANSWER: Final = {
    "hello": '{"type": "ready"}',
    **{request: f'a "{key}"' for request, key in ANSWER_KEY.items()},
}
"""What each request's answer must hold, as error messages name it."""


def is_answer(reply: Mapping[str, Any], request: str) -> bool:
    """Whether ``reply`` answers ``request`` (``"hello"``, ``"bid"`` or ``"play"``).

    False for a message of a type this version does not know, which the host
    skips; a ``ProtocolError`` for anything else.

    >>> is_answer({"bid": 4, "note": "fields I do not know are fine"}, "bid")
    True
    >>> is_answer({"type": "chat", "text": "gl hf"}, "bid")
    False
    >>> is_answer({"card": "KH"}, "bid")
    Traceback (most recent call last):
    ...
    spades.protocol.messages.ProtocolError: answered the bid request without a "bid": {"card": "KH"}
    """
    kind = reply.get("type")
    if request == "hello" and kind == "ready":
        return True
    if request in ANSWER_KEY and ANSWER_KEY[request] in reply:
        return True
    if isinstance(kind, str) and kind not in BOT_MESSAGE_TYPES:
        return False
    raise ProtocolError(
        f"answered the {request} request without {EXPECTED_ANSWER[request]}: "
        f"{quote_json(dict(reply))}"
    )


def name_from_ready(reply: Mapping[str, Any]) -> str | None:
    """The name a bot gave in its ``ready`` line, if it gave a usable one."""
    name = reply.get("name")
    if isinstance(name, str) and name.strip():
        return name.strip()[:QUOTE_LENGTH]
    return None


def accepted_requests(reply: Mapping[str, Any]) -> frozenset[str]:
    """The optional requests a bot's ``ready`` says it answers (its ``accepts``).

    Read tolerantly: anything but a list of strings counts as none, and names
    this version does not know are left out.

    >>> sorted(accepted_requests({"type": "ready", "accepts": ["pass", "chat", 3]}))
    ['pass']
    >>> accepted_requests({"type": "ready", "accepts": "pass"})
    frozenset()
    """
    accepts = reply.get("accepts")
    if not isinstance(accepts, list):
        return frozenset()
    return frozenset(name for name in accepts if name in OPTIONAL_REQUESTS)


def blind_nil_from_reply(reply: Mapping[str, Any]) -> bool:
    """The answer of a ``{"blind_nil": true}`` reply: a JSON boolean, nothing else.

    >>> blind_nil_from_reply({"blind_nil": False})
    False
    >>> blind_nil_from_reply({"blind_nil": "yes"})
    Traceback (most recent call last):
    ...
    spades.protocol.messages.ProtocolError: answered the blind_nil request badly: "yes" is not true or false
    """
    value = reply["blind_nil"]
    if not isinstance(value, bool):
        raise ProtocolError(
            f"answered the blind_nil request badly: {quote_json(value)} is not true or false"
        )
    return value


def pass_from_reply(reply: Mapping[str, Any]) -> list[Card]:
    """The cards of a ``{"cards": ["AS", "KH"]}`` reply, unchecked against the rules
    (the engine names the rule a pass breaks: how many, which held).

    >>> pass_from_reply({"cards": ["AS", "10h"]}) == [parse_card("AS"), parse_card("TH")]
    True
    >>> pass_from_reply({"cards": "AS KH"})
    Traceback (most recent call last):
    ...
    spades.protocol.messages.ProtocolError: answered the pass request badly: "AS KH" is not a list of cards: write it like ["AS", "KH"]
    """
    value = reply["cards"]
    try:
        if not isinstance(value, list):
            raise ValueError(
                f'{quote_json(value)} is not a list of cards: write it like ["AS", "KH"]'
            )
        cards: list[Card] = []
        for item in value:
            if not isinstance(item, str):
                raise ValueError(f"{quote_json(item)} is not a card: write it like 'KH' or 'TD'")
            cards.append(parse_card(item))
        return cards
    except ValueError as error:
        raise ProtocolError(f"answered the pass request badly: {error}") from None


def bid_from_reply(reply: Mapping[str, Any]) -> int:
    """The bid of a ``{"bid": ...}`` reply (``NIL`` is 0), unchecked against the rules."""
    try:
        return bid_from_json(reply["bid"])
    except ProtocolError as error:
        raise ProtocolError(f"answered the bid request badly: {error}") from None


def card_from_reply(reply: Mapping[str, Any]) -> Card:
    """The card of a ``{"card": "KH"}`` reply, unchecked against the rules."""
    value = reply["card"]
    try:
        if not isinstance(value, str):
            raise ValueError(f"{quote_json(value)} is not a card: write it like 'KH' or 'TD'")
        return parse_card(value)
    except ValueError as error:
        raise ProtocolError(f"answered the play request badly: {error}") from None
