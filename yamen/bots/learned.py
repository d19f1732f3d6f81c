"""A learned policy as a bot: it scores each legal action with a Q(s, a) network exported by
the trainer (yamen/rl/dmc.py) and plays the best, in numpy only (no PyTorch at play time).
What it plays with (the network's forward pass, bots/qnet.py; the game's encoder,
bots/encoding.py) sits here in the bots layer, which the server may reach; learning stays in
yamen/rl, which imports these, never the reverse.

Like every bot it reads only what it is handed: the seat's view and legal actions. The view
names its game and seat (``view["game"]``, ``view["seat"]``); the observation is
``encode(view, seat)`` and the actions' rows ``action_features(view, legal)``, so the bot can
see no more than the view shows (tests/rl check it decides alike on states that differ only in
hidden cards). Ties go to the first legal action: a decision is a function of (view, legal).

``path``: a ``.npz`` exported by ``yamen train``. Without one the bot plays the checkpoint a
game ships: a game registers the bot with ``package=<module>`` as a default argument
(``Game.bots``), and the bot takes the first ``learned*.npz`` in that package whose training
options agree with the view on every option the view shows (the variant, the mode).
"""

from __future__ import annotations

import functools
import os
import random
from collections.abc import Mapping
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from yamen.bots import Bot, make_bot, qnet
from yamen.bots.encoding import Encoder, encoder_for
from yamen.engine import Action, get_game
from yamen.errors import OptionsError


@functools.lru_cache(maxsize=16)
def _loaded(path: str, mtime: int) -> tuple[qnet.QNet, Encoder]:
    """A checkpoint and its game's encoder, read once per file version (a tournament makes a
    fresh bot for every game)."""
    net = qnet.load(path)
    game = get_game(net.meta["game"], net.meta["options"])
    return net, encoder_for(game)


def loaded(path: str | os.PathLike[str]) -> tuple[qnet.QNet, Encoder]:
    try:
        return _loaded(str(path), os.stat(path).st_mtime_ns)
    except (OSError, ValueError, KeyError) as exc:
        raise OptionsError(f"learned bot: cannot read {path}: {exc}") from None


@functools.cache
def shipped(package: str) -> list[Path]:
    """The checkpoints a package ships (``learned*.npz``), by name (listed once: asked on
    every decision, and a package's files do not change while it runs)."""
    folder = resources.files(package)
    return sorted(Path(str(f)) for f in folder.iterdir() if f.name.startswith("learned"))


def fits(meta: Mapping[str, Any], view: Mapping[str, Any]) -> bool:
    """Whether a checkpoint was trained on the view's game and on the options it shows."""
    if meta.get("game") != view.get("game"):
        return False
    return all(view.get(key, value) == value for key, value in meta.get("match", {}).items())


class LearnedBot:
    """The best legal action by a learned Q(s, a) (the module says the rules)."""

    name = "learned"

    def __init__(self, path: str | None = None, package: str | None = None):
        if path is None and package is None:
            raise OptionsError("the learned bot needs path=FILE.npz (yamen train exports one)")
        self.path = None if path is None else Path(path)
        self.package = package
        self.bases: dict[str, Bot] = {}  # an improvement checkpoint's base bot, once made
        if self.path is not None:
            loaded(self.path)  # a bad file fails when the bot is made, not mid-game

    def network(self, view: Mapping[str, Any]) -> tuple[qnet.QNet, Encoder]:
        """The checkpoint to play this view with."""
        if self.path is not None:
            return loaded(self.path)
        assert self.package is not None
        for path in shipped(self.package):
            net, encoder = loaded(path)
            if fits(net.meta, view):
                return net, encoder
        raise OptionsError(f"learned bot: {self.package} ships no checkpoint for this game")

    def scores(self, view: Mapping[str, Any], legal: list[Action]) -> np.ndarray:
        """Q of each legal action, in the order given."""
        net, encoder = self.network(view)
        return q_of(net, encoder, view, legal)

    def choose(self, view: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        if len(legal) == 1:
            return legal[0]
        net, encoder = self.network(view)
        base = net.meta.get("base")
        if base is None:
            return legal[int(np.argmax(q_of(net, encoder, view, legal)))]
        return self.improve(net, encoder, base, view, legal, rng)

    def improve(
        self,
        net: qnet.QNet,
        encoder: Encoder,
        base: str,
        view: Mapping[str, Any],
        legal: list[Action],
        rng: random.Random,
    ) -> Action:
        """An improvement of a base bot (yamen/rl/improve.py): its move, unless an action the
        checkpoint weighs (every legal one, or its proposer's best few) scores better by more
        than the margin it was fitted with."""
        if base not in self.bases:
            self.bases[base] = make_bot(view["game"], base)
        move = self.bases[base].choose(view, legal, rng)
        observation = encoder.encode(view, view["seat"])
        weighed = legal
        if net.proposer is not None:
            others = [a for a in legal if a != move]
            features = encoder.action_features(view, others)
            proposed = qnet.best_rows(net.proposer, observation, features, net.meta["proposals"])
            weighed = [move, *(others[i] for i in proposed)]
        q = net.q_values(observation, encoder.action_features(view, weighed))
        best = int(np.argmax(q))
        if q[best] - q[weighed.index(move)] > net.meta.get("margin", 0.0):
            return weighed[best]
        return move


def q_of(
    net: qnet.QNet, encoder: Encoder, view: Mapping[str, Any], actions: list[Action]
) -> np.ndarray:
    """Q of each of ``actions`` in the seat's view, in the order given."""
    observation = encoder.encode(view, view["seat"])
    return net.q_values(observation, encoder.action_features(view, actions))
