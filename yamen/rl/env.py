"""Any registered game that declares an encoder, as a PettingZoo AEC environment.

    env = yamen.rl.env("<game>", variant=..., render_mode=None)   # wrapped, as PettingZoo's
    env = yamen.rl.raw_env("<game>", ...)                          # classic envs have both

The game is read from the registry by name with its options (keyword arguments), so this
module names no game. Agents are ``player_0 ..``, one per seat. Every agent has the same
spaces (RLlib's wrapper needs it): ``Discrete(num_actions)`` and a ``Dict`` of the encoder's
``observation`` (float32 in [-1, 1]) and the ``action_mask`` (int8, 1 where ``legal``).

Turns: the agent selected is the lowest seat that owes a decision. Where several seats owe one
at once (a sealed window: all are asked, nobody sees the others' answers until all are in),
the others follow in seat order, each seeing only what its own view shows. Rewards are 0 until
the game is over, then each seat's final score as a float (exact scores as the game keeps
them; docs/rl.md gives each game's), so they sum as the scores do. ``reset(seed=s)`` deals
the game with seed ``s`` (a record of it replays with that seed); a reset without a seed
draws the next seed from the last one given. ``state()`` is the encoder's full information
(every hand) for centralized critics, never for a policy.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from yamen.bots.encoding import Encoder, encoder_for
from yamen.engine import Game, State, get_game, new_seed
from yamen.rl.encoding import full_information, full_information_size, observe

ILLEGAL_REWARD = -1.0  # env(): an illegal action ends the game, this to the seat that made it


def env(game: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """The environment wrapped as PettingZoo's classic environments are: an illegal action
    ends the game (``ILLEGAL_REWARD`` to its maker), an action outside the space is an
    assertion error, and the AEC call order is enforced."""
    made: AECEnv = raw_env(game, render_mode=render_mode, **options)
    made = wrappers.TerminateIllegalWrapper(made, illegal_reward=ILLEGAL_REWARD)
    made = wrappers.AssertOutOfBoundsWrapper(made)
    return wrappers.OrderEnforcingWrapper(made)


def observation_space(encoder: Encoder, game: Game) -> spaces.Dict:
    """The observation space every seat of a game shares."""
    return spaces.Dict(
        {
            "observation": spaces.Box(-1.0, 1.0, (encoder.observation_size,), np.float32),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        }
    )


class raw_env(AECEnv, EzPickle):  # noqa: N801  (PettingZoo's name for the unwrapped class)
    """The unwrapped environment (the module says the rules)."""

    RENDER_MODES = ("human", "ansi")
    metadata = {"render_modes": list(RENDER_MODES), "name": "yamen_v0", "is_parallelizable": False}

    def __init__(self, game: str, render_mode: str | None = None, **options: Any):
        EzPickle.__init__(self, game, render_mode, **options)
        super().__init__()
        self.game = get_game(game, options)
        self.encoder = encoder_for(self.game)
        self.metadata = {**self.metadata, "name": f"{self.game.name}_v0"}
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.RENDER_MODES}")
        self.render_mode = render_mode
        self.possible_agents = [f"player_{seat}" for seat in range(self.game.num_seats)]
        self.agents = self.possible_agents[:]
        self.seat_of = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.observation_spaces = {
            agent: observation_space(self.encoder, self.game) for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.game.num_actions) for agent in self.possible_agents
        }
        size = full_information_size(self.encoder, self.game)
        self.state_space = spaces.Box(-1.0, 1.0, (size,), np.float32)
        self._seeds: random.Random | None = None
        self.game_state: State = self.game.new_state(0)  # replaced by every reset

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None:
            game_seed = seed
            self._seeds = random.Random(seed)
        else:
            if self._seeds is None:
                self._seeds = random.Random(new_seed())
            game_seed = self._seeds.getrandbits(63)
        self.game_state = self.game.new_state(game_seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._select()

    def _select(self) -> None:
        """Select the lowest pending seat; its info carries its legal actions."""
        state = self.game_state
        seat = min(state.pending())
        for info in self.infos.values():
            info.pop("legal_actions", None)
        self.agent_selection = agent = self.possible_agents[seat]
        self.infos[agent]["legal_actions"] = state.legal(seat)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        state.apply(self.seat_of[agent], int(action))
        if state.over:
            self._finish()
        else:
            self._select()
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        result = self.game_state.result()
        assert result is not None, "a game over has its result"
        for agent, score in zip(self.possible_agents, result.scores, strict=True):
            self.rewards[agent] = float(score)
            self.infos[agent].pop("legal_actions", None)
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The seat's observation, from what its view shows, and its mask (zeros unless it
        owes a decision now)."""
        seat = self.seat_of[agent]
        state = self.game_state
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        legal = state.legal(seat)
        if legal:
            mask[legal] = 1
        return {"observation": observe(self.encoder, state, seat), "action_mask": mask}

    def state(self) -> np.ndarray:
        """The full information (every hand, every role): for centralized critics only."""
        return full_information(self.encoder, self.game_state)

    def render(self) -> str | None:
        """The table as a spectator sees it, as text (``ansi``: returned; ``human``:
        printed)."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() without a render_mode: env(..., render_mode='ansi')")
            return None
        text = self.game.render_text(self.game_state.view(None))
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release: the game is plain Python."""
