"""The C playout (``bots/search/_playout.c``) plays exactly as the Python
knowledge-based player it ports: the same card at every turn of every hand,
and so the same tricks at the end, under the house rules that change the play
and with every kind of Nil at the table."""

from __future__ import annotations

import os
import random

import pytest

from spades.bots.base import default_pass
from spades.bots.knowledge.learned_bidding import choose_learned_bid
from spades.bots.knowledge.memory import Memory
from spades.bots.knowledge.play import choose_card
from spades.bots.search import playouts
from spades.core import BLIND_NIL, NIL, Game, PlayerView
from spades.core.cards import lowest, mask_of
from spades.core.hand import HandState, Phase
from spades.core.rules import Rules

PURE = os.environ.get("SPADES_PURE_PYTHON", "") not in ("", "0")
pytestmark = pytest.mark.skipif(PURE, reason="installed without compiled modules")
if not PURE:  # built by ``make`` (CI's fresh machine too): missing, the tests fail
    from spades.bots.search import _playout as kernel

HOUSE_RULES = {
    "the rule page": Rules(),
    "two of clubs leads, spades any time": Rules(first_lead="two_of_clubs", spades_break=False),
    "no bag penalty, blind Nil with a pass": Rules(
        bag_limit=None, blind_nil=True, nil_pass=2, blind_nil_pass=2
    ),
    "a low bag limit, blind Nil": Rules(bag_limit=3, bag_penalty=50, blind_nil=True),
}
DEALS = 150


def bid_out(state: HandState, rules: Rules, rng: random.Random, bags: tuple[int, int]) -> None:
    """The learned bids, with a Nil forced now and then (a double Nil and a
    blind Nil where the rules have them), so that every Nil line is played."""
    nil_seat = rng.randrange(4) if rng.random() < 0.5 else None
    double = rng.random() < 0.2
    while state.phase is Phase.BIDDING:
        seat = state.turn
        view = PlayerView.of(state, seat, bags=bags, rules=rules)
        if seat == nil_seat or (double and nil_seat is not None and seat == (nil_seat + 2) & 3):
            state.apply_bid(BLIND_NIL if rules.blind_nil and rng.random() < 0.5 else NIL)
        else:
            state.apply_bid(choose_learned_bid(view))


def compare_hand(seed: int, rules: Rules) -> int:
    """Plays one hand with the Python player, asking the C at every turn;
    returns how many cards were compared."""
    rng = random.Random(seed)
    below = rules.bag_limit or 10  # each team's bags so far, short of the limit
    bags = (rng.randrange(below), rng.randrange(below))
    state = Game(rules, seed=seed).hand.clone()
    bid_out(state, rules, rng, bags)
    searcher = PlayerView.of(state, rng.randrange(4), bags=bags, rules=rules)
    ending = playouts.play_to_end(state.clone(), searcher)
    while state.phase is Phase.PASSING:
        view = PlayerView.of(state, state.turn, bags=bags, rules=rules)
        state.apply_pass(mask_of(default_pass(view)))
    compared = 0
    while state.phase is Phase.PLAYING:
        legal = state.legal_mask()
        view = PlayerView.of(state, state.turn, bags=bags, rules=rules)
        expected = lowest(legal) if legal & (legal - 1) == 0 else choose_card(Memory(view))
        got = kernel.choose(*playouts.kernel_arguments(state, searcher))
        assert got == expected, f"seed {seed}, trick {len(state.tricks) + 1}: {view}"
        state.apply_play(expected)
        compared += 1
    assert ending == (*state.bids, *state.tricks_won)
    return compared


def test_the_c_playout_is_built_and_used() -> None:
    assert playouts._play_out is kernel.play_out


@pytest.mark.parametrize("rules", HOUSE_RULES.values(), ids=HOUSE_RULES.keys())
def test_the_c_playout_plays_every_card_as_the_python_player(rules: Rules) -> None:
    compared = sum(compare_hand(seed, rules) for seed in range(DEALS))
    assert compared == 52 * DEALS  # every card of every hand


def test_a_playout_from_mid_trick_ends_as_the_python_one() -> None:
    rng = random.Random(7)
    for seed in range(60):
        state = Game(seed=seed).hand.clone()
        bid_out(state, Rules(), rng, (0, 0))
        for _ in range(rng.randrange(40)):  # somewhere in the hand, mid-trick or not
            view = PlayerView.of(state, state.turn)
            state.apply_play(choose_card(Memory(view)))
        viewer = PlayerView.of(state, state.turn)
        assert playouts.play_to_end(state.clone(), viewer) == playouts.play_to_end(
            state.clone(), viewer, native=False
        )


def test_the_c_playout_refuses_a_hand_not_in_play() -> None:
    state = Game(seed=1).hand.clone()
    bid_out(state, Rules(), random.Random(1), (0, 0))
    arguments = list(playouts.kernel_arguments(state, PlayerView.of(state, state.turn)))
    arguments[1] = (1, 2, 3, 4)  # a trick of four cards is over, not in play
    with pytest.raises(ValueError, match="not a hand in play"):
        kernel.play_out(*arguments)
    arguments[1] = (60,)
    with pytest.raises(ValueError, match="a card is 0 to 51"):
        kernel.choose(*arguments)
