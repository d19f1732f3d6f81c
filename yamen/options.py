"""A game's options declared as data, and the checks every game makes, with one wording.

Each game declares its options as a tuple of :class:`Option` (as OpenSpiel declares its
parameters): name, kind, default, range or allowed values, the other option's value it applies
to, a short label. :func:`read_options` reads a room's or a record's options against that
declaration (unknown names, kinds, ranges, allowed values, defaults); what ties options to each
other (Criminal Poker's special roles by mode, a card list that must fit) stays game code. The
lobby renders its form from :meth:`Option.to_json`.

An option may be declared more than once, each time for another value of an earlier option
(``players`` by ``mode``): the declaration that applies gives the default and the range; when
none applies, the first declaration of that name still checks the value.

A game may also declare presets (:class:`Preset`): a name for a bundle of option values, the
rules a table plays by ("168 standard"), offered first by the lobby and the CLI.

An option added after games were recorded may declare a ``legacy`` value: what a stored game
(a record, a game in the server's database) that lacks the option was played with. New games
take the ``default``; ``read_options(..., stored=True)`` gives the legacy value instead, so
that an old record replays as it was played while the records layer knows no game. An option
with ``shown=False`` (a rules edition) is the game's, not a player's choice: forms leave it out,
records carry it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from yamen.errors import OptionsError, shown

Kind = Literal["bool", "whole", "seat", "choice", "data"]
"""``bool``: true or false; ``whole``: a whole number from ``low`` to ``high``; ``seat``: a seat
number (the game narrows the range to its table); ``choice``: one of ``choices``; ``data``: JSON
data the game reads itself (a card list)."""

NO_LEGACY: Any = type("NoLegacy", (), {"__repr__": lambda self: "NO_LEGACY"})()
"""An option declared with no legacy value: a stored game lacking it takes the default."""


@dataclass(frozen=True)
class Option:
    """One option of a game, as data."""

    name: str
    kind: Kind
    default: Any
    label: str  # a few words for a form; the rules in docs/rules/ say the rest
    low: int | None = None  # whole, seat: the smallest value
    high: int | None = None  # whole, seat: the largest value
    choices: Collection[str] = ()  # choice: the values allowed, the usual one first (a live
    # view such as a registry's keys is read when checked: a value registered later is allowed)
    nullable: bool = False  # null is allowed too (its meaning is in the label)
    applies: tuple[str, Any] | None = None  # (option, value): only when that option has it
    # choice: English words for some values (a catalog's fallback; the CLI's words)
    choice_labels: Mapping[str, str] = field(default_factory=dict)
    legacy: Any = NO_LEGACY  # the value a stored game that lacks this option was played with
    shown: bool = True  # False: not offered in a form (the game sets it; records carry it)

    def applies_to(self, options: dict[str, Any]) -> bool:
        return self.applies is None or options.get(self.applies[0]) == self.applies[1]

    def check(self, value: Any) -> None:
        """Raise :class:`OptionsError` unless ``value`` is of this option's kind and range."""
        if (value is None and self.nullable) or self._fits(value):
            return
        name, null = self.name, ", or null" if self.nullable else ""
        if self.kind == "bool":
            raise OptionsError(f"{name} must be true or false", "bool", option=name)
        if self.kind == "choice":
            allowed = " or ".join(shown(choice) for choice in self.choices)
            raise OptionsError(
                f"unknown {name} {shown(value)}: {name} must be {allowed}", "choice", option=name
            )
        bounds = {"option": name, "low": self.low, "high": self.high}
        if self.kind == "seat":
            message = f"{name} must be a seat from {self.low} to {self.high}{null}"
            raise OptionsError(message, "seat", **bounds)
        if self.applies is not None:  # "sheriff mode is for 4 to 6 players"
            case = f"{self.applies[1]} {self.applies[0]}"
            raise OptionsError(f"{case} is for {self.low} to {self.high} {name}", "range", **bounds)
        message = f"{name} must be a whole number from {self.low} to {self.high}{null}"
        raise OptionsError(message, "range", **bounds)

    def _fits(self, value: Any) -> bool:
        if self.kind == "bool":
            return isinstance(value, bool)
        if self.kind == "choice":
            return isinstance(value, str) and value in self.choices
        if self.kind in ("whole", "seat"):
            assert self.low is not None and self.high is not None, self.name
            return is_whole(value) and self.low <= value <= self.high
        return True  # data: the game reads it

    def to_json(self) -> dict[str, Any]:
        """The declaration as JSON, for a form: only the fields this kind uses."""
        data: dict[str, Any] = {"name": self.name, "kind": self.kind, "label": self.label}
        data["default"] = self.default
        if self.kind in ("whole", "seat"):
            data["low"], data["high"] = self.low, self.high
        if self.kind == "choice":
            data["choices"] = list(self.choices)
            data["choice_labels"] = {
                c: self.choice_labels[c] for c in data["choices"] if c in self.choice_labels
            }
        data["nullable"] = self.nullable
        applies = self.applies
        data["applies"] = None if applies is None else {"option": applies[0], "value": applies[1]}
        data["shown"] = self.shown
        return data


def read_options(
    declaration: Sequence[Option], options: Any, stored: bool = False
) -> dict[str, Any]:
    """The options given, over the declared defaults, each checked against its declaration;
    an unknown name is refused (a typo must not silently fall back to a default). Names come
    in declaration order, so an option's ``applies`` is read before the option itself.
    ``stored``: the options of a game already played, whose missing options take their
    ``legacy`` value where one is declared (the game was played before they existed)."""
    if options is not None and not isinstance(options, dict):
        raise OptionsError("options must be an object of name: value", "not_object")
    given = options or {}
    names = list(dict.fromkeys(option.name for option in declaration))
    unknown = set(given) - set(names)
    if unknown:
        listed, known = ", ".join(sorted(map(str, unknown))), ", ".join(sorted(names))
        raise OptionsError(f"unknown option(s) {listed}; known: {known}", "unknown", names=listed)
    read: dict[str, Any] = {}
    for name in names:
        declared = [option for option in declaration if option.name == name]
        option = next((o for o in declared if o.applies_to(read)), declared[0])
        absent = option.legacy if stored and option.legacy is not NO_LEGACY else option.default
        value = given.get(name, absent)
        option.check(value)
        read[name] = value
    return read


def refuse_where_not_applying(
    declaration: Sequence[Option],
    given: dict[str, Any],
    read: dict[str, Any],
    names: Collection[str],
) -> None:
    """Refuse an option of ``names`` given a value other than its default where none of its
    declarations applies (tribute asked of rules without tribute): said, not silently
    ignored. Its default is accepted anywhere, since records store every option."""
    for name in names:
        declared = [option for option in declaration if option.name == name]
        if name not in given or given[name] == declared[0].default:
            continue
        if not any(option.applies_to(read) for option in declared):
            other, value = declared[0].applies or ("", None)
            message = f"{name} applies only where {other} is {shown(value)}"
            raise OptionsError(message, "applies", option=name, other=other, value=value)


@dataclass(frozen=True)
class Preset:
    """A named bundle of option values: the rules a table plays by. Its options are the ones
    it names over the declared defaults; a game declares its presets beside its options
    (``Game.presets``), and a test reads each against the declaration."""

    name: str  # an id, as bots are named; a catalog gives the words (<game>.preset.<name>)
    label: str  # English words, for the CLI and as the catalog's fallback
    options: Mapping[str, Any]

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "label": self.label, "options": dict(self.options)}


def preset_options(presets: Sequence[Preset], name: str) -> dict[str, Any]:
    """The options a preset names (a fresh dict); refuse an unknown name, listing the known."""
    for preset in presets:
        if preset.name == name:
            return dict(preset.options)
    known = ", ".join(preset.name for preset in presets) or "none"
    raise OptionsError(f"unknown preset {shown(name)}; known: {known}", "preset", name=name)


def is_whole(value: Any) -> bool:
    """An int that is not a bool (JSON true must not pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_text(value: Any, where: str, limit: int) -> str:
    """A non-blank string of at most ``limit`` characters: every string in options is
    bounded, since options are stored and sent to everyone who looks at the room."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise OptionsError(f"{where} must be a non-empty string of at most {limit} characters")
    return value
