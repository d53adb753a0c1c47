"""The shark (spades.bots.strangers.shark): legal under any rule set, the same
answer for the same seed, deals that keep what its view knows, and the plays
a strong player makes in a few hand-checked positions.

Positions are hand-built as in test_strangers.py: ``deal_with`` fixes cards,
``complete`` a seat's whole holding in the suits named; bids are given in
bidding order, starting left of the dealer.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from spades.arena import play_game
from spades.arena.referee import play_hand
from spades.bots import Bot, make_bot
from spades.bots.base import choose_bid
from spades.bots.strangers import SharkBot
from spades.bots.strangers.shark import distinct_cards
from spades.bots.strangers.shark_bidding import MODEL, TrickModel
from spades.bots.strangers.shark_deals import DealSampler
from spades.core import (
    EAST,
    NIL,
    NORTH,
    SEATS,
    SOUTH,
    SUIT_MASKS,
    WEST,
    HandState,
    Phase,
    PlayerView,
    Rules,
    Seat,
    card_name,
    game_to_record,
    mask_of,
    parse_cards,
)
from spades.core.hand import deal, deal_from_seed
from spades.core.rules import FIRST_LEADS
from tests.helpers import deal_with

ROOT = Path(__file__).resolve().parents[2]
QUICK = 24
"""Playouts a decision in the legality tests: the same code path, a fraction of the time."""


def position(
    cards: Sequence[int], bids: tuple[int, int, int, int], plays: str = "", *, dealer: Seat = WEST
) -> PlayerView:
    """The view of the seat to act after ``bids`` and the cards in ``plays``."""
    state = HandState.from_deal(dealer, cards)
    for bid in bids:
        state.bid(state.turn, bid)
    for card in parse_cards(plays):
        state.play(state.turn, card)
    return PlayerView.of(state, state.turn)


def bidding(hand: str, earlier: tuple[int, ...] = (), rules: Rules | None = None) -> PlayerView:
    """The bidding view of the seat holding ``hand`` after ``earlier`` bids
    (West deals, North bids first); the other seats hold the rest in order."""
    seat = NORTH + len(earlier)
    cards = [0, 0, 0, 0]
    cards[seat] = mask_of(parse_cards(hand))
    spare = [c for c in range(52) if not cards[seat] >> c & 1]
    for other in (s for s in SEATS if s != seat):
        cards[other] = mask_of(spare[:13])
        spare = spare[13:]
    state = HandState.from_deal(WEST, cards, rules or Rules())
    for bid in earlier:
        state.bid(state.turn, bid)
    return PlayerView.of(state, seat, rules=rules or Rules())


def cards_by_seed(view: PlayerView, seeds: range = range(1, 4)) -> set[str]:
    """The shark's card in ``view`` for each of a few seeds (the search's
    deals differ; a play that depends on luck shows up as two answers)."""
    return {card_name(SharkBot(seed).play(view)) for seed in seeds}


def random_rules(rng: random.Random) -> Rules:
    """A rule set the engine accepts, its options drawn at random."""
    blind = rng.random() < 0.5
    double = rng.random() < 0.7
    return Rules(
        target=rng.choice([150, 300, 500]),
        floor=rng.choice([None, -100, -200]),
        bag_limit=rng.choice([None, 5, 10]),
        bag_penalty=rng.choice([0, 50, 100]),
        nil_bonus=rng.choice([50, 100, 200]),
        double_nil=double,
        double_nil_bonus=rng.choice([None, 250]) if double else None,
        blind_nil=blind,
        blind_nil_bonus=rng.choice([100, 200]),
        blind_nil_behind=rng.choice([0, 0, 100]),
        nil_pass=rng.choice([0, 0, 1, 2, 3]),
        blind_nil_pass=rng.choice([0, 2]) if blind else 0,
        first_lead=rng.choice(FIRST_LEADS),
        spades_break=rng.random() < 0.7,
        min_team_bid=rng.choice([0, 0, 4, 7]),
    )


# ------------------------------------------------------------------ legality


@pytest.mark.parametrize("seed", range(12))
def test_the_shark_plays_whole_games_legally_under_random_rule_sets(seed: int) -> None:
    rng = random.Random(seed)
    rules = replace(random_rules(rng), target=200)  # short games
    # The other side: random bots, or sharks (the other strangers and the
    # levels do not all honour every option, min_team_bid among them).
    sharks_only = seed % 3 == 0
    bots: dict[Seat, Bot] = {}
    for seat in SEATS:
        if seat & 1 == seed & 1 or sharks_only:
            bots[seat] = SharkBot(f"{seed}:{seat}", playouts=QUICK)
        else:
            bots[seat] = make_bot("random", seed=seat)
    game = play_game(bots, seed=seed, rules=rules, max_hands=60)
    assert game.forfeited_by is None, (rules, game.forfeited_by)


@pytest.mark.parametrize("seed", range(120))
def test_the_shark_answers_any_position_under_any_rules_legally(seed: int) -> None:
    """A random hand under random rules and game totals, played a random way
    (many Nils among the bids, passes made) up to a random moment: the shark's
    bid (blind Nil asked first, as the referee does), pass or card is legal."""
    rng = random.Random(seed)
    rules = random_rules(rng)
    totals = (rng.randrange(-150, 450), rng.randrange(-150, 450))
    state = HandState.from_deal(rng.randrange(4), deal(rng), rules)
    state.open_blind_nil(totals)
    for _ in range(rng.randrange(0, 60)):
        if state.phase is Phase.BIDDING:
            bids = state.legal_bids()
            nils = [bid for bid in bids if bid <= NIL]
            state.apply_bid(rng.choice(nils if nils and rng.random() < 0.4 else bids))
        elif state.phase is Phase.PASSING:
            giver, _, count = state.passing() or (0, 0, 0)
            state.pass_cards(giver, rng.sample(list(_cards(state.hands[giver])), count))
        elif state.phase is Phase.PLAYING:
            state.apply_play(rng.choice(state.legal_cards()))
    if state.is_over:
        return
    seat = state.turn
    view = PlayerView.of(state, seat, totals=totals, rules=rules)
    bot = SharkBot(seed, playouts=QUICK)
    if state.phase is Phase.BIDDING:
        assert choose_bid(bot, view) in state.legal_bids()
    elif state.phase is Phase.PASSING:
        state.verify_pass(seat, bot.pass_cards(view))
    else:
        state.verify_play(seat, bot.play(view))


def _cards(mask: int) -> list[int]:
    return [card for card in range(52) if mask >> card & 1]


def test_the_shark_goes_blind_nil_only_far_behind_and_covered() -> None:
    rules = Rules(blind_nil=True)
    view = bidding("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", rules=rules)

    def offer(us: int, them: int, partner: int | None = None) -> PlayerView:
        seat_view = view.replace(totals=(us, them))
        if partner is not None:
            seat_view = seat_view.replace(seat=SOUTH, bids=((NORTH, partner), (EAST, 3)))
        return seat_view.without_cards()

    bot = SharkBot(1)
    assert not bot.blind_nil(offer(300, 250))
    assert not bot.blind_nil(offer(200, 300))  # 100 behind: not yet
    assert bot.blind_nil(offer(100, 300))
    assert bot.blind_nil(offer(100, 300, partner=5))
    assert not bot.blind_nil(offer(100, 300, partner=2))  # too weak a partner to cover it


# -------------------------------------------------------------- determinism


def test_a_seeded_shark_plays_the_same_hand_the_same_way() -> None:
    def record(seed: int) -> object:
        bots = {seat: SharkBot(f"{seed}:{seat}", playouts=60) for seat in SEATS}
        game = play_hand(bots, dealer=1, deal=deal_from_seed(5), seed=seed)
        return game_to_record(game)["hands"]

    assert record(3) == record(3)
    assert record(3) != record(4)  # the seed does matter


def test_the_same_view_gets_the_same_card_whatever_came_before() -> None:
    view = position(deal_from_seed(8), (3, 4, 3, 2), "")
    fresh = SharkBot(7)
    used = SharkBot(7)
    for other in (position(deal_from_seed(9), (2, 2, 2, 2)), view):
        used.play(other)
    assert fresh.play(view) == used.play(view)


# --------------------------------------------------------------------- deals


@pytest.mark.parametrize("seed", range(40))
def test_sampled_deals_keep_counts_voids_and_passed_cards(seed: int) -> None:
    rng = random.Random(seed)
    rules = Rules(nil_pass=rng.choice([0, 2, 3]))
    state = HandState.from_deal(rng.randrange(4), deal(rng), rules)
    while state.phase is not Phase.PLAYING:
        if state.phase is Phase.BIDDING:
            bids = state.legal_bids()
            state.apply_bid(NIL if NIL in bids and rng.random() < 0.3 else rng.choice(bids[1:6]))
        else:
            giver, _, count = state.passing() or (0, 0, 0)
            state.pass_cards(giver, _cards(state.hands[giver])[-count:])
    for _ in range(rng.randrange(0, 48)):
        state.apply_play(rng.choice(state.legal_cards()))
    view = PlayerView.of(state, state.turn, rules=rules)
    voids = view.voids_by_seat()
    sampler = DealSampler(view)
    for draw in range(20):
        hands = sampler.sample(random.Random(draw)) if draw < 10 else sampler.checked(rng)
        assert hands[view.seat] == view.hand
        assert hands[0] | hands[1] | hands[2] | hands[3] == view.hand | view.unseen
        for seat in SEATS:
            assert hands[seat].bit_count() == state.hands[seat].bit_count()
            for suit in voids[seat]:
                assert not hands[seat] & SUIT_MASKS[suit]
        known = view.known_cards(view.partner)
        assert hands[view.partner] & known == known


def test_touching_cards_are_tried_once() -> None:
    # Holding KH QH 9H with the JH gone: K-Q-(J)-9... the TH is still out.
    legal = mask_of(parse_cards("KH QH 9H 4C"))
    out = mask_of(parse_cards("AH TH 8H 3C 5C"))
    assert sorted(card_name(c) for c in distinct_cards(legal, out)) == ["4C", "9H", "QH"]


# ----------------------------------------------------------------- scenarios


def test_the_shark_does_not_trump_its_partners_winning_ace() -> None:
    # West deals, North leads the ace of hearts; South is void with five spades.
    cards = deal_with(N="AH", E="3H", S="2S 5S 9S TS JS", W="5H", complete={"S": "H"})
    view = position(cards, (3, 3, 3, 3), "AH 3H")
    assert view.seat == SOUTH
    played = cards_by_seed(view)
    assert not any(card.endswith("S") for card in played), played


def test_the_shark_takes_the_trick_its_nil_partner_is_winning() -> None:
    # North deals: East leads, South bid Nil and is winning; North plays last.
    cards = deal_with(E="5D", S="9D", W="2D", N="AD 4D", complete={"N": "D"})
    view = position(cards, (3, NIL, 3, 4), "5D 9D 2D", dealer=NORTH)
    assert view.seat == NORTH
    assert cards_by_seed(view) == {"AD"}


def test_the_shark_ducks_the_bag_once_the_other_side_is_set() -> None:
    # North cashed two aces; NS bid 2 and have them, EW need 12 of the 11 left.
    cards = deal_with(N="AC AD 5H", E="2C 2D 9H", S="3C 3D AH 2H", W="4C 4D", complete={"S": "H"})
    view = position(cards, (1, 6, 1, 6), "AC 2C 3C 4C AD 2D 3D 4D 5H 9H")
    assert view.seat == SOUTH
    assert cards_by_seed(view) == {"2H"}


def test_the_shark_bids_a_strong_hand_at_most_one_under_its_count() -> None:
    # Five spades to the ace-king-queen-jack and three side aces: about 7.5 by
    # its count; the bid worth most over the count's spread of 1.1 tricks is 6.
    hand = "AS KS QS JS 2S AH 3H AD 4D AC 5C 6C 7C"
    count = MODEL.tricks(mask_of(parse_cards(hand)))
    assert 7 <= count <= 8
    assert count - 2 < SharkBot(1).bid(bidding(hand)) <= count


def test_the_shark_bids_nil_on_a_hopeless_hand_and_a_number_on_a_strong_one() -> None:
    hopeless = "3S 2S 9H 8H 7H 6H 5H 4H 9C 8C 7C 6C 5C"
    assert SharkBot(1).bid(bidding(hopeless, (4,))) == NIL
    # Its partner bid Nil already and the rules allow one Nil a partnership.
    no_double = Rules(double_nil=False)
    assert SharkBot(1).bid(bidding(hopeless, (NIL, 4), rules=no_double)) >= 1
    assert SharkBot(1).bid(bidding("AS KS QS 4S AH KH 5H AD KD 6D AC 7C 8C")) >= 6


def test_the_shark_bids_up_to_the_least_team_bid() -> None:
    rules = Rules(min_team_bid=8)
    view = bidding("5S 4S 9H 8H 7H 6H KH 4H 9C 8C 7C 6C 5C", (2, 3), rules=rules)
    assert view.seat == SOUTH
    assert SharkBot(1).bid(view) >= 6


# ----------------------------------------------------------------- the fit


def test_the_fitting_tool_writes_coefficients_the_shark_reads(tmp_path: Path) -> None:
    out = tmp_path / "fit.json"
    subprocess.run(
        [sys.executable, str(ROOT / "tools" / "fit_shark_bidding.py"),
         "--hands", "8", "--rounds", "1", "--seed", "4", "--playouts", "12",
         "--out", str(out)],
        capture_output=True, text=True, timeout=300, check=True,
    )  # fmt: skip
    written = json.loads(out.read_text())
    assert written["rounds"][0]["seat_hands"] > 0
    model = TrickModel.load(out)
    assert len(model.weights) == len(MODEL.weights) and model.spread > 0


def test_the_committed_fit_counts_more_for_more_high_cards() -> None:
    weak = mask_of(parse_cards("2S 3S 9H 8H 7H 6H 5H 4H 9C 8C 7C 6C 5C"))
    middling = mask_of(parse_cards("AS 4S 3S KH 8H 7H AD 5D 4D 9C 8C 7C 6C"))
    strong = mask_of(parse_cards("AS KS QS JS 9S AH KH AD KD AC 4C 3C 2C"))
    assert MODEL.tricks(weak) < MODEL.tricks(middling) < MODEL.tricks(strong)
