"""The bots under house rules: a Nil worth less is bid less, blind Nil is
decided without the cards and only when behind, and a Nil pass gives the
right cards each way."""

from __future__ import annotations

from spades.arena import play_game, seat_bots
from spades.bots import RandomBot, make_bot
from spades.bots.base import default_pass
from spades.bots.knowledge.blind_nil import wants_blind_nil
from spades.bots.knowledge.learned_bidding import choose_learned_bid
from spades.core import (
    BLIND_NIL,
    NIL,
    Game,
    PlayerView,
    Rules,
    game_from_record,
    game_to_record,
    parse_rules,
)
from spades.core.cards import cards_in


def first_bid_views(rules: Rules, count: int) -> list[PlayerView]:
    return [Game(rules, seed=seed).view(Game(rules, seed=seed).to_act) for seed in range(count)]


def test_a_nil_worth_fifty_is_bid_less_often_than_one_worth_a_hundred() -> None:
    views = first_bid_views(Rules(), 400)
    nils_at_100 = {i for i, view in enumerate(views) if choose_learned_bid(view) == NIL}
    cheap = Rules(nil_bonus=50)
    nils_at_50 = {
        i for i, view in enumerate(views) if choose_learned_bid(view.replace(rules=cheap)) == NIL
    }
    assert nils_at_100, "no Nil among the hands: the scenario says nothing"
    assert nils_at_50 < nils_at_100  # every Nil worth 50 is also worth 100, not the reverse


def _behind(rules: Rules, ours: int, theirs: int) -> PlayerView:
    game = Game(rules, seed=4)
    view = game.view(game.to_act)
    totals = [0, 0]
    totals[view.team], totals[1 - view.team] = ours, theirs
    return view.replace(totals=(totals[0], totals[1])).without_cards()


def test_blind_nil_only_when_the_other_side_is_about_to_win_and_far_ahead() -> None:
    rules = Rules(blind_nil=True)
    assert not wants_blind_nil(_behind(rules, 0, 0))
    assert not wants_blind_nil(_behind(rules, 300, 350))  # close: an ordinary hand may do
    assert wants_blind_nil(_behind(rules, 200, 420))
    assert not wants_blind_nil(_behind(Rules(), 200, 420))  # not in these rules
    assert not wants_blind_nil(_behind(Rules(blind_nil=True, blind_nil_behind=300), 200, 420))


def test_the_referee_asks_blind_nil_on_a_view_without_the_cards() -> None:
    asked: list[PlayerView] = []

    class Spy(RandomBot):
        def blind_nil(self, view: PlayerView) -> bool:
            asked.append(view)
            return True

    rules = parse_rules("cardcouch,target=300,blind_nil=on,nil_pass=2")
    bots = seat_bots(dict.fromkeys(range(4), "normal"), 1)
    bots[0] = Spy(seed=1)
    game = play_game(bots, seed=1, rules=rules, max_hands=3)
    assert asked and all(view.hand == 0 and view.legal_bids() == [BLIND_NIL] for view in asked)
    bids = [scored.state.bids[0] for scored in game.history]
    assert BLIND_NIL in bids
    assert game_to_record(game_from_record(game_to_record(game))) == game_to_record(game)


def test_a_nil_bidder_passes_its_danger_and_its_partner_its_smallest_cards() -> None:
    game = Game(Rules(nil_pass=2), seed=11)
    nil_seat = game.to_act
    assert nil_seat is not None
    for bid in (NIL, 3, 3, 3):
        game.bid(game.to_act, bid)
    view = game.view(nil_seat)
    passed = default_pass(view)
    held = view.hand
    spades = [c for c in cards_in(held) if c >= 39]
    expected_first = max(spades) if spades else max(cards_in(held), key=lambda c: c % 13)
    assert len(passed) == 2 and passed[0] == expected_first
    game.pass_cards(nil_seat, passed)
    partner_view = game.view(game.to_act)
    given = default_pass(partner_view)
    side = sorted((c for c in cards_in(partner_view.hand) if c < 39), key=lambda c: c % 13)
    assert {c % 13 for c in given} == {c % 13 for c in side[:2]}


def test_the_knowledge_bot_plays_whole_games_under_every_preset_legally() -> None:
    for text in ("traditional", "club", "cardcouch,spades_break=off,min_team_bid=4,double_nil=off"):
        rules = parse_rules(text)
        game = play_game(seat_bots(dict.fromkeys(range(4), "normal"), 2), seed=2, rules=rules)
        assert game.is_over and game.forfeited_by is None, text
        assert game_from_record(game_to_record(game)).totals == game.totals


def test_a_nil_bidders_partner_bids_up_to_a_minimum_team_bid() -> None:
    """With a minimum team bid of 7, the partner on Nil and no double Nil, only
    7 or more is legal: far above most hands' count, where the bidder used to
    look for bids and, finding none, failed."""
    rules = parse_rules("cardcouch,min_team_bid=7,double_nil=off")
    for seed in range(12):
        game = Game(rules, seed=seed)
        first = game.to_act
        assert first is not None
        game.bid(first, NIL)
        second = game.to_act
        assert second is not None
        game.bid(second, 7)
        view = game.view(game.to_act)  # type: ignore[arg-type]
        assert min(view.legal_bids()) >= 7
        for level in ("normal", "hard", "expert"):
            bot = make_bot(level, seed=seed, worlds=4)
            assert bot.bid(view) in view.legal_bids(), (level, seed)
