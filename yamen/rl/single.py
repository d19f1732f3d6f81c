"""One seat learns, Yamen's bots play the others: a Gymnasium environment.

    SingleAgentEnv("<game>", seat=0, opponents="rules", variant=...)

Observations and actions are those of the PettingZoo environment (yamen/rl/env.py): a Dict
of the seat's ``observation`` and ``action_mask``, ``Discrete(num_actions)`` actions. Each
``step`` applies the learner's action, then lets the bots play (through
:func:`yamen.bots.bot_move`: each is handed its own seat's view and legal actions) until the
learner owes a decision again or the game is over. The reward is 0 until the end, then the
learner's final score. An illegal action ends the episode at once with ``illegal_reward``
(``info["illegal"]``), as PettingZoo's TerminateIllegalWrapper does, so that a learner that
ignores the mask is told so rather than crashed. ``opponents`` is one bot spec for every other
seat, or a list of specs, one per other seat in seat order (``yamen.bots.make_bot``).

A game that the bots finish before the learner owes any decision (a Bao Qing-tian seat that is
never asked: most games of a 50-seat table) holds nothing to learn, and ``reset`` must return a
state to act in, so ``reset`` deals the next game (its seed drawn from the reset's seed) until
the learner has a decision; ``info["skipped"]`` counts the games dealt again. Scores measured
this way are of the games in which the learner acts.
"""

from __future__ import annotations

import random
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from yamen.bots import Bot, bot_move, make_bot
from yamen.bots.encoding import encoder_for
from yamen.engine import State, get_game
from yamen.rl.encoding import observe
from yamen.rl.env import ILLEGAL_REWARD, observation_space


class SingleAgentEnv(gymnasium.Env):
    """The learner at ``seat``; the module says the rules."""

    metadata = {"render_modes": ["human", "ansi"]}

    def __init__(
        self,
        game: str,
        seat: int = 0,
        opponents: str | list[str] = "rules",
        render_mode: str | None = None,
        illegal_reward: float = ILLEGAL_REWARD,
        **options: Any,
    ):
        self.game = get_game(game, options)
        if not 0 <= seat < self.game.num_seats:
            raise ValueError(f"seat {seat}: the game has seats 0..{self.game.num_seats - 1}")
        others = [s for s in range(self.game.num_seats) if s != seat]
        specs = [opponents] * len(others) if isinstance(opponents, str) else list(opponents)
        if len(specs) != len(others):
            raise ValueError(f"{len(specs)} opponents for {len(others)} other seats")
        pairs = zip(others, specs, strict=True)
        self.bots: dict[int, Bot] = {other: make_bot(game, spec) for other, spec in pairs}
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r}: one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.seat = seat
        self.illegal_reward = illegal_reward
        self.encoder = encoder_for(self.game)
        self.observation_space = observation_space(self.encoder, self.game)
        self.action_space = spaces.Discrete(self.game.num_actions)
        self.game_state: State = self.game.new_state(0)  # replaced by every reset
        self._bot_rng = random.Random(0)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = seed if seed is not None else int(self.np_random.integers(2**63 - 1))
        skipped = 0
        while True:  # a game the bots finish before the learner owes a decision: deal again
            self.game_state = self.game.new_state(game_seed)
            self._bot_rng = random.Random(f"yamen opponents {game_seed}")
            self._bots_play()
            if not self.game_state.over:
                return self._observation(), {**self._info(), "skipped": skipped}
            skipped += 1
            game_seed = int(self.np_random.integers(2**63 - 1))

    def step(self, action: Any) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state.over:
            raise RuntimeError("step() after the game is over: reset() first")
        legal = state.legal(self.seat)
        if int(action) not in legal:
            return self._observation(), float(self.illegal_reward), True, False, {"illegal": True}
        state.apply(self.seat, int(action))
        self._bots_play()
        reward = 0.0
        if state.over:
            result = state.result()
            assert result is not None, "a game over has its result"
            reward = float(result.scores[self.seat])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, state.over, False, self._info()

    def _bots_play(self) -> None:
        """The bots' decisions, lowest pending seat first, until the learner owes one."""
        state = self.game_state
        while not state.over:
            pending = state.pending()
            if self.seat in pending:
                return
            seat = min(pending)
            state.apply(seat, bot_move(self.bots[seat], state, seat, self._bot_rng))

    def _observation(self) -> dict[str, np.ndarray]:
        state = self.game_state
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        legal = state.legal(self.seat)
        if legal:
            mask[legal] = 1
        return {"observation": observe(self.encoder, state, self.seat), "action_mask": mask}

    def _info(self) -> dict[str, Any]:
        return {"legal_actions": self.game_state.legal(self.seat)}

    def render(self) -> str | None:
        """The learner's own view as text (``ansi``: returned; ``human``: printed)."""
        if self.render_mode is None:
            return None
        text = self.game.render_text(self.game_state.view(self.seat))
        if self.render_mode == "human":
            print(text)
            return None
        return text
