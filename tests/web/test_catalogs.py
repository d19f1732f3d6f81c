"""The browser client's catalogs and its shell: every string in every language, and a shell
that names no game (a new game brings its own table module and catalog)."""

from __future__ import annotations

import json
import re

import pytest

from tests.paths import ROOT, WEB
from yamen.bots import bot_names
from yamen.engine import game_names

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
TRANSLATED = ["zh-Hant", "zh-Hans", "ja"]
# Latin words a zh/ja catalog may keep: key names on the keyboard. Anything else in Latin
# letters is English left untranslated. Placeholders ({name}) are taken out first.
ALLOWED_LATIN = {"Tab", "Enter"}
# every module at the top of the web folder is the shell's (the games' own are in games/)
SHELL = [
    *sorted(path.name for path in WEB.glob("*.js")),
    "types.d.ts",
    "index.html",
    "style.css",
    "games/generic.js",
]


def test_each_game_says_what_it_is_and_its_quick_phrases_in_every_language():
    # the lobby's one line (<game>.description) and the chat's quick phrases (<game>.quick.N,
    # numbered in order from 1), which the shell reads as data; a phrase reads back to one key
    # in every language (a line sent in another's words is shown in the reader's)
    for game in game_names():
        catalog = json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())
        for lang in LANGS:
            words = catalog[lang]
            assert words.get(f"{game}.description"), f"{game} {lang}"
            quick = [key for key in words if key.startswith(f"{game}.quick.")]
            assert quick == [f"{game}.quick.{n}" for n in range(1, len(quick) + 1)] and quick
            assert len({words[key] for key in quick}) == len(quick), f"{game} {lang}"


def test_every_bot_kind_is_named_and_explained():
    shell = json.loads((WEB / "i18n" / "en.json").read_text())
    for kind in {kind for game in game_names() for kind in bot_names(game)}:
        assert shell.get(f"bot.kind.{kind}") and shell.get(f"bot.help.{kind}"), kind


def test_the_shell_catalogs_have_the_same_keys_in_every_language():
    keys = {lang: set(json.loads((WEB / "i18n" / f"{lang}.json").read_text())) for lang in LANGS}
    for lang in LANGS:
        assert keys[lang] == keys["en"], f"{lang}: {sorted(keys[lang] ^ keys['en'])}"


@pytest.mark.parametrize("game", game_names())
def test_each_game_catalog_covers_every_language(game):
    catalog = json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())
    assert set(catalog) == set(LANGS)
    for lang in LANGS:
        assert set(catalog[lang]) == set(catalog["en"]), f"{game} {lang}"
        assert all(key.startswith(f"{game}.") for key in catalog[lang])
        assert f"{game}.title" in catalog[lang]


def test_every_key_the_shell_uses_is_in_the_catalog():
    catalog = json.loads((WEB / "i18n" / "en.json").read_text())
    used = set()
    for name in SHELL:
        used |= set(re.findall(r'\bt\("([\w.]+)"', (WEB / name).read_text()))
    missing = sorted(k for k in used if k not in catalog)
    assert not missing


def test_the_shell_names_no_game():
    for name in SHELL:
        text = (WEB / name).read_text().lower()
        for game in game_names():
            for word in {game, game.replace("_", " "), game.split("_")[0]}:
                assert word not in text, f"{name} names {game}"


def catalogs(lang):
    """Every catalog's entries in one language: the shell's, then each game's."""
    entries = dict(json.loads((WEB / "i18n" / f"{lang}.json").read_text()))
    for game in game_names():
        entries |= json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())[lang]
    return entries


@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalog_value_is_left_in_english(lang):
    left = {}
    for key, text in catalogs(lang).items():
        words = set(re.findall(r"[A-Za-z]+", re.sub(r"\{\w+\}", "", text))) - ALLOWED_LATIN
        if words:
            left[key] = text
    assert not left, f"{lang} still in English: {left}"


def glossary_rows():
    """The glossary's keyed rows: key -> {lang: term}, as docs/glossary.md lists them."""
    rows = {}
    for line in (ROOT / "docs" / "glossary.md").read_text().splitlines():
        found = re.match(r"\| `([\w. -]+)` \|(.*)\|$", line)
        if found:
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", found.group(2))]
            rows[found.group(1)] = dict(zip(LANGS, cells[:4], strict=True))
    return rows


def test_the_catalogs_use_the_glossary_words():
    every = {lang: catalogs(lang) for lang in LANGS}
    rows = glossary_rows()
    assert len(rows) > 50
    for key, terms in rows.items():
        for lang, term in terms.items():
            said = every[lang].get(key)
            assert said == term, f"{key} {lang}: glossary {term!r}, catalog {said!r}"


def test_the_glossary_covers_baohuangs_key_actions_and_roles():
    rows = glossary_rows()
    actions = ["yield", "yield_emperor", "declare", "declare_solo", "claim", "call", "grab"]
    for word in actions:
        assert f"baohuang.action.{word}" in rows
    assert "baohuang.action.rebel" in rows
    for role in ["emperor", "royalist", "rebel", "solo emperor", "guard", "commoner"]:
        assert f"baohuang.role.{role}" in rows
    assert rows["baohuang.action.yield"]["zh-Hant"] == "讓牌"
    assert rows["baohuang.action.yield_emperor"]["zh-Hant"] == "讓莊"
    assert rows["baohuang.action.declare"]["zh-Hant"] == "明保"
    assert rows["baohuang.action.claim"]["zh-Hant"] == "接風"
    assert rows["baohuang.role.rebel"]["zh-Hant"] == "革命黨"


def test_the_words_players_would_not_say_are_gone():
    # 明牌 is showing one's hand, 認領 / 名乗る are not 接風, 造反 is a verb, not the rebels.
    wrong = {
        "zh-Hant": ["明牌", "認領", "造反"],
        "zh-Hans": ["明牌", "认领", "造反"],
        "ja": ["名乗る", "献上"],
    }
    bh = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
    for lang, words in wrong.items():
        for key, text in bh[lang].items():
            assert not any(w in text for w in words), f"{key} {lang}: {text}"
