"""The shark: a strong player of its own making, that thinks by dealing the
cards out and playing them.

For a card it deals the hidden cards out again a fixed number of times, as
its view allows (``shark_deals``: card counts, voids, the cards it passed),
plays each card it could play on every one of those deals to the end of the
hand by its simple playout rules (``shark_playout``), and plays the card
whose hands score best on average for its side against the other. Cards that
are as good as each other (touching cards, once the cards between them are
gone) are tried once, as the lowest; among cards that score the same it
keeps its spades and its high cards. A fixed number of deals, never a clock:
a decision depends on its seed and its view alone.

For a bid it counts its tricks with a linear model fitted on its own play
(``shark_bidding``, fitted by ``tools/fit_shark_bidding.py``) and bids the
number worth most over the spread of that count. With a count low enough it
also tries Nil the way it plays: over dealt-out hands, Nil played to the
end against its best numeric bid played to the end, and bids Nil when that
scores more by a margin (its playouts' opponents attack a Nil less hard than
people do). Where the rules have blind Nil it goes blind only when far
behind, unless its partner's bid is too low to cover it. The rule options
(double Nil, the least team bid, Nil passes) it leaves to the view's legal
bids and the default pass.
"""

from __future__ import annotations

import random

from spades.core import NIL, SPADES, SUIT_MASKS, Card, PlayerView, mask_of
from spades.core.cards import RANK_OF, SUIT_OF, cards_in

from ..base import Bot
from .shark_bidding import MODEL, TrickModel
from .shark_deals import DealSampler
from .shark_playout import Table, play_out

PLAYOUTS = 300
"""Playouts a card decision is given, shared among the distinct cards it may play."""
MIN_DEALS = 16
"""The fewest deals a card decision searches at the full budget, however many cards it tries."""
MAX_DEALS = 60
"""The most deals a card decision searches, however few cards it tries."""
NIL_DEALS = 24
"""Deals a Nil is tried on, each played out as Nil and as the best numeric bid."""
NIL_CONSIDER = 2.5
"""The largest trick count on which a Nil is tried at all."""
NIL_MARGIN = 15.0
"""Points a Nil must score above the numeric bid, on average, to be bid."""
BLIND_NIL_BEHIND = 200
"""Points behind from which it bids blind Nil."""
BLIND_NIL_MIN_COVER = 4
"""The least partner bid under which it will not go blind."""
TWO_OF_CLUBS: Card = 0


class SharkBot(Bot):
    """Plays by searching dealt-out hands; bids by a count fitted on its own play."""

    name = "shark"

    def __init__(
        self, seed: int | str | None = None, *, model: TrickModel = MODEL, playouts: int = PLAYOUTS
    ) -> None:
        super().__init__(seed)
        self.model = model
        # Playouts a card decision is given (tests of legality give fewer, to run fast).
        self.playouts = playouts
        # Every decision draws from its own generator, seeded by this and the
        # view: the same view asked twice gets the same answer.
        self.key = repr(seed) if seed is not None else str(self.rng.getrandbits(64))

    def decision_rng(self, view: PlayerView) -> random.Random:
        return random.Random(f"{self.key}|{view.seat}|{view.hand}|{view.played}|{view.bids}")

    # ------------------------------------------------------------------ bidding

    def bid(self, view: PlayerView) -> int:
        legal = view.legal_bids()
        numbers = [bid for bid in legal if bid > NIL]
        tricks = self.model.tricks(view.hand)
        bag_cost = bag_cost_of(view)
        best = max(numbers, key=lambda bid: self.model.bid_worth(tricks, bid, bag_cost))
        if NIL in legal and tricks <= NIL_CONSIDER and self.nil_pays(view, best):
            return NIL
        return best

    def nil_pays(self, view: PlayerView, numeric: int) -> bool:
        """Whether Nil beats bidding ``numeric`` over dealt-out hands played to the end."""
        rng = self.decision_rng(view)
        sampler = DealSampler(view)
        edge = 0.0
        for _ in range(NIL_DEALS):
            hands = sampler.sample(rng)
            bids = [0, 0, 0, 0]
            for seat in range(4):
                known = view.bid_of(seat)
                bids[seat] = known if known is not None else self.guess_bid(hands[seat])
            results = []
            for mine in (NIL, numeric):
                bids[view.seat] = mine
                table = Table.of(view.rules, (bids[0], bids[1], bids[2], bids[3]), view.bags)
                results.append(table.value(play_hand(table, view, hands), view.team))
            edge += results[0] - results[1]
        return edge / NIL_DEALS > NIL_MARGIN

    def guess_bid(self, hand: int) -> int:
        """What a seat holding ``hand`` is taken to bid, where it has not bid yet."""
        return max(1, min(13, round(self.model.tricks(hand))))

    def blind_nil(self, view: PlayerView) -> bool:
        behind = view.totals[1 - view.team] - view.totals[view.team]
        partner = view.bid_of(view.partner)
        covered = partner is None or partner >= BLIND_NIL_MIN_COVER
        return behind >= BLIND_NIL_BEHIND and covered

    # --------------------------------------------------------------------- play

    def play(self, view: PlayerView) -> Card:
        legal = view.legal_mask()
        candidates = distinct_cards(legal, view.unseen | mask_of(view.trick))
        if len(candidates) == 1:
            return candidates[0]
        rng = self.decision_rng(view)
        sampler = DealSampler(view)
        bids = [0, 0, 0, 0]
        for seat, bid in view.bids:
            bids[seat] = bid
        table = Table.of(view.rules, (bids[0], bids[1], bids[2], bids[3]), view.bags)
        least = max(1, MIN_DEALS * self.playouts // PLAYOUTS)
        deals = max(least, min(MAX_DEALS, self.playouts // len(candidates)))
        totals = [0.0] * len(candidates)
        trick = list(view.trick)
        won = list(view.tricks_won)
        for _ in range(deals):
            hands = sampler.sample(rng)
            for index, card in enumerate(candidates):
                after = hands.copy()
                after[view.seat] ^= 1 << card
                result = play_out(
                    table,
                    after,
                    view.leader,
                    [*trick, card],
                    won,
                    view.spades_broken or SUIT_OF[card] == SPADES,
                )
                totals[index] += table.value(result, view.team)
        pick = max(range(len(candidates)), key=lambda i: (totals[i], *keeps(candidates[i])))
        return candidates[pick]


def keeps(card: Card) -> tuple[bool, int]:
    """Among cards that score the same, the one worth keeping least: a side
    card before a spade, a low card before a high one."""
    return SUIT_OF[card] != SPADES, -RANK_OF[card]


def distinct_cards(legal: int, others: int) -> list[Card]:
    """One card of each run of ``legal`` cards that are worth the same (none of
    ``others``, the cards still out or on the table, between them): the lowest of the run."""
    picks: list[Card] = []
    for suit_mask in SUIT_MASKS:
        cards = list(cards_in(legal & suit_mask))
        for position, card in enumerate(cards):
            if position == 0:
                picks.append(card)
                continue
            between = ((1 << card) - 1) & ~((2 << cards[position - 1]) - 1)
            if others & between:
                picks.append(card)
    return picks


def bag_cost_of(view: PlayerView) -> float:
    limit = view.rules.bag_limit
    return view.rules.bag_penalty / limit if limit else 0.0


def play_hand(table: Table, view: PlayerView, hands: list[int]) -> list[int]:
    """The tricks of a whole hand dealt as ``hands``, played out from the first lead."""
    leader = (view.dealer + 1) & 3
    trick: list[Card] = []
    hands = hands.copy()
    if view.rules.first_lead == "two_of_clubs":
        leader = next(seat for seat in range(4) if hands[seat] >> TWO_OF_CLUBS & 1)
        hands[leader] ^= 1 << TWO_OF_CLUBS
        trick = [TWO_OF_CLUBS]
    return play_out(table, hands, leader, trick, [0, 0, 0, 0], False)
