"""The browser client's catalogs and its shell: every string in every language, and a shell
that names no game (a new game brings its own table module and catalog)."""

from __future__ import annotations

import json
import re

import pytest

from tests.paths import WEB
from yamen.engine import game_names

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
SHELL = ["app.js", "net.js", "i18n.js", "cards.js", "index.html", "style.css", "games/generic.js"]


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
