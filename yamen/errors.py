"""The exceptions every front (server, CLI, bots, RL) may catch.

Messages are written for the seat that caused them: they never name a card or role that seat
may not see.
"""


class YamenError(Exception):
    """Base of every error Yamen raises on purpose."""


class NotationError(YamenError, ValueError):
    """A card or action could not be read; names the bad token."""

    def __init__(self, token: str, reason: str):
        self.token = token
        self.reason = reason
        super().__init__(f"bad token {token!r}: {reason}")


class OptionsError(YamenError, ValueError):
    """Game options that do not describe a playable game."""


class IllegalAction(YamenError):
    """An action that is not legal now; the state is unchanged."""


class NotYourTurn(IllegalAction):
    """A seat acted while it owes no decision."""


class RecordError(YamenError, ValueError):
    """A game record that cannot be read or replayed."""
