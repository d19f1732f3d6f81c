"""Each game's declared view type (its view.py's TypedDict) is the view it builds: every view of
every phase, for each seat and a spectator, has all the required keys, no key undeclared, and
values of the declared kinds, nested records included. mypy checks the code that reads the
views against the declarations (tests/core/test_lint.py); this checks the declarations against
the views."""

from __future__ import annotations

import functools
import random
import types
import typing
from enum import Enum

import pytest

from tests.conformance import checked, declared, every_case
from yamen.engine import new_game

# every registered game, by its declaration (tests/conformance.py)
CASES = [case.param() for case in every_case()]
SEEDS, STEPS = 4, 400  # games a case: at most SEEDS, fewer once they have made STEPS decisions
FIRST, EVERY = 40, 10  # the steps of a game checked, beside the first of each phase and the end


@functools.cache
def fields(kind) -> tuple[dict, frozenset]:
    """A TypedDict's keys with their types, and its required keys. (Read from the hints: the
    views' modules postpone annotations, so at run time ``__required_keys__`` misses
    ``NotRequired``.)"""
    hints = typing.get_type_hints(kind, include_extras=True)
    optional = {k for k, h in hints.items() if typing.get_origin(h) is typing.NotRequired}
    plain = {k: typing.get_args(h)[0] if k in optional else h for k, h in hints.items()}
    return plain, frozenset(hints.keys() - optional)


@functools.cache
def shape(kind) -> tuple[bool, object, tuple]:
    """Whether a type is a TypedDict, its origin and its arguments (read once per type)."""
    return typing.is_typeddict(kind), typing.get_origin(kind), typing.get_args(kind)


PLAIN = (str, int, bool, float)


def conforms(value, kind, where: str) -> None:
    """Assert that ``value`` is of the declared type ``kind`` (the forms views use)."""
    typed, origin, args = shape(kind)
    if typed:
        assert isinstance(value, dict), where
        hints, required = fields(kind)
        missing = required - value.keys()
        unknown = value.keys() - hints.keys()
        assert not missing and not unknown, f"{where}: missing {missing}, undeclared {unknown}"
        for key, item in value.items():
            conforms(item, hints[key], f"{where}.{key}")
        return
    if origin in (typing.Union, types.UnionType):
        errors = []
        for option in args:
            try:
                conforms(value, option, where)
                return
            except AssertionError as exc:
                errors.append(str(exc))
        raise AssertionError(f"{where}: {value!r} is none of {kind}: {errors}")
    if origin is list:
        assert isinstance(value, list), where
        if args[0] in PLAIN and all(type(item) is args[0] for item in value):
            return  # (the common case, without a path for each item)
        for i, item in enumerate(value):
            conforms(item, args[0], f"{where}[{i}]")
    elif origin is dict:
        assert isinstance(value, dict), where
        for key, item in value.items():
            conforms(key, args[0], f"{where} key")
            conforms(item, args[1], f"{where}[{key!r}]")
    elif kind is type(None):
        assert value is None, where
    elif isinstance(kind, type) and issubclass(kind, Enum):
        assert isinstance(value, kind), f"{where}: {value!r} is not a {kind.__name__}"
    else:
        assert type(value) is kind, f"{where}: {value!r} is not {kind}"  # (bool is not int)


def check_views_match_their_type(game: str, options: dict, seed: int) -> int:
    """The contract: every view a random game shows, each seat's and a spectator's, is of the
    type the game declares (``Game.view_type``): at the first step of each phase, the first
    FIRST steps, one in EVERY after them, and the end (of a long match, among the steps
    tests/conformance.py ``checked``). The decisions it made."""
    kind = declared(game, "view_type")
    state = new_game(game, options, seed=seed)
    rng = random.Random(seed)
    step, phases = 0, set()
    while True:
        phase = state.view(None).get("phase") if checked(step) else None
        new = phase not in phases
        if state.over or (checked(step) and (new or step < FIRST or step % EVERY == 0)):
            phases.add(phase)
            for seat in [None, *range(state.num_seats)]:
                conforms(state.view(seat), kind, f"{game} seed {seed} step {step} seat {seat}")
        if state.over:
            break
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        step += 1
    return step


@pytest.mark.parametrize(("game", "options"), CASES)
def test_every_view_is_of_its_declared_type(game, options):
    seed = steps = 0
    while seed < SEEDS and steps < STEPS:  # games of a case: a long one is enough alone
        steps += check_views_match_their_type(game, options, seed)
        seed += 1
