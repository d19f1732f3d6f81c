"""Bots: players that see exactly what their seat sees.

A bot is handed a seat's ``view`` (``state.view(seat)``, JSON-ready data) and that seat's legal
actions, and returns one of them. It never receives the game's state, so it cannot see a hidden
card; game-specific bots may import their game's pure helpers (notation, set tables) to read the
view and the action ids, and a search bot may build states of its own from the view (sampled
deals consistent with it, bots/baohuang/determinize.py), never the real one.

Bots are registered by game and name; ``random`` serves every game. The CLI, tournaments, the
server and the RL layer only use :func:`make_bot` and :func:`bot_names`.

A bot *spec* is a name with optional keyword arguments for the bot's constructor, each after a
colon: ``search:iterations=200:seconds=null``. Values are read as JSON when they can be
(``200``, ``0.5``, ``null``, ``false``), else taken as strings. Specs let tournaments and
benchmarks measure a bot at a reduced, reproducible budget; the spec is also the bot's label in
their results, so two budgets of one bot can meet.
"""

from __future__ import annotations

import importlib
import inspect
import json
import random
from collections.abc import Mapping
from typing import Any, Protocol

from yamen.engine import Action, State, game_names, game_type
from yamen.errors import OptionsError
from yamen.table import Table


class Bot(Protocol):
    name: str

    def choose(self, view: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        """One of ``legal``, for the seat whose ``view`` this is. A game's own bot reads the
        view through the game's declared type (its view.py), cast in its ``choose``."""


class RandomBot:
    """Uniformly random legal actions: the baseline every other bot must beat."""

    name = "random"

    def choose(self, view: Mapping[str, Any], legal: list[Action], rng: random.Random) -> Action:
        return rng.choice(legal)


# game -> bot name -> "module:Class", as each game declares its bots (``Game.bots``: games
# name their bots as data and never import them); "random" is available for every game. An
# entry may add default arguments as a spec does, "module:Class:key=value" (one generic class
# serving a game with the game's own data: the learned bot and the checkpoint it ships).
REGISTRY: dict[str, dict[str, str]] = {name: dict(game_type(name).bots) for name in game_names()}


def bot_names(game: str) -> list[str]:
    return sorted({"random", *REGISTRY.get(game, {})})


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name:key=value:...`` -> (name, keyword arguments); see the module's docstring."""
    name, *pairs = spec.strip().split(":")
    params: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip().isidentifier():
            raise OptionsError(f"bot spec {spec!r}: {pair!r} is not key=value")
        try:
            params[key.strip()] = json.loads(text)
        except json.JSONDecodeError:
            params[key.strip()] = text
    return name.strip(), params


def bot_class(game: str, name: str) -> type:
    """The class registered as ``name`` for ``game`` (OptionsError when there is none)."""
    if name == "random":
        return RandomBot
    try:
        module, attr, _ = _entry(REGISTRY[game][name])
    except KeyError:
        known = ", ".join(bot_names(game))
        raise OptionsError(f"no bot {name!r} for {game}; known: {known}") from None
    return getattr(importlib.import_module(module), attr)


def _entry(entry: str) -> tuple[str, str, dict[str, Any]]:
    """A registry entry: module, class, default arguments."""
    module, rest = entry.split(":", 1)
    attr, defaults = parse_spec(rest)
    return module, attr, defaults


def thinks(game: str, name: str) -> bool:
    """Whether the bot takes a time budget (a ``seconds`` argument): its decisions cost what
    it is given, so whoever runs it sets the budget (a server: yamen/server/thinking.py)."""
    return "seconds" in inspect.signature(bot_class(game, name)).parameters


def make_bot(game: str, spec: str) -> Bot:
    """A fresh bot from a spec (a registered name, with optional ``:key=value`` arguments)."""
    name, params = parse_spec(spec)
    if name == "random" and not params:
        return RandomBot()
    try:
        module, attr, defaults = _entry(REGISTRY[game][name])
    except KeyError:
        if name == "random":
            raise OptionsError(f"bot spec {spec!r}: the random bot takes no arguments") from None
        known = ", ".join(bot_names(game))
        raise OptionsError(f"no bot {name!r} for {game}; known: {known}") from None
    cls = getattr(importlib.import_module(module), attr)
    wrong = _wrong_kinds(cls, params)
    if wrong:
        raise OptionsError(f"bot spec {spec!r}: {'; '.join(wrong)}")
    try:
        return cls(**{**defaults, **params})
    except TypeError:  # an unknown keyword, or a value of the wrong kind
        raise OptionsError(f"bot spec {spec!r}: {_bad_arguments(name, cls, params)}") from None


KIND_WORDS = {bool: "true or false", int: "a number", float: "a number", str: "a word"}


def _wrong_kinds(cls: type, params: dict[str, Any]) -> list[str]:
    """Arguments whose value is not of the kind their default is (a list for a number): they
    would fail deep in a game, far from the spec that gave them."""
    wrong = []
    for key, value in params.items():
        parameter = inspect.signature(cls).parameters.get(key)
        if parameter is None or parameter.default in (None, inspect.Parameter.empty):
            continue
        if value is None and "None" in str(parameter.annotation):
            continue
        want = type(parameter.default)
        if want is bool:
            fits = isinstance(value, bool)
        elif want in (int, float):
            fits = isinstance(value, int | float) and not isinstance(value, bool)
        else:
            fits = isinstance(value, want)
        if not fits:
            wrong.append(f"{key} must be {KIND_WORDS.get(want, want.__name__)}")
    return wrong


def _bad_arguments(name: str, cls: type, params: dict[str, Any]) -> str:
    """What is wrong with a bot's arguments, in words (not Python's TypeError text)."""
    taken = list(inspect.signature(cls).parameters)
    unknown = [key for key in params if key not in taken]
    takes = f"it takes {', '.join(taken)}" if taken else "it takes no arguments"
    if unknown:
        return f"the {name} bot has no argument {', '.join(unknown)} ({takes})"
    return f"a value of the wrong kind for the {name} bot ({takes})"


def bot_move(bot: Bot, state: State, seat: int, rng: random.Random) -> Action:
    """Ask ``bot`` for ``seat``'s action: it gets the seat's view and legal actions only."""
    legal = state.legal(seat)
    action = bot.choose(state.view(seat), list(legal), rng)
    if action not in legal:
        raise RuntimeError(f"bot {bot.name!r} chose an illegal action {action!r}")
    return action


def play_bots(state: State, bots: list[Bot], rng: random.Random) -> int:
    """Play to the end, seat i by ``bots[i]``; the number of decisions made. When several seats
    owe a decision, the first pending seat answers first."""
    return Table(state).play(lambda seat: bot_move(bots[seat], state, seat, rng))
