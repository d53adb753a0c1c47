"""South's claims, for the terminal and the web alike: what may be claimed
now, the judgement, and the words for both.

A claim is judged double dummy (``spades.solver.claims``): it holds when
South and North, seeing every card, take at least the tricks claimed against
every defence. While the hand goes on, a refused claim says only that the
defence can beat it: the line that does would show the other hands. That line
is kept in the record and shown in the hand's summary once the hand is over.
A refused claim also waits for the next trick before South may claim again,
so claims cannot be used to question the hidden hands card by card.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from spades.core import (
    NIL,
    SOUTH,
    Claim,
    Event,
    Game,
    IllegalClaimError,
    NotYourTurnError,
    Phase,
    Rule,
    claim_terms,
    is_nil,
)
from spades.core.cards import RANK_LETTERS, SUIT_SYMBOLS, Card
from spades.core.hand import HandState, Trick
from spades.core.seats import SEAT_NAMES, SEATS, Seat, next_seat, partner_of
from spades.solver import SearchLimitError
from spades.solver.claims import check_claim

HUMAN: Final = SOUTH
PARTNER: Final = partner_of(SOUTH)


def _who(seat: Seat) -> str:
    return "you" if seat == HUMAN else SEAT_NAMES[seat]


def _tricks(n: int) -> str:
    return f"{n} trick{'' if n == 1 else 's'}"


def _side(counted: int) -> str:
    """The seats whose tricks a claim counts, in words."""
    seats = [seat for seat in SEATS if counted >> seat & 1]
    return "you and North" if len(seats) == 2 else _who(seats[0])


def refused_this_trick(game: Game) -> bool:
    """Whether South's claim was refused during the trick in progress."""
    hand = game.hand
    trick = len(hand.tricks)
    return any(
        claim.hand == game.hand_number and not claim.held and claim.cards // 4 == trick
        for claim in game.claims
    )


# ------------------------------------------------------------- what may be claimed


def claim_choices(hand: HandState, left: int) -> list[int]:
    """The numbers of tricks South may claim of the ``left`` tricks left.

    ``claim_terms`` treats every claim of fewer than all the tricks left alike
    (who takes them, who is credited the rest), so asking it about one trick
    and about all of them answers for every number: two calls instead of one
    a trick, on every view sent while South is to play. A test checks this
    against asking about each number.
    """
    choices = list(range(1, left)) if left > 1 and _claimable(hand, 1) else []
    if _claimable(hand, left):
        choices.append(left)
    return choices


def _claimable(hand: HandState, tricks: int) -> bool:
    try:
        claim_terms(hand, HUMAN, tricks)
    except IllegalClaimError:
        return False
    return True


def terms_note(game: Game, left: int) -> str:
    """The claim's terms for this hand, in a line: who is credited, what is conceded."""
    bids = game.hand.bids
    if is_nil(bids[HUMAN]) and is_nil(bids[PARTNER]):
        return "You and North both bid Nil: neither of you can claim tricks."
    if NIL in (bids[HUMAN], bids[PARTNER]):
        whose, taker = ("your", "North") if is_nil(bids[HUMAN]) else ("North's", "you")
        return f"With {whose} Nil in play you may claim only {_claimed(left, left)}, for {taker}."
    first = next_seat(HUMAN)
    defenders = [seat for seat in (first, partner_of(first)) if not is_nil(bids[seat])]
    if not defenders:
        return "West and East both bid Nil: you may claim only every trick left."
    if len(defenders) == 1:
        nil_bidder = partner_of(defenders[0])
        return (
            f"Tricks you do not claim go to {SEAT_NAMES[defenders[0]]}, "
            f"so {SEAT_NAMES[nil_bidder]}'s Nil takes none of them."
        )
    return "Tricks you do not claim go to West and East."


# ------------------------------------------------------------------- the verdict


@dataclass(frozen=True, slots=True)
class Judgement:
    """What became of a claim."""

    held: bool
    tricks: int
    """The tricks claimed."""
    left: int
    """The tricks that were left to play."""
    message: str
    """The verdict in a sentence, for South."""
    events: list[Event]
    """What the claim caused: the hand scored and what follows; none if refused."""
    awarded: tuple[int, int, int, int] | None = None
    """A held claim: the tricks each seat (by seat) was credited with."""


def judge_claim(game: Game, tricks: int) -> Judgement:
    """South claims ``tricks`` of the tricks left: end the hand if the claim
    holds; otherwise keep it as refused, the game unchanged. Raises an
    ``IllegalActionError`` saying why when South may not claim this now."""
    if game.is_over:
        game.verify_claim(HUMAN, tricks)  # raises: the game is over
    if game.phase is not Phase.PLAYING or game.to_act != HUMAN:
        raise NotYourTurnError("You may claim when it is your turn to play a card")
    if refused_this_trick(game):
        raise IllegalClaimError(
            "Your claim was refused this trick: play a card before you claim again",
            rule=Rule.CLAIM_AGAIN,
        )
    hand = game.hand
    terms = claim_terms(hand, HUMAN, tricks)
    try:
        check = check_claim(hand, HUMAN, tricks)
    except SearchLimitError:
        raise IllegalClaimError(
            "Too much of the hand is left to check a claim in time: "
            "play a trick or two, then claim",
            rule=Rule.CLAIM_TOO_EARLY,
        ) from None
    side = _side(terms.counted)
    claimed = _claimed(tricks, terms.left)
    if not check.holds:
        game.refuse_claim(HUMAN, tricks, check.defence)
        message = (
            f"Claim refused: West and East have a defence that stops {side} taking "
            f"{claimed}. Play on: the summary of the hand will show it."
        )
        return Judgement(False, tricks, terms.left, message, [])
    message = f"Claim accepted: {side} take{'s' if side == 'North' else ''} {claimed}"
    for seat in (next_seat(HUMAN), partner_of(next_seat(HUMAN))):
        if conceded := terms.awarded[seat]:
            message += f"; {SEAT_NAMES[seat]} takes the other {_tricks(conceded) if conceded > 1 else 'one'}"
    awarded = tuple(terms.awarded)
    assert len(awarded) == 4
    events = game.claim(HUMAN, tricks)
    return Judgement(True, tricks, terms.left, message + ".", events, awarded)


def _claimed(tricks: int, left: int) -> str:
    """``the last trick``, ``both tricks left``, ``all 4 tricks left`` or ``3 of the 4 tricks left``."""
    if tricks == left:
        return {1: "the last trick", 2: "both tricks left"}.get(left, f"all {left} tricks left")
    return f"{tricks} of the {_tricks(left)} left"


# ------------------------------------------------------------ after the hand


def claim_notes(claims: list[Claim], state: HandState) -> list[str]:
    """Each claim of the finished hand ``state`` in words; a refused one with the
    defence that beat it, now that the hand is over. A hand ended by a claim
    leaves cards unplayed: a defence naming one of those keeps it to the record,
    since South never saw where it lay."""
    notes = []
    for claim in claims:
        trick = claim.cards // 4 + 1
        said = f"{_who(claim.seat).capitalize()} claimed {_claimed(claim.tricks, 14 - trick)}"
        if claim.held:
            notes.append(f"{said} at trick {trick}: the claim held.")
            continue
        cards = [card for played in claim.defence for card in played.cards]
        if not cards:  # the check found the verdict but not, in its budget, the line
            notes.append(f"{said} at trick {trick}: refused.")
            continue
        if defence_names_unseen(claim, state):
            notes.append(
                f"{said} at trick {trick}: refused. The defence that beat it names cards never "
                "played in this hand, so it stays in the game's record."
            )
            continue
        line = "; ".join(_trick_words(n, played) for n, played in enumerate(claim.defence, trick))
        notes.append(f"{said} at trick {trick}: refused. The defence that beat it: {line}.")
    return notes


def defence_names_unseen(claim: Claim, state: HandState) -> bool:
    """Whether the line that beat ``claim`` names a card South never saw in the
    finished hand ``state``: one left unplayed when a later claim ended it."""
    seen = state.deal[HUMAN] | state.played
    return any(not seen >> card & 1 for played in claim.defence for card in played.cards)


def card_symbol(card: Card) -> str:
    """A card as the table shows it: ``K♥``, ``10♦``."""
    rank = RANK_LETTERS[card % 13]
    return f"{'10' if rank == 'T' else rank}{SUIT_SYMBOLS[card // 13]}"


def _trick_words(number: int, trick: Trick) -> str:
    """``trick 9: you K♥, West 2♠, North 3♥, East 4♥ (West wins)``."""
    plays = ", ".join(
        f"{_who((trick.leader + i) & 3)} {card_symbol(card)}" for i, card in enumerate(trick.cards)
    )
    wins = "you win" if trick.winner == HUMAN else f"{SEAT_NAMES[trick.winner]} wins"
    return f"trick {number}: {plays} ({wins})"


__all__ = [
    "Judgement",
    "card_symbol",
    "claim_choices",
    "claim_notes",
    "defence_names_unseen",
    "judge_claim",
    "refused_this_trick",
    "terms_note",
]
