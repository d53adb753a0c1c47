"""Plain minimax over every legal card (no pruning, no bounds): the reference
the solver is checked against, and random positions to check it on."""

from __future__ import annotations

import random

from spades.core.cards import FULL_DECK, cards_in
from spades.core.hand import HandState
from spades.solver import make_position


def brute_tricks(state: HandState, seats: int) -> int:
    """Remaining tricks (the one in progress included) won by the seats in the
    mask ``seats``, their side maximising, the other minimising."""
    if not state.hands[state.turn]:
        return 0
    maximizing = bool(seats & (0b0101 << (state.turn & 1)))
    results = []
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
        results.append(won + brute_tricks(state, seats))
        state.undo()
    return max(results) if maximizing else min(results)


def brute_nil(state: HandState, seat: int) -> bool:
    """Whether ``seat``'s side can keep it from winning any remaining trick."""
    if not state.hands[state.turn]:
        return True
    results = []
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        lost = finishing and state.tricks[-1].winner == seat
        results.append(not lost and brute_nil(state, seat))
        state.undo()
    defending = state.turn & 1 == seat & 1
    return any(results) if defending else all(results)


def memo_tricks(state: HandState, team: int) -> int:
    """Exact minimax remembering whole positions at trick starts (still no
    pruning): fast enough for 6 tricks."""
    memo: dict[tuple[int, ...], int] = {}
    seats = 0b0101 << team

    def value() -> int:
        if not state.hands[state.turn]:
            return 0
        key = None
        if not state.trick:
            key = (*state.hands, state.leader, int(state.spades_broken))
            if key in memo:
                return memo[key]
        results = []
        for card in state.legal_cards():
            finishing = len(state.trick) == 3
            state.apply_play(card)
            won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
            results.append(won + value())
            state.undo()
        best = max(results) if state.turn & 1 == team else min(results)
        if key is not None:
            memo[key] = best
        return best

    return value()


def random_endgame(rng: random.Random, tricks: int, *, mid_trick: bool) -> HandState:
    """A random position with ``tricks`` cards a hand, random leader and spade
    status, and (``mid_trick``) 1 to 3 random legal cards of the trick played.

    Half the time the cards come from a band of eight ranks, so that small
    endings are full of close cards, equivalent cards and ruffs.
    """
    deck = list(cards_in(FULL_DECK))
    rng.shuffle(deck)
    if rng.random() < 0.5:
        low = rng.randrange(0, 6)
        deck = [card for card in deck if low <= card % 13 < low + 8]
    hands = [0, 0, 0, 0]
    for index, card in enumerate(deck[: 4 * tricks]):
        hands[index % 4] |= 1 << card
    state = make_position(hands, leader=rng.randrange(4), broken=rng.random() < 0.5)
    if mid_trick:
        for _ in range(rng.randrange(1, 4)):
            state.apply_play(rng.choice(state.legal_cards()))
    return state
