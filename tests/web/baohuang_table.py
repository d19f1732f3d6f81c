"""Helpers for the Baohuang table's browser tests: a seed that makes a seat the royalist
whatever the bots call, a room with a fixed seed, the person's seat, and the cards the card
counter (記牌器) must show, from the server's own state."""

from __future__ import annotations

import json
from collections import Counter

from tests.paths import WEB
from tests.web.helpers import create_room, fill_with_bots, person, room_id
from yamen.engine import get_game
from yamen.games.baohuang.kinds import KIND_TEXT

BH = json.loads((WEB / "i18n" / "games" / "baohuang.json").read_text())
# A long trick: its list's entries, sets and passes (rules bots on every seat seldom play ten
# sets in one trick, about 6 to 9 at most in a deal, but 12 to 23 entries in each deal).
LONG_TRICK = "() => document.querySelectorAll('#trick .moves li').length"
LOCALES = {"en": "en-US", "zh-Hant": "zh-TW", "zh-Hans": "zh-CN", "ja": "ja-JP"}


def royalist_seed(seat: int) -> int:
    """A Shandong seed (grabbing off) where ``seat`` ends as the royalist whatever card is called:
    every other seat's triples (the only cards it may call or be forced to call) have their 4th
    copy in ``seat``'s hand, no other seat holds four alike, and ``seat`` can never call. The
    marked big joker counts as a big joker once yielded to a seat (讓莊): two plain ones and it
    make a callable three, whose 4th copy must then be ``seat``'s too."""
    game = get_game("baohuang", {"deals": 1, "grabbing": False})
    for seed in range(1, 100_000):
        hands = game.new_state(seed).hands
        mine = hands[seat]
        if any(mine[k] >= 3 for k in range(54)) or mine[55] or mine[53] >= 2:
            continue  # it could call, be forced to, or hold the emperor card
        triples = [(s, k) for s in range(5) if s != seat for k in range(54) if hands[s][k] >= 3]
        big = all(hands[s][53] < 2 or mine[53] for s in range(5) if s != seat)
        if big and triples and all(k != 53 and hands[s][k] == 3 and mine[k] for s, k in triples):
            return seed
    raise AssertionError("no seed found")


def seated_room(
    browser, web_server, name, options, lang="en", viewport=None, grabbing=True, before_start=""
):
    """A room of ``name`` and four bots, started; returns the page and the person's seat.
    ``before_start``: a script run in the page just before Start (bots may act at once)."""
    kwargs = {"locale": LOCALES[lang]} | ({"viewport": viewport} if viewport else {})
    page = person(browser, web_server.url, name, **kwargs)
    if grabbing:
        create_room(page, "baohuang", options)
    else:  # create_room's steps, with the grabbing switch turned off before creating
        page.select_option("#game", "baohuang")
        for option, value in options.items():
            page.fill(f"#opt-{option}", str(value))
        box = page.locator("#opt-grabbing")
        if box.get_attribute("type") == "checkbox":
            box.uncheck()
        else:
            box.select_option("false")
        page.select_option("#pace", "0")
        page.fill("#turn", "0")
        page.fill("#talk", "0")
        page.click("#create")
        page.wait_for_selector(".seats")
    fill_with_bots(page, lang)
    seat = int(page.locator(".seats li.mine").get_attribute("data-seat"))
    if before_start:
        page.evaluate(before_start)
    page.click("#start")
    page.wait_for_selector(".baohuang")
    return page, seat


def unseen_truth(web_server, page, seat: int) -> dict[str, int]:
    """The cards of the other four hands, by rank, from the server's own state of the game."""
    state = web_server.app.state.rooms.loaded[room_id(page)].match.state
    counts: Counter[str] = Counter()
    for other, hand in enumerate(state.hands):
        if other != seat:
            for kind, n in enumerate(hand):
                text = KIND_TEXT[kind]
                counts[text[:2] if text[:2] in ("SJ", "BJ") else text[0]] += n
    return counts


COUNTER = """() => Object.fromEntries([...document.querySelectorAll('#bh-counter .bh-count')]
  .map(e => [e.dataset.rank, Number(e.dataset.n)]))"""


# My turn as the page shows it: the sets I may play, the other actions' words, whether my hand is
# in play, the whole-hand button's set, how many cards are raised and the set Play would play.
TURN = """() => {
  const plays = [...document.querySelectorAll('.legal-sets button[data-set]')]
    .map(b => b.dataset.set);
  const words = [...document.querySelectorAll('.actions button[data-action]:not([data-set])')]
    .map(b => b.textContent.trim());
  const last = document.querySelector('#bh-last');
  return { plays, words, inPlay: Boolean(document.querySelector('#bh-hand.can-play')),
           last: last ? last.dataset.set : null,
           raised: document.querySelectorAll('#bh-hand .card-button.selected').length,
           play: (document.querySelector('#play') || { dataset: {} }).dataset.set || null };
}"""


def words(lang: str) -> dict[str, str]:
    """The shell's catalog and Baohuang's, in one language."""
    shell = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return {**shell, **BH[lang]}
