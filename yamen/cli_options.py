"""What the ``yamen`` commands share: the consoles (results on stdout, progress and errors on
stderr), the error exit, and how they read a game's options: ``key=value`` pairs, the
shorthand flags, a named preset under them, and a game's options and presets in words for
``yamen games``. Its own module, so that a command kept in a module of its own
(yamen/cli_train.py) imports it, not yamen/cli.py.

A preset (``--preset NAME``, declared by the game: :class:`yamen.options.Preset`) gives the
options it names; ``--option`` and the shorthand flags given with it override them, and the
declaration reads the whole as it reads any options.
"""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from yamen.engine import game_names, game_type
from yamen.errors import OptionsError
from yamen.options import Option, preset_options

out = Console(highlight=False, markup=False)
if not out.is_terminal:
    out.width = max(out.width, 160)  # piped: wide tables (a game's details) stay unwrapped
err = Console(stderr=True, highlight=False)


def unknown_game(name: str) -> str:
    return f"unknown game {name}; known: {', '.join(game_names())}"


def fail(message: str, code: int = 1) -> typer.Exit:
    """An error said on stderr, and the exit to raise (code 2: the command was misused)."""
    err.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


# The game-option flags every command that starts games takes.
VariantFlag = Annotated[str | None, typer.Option(help="Shorthand for --option variant=V.")]
PlayersFlag = Annotated[int | None, typer.Option(help="Shorthand for --option players=N.")]
ModeFlag = Annotated[str | None, typer.Option(help="Shorthand for --option mode=M.")]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value (repeatable)."),
]
PresetFlag = Annotated[
    str | None,
    typer.Option(help="A preset of the game (see `yamen games GAME`); options given override it."),
]


def parse_options(pairs: list[str], shorthands: dict[str, Any]) -> dict[str, Any]:
    """``key=value`` pairs; a value is read as JSON when it can be (``3``, ``false``, ``null``),
    else taken as a string. ``shorthands`` are the common options given as flags
    (``--variant``, ``--players``, ``--mode``); ``None`` means not given."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or not key.strip():
            raise typer.BadParameter(f"{pair} is not key=value", param_hint="--option")
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        options[key.strip()] = value
    for key, value in shorthands.items():
        if value is None:
            continue
        if options.get(key, value) != value:
            raise typer.BadParameter(
                f"the {key} is given twice, differently", param_hint=f"--{key}"
            )
        options[key] = value
    return options


def game_options(
    game: str, preset: str | None, pairs: list[str], shorthands: dict[str, Any]
) -> dict[str, Any]:
    """The options a command was given: the preset's (if named), then the pairs and flags."""
    given = parse_options(pairs, shorthands)
    if preset is None:
        return given
    try:
        return {**preset_options(game_type(game).presets, preset), **given}
    except OptionsError as exc:
        raise fail(f"--preset: {exc}", 2) from None


def describe(game: str) -> list[str]:
    """A game's options and presets, one line each, for ``yamen games GAME``."""
    kind = game_type(game)
    lines = [f"{game}\t{kind.title}", "options:"]
    lines += [f"  {option_line(option)}" for option in kind.declaration]
    if kind.presets:
        lines.append("presets (--preset NAME):")
    for preset in kind.presets:
        values = " ".join(f"{k}={json.dumps(v)}" for k, v in preset.options.items())
        lines.append(f"  {preset.name}\t{preset.label}\t{values}")
    return lines


def option_line(option: Option) -> str:
    """``name (kind, default X): label``, with its range or its choices and where it applies."""
    default = json.dumps(option.default, ensure_ascii=False)
    line = f"{option.name} ({option.kind}, default {default}): {option.label}"
    if option.kind in ("whole", "seat"):
        line += f"; {option.low} to {option.high}" + (" or null" if option.nullable else "")
    if option.kind == "choice":
        named = [
            f"{c} ({option.choice_labels[c]})" if c in option.choice_labels else c
            for c in option.choices
        ]
        line += "; " + " | ".join(named)
    if option.applies is not None:
        line += f"; only where {option.applies[0]} is {option.applies[1]}"
    return line
