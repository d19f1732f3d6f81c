"""The Baohuang role panel in a real browser: a seat is told its role the moment the card is
called (no reload, not in a folded block), with its win condition, the called card drawn as a
card, who is known to be who, and what a declaration means before it is made; handing the
marked joker on names the seat the engine gives it to; a seat with nothing to declare is told
why it is asked. And the end of a deal marks every seat of the winning side."""

from __future__ import annotations

import random

import pytest

from tests.web.baohuang_table import BH, royalist_seed, seated_room
from tests.web.helpers import act_once, needs_chromium, play_until
from yamen.engine import get_game

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


def handing_on(variant: str):
    """A deal at the decision that hands the marked joker on (讓莊 in Shandong, the emperor
    card handed on in the japanese rules), the holder's view, and the seat the engine then
    gives it to."""
    word = "yield" if variant == "shandong" else "hand on"
    game = get_game("baohuang", {"variant": variant, "grabbing": False, "deals": 1})
    for seed in range(1, 200):
        state = game.new_state(seed)
        (holder,) = state.pending()
        texts = [state.action_text(a) for a in state.legal(holder)]
        if word not in texts:
            continue
        view = state.view(holder)
        events = state.apply(holder, state.legal(holder)[texts.index(word)])
        (moved,) = [e for e in events if "to_seat" in e.data]
        return view, moved.data["to_seat"]
    raise AssertionError(f"no deal where the holder may {word}")


@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_handing_the_marked_joker_on_names_the_seat_the_engine_gives_it_to(
    web_server, browser, variant
):
    view, to = handing_on(variant)
    assert to == ((view["seat"] - 1) % 5 if variant == "shandong" else (view["seat"] + 1) % 5)
    key = "yield_emperor" if variant == "shandong" else "hand"
    page = browser.new_context().new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    for lang in ["en", "zh-Hant", "zh-Hans", "ja"]:
        got = page.evaluate(CRAFTED, [view, lang])
        assert key in got["means"], (lang, got["means"])
        told = BH[lang][f"baohuang.means.{key}"].replace("{to}", "ABCDE"[to])
        assert told in got["text"], (lang, got["text"])
        for word in ["上一位", "下一位", "次の人", "前の人", "next seat", "previous seat"]:
            assert word not in told, (lang, told)  # a seat's name, never a direction
    page.close()


# A crafted view's action bar, drawn by the page's own controls module.
BAR = """async ([view, lang]) => {
  const i18n = await import('/i18n.js');
  await i18n.setLang(lang, false);
  await i18n.loadGame('baohuang');
  const { h } = await import('/dom.js');
  const { controls } = await import('/games/baohuang/controls.js');
  const ctx = { h, t: i18n.t, tOr: i18n.tOr, names: ['A', 'B', 'C', 'D', 'E'],
                table: { view, legal: view.legal.map((_, i) => String(i)) }, act: () => {} };
  const bar = controls(ctx, view);
  return { text: bar.textContent, buttons: bar.querySelectorAll('button[data-action]').length };
}"""


def test_a_seat_with_nothing_to_declare_is_told_why_it_is_asked(web_server, browser):
    page = browser.new_context().new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    rebel = view("shandong", "rebel", ["pass"], "9H")
    guard = view("japanese", "guard", ["pass"])
    playing = {**rebel, "phase": "play", "legal": ["pass", "yield"], "hand": ["9H"]}
    for lang in ["en", "zh-Hant", "zh-Hans", "ja"]:
        why = BH[lang]["baohuang.declare_everyone"]
        for asked in (rebel, guard):  # by its only button, 不要
            bar = page.evaluate(BAR, [asked, lang])
            assert bar["buttons"] == 1 and why in bar["text"], (lang, bar)
        # only while the declarations are asked
        assert why not in page.evaluate(BAR, [playing, lang])["text"]
    page.close()


# The end of a one-deal game drawn by the page's own summary module from the engine's result.
HEADLINE = """async ([result, seat]) => {
  const i18n = await import('/i18n.js');
  await i18n.setLang('en', false);
  await i18n.loadGame('baohuang');
  const { h } = await import('/dom.js');
  const { headline } = await import('/games/baohuang/summary.js');
  const view = { variant: 'shandong', seat, history: result.deals };
  const ctx = { h, t: i18n.t, tOr: i18n.tOr, names: ['A', 'B', 'C', 'D', 'E'], table: { result } };
  const box = document.createElement('div');
  box.append(...headline(ctx, view).filter(Boolean));
  const marked = [...box.querySelectorAll('#result li.winner')];
  return { marked: marked.map((li) => Number(li.dataset.seat)),
           verdict: box.querySelector('.bh-verdict').dataset.verdict };
}"""


def one_deal(won_by_emperor: bool):
    """A random one-deal Shandong game with a royalist, won by the emperor's side or not."""
    game = get_game("baohuang", {"deals": 1, "grabbing": False})
    for seed in range(1, 500):
        state = game.new_state(seed)
        rng = random.Random(seed)
        while not state.over:
            seat = rng.choice(state.pending())
            state.apply(seat, rng.choice(state.legal(seat)))
        deal = state.history[-1]
        if deal["partner"] is not None and (state.totals[deal["emperor"]] > 0) == won_by_emperor:
            return state.result().to_json(), deal
    raise AssertionError("no such deal")


@pytest.mark.parametrize("won_by_emperor", [True, False])
def test_the_result_marks_every_seat_of_the_winning_side(web_server, browser, won_by_emperor):
    result, deal = one_deal(won_by_emperor)
    side = {deal["emperor"], deal["partner"]}
    winners = side if won_by_emperor else set(range(5)) - side
    page = browser.new_context().new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")
    for seat in range(5):
        got = page.evaluate(HEADLINE, [result, seat])
        assert set(got["marked"]) == winners  # the royalist too, not only the top scorer
        assert got["verdict"] == ("won" if seat in winners else "lost")
    page.close()
