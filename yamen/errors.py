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
    """Game options that do not describe a playable game. ``reason`` names the kind of
    refusal and ``params`` its variable parts, so a front can say it in its own language (the
    browser's catalogs: ``error.bad_options.<reason>``, or ``<game>.error.<reason>`` for a
    game's own check); the message is the English of it. No reason: only the message."""

    def __init__(self, message: str, reason: str = "", **params: Any):
        super().__init__(message)
        self.reason, self.params = reason, params

    def __reduce__(self) -> Any:  # pickled whole (a bot worker's process may raise one)
        return (_options_error, (str(self), self.reason, self.params))


def _options_error(message: str, reason: str, params: dict[str, Any]) -> OptionsError:
    return OptionsError(message, reason, **params)


class IllegalAction(YamenError):
    """An action that is not legal now; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """A seat acted while it owes no decision."""


class RecordError(YamenError, ValueError):
    """A game record that cannot be read or replayed."""
