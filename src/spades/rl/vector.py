"""Many tables of Spades stepped at once with numpy: a Gymnasium ``VectorEnv``.

``SpadesVectorEnv(num_envs)`` holds ``num_envs`` independent tables as arrays
(each hand a 52-bit mask in a ``uint64``, one row per table) and steps all of
them with one call: one action per table, the action of the seat to act there.
It plays the engine's rules and encodes the engine's observations, so table
``i`` is, step for step, the AEC environment ``raw_env()`` reset with seed
``seed + i`` (its later games drawn from that seed the way ``raw_env`` draws
them): the same deals, masks, observation vectors, rewards and final scores.
tests/rl/test_vector.py holds it to that over thousands of hands.

What a step returns, per table ``i``:

* ``observations["observation"][i]``: the flat observation (``encoding``'s
  layout) of seat ``infos["seat"][i]``: the seat to act or, at the step that
  ends an episode, the seat that acted last (the finished hand in view);
* ``observations["action_mask"][i]``: that seat's legal actions (all 0 once the
  episode is over);
* ``rewards[i]``: **four** numbers, one per seat (N, E, S, W), what the AEC
  environment gives each agent at that step: a four-seat game has no single
  reward, and the two teams' hand scores do not sum to zero;
* ``terminations[i]``, ``truncations[i]``: the episode ended (truncated: a
  game still going after ``max_hands`` hands).

Auto-reset is Gymnasium's ``NEXT_STEP`` mode: the step after a table's episode
ended ignores that table's action and starts its next episode.

>>> tables = SpadesVectorEnv(4)
>>> observations, infos = tables.reset(seed=7)
>>> observations["observation"].shape, observations["action_mask"].shape, infos["seat"].shape
((4, 549), (4, 66), (4,))
>>> actions = [int(mask.nonzero()[0][0]) for mask in observations["action_mask"]]
>>> observations, rewards, terminations, truncations, infos = tables.step(actions)
>>> rewards.shape, bool(terminations.any())
((4, 4), False)

Rules: any rule set the engine accepts except the options that add steps of
their own, which are refused with ``UnsupportedRulesError``: blind Nil (decided
on a view without the cards, then a look at them) and the Nil passes
(``nil_pass``, ``blind_nil_pass``: cards chosen one a step). The scalar
environments play those. Everything else (target, floor, bags, Nil bonuses,
double Nil, the first lead, spades breaking, a minimum team bid) is exact.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from spades.core import CARDCOUCH, SUIT_MASKS, IllegalActionError, Rule, Rules, deal
from spades.core.cards import NON_SPADE_MASK
from spades.core.hand import legal_bid_list
from spades.core.seats import SEAT_LETTERS

from .aec import SEED_BITS, Episode, IllegalActionMode, _check_choice, _observation_space
from .encoding import (
    BAG_SCALE,
    BAGS_OFFSET,
    BID_OFFSET,
    BID_SLOTS,
    BIDS_OFFSET,
    CARD_ACTIONS,
    DEALER_OFFSET,
    HAND_OFFSET,
    OBSERVATION_SIZE,
    PHASE_OFFSET,
    PLAYED_OFFSET,
    SCORE_SCALE,
    SCORES_OFFSET,
    SPADES_BROKEN_OFFSET,
    TRICK_OFFSET,
    TRICK_SCALE,
    TRICKS_WON_OFFSET,
    action_count,
    describe_action,
    score_limits,
)

_NATIVE_LAYOUT: tuple[int, ...] | None
_encode_natively: Callable[..., None] | None
try:  # The observations in C (``_observations.c``); the numpy ``_encode`` stays the reference.
    from ._observations import LAYOUT as _NATIVE_LAYOUT
    from ._observations import encode as _encode_natively
except ImportError:  # pragma: no cover - depends on the build (SPADES_PURE_PYTHON=1)
    _NATIVE_LAYOUT = None
    _encode_natively = None

IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
CardArray = npt.NDArray[np.uint64]

BIDDING: Final = 0
PLAYING: Final = 1
OVER: Final = 2
"""A table's phase: bidding, playing, or the hand over (the episode's end in view)."""

NO_BID: Final = -1
NO_CARD: Final = -1
SPADE_LOW: Final = 39
TWO_OF_CLUBS_BIT: Final = 1

_BIT: Final = np.array([1 << card for card in range(52)], dtype=np.uint64)
_BIT_OR_NONE: Final = np.append(_BIT, np.uint64(0))
"""``_BIT`` and, at index ``NO_CARD`` (-1, the last), no card at all."""
_SUIT_MASK: Final = np.array(SUIT_MASKS, dtype=np.uint64)
_NON_SPADES: Final = np.uint64(NON_SPADE_MASK)
_RELATIVE: Final = np.arange(4, dtype=np.int64)

UNSUPPORTED_OPTIONS: Final = ("blind_nil", "nil_pass", "blind_nil_pass")
"""Rule options the vectorised tables refuse (the scalar environments play them)."""


class UnsupportedRulesError(ValueError):
    """Rules with an option the vectorised environment does not play."""


def check_vector_rules(rules: Rules) -> None:
    """Raise ``UnsupportedRulesError`` naming the first option of ``rules`` the
    vectorised tables do not play.

    >>> from spades.core import parse_rules
    >>> check_vector_rules(parse_rules("cardcouch,target=300,double_nil=off,min_team_bid=4"))
    >>> check_vector_rules(parse_rules("cardcouch,nil_pass=2"))
    Traceback (most recent call last):
    ...
    spades.rl.vector.UnsupportedRulesError: SpadesVectorEnv does not play nil_pass=2: a Nil pass is chosen a card a step, which only the scalar environments (raw_env, SpadesSingleAgentEnv) do
    """
    if rules.blind_nil:
        raise UnsupportedRulesError(
            "SpadesVectorEnv does not play blind_nil=on: blind Nil is decided on a view "
            "without the cards, which only the scalar environments (raw_env, "
            "SpadesSingleAgentEnv) do"
        )
    for option in ("nil_pass", "blind_nil_pass"):
        if getattr(rules, option):
            raise UnsupportedRulesError(
                f"SpadesVectorEnv does not play {option}={getattr(rules, option)}: a Nil pass "
                "is chosen a card a step, which only the scalar environments (raw_env, "
                "SpadesSingleAgentEnv) do"
            )


def _bid_masks(rules: Rules) -> npt.NDArray[np.int8]:
    """Row ``partner_bid + 1`` (row 0: the partner has not bid): 1 for each of
    the 14 bid actions the engine allows then; the last row, all 0, for a seat
    not bidding. The engine's own bid rule, asked once per partner bid."""
    rows = np.zeros((16, 14), dtype=np.int8)
    for partner in range(NO_BID, 14):
        for bid in legal_bid_list(rules, False, None if partner == NO_BID else partner):
            rows[partner + 1, bid] = 1
    return rows


def _card_bits(masks: CardArray) -> npt.NDArray[np.uint8]:
    """The 52 card bits of each of ``masks``, lowest first (card ``c`` at index
    ``c``): shape ``masks.shape + (52,)``, 0 or 1, contiguous."""
    little = masks.astype("<u8", copy=False).view(np.uint8).reshape(*masks.shape, 8)
    return np.unpackbits(little, axis=-1, count=52, bitorder="little")


_BID_ROWS: Final = np.eye(BID_SLOTS, dtype=np.float32)
"""Row ``bid + 1``: the ``bids`` block of one seat (``NO_BID + 1`` = 0: no bid yet)."""
_SEAT_ROWS: Final = np.eye(4, dtype=np.float32)
_BID_STARTS: Final = BIDS_OFFSET + _RELATIVE[None, :] * BID_SLOTS
"""Where each relative seat's bid slots start in an observation row."""
_TRICK_SHARES: Final = (np.arange(14) / TRICK_SCALE).astype(np.float32)
"""``_TRICK_SHARES[won]``: ``won / 13`` as ``encode_view`` casts it."""
_US_THEM: Final = np.array([0, 1], dtype=np.int64)

NATIVE: Final = _encode_natively is not None and _NATIVE_LAYOUT == (
    HAND_OFFSET, BIDS_OFFSET, BID_SLOTS, TRICK_OFFSET, PLAYED_OFFSET, TRICKS_WON_OFFSET,
    SPADES_BROKEN_OFFSET, SCORES_OFFSET, BAGS_OFFSET, DEALER_OFFSET, PHASE_OFFSET,
    OBSERVATION_SIZE,
)  # fmt: skip
"""Whether the C encoder is built and lays the observation out as ``encoding`` does."""


def _row_starts(tables: int) -> IntArray:
    """Where each row of a ``(tables, OBSERVATION_SIZE)`` array starts, flattened (a column)."""
    starts: IntArray = np.arange(tables, dtype=np.int64)[:, None] * OBSERVATION_SIZE
    return starts


_SCALARS: Final = OBSERVATION_SIZE - TRICKS_WON_OFFSET
"""The numbers after the card blocks: tricks won, spades broken, scores, ...;
their places among them:"""
_WON: Final = 0
_BROKEN: Final = SPADES_BROKEN_OFFSET - TRICKS_WON_OFFSET
_SCORES: Final = SCORES_OFFSET - TRICKS_WON_OFFSET
_BAGS: Final = BAGS_OFFSET - TRICKS_WON_OFFSET
_DEALER: Final = DEALER_OFFSET - TRICKS_WON_OFFSET
_PHASE: Final = PHASE_OFFSET - TRICKS_WON_OFFSET
# ``observe`` joins the blocks in this order, each as wide as it is here:
assert (HAND_OFFSET, BIDS_OFFSET, TRICK_OFFSET, PLAYED_OFFSET, TRICKS_WON_OFFSET) == (
    0, 52, 52 + 4 * BID_SLOTS, 52 + 4 * BID_SLOTS + 208, 52 + 4 * BID_SLOTS + 416,
)  # fmt: skip


class SpadesVectorEnv(VectorEnv):
    """``num_envs`` tables of Spades as one Gymnasium ``VectorEnv``.

    The options are the AEC environment's (``SpadesEnv``), except the
    observation (flat only) and the rules (see ``UNSUPPORTED_OPTIONS``).
    ``illegal_action="penalize"`` ends an offending table's episode with
    ``illegal_reward`` for the offender (``infos["illegal_action"]`` says
    why); ``"raise"`` raises ``IllegalActionError`` before any table moves.
    """

    metadata: dict[str, Any] = {"autoreset_mode": AutoresetMode.NEXT_STEP}  # noqa: RUF012 (gymnasium reads it from the instance)

    def __init__(
        self,
        num_envs: int,
        *,
        episode: Episode = "hand",
        illegal_action: IllegalActionMode = "penalize",
        reward_scale: float = 0.01,
        shaping: bool = False,
        illegal_reward: float = -1.0,
        rules: Rules = CARDCOUCH,
        max_hands: int = 1000,
    ) -> None:
        if num_envs < 1:
            raise ValueError(f"num_envs must be at least 1, got {num_envs}")
        _check_choice("episode", episode, ("hand", "game"))
        _check_choice("illegal_action", illegal_action, ("penalize", "raise"))
        if max_hands < 1:
            raise ValueError(f"max_hands must be at least 1, got {max_hands}")
        check_vector_rules(rules)
        self.num_envs = num_envs
        self.episode: Episode = episode
        self.illegal_action: IllegalActionMode = illegal_action
        self.reward_scale = float(reward_scale)
        self.shaping = shaping
        self.illegal_reward = float(illegal_reward)
        self.rules = rules
        self.max_hands = max_hands
        self.render_mode = None

        self.single_observation_space = _observation_space(rules, "flat")
        self.single_action_space = spaces.Discrete(action_count(rules))
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)

        self._actions = action_count(rules)
        self._bid_mask = _bid_masks(rules)
        self._score_low, self._score_high = score_limits(rules)

        n = num_envs
        self._rows = np.arange(n, dtype=np.int64)
        self._hands = np.zeros((n, 4), dtype=np.uint64)
        """The cards each seat still holds."""
        self._played = np.zeros((n, 4), dtype=np.uint64)
        """The cards each seat has played this hand (the trick in progress included)."""
        self._bids = np.full((n, 4), NO_BID, dtype=np.int64)
        self._trick = np.full((n, 4), NO_CARD, dtype=np.int64)
        """Per seat, its card in the trick in progress."""
        self._tricks_won = np.zeros((n, 4), dtype=np.int64)
        self._dealer = np.zeros(n, dtype=np.int64)
        self._turn = np.zeros(n, dtype=np.int64)
        self._leader = np.zeros(n, dtype=np.int64)
        self._phase = np.zeros(n, dtype=np.int64)
        self._count = np.zeros(n, dtype=np.int64)
        """Bids made while bidding; cards down in the trick in progress while playing."""
        self._best_card = np.zeros(n, dtype=np.int64)
        self._best_seat = np.zeros(n, dtype=np.int64)
        self._tricks_done = np.zeros(n, dtype=np.int64)
        self._broken = np.zeros(n, dtype=np.bool_)
        self._totals = np.zeros((n, 2), dtype=np.int64)
        self._bags = np.zeros((n, 2), dtype=np.int64)
        self._hands_scored = np.zeros(n, dtype=np.int64)
        self._first_dealer = np.zeros(n, dtype=np.int64)
        self._seat = np.zeros(n, dtype=np.int64)
        """The seat whose observation a table returns (see the module docstring)."""
        self._done = np.ones(n, dtype=np.bool_)
        self._game_rngs: list[random.Random] = [random.Random(0) for _ in range(n)]
        self._seed_rngs: list[random.Random] = [random.Random() for _ in range(n)]
        self._mask = np.zeros((n, self._actions), dtype=np.int8)
        self._row_starts = _row_starts(n)
        self.native = NATIVE
        """Encode in C (``_observations.c``) rather than numpy: the same numbers,
        several times faster; tests turn it off to compare the two."""

    # ----------------------------------------------------------------- reset

    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """Start a new episode at every table. ``seed=s`` seeds table ``i`` with
        ``s + i`` (a list: one seed a table), as ``raw_env().reset(seed=s + i)``
        would: its first game is ``Game(seed=s + i)`` and its later ones draw
        their seeds from it. Without a seed the games come from fresh entropy."""
        if seed is None:
            seeds: list[int | None] = [None] * self.num_envs
        elif isinstance(seed, int):
            seeds = [seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise ValueError(
                    f"reset needs {self.num_envs} seeds, one a table, got {len(seeds)}"
                )
        game_seeds: list[int] = []
        for table, table_seed in enumerate(seeds):
            self._seed_rngs[table] = random.Random(table_seed)
            game_seeds.append(
                self._seed_rngs[table].getrandbits(SEED_BITS) if table_seed is None else table_seed
            )
        self._start_games(self._rows, game_seeds)
        self._refresh()
        return self._observations(), {"seat": self._seat.copy()}

    def _start_games(self, tables: IntArray, game_seeds: Sequence[int]) -> None:
        """Each of ``tables`` starts ``Game(seed=...)`` with its seed: the engine's draws."""
        first_dealers = []
        for table, game_seed in zip(tables.tolist(), game_seeds, strict=True):
            rng = self._game_rngs[table]
            rng.seed(
                game_seed
            )  # the state random.Random(game_seed) starts in, without a new object
            first_dealers.append(rng.randrange(4))
        self._first_dealer[tables] = first_dealers
        self._totals[tables] = 0
        self._bags[tables] = 0
        self._hands_scored[tables] = 0
        self._done[tables] = False
        self._deal(tables)

    def _deal(self, tables: IntArray) -> None:
        """Deal the next hand at ``tables`` from each one's game RNG."""
        self._hands[tables] = [deal(self._game_rngs[table]) for table in tables.tolist()]
        dealer = (self._first_dealer[tables] + self._hands_scored[tables]) & 3
        self._dealer[tables] = dealer
        self._turn[tables] = self._leader[tables] = (dealer + 1) & 3
        self._played[tables] = 0
        self._bids[tables] = NO_BID
        self._trick[tables] = NO_CARD
        self._tricks_won[tables] = 0
        self._phase[tables] = BIDDING
        self._count[tables] = 0
        self._tricks_done[tables] = 0
        self._broken[tables] = not self.rules.spades_break

    # ------------------------------------------------------------------ step

    def step(
        self, actions: Any
    ) -> tuple[dict[str, Any], npt.NDArray[np.float32], BoolArray, BoolArray, dict[str, Any]]:
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise IllegalActionError(
                f"step takes one int action a table: an integer array of shape "
                f"({self.num_envs},), got {chosen.dtype} {chosen.shape}",
                rule=Rule.ACTION,
            )
        chosen = chosen.astype(np.int64, copy=False)
        rewards = np.zeros((self.num_envs, 4), dtype=np.float32)
        terminations = np.zeros(self.num_envs, dtype=np.bool_)
        truncations = np.zeros(self.num_envs, dtype=np.bool_)
        infos: dict[str, Any] = {}

        restarting = self._done.copy()
        in_range = (chosen >= 0) & (chosen < self._actions)
        legal = in_range & (self._mask[self._rows, np.where(in_range, chosen, 0)] == 1)
        illegal = ~restarting & ~legal
        if illegal.any():
            self._illegal(illegal, chosen, rewards, terminations, infos)
        acting = ~restarting & legal
        bidding = np.flatnonzero(acting & (self._phase == BIDDING))
        playing = np.flatnonzero(acting & (self._phase == PLAYING))
        self._bid(bidding, chosen)
        finished = self._play(playing, chosen)
        if finished.size:
            self._score(finished, rewards, terminations, truncations)

        restart = np.flatnonzero(restarting)
        if restart.size:
            seeds = [self._seed_rngs[table].getrandbits(SEED_BITS) for table in restart.tolist()]
            self._start_games(restart, seeds)
        self._done |= terminations | truncations
        self._refresh()
        infos["seat"] = self._seat.copy()
        return self._observations(), rewards, terminations, truncations, infos

    def _illegal(
        self,
        illegal: BoolArray,
        chosen: IntArray,
        rewards: npt.NDArray[np.float32],
        terminations: BoolArray,
        infos: dict[str, Any],
    ) -> None:
        tables = np.flatnonzero(illegal)
        reasons = np.full(self.num_envs, "", dtype=object)
        for table in tables.tolist():
            action = int(chosen[table])
            seat = int(self._turn[table])
            allowed = ", ".join(
                describe_action(a) for a in np.flatnonzero(self._mask[table]).tolist()
            )
            reasons[table] = (
                f"table {table}: {SEAT_LETTERS[seat]} may not take action {action} "
                f"({describe_action(action)}) now; the legal actions are {allowed}"
            )
        if self.illegal_action == "raise":
            raise IllegalActionError(str(reasons[tables[0]]), rule=Rule.ACTION)
        rewards[tables, self._turn[tables]] = self.illegal_reward
        terminations[tables] = True
        infos["illegal_action"] = reasons
        infos["_illegal_action"] = illegal.copy()

    def _bid(self, tables: IntArray, chosen: IntArray) -> None:
        if not tables.size:
            return
        seat = self._turn[tables]
        bid = chosen[tables] - BID_OFFSET
        self._bids[tables, seat] = bid
        count = self._count[tables] + 1
        self._count[tables] = count
        self._turn[tables] = (seat + 1) & 3
        ended = tables[count == 4]
        if ended.size:
            self._phase[ended] = PLAYING
            self._count[ended] = 0
            if self.rules.first_lead == "two_of_clubs":
                holds = (self._hands[ended] & np.uint64(TWO_OF_CLUBS_BIT)) != 0
                self._leader[ended] = holds.argmax(axis=1)
            self._turn[ended] = self._leader[ended]

    def _play(self, tables: IntArray, chosen: IntArray) -> IntArray:
        """Play each table's card; returns the tables whose hand is over."""
        if not tables.size:
            return tables
        seat = self._turn[tables]
        card: IntArray = chosen[tables]
        bit = _BIT[card]
        self._hands[tables, seat] ^= bit
        self._played[tables, seat] |= bit
        self._broken[tables] |= card >= SPADE_LOW
        self._trick[tables, seat] = card
        position = self._count[tables]
        best = self._best_card[tables]
        beats = (card > best) & ((card // 13 == best // 13) | (card >= SPADE_LOW))
        better = (position == 0) | beats
        self._best_card[tables] = np.where(better, card, best)
        best_seat = np.where(better, seat, self._best_seat[tables])
        self._best_seat[tables] = best_seat
        complete = position == 3
        self._count[tables] = np.where(complete, 0, position + 1)
        self._turn[tables] = np.where(complete, best_seat, (seat + 1) & 3)
        won: IntArray = tables[complete]
        if not won.size:
            return won
        winner = best_seat[complete]
        self._tricks_won[won, winner] += 1
        self._tricks_done[won] += 1
        self._trick[won] = NO_CARD
        self._leader[won] = winner
        over: IntArray = won[self._tricks_done[won] == 13]
        return over

    # --------------------------------------------------------------- scoring

    def _score(
        self,
        tables: IntArray,
        rewards: npt.NDArray[np.float32],
        terminations: BoolArray,
        truncations: BoolArray,
    ) -> None:
        """Score the finished hands as ``core.score_hand`` does, then end the
        episode, or the game, or deal the next hand."""
        rules = self.rules
        self._phase[tables] = OVER
        bids = self._bids[tables]
        won = self._tricks_won[tables]
        deltas = np.zeros((tables.size, 2), dtype=np.int64)
        for team in (0, 1):
            first, second = bids[:, team], bids[:, team + 2]
            taken_first, taken_second = won[:, team], won[:, team + 2]
            nil_first, nil_second = first == 0, second == 0
            bonus = rules.nil_bonus
            nil_points = np.where(nil_first, np.where(taken_first == 0, bonus, -bonus), 0)
            nil_points += np.where(nil_second, np.where(taken_second == 0, bonus, -bonus), 0)
            nil_tricks = np.where(nil_first, taken_first, 0) + np.where(nil_second, taken_second, 0)
            both_nil = nil_first & nil_second
            if rules.double_nil_bonus is not None:
                double = rules.double_nil_bonus
                nil_points = np.where(
                    both_nil, np.where(nil_tricks == 0, double, -double), nil_points
                )
            bid = np.where(nil_first, 0, first) + np.where(nil_second, 0, second)
            tricks = np.where(nil_first, 0, taken_first) + np.where(nil_second, 0, taken_second)
            made = tricks >= bid
            bid_points = np.where(both_nil, 0, np.where(made, 10 * bid, -10 * bid))
            overtricks = np.where(~both_nil & made, tricks - bid, 0)
            bags = self._bags[tables, team] + overtricks + nil_tricks
            penalties = np.zeros_like(bags)
            if rules.bag_limit is not None:
                penalties, bags = np.divmod(bags, rules.bag_limit)
            deltas[:, team] = bid_points + overtricks + nil_points - penalties * rules.bag_penalty
            self._bags[tables, team] = bags
        self._totals[tables] += deltas
        self._hands_scored[tables] += 1
        seat_deltas = deltas[:, [0, 1, 0, 1]].astype(np.float64)

        if self.episode == "hand":
            rewards[tables] += seat_deltas * self.reward_scale
            terminations[tables] = True
            return
        if self.shaping:
            rewards[tables] += seat_deltas * self.reward_scale
        winner = self._winners(self._totals[tables])
        over = winner >= 0
        ended = tables[over]
        if ended.size:
            won_game = (_RELATIVE[None, :] & 1) == winner[over, None]
            rewards[ended] += np.where(won_game, 1.0, -1.0)
            terminations[ended] = True
        going = tables[~over]
        if going.size:
            self._deal(going)
            truncations[going[self._hands_scored[going] >= self.max_hands]] = True

    def _winners(self, totals: IntArray) -> IntArray:
        """``core.game_outcome`` for many tables: the winning team, or -1 (play on)."""
        rules = self.rules
        ns, ew = totals[:, 0], totals[:, 1]
        higher = np.where(ns > ew, 0, np.where(ew > ns, 1, -1))
        at_target = np.stack([ns >= rules.target, ew >= rules.target], axis=1)
        by_target = np.where(
            at_target.all(axis=1),
            higher,
            np.where(at_target[:, 0], 0, np.where(at_target[:, 1], 1, -1)),
        )
        if rules.floor is None:
            return by_target
        below = np.stack([ns <= rules.floor, ew <= rules.floor], axis=1)
        by_floor = np.where(below.all(axis=1), higher, np.where(below[:, 0], 1, 0))
        return np.where(below.any(axis=1), by_floor, by_target)

    # ----------------------------------------------------------- observation

    def _refresh(self) -> None:
        """After a step: whose observation each table returns, and its mask."""
        live = ~self._done
        self._seat = np.where(live, self._turn, self._seat)
        playing = live & (self._phase == PLAYING)
        legal = np.where(playing, self._legal_cards(), np.uint64(0))
        partner = self._bids[self._rows, (self._turn + 2) & 3]
        no_bids = len(self._bid_mask) - 1
        bid_row = np.where(live & (self._phase == BIDDING), partner + 1, no_bids)
        mask = np.empty((self.num_envs, self._actions), dtype=np.int8)
        mask[:, :CARD_ACTIONS] = _card_bits(legal)
        mask[:, CARD_ACTIONS:] = np.take(self._bid_mask, bid_row, axis=0)
        self._mask = mask

    def _legal_cards(self) -> CardArray:
        """The engine's legal plays (``core.hand.legal_play_mask``) at every
        table (meaningful where it is playing)."""
        hand = self._hands[self._rows, self._turn]
        led = self._trick[self._rows, self._leader]
        follow = hand & _SUIT_MASK[np.maximum(led, 0) // 13]
        answering = np.where(follow != 0, follow, hand)
        side_suits = hand & _NON_SPADES
        leading = np.where(self._broken | (side_suits == 0), hand, side_suits)
        if self.rules.first_lead == "two_of_clubs":
            opening = (self._tricks_done == 0) & (self._count == 0)
            leading = np.where(opening, hand & np.uint64(TWO_OF_CLUBS_BIT), leading)
        legal: CardArray = np.where(self._count > 0, answering, leading)
        return legal

    def observe(self, seats: Sequence[int] | IntArray) -> npt.NDArray[np.float32]:
        """The flat observation of seat ``seats[i]`` at every table ``i``: what
        ``encode_view`` makes of that seat's view (the finished hand once a
        table's episode is over), for any seat, its turn or not."""
        me = np.asarray(seats, dtype=np.int64)
        if me.shape != (self.num_envs,) or ((me < 0) | (me > 3)).any():
            raise ValueError(f"observe needs a seat 0..3 a table ({self.num_envs}), got {seats!r}")
        return self._encode(self._rows, me)

    def _encode(self, tables: IntArray, me: IntArray) -> npt.NDArray[np.float32]:
        """The flat observation of seat ``me[i]`` at table ``tables[i]``, from the state."""
        if self.native and tables is self._rows:
            observation = np.empty((self.num_envs, OBSERVATION_SIZE), dtype=np.float32)
            assert _encode_natively is not None
            _encode_natively(
                observation,
                np.ascontiguousarray(me, dtype=np.int64),
                self._hands,
                self._played,
                self._trick,
                self._bids,
                self._tricks_won,
                self._broken,
                self._totals,
                self._bags,
                self._dealer,
                self._phase,
                self._score_low,
                self._score_high,
            )
            return observation
        return self._encode_numpy(tables, me)

    def _encode_numpy(self, tables: IntArray, me: IntArray) -> npt.NDArray[np.float32]:
        """``_encode`` with numpy alone: the reference the C encoder is held to."""
        n = tables.size
        # Index of (table, seat at relative position r) in the flattened (n, 4) arrays.
        seat_of = tables[:, None] * 4 + ((me[:, None] + _RELATIVE[None, :]) & 3)
        # The hand, each seat's card in the trick and each seat's played cards,
        # all as card masks, unpacked to bits at once.
        cards = np.empty((n, 9), dtype=np.uint64)
        cards[:, 0] = np.take(self._hands, tables * 4 + me)
        cards[:, 1:5] = np.take(_BIT_OR_NONE, np.take(self._trick, seat_of))
        cards[:, 5:] = np.take(self._played, seat_of)
        bits = _card_bits(cards)
        observation = np.empty((n, OBSERVATION_SIZE), dtype=np.float32)
        observation[:, HAND_OFFSET : HAND_OFFSET + 52] = bits[:, 0]
        blocks = observation[:, TRICK_OFFSET:TRICKS_WON_OFFSET].reshape(n, 8, 52)  # a view
        blocks[...] = bits[:, 1:]
        # The bids: a block of zeros, then each seat's slot set (one write a seat).
        observation[:, BIDS_OFFSET:TRICK_OFFSET] = 0.0
        starts = self._row_starts if n == self.num_envs else _row_starts(n)
        slots = starts + _BID_STARTS + np.take(self._bids, seat_of) + 1
        observation.reshape(-1)[slots] = 1.0
        # The numbers: each computed in float64 and cast to float32 once, as
        # encode_view does (the trick shares through a table made that way).
        numbers = observation[:, TRICKS_WON_OFFSET:]  # a view
        numbers[:, _WON : _WON + 4] = np.take(_TRICK_SHARES, np.take(self._tricks_won, seat_of))
        numbers[:, _BROKEN] = self._broken[tables]
        teams = (tables * 2)[:, None] + ((me & 1)[:, None] ^ _US_THEM)  # us, then them
        totals = np.clip(np.take(self._totals, teams), self._score_low, self._score_high)
        numbers[:, _SCORES : _SCORES + 2] = totals / SCORE_SCALE
        numbers[:, _BAGS : _BAGS + 2] = np.take(self._bags, teams) / BAG_SCALE
        numbers[:, _DEALER : _DEALER + 4] = np.take(
            _SEAT_ROWS, (self._dealer[tables] - me) & 3, axis=0
        )
        phase = self._phase[tables]
        numbers[:, _PHASE] = phase == BIDDING
        numbers[:, _PHASE + 1] = phase == PLAYING
        numbers[:, _PHASE + 2 :] = 0.0  # blind Nil, the passing: never in these rules
        return observation

    def _observations(self) -> dict[str, Any]:
        return {"observation": self.observe(self._seat), "action_mask": self._mask.copy()}

    # ------------------------------------------------------- for referees

    @property
    def action_masks(self) -> npt.NDArray[np.int8]:
        """The mask each table returned last (a copy)."""
        return self._mask.copy()

    @property
    def totals(self) -> IntArray:
        """Each table's game points, NS then EW (a copy); after a hand or game
        episode ends, the score after its last hand."""
        return self._totals.copy()

    @property
    def bags(self) -> IntArray:
        return self._bags.copy()

    @property
    def hands_scored(self) -> IntArray:
        """Hands scored so far in each table's game."""
        return self._hands_scored.copy()

    def close_extras(self, **kwargs: Any) -> None:
        pass
