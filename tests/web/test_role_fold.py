"""The role panels of Criminal Poker and the Bao Qing-tian trial fold to their first line once
read, as Baohuang's does (the hand in reach, docs/web.md): the shell's fold.js, in the page,
keeps a panel open from a game's start until the seat has made its first decision, folds it
then, lets a tap open or fold it for the rest of the game, and opens it again for a new game;
a whole game of each shows it so."""

from __future__ import annotations

from tests.web.helpers import PHONE, needs_chromium, person, play_until, start_game

pytestmark = needs_chromium

FOLD = """async () => {
  const { h } = await import('/dom.js');
  const { foldingPanel } = await import('/fold.js');
  const table = { game_id: 'g', number: 1, seq: 0, legal: [] };
  const ctx = { h, table };
  const draw = () =>
    foldingPanel(ctx, { id: 'p', class: 'mine' }, h('b', {}, 'line'), h('p', {}, 'more'));
  const seen = [];
  const look = () => { const el = draw(); seen.push(el.open); return el; };
  look();                                    // the start: not asked yet
  Object.assign(table, { seq: 3, legal: ['1'] }); look();   // asked: still open
  Object.assign(table, { seq: 4, legal: [] }); look();      // decided: folded
  Object.assign(table, { seq: 9, legal: ['2'] }); look();   // asked again: stays folded
  const el = look();
  el.open = true; el.querySelector('summary').dispatchEvent(new MouseEvent('click'));
  seen.push(draw().open);                     // a tap on the line: it folds (it was open)
  const shut = draw();
  shut.querySelector('summary').dispatchEvent(new MouseEvent('click'));
  seen.push(draw().open);                     // and opens again
  Object.assign(table, { number: 2, seq: 0, legal: [] });
  seen.push(draw().open);                     // a new game: open
  const made = draw();
  const summary = made.querySelector('summary').className;
  return { seen, tag: made.tagName, cls: made.className, summary };
}"""


def test_a_panel_folds_once_the_seat_has_decided(web_server, browser):
    page = browser.new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    got = page.evaluate(FOLD)
    assert got["seen"] == [True, True, False, False, False, False, True, True]
    assert (got["tag"], got["cls"], got["summary"]) == ("DETAILS", "fold-panel mine", "fold-head")
    page.close()


def test_the_role_panels_fold_once_read_in_a_game(web_server, browser):
    for game, options in [
        ("criminal_poker", {"players": 4, "mode": "sheriff", "sheriff": 1}),
        ("bao_qingtian", {"players": 5}),
    ]:
        page = person(browser, web_server.url, "Fay", viewport=PHONE)
        start_game(page, game, options, wait="#role")
        page.wait_for_selector(".actions button[data-action]")
        assert page.locator("#role[open]").count() == 1  # read while deciding
        # decided: one line (on a loaded machine a click can meet a table being drawn again:
        # the seat is asked again, and answers again)
        play_until(page, lambda p: p.locator("#role:not([open])").count(), timeout=60)
        line = page.locator("#role summary")
        assert page.locator("#role-title").is_visible() and page.locator("#role-goal").count()
        assert line.bounding_box()["height"] < 40  # one line on a phone
        line.click()
        page.wait_for_selector("#role[open]")  # a tap opens it again
        assert not page.errors
        page.close()
