"""The view's declared shape (view.py's TypedDicts) is the shape seat_view builds.

The declarations are what the type checker holds the bots and the text renderer to, and they
are not checked at run time (they cost nothing there), so this test checks them against the
views of whole random matches: every key built is declared, every required key is built, and
every value has its declared type, nested parts included.
"""

import functools
import random
import types
import typing

import pytest

from tests.games.baohuang.helpers import new
from yamen.games.baohuang.view import BaohuangView, SeatView


@functools.cache
def declared(typed_dict: type) -> tuple[dict[str, object], set[str]]:
    """A TypedDict's keys with their types, and the required keys (not ``__required_keys__``:
    under postponed annotations Python 3.11 cannot tell NotRequired there)."""
    marked = typing.get_type_hints(typed_dict, include_extras=True)
    required = {k for k, h in marked.items() if typing.get_origin(h) is not typing.NotRequired}
    return typing.get_type_hints(typed_dict), required


def mismatches(value: object, hint: object, where: str) -> list[str]:
    """Where ``value`` differs from the type ``hint`` (TypedDicts, lists, dicts, unions and
    plain classes: what the view's declarations use)."""
    if typing.is_typeddict(hint):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        hints, required = declared(hint)
        found = [f"{where}.{k}: missing" for k in required - value.keys()]
        found += [f"{where}.{k}: not declared" for k in value.keys() - hints.keys()]
        for key in value.keys() & hints.keys():
            found += mismatches(value[key], hints[key], f"{where}.{key}")
        return found
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if any(not mismatches(value, option, where) for option in args):
            return []
        return [f"{where}: {value!r} is not {hint}"]
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        return [e for i, v in enumerate(value) for e in mismatches(v, args[0], f"{where}[{i}]")]
    if origin is dict:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not a dict"]
        return [
            e
            for k, v in value.items()
            for e in mismatches(k, args[0], f"{where} key") + mismatches(v, args[1], where)
        ]
    assert isinstance(hint, type), f"{where}: no check for {hint}"
    return [] if isinstance(value, hint) else [f"{where}: {value!r} is not {hint.__name__}"]


@pytest.mark.parametrize(
    ("variant", "grabbing", "seen"),
    [
        ("shandong", True, {"grab", "call", "play", "over"}),
        ("shandong", False, {"call", "declare", "play", "over"}),  # random seats grab often
        ("japanese", True, {"emperor card", "declare", "play", "over"}),
    ],
)
def test_every_view_of_a_match_has_its_declared_shape(variant, grabbing, seen):
    """Three deals (japanese tribute, the history), spectators and seats, every phase."""
    phases = set()
    for seed in range(3):  # random seats grab often: three matches see a call too
        state = new(variant, seed=seed, deals=3, grabbing=grabbing)
        rng = random.Random(seed)
        decisions = 0
        while True:
            if state.phase != "play" or decisions % 25 == 0:
                phases.add(state.phase)
                assert mismatches(state.view(None), BaohuangView, "spectator") == []
                for seat in range(5):
                    view = state.view(seat)
                    assert mismatches(view, BaohuangView, f"seat {seat}") == []
                    assert mismatches(view, SeatView, f"seat {seat}") == []
            if state.over:
                break
            seat = rng.choice(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
            decisions += 1
    assert seen <= phases


def test_the_checker_sees_a_wrong_key_and_a_wrong_type():
    view = new(seed=3).view(0)
    assert mismatches(view, SeatView, "v") == []
    assert mismatches({**view, "hnad": []}, SeatView, "v") == ["v.hnad: not declared"]
    wrong = {**view, "hand_sizes": [*view["hand_sizes"][:4], "43"]}
    assert mismatches(wrong, SeatView, "v") == ["v.hand_sizes[4]: '43' is not int"]
    spectator = new(seed=3).view(None)
    assert "v.hand: missing" in mismatches(spectator, SeatView, "v")
