"""The trial's phases, in order (``view()["phase"]``):

    draw (until someone holds an emperor) -> name -> [appoint | draw] judge, captor
    -> capture / guess (turns, each followed by the captor's guess or wait)
    -> [appoint | draw] plus, minus, times, divide, severity officers
    -> punish -> plus -> minus -> times -> divide -> severity
    -> [appoint | draw] executor -> verdict -> [carry out] -> over

A phase is a ``str`` (a StrEnum): views, records and the live protocol carry the plain words.
The officers' own phases are their names (``sentence.OFFICERS``). See docs/rules/bao_qingtian.md.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    DRAW = "draw"  # discard/draw turns until someone holds what is sought
    NAME = "name"  # the emperor names the criminal card
    APPOINT = "appoint"  # an office's appointer names its holder
    CAPTURE = "capture"  # a turn of the capture
    GUESS = "guess"  # the captor's decision after that turn
    PUNISH = "punish"  # the judge: punishment and count
    PLUS = "plus"
    MINUS = "minus"
    TIMES = "times"
    DIVIDE = "divide"
    SEVERITY = "severity"  # light or heavy
    VERDICT = "verdict"  # the emperor: execute or pardon
    CARRY_OUT = "carry out"  # the executor confirms
    OVER = "over"


# Each member as a module constant too, for the rules' per-decision code: in Python 3.11,
# reading ``Phase.DRAW`` goes through the enum's metaclass, several times slower than a global.
DRAW, NAME, APPOINT, CAPTURE = Phase.DRAW, Phase.NAME, Phase.APPOINT, Phase.CAPTURE
GUESS, PUNISH = Phase.GUESS, Phase.PUNISH
PLUS, MINUS, TIMES, DIVIDE = Phase.PLUS, Phase.MINUS, Phase.TIMES, Phase.DIVIDE
SEVERITY, VERDICT, CARRY_OUT, OVER = Phase.SEVERITY, Phase.VERDICT, Phase.CARRY_OUT, Phase.OVER

TURNS = (DRAW, CAPTURE)  # the phases in which a seat discards and draws
OFFICER_PHASES = (PLUS, MINUS, TIMES, DIVIDE)  # in the order they act (sentence.OFFICERS)
