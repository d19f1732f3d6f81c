"""The Bao Qing-tian trial 包青天審案: 3 to 50 players, an emperor, a judge, a captor hunting a
hidden criminal card, and a sentence built by five officers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yamen.engine import Event, Game, Word
from yamen.games.bao_qingtian import standing, text
from yamen.games.bao_qingtian.actions import MAX_SEATS, NUM_ACTIONS
from yamen.games.bao_qingtian.deal import parse_deal
from yamen.games.bao_qingtian.rules import BaoQingtianState
from yamen.options import Option

MIN_SEATS = 3
DECLARATION = (
    Option("players", "whole", 5, "Players", low=MIN_SEATS, high=MAX_SEATS),
    Option("find_by_drawing", "bool", False, "Offices nobody holds are found by drawing"),
)

__all__ = ["NUM_ACTIONS", "BaoQingtian", "BaoQingtianState"]


class BaoQingtian(Game):
    name = "bao_qingtian"
    title = "Bao Qing-tian trial 包青天審案"
    seats = range(MIN_SEATS, MAX_SEATS + 1)
    declaration = DECLARATION
    bots = {"rules": "yamen.bots.bao_qingtian.rules:BaoQingtianRulesBot"}
    encoder = "yamen.games.bao_qingtian.encoding:BaoQingtianEncoder"
    view_type = "yamen.games.bao_qingtian.view:BaoQingtianView"
    phases = "yamen.games.bao_qingtian.phases:Phase"
    view_logs = ("guesses", "my_turns")  # the guesses made; the seat's own turns
    # places only put the winners first, and only the accused scores (minus its punishments):
    # what became of each seat is said in its words
    figures = ()
    __slots__ = ()

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        # the action ids are laid out for every table size (actions.py)
        self._fix(num_seats=options["players"], num_actions=NUM_ACTIONS)

    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> BaoQingtianState:
        explicit = None if deal is None else parse_deal(deal, options["players"])
        return BaoQingtianState(options, seed, explicit)

    @classmethod
    def part(cls, result: Mapping[str, Any], seat: int) -> list[Word]:
        return standing.part(result, seat)

    @classmethod
    def render_text(cls, view: Mapping[str, Any]) -> str:
        return text.render(view)

    @classmethod
    def event_text(cls, event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
        return text.event_text(event, me, view)
