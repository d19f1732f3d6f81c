"""Reading a game's options: the checks every game makes, with the same wording everywhere."""

from __future__ import annotations

from typing import Any

from yamen.errors import OptionsError


def with_defaults(options: dict[str, Any] | None, defaults: dict[str, Any]) -> dict[str, Any]:
    """The options given, over the game's defaults; an unknown key is refused by name (a typo
    must not silently fall back to a default)."""
    if options is not None and not isinstance(options, dict):
        raise OptionsError("options must be an object of name: value")
    given = dict(options or {})
    unknown = set(given) - set(defaults)
    if unknown:
        raise OptionsError(f"unknown option(s) {sorted(unknown)}; known: {sorted(defaults)}")
    return {**defaults, **given}


def is_whole(value: Any) -> bool:
    """An int that is not a bool (JSON true must not pass for 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def require_bool(options: dict[str, Any], key: str) -> None:
    if not isinstance(options[key], bool):
        raise OptionsError(f"{key} must be true or false")


def require_whole(
    options: dict[str, Any], key: str, low: int, high: int, nullable: bool = False
) -> None:
    """A whole number from ``low`` to ``high`` (or null when ``nullable``): every number a
    game takes is bounded, so no option can make a game endless or a table huge."""
    value = options[key]
    if (value is None and nullable) or (is_whole(value) and low <= value <= high):
        return
    null = ", or null" if nullable else ""
    raise OptionsError(f"{key} must be a whole number from {low} to {high}{null}")


def require_text(value: Any, where: str, limit: int) -> str:
    """A non-blank string of at most ``limit`` characters: every string in options is
    bounded, since options are stored and sent to everyone who looks at the room."""
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise OptionsError(f"{where} must be a non-empty string of at most {limit} characters")
    return value
