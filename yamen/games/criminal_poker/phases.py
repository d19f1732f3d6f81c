"""Criminal Poker's phases, in order (``view()["phase"]``):

    opening (all suspects at once, sealed) -> [next -> turn -> (reveal)] per suspect
    -> deck look (automatic, private) -> questioning -> arrest (sheriff mode)
                                                     -> vote (detective mode, sealed)
                                                        -> three or more tied: questioning
                                                           and a re-vote, at most twice more
    -> over

A phase is a ``str`` (a StrEnum): views, records and the live protocol carry the plain words.
See docs/rules/criminal_poker.md.
"""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    OPENING = "opening"  # every suspect reveals one of its two cards, sealed
    NEXT = "next"  # the investigator calls the next suspect
    TURN = "turn"  # that suspect skips or draws
    REVEAL = "reveal"  # after drawing: reveal a face-down card or keep them hidden
    QUESTIONING = "questioning"  # the investigator ends it when the talking is done
    ARREST = "arrest"  # sheriff mode: the sheriff arrests a suspect
    VOTE = "vote"  # detective mode: everyone names a player to arrest, sealed
    OVER = "over"


# Each member as a module constant too, for the rules' per-decision code: in Python 3.11,
# reading ``Phase.TURN`` goes through the enum's metaclass, several times slower than a global.
OPENING, NEXT, TURN, REVEAL = Phase.OPENING, Phase.NEXT, Phase.TURN, Phase.REVEAL
QUESTIONING, ARREST, VOTE, OVER = Phase.QUESTIONING, Phase.ARREST, Phase.VOTE, Phase.OVER

WINDOWS = (OPENING, VOTE)  # simultaneous, sealed questions
TURN_PHASES = (NEXT, TURN, REVEAL)  # the suspects' turns
