"""Every refusal the server can send is worded in every language: each error code raised in
yamen/server has ``error.<code>`` in the four shell catalogs, each reason of an options check
(yamen/options.py, the room settings) has ``error.bad_options.<reason>``, and each reason a
game's own check gives has ``<game>.error.<reason>`` in that game's catalog. The codes are read
from the source, so a new refusal without words fails here."""

from __future__ import annotations

import ast
import json
import re

import pytest

from tests.paths import ROOT, WEB
from yamen.engine import game_names

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
# The calls that name an error code as their first string argument (or a "code" entry).
REFUSALS = {
    "RoomError",
    "http_error",
    "error",
    "close_with_error",
    "Limited",
    "Refused",
    "refusal",
    "end",
    "HTTPException",
    "__init__",
}
CODE = re.compile(r"^[a-z][a-z_]*$")


def name_of(call: ast.Call) -> str | None:
    func = call.func
    return func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)


def codes_in(tree: ast.AST) -> set[str]:
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node) in REFUSALS:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                    if CODE.match(arg.value):
                        found.add(arg.value)
                    break
                if isinstance(arg, ast.Dict):
                    for key, value in zip(arg.keys, arg.values, strict=True):
                        if isinstance(key, ast.Constant) and key.value == "code":
                            assert isinstance(value, ast.Constant), ast.unparse(node)
                            found.add(value.value)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "CODES" for t in node.targets
        ):
            found.update(v.value for v in node.value.values)  # type: ignore[attr-defined]
    return found


def reasons_in(tree: ast.AST) -> set[str]:
    """The reasons ``OptionsError(message, reason, ...)`` gives."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and name_of(node) == "OptionsError" and len(node.args) > 1:
            reason = node.args[1]
            if isinstance(reason, ast.Constant):
                found.add(reason.value)
            elif isinstance(reason, ast.BoolOp):  # exc.reason or "cards"
                found.update(v.value for v in reason.values if isinstance(v, ast.Constant))
    return found


def parsed(folder):
    return [ast.parse(p.read_text(encoding="utf-8")) for p in sorted(folder.rglob("*.py"))]


SERVER = parsed(ROOT / "yamen" / "server")
SERVER_CODES = set().union(*(codes_in(tree) for tree in SERVER))
SHELL_REASONS = reasons_in(ast.parse((ROOT / "yamen" / "options.py").read_text())) | set().union(
    *(reasons_in(tree) for tree in SERVER)
)


def shell(lang):
    return json.loads((WEB / "i18n" / f"{lang}.json").read_text())


def test_the_codes_are_found():
    assert {
        "taken",
        "not_host",
        "bad_options",
        "storage",
        "rate_limited",
        "removed",
    } <= SERVER_CODES
    assert {"range", "choice", "setting_range"} <= SHELL_REASONS


@pytest.mark.parametrize("lang", LANGS)
def test_every_error_code_is_worded(lang):
    catalog = shell(lang)
    missing = sorted(code for code in SERVER_CODES if f"error.{code}" not in catalog)
    assert not missing, f"{lang}: no words for {missing}"
    missing = sorted(r for r in SHELL_REASONS if f"error.bad_options.{r}" not in catalog)
    assert not missing, f"{lang}: no words for the options check(s) {missing}"


@pytest.mark.parametrize("game", game_names())
def test_every_games_own_options_check_is_worded(game):
    reasons = set().union(*(reasons_in(tree) for tree in parsed(ROOT / "yamen" / "games" / game)))
    reasons -= SHELL_REASONS
    catalog = json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())
    for lang in LANGS:
        missing = sorted(r for r in reasons if f"{game}.error.{r}" not in catalog[lang])
        assert not missing, f"{game} {lang}: no words for {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_words_keep_the_params_the_server_sends(lang):
    """A placeholder in a translation is one the English has (so one the server sends)."""
    english, catalog = shell("en"), shell(lang)
    for key, text in catalog.items():
        if key.startswith("error."):
            wanted = set(re.findall(r"\{(\w+)\}", english[key]))
            assert set(re.findall(r"\{(\w+)\}", text)) <= wanted, f"{lang} {key}"
