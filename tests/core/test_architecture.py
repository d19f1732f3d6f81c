"""The layers of docs/architecture.md, enforced: who may import whom, and who may name a game.

Imports are read from the source (``ast``), so a rule holds whether or not a test happens to
load the module. A module belongs to the first layer whose prefix matches its dotted name.
"""

from __future__ import annotations

import ast
import re

import pytest

from tests.paths import ROOT
from yamen.engine import game_names

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
