"""A seat's part in a finished trial, in the game's words (``Game.part``, for player pages):
the offices it held (the emperor, 包青天 the judge, the captor, the officers, the executor),
then what became of it: as the captor, whether it caught the criminal; as a criminal who got
away, that it did; as the accused, the punishment carried out (how many times) or the
pardon; with no office and no trial, nothing more. The web catalog words them
(``bao_qingtian.<key>``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yamen.engine import Word


def part(result: Mapping[str, Any], seat: int) -> list[Word]:
    offices = [name for name, holder in result["offices"].items() if holder == seat]
    if result["emperor"] == seat:
        offices.insert(0, "emperor")
    words: list[Word] = [{"key": f"office.{name}"} for name in offices]
    caught = result["why"] == "caught"
    if result["offices"].get("captor") == seat:
        words.append({"key": "part.caught" if caught else "part.missed"})
    if seat in result["escaped"]:
        words.append({"key": "escaped"})
    if result["tried"] == seat:
        if result["verdict"] == "executed":
            words.append({"key": "part.punished", "params": {"n": result["count"]}})
        else:
            words.append({"key": "part.pardoned"})
    if not words:
        words.append({"key": "part.no_office"})
    return words
