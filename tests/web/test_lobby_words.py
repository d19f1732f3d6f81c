"""The platform's words outside the tables (issue 26). The lobby lists the games in their
declared order (the registry's: Baohuang first, and the form's default), the chosen one with its
one line from its own catalog, in the page's language, and links each leaderboard in the site's
colour, never the browser's blue. In a room the seats are numbered from 1, as people count
(the wire stays 0-based), an empty seat is never "offline" (a person who left is), the host's
line asking to fill the seats goes once every seat is taken, and each kind of bot the game
offers has one line where the host chooses one. A refusal that names seats counts them from 1."""

from __future__ import annotations

import json

import httpx

from tests.paths import WEB
from tests.web.helpers import (
    DESKTOP,
    artifacts,
    create_room,
    fill_with_bots,
    needs_chromium,
    person,
)
from yamen.bots import bot_names
from yamen.engine import game_names

pytestmark = needs_chromium

HANT = json.loads((WEB / "i18n" / "zh-Hant.json").read_text())
JA = json.loads((WEB / "i18n" / "ja.json").read_text())


def game_words(game: str, lang: str) -> dict[str, str]:
    return json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())[lang]


def rgb(hex_colour: str) -> str:
    value = hex_colour.strip().lstrip("#")
    r, g, b = (int(value[i : i + 2], 16) for i in (0, 2, 4))
    return f"rgb({r}, {g}, {b})"


def test_the_lobby_lists_the_games_in_their_order_each_with_its_line(web_server, browser):
    order = game_names()
    assert order[0] == "baohuang"  # the registry's order, not the alphabet's
    assert [g["game"] for g in httpx.get(f"{web_server.url}/api/games").json()] == order
    page = person(browser, web_server.url, "Lin", viewport=DESKTOP, locale="zh-TW")
    listed = page.eval_on_selector_all("#game option", "els => els.map(e => e.value)")
    assert listed == order
    assert page.input_value("#game") == order[0]  # the first is the default
    for game in order:
        page.select_option("#game", game)
        assert page.inner_text("#game-about") == game_words(game, "zh-Hant")[f"{game}.description"]
    page.select_option("#game", order[0])
    page.screenshot(path=str(artifacts() / "lobby-zh-Hant-1280.png"))
    # the line follows the page's language, and so does the title of each game
    page.select_option("#lang", "ja")
    page.wait_for_function(
        "t => document.getElementById('game-about').textContent === t",
        arg=game_words(order[0], "ja")[f"{order[0]}.description"],
    )
    boards = page.eval_on_selector_all(
        ".leaderboards a", "els => els.map(e => [e.getAttribute('href'), e.textContent])"
    )
    assert boards == [[f"#/leaderboard/{g}", game_words(g, "ja")[f"{g}.title"]] for g in order]
    # the site's colour, not the browser's link blue
    accent = page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--accent')"
    )
    colours = page.eval_on_selector_all("main a", "els => els.map(a => getComputedStyle(a).color)")
    assert colours and set(colours) == {rgb(accent)}
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts() / "lobby-ja-390.png"), full_page=True)
    assert not page.errors


def seat_row(page, seat: int) -> str:
    return page.inner_text(f".seats li[data-seat='{seat}'] .seat-name").strip()


def test_a_room_counts_seats_from_one_and_explains_its_bots(web_server, browser):
    host = person(browser, web_server.url, "阿明", viewport=DESKTOP, locale="zh-TW")
    link = create_room(host, "baohuang")
    numbers = host.eval_on_selector_all(".seats .seat-no", "els => els.map(e => e.textContent)")
    assert numbers == ["1", "2", "3", "4", "5"]
    # an empty seat is empty, never offline
    assert [seat_row(host, s) for s in range(1, 5)] == [HANT["empty_seat"]] * 4
    assert HANT["offline"] not in host.inner_text(".seats")
    assert host.inner_text("#seat-hint") == HANT["hint_host"]
    # each kind of bot the game offers, one line, where the host chooses them
    kinds = host.eval_on_selector_all(
        "#bot-kinds li", "els => els.map(e => [e.dataset.kind, e.textContent])"
    )
    assert [k for k, _ in kinds] == bot_names("baohuang")
    for kind, text in kinds:
        assert text == f"{HANT[f'bot.kind.{kind}']} {HANT[f'bot.help.{kind}']}"

    # a refusal naming seats counts them as the page does: Start with four seats empty
    host.click("#start")
    host.wait_for_selector("#banner.error")
    assert host.inner_text("#banner") == HANT["error.empty_seats"].format(seats="2, 3, 4, 5")

    # a person who sat and went away is offline; the seats beside them stay merely empty
    guest = person(browser, web_server.url, "Kei", locale="ja-JP")
    guest.goto(link)
    guest.click(".seats li[data-seat='2'] button")  # 「ここに座る」
    host.wait_for_selector(".seats li[data-seat='2'] .player-link")
    guest.context.close()
    host.wait_for_function(
        "t => document.querySelector(\".seats li[data-seat='2'] .seat-name\")"
        ".textContent.endsWith(t)",
        arg=f" ({HANT['offline']})",
    )
    assert seat_row(host, 1) == HANT["empty_seat"] and seat_row(host, 3) == HANT["empty_seat"]

    # every seat taken: the line asking to fill them goes (Start is what is left to do)
    fill_with_bots(host, "zh-Hant")
    host.wait_for_selector("#seat-hint", state="detached")
    assert host.locator("#start").count() == 1
    host.screenshot(path=str(artifacts() / "room-full-zh-Hant-1280.png"), full_page=True)
    watcher = person(browser, web_server.url, "Bo", locale="ja-JP")
    watcher.goto(link)
    watcher.wait_for_selector(".seats")
    assert watcher.inner_text("#seat-hint") == JA["hint_wait"]  # the others still wait
    assert watcher.locator("#bot-kinds").count() == 0  # the host's choice alone
    assert not host.errors and not watcher.errors


REFUSALS = """async () => {
  const { errorText } = await import('/lobby.js');
  return [
    errorText('taken', { seat: 2 }),
    errorText('empty_seats', { seats: '0, 3' }),
    errorText('no_seat', { seat: 7, high: 4 }),
    errorText('bad_options',
      { reason: 'seat', option: 'sheriff', low: 0, high: 4 }, 'criminal_poker'),
    errorText('bad_options', { reason: 'sheriff_seat', high: 3 }, 'criminal_poker'),
    errorText('bad_options', { reason: 'range', option: 'deals', low: 1, high: 20 }, 'baohuang'),
  ];
}"""


def test_refusals_name_seats_as_people_count_them(web_server, browser):
    page = person(browser, web_server.url, "Ann", locale="ja-JP")
    cp = game_words("criminal_poker", "ja")
    bh = game_words("baohuang", "ja")
    said = page.evaluate(REFUSALS)
    assert said == [
        JA["error.taken"].format(seat=3),
        JA["error.empty_seats"].format(seats="1, 4"),
        JA["error.no_seat"].format(seat=8, high=5),
        JA["error.bad_options.seat"].format(
            option=cp["criminal_poker.option.sheriff"], low=1, high=5
        ),
        cp["criminal_poker.error.sheriff_seat"].format(high=4),
        JA["error.bad_options.range"].format(option=bh["baohuang.option.deals"], low=1, high=20),
    ]
    # the sheriff's seat, chosen in the lobby's form, is numbered from 1 too (its value from 0)
    page.select_option("#game", "criminal_poker")
    page.select_option("#opt-mode", "sheriff")
    seats = page.eval_on_selector_all(
        "#opt-sheriff option", "els => els.filter(e => e.value).map(e => [e.value, e.text])"
    )
    assert seats[0] == ["0", JA["seat_n"].format(n=1)]
    assert all(text == JA["seat_n"].format(n=int(value) + 1) for value, text in seats)
    assert not page.errors
