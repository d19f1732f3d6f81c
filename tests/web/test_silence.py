"""The room page notices when the server's frames stop reaching it (yamen/web/net.js): a beat
ahead of its table (an update it never got) makes it ask for the table again, and silence for
twice the heartbeat makes it ask, then connect again; it says so on screen meanwhile, and
clears the notice once the table is back. The server here beats every half second, and drops
frames for the page's connection on purpose."""

from __future__ import annotations

import json
import time
from dataclasses import replace

import pytest

from tests.paths import WEB
from tests.server.helpers import ServerThread
from tests.web.helpers import create_room, fill_with_bots, needs_chromium, person

pytestmark = needs_chromium

EN = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))

# every text the banner shows, in order (the notices come and go faster than a poll)
WATCH_BANNER = """
window.banners = [];
const banner = document.getElementById("banner");
new MutationObserver(() => window.banners.push(banner.hidden ? "" : banner.textContent))
  .observe(banner, { attributes: true, childList: true, characterData: true, subtree: true });
"""


@pytest.fixture(scope="module")
def beating_server(tmp_path_factory):
    from yamen.server.limits import Limits

    db = tmp_path_factory.mktemp("db") / "silence.db"
    with ServerThread(f"sqlite:///{db}", replace(Limits.off(), beat_seconds=0.5)) as server:
        yield server


def room_ready(browser, server, name):
    """A person's Baohuang room with bots in the other seats, not started yet; the person's
    connection as the server holds it."""
    clients = server.app.state.heartbeat.clients
    before = set(clients)
    page = person(browser, server.url, name)
    create_room(page, "baohuang", {"deals": 1})
    fill_with_bots(page)
    page.evaluate(WATCH_BANNER)
    deadline = time.monotonic() + 10
    while not (mine := [c for c in clients if c not in before and c.welcomed]):
        assert time.monotonic() < deadline, "the page did not connect"
        time.sleep(0.02)
    (client,) = mine
    return page, client


def log_lines(page) -> list[str]:
    return page.locator(".log li").evaluate_all("els => els.map(e => e.textContent)")


def test_an_update_that_never_came_is_noticed_and_caught_up(beating_server, browser):
    """The update that asks the page's seat to move is lost: the table waits for the page (no
    turn timer), the page does not know. The next beat's seq is ahead of the page's table: it
    says so, asks for the table, and is asked to move. (Before: the room waited for ever.)"""
    page, client = room_ready(browser, beating_server, "Cy")
    send, lost = client.send, []

    def lossy(text: str) -> None:
        frame = json.loads(text)
        if not lost and frame["type"] == "update" and frame["table"]["legal"]:
            lost.append(frame["table"]["seq"])  # my turn: never told
            return
        send(text)

    client.send = lossy
    page.click("#start")
    page.wait_for_selector(".your-move", timeout=60_000)
    page.wait_for_selector("#banner", state="hidden", timeout=10_000)
    assert lost
    banners = page.evaluate("window.banners")
    assert EN["connection_behind"] in banners and banners[-1] == ""
    caught_up = log_lines(page)
    page.reload()  # a fresh page's log: the whole game's, as the server keeps it
    page.wait_for_selector(".your-move", timeout=30_000)
    assert log_lines(page) == caught_up  # nothing of the lost update is missing
    assert not page.errors
    page.context.close()


def test_silence_makes_the_page_ask_then_connect_again(beating_server, browser):
    """Nothing at all reaches the page's connection any more (not even beats): after twice the
    heartbeat it says so and asks for the table; that answer does not come either, so it
    connects again, and the new connection brings the table back."""
    page, client = room_ready(browser, beating_server, "Di")
    page.click("#start")
    page.wait_for_selector(".your-move", timeout=60_000)  # a quiet table: only beats come
    send, beats = client.send, []

    def counted(text: str) -> None:
        beats.extend([text] if '"type":"beat"' in text else [])
        send(text)

    client.send = counted
    deadline = time.monotonic() + 10
    while not beats:  # the page has heard the server's period
        assert time.monotonic() < deadline, "no beat came"
        time.sleep(0.02)
    client.send = lambda text: None  # the connection stays open; nothing reaches it
    page.wait_for_function(
        "text => window.banners.includes(text)", arg=EN["connection_quiet"], timeout=10_000
    )
    deadline = time.monotonic() + 20  # asked, unanswered: it connects again
    while client in beating_server.app.state.heartbeat.clients:
        assert time.monotonic() < deadline, "the page did not give its connection up"
        time.sleep(0.05)
    page.wait_for_selector("#banner", state="hidden", timeout=10_000)
    page.wait_for_selector(".your-move", timeout=10_000)
    assert [c for c in beating_server.app.state.heartbeat.clients if c.welcomed]
    banners = page.evaluate("window.banners")
    quiet = banners.index(EN["connection_quiet"])
    assert EN["connection_lost"] in banners[quiet:] and banners[-1] == ""
    assert not page.errors
    page.context.close()
