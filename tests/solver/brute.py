"""Plain minimax over every legal card (no pruning, no bounds): the reference
the solver is checked against, and random positions to check it on.

The minimax remembers the value of every position it has met at the start of
a trick (``_KNOWN``), for the rest of the run: the value of such a position is
a function of the cards each seat still holds, who leads, whether spades are
broken, the rules and the question asked, all of them in the key, so a value
looked up is the one the search would work out again. Random endgames reach
the same trick starts over and over (a 4-trick endgame has a few thousand
lines through a few hundred trick starts), which makes the reference cheap
without making it any less exhaustive: every legal card of every position
not yet met is still tried, with no bound and no ordering."""

from __future__ import annotations

import random
from collections.abc import Hashable

from spades.core.cards import FULL_DECK, cards_in
from spades.core.hand import HandState
from spades.solver import make_position

_KNOWN: dict[tuple[Hashable, ...], int | bool] = {}
"""Values of trick-start positions worked out so far, by question and position."""


def _trick_start(question: Hashable, state: HandState) -> tuple[Hashable, ...] | None:
    """The key of ``state`` for ``question``, if a trick is about to start."""
    if state.trick:
        return None
    return (
        question,
        *state.hands,
        state.leader,
        state.spades_broken,
        state.rules,
        not state.tricks,
    )


def brute_tricks(state: HandState, seats: int) -> int:
    """Remaining tricks (the one in progress included) won by the seats in the
    mask ``seats``, their side maximising, the other minimising."""
    if not state.hands[state.turn]:
        return 0
    key = _trick_start(("tricks", seats), state)
    if key is not None and key in _KNOWN:
        return int(_KNOWN[key])
    maximizing = bool(seats & (0b0101 << (state.turn & 1)))
    results = []
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        won = 1 if finishing and seats >> state.tricks[-1].winner & 1 else 0
        results.append(won + brute_tricks(state, seats))
        state.undo()
    best = max(results) if maximizing else min(results)
    if key is not None:
        _KNOWN[key] = best
    return best


def brute_nil(state: HandState, seat: int) -> bool:
    """Whether ``seat``'s side can keep it from winning any remaining trick."""
    if not state.hands[state.turn]:
        return True
    key = _trick_start(("nil", seat), state)
    if key is not None and key in _KNOWN:
        return bool(_KNOWN[key])
    results = []
    for card in state.legal_cards():
        finishing = len(state.trick) == 3
        state.apply_play(card)
        lost = finishing and state.tricks[-1].winner == seat
        results.append(not lost and brute_nil(state, seat))
        state.undo()
    defending = state.turn & 1 == seat & 1
    holds = any(results) if defending else all(results)
    if key is not None:
        _KNOWN[key] = holds
    return holds


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
