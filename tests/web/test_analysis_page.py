"""The post-game analysis in the replay (yamen/web/analysis.js): a person who played a Baohuang
deal asks for the analysis of their seat from the replay, sees its progress, then its summary,
a mark for each decision where the search bot would have played differently (a tick under the
slider, a button that jumps to the step, and there the bot's play in words with the points at
stake), all within the server's budget; it is shown again from the database after a reload,
not recomputed; another seat's perspective offers nothing to ask."""

from __future__ import annotations

import re
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

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
from yamen.bots.baohuang import analysis

pytestmark = needs_chromium

BUDGET = 6  # playouts per decision: small, so the job takes a second or two
# Records whether the progress bar was ever on the page (the job may finish between two polls).
WATCH_PROGRESS = """() => {
  window.sawProgress = false;
  new MutationObserver(() => {
    if (document.getElementById('analysis-progress')) window.sawProgress = true;
  }).observe(document.body, {childList: true, subtree: true});
}"""


@pytest.fixture
def small_budget(web_server):
    analyses = web_server.app.state.analyses
    kept = analyses.playouts
    analyses.playouts = BUDGET
    yield analyses
    analyses.playouts = kept


def differs(row: dict) -> bool:
    return row["evaluated"] and row["best"] != row["played"] and row["loss"] > 0


def test_ask_for_the_analysis_and_see_its_marks_in_the_replay(web_server, browser, small_budget):
    host = person(browser, web_server.url, "Rin")
    start_game(host, "baohuang", {"deals": 1})
    play_pages([host])
    host.click("#replay-link")
    host.wait_for_selector("#replay #replay-at")
    gid = host.evaluate("() => location.hash.split('/')[2].split('?')[0]")

    # the person's own seat: asking is offered; the job's progress, then its summary
    host.wait_for_selector("#ask-analysis")
    assert host.locator("#analysis-ticks, #analysis-here").count() == 0
    computed = small_budget.computed
    host.evaluate(WATCH_PROGRESS)
    host.click("#ask-analysis")
    host.wait_for_selector("#analysis-summary", timeout=60_000)
    assert host.evaluate("() => window.sawProgress")
    status = host.evaluate(GET, f"/api/games/{gid}/analysis?seat=0")
    assert status["state"] == "done"
    result = status["result"]

    # the budget: the server's playouts per decision, never more
    assert result["playouts"] == BUDGET
    assert all(row["playouts"] <= BUDGET for row in result["decisions"])
    assert small_budget.computed == computed + 1
    summary = host.inner_text("#analysis-summary")
    for figure in ("agreements", "evaluated", "decisions"):
        assert str(result["summary"][figure]) in summary

    # one mark, one tick per decision the bot would have played differently
    marked = [row for row in result["decisions"] if differs(row)]
    assert host.locator("#analysis-marks button").count() == len(marked)
    assert host.locator("#analysis-ticks .analysis-tick").count() == len(marked)
    if marked:
        row = marked[0]
        host.click(f"#analysis-marks button[data-step='{row['step']}']")
        host.wait_for_function(
            "(n) => Number(document.getElementById('replay-step').value) === n", arg=row["step"]
        )
        here = host.locator("#analysis-here.differs")
        assert here.count() == 1
        assert f"{row['loss']:g}"[:3].rstrip(".") in here.inner_text()
        assert "play " not in here.inner_text()  # the cards in words, not the notation
    agreed = [row for row in result["decisions"] if row["evaluated"] and not differs(row)]
    if agreed:
        host.fill("#replay-step", str(agreed[0]["step"]))
        host.wait_for_selector("#analysis-here:not(.differs)")
    for size, name in ((PHONE, "390"), (DESKTOP, "1280")):
        host.set_viewport_size(size)
        host.screenshot(path=str(artifacts() / f"replay-analysis-{name}.png"), full_page=True)

    # a reload shows it again from the database; nothing is computed again
    host.reload()
    host.wait_for_selector("#analysis-summary")
    assert host.locator("#ask-analysis").count() == 0
    assert small_budget.computed == computed + 1

    # a bot's seat: nothing to ask for, nothing shown but the words saying so
    host.select_option("#perspective", "1")
    host.wait_for_selector("#analysis")
    assert host.locator("#ask-analysis, #analysis-summary, #analysis-ticks").count() == 0

    # in Japanese, drawn again
    host.select_option("#perspective", "0")
    host.wait_for_selector("#analysis-summary")
    host.select_option("#lang", "ja")
    host.wait_for_function(
        "() => document.querySelector('#analysis h2').innerText.includes('分析')"
    )
    assert "analysis." not in host.inner_text("#replay")
    assert "null" not in host.inner_text("#replay")
    assert host.errors == []


def test_a_running_analysis_says_how_long_it_will_take(web_server, browser, monkeypatch):
    """While the job runs, the page says about how long it will take (the server's
    ``eta_seconds``), in the page's language."""
    analyses = web_server.app.state.analyses
    gate, calls = threading.Event(), []
    real = analysis.evaluate

    def held(view, legal, played, playouts, rng):  # the first decision is timed, then held
        calls.append(1)
        if len(calls) > 1:
            gate.wait(60)
        return real(view, legal, played, playouts, rng)

    monkeypatch.setattr(analysis, "evaluate", held)
    kept = analyses.pool, analyses.playouts
    analyses.pool, analyses.playouts = ThreadPoolExecutor(1), BUDGET  # the decisions here
    try:
        host = person(browser, web_server.url, "Eta")
        start_game(host, "baohuang", {"deals": 1})
        play_pages([host])
        host.click("#replay-link")
        host.click("#ask-analysis")
        host.wait_for_selector("#analysis-eta")
        english = host.inner_text("#analysis-eta")
        host.select_option("#lang", "ja")
        host.wait_for_function(
            "() => (document.getElementById('analysis-eta') || {}).innerText?.includes('残り約')"
        )
        japanese = host.inner_text("#analysis-eta")
        gate.set()
        host.wait_for_selector("#analysis-summary", timeout=60_000)
        assert host.locator("#analysis-eta").count() == 0  # done: nothing left to wait for
    finally:
        gate.set()
        analyses.pool, analyses.playouts = kept
    assert re.fullmatch(r"about \d+ (s|min) to go", english), english
    assert re.fullmatch(r"残り約 \d+ (秒|分)", japanese), japanese
    assert host.errors == []
