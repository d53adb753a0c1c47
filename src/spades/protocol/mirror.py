"""What one seat knows of a served game, rebuilt from the host's messages.

``SeatMirror`` rebuilds from the host's notifications the very ``PlayerView`` the
engine would hand the seat (the tests hold it to that at every decision), so a
bot plays the same through a pipe as in process.

The server reads notifications tolerantly and skips one it cannot use, so the
mirror can fall out of step with the host. Later messages mend what they repeat:
a ``trick_won`` repeats its trick, a ``bid`` request the bids so far, a ``play``
request the trick in progress and the cards held, and a trick of four cards the
host never reported won is closed by the rules. ``problem()`` says whether the
whole still hangs together: a bot is only asked on a view that does.
"""

from __future__ import annotations

from typing import Final

from spades.core import (
    CARDCOUCH,
    Card,
    Phase,
    PlayerView,
    Rules,
    Seat,
    Trick,
    card_name,
    mask_of,
    next_seat,
    pass_order,
    trick_winner,
)
from spades.core.cards import SPADE_MASK
from spades.core.seats import SEAT_LETTERS

TRICKS_PER_HAND: Final = 13


class SeatMirror:
    """What one seat knows of the game, kept up to date from the host's messages.

    The methods that record a message raise ``ValueError``, and change nothing,
    when the message contradicts what the seat knows for sure (a card played
    twice, a card of its own hand played by another seat).
    """

    def __init__(self, seat: Seat = 0, rules: Rules = CARDCOUCH) -> None:
        self.seat = seat
        self.rules = rules
        self.totals = (0, 0)
        self.bags = (0, 0)
        self.start_hand(0, dealer=0, cards=0)

    def start_hand(self, number: int, dealer: Seat, cards: int, *, withheld: bool = False) -> None:
        self.hand_number = number
        self.dealer = dealer
        self.hand = cards  # the cards the seat still holds, as a mask
        self.withheld = withheld
        """Whether the host keeps the deal back until the seat answers a blind-Nil offer."""
        self.passes: list[tuple[Seat, int]] = []
        """The Nil passes made this hand: giver and how many cards."""
        self.bids: list[tuple[Seat, int]] = []
        self.leader = next_seat(dealer)
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self.tricks_won = [0, 0, 0, 0]
        self.passed = 0
        """The cards this seat passed to its partner (a Nil pass under the rules)."""
        self.received = 0
        """The cards its partner passed it, once they are in the hand."""
        self.awaiting = 0
        """How many passed cards are still to arrive: the host's next ``play``
        request holds them in the hand (a pass reaches the seat once both partners
        have passed, and the ``cards_passed`` message names only the cards one gave)."""

    # ------------------------------------------------------------ notifications

    def cards_passed(self, seat: Seat, to: Seat, count: int, cards: int) -> None:
        """``seat`` passed ``count`` cards to ``to``; ``cards`` when this seat gave them."""
        if self.passing != (seat, to, count):
            raise ValueError("it is not the pass the bids call for now")
        if seat == self.seat:
            if cards & ~self.hand or cards.bit_count() != count:
                raise ValueError("the cards passed are not this seat's to pass")
            self.hand &= ~cards
            self.passed = cards
        elif to == self.seat:
            self.awaiting += count
        self.passes.append((seat, count))

    def cards_arrived(self, cards: int) -> None:
        """The host's ``cards``: the deal it withheld for a blind-Nil offer, or the
        hand with the cards the partner passed once every pass is made."""
        if self.withheld:
            if cards.bit_count() != TRICKS_PER_HAND or cards & self.played:
                raise ValueError("the cards are not a deal of 13 cards yet to be played")
            self.hand, self.withheld = cards, False
            return
        arrived = cards & ~self.hand
        if not self.awaiting or self.hand & ~cards or arrived.bit_count() != self.awaiting:
            raise ValueError("the cards are not this seat's hand with the cards it was passed")
        if arrived & self.played:
            raise ValueError("a card passed to this seat was played already")
        self.hand, self.received, self.awaiting = cards, arrived, 0

    def take_passed_cards(self, hand: int) -> None:
        """The cards awaited from the partner's pass, found in ``hand`` (the cards
        held, from a ``play`` request), join this seat's hand."""
        arrived = hand & ~self.hand & ~self.played
        if self.awaiting and arrived.bit_count() == self.awaiting:
            self.hand |= arrived
            self.received = arrived
            self.awaiting = 0

    def bid_made(self, seat: Seat, bid: int) -> None:
        if len(self.bids) >= 4:
            raise ValueError("the bidding is over: every seat has bid")
        if any(bidder == seat for bidder, _ in self.bids):
            raise ValueError(f"{SEAT_LETTERS[seat]} has bid already")
        self.bids.append((seat, bid))

    @property
    def spades_broken(self) -> bool:
        """Whether spades may be led: one was played this hand (without the
        breaking rule spades lead from the start, as if broken)."""
        return bool(self.played & SPADE_MASK) or not self.rules.spades_break

    def card_played(self, seat: Seat, card: Card) -> Trick | None:
        """Record a card. A trick of four cards still open (its ``trick_won`` was
        lost) is closed by the rules first, and returned."""
        bit = 1 << card
        if self.played & bit:
            raise ValueError(f"the {card_name(card)} was played already")
        if seat == self.seat and not self.hand & bit:
            raise ValueError(f"this seat does not hold the {card_name(card)}")
        if seat != self.seat and self.hand & bit:
            raise ValueError(f"the {card_name(card)} is in this seat's hand")
        if len(self.tricks) >= TRICKS_PER_HAND:
            raise ValueError("all 13 tricks have been played")
        closed = self.close_full_trick()
        self.hand &= ~bit
        self.trick.append(card)
        return closed

    def trick_won(self, winner: Seat) -> Trick:
        """Close the trick in progress, won by ``winner``."""
        trick = Trick(self.leader, tuple(self.trick), winner)
        self.tricks.append(trick)
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = winner
        return trick

    def trick_reported(self, winner: Seat, leader: Seat, cards: list[Card]) -> Trick:
        """Close the trick the host reports won: its ``leader`` and ``cards``
        stand for the trick in progress, whatever the mirror had of it."""
        if len(cards) != 4 or mask_of(cards).bit_count() != 4:
            raise ValueError("a trick is four different cards")
        if trick_winner(leader, cards) != winner:
            raise ValueError(f"by the rules {SEAT_LETTERS[trick_winner(leader, cards)]} wins it")
        if len(self.tricks) >= TRICKS_PER_HAND:
            raise ValueError("all 13 tricks have been played")
        if mask_of(cards) & self.played & ~mask_of(self.trick):
            raise ValueError("a card of it was played in an earlier trick")
        own = cards[(self.seat - leader) & 3]
        if mask_of(cards) & self.hand & ~(1 << own):
            raise ValueError("another seat played a card of this seat's hand")
        if not (self.hand | mask_of(self.trick)) >> own & 1:
            raise ValueError(f"this seat did not hold the {card_name(own)}")
        self.hand &= ~(1 << own)
        self.leader, self.trick = leader, list(cards)
        return self.trick_won(winner)

    def close_full_trick(self) -> Trick | None:
        """Close a trick of four cards that the host never reported won, by the rules."""
        if len(self.trick) < 4:
            return None
        return self.trick_won(trick_winner(self.leader, self.trick))

    # ----------------------------------------------------------------- requests

    def resume_bidding(self, bids: list[tuple[Seat, int]]) -> bool:
        """Take the bids so far from a ``bid`` request (which also says that no
        card is down yet and who dealt); whether that changed anything."""
        dealer = (self.seat - 1 - len(bids)) & 3
        if self.bids == bids and self.dealer == dealer and not self.trick and not self.tricks:
            return False
        self.start_hand(self.hand_number, dealer, self.hand, withheld=self.withheld)
        self.bids = list(bids)
        return True

    def resume_play(self, leader: Seat, trick: list[Card], hand: int) -> bool:
        """Take the trick in progress and the cards held from a ``play`` request;
        whether that changed anything."""
        passing = self.phase is Phase.PASSING  # a play request says the passing is over
        if not passing and (self.leader, self.trick, self.hand) == (leader, trick, hand):
            return False
        if passing:
            self.passes = [(giver, count) for giver, _, count in self.pass_order]
            self.awaiting = 0
        self.leader, self.trick, self.hand = leader, list(trick), hand
        return True

    # ------------------------------------------------------------------ reading

    @property
    def played(self) -> int:
        """The cards played this hand, as a mask: finished tricks and the one in progress."""
        played = mask_of(self.trick)
        for trick in self.tricks:
            played |= mask_of(trick.cards)
        return played

    @property
    def pass_order(self) -> list[tuple[Seat, Seat, int]]:
        """The Nil passes the bids call for (none before the fourth bid)."""
        if len(self.bids) < 4:
            return []
        bids = [0] * 4
        for seat, bid in self.bids:
            bids[seat] = bid
        return pass_order(self.rules, self.dealer, bids)

    @property
    def passing(self) -> tuple[Seat, Seat, int] | None:
        """The pass to make now (giver, receiver, how many), as ``PlayerView.passing``."""
        order = self.pass_order
        return order[len(self.passes)] if len(self.passes) < len(order) else None

    @property
    def phase(self) -> Phase:
        if len(self.bids) < 4:
            return Phase.BIDDING
        if self.passing is not None:
            return Phase.PASSING
        return Phase.PLAYING if len(self.tricks) < TRICKS_PER_HAND else Phase.OVER

    @property
    def turn(self) -> Seat | None:
        phase = self.phase
        if phase is Phase.BIDDING:
            return (self.dealer + 1 + len(self.bids)) & 3
        if phase is Phase.PASSING:
            passing = self.passing
            return None if passing is None else passing[0]
        if phase is Phase.PLAYING:
            return (self.leader + len(self.trick)) & 3
        return None

    def problem(self) -> str | None:
        """Why the mirror cannot be the seat's true view of the hand, or ``None``
        if it hangs together: bids in turn, each trick led by the winner of the
        one before and won by the rules, no card twice, and as many cards held
        as the tricks leave.

        >>> mirror = SeatMirror(seat=0)
        >>> mirror.start_hand(1, dealer=3, cards=(1 << 13) - 1)
        >>> mirror.problem() is None
        True
        >>> mirror.hand >>= 1
        >>> mirror.problem()
        'this seat holds 12 cards, not 13'
        """
        first = next_seat(self.dealer)
        if any(bidder != (first + index) & 3 for index, (bidder, _) in enumerate(self.bids)):
            return "the bids are not in turn"
        if (self.tricks or self.trick) and len(self.bids) < 4:
            return f"cards were played after {len(self.bids)} bids"
        if len(self.tricks) > TRICKS_PER_HAND or len(self.trick) > 3:
            return "more cards were played than a hand has"
        if self.rules.first_lead == "two_of_clubs":  # whoever holds it, which the host says
            first = self.tricks[0].leader if self.tricks else self.leader
        leader, won, seen = first, [0, 0, 0, 0], 0
        for number, trick in enumerate(self.tricks, start=1):
            cards = mask_of(trick.cards)
            if (
                trick.leader != leader
                or len(trick.cards) != 4
                or cards.bit_count() != 4
                or trick.winner != trick_winner(trick.leader, trick.cards)
            ):
                return f"trick {number} does not follow the rules"
            if seen & cards:
                return f"trick {number} repeats a card played before"
            seen |= cards
            leader = trick.winner
            won[leader] += 1
        if self.leader != leader:
            return "the trick in progress was led by the wrong seat"
        current = mask_of(self.trick)
        if current.bit_count() != len(self.trick) or seen & current:
            return "the trick in progress repeats a card played before"
        if (seen | current) & self.hand:
            return "this seat holds a card already played"
        if won != self.tricks_won:
            return "the tricks won do not add up"
        in_trick = (self.seat - self.leader) & 3 < len(self.trick)
        # A Nil pass takes cards away at once and brings the partner's once all are made.
        swapped = self.received.bit_count() - self.passed.bit_count()
        expected = TRICKS_PER_HAND - len(self.tricks) - in_trick + swapped
        if self.hand.bit_count() != expected:
            return f"this seat holds {self.hand.bit_count()} cards, not {expected}"
        return None

    def view(self) -> PlayerView:
        """The seat's view now, as ``Game.view`` would give it."""
        won = self.tricks_won
        return PlayerView(
            seat=self.seat,
            hand=self.hand,
            dealer=self.dealer,
            phase=self.phase,
            turn=self.turn,
            bids=tuple(self.bids),
            leader=self.leader,
            trick=tuple(self.trick),
            tricks=tuple(self.tricks),
            tricks_won=(won[0], won[1], won[2], won[3]),
            totals=self.totals,
            bags=self.bags,
            hand_number=self.hand_number,
            rules=self.rules,
            passed=self.passed,
            received=self.received,
            passing=self.passing,
            sees_cards=not self.withheld,
            spades_broken=self.spades_broken,
        )
