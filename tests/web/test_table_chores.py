"""The chores the apps do for a player (issue 26), in a real browser: the page passes for me when
pass is all I may answer (要不起), after a delay drawn like a person's, never at once; the hint
(提示) raises the sets I may play, smallest first, one more tap plays; my whole hand in one tap
when it is one legal set on my lead; Baohuang's card counter (記牌器) equals the cards I have not
seen, as the server's state has them; the stand-in's notice sits by the action bar and goes at
my next own move. Pure logic is tested in the page's own modules (import() in the page)."""

from __future__ import annotations

import statistics
import time

from tests.web.baohuang_table import COUNTER, TURN, seated_room, unseen_truth
from tests.web.helpers import (
    PHONE,
    act_once,
    fill_with_bots,
    needs_chromium,
    person,
    start_game,
)

pytestmark = needs_chromium

STRENGTH = "3456789TJQKA2"


def cost(text: str) -> tuple[int, ...]:
    """Smallest first (docs/web.md): fewest jokers, not the telling card, the weakest rank,
    fewest big jokers, fewest cards."""
    tokens = text.upper().split()
    jokers = [x for x in tokens if x in ("SJ", "SJ*", "BJ")]
    naturals = [x for x in tokens if x not in jokers]
    tells = sum(len(x) == 2 for x in naturals) + tokens.count("SJ*")
    rank = STRENGTH.index(naturals[0][0]) if naturals else len(STRENGTH)
    return (len(jokers), tells, rank, tokens.count("BJ"), len(tokens))


def page_at_home(browser, web_server):
    page = browser.new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    return page


# ----- the pure pieces, in the page's own modules -------------------------------------------

PASSING = """async () => {
  const m = await import('/autopass.js');
  const passing = { words: ['pass', 'yield'], phase: 'play' };
  const only = (legal, phase = 'play', p = passing) => m.onlyPass(p, { phase, legal });
  const random = Math.random;
  const draws = Array.from({ length: 4000 }, () => m.passDelay(random, Infinity, []));
  const many = (n, times) => Array.from({ length: n }, () => m.passDelay(random, Infinity, times));
  return {
    cases: [only(['pass', 'yield']), only(['yield', 'pass']), only(['pass']), only(['pass', '9 9']),
            only(['pass', 'yield', 'claim']), only(['pass'], 'declare'), only([]),
            only(['pass'], 'play', null)],
    draws,
    capped: Math.max(...Array.from({ length: 200 }, () => m.passDelay(random, 900, []))),
    late: m.passDelay(random, -50, []),
    // once I have answered five times myself, my own times: slow or quick, the same for passes
    slow: many(2000, [3000, 3200, 2800, 3000, 3000]),
    few: many(2000, [9000, 9000, 9000, 9000]),
    slowest: Math.max(...many(200, Array(5).fill(60000))),
  };
}"""


def test_passing_for_me_is_decided_from_the_games_words_and_timed_like_a_person(
    web_server, browser
):
    page = page_at_home(browser, web_server)
    got = page.evaluate(PASSING)
    # only pass-like answers on offer, in the phase the game names: pass (before yield)
    assert got["cases"] == [0, 1, 0, -1, -1, -1, -1, -1]
    draws = got["draws"]
    # a person's time: never a reflex, never long, spread out (not one constant delay)
    assert min(draws) >= 700 and max(draws) <= 5000
    assert 1500 <= statistics.median(draws) <= 2100
    assert statistics.pstdev(draws) > 400
    assert len({round(d) for d in draws}) > 1000
    assert got["capped"] <= 900  # before my turn's timer runs out
    assert got["late"] == 0
    assert 2700 <= statistics.median(got["slow"]) <= 3300 and statistics.pstdev(got["slow"]) > 200
    assert 1500 <= statistics.median(got["few"]) <= 2100  # four are not enough to go by
    assert got["slowest"] == 15000
    page.close()


HINTS = """async () => {
  const hint = await import('/games/baohuang/hint.js');
  const counter = await import('/games/baohuang/counter.js');
  const legal = ['pass', 'yield', 'SJ SJ', 'T T', 'BJ SJ', '9H 9', 'K K', 'SJ 9', '9 9'];
  const view = { variant: 'japanese', hand: ['BJ*', '2S', '6H'],
                 played: [{ seat: 1, cards: ['6S', '6S', 'SJ'] }, { seat: 2, cards: ['BJ'] }] };
  return {
    order: hint.hintOrder(legal),
    whole: hint.wholeHand({ hand: ['9S', '9H', '9D'], legal: ['9', '9 9', '9 9 9', 'pass'] }),
    notWhole: hint.wholeHand({ hand: ['9S', '8H'], legal: ['9', '8'] }),
    unseen: [...counter.unseen(view)],
    shandong: [...counter.unseen({ variant: 'shandong', hand: [], played: [] })].length,
  };
}"""


def test_the_hint_order_the_whole_hand_and_the_counter_in_the_page(web_server, browser):
    page = page_at_home(browser, web_server)
    got = page.evaluate(HINTS)
    assert got["order"] == ["9 9", "T T", "K K", "9H 9", "SJ 9", "SJ SJ", "BJ SJ"]
    assert got["whole"] == "9 9 9" and got["notWhole"] is None
    ranks = ["BJ", "SJ", "2", "A", "K", "Q", "J", "T", "9", "8", "7", "6"]  # 168 cards: from 6
    assert [rank for rank, _ in got["unseen"]] == ranks
    left = dict(got["unseen"])
    assert (left["BJ"], left["SJ"], left["2"], left["6"], left["A"]) == (2, 3, 15, 13, 16)
    assert got["shandong"] == 15  # 216 cards: 3 to 2 and two jokers
    page.close()


CONTROLS = """async () => {
  const { h } = await import('/dom.js');
  const i18n = await import('/i18n.js');
  await i18n.loadGame('baohuang');
  const { controls } = await import('/games/baohuang/controls.js');
  const { handView } = await import('/games/baohuang/pick.js');
  const acted = [];
  const view = { game: 'baohuang', variant: 'shandong', phase: 'play', deal: 1, seat: 0,
                 hand: ['9S', '9H', '9D'], legal: ['9 9 9', '9 9', '9'], table: null, trick: [],
                 options: {}, called: null, role: 'rebel', declared: [], out: [],
                 hand_sizes: [3, 9, 9, 9, 9] };
  const box = document.createElement('div');
  document.body.append(box);
  const ctx = { h, t: i18n.t, tOr: i18n.tOr, table: { legal: ['p3', 'p2', 'p1'], view },
                act: (id) => acted.push(id), names: ['A', 'B', 'C', 'D', 'E'] };
  const draw = (v) => {
    ctx.table.view = v;
    box.replaceChildren(handView(ctx, v), controls(ctx, v));
  };
  ctx.redraw = () => draw(ctx.table.view);
  draw(view);
  const last = box.querySelector('#bh-last');
  const out = { last: last && last.dataset.set, lastText: last && last.textContent, hints: [] };
  for (let i = 0; i < 4; i++) {
    box.querySelector('#bh-hint').click();
    const play = box.querySelector('#play');
    const raised = box.querySelectorAll('.card-button.selected').length;
    out.hints.push([play.dataset.set, raised, play.disabled]);
  }
  box.querySelector('#play').click();
  box.querySelector('#bh-last').click();
  out.acted = [...acted];
  draw({ ...view, table: { owner: 1, cards: ['8S', '8H', '8D'] }, legal: ['9 9 9', 'pass'] });
  out.answering = Boolean(box.querySelector('#bh-last'));
  draw({ ...view, hand: ['9S', '8H'], legal: ['9', '8'] });
  out.split = Boolean(box.querySelector('#bh-last'));
  box.remove();
  return out;
}"""


def test_the_hint_raises_the_sets_in_turn_and_the_whole_hand_is_one_tap(web_server, browser):
    page = page_at_home(browser, web_server)
    got = page.evaluate(CONTROLS)
    # my lead, my whole hand one legal set: offered, in words
    assert got["last"] == "9 9 9" and got["lastText"] == "Play out: 9 9 9"
    # each hint raises the next set, smallest first, round again; Play is ready to play it
    assert got["hints"] == [
        ["9", 1, False],
        ["9 9", 2, False],
        ["9 9 9", 3, False],
        ["9", 1, False],
    ]
    assert got["acted"] == ["p1", "p3"]  # one tap on Play plays the hint; Play out plays all
    assert not got["answering"] and not got["split"]  # only on my lead, only a whole hand
    page.close()


# ----- whole tables -------------------------------------------------------------------------


def log_lines(page) -> list[str]:
    return page.locator(".log li").evaluate_all("els => els.map(e => e.textContent)")


def wait_for_more(page, prefix: str, before: int, deadline: float) -> list[str]:
    while True:
        lines = [x for x in log_lines(page) if x.startswith(prefix)]
        if len(lines) > before:
            return lines
        assert time.monotonic() < deadline, f"no new line {prefix!r}"
        time.sleep(0.02)


# The page's own clock of my turns: when the question showed ("on") and when it went ("off").
MARKS = """() => {
  window.__marks = [];
  let shown = Boolean(document.querySelector('.your-move'));
  new MutationObserver(() => {
    const now = Boolean(document.querySelector('.your-move'));
    if (now !== shown) window.__marks.push([now ? 'on' : 'off', performance.now()]);
    shown = now;
  }).observe(document.body, { childList: true, subtree: true });
}"""


def answer_time(page, since: int) -> float:
    """Seconds from the question shown (the last "on" mark before ``since``) to its end."""
    marks = page.evaluate("() => window.__marks")
    on = max(i for i, (kind, _) in enumerate(marks[:since]) if kind == "on")
    off = next(t for kind, t in marks[on:] if kind == "off")
    return (off - marks[on][1]) / 1000


def test_a_whole_deal_with_the_hint_and_the_pass_made_for_me(web_server, browser):
    # the marks begin before Start: with bots at pace 0 my first question may come at once
    page, _ = seated_room(browser, web_server, "Ann", {"deals": 1}, before_start=MARKS)
    assert page.locator("#auto-pass").is_checked()  # on by default
    delays, hinted, played_out = [], 0, 0
    deadline = time.monotonic() + 300
    while not page.locator("#result").count():
        assert time.monotonic() < deadline, "the deal did not end in time"
        if not page.locator(".your-move").count():
            time.sleep(0.03)
            continue
        turn = page.evaluate(TURN)
        if turn["inPlay"] and not turn["plays"] and set(turn["words"]) <= {"Pass", "Yield"}:
            # nothing beats: the page passes for me, in a person's time, as an ordinary pass
            passes = len([x for x in log_lines(page) if x == "Ann: Pass"])
            since = page.evaluate("() => window.__marks.length")
            wait_for_more(page, "Ann: Pass", passes, time.monotonic() + 8)
            delays.append(answer_time(page, since))
            continue
        if turn["last"]:
            before = len([x for x in log_lines(page) if x.startswith("Ann plays ")])
            page.click("#bh-last")
            lines = wait_for_more(page, "Ann plays ", before, deadline)
            assert lines[-1].endswith(" and is out"), lines[-1]
            played_out += 1
            continue
        if turn["inPlay"] and turn["plays"]:
            order = sorted(turn["plays"], key=cost)  # stable: ties keep the legal order
            page.click("#bh-hint")
            turn = page.evaluate(TURN)
            assert turn["play"] == order[0] and turn["raised"] == len(order[0].split())
            if len(order) > 1:
                page.click("#bh-hint")
                assert page.evaluate(TURN)["play"] == order[1]
            chosen = page.evaluate(TURN)["play"]
            before = len([x for x in log_lines(page) if x.startswith("Ann plays ")])
            page.click("#play")  # one more tap plays the hint
            wait_for_more(page, "Ann plays ", before, deadline)
            hinted += 1
            assert chosen
            continue
        act_once(page)  # a decision before play (grab, call, declare…)
        time.sleep(0.05)
    assert hinted >= 3 and len(delays) >= 2, (hinted, delays)
    # never at once (the test answers in a blink, so its own times soon make it the least)
    # (the floor of 0.7 s is the page's, tested above; a busy page marks the question late)
    assert all(0.4 <= d <= 6 for d in delays), delays
    table = page.evaluate("() => (document.getElementById('bh-table') || {}).innerText || ''")
    told = table + " ".join(log_lines(page))
    assert "can't beat" not in told.lower()  # the seats, the trick, the log: an ordinary pass
    assert not page.errors


def test_the_card_counter_shows_the_cards_not_seen(web_server, browser):
    page, seat = seated_room(browser, web_server, "Cai", {"deals": 1}, viewport=PHONE)
    page.evaluate("() => localStorage.setItem('yamen.autopass', 'off')")  # I pass myself here
    deadline = time.monotonic() + 240
    while True:
        assert time.monotonic() < deadline, "the deal did not get far enough"
        assert not page.locator("#result").count()
        plays = len([x for x in log_lines(page) if " plays " in x])
        mine = page.locator(".your-move").count() and page.locator("#bh-hand.can-play").count()
        if mine and plays >= 8:
            break  # mid-deal, my turn: nobody else moves until I do
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    shown = page.evaluate(COUNTER)
    truth = unseen_truth(web_server, page, seat)
    assert set(truth) <= set(shown)
    assert shown == {rank: truth.get(rank, 0) for rank in shown}
    assert sum(shown.values()) == sum(truth.values())
    assert page.locator("#bh-counter").is_visible()
    assert not page.errors
    # a room with the table aids off shows no counter
    other = person(browser, web_server.url, "Dov")
    other.select_option("#game", "baohuang")
    assert other.locator("#aids").is_checked()  # the room setting, on by default
    other.locator("#aids").uncheck()
    other.select_option("#pace", "0")
    other.fill("#turn", "0")
    other.click("#create")
    other.wait_for_selector(".seats")
    fill_with_bots(other)
    other.click("#start")
    other.wait_for_selector("#bh-hand")
    assert not other.locator("#bh-counter").count()
    assert not other.errors


def test_the_stand_in_notice_is_by_the_action_bar_and_goes_at_my_move(web_server, browser):
    page = person(browser, web_server.url, "Eve", viewport=PHONE)
    page.evaluate("() => localStorage.setItem('yamen.autopass', 'off')")
    start_game(page, "baohuang", {"deals": 1}, turn="3", wait=".baohuang")
    assert not page.locator("#auto-pass").is_checked()  # remembered in this browser
    # Eve does not answer: the timer runs out and the stand-in answers for her
    page.wait_for_selector("#table #stand-in-notice", timeout=60_000)
    notice = page.locator("#stand-in-notice")
    assert notice.inner_text().startswith("Time ran out: the stand-in played for you (")
    assert "Time ran out" not in page.locator("#banner").inner_text()
    page.wait_for_selector(".actions #stand-in-notice", timeout=30_000)  # my next turn
    box = notice.bounding_box()
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]  # in view
    act_once(page)  # my own move: the notice goes
    page.wait_for_function("() => !document.getElementById('stand-in-notice')", timeout=2000)
    assert not page.errors
