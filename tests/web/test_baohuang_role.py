"""The Baohuang role panel in a real browser: a seat is told its role the moment the card is
called (no reload, not in a folded block), with its win condition, the called card drawn as a
card, who is known to be who, and what a declaration means before it is made."""

from __future__ import annotations

import pytest

from tests.web.baohuang_table import BH, play_until, royalist_seed, seated_room
from tests.web.helpers import act_once, needs_chromium

pytestmark = needs_chromium


def test_the_royalist_is_told_the_moment_the_card_is_called(web_server, browser, monkeypatch):
    seats = {}
    # the host takes the first seat: a seed where that seat holds every 4th copy it could need
    monkeypatch.setattr(
        "yamen.server.operations.new_seed", lambda: royalist_seed(seats.get("me", 0))
    )
    page, seat = seated_room(
        browser, web_server, "Rui", {"deals": 1}, lang="zh-Hant", grabbing=False
    )
    seats["me"] = seat
    assert seat == 0
    zh = BH["zh-Hant"]
    # before the call: no role yet, the panel says so
    assert not page.locator(".bh-role").count() or page.locator("#bh-called").count()

    def called(p):
        return p.locator("#bh-called").count() > 0

    page_loads = page.evaluate("() => performance.getEntriesByType('navigation').length")

    def yield_call(p):  # the marked joker may come round: yield it on (讓莊), never call
        passing = p.locator(
            ".actions button[data-action]", has_text=zh["baohuang.action.yield_emperor"]
        )
        if passing.count():
            passing.first.click()
        else:
            act_once(p)

    play_until(page, called, act=yield_call)
    # the same page, no reload: the role is shown at once, in the seed's word, with its goal
    page.wait_for_selector(".bh-role[data-role=royalist]")
    assert page.evaluate("() => performance.getEntriesByType('navigation').length") == page_loads
    panel = page.locator("#bh-role")
    assert panel.is_visible()
    assert page.locator(".bh-role").inner_text() == "保皇派"
    assert page.locator("#bh-win").inner_text() == zh["baohuang.win.shandong.royalist"]
    assert page.locator("#bh-called .face").count() == 1  # the called card drawn as a card
    card = page.locator("#bh-called .face").get_attribute("data-card")
    assert (
        page.locator("#bh-hand .rank-group.tell .card-button").first.get_attribute("data-card")
        == card
    )
    assert zh["baohuang.called_note"] in page.locator("#bh-called").inner_text()
    assert "皇帝" in page.locator("#bh-known").inner_text()  # the emperor is known to all
    assert page.locator(".bh-secret").inner_text() == zh["baohuang.secret"]
    # the declaration, explained before it is made: 明保 doubles, passing keeps it hidden (暗保)
    page.wait_for_selector("#bh-meanings")
    meanings = page.locator("#bh-meanings").inner_text()
    assert zh["baohuang.means.declare"] in meanings and zh["baohuang.means.conceal"] in meanings
    declare = page.locator(".actions button[data-action]", has_text=zh["baohuang.action.declare"])
    declare.click()
    # declared: the seat's own box and the known list say so; the secret line is gone
    page.wait_for_selector(".bh-seat.at-bottom .role.declared")
    # (the play has begun: the panel is folded to its first line, the known list inside it)
    assert "保皇派" in page.locator("#bh-known").text_content()
    assert not page.locator(".bh-secret").count()
    assert not page.errors


# A crafted view drawn by the page's own role module: every role of both variants, in every
# language, says its role word and its goal, and the declarations on offer say what they mean.
CRAFTED = """async ([view, lang]) => {
  const i18n = await import('/i18n.js');
  await i18n.setLang(lang, false);
  await i18n.loadGame('baohuang');
  const { rolePanel } = await import('/games/baohuang/role.js');
  const h = (tag, attrs = {}, ...kids) => {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) {
      if (v != null && v !== false && !k.startsWith('on')) el.setAttribute(k, v);
    }
    for (const c of kids.flat()) if (c != null) el.append(c instanceof Node ? c : String(c));
    return el;
  };
  const ctx = { h, t: i18n.t, tOr: i18n.tOr, names: ['A', 'B', 'C', 'D', 'E'] };
  const el = rolePanel(ctx, view);
  const all = (selector) => [...el.querySelectorAll(selector)];
  return {
    text: el.textContent,
    role: (el.querySelector('.bh-role') || {}).textContent,
    win: (el.querySelector('#bh-win') || {}).textContent,
    means: all('#bh-meanings li').map((li) => li.dataset.means),
    called: all('#bh-called .face').map((f) => f.getAttribute('aria-label')),
  };
}"""


def view(variant, role, legal, called=None, **more):
    return {
        "variant": variant, "seat": 2, "role": role, "phase": "declare", "called": called,
        "grabbed": False, "declared": [], "roles": {"0": "emperor"}, "legal": legal,
        "marked_holder": None, **more,
    }  # fmt: skip


@pytest.mark.parametrize("lang", ["en", "zh-Hant", "zh-Hans", "ja"])
def test_every_role_and_declaration_is_told_in_words(web_server, browser, lang):
    page = browser.new_context().new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")  # booted: the page's own language is set, ours comes after
    words = BH[lang]
    both = ["pass", "declare"]
    cases = [
        (view("shandong", "royalist", both, "9H"), "royalist", ["declare", "conceal"]),
        (view("shandong", "rebel", ["pass"], "9H"), "rebel", []),
        (view("shandong", "solo emperor", both, "9H"), "solo emperor", ["declare_solo.shandong"]),
        (view("japanese", "commoner", ["pass", "rebel"]), "commoner", ["rebel"]),
        (view("japanese", "guard", ["pass"]), "guard", []),
        (view("japanese", "solo emperor", both), "solo emperor", ["declare_solo.japanese"]),
    ]
    for crafted, role, means in cases:
        got = page.evaluate(CRAFTED, [crafted, lang])
        assert got["role"] == words[f"baohuang.role.{role}"]
        assert got["win"] == words[f"baohuang.win.{crafted['variant']}.{role}"]
        assert sorted(got["means"]) == sorted(means)
        for key in means:
            assert words[f"baohuang.means.{key}"] in got["text"]
        if crafted["variant"] == "shandong":  # the called card, by name: 9♥, never "9H"
            assert got["called"] == ["9♥"]
        else:  # the guard card: the marked small joker, by the language's name
            assert got["called"] == [words["baohuang.card.SJ"] + "★"]
    # before there is an emperor: who holds the emperor card
    got = page.evaluate(CRAFTED, [view("shandong", None, [], marked_holder=3, roles={}), lang])
    assert got["text"].strip() == words["baohuang.emperor_card_with"].replace("{who}", "D")
