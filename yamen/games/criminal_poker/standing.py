"""A seat's part in a finished game, in the game's words (``Game.part``, for player pages):
its identity (市民, 警長, 偵探, 幕後, 反社會份子), whether it was the culprit (兇手) and
whether it was arrested, then how the game ended: the culprit caught, or got away. The web
catalog words them (``criminal_poker.<key>``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yamen.engine import Word


def part(result: Mapping[str, Any], seat: int) -> list[Word]:
    mine = result["seats"][seat]
    words: list[Word] = [{"key": f"role.{mine['identity']}"}]
    if mine["culprit"]:
        words.append({"key": "culprit"})
    if mine["arrested"]:
        words.append({"key": "arrested"})
    words.append({"key": "part.caught" if result["caught"] else "part.got_away"})
    return words
