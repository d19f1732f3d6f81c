"""The (game, options) cases every contract of the suite runs, derived from the registry and
each game's declaration, as OpenSpiel's ``RandomSimTest`` and PettingZoo's ``api_test`` run over
every registered environment: registering a game enrols it in every contract (random play
ends, reading never changes state, notation round-trips, views match their declared type,
records replay, the table runner, terminal play, frames, live play over the server, the leak
audit, a whole game in the browser). No contract names a game.

How cases are chosen, from what a game declares (``Game.declaration``, ``Game.presets``), in
five nested sets, so that the expensive contracts take few:

- :func:`defaults`: each game with its defaults. The browser's whole games (one per game and
  language, ~10 s each), the leak audit's planted leaks, the table runner.
- :func:`served`: the defaults and one case per value of each top-level choice (a variant, a
  mode): the rules a table can be told apart by. Live play over the server, the leak audit
  (a whole served game each, seconds), the bots' games.
- :func:`rulesets`: those and every preset: the rules tables actually play. Contracts that play
  a few dozen games a case (phases, frames, notation fuzzing, terminal play).
- :func:`table_sizes`: the served cases and each game's smallest and largest table (the
  bots' games).
- :func:`every_case`: the rulesets and, one option at a time away from the defaults: each numeric
  option at its two extremes (a seat option within the default table), each value of each
  other choice, each true/false flipped (an option that applies only under another's value
  is set with that value). Contracts that play one or two games a case (random play ends,
  reading, notation round-trip, view types, records replay). Cases are deduplicated by the
  options the game reads (a preset that is the defaults is one case).
- :func:`under_each_choice`: those again under each top-level choice's values, for the one
  contract that only collects what random play meets (the events' words in the browser).

Extremes make long games (Baohuang's 50 deals: 23,000 decisions): contracts that check at every
step check at most :data:`BUDGET` steps of a game and a sample of the rest (:func:`checked`).
"""

from __future__ import annotations

import importlib
import json
import os
import random
from collections.abc import Iterator
from typing import Any, NamedTuple

import pytest

from yamen import engine
from yamen.engine import Game, State, game_names, game_type, get_game
from yamen.errors import OptionsError
from yamen.options import Option

BUDGET = 400  # steps of one game a per-step contract checks in full; then one in SAMPLE
SAMPLE = 97


class Case(NamedTuple):
    game: str
    options: dict[str, Any]
    why: str  # how the case was chosen: "default", "preset bie_liu_168", "deals=50"

    @property
    def id(self) -> str:
        return f"{self.game}-{self.why}"

    def param(self, *extra: Any) -> Any:
        """As a pytest parameter (``game``, ``options``, then ``extra``), named by its id."""
        return pytest.param(self.game, dict(self.options), *extra, id=self.id)


def _choices(name: str) -> list[Option]:
    """The top-level choices: options offered in the form that depend on no other."""
    return [
        option
        for option in game_type(name).declaration
        if option.kind == "choice" and option.applies is None and option.shown
    ]


def _dedup(cases: list[Case]) -> list[Case]:
    """Each distinct game once (by the options it reads), in order; a case the game refuses
    is an error here, named, since the declaration allowed it."""
    seen: list[tuple[str, dict[str, Any]]] = []
    kept = []
    for case in cases:
        try:
            read = get_game(case.game, dict(case.options)).options
        except OptionsError as exc:
            raise AssertionError(
                f"{case.id}: the declaration allows {case.options}: {exc}"
            ) from None
        if (case.game, read) not in seen:
            seen.append((case.game, read))
            kept.append(case)
    return kept


def defaults() -> list[Case]:
    return [Case(name, {}, "default") for name in game_names()]


def _served(name: str) -> list[Case]:
    cases = [Case(name, {}, "default")]
    for option in _choices(name):
        cases += [Case(name, {option.name: v}, f"{option.name}={v}") for v in option.choices]
    return cases


def served() -> list[Case]:
    return _dedup([case for name in game_names() for case in _served(name)])


def rulesets() -> list[Case]:
    found = []
    for name in game_names():
        found += _served(name)
        found += [Case(name, dict(p.options), f"preset {p.name}") for p in game_type(name).presets]
    return _dedup(found)


def _away_from_defaults(name: str) -> Iterator[Case]:
    """Each declared option moved, alone, to each value worth a case."""
    kind = game_type(name)
    for option in kind.declaration:
        base = {} if option.applies is None else {option.applies[0]: option.applies[1]}
        for value in _values(kind, option, base):
            yield Case(name, {**base, option.name: value}, f"{_label(base)}{option.name}={value}")


def _values(kind: type[Game], option: Option, base: dict[str, Any]) -> list[Any]:
    if option.kind == "bool":
        return [not option.default]
    if option.kind == "choice":
        return [v for v in option.choices if v != option.default]
    if option.kind in ("whole", "seat"):
        assert option.low is not None and option.high is not None, option.name
        high = option.high
        if option.kind == "seat":  # a seat of the table these options make
            high = min(high, get_game(kind.name, base).num_seats - 1)
        return sorted({option.low, high} - {option.default})
    return []  # data: the game reads it (its own tests give it data)


def _label(base: dict[str, Any]) -> str:
    return "".join(f"{k}={v}," for k, v in base.items())


def every_case() -> list[Case]:
    found = rulesets()
    for name in game_names():
        found += list(_away_from_defaults(name))
    return _dedup(found)


def under_each_choice() -> list[Case]:
    """:func:`every_case`, and each of its cases again under each value of each top-level
    choice: what shows only where two options meet (Baohuang's tribute, the japanese rules over
    several deals). The event words' contract: random play meets every kind of event. (An
    option that applies only under another value of the choice is left out there.)"""
    found = every_case()
    for case in list(found):
        for option in _choices(case.game):
            for value in option.choices:
                options = {**case.options, option.name: value}
                try:
                    get_game(case.game, options)
                except OptionsError:
                    continue
                found.append(Case(case.game, options, f"{option.name}={value},{case.why}"))
    return _dedup(found)


def table_sizes() -> list[Case]:
    """:func:`served` and, per game, the first case of :func:`every_case` at its fewest seats
    and at its most (the bots' games: a bot must play any table)."""
    found, every = served(), every_case()
    for name in game_names():
        mine = [case for case in every if case.game == name]
        seats = [get_game(name, case.options).num_seats for case in mine]
        found += [mine[seats.index(min(seats))], mine[seats.index(max(seats))]]
    return _dedup(found)


def checked(step: int) -> bool:
    """Whether a per-step contract checks this step of a game: every one of the first
    :data:`BUDGET`, then one in :data:`SAMPLE` (a long match's later deals are its first's)."""
    return step < BUDGET or step % SAMPLE == 0


def snapshot(state: State) -> str:
    """Everything a state holds and shows: every field (but its memos, ``State.MEMOS``, which
    anything may fill), every view, the legal moves."""
    fields = {}
    for cls in type(state).__mro__:
        for slot in getattr(cls, "__slots__", ()):
            if slot in state.MEMOS:
                continue
            value = getattr(state, slot, None)
            fields[slot] = value.getstate() if isinstance(value, random.Random) else value
    seats = range(state.num_seats)
    shown = [state.view(None), [state.view(s) for s in seats], [state.legal(s) for s in seats]]
    return repr(fields) + json.dumps(shown, default=str)


def load(spec: str) -> Any:
    """What a game declares as ``"module:name"`` (its view type, its phases)."""
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def declared(name: str, what: str) -> Any:
    """A game's declared ``view_type`` or ``phases``, loaded; a game that declares none fails
    the contract that reads it, saying what to declare."""
    spec = getattr(game_type(name), what)
    assert spec is not None, f"{name} declares no {what} (Game.{what}: 'module:name')"
    return load(spec)


# ----- registering a game for the tests -------------------------------------------------------

TOY = "toy"
TOY_SPEC = "tests.toy_game:Toy"


def register(monkeypatch: pytest.MonkeyPatch, name: str, spec: str) -> str:
    """Register ``spec`` as game ``name`` until the test ends, with its rules of visibility for
    the leak audit (tests/server/leak_audit.py: the audit's own oracle, written per game)."""
    monkeypatch.setitem(engine.REGISTRY, name, spec)
    from tests.server.leak_audit import RULES
    from tests.toy_game import AUDIT_RULES

    if spec.startswith("tests.toy_game:"):
        monkeypatch.setitem(RULES, name, AUDIT_RULES)
    return name


def register_for_the_run() -> None:
    """``YAMEN_TOY_GAME=1``: the toy game registered before the tests are collected, so that a
    run puts it through every contract (and every other test that reads the registry)."""
    if os.environ.get("YAMEN_TOY_GAME"):
        engine.REGISTRY[TOY] = TOY_SPEC
        from tests.server.leak_audit import RULES
        from tests.toy_game import AUDIT_RULES

        RULES[TOY] = AUDIT_RULES
