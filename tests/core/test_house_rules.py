"""House rules: each option of ``Rules`` as the engine enforces it (docs/rules.md)."""

from __future__ import annotations

import pytest

from spades.core import (
    BLIND_NIL,
    CARDCOUCH,
    NIL,
    PRESETS,
    Game,
    HandState,
    IllegalActionError,
    IllegalBidError,
    IllegalCardError,
    NotYourTurnError,
    Phase,
    Rule,
    Rules,
    RulesError,
    UndoError,
    game_from_record,
    game_to_record,
    parse_card,
    parse_cards,
    parse_rules,
    rules_name,
    score_hand,
)
from spades.core.cards import cards_in, mask_of
from spades.core.rules import ORIGINAL_KEYS
from spades.core.scoring import game_outcome
from spades.core.seats import EAST, NORTH, SOUTH, WEST
from tests.helpers import deal_with

# ------------------------------------------------------------------ the syntax


def test_a_preset_then_changes_name_a_rule_set() -> None:
    rules = parse_rules("cardcouch,target=300,blind_nil=on,nil_pass=2")
    assert rules == Rules(target=300, blind_nil=True, nil_pass=2)
    assert parse_rules("target=300") == Rules(target=300)  # the preset defaults to cardcouch
    assert parse_rules("club,first_lead=left").first_lead == "left"
    assert parse_rules("cardcouch,floor=none,bag_limit=none") == Rules(floor=None, bag_limit=None)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("house", "no rule set is called 'house'"),
        ("cardcouch,trumps=hearts", "unknown rule 'trumps'"),
        ("cardcouch,target=lots", "rule 'target' must be a whole number, not 'lots'"),
        ("cardcouch,blind_nil=maybe", "rule 'blind_nil' is on or off, not 'maybe'"),
        ("cardcouch,nil_pass=4", "rule 'nil_pass' must be from 0 to 3, got 4"),
        ("cardcouch,floor=600", "the floor (600) must be below the target (500)"),
        ("cardcouch,first_lead=dealer", "rule 'first_lead' must be one of left, two_of_clubs"),
        ("cardcouch,target=none", "rule 'target' must be a whole number, not 'none'"),
    ],
)
def test_a_bad_rule_set_is_refused_saying_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=message.replace("(", r"\(").replace(")", r"\)")) as error:
        parse_rules(text)
    assert error.value.rule == Rule.RULE_SET


@pytest.mark.parametrize("name", PRESETS)
def test_every_preset_has_a_source_and_reads_back_by_its_name(name: str) -> None:
    preset = PRESETS[name]
    assert preset.source
    assert rules_name(preset.rules) == name
    assert parse_rules(rules_name(preset.rules)) == preset.rules
    assert Rules.from_dict(preset.rules.to_dict()) == preset.rules


def test_the_default_rules_are_written_with_the_six_keys_records_always_had() -> None:
    assert tuple(CARDCOUCH.to_dict()) == ORIGINAL_KEYS
    assert CARDCOUCH.describe() == "first to 500, out at -200"
    assert "nil_pass" in Rules(nil_pass=2).to_dict()


# ------------------------------------------------------------ target, floor, bags


def test_without_a_floor_no_score_is_too_low_to_play_on() -> None:
    rules = Rules(floor=None)
    assert game_outcome([-5000, 0], rules) is None
    assert game_outcome([-5000, 500], rules) is not None


def test_without_a_bag_limit_bags_are_counted_but_cost_nothing() -> None:
    ns, _ = score_hand([3, 1, 3, 1], [6, 0, 7, 0], bags_before=(3, 0), rules=Rules(bag_limit=None))
    assert (ns.delta, ns.bags, ns.bag_penalties) == (67, 10, 0)
    ns, _ = score_hand([3, 1, 3, 1], [6, 0, 7, 0], bags_before=(3, 0))
    assert (ns.delta, ns.bags, ns.bag_penalties) == (-33, 0, 1)  # the rule page's penalty


def test_a_lower_target_ends_the_game_sooner() -> None:
    assert game_outcome([300, 100], Rules(target=300)) is not None
    assert game_outcome([300, 100]) is None


# ------------------------------------------------------------------ Nil bids


def test_a_double_nil_scored_as_one_contract() -> None:
    rules = Rules(double_nil_bonus=300)
    made, _ = score_hand([NIL, 4, NIL, 4], [0, 7, 0, 6], rules=rules)
    broken, _ = score_hand([NIL, 4, NIL, 4], [0, 7, 1, 5], rules=rules)
    assert (made.nil_points, broken.nil_points) == (300, -300)
    separate, _ = score_hand([NIL, 4, NIL, 4], [0, 7, 1, 5])
    assert separate.nil_points == 0  # the rule page: +100 and -100, each Nil alone


def _hand(rules: Rules, dealer: int = WEST) -> HandState:
    return HandState.from_deal(dealer, deal_with(), rules)


def test_without_double_nil_the_partner_of_a_nil_bidder_bids_a_number() -> None:
    hand = _hand(Rules(double_nil=False))  # West deals: N, E, S, W bid in turn
    hand.bid(NORTH, NIL)
    hand.bid(EAST, 3)
    with pytest.raises(IllegalBidError, match="allow one Nil a partnership") as error:
        hand.bid(SOUTH, NIL)
    assert error.value.rule == Rule.DOUBLE_NIL
    assert NIL not in hand.legal_bids()
    hand.bid(SOUTH, 2)


def test_a_minimum_team_bid_binds_the_second_partner_to_bid() -> None:
    hand = _hand(Rules(min_team_bid=4))
    hand.bid(NORTH, 1)
    hand.bid(EAST, NIL)
    with pytest.raises(
        IllegalBidError, match="at least 4 in all: with your partner's 1, bid at least 3"
    ):
        hand.bid(SOUTH, 2)
    with pytest.raises(IllegalBidError, match="at least 4 in all") as error:
        hand.bid(SOUTH, NIL)
    assert error.value.rule == Rule.MIN_TEAM_BID
    assert hand.legal_bids() == list(range(3, 14))
    hand.bid(SOUTH, 3)
    hand.bid(WEST, NIL)  # a double Nil has no numeric bid to make up
    assert hand.phase is Phase.PLAYING


def test_blind_nil_under_the_rule_page_is_refused_by_name() -> None:
    """The rule page has no blind Nil: the refusal says so, not "not -1" (the
    number the engine writes blind Nil as, which no player or record wrote)."""
    hand = _hand(CARDCOUCH)
    with pytest.raises(
        IllegalBidError, match="may not bid blind Nil: these rules have no blind Nil"
    ) as error:
        hand.bid(NORTH, BLIND_NIL)
    assert error.value.rule == Rule.BLIND_NIL
    assert "-1" not in str(error.value)


def test_blind_nil_is_open_only_to_a_team_behind_by_enough() -> None:
    rules = Rules(blind_nil=True, blind_nil_behind=100)
    hand = _hand(rules)
    hand.open_blind_nil((0, 90))
    with pytest.raises(IllegalBidError, match="only a team behind by 100 points or more") as error:
        hand.bid(NORTH, BLIND_NIL)
    assert error.value.rule == Rule.BLIND_NIL
    hand.open_blind_nil((0, 100))
    assert hand.legal_bids()[0] == BLIND_NIL
    hand.bid(NORTH, BLIND_NIL)
    assert BLIND_NIL not in hand.legal_bids()  # East's team is ahead


def test_blind_nil_is_bid_from_a_view_without_the_cards() -> None:
    game = Game(Rules(blind_nil=True), seed=5)
    view = game.view(game.to_act)
    assert BLIND_NIL not in view.legal_bids() and NIL in view.legal_bids()
    blind = view.without_cards()
    assert blind.hand == 0 and blind.legal_bids() == [BLIND_NIL]
    game.bid(game.to_act, BLIND_NIL)
    assert game.log[-1].to_dict()["bid"] == "blind_nil"


def test_a_blind_nil_scores_its_own_bonus() -> None:
    rules = Rules(blind_nil=True, blind_nil_bonus=250)
    made, _ = score_hand([BLIND_NIL, 4, 5, 4], [0, 4, 5, 4], rules=rules)
    broken, _ = score_hand([BLIND_NIL, 4, 5, 4], [1, 4, 4, 4], rules=rules)
    assert (made.nil_points, made.delta) == (250, 300)
    assert (broken.nil_points, broken.bags_taken) == (-250, 1)


# -------------------------------------------------------------- passing on Nil


def _nil_game(rules: Rules) -> tuple[Game, int, int]:
    """A game in which the first bidder bids Nil and every other seat 3."""
    game = Game(rules, seed=11)
    nil_seat = game.to_act
    assert nil_seat is not None
    game.bid(nil_seat, NIL)
    for _ in range(3):
        game.bid(game.to_act, 3)
    return game, nil_seat, (nil_seat + 2) & 3


def test_a_nil_bidder_and_partner_pass_each_other_cards_before_the_play() -> None:
    game, nil_seat, partner = _nil_game(Rules(nil_pass=2))
    assert game.phase is Phase.PASSING and game.to_act == nil_seat
    nil_hand, partner_hand = game.hand.hands[nil_seat], game.hand.hands[partner]
    given = list(cards_in(nil_hand))[-2:]
    events = game.pass_cards(nil_seat, given)
    assert [event.to_dict() for event in events] == [
        {"type": "cards_passed", "seat": "NESW"[nil_seat], "to": "NESW"[partner], "count": 2}
    ]
    # The cards reach the partner only once both have passed: nothing is passed back.
    assert game.hand.hands[partner] == partner_hand
    with pytest.raises(IllegalActionError, match="do not hold"):
        game.pass_cards(partner, given)
    back = list(cards_in(partner_hand))[:2]
    game.pass_cards(partner, back)
    assert game.hand.hands[nil_seat] == nil_hand ^ mask_of(given) | mask_of(back)
    assert game.hand.hands[partner] == partner_hand ^ mask_of(back) | mask_of(given)
    assert game.phase is Phase.PLAYING and game.to_act == (game.hand.dealer + 1) & 3
    # Each partner knows what it gave and got; the opponents know neither.
    assert game.view(nil_seat).passed == mask_of(given)
    assert game.view(nil_seat).received == mask_of(back)
    assert game.view(partner).known_cards(nil_seat) == mask_of(back)
    opponent = game.view((nil_seat + 1) & 3)
    assert opponent.passed == opponent.received == 0


def test_a_pass_of_the_wrong_size_or_out_of_turn_is_refused() -> None:
    game, nil_seat, partner = _nil_game(Rules(nil_pass=2))
    held = list(cards_in(game.hand.hands[nil_seat]))
    with pytest.raises(IllegalActionError, match="Pass 2 different cards to") as error:
        game.pass_cards(nil_seat, held[:1])
    assert error.value.rule == Rule.NIL_PASS
    with pytest.raises(IllegalActionError, match="Pass 2 different cards"):
        game.pass_cards(nil_seat, [held[0], held[0]])
    with pytest.raises(NotYourTurnError, match="turn to pass cards"):
        game.pass_cards(partner, list(cards_in(game.hand.hands[partner]))[:2])
    with pytest.raises(NotYourTurnError, match="The cards are being passed"):
        game.play(nil_seat, held[0])


def test_bids_stand_once_cards_are_to_be_passed() -> None:
    game, nil_seat, _ = _nil_game(Rules(nil_pass=1))
    with pytest.raises(UndoError, match="The bids stand"):
        game.undo(nil_seat)


def test_a_double_nil_passes_nothing_and_no_pass_without_the_rule() -> None:
    game, _, _ = _nil_game(CARDCOUCH)
    assert game.phase is Phase.PLAYING
    game = Game(Rules(nil_pass=3), seed=11)
    for bid in (NIL, 3, NIL, 3):
        game.bid(game.to_act, bid)
    assert game.phase is Phase.PLAYING


def test_blind_nil_passes_its_own_count() -> None:
    game = Game(Rules(blind_nil=True, nil_pass=1, blind_nil_pass=3), seed=11)
    blind_seat = game.to_act
    for bid in (BLIND_NIL, 3, 3, 3):
        game.bid(game.to_act, bid)
    assert game.hand.passing() == (blind_seat, (blind_seat + 2) & 3, 3)


def test_passes_are_kept_in_the_record_and_replayed() -> None:
    game, nil_seat, partner = _nil_game(Rules(nil_pass=2))
    game.pass_cards(nil_seat, list(cards_in(game.hand.hands[nil_seat]))[:2])
    game.pass_cards(partner, list(cards_in(game.hand.hands[partner]))[:2])
    game.play(game.to_act, game.legal_cards()[0])
    record = game_to_record(game)
    assert len(record["hands"][0]["passes"]) == 2
    assert game_to_record(game_from_record(record)) == record
    del record["hands"][0]["passes"]
    with pytest.raises(Exception, match="the Nil passes are missing"):
        game_from_record(record)


# ------------------------------------------------------------------- the play


def test_the_two_of_clubs_leads_where_the_rules_say_so() -> None:
    deal = deal_with(E="2C AS KS")
    hand = HandState.from_deal(NORTH, deal, Rules(first_lead="two_of_clubs"))
    for _ in range(4):
        hand.apply_bid(3)
    assert hand.turn == EAST and hand.legal_cards() == [parse_card("2C")]
    with pytest.raises(IllegalCardError, match="The two of clubs leads the first trick") as error:
        hand.play(EAST, parse_card("AS"))
    assert error.value.rule == Rule.FIRST_LEAD
    hand.play(EAST, parse_card("2C"))


def test_without_spades_breaking_a_spade_may_lead_the_first_trick() -> None:
    deal = deal_with(S="AS 2H")
    hand = HandState.from_deal(EAST, deal, Rules(spades_break=False))
    for _ in range(4):
        hand.apply_bid(3)
    assert hand.turn == SOUTH
    hand.play(SOUTH, parse_card("AS"))
    seed_rules = HandState.from_deal(EAST, deal)
    for _ in range(4):
        seed_rules.apply_bid(3)
    assert not seed_rules.can_play(SOUTH, parse_card("AS"))
    assert parse_cards("AS")[0] not in seed_rules.legal_cards()
