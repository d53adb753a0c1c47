"""The shark's playouts: a whole deal laid open, played to the end by simple rules.

The shark's search (``shark``) deals the hidden cards out many times and,
on each deal, plays the rest of the hand with every seat following the rules
below, which see all four hands of that deal:

* a Nil bidder whose Nil still holds ducks: the highest card that loses, and
  when every card wins, the highest on the last seat and the lowest before it;
* the partner of a live Nil plays high in front of it and takes a trick the
  Nil bidder is winning;
* an opponent of a live Nil leads low in a suit the Nil bidder holds high
  cards of, plays low in front of it, and ducks under a card it is winning with;
* a seat whose side needs nothing more (its contract made, the other side's
  made or beyond reach) ducks too, to spare the bags;
* otherwise it leads a side-suit winner no opponent can ruff, else a top
  trump, else low from its longest side suit; it leaves a partner's safe
  trick alone; it wins with the cheapest card nobody behind it can beat,
  ruffing only where it cannot be over-ruffed; and it throws its lowest side
  card, from its shortest suit, when it cannot win.

A finished playout is worth what the hand scores for the shark's side minus
the other side, every bag charged its share of the bag penalty (the
penalty itself left out, so a bag costs the same whether or not it is the
one that reaches the limit).

>>> from spades.core import Rules, parse_cards, mask_of
>>> hands = [mask_of(parse_cards(cards)) for cards in ("AH 2C", "KH 3C", "QH 4C", "JH 5C")]
>>> table = Table.of(Rules(), bids=(1, 1, 1, 1), bags=(0, 0))
>>> play_out(table, hands, leader=0, trick=[], won=[0, 0, 0, 0], broken=False)
[1, 0, 0, 1]
"""

from __future__ import annotations

from dataclasses import dataclass

from spades.core import NIL, SPADES, SUIT_MASKS, Card, Rules, beating_cards, score_hand
from spades.core.cards import NON_SPADE_MASK, RANK_OF, SPADE_MASK, SUIT_OF

SIDE_MASKS = SUIT_MASKS[:SPADES]
FIRST_SPADE: Card = 13 * SPADES


@dataclass(frozen=True, slots=True)
class Table:
    """What a playout needs besides the cards: the bids and how a hand scores."""

    rules: Rules
    bids: tuple[int, int, int, int]
    """Every seat's bid (Nil 0, blind Nil -1)."""
    bags: tuple[int, int]
    """Each side's bags before this hand."""
    nil: tuple[bool, bool, bool, bool]
    """Whether each seat bid Nil (or blind Nil)."""
    contract: tuple[int, int]
    """Each side's numeric bid (its Nil bidders aside)."""
    bag_cost: float
    """What a bag costs: its share of the bag penalty (0 where bags cost nothing)."""

    @classmethod
    def of(cls, rules: Rules, bids: tuple[int, int, int, int], bags: tuple[int, int]) -> Table:
        nil = (bids[0] <= NIL, bids[1] <= NIL, bids[2] <= NIL, bids[3] <= NIL)
        contract = (
            sum(bids[seat] for seat in (0, 2) if not nil[seat]),
            sum(bids[seat] for seat in (1, 3) if not nil[seat]),
        )
        limit = rules.bag_limit
        bag_cost = rules.bag_penalty / limit if limit else 0.0
        return cls(rules, bids, bags, nil, contract, bag_cost)

    def value(self, won: list[int], team: int) -> float:
        """What the finished hand is worth to ``team``: its score minus the other side's."""
        sides = score_hand(self.bids, won, self.bags, self.rules)
        worth = [
            side.delta + side.bag_penalty_points - self.bag_cost * side.bags_taken for side in sides
        ]
        return worth[team] - worth[1 - team]


def lowest(mask: int) -> Card:
    return (mask & -mask).bit_length() - 1


def highest(mask: int) -> Card:
    return mask.bit_length() - 1


def lowest_rank(mask: int) -> Card:
    """The lowest-ranked card of ``mask``, a side card before a spade."""
    side = mask & NON_SPADE_MASK
    pool = side or mask
    best = -1
    for suit_mask in SUIT_MASKS:
        cards = pool & suit_mask
        if cards:
            card = lowest(cards)
            if best < 0 or RANK_OF[card] < RANK_OF[best]:
                best = card
    return best


def highest_rank(mask: int) -> Card:
    """The highest-ranked card of ``mask``, a spade before a side card."""
    best = -1
    for suit_mask in SUIT_MASKS:
        cards = mask & suit_mask
        if cards:
            card = highest(cards)
            if best < 0 or RANK_OF[card] >= RANK_OF[best]:
                best = card
    return best


def play_out(
    table: Table, hands: list[int], leader: int, trick: list[Card], won: list[int], broken: bool
) -> list[int]:
    """Play the hand out from here and return every seat's tricks.

    ``hands`` are the cards each seat still holds, ``trick`` the cards of the
    trick in progress (led by ``leader``); the lists given are not changed.
    """
    hands = hands.copy()
    won = won.copy()
    trick = trick.copy()
    lead_any = broken or not table.rules.spades_break
    nil = table.nil
    out = hands[0] | hands[1] | hands[2] | hands[3]
    best = winner = -1
    for position, card in enumerate(trick):
        if best < 0 or beating_cards(best) >> card & 1:
            best, winner = card, (leader + position) & 3
    # What each seat plays for changes only when a trick is won.
    live = [nil[seat] and not won[seat] for seat in range(4)]
    wants = [wants_tricks(table, won, team, hands[leader].bit_count()) for team in (0, 1)]
    while True:
        if len(trick) == 4:
            won[winner] += 1
            leader = winner
            trick = []
            best = winner = -1
            if not out:
                return won
            if live[leader]:
                live[leader] = False
            tricks_left = hands[leader].bit_count()
            wants[0] = wants_tricks(table, won, 0, tricks_left)
            wants[1] = wants_tricks(table, won, 1, tricks_left)
        seat = (leader + len(trick)) & 3
        hand = hands[seat]
        if trick:
            follow = hand & SUIT_MASKS[SUIT_OF[trick[0]]]
            legal = follow or hand
        else:
            legal = hand if lead_any else (hand & NON_SPADE_MASK or hand)
        if legal & (legal - 1) == 0:
            card = lowest(legal)
        elif live[seat]:
            card = duck(legal, best, len(trick))
        else:
            card = choose(
                hands, out, seat, legal, leader, trick, best, winner, live, wants[seat & 1]
            )
        if card >= FIRST_SPADE:
            lead_any = True
        hands[seat] = hand ^ (1 << card)
        out ^= 1 << card
        trick.append(card)
        if best < 0 or beating_cards(best) >> card & 1:
            best, winner = card, seat


def choose(
    hands: list[int],
    out: int,
    seat: int,
    legal: int,
    leader: int,
    trick: list[Card],
    best: Card,
    winner: int,
    live: list[bool],
    wants: bool,
) -> Card:
    """The playout rules' card for ``seat``, not a live Nil (``legal`` holds
    two cards or more, ``out`` every card still held)."""
    position = len(trick)
    partner = seat ^ 2
    if live[partner]:
        card = cover(hands, seat, legal, leader, trick, best, winner)
        if card >= 0:
            return card
    for target in ((seat + 1) & 3, (seat + 3) & 3):
        if live[target]:
            card = attack(hands, target, legal, leader, trick, best, winner)
            if card >= 0:
                return card
    if not wants:
        return duck(legal, best, position)
    if position == 0:
        return lead(hands, out ^ hands[seat], seat, legal)
    team = seat & 1
    opponents = [
        other for other in ((leader + p) & 3 for p in range(position + 1, 4)) if other & 1 != team
    ]
    led_mask = SUIT_MASKS[SUIT_OF[trick[0]]]
    if winner == partner and not beatable(hands, opponents, best, led_mask):
        return throw(legal, led_mask)
    takers = legal & beating_cards(best)
    while takers:
        card = lowest(takers)
        if not beatable(hands, opponents, card, led_mask):
            return card
        takers ^= 1 << card
    return throw(legal, led_mask)


def wants_tricks(table: Table, won: list[int], team: int, tricks_left: int) -> bool:
    """Whether ``team`` still plays to win tricks: for its contract, or to set the other side's."""
    nil = table.nil
    ours = sum(won[seat] for seat in (team, team + 2) if not nil[seat])
    if ours < table.contract[team]:
        return True
    theirs = sum(won[seat] for seat in (1 - team, 3 - team) if not nil[seat])
    short = table.contract[1 - team] - theirs
    return 0 < short <= tricks_left


def beatable(hands: list[int], seats: list[int], card: Card, led_mask: int) -> bool:
    """Whether one of ``seats`` (still to play) can beat ``card`` in a trick of ``led_mask``."""
    above = beating_cards(card)
    for seat in seats:
        hand = hands[seat]
        follow = hand & led_mask
        if (follow or hand) & above:
            return True
    return False


def throw(legal: int, led_mask: int) -> Card:
    """The card that costs least: the lowest of the suit led, else the lowest
    side card from the shortest suit, a spade only when nothing else is left."""
    follow = legal & led_mask
    if follow:
        return lowest(follow)
    side = legal & NON_SPADE_MASK
    if not side:
        return lowest(legal)
    best = -1
    best_key = (99, 99)
    for suit_mask in SIDE_MASKS:
        cards = side & suit_mask
        if cards:
            card = lowest(cards)
            key = (RANK_OF[card], cards.bit_count())
            if key < best_key:
                best, best_key = card, key
    return best


def lead(hands: list[int], others: int, seat: int, legal: int) -> Card:
    """A lead for a seat playing to win tricks (``others``: the other seats' cards)."""
    left, right = hands[(seat + 1) & 3], hands[(seat + 3) & 3]
    for suit_mask in SIDE_MASKS:
        cards = legal & suit_mask
        if not cards:
            continue
        top = highest(cards)
        if others & suit_mask & beating_cards(top):
            continue
        ruffed = any(hand & SPADE_MASK and not hand & suit_mask for hand in (left, right))
        if not ruffed:
            return top
    spades = legal & SPADE_MASK
    if spades and not others & SPADE_MASK & beating_cards(highest(spades)):
        return highest(spades)
    longest = 0
    for suit_mask in SIDE_MASKS:
        cards = legal & suit_mask
        if cards.bit_count() > longest.bit_count():
            longest = cards
    return lowest(longest or legal)


def duck(legal: int, best: Card, position: int) -> Card:
    """The card that most safely loses: the highest that stays under ``best``."""
    if position == 0:
        return lowest_rank(legal)
    under = legal & ~beating_cards(best)
    if under:
        return highest_rank(under)
    return highest(legal) if position == 3 else lowest(legal)


def cover(
    hands: list[int],
    seat: int,
    legal: int,
    leader: int,
    trick: list[Card],
    best: Card,
    winner: int,
) -> Card:
    """A card that shields the partner's live Nil, or -1 when this trick does not threaten it."""
    position = len(trick)
    if position == 0:
        return highest_rank(legal)
    partner = seat ^ 2
    partner_position = (partner - leader) & 3
    takers = legal & beating_cards(best)
    if partner_position < position:  # the Nil bidder has played
        if winner == partner and takers:
            return lowest(takers)
        return -1
    led_mask = SUIT_MASKS[SUIT_OF[trick[0]]]
    follow = legal & led_mask
    if follow:
        return highest(follow)
    if takers and hands[partner] & led_mask:
        return lowest(takers)  # ruff high enough that the Nil can follow under
    return -1


def attack(
    hands: list[int],
    target: int,
    legal: int,
    leader: int,
    trick: list[Card],
    best: Card,
    winner: int,
) -> Card:
    """A card that presses an opponent's live Nil, or -1 when this trick cannot hurt it."""
    position = len(trick)
    nil_hand = hands[target]
    if position == 0:
        # Low in a suit the Nil bidder must follow, where its cards are the higher.
        pick, pick_margin = -1, -99
        for suit_mask in SUIT_MASKS:
            cards = legal & suit_mask
            theirs = nil_hand & suit_mask
            if cards and theirs:
                margin = RANK_OF[highest(theirs)] - RANK_OF[lowest(cards)]
                if margin > pick_margin:
                    pick, pick_margin = lowest(cards), margin
        return pick
    target_position = (target - leader) & 3
    if target_position < position:  # the Nil bidder has played
        if winner != target:
            return -1
        under = legal & ~beating_cards(best)
        return highest_rank(under) if under else -1
    if (target ^ 2) == winner and not beatable(
        hands, [target], best, SUIT_MASKS[SUIT_OF[trick[0]]]
    ):
        return -1  # its partner has the trick for sure
    led_mask = SUIT_MASKS[SUIT_OF[trick[0]]]
    follow = legal & led_mask
    if follow:
        return lowest(follow)
    side = legal & NON_SPADE_MASK
    return highest_rank(side) if side else -1
