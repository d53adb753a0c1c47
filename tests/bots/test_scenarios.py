"""Scenario tests for the bots: each a hand-built position with a right answer,
played by the knowledge-based level and by both search levels.

West deals in every position, so North bids first and leads the first trick;
bids are given in bidding order N, E, S, W. ``complete`` fixes a seat's whole
holding in the suits named (see tests.helpers.deal_with).
"""

from __future__ import annotations

import random
import time

import pytest

from spades.bots import Bot, ExpertBot, SearchBot, make_bot
from spades.core import EAST, NIL, NORTH, SOUTH, WEST, HandState, PlayerView
from spades.core.cards import card_name, parse_cards
from spades.core.hand import deal
from tests.helpers import deal_with


def position(
    cards: list[int],
    bids: tuple[int, int, int, int] = (3, 3, 3, 3),
    plays: str = "",
    *,
    bags: tuple[int, int] = (0, 0),
) -> PlayerView:
    """The view of the seat to act after ``bids`` and the cards in ``plays``."""
    state = HandState.from_deal(WEST, cards)
    for bid in bids:
        state.bid(state.turn, bid)
    for card in parse_cards(plays):
        state.play(state.turn, card)
    return PlayerView.of(state, state.turn, bags=bags)


def bidding_view(
    cards: list[int],
    bids: tuple[int, ...] = (),
    *,
    totals: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
) -> PlayerView:
    state = HandState.from_deal(WEST, cards)
    for bid in bids:
        state.bid(state.turn, bid)
    return PlayerView.of(state, state.turn, totals=totals, bags=bags)


OVERLOADED = "expert, overloaded"
"""The default level as an overloaded server leaves it: its deadline already
gone when it starts, so it searches not one deal."""


@pytest.fixture(params=["normal", "hard", "expert", OVERLOADED])
def level(request: pytest.FixtureRequest) -> str:
    """Every scenario is played by the knowledge-based level, by both search
    levels and by the default one cut to its smallest budget: searching, or
    running out of time to, must never make a bot worse at what the rules of
    thumb get right."""
    return str(request.param)


def player(level: str) -> Bot:
    if level == OVERLOADED:
        bot = make_bot("expert", seed=1)
        assert isinstance(bot, SearchBot)
        bot.stop_at(time.monotonic() - 1)
        return bot
    # Search levels with their default deal counts but no clock: reproducible.
    worlds = {"hard": SearchBot.max_worlds, "expert": ExpertBot.max_worlds}.get(level)
    return make_bot(level, seed=1, worlds=worlds)


def card_by(level: str, view: PlayerView) -> str:
    return card_name(player(level).play(view))


def bid_by(level: str, view: PlayerView) -> int:
    return player(level).bid(view)


# ------------------------------------------------------------------ following


def test_does_not_trump_partners_winning_ace(level: str) -> None:
    cards = deal_with(N="AH", E="3H", S="2S 3S 4S", W="5H", complete={"S": "H"})
    view = position(cards, plays="AH 3H")
    assert view.seat == SOUTH
    assert not card_by(level, view).endswith("S")


def test_second_hand_low(level: str) -> None:
    cards = deal_with(N="3C", E="KC QC 2C", W="AC", complete={"E": "C"})
    view = position(cards, plays="3C")
    assert view.seat == EAST
    assert card_by(level, view) == "2C"


def test_third_hand_high_but_no_higher_than_needed(level: str) -> None:
    # South's AD KD QD are equal: the queen wins as surely as the ace.
    cards = deal_with(N="2D", E="9D", S="AD KD QD 3D", complete={"S": "D"})
    view = position(cards, plays="2D 9D")
    assert view.seat == SOUTH
    assert card_by(level, view) == "QD"


def test_fourth_hand_wins_as_cheaply_as_possible(level: str) -> None:
    cards = deal_with(N="2D", E="9D", S="TD", W="AD JD 4D", complete={"W": "D"})
    view = position(cards, plays="2D 9D TD")
    assert view.seat == WEST
    assert card_by(level, view) == "JD"


def test_fourth_hand_does_not_overtake_partners_winner(level: str) -> None:
    cards = deal_with(N="2D", E="KD", S="3D", W="AD 4D", complete={"W": "D"})
    view = position(cards, plays="2D KD 3D")
    assert view.seat == WEST
    assert card_by(level, view) == "4D"


def test_fourth_hand_takes_an_opponents_trick(level: str) -> None:
    cards = deal_with(N="KD", E="3D", S="5D", W="AD 4D", complete={"W": "D"})
    view = position(cards, plays="KD 3D 5D")
    assert card_by(level, view) == "AD"


def test_ruffs_an_opponents_winner_with_the_lowest_spade(level: str) -> None:
    cards = deal_with(N="3H", E="AH", S="2S 3S", W="5H 6H", complete={"S": "H"})
    view = position(cards, bids=(3, 3, 5, 3), plays="3H AH")
    assert view.seat == SOUTH
    assert card_by(level, view) == "2S"


# -------------------------------------------------------------------- leading


def test_cashes_a_master_in_a_side_suit(level: str) -> None:
    cards = deal_with(N="AD 4D 7H", complete={"N": "DHS"})
    view = position(cards, bids=(4, 3, 3, 3))
    assert view.seat == NORTH
    assert card_by(level, view) == "AD"


def test_draws_trumps_with_long_strong_spades(level: str) -> None:
    # South ruffs trick 1 (spades broken), then North wins trick 2 and leads.
    cards = deal_with(
        N="2D AH AS KS QS JS 4S",
        E="3D 5H",
        S="2S 3H",
        W="4D 4H",
        complete={"N": "DHS", "S": "DH"},
    )
    view = position(cards, bids=(6, 2, 2, 2), plays="2D 3D 2S 4D 3H 4H AH 5H")
    assert view.seat == NORTH and view.spades_broken
    assert card_by(level, view) == "JS"  # AKQJ are equal: lead the cheapest


def test_leads_a_short_suit_to_ruff_later(level: str) -> None:
    cards = deal_with(N="2D 2S 3S 4S", complete={"N": "DHS"})  # clubs fill the rest
    view = position(cards, bids=(4, 3, 3, 3))
    assert card_by(level, view) == "2D"


# ---------------------------------------------------------------------- bags

# North wins the first two tricks with AH and KH (NS bid 1 + 1), then leads 3D;
# East plays 9D and South decides: QD wins, 5D loses.
BAG_DEAL = deal_with(
    N="AH KH 3D",
    E="2H 3H 9D",
    S="4H 5H QD 5D",
    W="6H 7H 4D",
    complete={"N": "H", "E": "H", "S": "HD"},
)
BAG_PLAYS = "AH 2H 4H 6H KH 3H 5H 7H 3D 9D"


def test_ducks_once_the_bid_is_made_avoiding_bags(level: str) -> None:
    view = position(BAG_DEAL, bids=(1, 2, 1, 2), plays=BAG_PLAYS)
    assert view.seat == SOUTH and view.tricks_won[NORTH] == 2
    assert card_by(level, view) == "5D"  # the highest card that still loses


def test_once_the_bid_is_made_a_void_seat_throws_the_card_that_would_win_a_bag(
    level: str,
) -> None:
    # NS bid 1 + 1 and North's AH and KH made it; North leads the QH and South,
    # out of hearts, discards. The AD would win a bag later (every smaller
    # diamond is still out); the clubs below the king are South's own.
    cards = deal_with(
        N="AH KH QH",
        E="2H 6H 8H",
        W="5H 7H",
        S="3H 4H AD 2C 3C 4C 5C 6C 7C 8C 9C TC KC",
        complete={"S": "HDCS"},
    )
    view = position(cards, bids=(1, 3, 1, 3), plays="AH 2H 3H 5H KH 6H 4H 7H QH 8H")
    assert view.seat == SOUTH and view.tricks_won[NORTH] == 2
    assert card_by(level, view) == "AD"


def test_presses_to_set_the_opponents_when_their_bid_is_in_reach(level: str) -> None:
    # EW bid 10 and have none: NS set them by taking 2 of the last 11 tricks.
    view = position(BAG_DEAL, bids=(1, 5, 1, 5), plays=BAG_PLAYS)
    assert card_by(level, view) == "QD"


def test_sheds_bags_at_nine_rather_than_press_for_a_small_set(level: str) -> None:
    # EW bid 9 and need all of it: setting them takes 3 more tricks, and with
    # nine bags that costs a 100-point penalty: worth it for a bid of 9 ...
    view = position(BAG_DEAL, bids=(1, 5, 1, 4), plays=BAG_PLAYS, bags=(9, 0))
    assert card_by(level, view) == "QD"
    # ... but not for a bid of 4, whose set swings only 80.
    view = position(BAG_DEAL, bids=(1, 1, 1, 3), plays=BAG_PLAYS, bags=(9, 0))
    assert card_by(level, view) == "5D"


def test_bids_up_to_the_hand_with_bags_near_the_limit(level: str) -> None:
    cards = deal_with(N="AS KS 5S 4S AH KH AD 2D 3C 4C 5C 6C 7C")
    relaxed = bid_by(level, bidding_view(cards))
    careful = bid_by(level, bidding_view(cards, bags=(8, 0)))
    assert careful >= relaxed


# ------------------------------------------------------------------------ Nil


def test_nil_bidder_ducks_with_the_highest_card_that_still_loses(level: str) -> None:
    cards = deal_with(N="KD", E="3D", S="QD JD 5D 2D AD", W="9D", complete={"S": "D"})
    view = position(cards, bids=(4, 3, NIL, 3), plays="KD 3D")
    assert view.seat == SOUTH
    assert card_by(level, view) == "QD"


def test_nil_bidder_sheds_a_dangerous_high_card_when_void(level: str) -> None:
    cards = deal_with(N="AH", E="3H", S="AD KC 2D 3D 4D 5D 3C 4C 5C 6C 7C 8C 9C", W="4H")
    view = position(cards, bids=(4, 3, NIL, 3), plays="AH 3H")
    assert view.seat == SOUTH
    assert card_by(level, view) == "AD"  # eight diamonds below it are still out


def test_covers_partner_nil_by_winning_before_partner_plays(level: str) -> None:
    # West won trick 1 and leads 2C; North plays before South (Nil): take it.
    cards = deal_with(N="2H KC AC 5C", E="3H", S="4H", W="AH 2C", complete={"N": "HC"})
    view = position(cards, bids=(4, 3, NIL, 3), plays="2H 3H 4H AH 2C")
    assert view.seat == NORTH
    assert card_by(level, view) == "KC"  # the cheapest sure winner (North holds the ace)


def test_overtakes_a_nil_partner_who_is_winning(level: str) -> None:
    # South (Nil) had to play the KD; North, last to play, takes it with the AD.
    cards = deal_with(N="2H AD 3D", E="AH 2D", S="3H KD", W="4H 4D", complete={"N": "D", "S": "D"})
    view = position(cards, bids=(4, 3, NIL, 3), plays="2H AH 3H 4H 2D KD 4D")
    assert view.seat == NORTH
    assert card_by(level, view) == "AD"


def test_attacks_an_opponents_nil_by_staying_under_their_card(level: str) -> None:
    cards = deal_with(N="2D", E="9D", S="KD 8D 3D", W="4D", complete={"S": "D"})
    view = position(cards, bids=(4, NIL, 3, 4), plays="2D 9D")
    assert view.seat == SOUTH
    assert card_by(level, view) == "8D"


def test_leads_low_into_an_opponents_nil(level: str) -> None:
    cards = deal_with(N="2D KD AC 9H", complete={"N": "DCH"})
    view = position(cards, bids=(4, NIL, 3, 4))
    assert view.seat == NORTH
    assert card_by(level, view) == "2D"


# -------------------------------------------------------------------- bidding


def test_bids_by_counting_aces_kings_and_spades(level: str) -> None:
    strong = deal_with(N="AS KS QS 5S 4S AH KH AD 2D 3C 4C 5C 6C")
    assert 7 <= bid_by(level, bidding_view(strong)) <= 9
    flat = deal_with(N="AS 2S 3S 4S 9H 8H 7H 9D 8D 7D 9C 8C 7C")
    assert 1 <= bid_by(level, bidding_view(flat)) <= 3


def test_bids_nil_with_a_hand_made_for_it(level: str) -> None:
    nil_hand = deal_with(N="2S 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C 9C")
    assert bid_by(level, bidding_view(nil_hand)) == NIL


def test_no_nil_after_partners_nil(level: str) -> None:
    nil_hand = deal_with(S="2S 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C 9C")
    view = bidding_view(nil_hand, bids=(NIL, 3))
    assert view.seat == SOUTH
    assert bid_by(level, view) != NIL


def test_no_nil_with_high_spades(level: str) -> None:
    hand = deal_with(N="AS 3S 2H 4H 6H 8H 3D 5D 7D 2C 4C 6C 9C")
    assert bid_by(level, bidding_view(hand)) != NIL


def test_riskier_nil_when_far_behind_than_when_far_ahead(level: str) -> None:
    # A borderline Nil: a nine of spades and two guarded honours.
    hand = deal_with(N="2S 3S 9S KH 4H 8H QD 5D 7D 2C 4C 6C 9C")
    behind = bid_by(level, bidding_view(hand, totals=(100, 400)))
    ahead = bid_by(level, bidding_view(hand, totals=(400, 100)))
    assert behind == NIL and ahead != NIL


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_bids_are_always_legal(level: str) -> None:
    for seed in range(200):
        state = HandState(seed % 4, deal(random.Random(seed)))
        bot = make_bot(level, seed=seed)
        while len(state.bid_order) < 4:
            bid = bot.bid(PlayerView.of(state, state.turn))
            assert bid == NIL or 1 <= bid <= 13
            state.bid(state.turn, bid)


def test_easy_slips_stay_within_the_suit_and_are_seeded() -> None:
    cards = deal_with(N="AH", E="3H", S="2S 3S 4S", W="5H", complete={"S": "H"})
    view = position(cards, plays="AH 3H")
    first = [make_bot("easy", seed=s).play(view) for s in range(30)]
    assert first == [make_bot("easy", seed=s).play(view) for s in range(30)]
    assert all(card in view.legal_cards() for card in first)
    assert not any(card_name(card).endswith("S") for card in first)  # never ruffs partner


def test_sheds_a_loser_from_the_shortest_side_suit_keeping_masters(level: str) -> None:
    # South is void in hearts while partner North's AH wins: discard, and make
    # the discard a low diamond (the short suit) rather than a club or the AD.
    cards = deal_with(
        N="AH",
        E="3H",
        W="5H",
        S="AD 4D 2C 3C 5C 6C 7C 8C 9C TC JC QC KC",
    )
    view = position(cards, plays="AH 3H")
    assert view.seat == SOUTH
    assert card_by(level, view) == "4D"
