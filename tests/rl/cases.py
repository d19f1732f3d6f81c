"""The environments under test: every registered game that declares an encoder, once per value
of each of its top-level choice options (a variant, a mode), plus the cases listed below. A
game that gains an encoder gains every generic test of tests/rl without a line here."""

from __future__ import annotations

from typing import Any

from yamen.engine import game_type
from yamen.rl import learnable_games

# (game, options) beyond the generic cases: matches of several deals, modes by player count.
EXTRA: list[tuple[str, dict[str, Any]]] = [
    ("baohuang", {"variant": "japanese", "deals": 2}),  # tribute from the second deal on
    ("baohuang", {"variant": "shandong", "deals": 2, "grabbing": False}),
    # house rules (issues 16, 25): every one away from the seeds' in one case per variant
    (
        "baohuang",
        {
            "variant": "shandong",
            "hard_pass": True,
            "lowest_held": True,
            "royalist_declares": "hidden",
            "solo_declares": False,
            "cede": False,
        },
    ),
    (
        "baohuang",
        {
            "variant": "japanese",
            "deals": 2,
            "hard_pass": True,
            "lowest_held": True,
            "solo_declares": False,
            "guard_by_fourth": True,
            "tribute": False,
        },
    ),
    # the first reading of 憋三, as games recorded with it are replayed (an old record's edition)
    ("baohuang", {"variant": "shandong", "lowest_last": True, "edition": 1}),
    # every player count, special roles (padded to six seats: one layout for all)
    ("criminal_poker", {"mode": "sheriff", "players": 4, "mastermind": True}),
    ("criminal_poker", {"mode": "sheriff", "players": 6, "mastermind": True, "antisocial": True}),
    ("criminal_poker", {"mode": "detective", "players": 3}),
    ("criminal_poker", {"mode": "detective", "players": 5, "antisocial": True}),
    # the seat count fixes the layout: the smallest table, a large one drawing for offices
    ("bao_qingtian", {"players": 3}),
    ("bao_qingtian", {"players": 12, "find_by_drawing": True}),
    ("bao_qingtian", {"players": 50}),
]


def generic_cases(name: str) -> list[tuple[str, dict[str, Any]]]:
    choices = [
        option
        for option in game_type(name).declaration
        if option.kind == "choice" and option.applies is None
    ]
    found = [(name, {o.name: value}) for o in choices for value in o.choices]
    return found or [(name, {})]


def cases() -> list[tuple[str, dict[str, Any]]]:
    learnable = learnable_games()
    found = [case for name in learnable for case in generic_cases(name)]
    return found + [(name, options) for name, options in EXTRA if name in learnable]


CASES = cases()
IDS = [name + "".join(f"-{k}={v}" for k, v in options.items()) for name, options in CASES]
