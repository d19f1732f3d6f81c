"""The phases of a Baohuang deal, as named in views and records.

    shandong: [grab window] -> call / yield -> [forcing | void deal] -> declarations -> play
    japanese: [tribute] -> emperor card kept or handed on -> declarations -> play

A StrEnum: each phase is its own name as a string, so a view's ``"phase"`` reads (and
compares, and serialises) as the plain text it always was.
"""

from __future__ import annotations

import enum


class Phase(enum.StrEnum):
    GRAB = "grab"  # shandong: every seat but the marked joker's holder asked "grab?" at once
    CALL = "call"  # shandong: the holder calls a card, yields the joker on, or grabs
    FORCE = "force"  # shandong: nobody called; a seat holding three identical cards must call
    EMPEROR_CARD = "emperor card"  # japanese: the holder keeps the emperor card or hands it on
    DECLARE = "declare"  # every seat asked at once: declare, rebel or pass
    PLAY = "play"
    OVER = "over"
