"""Each public event with the table as it stands just after it.

The page animates a move's events one by one. It used to work out, between
them, whose turn it was, the phase, the tricks played, whether spades were
broken and each team's contract: the rules a second time, in JavaScript. The
engine knows; this module asks it at each move and writes the answer on the
move's events (``after``), so the page only draws.

A move can set off a chain (the fourth card wins a trick, which ends the hand,
which is scored, and the next is dealt). The engine is asked once the chain is
over, so the last event carries its exact state; the events before it carry
the counts they change (tricks played, the contracts, the scores), taken from
the hand they belong to, and ``turn`` null: no one is to act while the chain
plays out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from spades.core import (
    CardPlayed,
    Event,
    Game,
    HandScored,
    HandState,
    TeamContract,
    TrickWon,
    team_contract,
)
from spades.core.seats import SEAT_LETTERS, TEAM_NAMES, TEAMS, TeamName

from .schemas import ContractState, StateAfter


@dataclass(frozen=True, slots=True)
class Moment:
    """An engine event and the table just after it."""

    event: Event
    after: StateAfter


def contract_state(contract: TeamContract) -> ContractState:
    """A team's contract as the API writes it."""
    return ContractState(
        bid=contract.bid,
        nil_seats=[SEAT_LETTERS[seat] for seat in contract.nil_seats],
        tricks=contract.taken,
        left=contract.left,
    )


def contracts(hand: HandState) -> dict[TeamName, ContractState]:
    """Each team's contract in ``hand`` as the engine counts it (public facts)."""
    return {
        TEAM_NAMES[team]: contract_state(team_contract(team, hand.bids, hand.tricks_won))
        for team in TEAMS
    }


def state_now(game: Game) -> StateAfter:
    """The table as the engine has it now."""
    over = game.is_over
    return StateAfter(
        hand=game.hand_number if not over else len(game.history),
        phase="over" if over else game.phase.value,
        turn=None if game.to_act is None else SEAT_LETTERS[game.to_act],
        tricks_played=len(game.hand.tricks),
        scores=dict(zip(TEAM_NAMES, game.totals, strict=True)),
        bags=dict(zip(TEAM_NAMES, game.bags, strict=True)),
        spades_broken=game.hand.spades_broken,
        teams=contracts(game.hand),
    )


def moments(before: StateAfter, game: Game, events: Sequence[Event]) -> list[Moment]:
    """``events``, which one move made on ``game`` (its state ``before`` the
    move), each with the table after it."""
    result: list[Moment] = []
    state = before
    for index, event in enumerate(events):
        if index == len(events) - 1:
            state = state_now(game)
        else:
            changes: dict[str, object] = {"turn": None}
            # The hand this event belongs to, as the chain left it: no card of it
            # follows in the chain, so spades are broken after this event as they
            # are at the end; only a card's trick may still be counted after it.
            scored = next((e for e in events[index:] if isinstance(e, HandScored)), None)
            hand = game.history[scored.number - 1].state if scored is not None else game.hand
            changes["spades_broken"] = hand.spades_broken
            if not isinstance(event, CardPlayed):
                changes["teams"] = contracts(hand)
            if isinstance(event, TrickWon):
                changes["tricks_played"] = state.tricks_played + 1
            elif isinstance(event, HandScored):
                changes["scores"] = dict(zip(TEAM_NAMES, event.totals, strict=True))
                changes["bags"] = {TEAM_NAMES[team]: event.scores[team].bags for team in (0, 1)}
            state = state.model_copy(update=changes)
        result.append(Moment(event, state))
    return result


def after_claim(before: StateAfter, game: Game) -> StateAfter:
    """The table just after a claim that held: the tricks it gave are counted
    (the hand it ended is the last scored), no one is to act yet."""
    return before.model_copy(update={"turn": None, "teams": contracts(game.history[-1].state)})
