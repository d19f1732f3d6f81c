"""A room's own settings (not the game's options), read against a declared schema.

Every setting a client may send is declared in :data:`SCHEMA`: its kind, its bounds and
whether it may be null. A room is created only with settings that pass; anything else is an
:class:`OptionsError` naming the setting, and nothing is stored. The stand-in must be one of
the game's bots by its plain name: a bot's budget (how long it may think) is the server's, set
by :class:`yamen.server.thinking.Thinker`, never the room's, so a spec with arguments
(``search:seconds=null``) is refused.

Settings stored by an older server are read leniently (:meth:`Settings.stored`): a value that
no longer passes falls back to its default, logged, so that one bad row cannot stall a room or
stop a restart.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from yamen.bots import bot_names
from yamen.errors import OptionsError

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Number:
    """A number of seconds from ``low`` to ``high`` (null too when ``nullable``)."""

    low: float
    high: float
    nullable: bool = False

    def check(self, name: str, value: Any, game: str) -> None:
        if value is None and self.nullable:
            return
        number = isinstance(value, int | float) and not isinstance(value, bool)
        if number and self.low <= value <= self.high:
            return
        null = ", or null" if self.nullable else ""
        message = f"{name} must be from {self.low:g} to {self.high:g} seconds{null}"
        raise OptionsError(message, "setting_range", setting=name, low=self.low, high=self.high)


@dataclass(frozen=True)
class Count:
    """A whole number from ``low`` to ``high`` (of actions, say)."""

    low: int
    high: int

    def check(self, name: str, value: Any, game: str) -> None:
        if type(value) is int and self.low <= value <= self.high:
            return
        message = f"{name} must be a whole number from {self.low} to {self.high}"
        raise OptionsError(message, "setting_count", setting=name, low=self.low, high=self.high)


@dataclass(frozen=True)
class BotName:
    """One of the game's bots by its plain name (no arguments), or null."""

    def check(self, name: str, value: Any, game: str) -> None:
        known = bot_names(game)
        if value is None or (isinstance(value, str) and value in known):
            return
        raise OptionsError(
            f"{name} must be one of the game's bots ({', '.join(known)}) by name, or null",
            "setting_bot",
            setting=name,
        )


@dataclass(frozen=True)
class Switch:
    """On or off (true or false)."""

    def check(self, name: str, value: Any, game: str) -> None:
        if isinstance(value, bool):
            return
        raise OptionsError(f"{name} must be true or false", "setting_switch", setting=name)


FILL_MOST = 600  # seconds: the longest a play-now table may wait for people

# name -> (rule, what it is); the documented schema of room settings (docs/server.md).
SCHEMA: dict[str, tuple[Number | Count | BotName | Switch, str]] = {
    "turn_seconds": (Number(1, 86400, nullable=True), "a person's time for one decision"),
    "bot_delay": (Number(0, 10), "the least time a bot's answer takes to reach the table"),
    "away_seconds": (Number(0, 3600), "a gone player's seat is played by a bot after this"),
    "stand_in": (BotName(), "the bot for timers and gone players; null: the game's best"),
    "talk_seconds": (Number(0, 3600), "with people seated, how long a talking phase lasts"),
    "deal_pause": (Number(0, 3600), "the break between two deals of a game; 0: none"),
    "spectator_delay": (Count(0, 1000), "spectators see the game this many actions behind"),
    "table_aids": (Switch(), "show the table aids a game offers, such as a card counter"),
    "play_now": (Switch(), "a play-now table: found by the lobby's play now, filled by bots"),
    "fill_seconds": (Number(1, FILL_MOST), "a play-now table waits this long, then bots fill it"),
}


@dataclass
class Settings:
    """A room's own settings; see :data:`SCHEMA`."""

    turn_seconds: float | None = 60.0  # a person's time for one decision; None: no timer
    bot_delay: float = 0.8  # seconds a bot's answer waits at least, so people can follow
    away_seconds: float = 30.0  # a gone player's seat is played by a bot after this
    stand_in: str | None = None  # the bot for timers and gone players; None: the game's best
    talk_seconds: float = 60.0  # with people seated, a talking phase (State.talk) lasts this
    # long unless its seat ends it first: a bot waits it out, a person's timer is this
    deal_pause: float = 30.0  # after a deal of several (engine.DEAL_OVER), the table waits
    # this long, or until every person seated says they are ready; 0: no break
    spectator_delay: int = 0  # spectators see a game in progress this many actions behind
    # (yamen/server/delay.py); 0: live
    table_aids: bool = True  # the page shows the aids a game's table offers (a card counter:
    # public facts worked out for the player); the server only stores and passes it on
    play_now: bool = False  # a public table waiting for people, found by the lobby's play now
    # (yamen/server/play_now.py); before its first game it fills itself (filling.py)
    fill_seconds: float = 20.0  # a play-now table waits this long from its opening, then its
    # empty seats get the stand-in bot and its first game starts

    @classmethod
    def read(cls, data: Any, game: str) -> Settings:
        """Settings a client sent for a room of ``game``; OptionsError when any is bad."""
        if data is None:
            data = {}
        if not isinstance(data, dict):
            raise OptionsError("settings must be an object of name: value", "not_object")
        unknown = set(data) - set(SCHEMA)
        if unknown:
            listed = ", ".join(sorted(map(str, unknown)))
            raise OptionsError(
                f"unknown room setting(s): {listed}; known: {', '.join(SCHEMA)}",
                "setting_unknown",
                names=listed,
            )
        for name, value in data.items():
            SCHEMA[name][0].check(name, value, game)
        return cls(**data)

    @classmethod
    def stored(cls, data: Any, game: str) -> Settings:
        """Settings as stored: each value that does not pass today falls back to its default."""
        data = data if isinstance(data, dict) else {}
        good = {}
        for name, value in data.items():
            try:
                if name not in SCHEMA:
                    raise OptionsError(f"unknown room setting {name!r}")
                SCHEMA[name][0].check(name, value, game)
            except OptionsError as exc:
                log.warning("stored room setting ignored: %s", exc)
                continue
            good[name] = value
        return cls(**good)

    def to_json(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in SCHEMA}
