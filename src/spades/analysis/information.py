"""Every card of a hand judged by what its player could know.

The double-dummy review (``review.py``) holds each card up against best play
with all four hands visible, so it blames a player for not guessing a layout no
one could see: "West's AH cost a trick: leading the JD was better" when nothing
West had seen pointed to the JD. Here each card is judged from its player's
seat at the moment it was played:

1. the hidden hands are sampled exactly uniformly among the deals consistent
   with what that seat had seen (its own cards, the bids, every card played and
   by whom, the voids shown), with ``HiddenHands``, the sampler the search
   players use;
2. in every sampled deal each legal card is solved double dummy: the tricks the
   side then takes, whether the side can still make its bid, whether each Nil
   of the side can still be held;
3. a card is a mistake when another did better **on average over those deals**,
   by a margin that matters (half a trick, or a quarter of the chance of the
   contract or a Nil) and clearly beyond the noise of the sample (``CONFIDENCE``
   standard errors of the paired differences).

A card that only looks bad double dummy (it lost against the real layout but
was as good as any on average) is therefore not a mistake here, and a card that
happened to work but usually loses is. The double-dummy verdict of every play
is kept beside it as a second opinion.

Solving many deals costs far more than one: each question has a search limit,
and a deal whose question gives up is left out of that play's average; a play
with fewer than half its deals answered is left unjudged (``judged`` false). In
practice that is the first trick or two of some hands (see ``docs/solver.md``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from spades.core import is_nil, is_number_bid

from ..bots.search.sampler import HiddenHands
from ..core.cards import SUIT_MASKS, SUIT_OF, Card
from ..core.hand import HandState, Phase
from ..core.naming import IN_WORDS, Naming
from ..core.scoring import NIL
from ..core.seats import Seat
from ..core.view import PlayerView, state_from_view
from ..solver import SearchLimitError, Solver
from ..solver.position import cards_played, replay
from .review import TRICKS, HandReview, PlayReview, analyze_hand, closest_first, why_better

__all__ = [
    "CONFIDENCE",
    "DEALS",
    "InformedPlay",
    "InformedReview",
    "equivalent_choices",
    "judge_play",
    "review_by_information",
]

DEALS: int = 24
"""Deals sampled for each play: enough to tell a half-trick mistake from noise
in most positions, few enough to review a hand in seconds (docs/solver.md)."""
LIMIT: int = 40_000
"""Cards one question about one sampled deal may try before it is given up
(about 50 ms compiled): full deals in the first tricks are the costly ones."""
MIN_TRICKS: float = 0.5
"""A card is a trick-losing mistake when another gained at least this many
tricks on average ..."""
MIN_CHANCE: float = 0.25
"""... or raised the chance of the contract or of a Nil by at least this much ..."""
SETTLE_AFTER: int = 8
"""Deals after which sampling stops once no other card can be shown better by
the margins above (its mean gain plus ``CONFIDENCE`` standard errors falls
short): most cards are fine, and this is most of the review's speed."""
HOPELESS: int = 2
"""Deals whose questions all gave up, none answered, before the play is left
unjudged: a position too big for the limit in one layout is in the others."""
CONFIDENCE: float = 2.0
"""... and the gain is at least this many standard errors of its per-deal
differences: a winner picked among near-equal cards on a few dozen deals is
noise, not knowledge."""


@dataclass(frozen=True)
class InformedPlay:
    """One card played, judged over the deals its player could picture."""

    trick: int
    """The trick it was played to (1..13)."""
    seat: Seat
    card: Card
    options: int
    """Distinct choices the seat had: cards no one could tell apart from its
    own seat (touching cards, say) count once. 1: the card was forced."""
    deals: int = 0
    """Sampled deals whose questions were answered (0 when not judged)."""
    tricks_lost: float = 0.0
    """Tricks the side took on average after the best card, less after this one."""
    best: Card | None = None
    """The card that did best on average, when this one was a mistake."""
    worse_in: int = 0
    """Deals in which this card did worse than ``best`` (tricks, contract or Nil)."""
    better_in: int = 0
    """Deals in which it did better than ``best``."""
    contract: tuple[float, float] | None = None
    """The chance of making the side's bid after this card and after the best
    one for it, when the card changed it."""
    nil: tuple[Seat, float, float] | None = None
    """A Nil of the side whose chance this card lowered: the seat, the chance
    after this card and after the best one for the Nil."""
    lost: tuple[str, ...] = ()
    """What the mistake cost: any of "tricks", "contract", "nil"; empty: no mistake."""
    explanation: str = ""
    double_dummy: PlayReview | None = None
    """The same card judged with every hand visible: the second opinion."""

    @property
    def judged(self) -> bool:
        """Whether the card was weighed over enough deals (forced cards are not)."""
        return self.deals > 0

    @property
    def is_mistake(self) -> bool:
        return bool(self.lost)

    @property
    def double_dummy_mistake(self) -> bool:
        return self.double_dummy is not None and self.double_dummy.is_mistake


@dataclass(frozen=True)
class InformedReview:
    """A hand's plays judged by information, with the double-dummy review beside them."""

    number: int
    bids: tuple[int | None, int | None, int | None, int | None]
    deals: int
    """Deals sampled for each play."""
    plays: tuple[InformedPlay, ...]
    double_dummy: HandReview | None
    seconds: float = field(default=0.0, compare=False)

    @property
    def mistakes(self) -> tuple[InformedPlay, ...]:
        return tuple(play for play in self.plays if play.is_mistake)

    @property
    def only_double_dummy(self) -> tuple[InformedPlay, ...]:
        """Plays with all cards visible called mistakes that no one could have
        known to be: the second opinion disagrees."""
        return tuple(
            play
            for play in self.plays
            if play.double_dummy_mistake and play.judged and not play.is_mistake
        )

    @property
    def unjudged(self) -> int:
        """Plays with a choice that were not weighed over enough deals."""
        return sum(1 for play in self.plays if play.options > 1 and not play.judged)

    @property
    def tricks_lost(self) -> tuple[float, float, float, float]:
        """The tricks each seat's mistakes cost its side on average."""
        lost = [0.0, 0.0, 0.0, 0.0]
        for play in self.mistakes:
            lost[play.seat] += play.tricks_lost
        return (lost[0], lost[1], lost[2], lost[3])


# ---------------------------------------------------------------- the review


def review_by_information(
    state: HandState,
    *,
    number: int = 1,
    deals: int = DEALS,
    seed: int | str = 0,
    from_trick: int = 1,
    limit: int = LIMIT,
    double_dummy: bool = True,
    naming: Naming = IN_WORDS,
) -> InformedReview:
    """Judge every card of ``state``'s hand from trick ``from_trick`` on by what
    its player could know, over ``deals`` sampled deals a play (seeded by
    ``seed``: the same seed gives the same review). With ``double_dummy`` the
    double-dummy review is attached as a second opinion. ``state`` is not changed.
    The explanations name seats and cards as ``naming`` says.
    """
    started = time.perf_counter()
    if state.phase is Phase.BIDDING:
        raise ValueError("the bidding of this hand is not over: there is no play to review")
    if not 1 <= from_trick <= TRICKS:
        raise ValueError(f"from_trick is 1..13, not {from_trick}")
    if deals < 1:
        raise ValueError(f"deals must be at least 1, not {deals}")
    cards = cards_played(state)
    first = min(4 * (from_trick - 1), len(cards) - len(cards) % 4)
    position = replay(state, first)
    second = (
        analyze_hand(state, number=number, from_trick=from_trick, naming=naming)
        if double_dummy
        else None
    )
    opinions = {} if second is None else {(p.trick, p.seat): p for p in second.plays}
    plays = []
    for index in range(first, len(cards)):
        card = cards[index]
        rng = random.Random(f"{seed}:{number}:{index}")
        judged = judge_play(position, card, deals=deals, rng=rng, limit=limit, naming=naming)
        opinion = opinions.get((judged.trick, judged.seat))
        plays.append(_with_opinion(judged, opinion))
        position.apply_play(card)
    return InformedReview(
        number=number,
        bids=(state.bids[0], state.bids[1], state.bids[2], state.bids[3]),
        deals=deals,
        plays=tuple(plays),
        double_dummy=second,
        seconds=time.perf_counter() - started,
    )


def _with_opinion(play: InformedPlay, opinion: PlayReview | None) -> InformedPlay:
    return play if opinion is None else replace(play, double_dummy=opinion)


# ------------------------------------------------------------- one play


def judge_play(
    position: HandState,
    card: Card,
    *,
    deals: int = DEALS,
    rng: random.Random | None = None,
    limit: int = LIMIT,
    naming: Naming = IN_WORDS,
) -> InformedPlay:
    """Judge ``card``, about to be played in ``position`` by the seat to act,
    over ``deals`` deals consistent with that seat's view, each question
    trying at most ``limit`` cards. ``position`` is not changed; the
    explanation names seats and cards as ``naming`` says."""
    seat = position.turn
    trick = len(position.tricks) + 1
    view = PlayerView.of(position, seat)
    choices = equivalent_choices(view)
    if len(choices) <= 1:
        return InformedPlay(trick, seat, card, options=len(choices))
    rng = rng or random.Random(0)
    questions = _Questions(position, seat)
    hidden = HiddenHands(view)
    samples: list[_Sample] = []
    given_up = 0
    for _ in range(deals):
        world = state_from_view(view, hidden.sample(rng))
        # A fresh solver for each deal: tables filled for one layout mostly
        # miss on another, and a big table only slows the lookups down.
        sample = questions.ask(world, Solver(limit=limit))
        if sample is not None:
            samples.append(sample)
        else:
            given_up += 1
        if 2 * given_up > deals or (given_up >= HOPELESS and not samples):
            # Too few answers to judge: stop paying for them.
            return InformedPlay(trick, seat, card, options=len(choices))
        if len(samples) >= SETTLE_AFTER and _clearly_fine(card, samples):
            break
    return _verdict(position, seat, card, len(choices), questions, samples, naming)


def equivalent_choices(view: PlayerView) -> list[tuple[Card, ...]]:
    """The legal cards of ``view``'s seat in classes no one could tell apart
    from that seat: cards of one suit with nothing between them but cards the
    seat holds or saw fall in finished tricks (a card on the table splits them:
    one may beat it and the other not)."""
    legal = view.legal_cards()
    gone = 0
    for finished in view.tricks:
        for played in finished.cards:
            gone |= 1 << played
    filler = view.hand | gone
    classes: list[list[Card]] = []
    for card in legal:  # lowest first
        previous = classes[-1][-1] if classes else -1
        if (
            previous >= 0
            and SUIT_OF[previous] == SUIT_OF[card]
            and _only_filler_between(previous, card, filler)
        ):
            classes[-1].append(card)
        else:
            classes.append([card])
    return [tuple(group) for group in classes]


def _only_filler_between(low: Card, high: Card, filler: int) -> bool:
    between = ((1 << high) - 1) & ~((1 << (low + 1)) - 1) & SUIT_MASKS[SUIT_OF[low]]
    return between & ~filler == 0


@dataclass(frozen=True, slots=True)
class _Sample:
    """One sampled deal's answers, card by card."""

    tricks: dict[Card, int]
    """The side's tricks for the whole hand after each card."""
    contract: dict[Card, bool] | None
    """Whether the side can still make its bid after each card."""
    nils: dict[Seat, dict[Card, bool]]
    """For each live Nil of the side, whether it can still be held after each card."""

    def measures(self) -> dict[object, tuple[float, dict[Card, float]]]:
        """Each measure of this deal, by name, with the gain that makes a mistake."""
        found: dict[object, tuple[float, dict[Card, float]]] = {
            "tricks": (MIN_TRICKS, {c: float(n) for c, n in self.tricks.items()})
        }
        if self.contract is not None:
            found["contract"] = (MIN_CHANCE, {c: float(ok) for c, ok in self.contract.items()})
        for seat, answers in self.nils.items():
            found[seat] = (MIN_CHANCE, {c: float(ok) for c, ok in answers.items()})
        return found


class _Questions:
    """What is asked of each sampled deal for one play, from the mover's side."""

    def __init__(self, position: HandState, seat: Seat) -> None:
        side = seat & 1
        self.side_mask = 0b0101 << side
        self.won = sum(1 for t in position.tricks if t.winner & 1 == side)
        bids = [position.bids[s] for s in (side, side + 2)]
        self.bidder: Seat | None = None
        self.need = 0
        if is_nil(bids[0]) and is_number_bid(bids[1]):
            self.bidder, self.need = side + 2, bids[1] or 0
        elif is_nil(bids[1]) and is_number_bid(bids[0]):
            self.bidder, self.need = side, bids[0] or 0
        elif NIL not in bids:
            self.need = sum(bid or 0 for bid in bids)
        else:
            self.need = -1  # both partners bid Nil: no numeric contract
        self.bidder_won = (
            0 if self.bidder is None else sum(1 for t in position.tricks if t.winner == self.bidder)
        )
        self.nil_seats = [
            s
            for s in (side, side + 2)
            if is_nil(position.bids[s]) and not any(t.winner == s for t in position.tricks)
        ]

    def ask(self, world: HandState, solver: Solver) -> _Sample | None:
        """The answers for one deal; ``None`` if the trick question gave up."""
        try:
            tricks = {c: self.won + n for c, n in solver.card_tricks(world, self.side_mask).items()}
        except SearchLimitError:
            return None
        contract: dict[Card, bool] | None = None
        try:
            if self.bidder is not None:
                own = solver.card_tricks(world, 1 << self.bidder)
                contract = {c: self.bidder_won + n >= self.need for c, n in own.items()}
            elif self.need >= 0:
                contract = {c: n >= self.need for c, n in tricks.items()}
        except SearchLimitError:
            contract = None
        nils: dict[Seat, dict[Card, bool]] = {}
        for nil_seat in self.nil_seats:
            try:
                nils[nil_seat] = solver.card_nil(world, nil_seat)
            except SearchLimitError:
                continue
        return _Sample(tricks, contract, nils)


# ------------------------------------------------------------- the verdict


def _clearly_fine(card: Card, samples: list[_Sample]) -> bool:
    """Whether no card beats ``card`` on any measure by a margin these deals
    could call significant, even at the top of its confidence band."""
    rows = [sample.measures() for sample in samples]
    for name, (margin, first) in rows[0].items():
        if any(name not in row for row in rows):  # a measure some deals could not answer
            return False
        columns = [row[name][1] for row in rows]
        for other in first:
            diffs = [values[other] - values[card] for values in columns]
            mean, error = _mean_and_error(diffs)
            # The error of a few identical differences is 0: floor it, so
            # that eight deals alone never make anything certain.
            if mean + CONFIDENCE * max(error, 0.5 / len(diffs)) >= margin:
                return False
    return True


def _mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """The mean of ``values`` and its standard error."""
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / max(1, len(values) - 1))
    return mean, spread / math.sqrt(len(values))


@dataclass(frozen=True, slots=True)
class _Comparison:
    """The played card against the best on average, on one measure."""

    best: Card
    mean_played: float
    mean_best: float
    worse_in: int
    better_in: int
    significant: bool

    @property
    def gain(self) -> float:
        return self.mean_best - self.mean_played


def _compare(
    played: Card, cards: Sequence[Card], values: list[dict[Card, float]]
) -> _Comparison | None:
    """The card with the highest mean over ``values`` (ties: the one likest to
    ``played``) against ``played``; ``None`` without values."""
    if not values:
        return None
    means = {card: sum(v[card] for v in values) / len(values) for card in cards}
    top = max(means.values())
    best = next(c for c in closest_first(played, list(cards)) if means[c] >= top - 1e-9)
    if means[played] >= top - 1e-9:
        best = played
    diffs = [v[best] - v[played] for v in values]
    mean, error = _mean_and_error(diffs)
    return _Comparison(
        best=best,
        mean_played=means[played],
        mean_best=means[best],
        worse_in=sum(1 for d in diffs if d > 0),
        better_in=sum(1 for d in diffs if d < 0),
        significant=mean > 0 and mean >= CONFIDENCE * error,
    )


def _verdict(
    position: HandState,
    seat: Seat,
    card: Card,
    options: int,
    questions: _Questions,
    samples: list[_Sample],
    naming: Naming,
) -> InformedPlay:
    legal = position.legal_cards()
    trick = len(position.tricks) + 1
    tricks = _compare(card, legal, [{c: float(n) for c, n in s.tricks.items()} for s in samples])
    assert tricks is not None
    contract_answers = [
        {c: float(ok) for c, ok in s.contract.items()} for s in samples if s.contract is not None
    ]
    contract = (
        _compare(card, legal, contract_answers)
        if 2 * len(contract_answers) >= len(samples)
        else None
    )
    nil_seat: Seat | None = None
    nil: _Comparison | None = None
    for candidate in questions.nil_seats:
        answers = [
            {c: float(ok) for c, ok in s.nils[candidate].items()}
            for s in samples
            if candidate in s.nils
        ]
        compared = _compare(card, legal, answers) if 2 * len(answers) >= len(samples) else None
        if compared is not None and (nil is None or compared.gain > nil.gain):
            nil_seat, nil = candidate, compared

    lost: list[str] = []
    parts: list[str] = []
    best: Card | None = None
    shown: _Comparison | None = None
    name = naming.seat(seat)
    side = naming.sides(seat & 1)
    if nil is not None and nil_seat is not None and nil.gain >= MIN_CHANCE and nil.significant:
        lost.append("nil")
        whose = "the Nil" if nil_seat == seat else f"{naming.possessive(nil_seat)} Nil"
        parts.append(
            f"put {whose} at risk: it could be held in {_percent(nil.mean_played)} of the "
            f"deals after it, in {_percent(nil.mean_best)} after the {naming.card(nil.best)}"
        )
        best, shown = best or nil.best, shown or nil
    if contract is not None and contract.gain >= MIN_CHANCE and contract.significant:
        lost.append("contract")
        parts.append(
            f"cut {side} chance of making the bid from {_percent(contract.mean_best)} "
            f"(the {naming.card(contract.best)}) to {_percent(contract.mean_played)}"
        )
        best, shown = best or contract.best, shown or contract
    if tricks.gain >= MIN_TRICKS and tricks.significant:
        lost.append("tricks")
        parts.append(
            f"cost {_tricks(tricks.gain)} on average: "
            + why_better(position, card, tricks.best, naming)
        )
        best, shown = best or tricks.best, shown or tricks
    explanation = ""
    if shown is not None:
        explanation = naming.sentence(
            f"{naming.possessive(seat)} {naming.card(card)} "
            + "; it also ".join(parts)
            + f" (over {len(samples)} deals consistent with what {name} had seen, it did worse "
            f"than the {naming.card(shown.best)} in {shown.worse_in} and better in "
            f"{shown.better_in})"
        )
    return InformedPlay(
        trick,
        seat,
        card,
        options=options,
        deals=len(samples),
        tricks_lost=tricks.gain if "tricks" in lost else 0.0,
        best=best,
        worse_in=0 if shown is None else shown.worse_in,
        better_in=0 if shown is None else shown.better_in,
        contract=None
        if contract is None or "contract" not in lost
        else (contract.mean_played, contract.mean_best),
        nil=None
        if nil is None or nil_seat is None or "nil" not in lost
        else (nil_seat, nil.mean_played, nil.mean_best),
        lost=tuple(lost),
        explanation=explanation,
    )


def _percent(chance: float) -> str:
    return f"{round(100 * chance)}%"


def _tricks(amount: float) -> str:
    rounded = f"{amount:.1f}"
    return f"{rounded} trick" + ("" if rounded == "1.0" else "s")
