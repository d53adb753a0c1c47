"""The shark's bidding: a trick count fitted on its own play, and the bid worth most.

The count is linear in a few facts of the hand (``hand_facts``), with
coefficients that ``tools/fit_shark_bidding.py`` fits on hands the shark
plays against itself (written to ``shark_bidding.json`` beside this file).
The fit also gives the spread of the tricks about the count. The shark then
bids the number worth most on average over that spread: made, ten a trick
bid and one a trick over, each trick over charged its share of the bag
penalty; set, ten a trick bid lost.

A Nil is weighed separately, by the shark's own search (``shark``): how
often it holds over dealt-out hands played to the end.

>>> from spades.core import mask_of, parse_cards
>>> strong = mask_of(parse_cards("AS KS QS JS 9S AH KH AD KD AC 4C 3C 2C"))
>>> weak = mask_of(parse_cards("2S 3S 9H 8H 7H 6H 5H 4H 9C 8C 7C 6C 5C"))
>>> MODEL.tricks(strong) > 8 > 2 > MODEL.tricks(weak)
True
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path

from spades.core import SPADES, SUIT_MASKS
from spades.core.cards import RANK_ACE, RANK_JACK, RANK_KING, RANK_OF, RANK_QUEEN, cards_in

COEFFICIENTS = Path(__file__).with_name("shark_bidding.json")

FACT_NAMES = (
    "constant",
    "spades",
    "spade_ace",
    "spade_king",
    "spade_queen",
    "spade_jack",
    "spades_past_four",
    "side_aces",
    "side_kings_guarded",
    "side_kings_bare",
    "side_queens_guarded",
    "side_queens_short",
    "voids_with_spades",
    "singletons_with_spades",
    "doubletons_with_spades",
    "side_length_past_four",
)
"""The facts of a hand the count is built from, in the order of the coefficients."""


def hand_facts(hand: int) -> list[float]:
    """The facts of a 13-card ``hand`` named by ``FACT_NAMES``."""
    spade_ranks = {RANK_OF[card] for card in cards_in(hand & SUIT_MASKS[SPADES])}
    spades = len(spade_ranks)
    facts = [0.0] * len(FACT_NAMES)
    facts[0] = 1.0
    facts[1] = spades
    facts[2] = RANK_ACE in spade_ranks
    facts[3] = RANK_KING in spade_ranks
    facts[4] = RANK_QUEEN in spade_ranks
    facts[5] = RANK_JACK in spade_ranks
    facts[6] = max(0, spades - 4)
    for suit in range(SPADES):
        ranks = {RANK_OF[card] for card in cards_in(hand & SUIT_MASKS[suit])}
        length = len(ranks)
        facts[7] += RANK_ACE in ranks
        if RANK_KING in ranks:
            facts[8 if length >= 2 else 9] += 1
        if RANK_QUEEN in ranks:
            facts[10 if length >= 3 else 11] += 1
        if spades:
            if length == 0:
                facts[12] += 1
            elif length == 1:
                facts[13] += 1
            elif length == 2:
                facts[14] += 1
        facts[15] += max(0, length - 4)
    return facts


@dataclass(frozen=True, slots=True)
class TrickModel:
    """The fitted count: ``weights`` by ``FACT_NAMES``, ``spread`` the standard
    deviation of the tricks about it."""

    weights: tuple[float, ...]
    spread: float

    @classmethod
    def load(cls, path: Path = COEFFICIENTS) -> TrickModel:
        data = json.loads(path.read_text())
        weights = data["weights"]
        if list(weights) != list(FACT_NAMES):
            raise ValueError(f"{path} holds weights for {list(weights)}, not {list(FACT_NAMES)}")
        return cls(tuple(float(weights[name]) for name in FACT_NAMES), float(data["spread"]))

    def tricks(self, hand: int) -> float:
        """The tricks a seat holding ``hand`` is expected to take on a numeric bid."""
        return self.tricks_of(hand_facts(hand))

    def tricks_of(self, facts: list[float]) -> float:
        """The count for a hand whose ``hand_facts`` are ``facts``."""
        return sum(w * f for w, f in zip(self.weights, facts, strict=True))

    def bid_worth(self, tricks: float, bid: int, bag_cost: float) -> float:
        """The mean score of bidding ``bid`` when the tricks taken are spread
        about ``tricks`` (a normal curve, rounded to whole tricks 0..13)."""
        worth = total = 0.0
        for taken in range(14):
            weight = math.exp(-0.5 * ((taken - tricks) / self.spread) ** 2)
            made = taken >= bid
            score = 10 * bid + (taken - bid) * (1 - bag_cost) if made else -10 * bid
            worth += weight * score
            total += weight
        return worth / total


MODEL = TrickModel.load()
