"""The Bao Qing-tian trial 包青天審案: 3 to 50 players, an emperor, a judge, a captor hunting a
hidden criminal card, and a sentence built by five officers."""

from __future__ import annotations

from typing import Any

from yamen.engine import Game
from yamen.errors import OptionsError
from yamen.games.bao_qingtian import text
from yamen.games.bao_qingtian.actions import MAX_SEATS, NUM_ACTIONS
from yamen.games.bao_qingtian.deal import parse_deal
from yamen.games.bao_qingtian.rules import BaoQingtianState
from yamen.options import is_whole, require_bool, with_defaults

MIN_SEATS = 3
DEFAULTS: dict[str, Any] = {"players": 5, "find_by_drawing": False}

__all__ = ["NUM_ACTIONS", "BaoQingtian", "BaoQingtianState"]


class BaoQingtian(Game):
    name = "bao_qingtian"
    title = "Bao Qing-tian trial 包青天審案"

    @classmethod
    def normalize_options(cls, options: dict[str, Any] | None) -> dict[str, Any]:
        opts = with_defaults(options, DEFAULTS)
        players = opts["players"]
        if not is_whole(players) or not MIN_SEATS <= players <= MAX_SEATS:
            raise OptionsError(f"players must be a whole number from {MIN_SEATS} to {MAX_SEATS}")
        require_bool(opts, "find_by_drawing")
        return opts

    @classmethod
    def new(cls, options: dict[str, Any], seed: int, deal: Any = None) -> BaoQingtianState:
        explicit = None if deal is None else parse_deal(deal, options["players"])
        return BaoQingtianState(options, seed, explicit)

    @classmethod
    def render_text(cls, view: dict[str, Any]) -> str:
        return text.render(view)
