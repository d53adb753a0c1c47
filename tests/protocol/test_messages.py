"""The wire format of spades-bot/1, pinned message by message."""

from __future__ import annotations

from typing import Any

import pytest

from spades.core import (
    EAST,
    NIL,
    Game,
    GameOver,
    Rules,
    parse_card,
)
from spades.core.cards import cards_in
from spades.protocol.messages import (
    ProtocolError,
    bid_from_reply,
    bid_request,
    card_from_reply,
    decode,
    event_message,
    hello,
    is_answer,
    play_request,
)

ZERO = {"NS": {"total": 0, "bags": 0}, "EW": {"total": 0, "bags": 0}}


def test_hello_names_the_protocol_the_seat_and_the_rules() -> None:
    assert hello(EAST, Rules(target=300), seed="9:E") == {
        "type": "hello",
        "protocol": "spades-bot/1",
        "seat": "E",
        "rules": {
            "target": 300,
            "floor": -200,
            "bag_limit": 10,
            "bag_penalty": 100,
            "nil_bonus": 100,
            "blind_nil": False,
        },
        "seed": "9:E",
    }
    assert "seed" not in hello(EAST, Rules())


def first_hand_messages(game: Game) -> list[dict[str, Any]]:
    """Play the first hand (bids 3, lowest legal cards); East's messages of it."""
    messages = [event_message(game.log[0], game.view(EAST))]
    for _ in range(4):
        event = game.bid(game.to_act or 0, 3 if game.to_act != EAST else NIL)[0]
        messages.append(event_message(event, game.view(EAST)))
    while len(game.history) < 1:
        events = game.play(game.to_act or 0, game.legal_cards()[0])
        messages.extend(event_message(event, game.view(EAST)) for event in events)
    return messages


def test_every_event_of_a_hand_becomes_its_message() -> None:
    game = Game(seed=5)
    messages = first_hand_messages(game)
    kinds = [message["type"] for message in messages]
    assert kinds[:5] == ["new_hand", "bid_made", "bid_made", "bid_made", "bid_made"]
    assert kinds.count("card_played") == 52 and kinds.count("trick_won") == 13
    assert kinds[-2:] == ["hand_over", "new_hand"]

    deal = messages[0]
    assert deal["hand"] == 1 and deal["dealer"] in "NESW" and deal["score"] == ZERO
    assert [parse_card(card) for card in deal["cards"]] == list(
        cards_in(game.history[0].state.deal[EAST])
    )
    assert {"type": "bid_made", "seat": "E", "bid": "nil"} in messages

    first_trick = messages[5:10]
    assert [m["type"] for m in first_trick] == ["card_played"] * 4 + ["trick_won"]
    assert first_trick[4]["cards"] == [m["card"] for m in first_trick[:4]]
    assert first_trick[4]["leader"] == first_trick[0]["seat"]

    over = messages[-2]
    assert set(over) == {"type", "hand", "tricks_won", "score"}
    assert sum(over["tricks_won"].values()) == 13
    assert set(over["score"]["NS"]) == {"delta", "total", "bags"}
    assert (
        messages[-1]["hand"] == 2
        and messages[-1]["score"]["NS"]["total"] == (over["score"]["NS"]["total"])
    )


def test_game_over_gives_the_winner_the_reason_and_the_standing() -> None:
    game = Game(seed=5)
    game.forfeit(EAST, "East crashed")
    event = game.log[-1]
    assert isinstance(event, GameOver)
    assert event_message(event, game.view(EAST)) == {
        "type": "game_over",
        "winner": "NS",
        "reason": "forfeit",
        "score": ZERO,
    }


def test_requests_carry_what_a_stateless_bot_needs() -> None:
    game = Game(seed=5)
    first = game.to_act or 0
    game.bid(first, NIL)
    assert bid_request(game.view(game.to_act or 0)) == {
        "type": "bid",
        "bids": [["NESW"[first], "nil"]],
    }
    for _ in range(3):
        game.bid(game.to_act or 0, 3)
    leader = game.to_act or 0
    game.play(leader, game.legal_cards()[0])
    seat = game.to_act or 0
    request = play_request(game.view(seat))
    assert request["type"] == "play"
    assert request["trick"]["leader"] == "NESW"[leader] and len(request["trick"]["cards"]) == 1
    assert [parse_card(c) for c in request["legal"]] == game.legal_cards()
    assert len(request["hand"]) == 13


@pytest.mark.parametrize(
    ("reply", "bid"),
    [({"bid": 4}, 4), ({"bid": "nil"}, NIL), ({"bid": "Nil"}, NIL), ({"bid": 14}, 14)],
)
def test_a_bid_reply_is_returned_as_is_for_the_referee_to_judge(
    reply: dict[str, Any], bid: int
) -> None:
    assert bid_from_reply(reply) == bid


@pytest.mark.parametrize("value", [0, "three", "4", 4.0, True, None, [3]])
def test_a_bid_that_is_no_bid_at_all_is_a_protocol_error(value: object) -> None:
    with pytest.raises(
        ProtocolError, match=r'answered the bid request badly: .* is not a bid: a bid is "nil"'
    ):
        bid_from_reply({"bid": value})


def test_card_replies() -> None:
    assert card_from_reply({"card": "KH"}) == parse_card("KH")
    assert card_from_reply({"card": "10h"}) == parse_card("TH")
    with pytest.raises(ProtocolError, match="answered the play request badly: 'ZZ' is not a card"):
        card_from_reply({"card": "ZZ"})
    with pytest.raises(ProtocolError, match="5 is not a card"):
        card_from_reply({"card": 5})


def test_lines_that_are_not_json_objects_are_protocol_errors_quoted_and_cut() -> None:
    with pytest.raises(ProtocolError, match=r"^wrote a line that is not JSON: 'oops'$"):
        decode("oops\n")
    with pytest.raises(ProtocolError, match=r"wrote JSON that is not an object: '\[1, 2\]'"):
        decode("[1, 2]")
    with pytest.raises(ProtocolError) as caught:
        decode("x" * 500)
    assert len(str(caught.value)) < 120


def test_answers_and_unknown_messages() -> None:
    assert is_answer({"type": "ready", "name": "x"}, "hello")
    assert is_answer({"type": "card", "card": "AS"}, "play")
    assert not is_answer({"type": "log", "text": "thinking"}, "play")
    with pytest.raises(
        ProtocolError, match=r'answered the hello request without \{"type": "ready"\}'
    ):
        is_answer({"name": "x"}, "hello")
    with pytest.raises(ProtocolError, match='without a "card"'):
        is_answer({"type": "bid", "bid": 3}, "play")
