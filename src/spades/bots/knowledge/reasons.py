"""Why a bid or a card is good: the hint's reasons, from one seat's view alone.

Bot knowledge, beside the estimates it uses (``bidding.py``) and the card
memory (``memory.py``): the web game's hint asks a bot for its move and this
module for the sentence that explains it. A reason is worked out by checking
facts of the position (which card is winning, what is still unseen, what the
team's bid needs); every sentence is chosen only when its claim holds, so a
reason may be plain but is never false (``tests/bots/test_hint_claims.py``
reads every wording back and checks it against the real deal).

>>> from spades.core import Game, SOUTH
>>> game = Game(seed=3)
>>> while game.to_act != SOUTH:
...     _ = game.bid(game.to_act, 3)
>>> bid_reason(game.view(SOUTH), 3).startswith("Bid 3")
True
"""

from __future__ import annotations

from spades.core import (
    Card,
    PlayerView,
    bid_name,
    card_long_name,
    cards_above,
    is_nil,
    trick_winner,
)
from spades.core.cards import (
    RANK_ACE,
    RANK_KING,
    RANK_OF,
    SPADE_MASK,
    SPADES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    cards_in,
)
from spades.core.seats import SEAT_NAMES, TEAM_LONG_NAMES, partner_of, team_of

from .features import BiddingContext
from .learned_bidding import choose_learned_bid, expected_tricks, nil_chance

# -------------------------------------------------------------------- bidding


def the(card: Card) -> str:
    """``"the Ace of diamonds"``."""
    return f"the {card_long_name(card)}"


def listing(words: list[str]) -> str:
    """``"a, b and c"``."""
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} and {words[-1]}"


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def bid_reason(view: PlayerView, bid: int, *, searched: bool = False) -> str:
    """Why ``bid`` suits South's hand, in the terms the bidder weighed it in: the
    tricks the bidding model expects of the hand (or its chance of taking none)
    and, when ``bid`` is the bid the model values most at this score, that it
    is; ``searched`` says a search chose ``bid`` over the model's bid by playing
    the bids out (the search levels), which is then the reason given."""
    hand = view.hand
    spades = hand & SPADE_MASK
    context = BiddingContext.of(view)
    preferred = choose_learned_bid(view)
    partner_bid = view.bid_of(partner_of(view.seat))
    if is_nil(bid):
        top = max(cards_in(hand), key=lambda c: (RANK_OF[c], SUIT_OF[c] == SPADES))
        highest = the(spades.bit_length() - 1)
        if not spades:
            spade_part = "no spades"
        elif spades.bit_count() == 1:
            spade_part = f"1 spade, {highest}"
        else:
            spade_part = f"{spades.bit_count()} spades, of which the highest is {highest}"
        if top != spades.bit_length() - 1:  # said already when it is the highest spade
            spade_part += f"; your top card is {the(top)}"
        chance = round(100 * nil_chance(hand, context))
        often = f"about {chance}% of the time" if chance >= 1 else "less than 1% of the time"
        reason = (
            f"Bid Nil: a hand like yours ({spade_part}) takes no trick {often},"
            f" and a made Nil scores {view.rules.nil_bonus}"
        )
        if bid == preferred:
            reason += "; at this score that is worth more than any number"
        elif searched:
            reason += f"; {_SEARCHED} Nil did better than {bid_name(preferred)}"
        return reason
    mean, _spread = expected_tricks(hand, context)
    high = [c for c in cards_in(hand) if RANK_OF[c] >= RANK_KING]
    parts: list[str] = []
    aces = sum(RANK_OF[c] == RANK_ACE for c in high)
    kings = len(high) - aces
    if aces:
        parts.append(plural(aces, "ace"))
    if kings:
        parts.append(plural(kings, "king"))
    if spades:
        parts.append(plural(spades.bit_count(), "spade"))
    voids = [SUIT_NAMES[s] for s in range(3) if not hand & SUIT_MASKS[s]]
    if voids and spades:
        parts.append(f"a void in {listing(voids)}")
    held = f"your hand ({listing(parts)})" if parts else "your hand"
    reason = f"Bid {bid_name(bid)}: {held} should take about {mean:.1f} tricks"
    if bid == preferred:
        reason += f"; at this score {bid_name(bid)} is the bid worth the most"
    elif searched:
        reason += f"; {_SEARCHED} {bid_name(bid)} did better than {bid_name(preferred)}"
    if is_nil(partner_bid):
        reason += f"; {SEAT_NAMES[partner_of(view.seat)]} bid Nil, so expect to take extra tricks covering it"
    elif partner_bid is not None:
        team_bid = partner_bid + bid
        reason += (
            f"; with {SEAT_NAMES[partner_of(view.seat)]}'s {partner_bid} your team bids {team_bid}"
        )
    return reason


_SEARCHED = "played out over deals the unseen cards could be,"


# ----------------------------------------------------------------------- play
#
# Each sentence below states facts of the position ("the highest heart left",
# "West is winning with the King"), and is chosen only when they hold:
# tests/bots/test_hint_claims.py reads every wording back and checks each
# claim against the real deal over thousands of positions.


def _winning(view: PlayerView) -> tuple[Card, int] | None:
    """The card winning the trick so far and its seat; ``None`` when leading."""
    if not view.trick:
        return None
    seat = trick_winner(view.leader, view.trick)
    return view.trick[(seat - view.leader) & 3], seat


def _takes_the_lead(view: PlayerView, card: Card) -> bool:
    """Would ``card`` be winning the trick once played (always, when leading)?"""
    return not view.trick or trick_winner(view.leader, (*view.trick, card)) == view.seat


def _need(view: PlayerView, team: int) -> tuple[int, int] | None:
    """The team's numeric bid and the tricks its numeric bidders still need, once
    both partners have bid; ``None`` without a numeric bid."""
    bid = taken = 0
    numeric = False
    for seat in (team, team + 2):
        seat_bid = view.bid_of(seat)
        if seat_bid is None:
            return None
        if is_nil(seat_bid):
            continue
        numeric = True
        bid += seat_bid
        taken += view.tricks_won[seat]
    return (bid, bid - taken) if numeric else None


def _higher_held_by_others(view: PlayerView, card: Card) -> int:
    """How many cards of ``card``'s suit that outrank it the other seats hold."""
    return (cards_above(card) & view.unseen).bit_count()


def _higher_left(view: PlayerView, card: Card) -> int:
    """How many cards of ``card``'s suit that outrank it are still to be played,
    South's own included."""
    return (cards_above(card) & ~view.played).bit_count()


def _sure_winner(view: PlayerView, card: Card) -> str:
    """Why ``card`` (no one else holding a higher one of its suit) wins unless trumped."""
    suit = SUIT_OF[card]
    word = SUIT_NAMES[suit][:-1]
    end = ", so it cannot lose" if suit == SPADES else "; only a trump can beat it"
    if _higher_left(view, card) == 0:
        return f"{the(card)} is the highest {word} left{end}"
    # South holds higher ones itself: the card is no less a winner, but not "the highest".
    return f"no one else holds a higher {word} than {the(card)}{end}"


def card_reason(view: PlayerView, card: Card) -> str:
    """Why ``card`` is a good play for South now: the first true reason, most specific first."""
    legal = view.legal_mask()
    me = view.seat
    partner = partner_of(me)
    winning = _winning(view)
    led = SUIT_OF[view.trick[0]] if view.trick else None
    suit = SUIT_OF[card]
    wins_now = _takes_the_lead(view, card)
    last_to_play = len(view.trick) == 3
    team = team_of(me)
    ours = _need(view, team)
    theirs = _need(view, 1 - team)
    tricks_left = 13 - len(view.tricks)

    if legal.bit_count() == 1:
        if led is not None and suit == led:
            return f"Play {the(card)}: it is your only {SUIT_NAMES[led][:-1]}, so you must follow with it"
        return f"Play {the(card)}: it is the only card you may play"

    # South's own Nil, still unbroken.
    if view.is_nil(me) and view.tricks_won[me] == 0:
        if winning is not None and not wins_now:
            return f"Duck to keep your Nil: {the(card)} stays under {the(winning[0])}"
        if winning is None:
            above = _higher_held_by_others(view, card)
            if above:
                return (
                    f"Protect your Nil: lead {the(card)}, with {plural(above, 'higher card')} "
                    f"of its suit still out"
                )
        if winning is not None and all(_takes_the_lead(view, c) for c in cards_in(legal)):
            return (
                f"Your Nil is in danger: every card you may play wins for now, so {the(card)} it is"
            )

    # Partner's Nil, still unbroken: win the tricks partner might be forced to take.
    if view.is_nil(partner) and view.tricks_won[partner] == 0:
        partner_name = SEAT_NAMES[partner]
        if winning is not None and winning[1] == partner and wins_now:
            if last_to_play:
                return f"Cover your partner's Nil: take the trick over {partner_name}'s {card_long_name(winning[0])}"
            return f"Cover your partner's Nil: get above {partner_name}'s {card_long_name(winning[0])} with {the(card)}"
        if winning is None and _higher_held_by_others(view, card) == 0 and suit != SPADES:
            word = SUIT_NAMES[suit][:-1]
            if _higher_left(view, card) == 0:
                return f"Cover your partner's Nil: lead {the(card)}, the highest {word} left, so {partner_name} can play under it"
            return f"Cover your partner's Nil: lead {the(card)}: no one else holds a higher {word}, so {partner_name} can play under it"
        if winning is not None and wins_now and partner in _still_to_play(view):
            return f"Cover your partner's Nil: take the lead with {the(card)} so {partner_name}, still to play, can play under it"

    # An opponent's Nil, still unbroken.
    for seat in ((me + 1) & 3, (me + 3) & 3):
        if view.is_nil(seat) and view.tricks_won[seat] == 0:
            name = SEAT_NAMES[seat]
            if winning is not None and winning[1] == seat and not wins_now:
                return f"Set {name}'s Nil: {name} is winning this trick with {the(winning[0])}, so stay under it with {the(card)}"
            if winning is None and RANK_OF[card] == min(RANK_OF[c] for c in cards_in(legal)):
                return f"Set {name}'s Nil: lead {the(card)}, the lowest card you may lead, and make {name} play over it"

    made = ours is not None and ours[1] <= 0
    can_set = theirs is not None and 0 < theirs[1] <= tricks_left

    # A sure winner: no one else holds a higher card of its suit, and no trump can come
    # (a spade, or a card of the suit led or being led).
    if (
        wins_now
        and _higher_held_by_others(view, card) == 0
        and (suit == SPADES or led in (None, suit))
    ):
        sure = _sure_winner(view, card)
        if made and can_set and theirs is not None:
            return (
                f"Press to set {TEAM_LONG_NAMES[1 - team]}: they still need "
                f"{plural(theirs[1], 'trick')} of the {tricks_left} left, and {sure}"
            )
        return f"Cash your master: {sure}"

    need_text = _needs(ours, tricks_left)

    if winning is not None:
        best, best_seat = winning
        if made and not wins_now:
            return f"Stay under: your bid is made and a trick now is a bag, so play {the(card)} under {the(best)}"
        if best_seat == partner and not wins_now:
            return f"{SEAT_NAMES[partner]} is winning with {the(best)}: do not overtake, play {the(card)}"
        if wins_now and last_to_play:
            return f"Take the trick: {the(card)} beats {the(best)} and no one plays after you{need_text}"
        ruffing = led is not None and suit == SPADES != led and not view.hand & SUIT_MASKS[led]
        if ruffing and wins_now and led is not None:
            return f"Trump it: you have no {SUIT_NAMES[led]}, and {the(card)} takes the lead in the trick{need_text}"
        if not any(_takes_the_lead(view, c) for c in cards_in(legal)):
            if led is not None and not view.hand & SUIT_MASKS[led]:
                return f"You have no {SUIT_NAMES[led]} and cannot win this trick: throw away {the(card)}"
            return f"You cannot beat {the(best)}, so play {the(card)}"
        higher = (view.hand & cards_above(card)).bit_count()
        if not wins_now and len(view.trick) == 1 and led == suit and higher:
            kind = SUIT_NAMES[suit] if higher > 1 else SUIT_NAMES[suit][:-1]
            return (
                f"Second hand low: keep your {higher} higher {kind} for later and play {the(card)}"
            )
        if wins_now:
            return f"Take the lead in this trick: {the(card)} beats {the(best)}{need_text}"
        return f"Let this trick go: {the(card)} stays under {the(best)}"

    # Leading.
    if made:
        above = _higher_held_by_others(view, card)
        if above:
            return f"Stay under: your bid is made and a trick now is a bag, so lead {the(card)}, with {plural(above, 'higher card')} still out"
    length = (view.hand & SUIT_MASKS[suit]).bit_count()
    if suit != SPADES and view.hand & SPADE_MASK and length <= 2:
        return f"Lead your short {SUIT_NAMES[suit]} ({length} left) to be able to trump them later{need_text}"
    if suit == SPADES and (view.hand & SPADE_MASK).bit_count() >= 4 and view.unseen & SPADE_MASK:
        return f"Draw trumps: you hold {plural((view.hand & SPADE_MASK).bit_count(), 'spade')}, so pulling the others' spades protects your winners"
    if suit != SPADES and length == max((view.hand & SUIT_MASKS[s]).bit_count() for s in range(4)):
        kind = SUIT_NAMES[suit] if length > 1 else SUIT_NAMES[suit][:-1]
        return f"Lead from your longest suit: {length} {kind} in hand{need_text}"
    if need_text:
        return f"Lead {the(card)}{need_text}"
    if any(_stronger(other, card) for other in cards_in(view.hand)):
        return f"Lead {the(card)}: it keeps your stronger cards for later"
    return f"Lead {the(card)}"


def _needs(ours: tuple[int, int] | None, tricks_left: int) -> str:
    """ "; your team needs 2 more tricks for its bid of 5", when that is so and still possible."""
    if ours is None or not 0 < ours[1] <= tricks_left:
        return ""
    return f"; your team needs {plural(ours[1], 'more trick')} for its bid of {ours[0]}"


def _stronger(card: Card, than: Card) -> bool:
    """A higher rank, or a spade against a card of another suit."""
    return RANK_OF[card] > RANK_OF[than] or SUIT_OF[card] == SPADES != SUIT_OF[than]


def _still_to_play(view: PlayerView) -> list[int]:
    return [(view.seat + offset) & 3 for offset in range(1, 4 - len(view.trick))]


# -------------------------------------------------------------------- passing


def pass_reason(view: PlayerView, cards: tuple[Card, ...]) -> str:
    """Why these cards suit a Nil pass: the Nil bidder sheds what could win a
    trick, the partner gives what helps to duck."""
    named = listing([the(card) for card in cards])
    partner = SEAT_NAMES[partner_of(view.seat)]
    if view.is_nil(view.seat):
        return (
            f"Pass {named}: as the Nil bidder, give {partner} the cards most likely to win a trick"
        )
    return f"Pass {named}: low cards help {partner} duck every trick of the Nil"
