"""The search player (levels ``hard`` and ``expert``).

For each decision it samples deals of the hidden cards consistent with its
view (exactly uniform, see ``sampler``), weighs them by how well they explain
the bids (``inference``), and plays every candidate out in every sampled deal
with the knowledge-based player at all four seats. The candidate whose outcomes
are worth most to the team: the chance of winning the game after the hand
(see ``win_chance``), which counts hand points including Nil bonuses and the
future cost of bags, and weighs risk by the score: a gamble that is welcome
when far behind is a needless risk when far ahead.

It only ever sees its own seat's view: the deals it searches are guesses.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace
from typing import Literal

from spades.core import NIL, HandState, Phase, PlayerView, is_nil, state_from_view
from spades.core.cards import Card, cards_below, cards_in
from spades.core.seats import partner_of

from ..base import Bot
from ..knowledge import KnowledgeBot
from ..knowledge.blind_nil import wants_blind_nil
from ..knowledge.features import BiddingContext
from ..knowledge.learned_bidding import choose_learned_bid, nil_chance
from .helpers import discard_pool, helper_pool
from .inference import deal_weight
from .playouts import Ending, HandValues, after_bid, after_card
from .sampler import HiddenHands

NIL_CANDIDATE_CHANCE = 0.4
"""A Nil is searched when the learned model gives it at least this chance."""
OVERRULE_MARGIN = 3.0
"""Points a deal by which another option must beat the knowledge-based choice."""
OVERRULE_CONFIDENCE = 2.0
"""... and by how many standard errors: the search overrules the rule of thumb
only when the sampled deals show clearly that it is wrong, not on the noise of
a few dozen playouts between near-equal options."""
FUTILITY_CONFIDENCE = 2.0
"""An option is no longer searched once the deals so far put its advantage this
many standard errors below the margin it would need: more deals could hardly
make it clear the bar (see ``Outcomes.could_overrule``). Most decisions end
within the first deals this way, the default never having been in doubt."""
FRUGAL_OPENING_TRICKS = 4
"""The opening tricks a search skips in a hand without a Nil once decisions
wait for the server's bot processes (``be_frugal``). Measured over 28 games
of ``expert`` (6,800 searched cards), the search overruled the rule of thumb
there in 9 decisions of 1,400, for a quarter of the card search's CPU;
decision by decision against the search that skips none, it gave up about a
point a hand of one team (-0.96, 95% CI -2.2 to +0.3, docs/strength.md),
where searching half the deals gives up 8.5: the cheapest quarter a busy
server can give up, so it gives that up first, long before it cuts any
search's deals."""
PROJECTION_START = 8
"""From this share of the planned deals on (an eighth), an option must also be
able to clear the bar by the last of them (see ``Outcomes.could_overrule``)."""
PROJECTION_CONFIDENCE = 4.0
"""How far above its mean so far, in standard errors, the deals still to come
may put an option's advantage, in that projection."""


Kind = Literal["card", "bid"]
"""What a search chooses among."""
Sample = tuple[float, list[float]]
"""One sampled deal: its weight, and each option's value in it."""


class SearchBot(Bot):
    """Determinized search with knowledge-based playouts."""

    name = "hard"
    think = 0.12
    """Seconds to think per decision (at least ``min_worlds`` deals are searched)."""
    min_worlds = 6
    max_worlds = 24
    bid_think = 0.3
    """Bidding fixes the whole hand's contract: it gets more time and deals."""
    min_bid_worlds = 16
    max_bid_worlds = 40
    first_look: int | None = 4
    """Deals every card is searched in before a futile one is dropped."""
    bid_first_look: int | None = 16
    """Bids are searched in more deals before one is dropped: a bid's value
    spreads so wide from deal to deal that a few deals mislead, and cutting
    them short after 4 cost the contracts the search exists to save (a set in
    13.5% of hands against 4.5%, measured against the unpruned search:
    docs/strength.md)."""

    opening_tricks = 0
    """In a hand where no one bid Nil, the knowledge-based card stands without
    a search for this many tricks: none on an idle server, FRUGAL_OPENING_TRICKS
    on a busy one (``be_frugal``)."""

    projected_stop = True
    """Whether an option must also be able to clear the bar by the end of the
    planned deals to stay in the search (``Outcomes.could_overrule``)."""

    def __init__(
        self,
        seed: int | str | None = None,
        think: float | None = None,
        *,
        worlds: int | None = None,
        processes: int = 1,
    ) -> None:
        super().__init__(seed)
        if think is not None:
            self.set_think(think)
        if worlds is not None:
            self.fix_worlds(worlds)
        self.processes = 1
        """Processes a decision's deals are spread over (see ``helpers``)."""
        self.use_processes(processes)
        self.prior = KnowledgeBot(seed)
        self.deadline = math.inf
        """The ``time.monotonic()`` instant a decision must be made by, whatever
        its budget says (see ``stop_at``)."""

    def stop_at(self, deadline: float) -> None:
        """Answer by ``deadline`` (a ``time.monotonic()`` instant) with the deals
        searched by then, even fewer than ``min_worlds`` or none: with none, the
        knowledge-based choice the search starts from stands. The server sets
        it from the decision budget, so no one waits on an overloaded bot."""
        self.deadline = deadline

    def budget(
        self, seconds: float, min_worlds: int, max_worlds: int, first_look: int | None
    ) -> Budget:
        return Budget(
            seconds, min_worlds, max_worlds, self.deadline, first_look, self.projected_stop
        )

    def set_think(self, seconds: float) -> None:
        """Think for ``seconds`` a card (bids get more: they fix the contract). The
        deal counts scale with the time, so more time always means more search."""
        if seconds <= 0:
            raise ValueError(f"think time must be positive, got {seconds}")
        scale = seconds / self.think
        self.think = seconds
        self.bid_think *= scale
        self.max_worlds = max(self.min_worlds, round(self.max_worlds * scale))
        self.max_bid_worlds = max(self.min_bid_worlds, round(self.max_bid_worlds * scale))

    def use_processes(self, processes: int) -> None:
        """Spread each decision's deals over ``processes`` processes: this one
        and helpers (started now, in the background, if not yet running)."""
        if processes < 1:
            raise ValueError(f"processes must be at least 1, got {processes}")
        self.processes = processes
        if processes > 1:
            helper_pool(processes - 1)

    def search_share(self, share: float) -> None:
        """Search only ``share`` (0 to 1) of the planned deals, cards and bids,
        never fewer than the first look: what the server asks of a search while
        many more decisions are waiting than it has bot processes."""
        if not 0.0 < share <= 1.0:
            raise ValueError(f"a share of the deals is more than 0 and at most 1, not {share}")
        self.max_worlds = max(self.first_look or 1, round(self.max_worlds * share))
        self.min_worlds = min(self.min_worlds, self.max_worlds)
        self.max_bid_worlds = max(self.bid_first_look or 1, round(self.max_bid_worlds * share))
        self.min_bid_worlds = min(self.min_bid_worlds, self.max_bid_worlds)

    def be_frugal(self) -> None:
        """Leave the opening tricks of a hand without a Nil to the rule of thumb
        (FRUGAL_OPENING_TRICKS): what the server asks of a search as soon as
        decisions wait for its bot processes, before it cuts any deals."""
        self.opening_tricks = FRUGAL_OPENING_TRICKS

    def fix_worlds(self, worlds: int) -> None:
        """Search exactly ``worlds`` deals a card (bids in proportion, as by
        default) whatever the clock says: every decision then depends on the
        seed alone, reproducible on any machine under any load."""
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, got {worlds}")
        bid_worlds = max(1, round(worlds * self.max_bid_worlds / self.max_worlds))
        self.think = self.bid_think = math.inf
        self.min_worlds = self.max_worlds = worlds
        self.min_bid_worlds = self.max_bid_worlds = bid_worlds

    # ------------------------------------------------------------------ play

    def searches(self, view: PlayerView) -> bool:
        """Whether this bot's answer on ``view`` comes from a search at all.
        Where it does not (a card with one distinct legal choice, or an opening
        trick this search leaves to the rule of thumb), the answer is
        ``normal``'s, found in microseconds: a server decides it where it is
        instead of sending it to a bot process and back."""
        if view.phase is not Phase.PLAYING:
            return True
        return self._searches_card(view, distinct_cards(view.legal_mask(), view))

    def _searches_card(self, view: PlayerView, candidates: list[Card]) -> bool:
        if len(candidates) == 1:
            return False  # every legal card is equivalent
        return view.trick_number > self.opening_tricks or any(is_nil(bid) for _, bid in view.bids)

    def play(self, view: PlayerView) -> Card:
        candidates = distinct_cards(view.legal_mask(), view)
        preferred = self.prior.play(view)
        if not self._searches_card(view, candidates):
            return preferred
        default = next(c for c in candidates if same_group(c, preferred, view))
        budget = self.budget(self.think, self.min_worlds, self.max_worlds, self.first_look)
        outcomes = self.search(view, candidates, "card", budget, default)
        best = outcomes.choose(default)
        return preferred if best == default else best

    # ------------------------------------------------------------------- bid

    def bid(self, view: PlayerView) -> int:
        base = choose_learned_bid(view)
        candidates = {max(1, base - 1), max(1, base), min(13, max(1, base) + 1)}
        partner_bid = view.bid_of(partner_of(view.seat))
        if is_nil(base) or (
            not is_nil(partner_bid)
            and nil_chance(view.hand, BiddingContext.of(view)) >= NIL_CANDIDATE_CHANCE
        ):
            candidates.add(NIL)
        candidates &= set(
            view.legal_bids()
        )  # a minimum team bid or no double Nil may rule some out
        if len(candidates) <= 1:
            return base
        budget = self.budget(
            self.bid_think, self.min_bid_worlds, self.max_bid_worlds, self.bid_first_look
        )
        outcomes = self.search(view, sorted(candidates), "bid", budget, base)
        return outcomes.choose(base)

    def blind_nil(self, view: PlayerView) -> bool:
        return wants_blind_nil(view)

    # ---------------------------------------------------------------- search

    def search(
        self,
        view: PlayerView,
        options: list[int],
        kind: Kind,
        budget: Budget,
        default: int | None = None,
    ) -> Outcomes:
        """Each option's value in each sampled deal (``kind`` says whether the
        options are cards or bids); options that cannot overrule ``default`` are
        dropped along the way (see ``search_deals``). With helper processes each
        searches its share of the deals, seeded from this bot, while this one
        searches the rest."""
        outcomes = Outcomes(options)
        shares = budget.split(self.processes)
        jobs: list[tuple[Budget, Future[list[Sample]]]] = []
        if len(shares) > 1:
            pool = helper_pool(len(shares) - 1)
            for share in shares[1:]:
                seed = self.rng.getrandbits(64)
                job = pool.submit(search_deals, view, options, kind, share, seed, default)
                jobs.append((share, job))
        for sample in search_deals(view, options, kind, shares[0], self.rng, default):
            outcomes.add(*sample)
        for share, job in jobs:
            try:
                samples = job.result()
            except BrokenProcessPool:  # a helper died: search its share here
                discard_pool()
                samples = search_deals(view, options, kind, share, self.rng, default)
            for sample in samples:
                outcomes.add(*sample)
        return outcomes


def search_deals(
    view: PlayerView,
    options: list[int],
    kind: Kind,
    budget: Budget,
    rng: random.Random | int,
    default: int | None = None,
) -> list[Sample]:
    """Sample deals within ``budget`` and value every option in each: every
    option is tried in the same deals, so their differences are not luck of
    the sample. After ``budget.first_look`` deals, an option that can no longer
    overrule ``default`` is not played out again (its value in later deals is
    NaN), and the search ends once only ``default`` is left. Runs in helper
    processes too (hence plain arguments)."""
    if isinstance(rng, int):
        rng = random.Random(rng)
    outcome = OUTCOMES[kind]
    hidden = HiddenHands(view)
    values_of = HandValues(view)
    found = Outcomes(options)
    live = list(range(len(options)))
    soft_deadline = time.monotonic() + budget.seconds
    while len(found.weights) < budget.max_worlds:
        now = time.monotonic()
        if now >= budget.stop_at or (
            len(found.weights) >= budget.min_worlds and now >= soft_deadline
        ):
            break
        hands = hidden.sample(rng)
        state = state_from_view(view, hands)
        values = [math.nan] * len(options)
        for i in live:
            values[i] = values_of.of(outcome(state, options[i], view))
        found.add(deal_weight(view, hands), values)
        if (
            default is not None
            and budget.first_look is not None
            and len(found.weights) >= budget.first_look
        ):
            planned = budget.max_worlds if budget.projected else None
            live = [
                i
                for i in live
                if options[i] == default or found.could_overrule(options[i], default, planned)
            ]
            if len(live) <= 1:
                break
    return list(zip(found.weights, found.values, strict=True))


OUTCOMES: dict[Kind, Callable[[HandState, int, PlayerView], Ending]] = {
    "card": after_card,
    "bid": after_bid,
}


class Outcomes:
    """What each option was worth in each sampled deal, and the deals' weights."""

    def __init__(self, options: Sequence[int]) -> None:
        self.options = list(options)
        self.weights: list[float] = []
        self.values: list[list[float]] = []
        """One row per deal: the value of each option, in ``options`` order.
        Rows are only ever added (``add``), which ``advantage`` relies on."""
        self._differences: dict[tuple[int, int], RunningDifference] = {}

    def add(self, weight: float, row: list[float]) -> None:
        self.weights.append(weight)
        self.values.append(row)

    def advantage(self, option: int, over: int) -> tuple[float, float]:
        """How much more ``option`` is worth than ``over``: the weighted mean
        difference over the deals and its standard error (infinite with fewer
        than two deals' worth of weight: nothing is known then).

        The search asks this after every deal of its first look, for every
        option still in play: walking all the deals each time was a tenth of
        a bot process's time, so each pair keeps its running sums and folds
        in only the deals added since it was last asked.

        >>> outcomes = Outcomes([1, 2])
        >>> outcomes.add(1.0, [10.0, 0.0])
        >>> outcomes.add(1.0, [30.0, 5.0])
        >>> outcomes.advantage(1, 2)
        (17.5, 7.5)
        """
        key = (self.options.index(option), self.options.index(over))
        difference = self._differences.get(key)
        if difference is None:
            difference = self._differences[key] = RunningDifference(*key)
        difference.fold(self.weights, self.values)
        return difference.estimate()

    def could_overrule(self, option: int, default: int, planned: int | None = None) -> bool:
        """Whether ``option`` may still prove clearly better than ``default``:
        its advantage so far is within FUTILITY_CONFIDENCE standard errors of
        the margin (always, while too few deals give no error).

        With ``planned`` deals in all, it must also be able to clear the bar
        once they are done (from PROJECTION_START's share of them on): the
        deals still to come can move its mean only by their share of the
        plausible error, and by then ``choose`` will ask for OVERRULE_CONFIDENCE
        of a smaller standard error. An option level with the default and
        noisy would otherwise be played out in every planned deal without ever
        having a chance to overrule it: that was half of all the search's work.

        >>> outcomes = Outcomes([1, 2])
        >>> outcomes.add(1.0, [0.0, 0.0])
        >>> outcomes.could_overrule(1, 2)
        True
        >>> outcomes.add(1.0, [0.0, 0.0])
        >>> outcomes.could_overrule(1, 2)
        False
        >>> noisy = Outcomes([1, 2])
        >>> for gain in (-20.0, 20.0) * 16:  # 32 deals, level on average
        ...     noisy.add(1.0, [gain, 0.0])
        >>> [round(x, 2) for x in noisy.advantage(1, 2)]
        [0.0, 3.59]
        >>> noisy.could_overrule(1, 2), noisy.could_overrule(1, 2, planned=64)
        (True, False)
        >>> noisy.could_overrule(1, 2, planned=200)  # too early to tell
        True
        """
        gain, error = self.advantage(option, default)
        if gain + FUTILITY_CONFIDENCE * error <= OVERRULE_MARGIN:
            return False
        seen = len(self.weights)
        if planned is None or seen * PROJECTION_START < planned or not math.isfinite(error):
            return True
        done = min(1.0, seen / planned)
        best_final = gain + PROJECTION_CONFIDENCE * error * (1.0 - done)
        return clears_by(best_final, error * math.sqrt(done))

    def choose(self, default: int) -> int:
        """The knowledge-based ``default`` unless another option beats it clearly
        (see ``clears_by``): then the best of those that do."""
        best, best_gain = default, 0.0
        for option in self.options:
            if option == default:
                continue
            gain, error = self.advantage(option, default)  # once: it walks every deal
            if clears_by(gain, error) and gain > best_gain:
                best, best_gain = option, gain
        return best


class RunningDifference:
    """The weighted mean and spread of ``row[i] - row[j]`` over the deals folded
    in so far, kept as running sums (West's weighted form of Welford's update,
    which stays accurate where the textbook sum of squares cancels badly).

    Only the deals both options were played out in count: an option dropped as
    futile has NaN for the deals after (NaN is the one value unequal to
    itself); a deal of no weight adds nothing, as in the weighted mean."""

    __slots__ = ("i", "j", "mean", "scale", "seen", "squares", "total", "weight_squares")

    def __init__(self, i: int, j: int) -> None:
        self.i, self.j = i, j
        self.seen = 0
        """Deals folded in (of every deal, counted or not)."""
        self.scale = 0.0
        """The largest weight counted: the sums below are of weights divided by
        it, so that no square of a tiny likelihood underflows to nothing."""
        self.total = 0.0
        """The counted deals' weight."""
        self.mean = 0.0
        self.squares = 0.0
        """The weighted sum of squared deviations from ``mean``."""
        self.weight_squares = 0.0

    def fold(self, weights: list[float], values: list[list[float]]) -> None:
        i, j = self.i, self.j
        for k in range(self.seen, len(weights)):
            weight, row = weights[k], values[k]
            a, b = row[i], row[j]
            if not weight > 0.0 or a != a or b != b:
                continue
            if weight > self.scale:
                ratio = self.scale / weight
                self.total *= ratio
                self.squares *= ratio
                self.weight_squares *= ratio * ratio
                self.scale = weight
            share = weight / self.scale
            diff = a - b
            self.total += share
            delta = diff - self.mean
            self.mean += delta * share / self.total
            self.squares += share * delta * (diff - self.mean)
            self.weight_squares += share * share
        self.seen = len(weights)

    def estimate(self) -> tuple[float, float]:
        """The mean difference and its standard error (see ``Outcomes.advantage``)."""
        if self.total <= 0.0:
            return 0.0, math.inf
        effective_deals = self.total * self.total / self.weight_squares
        if effective_deals <= 1.0:
            return self.mean, math.inf
        spread = max(0.0, self.squares) / self.total
        return self.mean, math.sqrt(spread / (effective_deals - 1.0))


def clears_by(gain: float, error: float) -> bool:
    """Whether an advantage of ``gain`` with standard error ``error`` clears the
    bar: OVERRULE_MARGIN, with OVERRULE_CONFIDENCE standard errors to spare."""
    return gain - OVERRULE_CONFIDENCE * error > OVERRULE_MARGIN


@dataclass(frozen=True)
class Budget:
    """How long to search: at least ``min_worlds`` deals, then until ``seconds``
    have passed or ``max_worlds`` deals are done; never past ``stop_at`` (a
    ``time.monotonic()`` instant), even short of ``min_worlds``. Options that
    cannot overrule the default are dropped after ``first_look`` deals."""

    seconds: float
    min_worlds: int
    max_worlds: int
    stop_at: float = math.inf
    first_look: int | None = 4
    """``None``: every option is searched in every deal."""
    projected: bool = True
    """Whether an option dropped must also be unable to clear the bar by the
    last of ``max_worlds`` deals (see ``Outcomes.could_overrule``)."""

    def split(self, parts: int) -> list[Budget]:
        """The same time for each of ``parts`` processes, the deals shared out
        (the first part takes any remainder; no part is left without a deal).

        >>> [(b.min_worlds, b.max_worlds) for b in Budget(0.3, 12, 64).split(2)]
        [(6, 32), (6, 32)]
        >>> [(b.min_worlds, b.max_worlds) for b in Budget(0.3, 1, 3).split(2)]
        [(1, 2), (0, 1)]
        """
        parts = max(1, min(parts, self.max_worlds))
        shares = []
        for part in range(parts):
            low = self.min_worlds // parts + (1 if part < self.min_worlds % parts else 0)
            high = self.max_worlds // parts + (1 if part < self.max_worlds % parts else 0)
            shares.append(replace(self, min_worlds=low, max_worlds=high))
        return shares


class ExpertBot(SearchBot):
    """More deals searched than ``hard``: the strongest level, and the default.
    Its deal counts, not its clock, bound it on an idle machine; most of its
    decisions end within the first deals, no option able to clear the margin."""

    name = "expert"
    think = 0.8
    min_worlds = 12
    max_worlds = 64
    bid_think = 0.8
    min_bid_worlds = 32
    max_bid_worlds = 96


# --------------------------------------------------------------- the pieces


def distinct_cards(legal: int, view: PlayerView) -> list[Card]:
    """The legal cards with equals merged: two cards of a suit with no unseen
    card between them win and lose the same tricks, so search one of them."""
    unseen = view.unseen
    result: list[Card] = []
    for card in cards_in(legal):
        if result and same_run(result[-1], card, unseen, legal):
            continue
        result.append(card)
    return result


def same_run(lower: Card, higher: Card, unseen: int, legal: int) -> bool:
    if lower // 13 != higher // 13:
        return False
    between = cards_below(higher) & ~cards_below(lower) & ~(1 << lower)
    return not between & unseen


def same_group(a: Card, b: Card, view: PlayerView) -> bool:
    low, high = min(a, b), max(a, b)
    return a == b or same_run(low, high, view.unseen, view.hand)
