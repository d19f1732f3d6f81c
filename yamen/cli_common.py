"""What every ``yamen`` command shares: the consoles (results on stdout, progress and errors on
stderr), the error exit, and the game-option flags with their parser. Its own module so that a
command kept in a module of its own (yamen/cli_train.py) imports it, not yamen/cli.py."""

from __future__ import annotations

import json
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape

from yamen.engine import game_names

out = Console(highlight=False, markup=False)
if not out.is_terminal:
    out.width = max(out.width, 160)  # piped: wide tables (a game's details) stay unwrapped
err = Console(stderr=True, highlight=False)


def fail(message: str, code: int = 1) -> typer.Exit:
    err.print(f"[red]error:[/red] {escape(message)}", soft_wrap=True)
    return typer.Exit(code)


def unknown_game(name: str) -> str:
    return f"unknown game {name}; known: {', '.join(game_names())}"


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


# The game-option flags every command that starts games takes.
VariantFlag = Annotated[str | None, typer.Option(help="Shorthand for --option variant=V.")]
PlayersFlag = Annotated[int | None, typer.Option(help="Shorthand for --option players=N.")]
ModeFlag = Annotated[str | None, typer.Option(help="Shorthand for --option mode=M.")]
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value (repeatable)."),
]
