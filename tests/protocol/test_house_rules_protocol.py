"""The protocol under house rules: a bot program makes its own Nil passes and
decides blind Nil before it is sent its cards; a bot written before either
request gets the documented default, and a mangled answer forfeits naming why."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spades.arena import play_game
from spades.bots import Bot, make_bot
from spades.bots.base import default_pass
from spades.core import (
    BLIND_NIL,
    EAST,
    NIL,
    SEATS,
    WEST,
    Card,
    CardsPassed,
    Game,
    Phase,
    PlayerView,
    Rules,
    Seat,
    game_from_record,
    game_to_record,
    parse_rules,
    rules_name,
)
from spades.core.cards import CARD_NAMES
from spades.protocol import ExternalBot, ProtocolError, serve
from spades.protocol.messages import is_answer
from spades.session import bot_turn

from .programs import QUIRKY_BOT, SIMPLE_BOT, SPADES_SCRIPT

HOUSE = parse_rules("cardcouch,target=300,blind_nil=on,nil_pass=2,blind_nil_pass=1")
"""Blind Nil open from the first hand (no ``blind_nil_behind``), and both passes."""


def played(bots: Mapping[Seat, Bot], seed: int, rules: Rules = HOUSE) -> Game:
    try:
        game = play_game(bots, seed=seed, rules=rules)
    finally:
        for bot in bots.values():
            bot.close()
    game_from_record(game_to_record(game))  # the record replays under its rules
    return game


def bids_and_passes(game: Game) -> list[Any]:
    """Every hand's bids, passes and tricks, as the record has them."""
    return [
        {key: hand[key] for key in ("bids", "passes", "tricks") if key in hand}
        for hand in game_to_record(game)["hands"]
    ]


# ----------------------------------------------- spades bot, the real entry point


@pytest.mark.slow
def test_served_bots_decide_blind_nil_and_their_passes_as_they_do_in_process() -> None:
    # Random bots (blind Nil one time in 15, random passes, not the host's
    # default) sink by a set or two a hand: a floor of -1000 gives several hands.
    rules = parse_rules(rules_name(HOUSE) + ",floor=-1000")
    levels = dict.fromkeys(SEATS, "random")
    seed = 4
    served = played(
        {
            seat: ExternalBot([SPADES_SCRIPT, "bot", level], seed=f"{seed}:{seat}")
            for seat, level in levels.items()
        },
        seed,
        rules,
    )
    in_process = played(
        {seat: make_bot(level, seed=f"{seed}:{seat}") for seat, level in levels.items()},
        seed,
        rules,
    )
    assert served.forfeited_by is None
    # The same game: every blind Nil decision and every pass was the bot's own.
    assert bids_and_passes(served) == bids_and_passes(in_process)
    hands = game_to_record(served)["hands"]
    assert any(bid == "blind_nil" for hand in hands for _, bid in hand["bids"])
    assert any(hand.get("passes") for hand in hands)


def test_a_blind_nil_is_offered_before_the_program_has_seen_a_card() -> None:
    log = io.StringIO()
    blind = ExternalBot([*QUIRKY_BOT, "blind"], stderr=log)
    bots: dict[Seat, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[EAST] = blind
    game = played(bots, seed=3)
    assert game.forfeited_by is None
    offers = [line for line in log.getvalue().splitlines() if line.startswith("offered")]
    assert offers and set(offers) == {"offered blind Nil holding 0 cards"}
    assert blind.accepts == {"blind_nil", "pass"}
    bids = [dict(hand["bids"])["E"] for hand in game_to_record(game)["hands"]]
    assert bids.count("blind_nil") == len(offers)  # it said yes to every offer


def test_an_old_bot_is_never_offered_blind_nil_and_gets_the_default_pass() -> None:
    class Watched(ExternalBot):
        """The example bot (no ``accepts``), its passes written down."""

        def __init__(self, command: list[str]) -> None:
            super().__init__(command)
            self.passes: list[tuple[PlayerView, list[Card]]] = []

        def pass_cards(self, view: PlayerView) -> list[Card]:
            cards = super().pass_cards(view)
            self.passes.append((view, cards))
            return cards

    class NilBidder(Bot):
        """Bids Nil every hand, so its partner, the example bot, passes."""

        def bid(self, view: PlayerView) -> int:
            return NIL

        def play(self, view: PlayerView) -> Card:
            return view.legal_cards()[0]

    old = Watched(SIMPLE_BOT)
    bots: dict[Seat, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[EAST], bots[WEST] = old, NilBidder()
    game = played(bots, seed=4)
    assert game.forfeited_by is None and old.accepts == frozenset()
    assert old.passes and all(cards == default_pass(view) for view, cards in old.passes)
    assert all(dict(hand["bids"])["E"] != "blind_nil" for hand in game_to_record(game)["hands"])


def test_blind_nil_bid_after_seeing_the_cards_forfeits_naming_the_rule() -> None:
    bots: dict[Seat, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[EAST] = ExternalBot([*QUIRKY_BOT, "blind-bid"])
    game = played(bots, seed=2)
    assert game.forfeited_by is not None and game.forfeited_by[0] == EAST
    assert game.forfeited_by[1] == (
        "East forfeits: bid blind Nil after seeing its cards: the host offers blind Nil "
        'before the deal, to programs that list "blind_nil" in ready\'s "accepts" '
        "(rule blind-nil)"
    )


def test_a_pass_of_the_wrong_number_of_cards_forfeits_naming_the_rule() -> None:
    bots: dict[Seat, Bot] = {seat: make_bot("random", seed=seat) for seat in SEATS}
    bots[EAST] = ExternalBot([*QUIRKY_BOT, "bad-pass"])
    game = played(bots, seed=3)
    assert game.forfeited_by is not None and game.forfeited_by[0] == EAST
    reason = game.forfeited_by[1]
    assert reason.startswith("East passed illegal cards (")
    assert reason.endswith(", not 2 (rule nil-pass)") or reason.endswith(", not 3 (rule nil-pass)")


# ------------------------------------------------------------- the served side


def test_spades_bot_answers_the_offer_unseen_then_reads_its_cards() -> None:
    class Blind(Bot):
        def __init__(self) -> None:
            super().__init__()
            self.seen: list[PlayerView] = []

        def bid(self, view: PlayerView) -> int:
            return 3

        def blind_nil(self, view: PlayerView) -> bool:
            self.seen.append(view)
            return True

        def pass_cards(self, view: PlayerView) -> list[Card]:
            self.seen.append(view)
            return default_pass(view)

        def play(self, view: PlayerView) -> Card:
            return view.legal_cards()[0]

    score = {"NS": {"total": 0, "bags": 0}, "EW": {"total": 0, "bags": 0}}
    cards = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    lines = [
        {"type": "hello", "protocol": "spades-bot/1", "seat": "S", "rules": HOUSE.to_dict()},
        {"type": "new_hand", "hand": 1, "dealer": "E", "cards_withheld": True, "score": score},
        {"type": "blind_nil", "bids": [], "score": score},
        {"type": "cards", "cards": cards},
        {"type": "bid_made", "seat": "S", "bid": "blind_nil"},
        {"type": "bid_made", "seat": "W", "bid": 4},
        {"type": "bid_made", "seat": "N", "bid": 3},
        {"type": "bid_made", "seat": "E", "bid": 4},
        {"type": "pass", "to": "N", "count": 1, "hand": cards, "bids": []},
    ]
    out, log = io.StringIO(), []
    bot = Blind()
    serve(bot, io.StringIO("\n".join(map(json.dumps, lines)) + "\n"), out, log=log.append)
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert replies[1:] == [{"blind_nil": True}, {"cards": ["AC"]}]  # its highest card
    offer, passing = bot.seen
    assert offer.hand == 0 and not offer.sees_cards and offer.legal_bids() == [BLIND_NIL]
    assert passing.phase is Phase.PASSING and passing.pass_count == 1 and passing.sees_cards
    assert log == []


# ------------------------------------------------------ mangled answers, strictly


CARD_TEXT = st.sampled_from([*CARD_NAMES, "10h", "as", "1S", "ZZ", "", " AS "])
JSON_JUNK = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 60) | st.floats() | CARD_TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
PASS_ANSWERS = st.one_of(
    st.fixed_dictionaries({"cards": st.lists(CARD_TEXT, max_size=4)}),
    st.fixed_dictionaries({"cards": JSON_JUNK}),
    st.dictionaries(st.sampled_from(["card", "bid", "type", "pass"]), JSON_JUNK, max_size=2),
)
BLIND_ANSWERS = st.one_of(
    st.fixed_dictionaries({"blind_nil": JSON_JUNK}),
    st.dictionaries(st.sampled_from(["bid", "type", "blind"]), JSON_JUNK, max_size=2),
)


class Scripted(ExternalBot):
    """An ``ExternalBot`` whose program's answer is given: the host's reading of
    it, and the referee's judgement, are what is tested."""

    def __init__(self, *answers: dict[str, Any]) -> None:
        super().__init__(["scripted"])
        self.accepts = frozenset({"blind_nil", "pass"})
        self.answers = list(answers)

    def _send(self, message: dict[str, Any]) -> None:
        pass

    def _ask(self, message: dict[str, Any], request: str) -> dict[str, Any]:
        assert message["type"] == request
        reply: dict[str, Any] = json.loads(json.dumps(self.answers.pop(0)))  # as JSON holds it
        try:
            if is_answer(reply, request):
                return reply
        except ProtocolError as error:
            self._fail(str(error))
        self._fail("did not answer (its one line was of a type the host skips)")


def a_game_at_the_pass() -> tuple[Game, Seat]:
    """A game whose first bidder bid Nil: it is to pass 2 cards to its partner."""
    game = Game(HOUSE, seed=8)
    nil_bidder = game.to_act
    assert nil_bidder is not None
    for bid in (NIL, 3, 4, 3):
        game.bid(game.to_act or 0, bid)
    assert game.phase is Phase.PASSING
    return game, nil_bidder


@pytest.mark.slow
@settings(max_examples=150)
@given(PASS_ANSWERS)
def test_a_mangled_pass_answer_forfeits_with_a_reason_and_a_good_one_is_made(
    answer: dict[str, Any],
) -> None:
    game, seat = a_game_at_the_pass()
    hand = game.view(seat).hand
    events = bot_turn(game, seat, Scripted(answer))
    cards = answer.get("cards")
    names = [name.strip().upper().replace("10", "T") for name in cards] if _strings(cards) else []
    legal = (
        len(names) == 2
        and len(set(names)) == 2
        and all(name in CARD_NAMES and hand >> CARD_NAMES.index(name) & 1 for name in names)
    )
    if legal:
        assert game.forfeited_by is None and isinstance(events[0], CardsPassed)
        assert game.view(seat).passed == sum(1 << CARD_NAMES.index(name) for name in names)
    else:
        assert game.forfeited_by is not None and game.forfeited_by[0] == seat
        reason = game.forfeited_by[1]
        assert reason.startswith(("North", "East", "South", "West"))
        assert (
            "answered the pass request" in reason
            or 'without a "cards"' in reason
            or "did not answer" in reason
            or reason.endswith(("(rule nil-pass)", "(rule hold-card)"))
        ), reason


@settings(max_examples=100)
@given(BLIND_ANSWERS)
def test_a_blind_nil_answer_must_be_true_or_false(answer: dict[str, Any]) -> None:
    game = Game(HOUSE, seed=8)
    seat = game.to_act
    assert seat is not None
    bot = Scripted(answer, {"bid": 4})
    bot._withheld = game.view(seat).hand  # offered: the deal is held back
    bot_turn(game, seat, bot)
    value = answer.get("blind_nil", "missing")
    if isinstance(value, bool):
        assert game.forfeited_by is None
        assert game.view(seat).bid_of(seat) == (BLIND_NIL if value else 4)
    else:
        assert game.forfeited_by is not None
        reason = game.forfeited_by[1]
        assert "blind_nil request" in reason or "did not answer" in reason, reason


def _strings(value: object) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value)
