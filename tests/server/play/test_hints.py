"""The hint: the strongest level's move, and a one-line reason true of the position."""

from __future__ import annotations

from spades.bots import BOT_LEVELS, KnowledgeBot, make_bot
from spades.bots.knowledge.reasons import bid_reason, card_reason
from spades.core import (
    EAST,
    NIL,
    NORTH,
    SOUTH,
    WEST,
    Game,
    Phase,
    PlayerView,
    mask_of,
    parse_card,
    parse_cards,
)
from spades.core.cards import SUIT_MASKS, SUIT_OF
from spades.server.play.hints import hint_level, suggest

ALL_BIDS = ((EAST, 3), (SOUTH, 3), (WEST, 3), (NORTH, 3))


def view(
    hand: str,
    *,
    leader: int = SOUTH,
    trick: str = "",
    bids: tuple[tuple[int, int], ...] = ALL_BIDS,
    tricks_won: tuple[int, int, int, int] = (0, 0, 0, 0),
    spades_broken: bool = False,
) -> PlayerView:
    return PlayerView(
        seat=SOUTH,
        hand=mask_of(parse_cards(hand)),
        dealer=NORTH,
        phase=Phase.PLAYING,
        turn=SOUTH,
        bids=bids,
        leader=leader,
        trick=tuple(parse_cards(trick)),
        tricks=(),
        tricks_won=tricks_won,
        spades_broken=spades_broken,
    )


def test_hint_asks_the_strongest_level_there_is() -> None:
    saved = dict(BOT_LEVELS)
    try:
        for level in ("expert", "hard"):
            del BOT_LEVELS[level]
        assert hint_level() == "normal"
        BOT_LEVELS["hard"] = KnowledgeBot
        assert hint_level() == "hard"
        BOT_LEVELS["expert"] = KnowledgeBot
        assert hint_level() == "expert"
    finally:
        # Put the registry back as it was, order included: it lists the levels
        # weakest first (monkeypatch would re-insert removed levels at the end).
        BOT_LEVELS.clear()
        BOT_LEVELS.update(saved)


def test_cash_your_master() -> None:
    reason = card_reason(view("AH 5H 2C 3D 4S"), parse_card("AH"))
    assert reason == (
        "Cash your master: the Ace of hearts is the highest heart left; only a trump can beat it"
    )


def test_a_master_spade_cannot_lose() -> None:
    reason = card_reason(view("AS 3S", spades_broken=True), parse_card("AS"))
    assert reason.startswith("Cash your master: the Ace of spades is the highest spade left")


def test_stay_under_once_the_bid_is_made() -> None:
    position = view(
        "KH 5H 2C",
        leader=WEST,
        trick="QH 3H 4H",
        bids=((EAST, 3), (SOUTH, 2), (WEST, 4), (NORTH, 2)),
        tricks_won=(2, 3, 2, 3),
    )
    reason = card_reason(position, parse_card("5H"))
    assert reason == (
        "Stay under: your bid is made and a trick now is a bag, "
        "so play the 5 of hearts under the Queen of hearts"
    )


def test_cover_your_partners_nil() -> None:
    position = view(
        "KD 4D 2C",
        leader=WEST,
        trick="5D 9D 7D",
        bids=((EAST, 3), (SOUTH, 4), (WEST, 4), (NORTH, NIL)),
    )
    reason = card_reason(position, parse_card("KD"))
    assert reason == "Cover your partner's Nil: take the trick over North's 9 of diamonds"


def test_duck_to_keep_your_nil() -> None:
    position = view(
        "QC 2C 9H",
        leader=EAST,
        trick="KC",
        bids=((EAST, 3), (SOUTH, NIL), (WEST, 4), (NORTH, 4)),
    )
    reason = card_reason(position, parse_card("QC"))
    assert reason == "Duck to keep your Nil: the Queen of clubs stays under the King of clubs"


def test_the_only_legal_card() -> None:
    position = view("7C 9H AH", leader=EAST, trick="KC")
    assert card_reason(position, parse_card("7C")) == (
        "Play the 7 of clubs: it is your only club, so you must follow with it"
    )


def test_trump_when_void() -> None:
    # North led, East followed: South plays third.
    position = view("3S 9H", leader=NORTH, trick="AC 4C", spades_broken=False)
    reason = card_reason(position, parse_card("3S"))
    assert reason.startswith("Trump it: you have no clubs, and the 3 of spades takes the lead")


def test_bid_reasons_state_the_hand() -> None:
    game = Game(seed=4)
    while game.to_act != SOUTH:
        game.bid(game.to_act, 2)
    south = game.view(SOUTH)
    reason = bid_reason(south, 4)
    aces = sum(1 for c in parse_cards("AS AH AD AC") if south.hand >> c & 1)
    assert reason.startswith("Bid 4: your ")
    if aces:
        assert f"{aces} ace" in reason
    if south.bid_of(NORTH) is not None:
        assert "North's 2 your team bids 6" in reason
    assert bid_reason(south, NIL).startswith("Bid Nil: a hand like yours")


def test_reasons_hold_in_real_games() -> None:
    """Across bot games, every hint has a one-line reason, and the strongest claims
    are checked against the position."""
    checked = 0
    for seed in range(6):
        game = Game(seed=seed)
        bots = {seat: make_bot("normal", seed=f"{seed}:{seat}") for seat in range(4)}
        while not game.is_over and game.hand_number <= 2:
            seat = game.to_act
            assert seat is not None
            position = game.view(seat)
            if seat == SOUTH and game.phase is Phase.PLAYING:
                # The reasons for the normal level's cards (the strongest level is
                # slower; what is checked here is the reasons, whoever chose the card).
                card = bots[seat].play(position)
                reason = card_reason(position, card)
                assert reason and "\n" not in reason
                if reason.startswith("Cash your master"):
                    above = SUIT_MASKS[SUIT_OF[card]] & ~((2 << card) - 1)
                    assert not above & position.unseen
                if "only card you may play" in reason or "you must follow with it" in reason:
                    assert position.legal_mask().bit_count() == 1
                checked += 1
            if game.phase is Phase.BIDDING:
                game.bid(seat, bots[seat].bid(position))
            else:
                game.play(seat, bots[seat].play(position))
    assert checked > 50
    south = Game(seed=9)
    while south.to_act != SOUTH:
        south.bid(south.to_act, 3)
    hint = suggest(south.view(SOUTH), seed="x")
    assert hint.kind == "bid" and hint.level == hint_level() and hint.reason
