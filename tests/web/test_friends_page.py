"""Friends in the browser (friends.js, follow.js, invites.js), in two languages at once: Ann
(繁體中文, on a phone) and Bob (日本語, on a desktop) claim accounts; Bob follows Ann from her
seat's name at her table, Ann follows him back from his player page; Ann's friends list shows
Bob online, then at a table of his own and which game; she invites him from the list; the invite
appears on Bob's screen, at his own table (told by his table's connection: his page there asks
for invites only when told), and he dismisses it; invited again while he is in the lobby (whose
page asks on a timer), he joins with one tap and sits at Ann's table. Screenshots at 390 and
1280 px of the list and of the invite."""

from __future__ import annotations

import re
import time

import httpx

from tests.web.baohuang_table import words
from tests.web.helpers import DESKTOP, PHONE, artifacts, create_room, person
from yamen.server import invite_store, invites

PASSWORD = "correct horse"


def claim(page, account: str) -> str:
    """The guest on ``page`` claims an account from the name in the header; their player id."""
    page.click("#who-link")
    page.fill("#claim-name", account)
    page.fill("#claim-password", PASSWORD)
    page.click("#claim button[type=submit]")
    page.wait_for_selector("#account")
    return page.evaluate(
        "async () => (await (await fetch('/api/me', {headers: {authorization:"
        " 'Bearer ' + localStorage.getItem('yamen.token')}})).json()).player"
    )


def wait_text(page, selector: str, text: str, seconds: float = 30) -> None:
    """Until the element's text holds ``text`` (the friends list is asked for every few
    seconds)."""
    deadline = time.monotonic() + seconds
    while text not in (
        page.locator(selector).first.inner_text() if page.locator(selector).count() else ""
    ):
        assert time.monotonic() < deadline, f"{selector} never said {text!r}"
        time.sleep(0.2)


def open_friends(page) -> None:
    """The friends list opened afresh (what the server says now)."""
    if page.locator("#friends-panel").count():
        page.click("#friends-close")
    page.click("#friends-open")
    page.wait_for_selector("#friends-panel")


def test_follow_see_invite_and_join_in_two_languages(web_server, browser, monkeypatch):
    # a page with no room connection asks every POLL_SECONDS (20): sooner here, so that the
    # lobby's step waits less, and so that a table's page, which asks only when told, would
    # show it if it asked on a timer too
    monkeypatch.setattr(invites, "POLL_SECONDS", 2)
    zh, ja = words("zh-Hant"), words("ja")
    ann = person(browser, web_server.url, "Ann", PHONE, "zh-TW")
    bob = person(browser, web_server.url, "ボブ", DESKTOP, "ja-JP")
    asks: list[float] = []  # when Bob's page asked for its invites
    bob.on(
        "request",
        lambda r: "/api/invites" in r.url and r.method == "GET" and asks.append(time.monotonic()),
    )
    ann_id, bob_id = claim(ann, "ann-friends"), claim(bob, "bob-friends")

    # Ann's table; Bob opens it and follows her from her seat's name
    ann.goto(web_server.url)
    room = create_room(ann, "baohuang")
    bob.goto(room.split("?")[0])
    seat_follow = bob.locator(f".seats button.follow[data-player='{ann_id}']")
    seat_follow.wait_for()
    wait_text(bob, f".seats button.follow[data-player='{ann_id}']", ja["friends.follow"])
    seat_follow.click()
    wait_text(bob, f".seats button.follow[data-player='{ann_id}']", ja["friends.following"])
    bob.screenshot(path=str(artifacts() / "friends-seat-follow-ja-1280.png"))

    # Ann follows him back from his page: friends now
    ann.goto(f"{web_server.url}/#/player/{bob_id}")
    page_follow = ann.locator(f"h1 button.follow[data-player='{bob_id}']")
    wait_text(ann, f"h1 button.follow[data-player='{bob_id}']", zh["friends.follow_back"])
    page_follow.click()
    wait_text(ann, f"h1 button.follow[data-player='{bob_id}']", zh["friends.mutual"])

    # Bob, on the site (Ann's room, watching): online; then at a table of his own
    ann.goto(room)
    ann.wait_for_selector(".seats")
    bob.goto(web_server.url)
    bob.wait_for_selector("#create")
    bobs_room = create_room(bob, "baohuang")  # his connection tells his friends he is there
    at_his_table = time.monotonic()
    open_friends(ann)
    friend = f"#friends-panel .friend[data-player='{bob_id}']"
    at_table = zh["friends.at_table"].format(game=zh["baohuang.title"])
    wait_text(ann, f"{friend} .presence", at_table)
    assert ann.locator(f"{friend} .invite-friend").inner_text() == zh["friends.invite"]
    for viewport, label in ((PHONE, "390"), (DESKTOP, "1280")):
        ann.set_viewport_size(viewport)
        ann.screenshot(path=str(artifacts() / f"friends-list-zh-Hant-{label}.png"))
    ann.set_viewport_size(PHONE)

    # invited: the card appears on Bob's screen, at his own table; he dismisses it
    ann.click(f"{friend} .invite-friend")
    wait_text(ann, f"{friend} .invite-friend", zh["friends.invited"])
    card = bob.locator(".invite-card")
    card.wait_for(timeout=30000)
    assert card.inner_text().startswith(
        ja["invite.from"].format(name="Ann", game=ja["baohuang.title"])
    )
    for viewport, label in ((DESKTOP, "1280"), (PHONE, "390")):
        bob.set_viewport_size(viewport)
        bob.screenshot(path=str(artifacts() / f"friends-invite-ja-{label}.png"))
    bob.set_viewport_size(DESKTOP)
    en = words("en")  # a language chosen meanwhile words the card again
    bob.select_option("#lang", "en")
    wait_text(bob, ".invite-card", en["invite.from"].format(name="Ann", game=en["baohuang.title"]))
    bob.select_option("#lang", "ja")
    wait_text(bob, ".invite-card", ja["invite.accept"])
    bob.click(".invite-card .dismiss-invite")
    assert bob.locator(".invite-card").count() == 0
    assert bob.url == bobs_room  # still at his table
    # at his table his page asked when its connection opened and when it was told, no more
    # (a page asking every 2 s would have asked once for each 2 s spent there)
    there = [a for a in asks if a >= at_his_table]
    assert len(there) <= 3 < (time.monotonic() - at_his_table) / 2, (len(there), asks)

    # invited again (the list knows the first was answered) while he is in the lobby: he joins
    # with one tap
    bob.goto(web_server.url)
    bob.wait_for_selector("#create")
    open_friends(ann)
    wait_text(ann, f"{friend} .invite-friend", zh["friends.invite"])
    ann.click(f"{friend} .invite-friend")
    card.wait_for(timeout=30000)
    bob.click(".invite-card .accept-invite")
    bob.wait_for_url(re.compile(re.escape(room.split("?")[0])))
    bob.wait_for_selector(".seats li.mine[data-seat='1']")
    ann.wait_for_selector(f".seats li[data-seat='1'] a[href='#/player/{bob_id}']")
    open_friends(ann)
    wait_text(ann, f"{friend} .presence", zh["friends.here"])
    assert ann.errors == [] and bob.errors == []


def test_an_invite_at_a_table_goes_when_it_expires_without_an_ask(web_server, browser, monkeypatch):
    """A table's page asks only when told, so the card must go by itself at its expiry: Bob,
    at his table, is shown Ann's invite (told by his connection), and it goes as it expires,
    his page asking nothing meanwhile."""
    monkeypatch.setattr(invite_store, "INVITE_SECONDS", 6.0)
    http = httpx.Client(base_url=web_server.url, timeout=30)

    def account(name: str, token: str | None = None) -> tuple[str, dict]:
        if token is None:
            token = http.post("/api/guests", json={"name": name}).json()["token"]
        auth = {"Authorization": f"Bearer {token}"}
        body = {"name": f"{name}-{time.monotonic_ns()}", "password": PASSWORD}
        http.post("/api/account", json=body, headers=auth).raise_for_status()
        return http.get("/api/me", headers=auth).json()["player"], auth

    bob = person(browser, web_server.url, "Bob")
    bob_id, bob_auth = account("Bob", bob.evaluate("localStorage.getItem('yamen.token')"))
    ann_id, ann_auth = account("Ann")
    http.put(f"/api/friends/{bob_id}", headers=ann_auth).raise_for_status()
    http.put(f"/api/friends/{ann_id}", headers=bob_auth).raise_for_status()
    create_room(bob, "baohuang")
    room = http.post("/api/rooms", json={"game": "baohuang", "seat": 0}, headers=ann_auth).json()
    asks: list[float] = []
    bob.on("request", lambda r: "/api/invites" in r.url and asks.append(time.monotonic()))
    body = {"to": bob_id, "room": room["id"]}
    posted = time.monotonic()
    http.post("/api/invites", json=body, headers=ann_auth).raise_for_status()
    bob.locator(".invite-card").wait_for(timeout=30000)
    bob.locator(".invite-card").wait_for(state="detached", timeout=30000)
    expired = posted + invite_store.INVITE_SECONDS
    assert time.monotonic() > expired - 1  # gone at its expiry (told to the second), not before
    # ... by itself: nothing asked after it expired (asks before it may show the card twice:
    # the connection's welcome, when it came after the invite, and the `invites` frame)
    assert [a for a in asks if a > expired] == []
    assert bob.errors == []
