"""The stored brute-force reference (``reference.py``, ``brute_force.txt``) is
what it claims: the positions made from its seeds, with exhaustive minimax's
answers, checked again live on a sample at every run (the whole file is
minutes of minimax: ``tools/brute_force_reference.py`` writes it)."""

from __future__ import annotations

import pytest

from spades.core.hand import HandState

from .brute import brute_tricks
from .reference import ENDGAMES, minimax_answers, positions, read_file, read_line

STORED = read_file()
SAMPLE = 50
"""Every 50th endgame of the file is worked out again."""


def snapshot(state: HandState) -> tuple[object, ...]:
    return (tuple(state.hands), tuple(state.trick), state.turn, state.leader, state.spades_broken)


def test_the_file_holds_the_positions_made_from_the_seeds_in_order() -> None:
    made = positions()
    assert len(STORED) == len(made)
    for stored, state in zip(STORED, made, strict=True):
        assert snapshot(stored.state) == snapshot(state), stored.text


@pytest.mark.slow
def test_minimax_gives_the_stored_answers_on_a_sample() -> None:
    sample = STORED[:ENDGAMES:SAMPLE]
    assert len(sample) == ENDGAMES // SAMPLE
    assert any(stored.state.trick for stored in sample)
    assert any(not stored.state.trick for stored in sample)
    for stored in sample:
        assert minimax_answers(stored.state) == stored.answers, stored.text


@pytest.mark.slow
def test_minimax_gives_a_five_trick_deals_stored_tricks() -> None:
    stored = STORED[ENDGAMES]
    assert stored.state.hands[0].bit_count() == 5
    assert brute_tricks(stored.state, 0b0101) == stored.answers.teams[0]


def test_a_wrong_answer_in_the_file_would_be_seen() -> None:
    """The comparison above can fail: one answer changed is a different reading."""
    stored = STORED[0]
    teams = stored.answers.teams
    changed = stored.text.replace(f"\t{teams[0]} {teams[1]}\t", f"\t{teams[0] + 1} {teams[1]}\t")
    assert changed != stored.text
    assert read_line(changed).answers != minimax_answers(stored.state)
