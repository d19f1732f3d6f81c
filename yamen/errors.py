"""The exceptions every front (server, CLI, bots, RL) may catch.

Messages are written for the seat that caused them: they never name a card or role that seat
may not see. Values in them are shown as a player would write them (:func:`shown`), never as
Python reprs (``None``, ``['x']``).
"""

import json
from typing import Any


def shown(value: Any) -> str:
    """A value in an error message: a string in quotes (``'nope'``), anything else as JSON
    (``null``, ``[1, 2]``, ``{"a": 1}``)."""
    if isinstance(value, str):
        return f"'{value}'"
    try:
        return json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return str(value)


class YamenError(Exception):
    """Base of every error Yamen raises on purpose."""


class NotationError(YamenError, ValueError):
    """A card or action could not be read; names the bad token."""

    def __init__(self, token: str, reason: str):
        self.token = token
        self.reason = reason
        super().__init__(f"bad token {shown(token)}: {reason}")


class OptionsError(YamenError, ValueError):
    """Game options that do not describe a playable game."""


class IllegalAction(YamenError):
    """An action that is not legal now; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """A seat acted while it owes no decision."""


class RecordError(YamenError, ValueError):
    """A game record that cannot be read or replayed."""
