"""The strangers (spades.bots.strangers): legal in every position, true to the
style each one stands for, and independent of the project's own bots.

Positions are hand-built as in test_scenarios.py: ``complete`` fixes a seat's
whole holding in the suits named (see tests.helpers.deal_with), bids are given
in bidding order starting left of the dealer.
"""

from __future__ import annotations

import ast
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spades.bots.strangers
from spades.arena import game_seeds, play_game
from spades.arena.match import MatchSetup, run_duplicate
from spades.arena.players import make_player, parse_player
from spades.arena.referee import play_hand
from spades.bots import BOT_LEVELS, Bot, make_bot
from spades.bots.strangers import STRANGERS, AggressiveBot, BeginnerBot, CautiousBot, SharkBot
from spades.core import (
    BLIND_NIL,
    EAST,
    NIL,
    NORTH,
    SEATS,
    SOUTH,
    WEST,
    HandState,
    Phase,
    PlayerView,
    Rules,
    Seat,
    card_name,
    mask_of,
    parse_cards,
)
from spades.core.hand import ALL_BIDS, deal, deal_from_seed
from tests.helpers import deal_with

NAMES = sorted(STRANGERS)
STYLE_HANDS = 300
QUICK_PLAYOUTS = 30


def position(
    cards: list[int], bids: tuple[int, int, int, int], plays: str = "", *, dealer: Seat = WEST
) -> PlayerView:
    """The view of the seat to act after ``bids`` and the cards in ``plays``."""
    state = HandState.from_deal(dealer, cards)
    for bid in bids:
        state.bid(state.turn, bid)
    for card in parse_cards(plays):
        state.play(state.turn, card)
    return PlayerView.of(state, state.turn)


def bidding(hand: str, earlier: tuple[int, ...] = ()) -> PlayerView:
    """The bidding view of the seat holding ``hand`` (13 cards) after ``earlier``
    bids (West deals, North bids first)."""
    seat = NORTH + len(earlier)
    cards = [0, 0, 0, 0]
    cards[seat] = mask_of(parse_cards(hand))
    spare = [c for c in range(52) if not cards[seat] >> c & 1]
    for other in (s for s in SEATS if s != seat):
        cards[other] = mask_of(spare[:13])
        spare = spare[13:]
    state = HandState.from_deal(WEST, cards)
    for bid in earlier:
        state.bid(state.turn, bid)
    assert state.turn == seat
    return PlayerView.of(state, seat)


def stranger(name: str, seed: int | str) -> Bot:
    """The stranger ``name``; the shark with a small search (the same code
    path at a tenth of the time: these tests are about legality)."""
    if name == "shark":
        return SharkBot(seed, playouts=QUICK_PLAYOUTS)
    return STRANGERS[name](seed)


def card_by(bot: Bot, view: PlayerView) -> str:
    return card_name(bot.play(view))


# ------------------------------------------------------------------ legality


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_strangers_play_full_games_without_an_illegal_move(name: str) -> None:
    tables = [
        dict.fromkeys(SEATS, name),
        {NORTH: name, SOUTH: name, EAST: "normal", WEST: "normal"},
        {NORTH: "random", SOUTH: "random", EAST: name, WEST: name},
    ]
    for index, seed in enumerate(game_seeds(2027, 6)):  # each table twice
        levels = tables[index % len(tables)]
        bots = {
            seat: stranger(level, f"{seed}:{seat}")
            if level in STRANGERS
            else make_bot(level, seed=f"{seed}:{seat}")
            for seat, level in levels.items()
        }
        game = play_game(bots, seed=seed)
        assert game.forfeited_by is None, game.forfeited_by
        assert game.outcome is not None


@pytest.mark.slow
def test_strangers_finish_hands_against_each_other() -> None:
    for seed in range(60):
        names = [NAMES[seed % len(NAMES)], NAMES[(seed + 1) % len(NAMES)]]
        bots = {seat: stranger(names[seat & 1], seed) for seat in SEATS}
        game = play_hand(bots, dealer=seed % 4, deal=deal_from_seed(seed), seed=seed)
        assert game.forfeited_by is None, game.forfeited_by


@pytest.mark.slow
@settings(max_examples=150)
@given(seed=st.integers(0, 2**32), steps=st.integers(0, 55), nil_share=st.floats(0, 0.8))
def test_strangers_answer_any_position_legally(seed: int, steps: int, nil_share: float) -> None:
    """Random hands played a random way (many Nils among the bids) up to a
    random moment: every stranger's answer there is legal."""
    rng = random.Random(seed)
    state = HandState.from_deal(rng.randrange(4), deal(rng))
    for _ in range(steps):
        if state.phase is Phase.BIDDING:
            state.bid(state.turn, NIL if rng.random() < nil_share else rng.choice(ALL_BIDS[1:8]))
        else:
            legal = PlayerView.of(state, state.turn).legal_cards()
            state.play(state.turn, rng.choice(legal))
    view = PlayerView.of(state, state.turn)
    for bot_type in STRANGERS.values():
        bot = bot_type(seed)
        if view.phase is Phase.BIDDING:
            assert bot.bid(view) in view.legal_bids()
        else:
            assert bot.play(view) in view.legal_cards()


# ---------------------------------------------------------------------- style


def table_stats(a: str, b: str, hands: int = STYLE_HANDS) -> dict[str, dict[str, float]]:
    """Per style over ``hands`` seeded hands, ``a`` at North-South and ``b`` at
    East-West: mean table bid, set rate, Nil bids per team-hand."""
    sums = {name: {"teams": 0, "bid": 0, "contracts": 0, "sets": 0, "nils": 0} for name in (a, b)}
    for seed in range(hands):
        bots = {seat: STRANGERS[(a, b)[seat & 1]](f"{seed}:{seat}") for seat in SEATS}
        game = play_hand(bots, dealer=seed % 4, deal=deal_from_seed(seed), seed=seed)
        state = game.history[0].state
        for team, name in ((0, a), (1, b)):
            tally = sums[name]
            bids = [state.bids[seat] or 0 for seat in (team, team + 2)]
            won = [state.tricks_won[seat] for seat in (team, team + 2)]
            contract = sum(bids)
            tally["teams"] += 1
            tally["bid"] += contract
            tally["nils"] += bids.count(NIL)
            if contract:
                tally["contracts"] += 1
                taken = sum(w for bid, w in zip(bids, won, strict=True) if bid != NIL)
                tally["sets"] += taken < contract
    return {
        name: {
            "table_bid": tally["bid"] / tally["teams"],
            "set_rate": tally["sets"] / max(1, tally["contracts"]),
            "nil_rate": tally["nils"] / tally["teams"],
        }
        for name, tally in sums.items()
    }


@pytest.fixture(scope="module")
def cautious_vs_aggressive() -> dict[str, dict[str, float]]:
    return table_stats("cautious", "aggressive")


@pytest.fixture(scope="module")
def beginner_vs_aggressive() -> dict[str, dict[str, float]]:
    return table_stats("beginner", "aggressive")


def test_cautious_is_rarely_set(cautious_vs_aggressive: dict[str, dict[str, float]]) -> None:
    assert cautious_vs_aggressive["cautious"]["set_rate"] < 0.10
    assert table_stats("cautious", "cautious", 150)["cautious"]["set_rate"] < 0.10


def test_cautious_bids_less_than_aggressive(
    cautious_vs_aggressive: dict[str, dict[str, float]],
) -> None:
    stats = cautious_vs_aggressive
    assert stats["cautious"]["table_bid"] + 1.5 < stats["aggressive"]["table_bid"]
    assert stats["aggressive"]["set_rate"] > 2 * stats["cautious"]["set_rate"]


def test_aggressive_bids_nil_far_more_often_than_the_others(
    cautious_vs_aggressive: dict[str, dict[str, float]],
    beginner_vs_aggressive: dict[str, dict[str, float]],
) -> None:
    aggressive = cautious_vs_aggressive["aggressive"]["nil_rate"]
    assert aggressive > 0.1
    assert cautious_vs_aggressive["cautious"]["nil_rate"] < aggressive / 5
    assert beginner_vs_aggressive["beginner"]["nil_rate"] == 0


@pytest.mark.parametrize(
    ("hand", "count"),
    [
        ("AS KS AH KD 7C 5C 4C 3C 2C 6D 5D 4D 3D", 4),
        ("AC KC AD KD AH KH AS KS QS QH QD QC JS", 8),
        ("KH 9H 8H 7H 6H 5H 4H 3H 2H 5C 4C 3C 2C", 1),
        ("QS JS TS 9H 8H 7H 6H 5C 4C 3C 2C 6D 5D", 1),  # nothing: the least bid, never Nil
    ],
)
def test_beginner_bids_its_aces_and_kings(hand: str, count: int) -> None:
    assert BeginnerBot(1).bid(bidding(hand)) == count
    assert BeginnerBot(1).bid(bidding(hand, (NIL, 9, 6))) == count


def test_cautious_counts_fewer_tricks_than_aggressive_on_the_same_hand() -> None:
    view = bidding("AS KS 4S 3S AH KH 5H 4H 3H 2C 3C 4C 5C")
    assert CautiousBot(1).bid(view) == 4  # AK of spades and of hearts
    assert AggressiveBot(1).bid(view) == 6  # plus the fourth spade and the diamond void


HOPELESS = "3S 2S 9H 8H 7H 6H 5H 4H 9C 8C 7C 6C 5C"


def test_cautious_bids_nil_only_on_a_hopeless_hand_with_partner_bidding_high() -> None:
    assert CautiousBot(1).bid(bidding(HOPELESS, (6, 3))) == NIL
    assert CautiousBot(1).bid(bidding(HOPELESS, (2, 3))) == 1
    assert CautiousBot(1).bid(bidding(HOPELESS)) == 1


def test_aggressive_bids_nil_on_a_weak_hand() -> None:
    weak = "JS 4S 2S KH 8H 3H 2H QC 5C 4C 9D 7D 3D"
    assert AggressiveBot(1).bid(bidding(weak)) == NIL
    assert CautiousBot(1).bid(bidding(weak)) != NIL
    assert AggressiveBot(1).bid(bidding(weak, (NIL, 3))) != NIL  # not both partners


def blind_offer(us: int, them: int, earlier: tuple[int, ...] = ()) -> PlayerView:
    """North's view, cards unseen, at a blind-Nil offer with NS at ``us`` and EW at ``them``."""
    view = bidding("AS KS QS JS TS 9S 8S 7S 6S 5S 4S 3S 2S", earlier)
    return view.replace(rules=Rules(blind_nil=True), totals=(us, them)).without_cards()


def test_aggressive_goes_blind_nil_when_100_behind_and_its_partner_can_cover() -> None:
    bot = AggressiveBot(1)
    assert not bot.blind_nil(blind_offer(200, 120))  # ahead
    assert not bot.blind_nil(blind_offer(120, 200))  # 80 behind: not yet
    assert bot.blind_nil(blind_offer(100, 200))
    # North bids first here, so as South (after North's bid) it weighs the partner's.
    south = blind_offer(100, 200, (4, 3)).replace(seat=SOUTH)
    assert bot.blind_nil(south)
    assert not bot.blind_nil(blind_offer(100, 200, (2, 3)).replace(seat=SOUTH))
    assert not CautiousBot(1).blind_nil(blind_offer(0, 300))  # the others never do


def test_aggressive_blind_nils_in_games_it_trails_and_stays_legal() -> None:
    rules = Rules(blind_nil=True)
    blind_nils = 0
    for seed in range(6):
        bots = {seat: make_bot("normal", seed=seat) for seat in SEATS}
        bots[NORTH], bots[SOUTH] = AggressiveBot(seed), AggressiveBot(seed + 1)
        game = play_game(bots, seed=seed, rules=rules)
        assert game.forfeited_by is None
        blind_nils += sum(hand.state.bids.count(BLIND_NIL) for hand in game.history)
    assert blind_nils > 0


# ------------------------------------------------------------ beginner's play


def test_beginner_trumps_a_void_suit_with_its_lowest_spade() -> None:
    cards = deal_with(N="3H", E="AH", S="2S 5S 9S", W="5H", complete={"S": "H"})
    view = position(cards, (3, 3, 3, 3), "3H AH")
    assert view.seat == SOUTH
    assert card_by(BeginnerBot(1), view) == "2S"


def test_beginner_does_not_trump_its_partners_trick() -> None:
    cards = deal_with(N="AH", E="3H", S="2S 5S 9S", W="5H", complete={"S": "H"})
    view = position(cards, (3, 3, 3, 3), "AH 3H")
    assert card_by(BeginnerBot(1), view) == "2C"  # its lowest side card


def test_beginner_leads_its_highest_side_card() -> None:
    cards = deal_with(N="AS KD 4H")  # the fill adds 2C..JC
    view = position(cards, (3, 3, 3, 3))
    assert view.seat == NORTH
    assert card_by(BeginnerBot(1), view) == "KD"


def test_beginner_wins_with_its_lowest_winner_or_plays_its_lowest() -> None:
    cards = deal_with(N="9D", E="QD 3D", S="AD KD 4D", complete={"S": "D"})
    assert card_by(BeginnerBot(1), position(cards, (3, 3, 3, 3), "9D QD")) == "KD"
    cards = deal_with(N="9D", E="AD 3D", S="KD QD 4D", complete={"S": "D"})
    assert card_by(BeginnerBot(1), position(cards, (3, 3, 3, 3), "9D AD")) == "4D"


# ------------------------------------------------------------ cautious play


def test_cautious_does_not_overtake_its_partners_winning_card() -> None:
    cards = deal_with(N="2D", E="KD", S="3D", W="AD 4D", complete={"W": "D"})
    view = position(cards, (3, 3, 3, 3), "2D KD 3D")
    assert view.seat == WEST
    assert card_by(CautiousBot(1), view) == "4D"


def test_cautious_does_not_overtake_its_partners_honour_in_third_seat() -> None:
    cards = deal_with(N="QD", E="3D", S="KD 4D", W="AD 2D", complete={"S": "D"})
    view = position(cards, (3, 3, 3, 3), "QD 3D")
    assert view.seat == SOUTH
    assert card_by(CautiousBot(1), view) == "4D"
    # A low card of partner's it does beat: third hand high.
    cards = deal_with(N="5D", E="3D", S="KD 4D", W="AD 2D", complete={"S": "D"})
    assert card_by(CautiousBot(1), position(cards, (3, 3, 3, 3), "5D 3D")) == "KD"


def test_cautious_plays_second_hand_low() -> None:
    cards = deal_with(N="3C", E="KC QC 2C", W="AC", complete={"E": "C"})
    assert card_by(CautiousBot(1), position(cards, (3, 3, 3, 3), "3C")) == "2C"


def test_cautious_plays_third_hand_no_higher_than_needed() -> None:
    cards = deal_with(N="2D", E="9D", S="AD KD QD 3D", complete={"S": "D"})
    assert card_by(CautiousBot(1), position(cards, (3, 3, 3, 3), "2D 9D")) == "QD"


def test_cautious_wins_last_as_cheaply_as_it_can() -> None:
    cards = deal_with(N="2D", E="9D", S="TD", W="AD JD 4D", complete={"W": "D"})
    assert card_by(CautiousBot(1), position(cards, (3, 3, 3, 3), "2D 9D TD")) == "JD"


def test_cautious_covers_its_partners_nil() -> None:
    # North deals: East leads, South bid Nil and is winning; North plays last.
    cards = deal_with(E="5D", S="9D", W="2D", N="AD 4D", complete={"N": "D"})
    view = position(cards, (3, NIL, 3, 4), "5D 9D 2D", dealer=NORTH)
    assert view.seat == NORTH
    assert card_by(CautiousBot(1), view) == "AD"
    # Without the Nil it would not take its partner's trick.
    view = position(cards, (3, 3, 3, 4), "5D 9D 2D", dealer=NORTH)
    assert card_by(CautiousBot(1), view) == "4D"


# ---------------------------------------------------------- aggressive play

# North wins two tricks with its aces, then leads 5H: East plays 9H, South holds AH 2H.
SET_DEAL = deal_with(N="AC AD 5H", E="2C 2D 9H", S="3C 3D AH 2H", W="4C 4D", complete={"S": "H"})


def set_position(bids: tuple[int, int, int, int]) -> PlayerView:
    view = position(SET_DEAL, bids, "AC 2C 3C 4C AD 2D 3D 4D 5H 9H")
    assert view.seat == SOUTH and view.tricks_won[NORTH] == 2
    return view


def test_aggressive_keeps_winning_to_set_the_opponents_after_making_its_bid() -> None:
    view = set_position((1, 5, 1, 5))  # NS bid 2 and took 2; EW need 10 of the 11 left
    assert card_by(AggressiveBot(1), view) == "AH"


def test_aggressive_ducks_the_bag_when_nothing_is_left_to_set() -> None:
    view = set_position((1, 6, 1, 6))  # EW need 12 of 11: set already
    assert card_by(AggressiveBot(1), view) == "2H"


def test_aggressive_ducks_under_a_nil_bidders_winning_card() -> None:
    cards = deal_with(N="3H", E="8H", S="KH 7H 5H", complete={"E": "H", "S": "H"})
    view = position(cards, (3, NIL, 4, 4), "3H 8H")
    assert view.seat == SOUTH
    assert card_by(AggressiveBot(1), view) == "7H"  # the highest card that stays under


def test_aggressive_leads_low_against_a_nil() -> None:
    # East deals: South leads, West has bid Nil.
    cards = deal_with(S="AC KD 2H 9H", complete={"S": "CDH"})  # and nine spades
    view = position(cards, (4, NIL, 3, 3), dealer=EAST)
    assert view.seat == SOUTH
    assert card_by(AggressiveBot(1), view) == "2H"
    # Against numeric bids it cashes its ace instead.
    assert card_by(AggressiveBot(1), position(cards, (4, 3, 3, 3), dealer=EAST)) == "AC"


def test_aggressive_does_not_trump_in_front_of_a_nil_bidder() -> None:
    # North deals: East leads, South is void in hearts, West (Nil) plays next.
    cards = deal_with(E="4H", S="2S 5S", W="9H", complete={"S": "H"})
    view = position(cards, (3, 4, NIL, 3), "4H", dealer=NORTH)
    assert view.seat == SOUTH
    assert card_by(AggressiveBot(1), view).endswith(("C", "D"))
    # Against a numeric bid it ruffs the opponents' trick.
    assert card_by(AggressiveBot(1), position(cards, (3, 4, 3, 3), "4H", dealer=NORTH)) == "2S"


def test_aggressive_plays_its_nil_with_the_highest_card_that_loses() -> None:
    # South deals: West leads, North bid Nil.
    cards = deal_with(W="TD", N="QD 9D 5D", complete={"N": "D"})
    view = position(cards, (3, NIL, 3, 3), "TD", dealer=SOUTH)
    assert view.seat == NORTH
    assert card_by(AggressiveBot(1), view) == "9D"


def test_aggressive_nil_throws_its_highest_card_when_void() -> None:
    cards = deal_with(W="TH", N="AC 2C 2S", complete={"N": "H"})
    view = position(cards, (3, NIL, 3, 3), "TH", dealer=SOUTH)
    assert card_by(AggressiveBot(1), view) == "AC"


# ---------------------------------------------------------------- isolation


def imported_modules(path: Path, package: str) -> set[str]:
    """Every module ``path`` imports, relative imports resolved against ``package``."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                names.add(f"{base}.{node.module}" if node.module else base)
            else:
                names.add(node.module or "")
    return names


def test_strangers_import_only_the_engine_and_the_bot_interface() -> None:
    # spades.bots/__init__ loads every level, so sys.modules cannot tell; read the sources.
    package = Path(spades.bots.strangers.__file__).parent
    sources = sorted(package.glob("*.py"))
    assert {"shark.py", "shark_deals.py", "shark_playout.py", "shark_bidding.py"} <= {
        path.name for path in sources
    }
    assert not any(path.is_dir() for path in package.iterdir() if path.name != "__pycache__")
    for path in sources:
        for module in imported_modules(path, "spades.bots.strangers"):
            if module.split(".")[0] != "spades":
                continue
            assert (
                module == "spades.core"
                or module.startswith("spades.core.")
                or module == "spades.bots.base"
                or module.startswith("spades.bots.strangers")
            ), f"{path.name} imports {module}"


def test_the_sharks_fitting_tool_shares_nothing_with_the_project_bots() -> None:
    tool = Path(__file__).resolve().parents[2] / "tools" / "fit_shark_bidding.py"
    for module in imported_modules(tool, "tools"):
        top = module.split(".")[0]
        assert top != "tools", f"the tool imports {module}"  # fit_bidding.py among them
        if top == "spades":
            assert module.startswith(("spades.core", "spades.bots.strangers")), module


def test_strangers_are_not_web_game_levels() -> None:
    assert not set(STRANGERS) & set(BOT_LEVELS)
    assert {bot.name for bot in (cls(0) for cls in STRANGERS.values())} == set(STRANGERS)


# -------------------------------------------------------------------- arena


@pytest.mark.parametrize("name", NAMES)
def test_the_arena_accepts_a_stranger_by_name(name: str) -> None:
    spec = parse_player(name.capitalize())
    assert spec.level == name and spec.command is None
    assert isinstance(make_player(spec, seed=3, think=0.1, worlds=5), STRANGERS[name])


def test_a_duplicate_match_against_a_stranger_runs() -> None:
    setup = MatchSetup(parse_player("normal"), parse_player("cautious"), seed=4)
    results = list(run_duplicate(setup, 3))
    assert len(results) == 3
    assert all(tally.forfeits == 0 for result in results for tally in result.tallies)
