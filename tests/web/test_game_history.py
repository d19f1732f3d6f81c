"""History where one looks for it (issue 26), in the browser: "My games" on the account page
lists my finished games, newest first; a game opens as a page (every seat in its place, who
played it, their part in the game's words, my result, the links to the replay and, where the
game has one, the analysis), not as raw JSON; the replay names the seats by who played them,
offers the previous / next deal only in a game of several, and asks for an analysis only where
the game has one: no console error on any game's replay."""

from __future__ import annotations

import json
import math
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.paths import WEB
from tests.server.helpers import run
from tests.server.test_game_pages import played
from tests.web.helpers import (
    DESKTOP,
    GET,
    PHONE,
    artifacts,
    needs_chromium,
    person,
    play_pages,
    start_game,
)
from yamen.engine import game_names

pytestmark = needs_chromium


def words(lang: str, game: str | None = None) -> dict[str, str]:
    if game is None:
        return json.loads((WEB / "i18n" / f"{lang}.json").read_text())
    return json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())[lang]


def part_words(game: str, part: list[dict], lang: str = "en") -> str:
    """A seat's part as the page must say it: the game's catalog's words for each."""
    catalog, said = words(lang, game), []
    for word in part:
        text = catalog[f"{game}.{word['key']}"]
        for name, value in word.get("params", {}).items():
            text = text.replace(f"{{{name}}}", str(value))
        said.append(text if "times" not in word else f"{text} ×{word['times']}")
    return " · ".join(said)


def watched(page) -> tuple[list[str], list[str]]:
    """The page's console errors and its requests for an analysis, as they come."""
    errors, asked = [], []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("request", lambda r: asked.append(r.url) if "/analysis" in r.url else None)
    return errors, asked


def test_my_games_lead_to_the_games_page_and_its_replay(web_server, browser):
    host = person(browser, web_server.url, "Rika")
    errors, asked = watched(host)
    start_game(host, "criminal_poker")
    play_pages([host])
    host.wait_for_selector("#replay-link")
    gid = host.get_attribute("#replay-link", "href").split("/")[2].split("?")[0]
    summary = host.evaluate(GET, f"/api/games/{gid}")
    mine = summary["seats"][0]

    # the account page leads to my games: this one, with my part in the game's own words
    host.click("#who-link")
    host.click("#my-games-link")
    host.wait_for_selector("#my-games .listed-game")
    assert host.locator("#my-games .listed-game").count() == 1
    item = host.locator("#my-games .listed-game")
    assert item.get_attribute("data-game-id") == gid
    part = item.locator(".game-part").inner_text()
    assert part.startswith(part_words("criminal_poker", mine["part"]))
    assert words("en")["player.won" if mine["won"] else "player.lost"] in part
    assert "#" not in part  # Criminal Poker has no places, and its score repeats the win
    assert f"{words('en')['bot']} · {words('en')['bot.kind.rules']} ×4" in item.inner_text()
    assert item.locator("time").get_attribute("datetime")
    for size, name in ((PHONE, "390"), (DESKTOP, "1280")):
        host.set_viewport_size(size)
        host.screenshot(path=str(artifacts() / f"my-games-{name}.png"), full_page=True)

    # the game's page: every seat in its place, its part, my result; no analysis to link
    host.click("#my-games .game-open")
    host.wait_for_selector("#game-page tr[data-seat]")
    rows = host.locator("#game-page tbody tr")
    assert rows.count() == len(summary["seats"])
    order = [int(rows.nth(i).get_attribute("data-seat")) for i in range(rows.count())]
    assert order == sorted(range(len(order)), key=lambda s: summary["seats"][s]["place"])
    for seat in summary["seats"]:
        row = host.locator(f"#game-page tr[data-seat='{seat['seat']}']")
        assert row.locator(".part").inner_text() == part_words("criminal_poker", seat["part"])
        assert row.locator(".badge").count() == seat["won"]
    assert host.locator("#game-page tr.mine").get_attribute("data-seat") == "0"
    assert "Rika" in host.inner_text("#game-page tr.mine")
    said = words("en")["you_won" if mine["won"] else "you_lost"]
    assert host.inner_text("#game-result") == said
    assert host.locator("#game-page .points, #game-page .place, #game-analysis").count() == 0
    for size, name in ((PHONE, "390"), (DESKTOP, "1280")):
        host.set_viewport_size(size)
        host.screenshot(path=str(artifacts() / f"game-page-{name}.png"), full_page=True)
    with host.expect_download() as download:
        host.click("#game-record")
    saved = json.loads(download.value.path().read_text(encoding="utf-8"))
    assert saved == host.evaluate(GET, f"/api/games/{gid}/record")

    # the same page in Traditional Chinese, drawn again without fetching
    host.select_option("#lang", "zh-Hant")
    expected = part_words("criminal_poker", mine["part"], "zh-Hant")
    host.wait_for_function(
        "t => document.querySelector('#game-page tr.mine .part').innerText === t", arg=expected
    )
    host.screenshot(path=str(artifacts() / "game-page-zh-Hant-1280.png"), full_page=True)
    host.select_option("#lang", "ja")
    expected = part_words("criminal_poker", mine["part"], "ja")
    host.wait_for_function(
        "t => document.querySelector('#game-page tr.mine .part').innerText === t", arg=expected
    )
    host.set_viewport_size(PHONE)
    host.screenshot(path=str(artifacts() / "game-page-ja-390.png"), full_page=True)
    host.set_viewport_size(DESKTOP)
    host.select_option("#lang", "en")

    # its replay: the seats by name, one deal (no deal steps), no analysis asked
    host.click("#game-replay")
    host.wait_for_selector("#replay #replay-at")
    seats = host.eval_on_selector_all("#perspective option", "els => els.map(e => e.innerText)")
    assert seats[0] == f"Rika ({words('en')['replay.you']})"
    assert seats[1:5] == [f"{words('en')['bot']} {n}" for n in range(1, 5)]
    assert host.locator("#prev-deal, #next-deal").count() == 0
    host.keyboard.press("ArrowRight")
    host.wait_for_function("() => location.hash.includes('step=1')")
    assert errors == [] and asked == [] and host.errors == []


def test_the_player_page_says_what_means_something_in_each_game(web_server, browser):
    """Figures by what each game declares: Baohuang's places in its words and its points; no
    places or points for Criminal Poker; the rating as one number with its line, and each last
    game with its date, the others and the player's part."""
    with ThreadPoolExecutor(1) as pool:
        gid, host = pool.submit(
            lambda: run(played(web_server.url, "baohuang", True, "Ming"))[1:]
        ).result()
        pool.submit(run, played(web_server.url, "criminal_poker", True, "Other")).result()
    page = person(browser, web_server.url, "Viewer")
    page.goto(f"{web_server.url}/#/player/{host.player}")
    page.wait_for_selector(".player-page .player-game")
    figures = page.locator(".player-game[data-game='baohuang']")
    shown = page.evaluate(GET, f"/api/players/{host.player}")
    place = next(iter(shown["games"][0]["places"]))
    assert f"{words('en', 'baohuang')[f'baohuang.place.{place}']} ×1" in figures.inner_text()
    assert figures.locator(".mean-points").count() == 1
    rating = figures.locator(".rating").inner_text()
    # one whole number (Math.round), never μ and σ
    assert rating == str(math.floor(shown["games"][0]["rating"]["display"] + 0.5) or 0)
    assert "μ" not in figures.inner_text() and "σ" not in figures.inner_text()
    assert page.inner_text(".rating-hint") == words("en")["player.rating_hint"]
    (game,) = shown["last"]
    item = page.locator(f".last-games li[data-game-id='{gid}']")
    assert part_words("baohuang", game["part"]) in item.inner_text()
    assert item.locator(".game-open").get_attribute("href") == f"#/game/{gid}"
    page.screenshot(path=str(artifacts() / "player-page-figures-1280.png"), full_page=True)
    # Criminal Poker: no places, no mean points
    other = page.evaluate(GET, "/api/leaderboard/criminal_poker")
    person_row = next(r for r in other if r["bot"] is None)
    page.goto(f"{web_server.url}/#/player/{person_row['player']}")
    page.wait_for_selector(".player-game[data-game='criminal_poker']")
    assert page.locator(".place-counts, .mean-points").count() == 0
    assert not any("#" in said for said in page.locator(".last-games .game-part").all_inner_texts())
    page.set_viewport_size(PHONE)
    page.screenshot(path=str(artifacts() / "player-page-figures-390.png"), full_page=True)
    page.select_option("#lang", "zh-Hans")
    page.wait_for_function(
        "t => document.querySelector('.rating-hint').innerText === t",
        arg=words("zh-Hans")["player.rating_hint"],
    )
    page.screenshot(path=str(artifacts() / "player-page-figures-zh-Hans-390.png"), full_page=True)
    page.select_option("#lang", "en")
    # the leaderboard: ranks, one number each, the line that says what it is
    page.set_viewport_size(DESKTOP)
    page.goto(f"{web_server.url}/#/leaderboard/criminal_poker")
    page.wait_for_selector(".leaderboard tbody tr")
    assert page.inner_text(".leaderboard .rating-hint") == words("en")["player.rating_hint"]
    for value in page.eval_on_selector_all(
        ".leaderboard td.rating", "e => e.map(x => x.innerText)"
    ):
        assert value.lstrip("-").isdigit(), value
    page.screenshot(path=str(artifacts() / "leaderboard-1280.png"), full_page=True)
    assert page.errors == []


@pytest.mark.parametrize("game", game_names())
def test_each_games_replay_names_its_seats_and_asks_only_for_an_analysis_it_has(
    web_server, browser, game
):
    with ThreadPoolExecutor(1) as pool:
        gid = pool.submit(lambda: run(played(web_server.url, game, True, "Mei"))[1]).result()
    page = person(browser, web_server.url, "Watcher")
    errors, asked = watched(page)
    info = {g["game"]: g for g in page.evaluate(GET, "/api/games")}[game]
    index = page.evaluate(GET, f"/api/games/{gid}/replay/index")
    page.goto(f"{web_server.url}/#/replay/{gid}?seat=0&step=0")
    page.wait_for_selector("#replay #replay-at")
    seats = page.eval_on_selector_all("#perspective option", "els => els.map(e => e.innerText)")
    assert seats[0] == "Mei" and seats[1] == f"{words('en')['bot']} 1"
    assert not any(words("en")["seat_n"].split(" ")[0] in s for s in seats)
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        page.wait_for_function("n => location.hash.includes('step=' + n)", arg=step)
    deals = 1 + sum("deal over" in kinds for kinds in index["kinds"][:-1])
    assert page.locator("#prev-deal, #next-deal").count() == (2 if deals > 1 else 0)
    assert bool(asked) == info["analysis"]  # asked (and answered) only where it is one
    page.wait_for_load_state("networkidle")  # any answer still on its way is in
    assert errors == [] and page.errors == []
    page.screenshot(path=str(artifacts() / f"replay-names-{game}-1280.png"), full_page=True)
