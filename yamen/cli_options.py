"""What the ``yamen`` commands share: the consoles (results on stdout, progress and errors on
stderr), the error exit, and how they read a game's options: ``--option NAME=VALUE`` pairs,
the game's declared options as flags of their own (``--NAME VALUE``), a named preset under
them, and a game's options and presets in words for ``yamen games``. Its own module, so that
a command kept in a module of its own (yamen/cli_train.py) imports it, not yamen/cli.py.

A preset (``--preset NAME``, declared by the game: :class:`yamen.options.Preset`) gives the
options it names; ``--option`` and the option flags given with it override them, and the
declaration reads the whole as it reads any options.
"""

from __future__ import annotations

import json
import shlex
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


# A command that starts games takes the game's options three ways, declared here once: a
# preset, ``--option NAME=VALUE`` pairs, and each option the game declares as a flag of its own
# (``--NAME VALUE``), read from the words the command does not know (``ctx.args``): the CLI
# names no option, so a game's new option is a flag at once.
GAME_COMMAND: dict[str, Any] = {
    "context_settings": {"allow_extra_args": True, "ignore_unknown_options": True},
    "epilog": "Each option of the game is a flag too: --NAME VALUE (`yamen games GAME` lists "
    "them); a bool's --NAME alone is true, --no-NAME false. Where a name is also one of this "
    "command's flags, the command's own is meant: give the option with --option.",
}
OptionFlag = Annotated[
    list[str] | None,
    typer.Option("--option", "-o", help="A game option as key=value (repeatable)."),
]
PresetFlag = Annotated[
    str | None,
    typer.Option(help="A preset of the game (see `yamen games GAME`); options given override it."),
]


def known_game(game: str, command: str) -> None:
    """Refuse an unknown game; and a flag where the game should be, since flags the command
    does not know are only read as options once the game that declares them is named."""
    if game.startswith("-"):
        raise typer.BadParameter(f"name the game first: {command} GAME [{game} ...]")
    if game not in game_names():
        raise typer.BadParameter(unknown_game(game))


def option_value(option: Option | None, text: str) -> Any:
    """A value as the command line gives it, read as JSON when it can be (``3``, ``false``,
    ``null``), else taken as a string, which the declaration then refuses or takes; but given
    as a flag (``option``), a choice's is the text as it is (``--variant 3`` is the choice
    "3")."""
    if option is not None and option.kind == "choice" and not (option.nullable and text == "null"):
        return text
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def option_flags(
    words: list[str], declared: dict[str, Option], command: str, game: str
) -> list[tuple[str, str]]:
    """``(name, text)`` of each ``--NAME VALUE`` or ``--NAME=VALUE`` in ``words``, the words of
    the command line that ``command`` does not know itself; a bool's ``--NAME`` alone is true
    and ``--no-NAME`` false; a dash in a name stands for an underscore. Anything else is
    refused, saying what the game's options are."""
    found: list[tuple[str, str]] = []
    i = 0
    while i < len(words):
        word = words[i]
        flag, sep, text = word.partition("=")
        name = flag[2:].replace("-", "_") if flag.startswith("--") else ""
        option = declared.get(name)
        negated = declared.get(name[3:]) if name.startswith("no_") and not sep else None
        if option is None and negated is not None and negated.kind == "bool":
            found.append((negated.name, "false"))
            i += 1
            continue
        if not word.startswith("-"):
            raise fail(
                f"unexpected argument {word!r}: `{command}` takes one game, and its options "
                "as --NAME VALUE",
                2,
            )
        if option is None:
            flags = ", ".join(f"--{o.name}" for o in declared.values() if o.shown) or "none"
            raise fail(
                f"{word} is not a flag of `{command}` (see its --help) nor an option of {game} "
                f"(its options as flags: {flags}; `yamen games {game}` says more)",
                2,
            )
        if not sep:
            following = words[i + 1] if i + 1 < len(words) else None
            if option.kind == "bool" and (following is None or following.startswith("--")):
                text = "true"
            elif following is None:
                raise fail(f"{flag} needs a value (`yamen games {game}` says which)", 2)
            else:
                text, i = following, i + 1
        found.append((name, text))
        i += 1
    return found


def as_flags(options: dict[str, Any]) -> str:
    """``options`` as the flags that give them again (`` --variant japanese --deals 3``), each
    value quoted for a shell where it needs to be."""
    words = []
    for name, value in options.items():
        text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        words.append(f" --{name} {shlex.quote(text)}")
    return "".join(words)


def game_options(
    ctx: typer.Context, game: str, preset: str | None, pairs: list[str]
) -> dict[str, Any]:
    """The options a command was given: the preset's (if named), then the ``--option`` pairs
    and the game's options given as flags (in ``ctx.args``), which must agree where both name
    one. The declaration checks the whole afterwards (``get_game``)."""
    kind = game_type(game)
    declared: dict[str, Option] = {}
    for option in kind.declaration:  # (the first of an option declared more than once)
        declared.setdefault(option.name, option)
    given: dict[str, Any] = {}

    def put(name: str, value: Any, how: str) -> None:
        if given.get(name, value) != value:
            raise fail(f"{how}: the {name} is given twice, differently", 2)
        given[name] = value

    for pair in pairs:
        name, sep, text = pair.partition("=")
        name = name.strip()
        if not sep or not name:
            raise typer.BadParameter(f"{pair} is not key=value", param_hint="--option")
        put(name, option_value(None, text), "--option")  # JSON where it can be, as ever
    for name, text in option_flags(list(ctx.args), declared, ctx.command_path, game):
        put(name, option_value(declared[name], text), f"--{name}")
    if preset is None:
        return given
    try:
        return {**preset_options(kind.presets, preset), **given}
    except OptionsError as exc:
        raise fail(f"--preset: {exc}", 2) from None


def describe(game: str) -> list[str]:
    """A game's options and presets, one line each, for ``yamen games GAME``."""
    kind = game_type(game)
    lines = [f"{game}\t{kind.title}", f"engine: {kind.engine()}"]
    lines.append("options (--NAME VALUE, or --option NAME=VALUE):")
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
