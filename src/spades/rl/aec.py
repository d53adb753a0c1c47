"""Spades as a PettingZoo AEC environment: four agents, the engine's own rules.

Agents are ``"N"``, ``"E"``, ``"S"``, ``"W"``; ``agent_selection`` is always
the engine's seat to act (the bidding, then the play, trick winner leading).
Every action goes through the engine's checked entry points (``Game.bid``,
``Game.play``), every score comes from ``Game`` (``score_hand``): the
environment adds no rule of its own. Observations are encoded from the acting
seat's ``PlayerView`` only (see ``spades.rl.encoding`` and docs/rl.md).

>>> env = raw_env(episode="hand")
>>> env.reset(seed=7)
>>> env.agent_selection == "NESW"[env.game.to_act]
True
>>> observation, reward, terminated, truncated, info = env.last()
>>> sorted(observation), observation["observation"].shape, int(observation["action_mask"].sum())
(['action_mask', 'observation'], (549,), 14)
"""

from __future__ import annotations

import operator
import random
from collections.abc import Mapping
from typing import Any, ClassVar, Final, Literal

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from spades.core import (
    BLIND_NIL,
    CARDCOUCH,
    Event,
    Game,
    GameOver,
    HandScored,
    IllegalActionError,
    Phase,
    PlayerView,
    Rule,
    Rules,
    ScoredHand,
    Seat,
    bid_name,
    card_name,
    cards_in,
    team_of,
)
from spades.core.seats import SEAT_LETTERS

from .encoding import (
    BLIND_NIL_ACTION,
    CARD_ACTIONS,
    LOOK_ACTION,
    OBSERVATION_PARTS,
    Int8Array,
    action_count,
    action_mask,
    encode_view,
    observation_bounds,
    score_limits,
    split_observation,
)
from .tracker import SeatObservations

AGENTS: Final = ("N", "E", "S", "W")
"""The agents, by seat: index ``seat`` is that seat's name."""
SEAT_OF: Final = {agent: seat for seat, agent in enumerate(AGENTS)}

SEED_BITS: Final = 63

Episode = Literal["hand", "game"]
ObservationMode = Literal["flat", "dict"]
IllegalActionMode = Literal["penalize", "raise"]

Observation = dict[str, Any]
"""``{"observation": ..., "action_mask": int8[66]}`` (68 under blind Nil); the observation is a float32
vector (``"flat"``) or a dict of its named blocks (``"dict"``)."""


class SpadesEnv(AECEnv):  # type: ignore[misc]  # PettingZoo is untyped: AECEnv is Any here
    """Four seats of Spades as a PettingZoo ``AECEnv``.

    ``episode="hand"``: one hand from 0-0. When it is scored every agent gets its
    team's hand score (``delta``) times ``reward_scale`` and the episode ends.

    ``episode="game"``: a whole game, to 500 or -200. At the end the winners get
    +1 and the losers -1; with ``shaping=True`` every agent also gets its team's
    hand score times ``reward_scale`` each time a hand is scored. A game still
    going after ``max_hands`` hands is truncated (a guard for rule variants).

    An illegal action (masked out, out of range, or not an int) is handled per
    ``illegal_action``: ``"penalize"`` ends the episode at once, the offender
    getting ``illegal_reward`` (-1) and the others 0, the engine's explanation in
    the offender's ``info["illegal_action"]``; ``"raise"`` raises the engine's
    ``IllegalActionError`` (and changes nothing).

    ``self.game`` is the full game (every hand): for referees and tests, never
    for an agent.
    """

    metadata: ClassVar[dict[str, Any]] = {
        "name": "spades_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        *,
        episode: Episode = "hand",
        observation_mode: ObservationMode = "flat",
        illegal_action: IllegalActionMode = "penalize",
        reward_scale: float = 0.01,
        shaping: bool = False,
        illegal_reward: float = -1.0,
        rules: Rules = CARDCOUCH,
        max_hands: int = 1000,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        _check_choice("episode", episode, ("hand", "game"))
        _check_choice("observation_mode", observation_mode, ("flat", "dict"))
        _check_choice("illegal_action", illegal_action, ("penalize", "raise"))
        if render_mode is not None:
            _check_choice("render_mode", render_mode, ("human", "ansi"))
        if max_hands < 1:
            raise ValueError(f"max_hands must be at least 1, got {max_hands}")
        self.episode: Episode = episode
        self.observation_mode: ObservationMode = observation_mode
        self.illegal_action: IllegalActionMode = illegal_action
        self.reward_scale = float(reward_scale)
        self.shaping = shaping
        self.illegal_reward = float(illegal_reward)
        self.rules = rules
        self._chosen = 0
        self.max_hands = max_hands
        self.render_mode = render_mode

        self.possible_agents: list[str] = list(AGENTS)
        self.observation_spaces: dict[str, spaces.Dict] = {
            agent: _observation_space(rules, observation_mode) for agent in AGENTS
        }
        self.action_spaces: dict[str, spaces.Discrete] = {
            agent: spaces.Discrete(action_count(rules)) for agent in AGENTS
        }

        self._seeds = random.Random()  # fresh entropy until reset(seed=...)
        self.game = Game(rules, seed=0)
        self.last_events: list[Event] = []
        """The public events the last engine action caused (for bots that follow them)."""
        self._finished: ScoredHand | None = None  # the hand that ended a hand episode
        self._done = True
        self.agents: list[str] = []
        self.rewards: dict[str, float] = {}
        self._cumulative_rewards: dict[str, float] = {}
        self.terminations: dict[str, bool] = {}
        self.truncations: dict[str, bool] = {}
        self.infos: dict[str, dict[str, Any]] = {}
        self.agent_selection: str = AGENTS[0]
        self._seats = SeatObservations(action_count(rules))
        """Every seat's flat observation, followed action by action (``_take``)."""
        self._followed: tuple[Game | None, int, Event | None] = (None, 0, None)
        """The game, the length of its log and its last event when ``_seats``
        last matched it (``_in_step``)."""
        self._score_limits = score_limits(rules)
        self._actions = action_count(rules)
        self._blind_nil = rules.blind_nil
        self._split = observation_mode == "dict"

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> spaces.Dict:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Discrete:
        return self.action_spaces[agent]

    # ------------------------------------------------------------------- reset

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Deal a new game. ``reset(seed=s)`` plays ``Game(seed=s)``: the same deals
        and dealer as the engine gives that seed; later ``reset()`` calls draw
        their game seeds from ``s``, so a seeded run of episodes repeats exactly."""
        if seed is not None:
            self._seeds = random.Random(seed)
            game_seed = seed
        else:
            game_seed = self._seeds.getrandbits(SEED_BITS)
        self.game = Game(self.rules, seed=game_seed)
        self.last_events = list(self.game.log)
        self._finished = None
        self._done = False
        self._chosen = 0
        """The cards chosen so far for a Nil pass (a mask), a card a step."""
        self._looked = False
        """Whether the seat to bid, offered blind Nil, has looked at its cards."""
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {agent: {} for agent in AGENTS}
        self.agent_selection = AGENTS[self._to_act()]
        self._rebuild()

    # -------------------------------------------------------------------- step

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        seat = SEAT_OF[agent]
        followed = self._in_step()
        try:
            events = self._apply(seat, action)
        except IllegalActionError as error:
            if self.illegal_action == "raise":
                raise
            self.last_events = []
            self.rewards[agent] = self.illegal_reward
            self.infos[agent] = {"illegal_action": str(error)}
            self._end(truncated=False)
            self._accumulate_rewards()
            return
        self.last_events = events
        if events:  # the turn moved on: the next seat offered blind Nil has not looked
            self._looked = False
        rewarded = self._take(events, followed)
        if not self._done:
            if self.episode == "game" and len(self.game.history) >= self.max_hands:
                self._end(truncated=True)
            else:
                self.agent_selection = AGENTS[self._to_act()]
        if rewarded:  # (most actions reward no one: then there is nothing to add up)
            self._accumulate_rewards()

    def _apply(self, seat: Seat, action: Any) -> list[Event]:
        """Play ``action`` through the engine's checked entry points."""
        try:
            index = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"{action!r} is not an action: use an int, 0..51 a card, 52..65 a bid"
                f"{self._blind_actions}",
                rule=Rule.ACTION,
            ) from None
        if not 0 <= index < self._actions:
            raise IllegalActionError(
                f"{index} is not an action: 0..51 are cards, 52..65 bids{self._blind_actions}",
                rule=Rule.ACTION,
            )
        # (The rule checked first: most rule sets have no blind Nil.)
        if self._blind_nil and self._offered_blind_nil(seat):
            return self._decide_blind_nil(seat, index)
        if index < CARD_ACTIONS:
            if self.game.hand.phase is Phase.PASSING:
                return self._choose_to_pass(seat, index)
            return self.game.play(seat, index)
        if index in (BLIND_NIL_ACTION, LOOK_ACTION):
            raise IllegalActionError(
                "Blind Nil is bid before looking at the cards, when it is offered: "
                "this seat is not offered it now",
                rule=Rule.BLIND_NIL,
            )
        return self.game.bid(seat, index - CARD_ACTIONS)

    @property
    def _blind_actions(self) -> str:
        return ", 66 blind Nil, 67 look at the cards" if self.rules.blind_nil else ""

    def _offered_blind_nil(self, seat: Seat) -> bool:
        """Whether ``seat`` decides blind Nil now: its turn to bid, the bid open to
        it, and it has not looked at its cards. It is shown them only after."""
        if not self.rules.blind_nil or self._looked or self.game.phase is not Phase.BIDDING:
            return False  # (the rule checked first: most rule sets have no blind Nil)
        if self.game.to_act != seat:
            return False
        return bool(self.game.view(seat).without_cards().legal_bids())

    def _decide_blind_nil(self, seat: Seat, index: int) -> list[Event]:
        """Blind Nil (the engine bids it), or a look at the cards (the seat keeps
        the turn and bids as usual); nothing else while the cards are unseen."""
        if index == BLIND_NIL_ACTION:
            return self.game.bid(seat, BLIND_NIL)
        if index == LOOK_ACTION:
            self._looked = True
            return []
        raise IllegalActionError(
            "Bid blind Nil (66) or look at your cards (67) first: "
            "blind Nil is decided before seeing them",
            rule=Rule.BLIND_NIL,
        )

    def _choose_to_pass(self, seat: Seat, card: int) -> list[Event]:
        """A Nil pass is chosen a card a step; the engine takes the cards once
        all are chosen (and checks them then: a card not held, or twice, is refused)."""
        view = self.game.view(seat)
        if view.pass_count and (not view.hand & (1 << card) or self._chosen & (1 << card)):
            raise IllegalActionError(
                f"{card_name(card)} is not a card you may still choose to pass", rule=Rule.NIL_PASS
            )
        self._chosen |= 1 << card
        if self._chosen.bit_count() < view.pass_count:
            return []
        chosen, self._chosen = list(cards_in(self._chosen)), 0
        return self.game.pass_cards(seat, chosen)

    def _hand_scored(self, event: HandScored) -> None:
        if self.episode == "hand" or self.shaping:
            for agent in self.agents:
                delta = event.scores[team_of(AGENTS.index(agent))].delta
                self.rewards[agent] += delta * self.reward_scale
        if self.episode == "hand":
            self._finished = self.game.history[-1]
            self._end(truncated=False)

    def _game_over(self, event: GameOver) -> None:
        if self.episode != "game":
            return
        for agent in self.agents:
            won = team_of(AGENTS.index(agent)) == event.outcome.winner
            self.rewards[agent] += 1.0 if won else -1.0
        self._end(truncated=False)

    def _end(self, *, truncated: bool) -> None:
        self._done = True
        for agent in self.agents:
            if truncated:
                self.truncations[agent] = True
            else:
                self.terminations[agent] = True

    def _to_act(self) -> Seat:
        seat = self.game.to_act
        assert seat is not None, "the game is over"
        return seat

    # ----------------------------------------------------------------- observe

    def view(self, agent: str) -> PlayerView:
        """What ``agent``'s seat may know now. After a hand episode ends, the
        finished hand (all 13 tricks, the score after it), not the next deal."""
        seat = AGENTS.index(agent)
        finished = self._finished
        if finished is not None:  # the engine has already dealt the next hand
            return PlayerView.of(
                finished.state,
                seat,
                totals=finished.totals,
                bags=(finished.scores[0].bags, finished.scores[1].bags),
                hand_number=finished.number,
                rules=self.rules,
            )
        return self.game.view(seat)

    def observe(self, agent: str) -> Observation:
        seat = SEAT_OF[agent]
        turn = not self._done and agent == self.agent_selection
        mask: Int8Array
        if self._blind_nil and not self._done and self._offered_blind_nil(seat):
            view = self.view(agent).without_cards()  # blind Nil is decided unseen: no peeking
            flat = encode_view(view)
            mask = action_mask(view, self._chosen) if turn else np.zeros(self._actions, np.int8)
        else:
            if not self._in_step():
                self._rebuild()
            flat = self._seats.rows[seat].copy()
            mask = self._legal_actions(seat) if turn else np.zeros(self._actions, np.int8)
        if self._split:
            return {"observation": split_observation(flat), "action_mask": mask}
        return {"observation": flat, "action_mask": mask}

    def _legal_actions(self, seat: Seat) -> Int8Array:
        """``action_mask`` of ``seat``'s view (``seat`` seeing its cards)."""
        mask = self._seats.legal_actions(seat, self.game.hand)
        if mask is not None:
            return mask
        view = self.game.view(seat)
        if view.phase is Phase.BIDDING and view.is_my_turn:
            hand = self.game.hand
            key = (hand.bids[(seat + 2) & 3], hand.blind_nil_open[seat & 1])
            self._seats.bid_masks[key] = action_mask(view)
        return action_mask(view, self._chosen)

    # ------------------------------------------------ observations, followed

    def _in_step(self) -> bool:
        """Whether ``_seats`` still shows the game as the last step or reset
        left it (a referee may have acted on ``self.game`` directly since)."""
        game, length, last = self._followed
        log = self.game.log
        return game is self.game and len(log) == length and log[-1] is last

    def _rebuild(self) -> None:
        """Every seat's observation encoded afresh from its view."""
        self._seats.rebuild([self.view(agent) for agent in AGENTS])
        self._followed = (self.game, len(self.game.log), self.game.log[-1])

    def _take(self, events: list[Event], followed: bool) -> bool:
        """Act on the events of one action: the rewards of a hand scored or a
        game over, and ``_seats`` brought up to date (``followed``: it showed
        the game before the action; encoded afresh when it cannot follow).
        Returns whether anyone was rewarded."""
        rewarded = False
        for event in events:
            if type(event) is HandScored:
                self._hand_scored(event)
                rewarded = True
            elif type(event) is GameOver:
                self._game_over(event)
                rewarded = True
        low, high = self._score_limits
        if followed and self._seats.follow(
            events, self.game.hand, self._finished is not None, low, high
        ):
            if events:
                self._followed = (self.game, len(self.game.log), self.game.log[-1])
        else:
            self._rebuild()
        return rewarded

    # ------------------------------------------------------------ render/close

    def render(self) -> str | None:
        """The table in text, as a spectator sees it (no one's cards)."""
        if self.render_mode is None:
            return None
        text = describe_table(self.view(self.agent_selection))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def describe_table(view: PlayerView) -> str:
    """A few lines on the public state of ``view``'s hand.

    >>> from spades.core import Game
    >>> print(describe_table(Game(seed=7).view(0)))  # doctest: +ELLIPSIS
    Hand 1, dealer ..., bidding; ... to act
    Bids: -
    Tricks won: N 0, E 0, S 0, W 0
    Score: NS 0 (0 bags), EW 0 (0 bags)
    """
    phase = view.phase.value
    turn = "" if view.turn is None else f"; {SEAT_LETTERS[view.turn]} to act"
    bids = ", ".join(f"{SEAT_LETTERS[seat]} {bid_name(bid)}" for seat, bid in view.bids)
    lines = [
        f"Hand {view.hand_number}, dealer {SEAT_LETTERS[view.dealer]}, {phase}{turn}",
        f"Bids: {bids or '-'}",
    ]
    if view.phase is Phase.PLAYING:
        cards = " ".join(card_name(card) for card in view.trick)
        lines.append(
            f"Trick {view.trick_number}, led by {SEAT_LETTERS[view.leader]}: {cards or '-'}"
            + (", spades broken" if view.spades_broken else "")
        )
    won = ", ".join(f"{SEAT_LETTERS[seat]} {n}" for seat, n in enumerate(view.tricks_won))
    lines.append(f"Tricks won: {won}")
    lines.append(
        f"Score: NS {view.totals[0]} ({view.bags[0]} bags), "
        f"EW {view.totals[1]} ({view.bags[1]} bags)"
    )
    return "\n".join(lines)


def _observation_space(rules: Rules, mode: ObservationMode) -> spaces.Dict:
    low, high = observation_bounds(rules)
    observation: spaces.Space[Any]
    if mode == "flat":
        observation = spaces.Box(low, high, dtype=np.float32)
    else:
        observation = spaces.Dict(
            {
                part.name: spaces.Box(
                    low[part.offset : part.stop].reshape(part.shape),
                    high[part.offset : part.stop].reshape(part.shape),
                    dtype=np.float32,
                )
                for part in OBSERVATION_PARTS
            }
        )
    return spaces.Dict(
        {
            "observation": observation,
            "action_mask": spaces.Box(0, 1, (action_count(rules),), dtype=np.int8),
        }
    )


def _check_choice(name: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, not {value!r}")


def raw_env(**options: Any) -> SpadesEnv:
    """The environment itself (see ``SpadesEnv`` for the options)."""
    return SpadesEnv(**options)


def env(**options: Any) -> Any:
    """The environment wrapped in PettingZoo's ``OrderEnforcingWrapper`` (which
    refuses calls before ``reset``), the usual way to hand it to training code."""
    from pettingzoo.utils.wrappers import OrderEnforcingWrapper

    return OrderEnforcingWrapper(raw_env(**options))
