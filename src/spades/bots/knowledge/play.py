"""Card play: what a good human does with what their seat can see.

``choose_card`` first settles the goal of the trick (win it, lose it, or help
a Nil), then picks the card that serves that goal most cheaply: second hand
low, third hand high but no higher than needed, never overtaking a partner who
is already winning, cashing masters, ruffing short suits, drawing trumps with
long strong spades, shedding losers, and ducking once the bid is safe.
"""

from __future__ import annotations

from enum import Enum

from spades.core import beats, cards_above, cards_below, mask_of
from spades.core.cards import (
    NON_SPADE_MASK,
    RANK_OF,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_OF,
    Card,
    cards_in,
    highest,
    lowest,
)

from .memory import Memory, group_bottom


class Goal(Enum):
    WIN = "win"
    """Take this trick (the bid needs it, or the opponents can be set)."""
    LOSE = "lose"
    """Let it go (the bid is safe: a trick now is a bag)."""


def choose_card(memory: Memory) -> Card:
    """The card to play now; it is always one of the legal cards.

    >>> from spades.core import Game
    >>> game = Game(seed=1)
    >>> for _ in range(4):
    ...     _ = game.bid(game.to_act, 3)
    >>> view = game.view(game.to_act)
    >>> choose_card(Memory(view)) in view.legal_cards()
    True
    """
    view = memory.view
    legal = view.legal_mask()
    if legal & (legal - 1) == 0:  # only one card: no decision
        return lowest(legal)
    if memory.live_nil(view.seat):
        return nil_bidder_card(memory, legal)
    if memory.live_nil(memory.partner):
        return cover_partner_nil_card(memory, legal)
    if memory.opponent_nils and memory.our_need < memory.tricks_left:
        return attack_nil_card(memory, legal)
    goal = trick_goal(memory)
    if not view.trick:
        return lead_card(memory, legal, goal)
    return follow_card(memory, legal, goal)


# ------------------------------------------------------------------ the goal


def trick_goal(memory: Memory) -> Goal:
    """Win while the team's bid still needs tricks or the opponents can be set."""
    if memory.our_need > 0 or not memory.team_has_numeric_bid(memory.view.team):
        return Goal.WIN if memory.our_need > 0 else Goal.LOSE
    their_need = memory.their_need
    left = memory.tricks_left
    if memory.team_has_numeric_bid(1 - memory.view.team) and 0 < their_need <= left:
        # We set them by taking more than (left - their_need) of what is left.
        to_set = left - their_need + 1
        if to_set <= max(1, left // 2) and worth_the_bags(memory, to_set):
            return Goal.WIN
    return Goal.LOSE


def worth_the_bags(memory: Memory, to_set: int) -> bool:
    """Setting them swings twice their bid; pressing for it costs bags. Near the
    bag limit the penalty can outweigh the set."""
    view = memory.view
    limit = view.rules.bag_limit
    if limit is None:  # bags cost nothing: setting them is always worth it
        return True
    room = limit - view.bags[view.team]
    if to_set < room:
        return True
    their_bid = sum(bid for seat in (1 - view.team, 3 - view.team) if (bid := view.bid_of(seat)))
    return 20 * their_bid > view.rules.bag_penalty + 10 * to_set


# ----------------------------------------------------------------- following


def follow_card(memory: Memory, legal: int, goal: Goal) -> Card:
    view = memory.view
    winning = memory.winning
    assert winning is not None
    best, best_seat = winning
    led = SUIT_OF[view.trick[0]]
    following = bool(legal & SUIT_MASKS[led])
    partner_winning = best_seat == memory.partner
    last_to_play = not memory.still_to_play

    if goal is Goal.LOSE:
        return duck(memory, legal, best, following)

    if partner_winning and (last_to_play or not memory.can_be_beaten_later(best)):
        return cheapest_discard(memory, legal, following)  # partner has it: do not overtake

    winners = [c for c in cards_in(legal) if beats(c, best)]
    if not winners:
        return cheapest_discard(memory, legal, following)
    if last_to_play:
        return winners[0]  # the lowest card that takes it
    safe = [c for c in winners if not memory.can_be_beaten_later(c)]
    if safe:
        # Third hand high, but no higher than needed: the cheapest sure winner.
        return group_bottom(safe[0], view.hand, memory.unseen)
    if len(view.trick) == 1 and following:
        return lowest(legal)  # second hand low: keep the honours for later
    if partner_winning:
        return cheapest_discard(memory, legal, following)
    return winners[0]


def duck(memory: Memory, legal: int, best: Card, following: bool) -> Card:
    """Lose the trick as high as possible (shedding danger), or win it as
    cheaply as the cards allow when it cannot be lost."""
    losers = [c for c in cards_in(legal) if not beats(c, best)]
    if losers:
        if following:
            return losers[-1]  # the highest card that still loses
        # Void: throw the card most likely to be forced to win a bag later.
        return max(losers, key=lambda c: (danger_rank(memory, c), RANK_OF[c]))
    # Every card wins for now: play the lowest and hope someone overtakes it,
    # unless no one can, in which case get rid of the highest.
    if not memory.still_to_play:
        return highest(legal & SUIT_MASKS[SUIT_OF[highest(legal)]])
    return lowest(legal)


def cheapest_discard(memory: Memory, legal: int, following: bool) -> Card:
    """A card that does not try to win: the lowest of the suit, or a loser shed."""
    if following:
        return lowest(legal)
    side = legal & NON_SPADE_MASK
    return shed_card(memory, side if side else legal)


def shed_card(memory: Memory, candidates: int) -> Card:
    """The card to throw away: a low loser from the shortest side suit (to
    make a void for ruffing later), keeping masters and spades."""
    hand = memory.view.hand
    non_masters = [c for c in cards_in(candidates) if not memory.is_master(c)]
    pool = non_masters or list(cards_in(candidates))
    side = [c for c in pool if SUIT_OF[c] != SPADES]
    pool = side or pool

    def key(card: Card) -> tuple[int, int]:
        length = (hand & SUIT_MASKS[SUIT_OF[card]]).bit_count()
        return (length, RANK_OF[card])

    return min(pool, key=key)


# ------------------------------------------------------------------- leading


def lead_card(memory: Memory, legal: int, goal: Goal) -> Card:
    if goal is Goal.LOSE:
        return safe_low_lead(memory, legal)
    view = memory.view
    hand = view.hand
    spades = hand & SPADE_MASK

    # Draw trumps with long strong spades: opponents' spades would ruff our winners.
    strong_spades = spades.bit_count() >= 4 and memory.is_master(highest(spades))
    if legal & SPADE_MASK and strong_spades and memory.unseen & SPADE_MASK:
        return group_bottom(highest(spades), hand, memory.unseen)

    # Cash side-suit masters the opponents cannot ruff.
    opponents = [(view.seat + 1) & 3, (view.seat + 3) & 3]
    for card in sorted(cards_in(legal & NON_SPADE_MASK), key=lambda c: -RANK_OF[c]):
        suit = SUIT_OF[card]
        if memory.is_master(card) and not any(memory.may_trump(s, suit) for s in opponents):
            return card

    # Lead a short suit to ruff it later (keeping spades to do it).
    if spades:
        short = [
            suit
            for suit in range(3)
            if 0 < (legal & SUIT_MASKS[suit]).bit_count() <= 2
            and not memory.is_master(highest(hand & SUIT_MASKS[suit]))
        ]
        if short:
            suit = min(short, key=lambda s: (hand & SUIT_MASKS[s]).bit_count())
            return lowest(legal & SUIT_MASKS[suit])

    # Else a low card of the longest side suit, or the best spade left.
    side = legal & NON_SPADE_MASK
    if side:
        suit = max(range(3), key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), s))
        return lowest(side & SUIT_MASKS[suit])
    return group_bottom(highest(legal), hand, memory.unseen)


def safe_low_lead(memory: Memory, legal: int) -> Card:
    """A lead likely to be overtaken: the card with the most unseen cards above it."""
    candidates = legal & NON_SPADE_MASK or legal

    def overtakers(card: Card) -> int:
        return (cards_above(card) & memory.unseen).bit_count()

    return max(cards_in(candidates), key=lambda c: (overtakers(c), -RANK_OF[c]))


# ---------------------------------------------------------------------- Nil


def nil_bidder_card(memory: Memory, legal: int) -> Card:
    """As the Nil bidder: duck with the highest card that still loses, shed
    dangerous high cards, and lead low where others hold higher cards."""
    view = memory.view
    if not view.trick:
        return safe_low_lead(memory, legal)
    winning = memory.winning
    assert winning is not None
    best = winning[0]
    led = SUIT_OF[view.trick[0]]
    following = bool(legal & SUIT_MASKS[led])
    losers = [c for c in cards_in(legal) if not beats(c, best)]
    if losers:
        if following:
            return losers[-1]
        # Void: throw the most dangerous card that loses, never a winning spade.
        return max(losers, key=lambda c: (danger_rank(memory, c), RANK_OF[c]))
    if not memory.still_to_play:
        return highest(legal)  # the trick is ours anyway: spend the biggest card
    return lowest(legal)  # someone after may still overtake


def danger_rank(memory: Memory, card: Card) -> int:
    """How many unseen cards lie below ``card`` in its suit: high cards with
    many smaller ones out are the ones that will be forced to win later."""
    below = cards_below(card) & memory.unseen
    return below.bit_count()


def cover_partner_nil_card(memory: Memory, legal: int) -> Card:
    """Partner bid Nil: win the tricks partner might otherwise be forced to take."""
    view = memory.view
    partner = memory.partner
    if not view.trick:
        # Lead winners: partner can play under them.
        masters = [c for c in cards_in(legal) if memory.is_master(c)]
        if masters:
            return max(masters, key=lambda c: (SUIT_OF[c] != SPADES, RANK_OF[c]))
        side = legal & NON_SPADE_MASK or legal
        suit = max(range(4), key=lambda s: ((side & SUIT_MASKS[s]).bit_count(), s))
        return highest(side & SUIT_MASKS[suit])
    winning = memory.winning
    assert winning is not None
    best, best_seat = winning
    partner_played = partner not in memory.still_to_play
    winners = [c for c in cards_in(legal) if beats(c, best)]
    if best_seat == partner or not partner_played:
        # Take the trick above partner, as high as needed to stay above.
        if winners:
            safe = [c for c in winners if not memory.can_be_beaten_later(c)]
            if best_seat == partner or not safe:
                return highest(mask_of(winners)) if not safe else safe[0]
            return safe[0]
        return cheapest_discard(memory, legal, bool(legal & SUIT_MASKS[SUIT_OF[view.trick[0]]]))
    # Partner is safe under an opponent's card: no need to win.
    return cheapest_discard(memory, legal, bool(legal & SUIT_MASKS[SUIT_OF[view.trick[0]]]))


def attack_nil_card(memory: Memory, legal: int) -> Card:
    """An opponent bid Nil: keep our cards under theirs and lead low into them."""
    view = memory.view
    nil_seat = memory.opponent_nils[0]
    if not view.trick:
        return lowest_attacking_lead(memory, legal, nil_seat)
    winning = memory.winning
    assert winning is not None
    best, best_seat = winning
    led = SUIT_OF[view.trick[0]]
    following = bool(legal & SUIT_MASKS[led])
    if best_seat == nil_seat:
        # The Nil bidder is winning: stay under it.
        losers = [c for c in cards_in(legal) if not beats(c, best)]
        if losers:
            return losers[-1] if following else shed_card(memory, mask_of(losers))
        return lowest(legal)
    if nil_seat in memory.still_to_play:
        # Leave them room to be forced over our card: play low.
        return lowest(legal) if following else shed_card(memory, legal & NON_SPADE_MASK or legal)
    # The Nil bidder already ducked this trick: play it as a normal trick.
    return follow_card(memory, legal, trick_goal(memory))


def lowest_attacking_lead(memory: Memory, legal: int, nil_seat: int) -> Card:
    """Lead our lowest card in a suit the Nil bidder still holds."""
    candidates = [
        c
        for c in cards_in(legal)
        if not memory.is_void(nil_seat, SUIT_OF[c])
        and (SUIT_OF[c] != SPADES or legal == legal & SPADE_MASK)
    ]
    pool = candidates or list(cards_in(legal))
    return min(pool, key=lambda c: (RANK_OF[c], SUIT_OF[c] == SPADES))
