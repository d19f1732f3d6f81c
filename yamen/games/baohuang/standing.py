"""A seat's part in a finished match, in the game's words (``Game.part``, for player pages):
its role in each deal, counted. The emperor, alone when nobody else is on its side (獨保:
the emperor holds the called card, or grabbed, or declared solo); the fourth called card's
holder, the royalist (保皇派), or under the japanese rules the marked small joker's, the
guard (警護官); everyone else a rebel (革命黨), the japanese rules' commoner (平民). The web
catalog words them as ``baohuang.role.<role>``, as the table does."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from yamen.engine import Word


def role(deal: Mapping[str, Any], seat: int, variant: str) -> str:
    """The seat's role in one finished deal (its summary in the result's ``deals``)."""
    japanese = variant == "japanese"
    if seat == deal["emperor"]:
        return "solo emperor" if deal["partner"] is None else "emperor"
    if seat == deal["partner"]:
        return "guard" if japanese else "royalist"
    return "commoner" if japanese else "rebel"


def part(result: Mapping[str, Any], seat: int) -> list[Word]:
    """The seat's roles, deal by deal, each once with the number of deals it had it, in the
    order first had."""
    roles = Counter(role(deal, seat, result.get("variant", "")) for deal in result.get("deals", []))
    return [
        {"key": f"role.{name}", "times": times} if times > 1 else {"key": f"role.{name}"}
        for name, times in roles.items()
    ]
