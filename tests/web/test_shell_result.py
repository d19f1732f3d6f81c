"""The generic table's end of game, in words: a headline for this seat (won, lost, or only
"Game over" for a spectator), every seat's place, name and score, and no JSON anywhere; and a
spectator reads the room's chat with names, never "null"."""

from __future__ import annotations

import re

from tests.web.helpers import create_room, fill_with_bots, needs_chromium, person, play_pages

pytestmark = needs_chromium

# Draws generic.js's result() and facts() in the page with a table over and a made-up seat.
DRAW = """async ([seat, lang]) => {
  const generic = await import("/games/generic.js");
  const i18n = await import("/i18n.js");
  await i18n.setLang(lang, false);
  const h = (tag, attrs = {}, ...children) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) if (v != null && v !== false) el.setAttribute(k, v);
    for (const c of children.flat(9)) if (c != null) el.append(c instanceof Node ? c : String(c));
    return el;
  };
  const result = {places: [2, 0, 1], scores: [3, "-1/3", 1], winners: [2],
                  deals: [{places: [2, 0, 1], roles: {"0": "rebel"}, declared: false}]};
  const view = {game: "nogame", round: 2, history: [{who: 1, cards: ["9H", "9S"]}], done: true};
  const ctx = {h, t: i18n.t, tOr: i18n.tOr, pick: i18n.pick, seat,
               names: ["Ann", "Bo", "Cy"], table: {result, view, legal: [], pending: []}};
  const box = document.createElement("div");
  box.id = "probe";
  box.append(generic.result(ctx), generic.facts(ctx, view));
  document.getElementById("probe")?.remove();
  document.body.append(box);
  return [box.querySelector("#headline").textContent, box.innerText];
}"""


def test_the_result_says_who_won_in_words(web_server, browser):
    page = person(browser, web_server.url, "Res")
    said = {seat: page.evaluate(DRAW, [seat, "en"]) for seat in (2, 0, None)}
    assert said[2][0] == "You won"
    assert said[0][0] == "You lost"
    assert said[None][0] == "Game over"
    text = said[0][1]
    # the places in order, each with its name and score, the winner marked
    assert re.search(r"Cy\s*1 point\s*winner\s*Ann\s*3 points\s*Bo\s*-1/3 points", text, re.S)
    assert not re.search(r"[{}\[\]]|null|undefined", text), text
    assert page.locator("#probe .places li").count() == 3
    ja = page.evaluate(DRAW, [2, "ja"])
    assert ja[0] == "あなたの勝ち"
    assert not page.errors


def test_a_spectator_reads_the_chat_without_null(web_server, browser):
    host = person(browser, web_server.url, "Hana")
    link = create_room(host, "criminal_poker", {"players": 4})
    fill_with_bots(host)
    host.fill("#chat-text", "good luck")
    host.press("#chat-text", "Enter")
    host.wait_for_selector(".chat li")
    watcher = person(browser, web_server.url, "Watcher")
    watcher.goto(link)
    watcher.wait_for_selector(".chat li")
    line = watcher.locator(".chat li").first.inner_text()
    assert "Hana" in line and "good luck" in line
    assert not watcher.locator("#chat-text").count()  # a spectator reads, does not write
    host.click("#start")
    play_pages([host])
    watcher.wait_for_selector("#result")
    side = watcher.locator(".side").inner_text()
    assert "null" not in side and "undefined" not in side
    assert not watcher.locator("#result pre").count()  # no raw data in the result
    assert "null" not in watcher.locator("#result").inner_text()
    assert not watcher.errors and not host.errors
