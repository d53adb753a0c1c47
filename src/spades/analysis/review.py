"""Every card of a hand held up against double-dummy best play.

For each play the solver gives the mover's side the tricks it could take with
best play before the card (tricks already won plus the double-dummy count of
the rest) and after it. A drop is a mistake: it cost tricks, and perhaps the
side's contract (makeable before, not after) or a Nil (holdable before, not
after). Mistakes are named in words, with the card that was better.

Every question the solver is asked has a search limit, so a review takes a
bounded time: a position the solver gives up on leaves its plays unjudged, and
the question is asked again from the next trick's start. With the solver's C
kernel the limit is high enough that this is rare (40 hands of ``normal``'s
play: every card judged, 0.17 s of CPU a hand on average, the worst 1.2 s);
with the Python search alone it happens in the first tricks of a few hands,
and for Nil bids, which are then often judged from the second trick on.

The results are plain frozen dataclasses, ready for a terminal table or a web
view (``dataclasses.asdict`` gives JSON-ready data). Their sentences name
seats and cards as the ``naming`` given says (``spades.core.naming``): every
seat and card in words by default, "you" for the page's player.

>>> from spades.core.game import Game
>>> game = Game(seed=3)
>>> state = game.hand
>>> for bid in (3, 4, 3, 3): _ = game.bid(game.to_act or 0, bid)
>>> while not state.is_over: _ = game.play(state.turn, state.legal_cards()[0])
>>> review = analyze_hand(state, number=1, from_trick=9)
>>> review.first_trick, len(review.plays)
(9, 20)
>>> sum(review.tricks_lost) == sum(play.tricks_lost for play in review.plays)
True
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

from spades.core import is_nil, is_number_bid

from ..core.cards import SPADES, SUIT_OF, Card
from ..core.hand import HandState, Phase, beats, winning_position
from ..core.naming import IN_WORDS, Naming
from ..core.scoring import NIL
from ..core.seats import Seat
from ..solver import SearchLimitError, Solver
from ..solver.position import cards_played, replay

__all__ = ["HandReview", "PlayReview", "analyze_hand"]

TRICKS: int = 13
NATIVE_SOLVER: bool = Solver().kernel is not None
"""Whether the solver's C kernel is built (an install with SPADES_PURE_PYTHON=1
has only the Python search, about eight times slower a card)."""
LIMIT: int = 3_000_000 if NATIVE_SOLVER else 400_000
"""Cards a trick-count question may try (about 0.3 s either way) before it is
left unanswered: a few deals take seconds to solve from the first trick."""
NIL_LIMIT: int = LIMIT
"""The same for a Nil question: early in a hand, proving a Nil safe can take
seconds."""


@dataclass(frozen=True)
class PlayReview:
    """One card played, judged double-dummy."""

    trick: int
    """The trick it was played to (1..13)."""
    seat: Seat
    card: Card
    before: int | None
    """The mover's side's tricks for the hand with best play before the card
    (``None`` when the solver gave up on that position)."""
    after: int | None
    """... and after it (best play by everyone from then on)."""
    best: tuple[Card, ...] = ()
    """When the card lost something: a card that would have kept it."""
    contract_lost: bool = False
    """The side's bid was makeable before the card and not after."""
    nil_lost: Seat | None = None
    """The Nil of this seat could be held before the card and not after."""
    explanation: str = ""

    @property
    def judged(self) -> bool:
        """Whether the trick count before and after the card is known."""
        return self.before is not None and self.after is not None

    @property
    def tricks_lost(self) -> int:
        if self.before is None or self.after is None:
            return 0
        return self.before - self.after

    @property
    def is_mistake(self) -> bool:
        return self.tricks_lost > 0 or self.contract_lost or self.nil_lost is not None


@dataclass(frozen=True)
class HandReview:
    """The double-dummy review of one hand."""

    number: int
    first_trick: int
    """The first trick reviewed (earlier ones are taken as played)."""
    bids: tuple[int | None, int | None, int | None, int | None]
    start: tuple[int, int] | None
    """Each side's (NS, EW) tricks for the hand with best play from the first
    position the solver answered."""
    plays: tuple[PlayReview, ...]
    tricks_lost: tuple[int, int, int, int]
    """Tricks each seat's mistakes cost its side."""
    nil_from: tuple[tuple[Seat, int], ...] = ()
    """For each Nil bidder, the first trick from which its Nil was judged; a
    Nil never judged (lost before, or every search gave up) is not listed."""
    seconds: float = field(default=0.0, compare=False)

    @property
    def mistakes(self) -> tuple[PlayReview, ...]:
        return tuple(play for play in self.plays if play.is_mistake)

    @property
    def unjudged(self) -> int:
        """Plays whose trick count the solver gave up on (see ``LIMIT``)."""
        return sum(1 for play in self.plays if not play.judged)


class _Series:
    """One double-dummy question asked at every position along the play. When
    the solver gives up, the rest of that trick is left unanswered and the
    question is asked again at the next trick's start."""

    def __init__(self) -> None:
        self.gave_up_at = -1  # the trick (tricks finished) where it gave up

    def skip(self, position: HandState) -> bool:
        return bool(position.trick) and self.gave_up_at == len(position.tricks)

    def give_up(self, position: HandState) -> None:
        self.gave_up_at = len(position.tricks)


def analyze_hand(
    state: HandState,
    *,
    number: int = 1,
    from_trick: int = 1,
    limit: int = LIMIT,
    nil_limit: int = NIL_LIMIT,
    naming: Naming = IN_WORDS,
) -> HandReview:
    """Review every card of ``state``'s hand played from trick ``from_trick`` on.

    ``state`` is a hand whose bidding is over (finished or not); it is not
    changed. Tricks before ``from_trick`` are taken as played. Each trick-count
    question may try ``limit`` cards and each Nil question ``nil_limit`` (0: no
    limit); a position the solver gives up on leaves its plays unjudged. The
    explanations name seats and cards as ``naming`` says.
    """
    started = time.perf_counter()
    if state.phase is Phase.BIDDING:
        raise ValueError("the bidding of this hand is not over: there is no play to review")
    if not 1 <= from_trick <= TRICKS:
        raise ValueError(f"from_trick is 1..13, not {from_trick}")
    cards = cards_played(state)
    first = min(4 * (from_trick - 1), len(cards))
    first -= first % 4
    position = replay(state, first)
    solver = Solver(limit=limit)
    nil_solver = Solver(limit=nil_limit)
    bids = (state.bids[0], state.bids[1], state.bids[2], state.bids[3])
    bidders = {team: _numeric_bidder(bids, team) for team in (0, 1)}
    nil_seats = [seat for seat in range(4) if is_nil(bids[seat])]
    seats_won = [0, 0, 0, 0]
    for trick in position.tricks:
        seats_won[trick.winner] += 1

    ns_series = _Series()
    bidder_series = {team: _Series() for team in (0, 1)}
    nil_series = {seat: _Series() for seat in nil_seats}

    def ns_total(guess: int | None) -> int | None:
        """North-South's tricks for the hand with best play from here."""
        won = seats_won[0] + seats_won[2]
        if position.phase is not Phase.PLAYING:
            return won
        if ns_series.skip(position):
            return None
        try:
            return won + solver.tricks(position, 0b0101, -1 if guess is None else guess - won)
        except SearchLimitError:
            ns_series.give_up(position)
            return None

    def makeable(team: int, ns: int | None) -> bool | None:
        """Whether ``team`` can still make its numeric bid (``None``: unknown
        or no numeric bid)."""
        bidder = bidders[team]
        if bidder is None:
            team_bids = [bids[team], bids[team + 2]]
            if ns is None or NIL in team_bids or None in team_bids:
                return None
            return _team_total(ns, team) >= sum(bid or 0 for bid in team_bids)
        need = (bids[bidder] or 0) - seats_won[bidder]
        if need <= 0:
            return True
        if position.phase is not Phase.PLAYING or need > TRICKS - len(position.tricks):
            return False
        series = bidder_series[team]
        if series.skip(position):
            return None
        try:
            return solver.reaches(position, 1 << bidder, need)
        except SearchLimitError:
            series.give_up(position)
            return None

    def nil_holds(seat: Seat) -> bool | None:
        """Whether ``seat``'s Nil can still be held (``None``: unknown)."""
        if seats_won[seat]:
            return False
        if position.phase is not Phase.PLAYING:
            return True
        series = nil_series[seat]
        if series.skip(position):
            return None
        try:
            return nil_solver.nil_holds(position, seat)
        except SearchLimitError:
            series.give_up(position)
            return None

    def values(guess: int | None) -> tuple[int | None, list[bool | None], dict[Seat, bool | None]]:
        ns = ns_total(guess)
        return ns, [makeable(0, ns), makeable(1, ns)], {seat: nil_holds(seat) for seat in nil_seats}

    ns_now, make_now, nil_now = values(None)
    start = None if ns_now is None else (ns_now, TRICKS - ns_now)
    nil_from = {seat: first // 4 + 1 for seat in nil_seats if nil_now[seat] is not None}

    plays: list[PlayReview] = []
    lost = [0, 0, 0, 0]
    for index in range(first, len(cards)):
        card = cards[index]
        seat = position.turn
        team = seat & 1
        trick_number = len(position.tricks) + 1
        before_position = position.clone()
        position.apply_play(card)
        if not position.trick:
            seats_won[position.tricks[-1].winner] += 1
        ns_next, make_next, nil_next = values(ns_now)
        if start is None and ns_next is not None:
            start = (ns_next, TRICKS - ns_next)
        for nil_seat, known in nil_next.items():
            if known is not None and nil_seat not in nil_from:
                nil_from[nil_seat] = len(position.tricks) + 1

        review = PlayReview(
            trick_number,
            seat,
            card,
            None if ns_now is None else _team_total(ns_now, team),
            None if ns_next is None else _team_total(ns_next, team),
            contract_lost=make_now[team] is True and make_next[team] is False,
            nil_lost=next(
                (n for n in nil_seats if n & 1 == team and nil_now[n] and nil_next[n] is False),
                None,
            ),
        )
        if review.is_mistake:
            review = _explain(
                review, before_position, solver, nil_solver, bids, bidders[team], naming
            )
            lost[seat] += review.tricks_lost
        plays.append(review)
        ns_now, make_now, nil_now = ns_next, make_next, nil_next

    return HandReview(
        number=number,
        first_trick=first // 4 + 1,
        bids=bids,
        start=start,
        plays=tuple(plays),
        tricks_lost=(lost[0], lost[1], lost[2], lost[3]),
        nil_from=tuple(sorted(nil_from.items())),
        seconds=time.perf_counter() - started,
    )


def _team_total(ns_total: int, team: int) -> int:
    return ns_total if team == 0 else TRICKS - ns_total


def _numeric_bidder(bids: tuple[int | None, ...], team: int) -> Seat | None:
    """The partner whose bid alone is judged, when the other partner bid Nil."""
    first, second = team, team + 2
    if is_nil(bids[first]) and is_number_bid(bids[second]):
        return second
    if is_nil(bids[second]) and is_number_bid(bids[first]):
        return first
    return None


def _explain(
    review: PlayReview,
    position: HandState,
    solver: Solver,
    nil_solver: Solver,
    bids: tuple[int | None, ...],
    bidder: Seat | None,
    naming: Naming,
) -> PlayReview:
    """Name a card that was better and say what the one played cost."""
    seat, card, team = review.seat, review.card, review.seat & 1
    parts: list[str] = []
    best: list[Card] = []
    if review.nil_lost is not None:
        nil_seat = review.nil_lost
        keeper = _keeper(position, card, lambda after: _nil_safe(after, nil_seat, nil_solver))
        whose = "the Nil" if nil_seat == seat else f"{naming.possessive(nil_seat)} Nil"
        parts.append(f"cost {whose}" + _with(keeper, ": the {} kept it safe", naming))
        best += _cards(keeper)
    if review.before is not None and review.after is not None and review.tricks_lost:
        total = review.before
        keeper = _keeper(position, card, lambda after: _reaches(after, team, -1, total, solver))
        count = "a trick" if review.tricks_lost == 1 else f"{review.tricks_lost} tricks"
        why = "" if keeper is None else why_better(position, card, keeper, naming) + " "
        parts.append(
            f"cost {count}: {why}({naming.side(team)} could take {review.before}, "
            f"{review.after} after it)"
        )
        best += _cards(keeper)
    if review.contract_lost:
        if bidder is not None:  # the bid is judged on the bidder's own tricks
            need = bids[bidder] or 0
        else:
            need = sum(bids[s] or 0 for s in (team, team + 2))
        keeper = _keeper(position, card, lambda after: _reaches(after, team, bidder, need, solver))
        parts.append("cost the contract" + _with(keeper, f": the {{}} still made {need}", naming))
        best += _cards(keeper)
    return PlayReview(
        review.trick,
        review.seat,
        review.card,
        review.before,
        review.after,
        tuple(dict.fromkeys(best)),
        review.contract_lost,
        review.nil_lost,
        naming.sentence(
            f"{naming.possessive(seat)} {naming.card(card)} " + "; it also ".join(parts)
        ),
    )


def _cards(card: Card | None) -> list[Card]:
    return [] if card is None else [card]


def _with(card: Card | None, template: str, naming: Naming) -> str:
    return "" if card is None else template.format(naming.card(card))


def _keeper(position: HandState, card: Card, keeps: Callable[[HandState], bool]) -> Card | None:
    """The card likest to ``card`` after which ``keeps`` holds; ``None`` when
    the solver gives up on every candidate."""
    for other in closest_first(card, [c for c in position.legal_cards() if c != card]):
        after = position.clone()
        after.apply_play(other)
        try:
            if keeps(after):
                return other
        except SearchLimitError:
            continue
    return None


def _reaches(after: HandState, team: int, seat: Seat | None, total: int, solver: Solver) -> bool:
    """Whether ``team`` (or only ``seat``, when given) can end the hand with ``total`` tricks."""
    seats = 0b0101 << team if seat is None or seat < 0 else 1 << seat
    won = sum(1 for trick in after.tricks if seats >> trick.winner & 1)
    if after.phase is not Phase.PLAYING or won >= total:
        return won >= total
    return solver.reaches(after, seats, total - won)


def _nil_safe(after: HandState, nil_seat: Seat, solver: Solver) -> bool:
    if any(trick.winner == nil_seat for trick in after.tricks):
        return False
    return after.phase is not Phase.PLAYING or solver.nil_holds(after, nil_seat)


def closest_first(card: Card, better: list[Card]) -> list[Card]:
    """``better`` ordered by likeness to ``card``: same suit and nearest rank first."""
    return sorted(better, key=lambda c: (SUIT_OF[c] != SUIT_OF[card], abs(c - card), c))


def why_better(position: HandState, card: Card, best: Card, naming: Naming = IN_WORDS) -> str:
    """Why ``best`` beats ``card`` in ``position``, in a few words."""
    name = naming.card(best)
    if not position.trick:
        if SUIT_OF[best] != SUIT_OF[card]:
            return f"leading the {name} was better"
        return f"leading the {'higher' if best > card else 'lower'} {name} was better"
    trick = position.trick
    winner_index = winning_position(trick)
    winning = trick[winner_index]
    winner = (position.leader + winner_index) & 3
    partner_winning = winner & 1 == position.turn & 1
    card_wins = beats(card, winning)
    best_wins = beats(best, winning)
    if best_wins and not card_wins:
        if partner_winning:
            return f"overtaking with the {name} was better"
        if SUIT_OF[best] == SPADES and SUIT_OF[trick[0]] != SPADES and SUIT_OF[winning] != SPADES:
            return f"ruffing with the {name} was better"
        return f"the {name} would have beaten {naming.possessive(winner)} {naming.card(winning)}"
    if card_wins and not best_wins:
        if partner_winning:
            return f"the {name} would have left partner's {naming.card(winning)} winning"
        return f"ducking with the {name} was better"
    if best_wins and card_wins:
        if best < card:
            return f"the cheaper {name} would have won as well"
        return f"the higher {name} was needed"
    if SUIT_OF[best] != SUIT_OF[card]:
        return f"discarding the {name} was better"
    return f"the {'higher' if best > card else 'lower'} {name} was better"
