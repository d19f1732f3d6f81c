"""The rules panel: every game has rules/<game>.json in the four languages with one section
structure (a section may apply to some option values only), and the room's Rules button opens
them in the page's language, the sections for the room's own variant or mode."""

from __future__ import annotations

import json
import re

import pytest

from tests.paths import WEB
from tests.web.helpers import create_room, needs_chromium, person
from yamen.engine import game_names, get_game

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "ja": "ja-JP"}
# Latin a zh/ja text may keep: keys on the keyboard and the cards' rank letters
ALLOWED_LATIN = {"Tab", "Enter", "A", "K", "Q", "J"}


def rules(game):
    return json.loads((WEB / "rules" / f"{game}.json").read_text(encoding="utf-8"))


def latin(text):
    return set(re.findall(r"[A-Za-z]+", text)) - ALLOWED_LATIN


@pytest.mark.parametrize("game", game_names())
def test_each_game_has_its_rules_in_four_languages_alike(game):
    doc = rules(game)
    assert set(doc) - {"defaults"} == set(LANGS)
    shape = [(s.get("when"), len(s["paragraphs"])) for s in doc["en"]["sections"]]
    assert len(shape) >= 5  # the goal, the phases, the buttons at least
    for lang in LANGS:
        sections = doc[lang]["sections"]
        assert [(s.get("when"), len(s["paragraphs"])) for s in sections] == shape, lang
        assert doc[lang]["title"].strip()
        for section in sections:
            assert section["title"].strip() and all(p.strip() for p in section["paragraphs"])
            if lang != "en":
                for text in [section["title"], *section["paragraphs"]]:
                    assert not latin(text), f"{game} {lang}: English left in {text!r}"
    # a section's condition names a declared option and one of its values
    declared = {o.name: o for o in get_game(game).declaration}
    for when in {json.dumps(s.get("when") or {}) for s in doc["en"]["sections"]}:
        for name, value in json.loads(when).items():
            assert name in declared, f"{game}: no option {name}"
            option = declared[name]
            allowed = option.choices if option.kind == "choice" else (True, False)
            assert set(value if isinstance(value, list) else [value]) <= set(allowed)
    for name, value in doc.get("defaults", {}).items():
        assert declared[name].default == value


def test_the_words_are_the_glossarys():
    """A few words that players say differently are the glossary's in the rules too."""
    bh = rules("baohuang")
    text = {lang: json.dumps(bh[lang], ensure_ascii=False) for lang in LANGS}
    for word in ["讓牌", "讓莊", "明保", "接風", "革命黨", "頭科", "大落", "警護官"]:
        assert word in text["zh-Hant"], word
    for word in ["让牌", "让庄", "接风", "革命党", "头科", "警护官"]:
        assert word in text["zh-Hans"], word
    for word in ["小画", "大画", "上納", "反乱", "警護官"]:
        assert word in text["ja"], word
    for wrong in ["明牌", "認領", "造反"]:
        assert wrong not in text["zh-Hant"]


def test_the_168_card_rule_on_jokers_is_under_its_own_heading():
    """A single card carrying no joker is a rule of what a set is, not of passing: in every
    language it sits under its own heading, and the soft pass's speaks of passing only (the
    rule once opened the soft pass's section)."""
    bh = rules("baohuang")
    titles = [s["title"] for s in bh["en"]["sections"]]
    joker = {"en": "joker", "zh-Hant": "王", "zh-Hans": "王", "ja": "ジョーカー"}
    for lang in LANGS:
        sections = bh[lang]["sections"]
        soft, jokers = (
            sections[titles.index("Soft pass")],
            sections[titles.index("Jokers in a set")],
        )
        assert jokers["when"] == {"variant": "japanese"}
        assert soft["when"] == {"variant": "japanese", "hard_pass": False}
        assert not any(joker[lang] in p.lower() for p in soft["paragraphs"]), lang
        assert joker[lang] in jokers["title"].lower() + jokers["paragraphs"][0].lower(), lang


def test_a_room_with_the_hard_pass_is_told_it_and_not_the_soft_pass():
    """The hard pass (a house rule) has its own section in every language, shown to a room that
    plays it, and the soft pass's section is shown only to a japanese room that does not."""
    bh = rules("baohuang")
    titles = [s["title"] for s in bh["en"]["sections"]]
    hard, soft = titles.index("Hard pass (a house rule)"), titles.index("Soft pass")
    defaults = bh["defaults"]
    for lang in LANGS:
        sections = bh[lang]["sections"]
        for options, shown in [
            ({"variant": "japanese"}, {soft}),
            ({"variant": "japanese", "hard_pass": True}, {hard}),
            ({"variant": "shandong", "hard_pass": True}, {hard}),
            ({"variant": "shandong"}, set()),
        ]:
            told = {i for i in (hard, soft) if applies(sections[i], options, defaults)}
            assert told == shown, (lang, options)


def applies(section, options, defaults):
    """Whether a section is for a room with these options: each value it names is the room's
    (or the file's default where the room does not say), as rules.js reads it."""
    when = section.get("when") or {}
    return all(
        options.get(name, defaults.get(name)) in (value if isinstance(value, list) else [value])
        for name, value in when.items()
    )


@needs_chromium
def test_the_rules_button_opens_the_games_rules_in_the_page_language(web_server, browser):
    page = person(browser, web_server.url, "Ria")
    for game, options, shown, hidden in [
        ("baohuang", {"variant": "japanese"}, "japanese", "shandong"),
        ("baohuang", {}, "shandong", "japanese"),
        ("baohuang", {"variant": "japanese", "lowest_held": True}, "japanese", "shandong"),
        ("criminal_poker", {"mode": "detective", "players": 4}, "detective", "sheriff"),
        ("bao_qingtian", {}, None, None),
    ]:
        page.goto(web_server.url + "/#/")
        page.wait_for_selector("#create")
        page.select_option("#lang", "en")
        create_room(page, game, options)
        doc = rules(game)
        for lang in LANGS:
            page.select_option("#lang", lang)
            page.click("#rules")
            panel = page.locator("#rules-panel")
            panel.wait_for()
            text = panel.inner_text()
            assert page.locator("#rules-title").inner_text() == doc[lang]["title"]
            sections = doc[lang]["sections"]
            for section in sections:
                key = (section.get("when") or {}).get("variant") or (section.get("when") or {}).get(
                    "mode"
                )
                if applies(section, options, doc.get("defaults", {})):
                    assert key in (None, shown)
                    assert section["paragraphs"][0] in text, (game, lang, section["title"])
                else:  # another variant's or mode's, or a house rule the room does not play
                    assert key in (hidden, None)
                    assert section["paragraphs"][0] not in text, (game, lang, section["title"])
            if game == "baohuang":  # 憋六/憋三: said where the room plays it, only there
                held = next(s for s in sections if s.get("when") == {"lowest_held": True})
                assert (held["paragraphs"][0] in text) is bool(options.get("lowest_held"))
            if lang != "en":
                assert not latin(text), f"{game} {lang}: {latin(text)}"
            page.keyboard.press("Escape")
            panel.wait_for(state="detached")
    assert not page.errors


SHELL_PARTS = ["icons.js", "clock.js", "turn.js", "rules.js"]


def test_the_shells_new_parts_name_no_game_and_use_catalog_keys():
    """The shell's helpers (icons, timers, your-turn, rules panel) load any game's rules by
    the room's game, never by name, and every key they say is in the catalogs."""
    catalog = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))
    for name in SHELL_PARTS:
        text = (WEB / name).read_text(encoding="utf-8")
        for game in game_names():
            for word in {game, game.replace("_", " "), game.split("_")[0]}:
                assert word not in text.lower(), f"{name} names {game}"
        used = set(re.findall(r'\bt\("([\w.]+)"', text))
        either = re.findall(r'\bt\(\w+ \? "([\w.]+)" : "([\w.]+)"', text)  # t(on ? "a" : "b")
        used |= {key for pair in either for key in pair}
        assert not sorted(k for k in used if k not in catalog), name
    keys = ["my_timer", "my_timer_warning", "seconds_n", "time_left", "sound_on", "sound_off"]
    keys += ["your_turn_title", "rules", "close", "no_rules", "to_act", "you_won", "you_lost"]
    assert all(k in catalog for k in keys)
