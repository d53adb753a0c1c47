"""One seat learns, three built-in bots play the others: a Gymnasium ``Env``.

The learner's observation is the AEC environment's, a dict
``{"observation": float32[549] (or the dict of blocks), "action_mask": int8[66] (68 under blind Nil)}``
(gymnasium's ``check_env`` accepts it; the mask is part of the observation so
masked policies need no side channel). ``reset`` lets the bots act until it is
the learner's turn; ``step`` applies the learner's action, then the bots'
until it is the learner's turn again or the episode is over. The reward is
what the learner's agent earned over those actions (see ``SpadesEnv``).

Bots are made with ``make_bot`` and seeded from the game seed and their seat,
as the referee does, and are given only their seat's ``PlayerView``.

>>> env = SpadesSingleAgentEnv(seat="S", opponents="random")
>>> observation, info = env.reset(seed=7)
>>> env.game.to_act == env.seat
True
>>> observation, reward, terminated, truncated, info = env.step(52 + 3)  # bid 3
>>> terminated, env.game.to_act == env.seat
(False, True)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from spades.bots import BOT_LEVELS, Bot, make_bot
from spades.bots.base import choose_bid
from spades.core import BLIND_NIL, CARDCOUCH, SEATS, Game, Phase, Rules, Seat, parse_seat
from spades.core.seats import SEAT_LETTERS, partner_of

from .aec import AGENTS, Episode, IllegalActionMode, Observation, ObservationMode, SpadesEnv
from .encoding import LOOK_ACTION, bid_action, card_action


class SpadesSingleAgentEnv(gymnasium.Env[Observation, np.int64]):
    """Spades for one learning seat against built-in bots.

    ``seat``: the learner's seat (``"S"``). ``opponents``: the bot level of the
    two opponents (a name in ``spades.bots.BOT_LEVELS``); ``partner``: the
    partner's level (the opponents' level when ``None``). The other options are
    ``SpadesEnv``'s: the episode (a hand or a game), the observation mode, the
    rewards and what an illegal action does.
    """

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 1}  # noqa: RUF012 (as gymnasium.Env declares it)

    def __init__(
        self,
        *,
        seat: str = "S",
        opponents: str = "normal",
        partner: str | None = None,
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
        self.seat: Seat = parse_seat(seat)
        self.agent = AGENTS[self.seat]
        levels = {other: opponents for other in SEATS if other != self.seat}
        levels[partner_of(self.seat)] = opponents if partner is None else partner
        for level in levels.values():
            if level not in BOT_LEVELS:
                known = ", ".join(BOT_LEVELS)
                raise ValueError(f"unknown bot level {level!r} (known: {known})")
        self.levels = levels
        self.aec = SpadesEnv(
            episode=episode,
            observation_mode=observation_mode,
            illegal_action=illegal_action,
            reward_scale=reward_scale,
            shaping=shaping,
            illegal_reward=illegal_reward,
            rules=rules,
            max_hands=max_hands,
            render_mode=render_mode,
        )
        self.render_mode = render_mode
        self.observation_space: spaces.Dict = self.aec.observation_space(self.agent)
        self.action_space: spaces.Discrete = self.aec.action_space(self.agent)
        self.bots: dict[Seat, Bot] = {}
        self._listeners: list[Seat] = []
        self._over = True

    @property
    def game(self) -> Game:
        """The full game (every hand): for tests and referees, not for the learner."""
        return self.aec.game

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        """A new episode; the bots act until it is the learner's turn.

        ``reset(seed=s)`` deals ``Game(seed=s)``; later ``reset()`` calls go on
        from ``s`` reproducibly."""
        super().reset(seed=seed)
        self.aec.reset(seed=seed)
        game_seed = self.game.seed
        self.bots = {
            seat: make_bot(level, seed=f"{game_seed}:{SEAT_LETTERS[seat]}")
            for seat, level in self.levels.items()
        }
        for seat, bot in self.bots.items():
            bot.start_game(seat, self.game.rules)
        self._listeners = [seat for seat, bot in self.bots.items() if bot.wants_events]
        self._over = False
        self._tell_bots()
        reward = self._run_bots()
        assert reward == 0.0 and not self._over, "an episode always starts with the learner's bid"
        return self.aec.observe(self.agent), dict(self.aec.infos[self.agent])

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        """The learner plays ``action`` (0..51 a card, 52 + bid a bid), then the bots."""
        if self._over:
            raise RuntimeError("the episode is over: call reset()")
        self.aec.step(action)
        reward = self.aec.rewards[self.agent]
        self._tell_bots()
        reward += self._run_bots()
        terminated = self.aec.terminations[self.agent]
        truncated = self.aec.truncations[self.agent]
        self._over = terminated or truncated
        observation = self.aec.observe(self.agent)
        return observation, float(reward), terminated, truncated, dict(self.aec.infos[self.agent])

    def _run_bots(self) -> float:
        """Let the bots act until the learner's turn or the end; the learner's reward meanwhile."""
        aec = self.aec
        reward = 0.0
        while not (aec.terminations[self.agent] or aec.truncations[self.agent]):
            seat = AGENTS.index(aec.agent_selection)
            if seat == self.seat:
                break
            view = self.game.view(seat)
            bot = self.bots[seat]
            if view.phase is Phase.BIDDING:
                bid = choose_bid(bot, view)
                # Offered blind Nil, a bot declines it by looking first, as the learner does.
                offered = bid != BLIND_NIL and bool(view.without_cards().legal_bids())
                actions = [LOOK_ACTION, bid_action(bid)] if offered else [bid_action(bid)]
            elif view.phase is Phase.PASSING:  # a card a step, as the learner passes
                actions = [card_action(card) for card in bot.pass_cards(view)]
            else:
                actions = [card_action(bot.play(view))]
            for action in actions:
                aec.step(action)
            reward += aec.rewards[self.agent]
            self._tell_bots()
        self._over = aec.terminations[self.agent] or aec.truncations[self.agent]
        return reward

    def _tell_bots(self) -> None:
        """Pass the last action's public events to the bots that follow them."""
        for event in self.aec.last_events:
            for seat in self._listeners:
                self.bots[seat].observe(event, self.game.view(seat))

    def render(self) -> str | None:
        return self.aec.render()

    def close(self) -> None:
        for bot in self.bots.values():
            bot.close()
        self.bots = {}
