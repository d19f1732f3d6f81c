"""The lobby's form is drawn from each game's declaration (GET /api/games): a choice is a
select, a whole number a number field with its bounds, a switch a checkbox, a seat a select of
seats, a card list a preset or a file read in the page; options that do not apply to the
chosen variant or mode are not shown; a refusal from the server is said in the page's language
(no English, no Python reprs in the Japanese page)."""

from __future__ import annotations

import json
import re

import httpx

from tests.paths import ROOT, WEB
from tests.web.helpers import DESKTOP, PHONE, artifacts, needs_chromium, person, set_option

pytestmark = needs_chromium

JA = json.loads((WEB / "i18n" / "ja.json").read_text())
EN = json.loads((WEB / "i18n" / "en.json").read_text())
CP = json.loads((WEB / "i18n" / "games" / "criminal_poker.json").read_text())
BH = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
CARDS = ROOT / "yamen" / "games" / "criminal_poker" / "cards.json"
FIELD = """id => { const el = document.getElementById(id); if (!el) return null;
  return { tag: el.tagName, type: el.type, min: el.min, max: el.max, checked: el.checked,
           value: el.value, options: [...(el.options || [])].map(o => [o.value, o.text]) }; }"""
# Latin letters a Japanese banner may hold: none (numbers and punctuation are fine)
LATIN = re.compile(r"[A-Za-z]")


def shot(tmp_path, name: str) -> str:
    return str(artifacts() / name)


def field(page, name):
    return page.evaluate(FIELD, f"opt-{name}")


def applying(declaration, values):
    shown = {}
    for option in declaration:
        rule = option["applies"]
        if option["name"] not in shown and (
            rule is None or values[rule["option"]] == rule["value"]
        ):
            shown[option["name"]] = option
    shown = {name: o for name, o in shown.items() if o["shown"]}  # not an edition
    return shown


def test_every_games_form_follows_its_declaration(web_server, browser):
    games = httpx.get(f"{web_server.url}/api/games").json()
    page = person(browser, web_server.url, "Ann")
    for game in games:
        page.select_option("#game", game["game"])
        defaults = {o["name"]: o["default"] for o in game["declaration"]}
        shown = applying(game["declaration"], defaults)
        drawn = page.evaluate(
            "() => [...document.querySelectorAll('.options [data-option]')].map(e => e.id)"
        )
        assert drawn == [f"opt-{name}" for name in shown], game["game"]
        for name, option in shown.items():
            got = field(page, name)
            if option["kind"] == "bool":
                assert (got["type"], got["checked"]) == ("checkbox", option["default"])
            elif option["kind"] == "choice":
                assert got["tag"] == "SELECT"
                assert [v for v, _ in got["options"]] == option["choices"]
            elif option["kind"] == "whole":
                assert got["type"] == "number"
                assert (got["min"], got["max"]) == (str(option["low"]), str(option["high"]))
            elif option["kind"] == "seat":
                assert got["tag"] == "SELECT" and got["options"][0][0] == ""  # null: drawn
            else:  # data: a preset or a file, never a box of JSON
                assert got["tag"] == "SELECT"
                assert [v for v, _ in got["options"]] == ["standard", "file"]
        assert page.locator("#create textarea, form textarea").count() == 0
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon.startswith("data:image/svg+xml")
    assert not page.errors


def test_options_that_do_not_apply_are_hidden_and_labels_are_the_pages(
    web_server, browser, tmp_path
):
    page = person(browser, web_server.url, "Kei", viewport=PHONE, locale="ja-JP")
    page.select_option("#game", "baohuang")
    variant = field(page, "variant")
    assert variant["options"] == [
        ["shandong", BH["ja"]["baohuang.choice.variant.shandong"]],
        ["japanese", BH["ja"]["baohuang.choice.variant.japanese"]],
    ]
    assert page.locator("#opt-grabbing").is_visible()
    assert page.locator("#pause").is_visible()  # a game of several deals: a pause between them
    assert BH["ja"]["baohuang.option.grabbing"] in page.inner_text(".options")
    page.select_option("#opt-variant", "japanese")
    assert page.locator("#opt-grabbing").count() == 0  # no grabbing in the japanese rules
    page.fill("#opt-deals", "3")
    page.select_option("#opt-variant", "shandong")
    assert page.locator("#opt-grabbing").count() == 1
    assert field(page, "deals")["value"] == "3"  # what was typed stays
    page.screenshot(path=shot(tmp_path, "lobby-options-ja-390.png"))

    page.select_option("#game", "criminal_poker")
    assert not page.locator("#pause").is_visible()  # one trial: no deals to pause between
    assert field(page, "mode")["options"][1] == [
        "detective",
        CP["ja"]["criminal_poker.choice.mode.detective"],
    ]
    sheriff = field(page, "sheriff")
    assert sheriff["options"][0] == ["", CP["ja"]["criminal_poker.choice.sheriff.null"]]
    assert [v for v, _ in sheriff["options"][1:]] == ["0", "1", "2", "3", "4"]  # 5 players
    set_option(page, "players", 4)
    page.locator("#opt-players").press("Tab")  # a change of players narrows the seats
    page.wait_for_function("document.getElementById('opt-sheriff').options.length === 5")
    page.select_option("#opt-mode", "detective")
    assert page.locator("#opt-sheriff").count() == 0  # no sheriff in detective mode
    players = field(page, "players")
    assert (players["min"], players["max"]) == ("3", "5")
    text = page.inner_text(".lobby form")
    assert not LATIN.search(text), text
    assert not page.errors


def test_a_card_list_is_a_preset_or_a_file_read_in_the_page(web_server, browser, tmp_path):
    page = person(browser, web_server.url, "Ann", viewport=DESKTOP)
    page.select_option("#game", "criminal_poker")
    assert page.locator("#opt-cards-file").is_hidden()
    page.select_option("#opt-cards", "file")
    page.click("#create")  # no file yet: said, nothing made
    page.wait_for_selector("#banner.error")
    assert page.inner_text("#banner") == EN["error.no_file"]
    assert "#/room/" not in page.url
    bad = {"name": "cards.json", "mimeType": "application/json", "buffer": b"{not json"}
    page.set_input_files("#opt-cards-file", files=[bad])
    page.wait_for_selector("#opt-cards-note.option-error")
    assert page.inner_text("#opt-cards-note") == EN["error.data_file"]
    page.set_input_files("#opt-cards-file", str(CARDS))
    loaded = EN["file_loaded"].format(name="cards.json")
    page.wait_for_function(
        "t => document.getElementById('opt-cards-note').textContent === t", arg=loaded
    )
    assert page.locator("#opt-cards-note.option-error").count() == 0
    page.screenshot(path=shot(tmp_path, "lobby-card-list-1280.png"))
    set_option(page, "players", 4)
    page.select_option("#pace", "0")
    page.click("#create")
    page.wait_for_selector(".seats")
    room_id = re.search(r"#/room/([\w-]+)", page.url).group(1)
    room = httpx.get(f"{web_server.url}/api/rooms/{room_id}").json()
    assert room["options"]["cards"] == json.loads(CARDS.read_text())
    assert room["options"]["players"] == 4
    assert not page.errors


def test_a_refusal_is_said_in_japanese(web_server, browser, tmp_path):
    page = person(browser, web_server.url, "Kei", locale="ja-JP")
    page.select_option("#game", "criminal_poker")
    create = {"players": 3, "mode": "detective", "mastermind": True}
    for name, value in create.items():
        set_option(page, name, value)
    page.click("#create")
    page.wait_for_selector("#banner.error")
    said = page.inner_text("#banner")
    words = CP["ja"]["criminal_poker.error.detective_specials"]
    assert said == words.format(players=3, most=0)
    assert not LATIN.search(said), said

    # a value out of range (the field's own bounds taken away): the server says which option
    page.select_option("#game", "baohuang")
    page.evaluate("document.getElementById('opt-deals').removeAttribute('max')")
    page.fill("#opt-deals", "99")
    page.click("#create")
    page.wait_for_function(
        "t => { const now = document.getElementById('banner').textContent;"
        " return now && now !== t; }",
        arg=said,
        timeout=10_000,
    )
    said = page.inner_text("#banner")
    deals = BH["ja"]["baohuang.option.deals"]
    assert said == JA["error.bad_options.range"].format(option=deals, low=1, high=50)
    assert not LATIN.search(said), said
    page.screenshot(path=shot(tmp_path, "lobby-error-ja-1280.png"))

    assert not page.errors
