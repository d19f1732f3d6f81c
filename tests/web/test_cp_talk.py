"""Criminal Poker's questioning with people at the table (issue 13): a bot investigator does not
end it the moment it begins; it lasts the room's talk time, and the people talk meanwhile, a
person who left their seat and watches on too (issue 26: a bot sheriff once ended it at once
while such a person talked)."""

from __future__ import annotations

import json
import time

import pytest

from tests.paths import WEB
from tests.web.helpers import act_once, fill_with_bots, needs_chromium, person, set_option

pytestmark = needs_chromium

CP = json.loads((WEB / "i18n" / "games" / "criminal_poker.json").read_text())["en"]
BEGINS = CP["criminal_poker.log.questioning"].split("{")[0]  # "Questioning "
OVER = CP["criminal_poker.log.questioning_over"]
TALK = 5  # seconds


def log_lines(page) -> list[str]:
    return page.locator(".log li").evaluate_all("els => els.map(e => e.textContent)")


@pytest.mark.parametrize("sits", [True, False], ids=["seated", "left-the-seat"])
def test_a_bot_investigator_lets_the_people_talk(web_server, browser, sits):
    """Seated, or after leaving the seat mid-game and watching on (the chat stays, and the
    seat may be taken back): the questioning lasts the talk time, and the person talks."""
    page = person(browser, web_server.url, "Sol")
    page.select_option("#game", "criminal_poker")
    set_option(page, "players", 4)
    set_option(page, "sheriff", 1)  # a bot is the sheriff: it runs the questioning
    page.select_option("#pace", "0")
    page.fill("#turn", "0")
    page.fill("#talk", str(TALK))
    page.click("#create")
    page.wait_for_selector(".seats")
    fill_with_bots(page)
    page.click("#start")
    if not sits:  # the person leaves at once and watches
        page.wait_for_selector("#cp-phase")  # the game under way (before it, Leave only stands up)
        page.click("#leave")
        page.click("#confirm-yes")
        page.wait_for_selector("#take-back")
    began = None
    deadline = time.monotonic() + 120
    while True:
        assert time.monotonic() < deadline, "the questioning did not come and go"
        lines = log_lines(page)
        if began is None and any(line.startswith(BEGINS) for line in lines):
            began = time.monotonic()
            if OVER not in lines:  # (over already: it did not wait at all)
                page.fill("#chat-text", "It was not me")  # the people talk meanwhile
                page.press("#chat-text", "Enter")
        if began is not None and OVER in lines:
            lasted = time.monotonic() - began
            break
        if page.locator(".your-move").count():
            act_once(page)
        time.sleep(0.05)
    # the talk time, less what it took to see the questioning begin (the log is polled)
    assert lasted >= TALK - 1.5, f"the questioning lasted {lasted:.1f} s"
    assert "It was not me" in page.locator(".chat").inner_text()
    assert not page.errors
