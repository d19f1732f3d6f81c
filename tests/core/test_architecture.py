"""The layers of docs/architecture.md, enforced: who may import whom, and who may name a game.

Imports are read from the source (``ast``), so a rule holds whether or not a test happens to
load the module. A module belongs to the first layer whose prefix matches its dotted name.
"""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from tests.paths import ROOT
from yamen.engine import REGISTRY, Game, game_names, game_type

CORE = (
    "yamen.cards",
    "yamen.engine",
    "yamen.errors",
    "yamen.options",
    "yamen.plaintext",
    "yamen.records",
    "yamen.selfplay",
    "yamen.table",
    "yamen.wire",
)
FRONTS = ("yamen.cli", "yamen.terminal", "yamen.tournament", "yamen.client", "yamen.__main__")
# layer -> the layers it may import (besides itself)
MAY_IMPORT = {
    "core": {"core"},
    "games": {"core"},
    "bots": {"core", "games"},
    "fronts": {"core", "bots", "fronts", "server", "rl"},  # rl: `yamen train`
    "server": {"core", "bots"},
    "rl": {"core", "bots"},
}


def layer(module: str) -> str | None:
    if module == "yamen" or module.startswith(CORE):
        return "core" if module != "yamen" else None
    if module.startswith(FRONTS):
        return "fronts"
    for name in ("games", "bots", "server", "rl"):
        if module == f"yamen.{name}" or module.startswith(f"yamen.{name}."):
            return name
    return None


def modules() -> dict[str, ast.Module]:
    found = {}
    for path in sorted((ROOT / "yamen").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return found


def imports(tree: ast.Module, module: str) -> set[str]:
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return {name for name in names if name == "yamen" or name.startswith("yamen.")}


MODULES = modules()


def test_every_module_has_a_layer():
    unplaced = [name for name in MODULES if name != "yamen" and layer(name) is None]
    assert unplaced == [], "place these in a layer (and in docs/architecture.md)"


@pytest.mark.parametrize("module", sorted(MODULES))
def test_imports_follow_the_layers(module):
    own = layer(module)
    if own is None:
        return
    wrong = sorted(
        name
        for name in imports(MODULES[module], module)
        if layer(name) not in MAY_IMPORT[own] | {own, None}
    )
    assert wrong == [], f"{module} ({own}) may not import {wrong}"


def game_of(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] in ("games", "bots") else None


@pytest.mark.parametrize("module", sorted(m for m in MODULES if game_of(m) in game_names()))
def test_a_game_and_its_bots_import_no_other_game(module):
    own = game_of(module)
    others = sorted(
        name for name in imports(MODULES[module], module) if game_of(name) not in (None, own)
    )
    assert others == [], f"{module} reaches into another game: {others}"


NAMELESS = ("core", "fronts", "server", "rl")
GAME_WORDS = re.compile("|".join(game_names()), re.IGNORECASE)


def words_in_code(tree: ast.Module) -> set[str]:
    """The identifiers and string constants of a module, docstrings and comments left out (a
    comment may give a game as an example; code may not depend on one)."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    words = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                words.add(node.value)
        elif isinstance(node, ast.Name):
            words.add(node.id)
        elif isinstance(node, ast.Attribute):
            words.add(node.attr)
        elif isinstance(node, ast.alias | ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            words.add(node.name)
    return words


@pytest.mark.parametrize(
    "module", sorted(m for m in MODULES if layer(m) in NAMELESS and m != "yamen.engine")
)
def test_fronts_server_and_rl_name_no_game(module):
    """Only engine.py's registry may spell a game's name outside games/ and bots/: everything
    else learns the games from it, so a new game is new files plus one registry line."""
    named = sorted(
        {m.group(0) for word in words_in_code(MODULES[module]) for m in GAME_WORDS.finditer(word)}
    )
    assert named == [], f"{module} names {named}"


def test_the_rules_catch_a_violation():
    """The checker itself: a game importing a bot, and the server importing a game, are found."""
    game = ast.parse("from yamen.bots import make_bot\n")
    server = ast.parse("import yamen.games.baohuang.rules\n")
    assert layer(next(iter(imports(game, "yamen.games.x")))) not in MAY_IMPORT["games"]
    assert layer(next(iter(imports(server, "yamen.server.x")))) not in MAY_IMPORT["server"]
    code = ast.parse('"""Baohuang in a docstring is fine."""\nRULES = {"baohuang": 1}  # here\n')
    assert words_in_code(code) == {"RULES", "baohuang"}


# Plugins named by strings. A game names its bots, encoder, analyst and playouts as data
# ("module:Name", or a module's name; a bot's entry may add "key=value" arguments naming
# modules too), and the engine names the games: whoever imports such a string reaches the
# module it names, so the import rules hold for it as for a static import.
LOADERS: dict[str, str | None] = {  # a Game attribute -> the module that imports it
    "bots": "yamen.bots",  # make_bot, bot_class
    "encoder": "yamen.bots.encoding",  # encoder_for
    "analyst": "yamen.server.analysis",  # analyst_of
    "playouts": "yamen.rl.improve",  # playout_for
    "sampled_playouts": "yamen.rl.improve",  # sampled_for
    "stepper": "yamen.bots.encoding",  # stepper_for
    # read by the tests alone (tests/conformance.py): they must name the game's own modules
    "view_type": None,
    "phases": None,
}
MODULE_PATH = re.compile(r"yamen(\.\w+)+")
DECLARED = [name for name, kind in Game.__annotations__.items() if "ClassVar" in str(kind)]


def strings_in(value: Any) -> Iterator[str]:
    """Every string in a declaration: in dicts, sequences and dataclasses (options, presets)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, Mapping):
        for key, item in value.items():
            yield from strings_in(key)
            yield from strings_in(item)
    elif isinstance(value, list | tuple | set | frozenset):
        for item in value:
            yield from strings_in(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for field in dataclasses.fields(value):
            yield from strings_in(getattr(value, field.name))


def named_modules(text: str) -> tuple[str, list[str]] | None:
    """A plugin string's module and the modules its arguments name (imported by that module:
    ``package=`` of the learned bot), or None when it names no module."""
    first, *rest = text.split(":")
    if not MODULE_PATH.fullmatch(first):
        return None
    values = [part.partition("=")[2] for part in rest]
    return first, [value for value in values if MODULE_PATH.fullmatch(value)]


def crossing(loader: str, module: str, text: str, game: str | None = None) -> str | None:
    """What is wrong with ``loader`` importing ``module`` by the string ``text`` (None: fine)."""
    if module not in MODULES:
        return f"{text!r} names {module}, which is no module of yamen"
    own, theirs = layer(loader), layer(module)
    if own is not None and theirs not in MAY_IMPORT[own] | {own, None}:
        return f"{loader} ({own}) imports {module} ({theirs}) by the string {text!r}"
    if game is not None and game_of(module) in set(game_names()) - {game}:
        return f"{game} names another game's {module} ({text!r})"
    return None


def declared_crossings(game: str, declared: Mapping[str, Any]) -> list[str]:
    """The layer rules broken by the modules a game's declarations name (``declared``: its
    ``Game`` attributes by name), each imported by the attribute's loader."""
    wrong = []
    for attribute, value in declared.items():
        for text in strings_in(value):
            named = named_modules(text)
            if named is None:
                continue
            if attribute not in LOADERS:
                wrong.append(f"Game.{attribute} names {text!r}: add its loader to LOADERS")
                continue
            module, arguments = named
            loader = LOADERS[attribute]
            if loader is None:
                if module not in MODULES or game_of(module) != game:
                    wrong.append(f"Game.{attribute} of {game} names {text!r}: not its own module")
                continue
            found = [crossing(loader, module, text, game)]
            found += [crossing(module, argument, text, game) for argument in arguments]
            wrong += [problem for problem in found if problem is not None]
    return wrong


def declarations(game: str) -> dict[str, Any]:
    return {name: getattr(game_type(game), name) for name in DECLARED}


@pytest.mark.parametrize("game", game_names())
def test_the_modules_a_game_names_follow_the_layers(game):
    """The learned bot named as yamen.rl.policy:LearnedBot made yamen.bots (and through it the
    server) import rl: its strings are imports by whoever loads them."""
    assert declared_crossings(game, declarations(game)) == []


def test_each_loader_reads_what_it_loads():
    """LOADERS says who imports each attribute's strings: the module must read the attribute."""
    unread = [name for name, at in LOADERS.items() if at and name not in words_in_code(MODULES[at])]
    assert unread == []


def test_the_engine_registry_names_only_games():
    """The one string import up the layers: the core's registry loads each game by name, and
    every other layer reaches the games through it."""
    for name, entry in REGISTRY.items():
        module = entry.split(":")[0]
        assert module in MODULES and layer(module) == "games" and game_of(module) == name, entry


# where each string the test above checks is declared (it is imported by its loader, not there)
REGISTERED = {("yamen.engine", entry) for entry in REGISTRY.values()} | {
    (game_type(game).__module__, text)
    for game in game_names()
    for text in strings_in(declarations(game))
}


def stray_strings(module: str, tree: ast.Module) -> list[str]:
    """Any other string naming a module (an entry point, a lazy import) is an import by the
    module that holds it."""
    wrong = []
    for text in words_in_code(tree):
        named = named_modules(text)
        if named is None or (module, text) in REGISTERED:
            continue
        for target in [named[0], *named[1]]:
            problem = crossing(module, target, text) if target in MODULES else None
            wrong += [problem] if problem is not None else []
    return wrong


@pytest.mark.parametrize("module", sorted(MODULES))
def test_strings_naming_modules_follow_the_layers(module):
    assert stray_strings(module, MODULES[module]) == []


def test_a_planted_string_import_is_caught():
    """The checks themselves: a game registering a bot, an analyst or an encoder from a layer its
    loader may not import, an argument naming one, a string in a module, and a typo."""
    bot = {"bots": {"learned": "yamen.rl.improve:Labeller"}}
    assert declared_crossings("baohuang", bot) == [
        "yamen.bots (bots) imports yamen.rl.improve (rl) by the string 'yamen.rl.improve:Labeller'"
    ]
    assert declared_crossings("baohuang", {"analyst": "yamen.rl.improve"})
    assert declared_crossings("baohuang", {"encoder": "yamen.server.app:create_app"})
    argument = {"bots": {"x": "yamen.bots.learned:LearnedBot:package=yamen.server.app"}}
    assert declared_crossings("baohuang", argument)
    other_game = {"bots": {"x": "yamen.bots.criminal_poker.rules:CriminalPokerRulesBot"}}
    assert declared_crossings("baohuang", other_game)
    assert declared_crossings("baohuang", {"bots": {"x": "yamen.bots.nowhere:Bot"}})
    assert declared_crossings("baohuang", {"tutor": "yamen.bots.baohuang.rules:X"})
    assert declared_crossings(
        "baohuang", {"phases": "yamen.games.criminal_poker.view:CriminalPokerView"}
    )
    assert declared_crossings("baohuang", declarations("baohuang")) == []
    server = ast.parse('TRAINER = "yamen.rl.dmc:train"\n')
    assert stray_strings("yamen.server.app", server)
    assert stray_strings("yamen.rl.dmc", server) == []


MAX_LINES = 500  # a module past this holds more than one idea: split it by job


def test_every_module_is_small():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / "yamen").rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) >= MAX_LINES
    }
    assert long == {}


def package_imports(package: str, trees: dict[str, ast.Module]) -> dict[str, set[str]]:
    """Who imports whom among the modules of ``package`` (``trees``: every module's source by
    dotted name). An import anywhere in a module counts: at the top, under ``TYPE_CHECKING``
    or inside a function, for each ties the two modules as much (neither can be read or
    changed without the other; a late import only hides the circle from Python).
    ``from P import n`` imports the module P.n where there is one, else P; that Python runs a
    package's ``__init__`` before any of its modules is no import of it."""
    inside = {name for name in trees if name == package or name.startswith(f"{package}.")}
    graph = {}
    for module in sorted(inside):
        found = set()
        for node in ast.walk(trees[module]):
            if isinstance(node, ast.Import):
                found.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                assert not node.level, f"{module}: write the import by its absolute name"
                assert node.module is not None  # only a relative import has none
                for alias in node.names:
                    named = f"{node.module}.{alias.name}"
                    found.add(named if named in trees else node.module)
        graph[module] = found & inside
    return graph


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Each set of modules that import one another in a loop, sorted (a module importing
    itself is one)."""
    reach = {}
    for start in graph:
        seen: set[str] = set()
        todo = list(graph[start])
        while todo:
            module = todo.pop()
            if module not in seen:
                seen.add(module)
                todo.extend(graph[module])
        reach[start] = seen
    loops = {tuple(sorted(m for m in reach[s] if s in reach[m])) for s in graph if s in reach[s]}
    return [list(loop) for loop in sorted(loops)]


GAME_PACKAGES = sorted(
    name
    for name in MODULES
    if name.count(".") == 2
    and name.startswith("yamen.games.")
    and any(other.startswith(f"{name}.") for other in MODULES)
)


@pytest.mark.parametrize("package", GAME_PACKAGES)
def test_no_import_circle_inside_a_game(package):
    """A game's modules stand in layers: the state machine (rules.py) imports the rules,
    phases and views it runs, and none of them imports it back, not even for a type (they are
    handed a narrower type: Baohuang's fields.py, a view's ``Viewed`` protocol)."""
    assert import_circles(package_imports(package, MODULES)) == []


def test_the_circle_check_finds_a_circle():
    """The checker itself: an import for a type only closes a circle, ``from P import n`` reads
    as the module P.n, and a package's ``__init__`` importing its modules closes none."""
    sources = {
        "p": "from p import a, b\n",
        "p.a": "from p import b\nfrom p.c import C\n",
        "p.b": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.a import A\n",
        "p.c": "def late():\n    import p.c\n",
        "q": "import p.a\n",
    }
    trees = {name: ast.parse(source) for name, source in sources.items()}
    graph = package_imports("p", trees)
    assert graph == {"p": {"p.a", "p.b"}, "p.a": {"p.b", "p.c"}, "p.b": {"p.a"}, "p.c": {"p.c"}}
    assert import_circles(graph) == [["p.a", "p.b"], ["p.c"]]
    assert import_circles(package_imports("q", trees)) == []
