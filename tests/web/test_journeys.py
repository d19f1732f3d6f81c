"""A whole journey through the site, one for each language (issue 26), as a person makes it:
invited by a friend from the friends list, they join with one tap on the card and play a whole
game of Baohuang with the chores the apps do for players: the hint (提示) raises a set and one
more tap plays it, the page passes for them when pass is all they may answer (要不起), auto-play
(托管) is turned on, plays their seat, and is turned off, they leave their seat mid-game and
take it back, and the card counter (記牌器) is read against the cards the server's own state
has in the other hands. Then play now: one tap seats them at a public table, the wait is
shortened, bots fill the empty seats and the game begins; from the lobby, one tap leads back to
that table. Every step is checked in the page's own words."""

from __future__ import annotations

import re
import time

import httpx
import pytest

from tests.web.baohuang_table import COUNTER, LOCALES, TURN, unseen_truth, words
from tests.web.helpers import (
    DESKTOP,
    PHONE,
    act_once,
    create_room,
    fill_with_bots,
    person,
    room_id,
)
from yamen.server import invites

PASSWORD = "correct horse"
# who makes each journey, and on what (two on a phone, two on a desktop)
PEOPLE = {
    "en": ("Ann", DESKTOP),
    "zh-Hant": ("阿美", PHONE),
    "zh-Hans": ("小红", PHONE),
    "ja": ("葵", DESKTOP),
}


def account(http: httpx.Client, page, name: str) -> tuple[str, dict]:
    """The page's guest claims an account (over HTTP: the claim step has its own test)."""
    token = page.evaluate("localStorage.getItem('yamen.token')")
    auth = {"Authorization": f"Bearer {token}"}
    body = {"name": f"{name}-{time.monotonic_ns()}", "password": PASSWORD}
    http.post("/api/account", json=body, headers=auth).raise_for_status()
    return http.get("/api/me", headers=auth).json()["player"], auth


class Journey:
    """What the person has done so far at the table, step by step."""

    def __init__(self, page, name: str, lang: str, web_server):
        self.page, self.name, self.said, self.server = page, name, words(lang), web_server
        self.hinted = self.passed_for_me = 0
        self.auto_played = self.took_back = self.counted = False
        self.passes = {
            self.said[f"baohuang.action.{word}"] for word in ("pass", "pass_other", "yield")
        }

    @property
    def done(self) -> bool:
        steps = (self.auto_played, self.took_back, self.counted, self.hinted, self.passed_for_me)
        return all(steps)

    def moves(self) -> int:
        """The moves made so far in the game at my table, as the server counts them."""
        return self.server.app.state.rooms.loaded[room_id(self.page)].match.seq

    def answered(self, before: int, seconds: float = 10) -> None:
        """Until a move is made after ``before``: at my turn nobody moves until I do."""
        deadline = time.monotonic() + seconds
        while self.moves() == before:
            assert time.monotonic() < deadline, "my decision was not answered"
            time.sleep(0.02)

    def seat(self) -> int:
        return int(self.page.locator(".seats li.mine").get_attribute("data-seat"))

    def decide(self) -> None:
        """One decision of the person's, with the chore due at this point of the journey."""
        page = self.page
        turn = page.evaluate(TURN)
        if not turn["inPlay"]:
            act_once(page)  # grab, call, declare… (their words have tests of their own)
        elif not self.auto_played:
            self.auto_play_on_and_off()
        elif not self.took_back:
            self.leave_and_take_back()
        elif not self.counted and self.hinted + self.passed_for_me >= 3:
            shown = page.evaluate(COUNTER)  # mid-deal, my turn: nobody moves until I do
            truth = unseen_truth(self.server, page, self.seat())
            assert shown == {rank: truth.get(rank, 0) for rank in shown}, (shown, truth)
            assert set(truth) <= set(shown) and page.locator("#bh-counter").is_visible()
            self.counted = True
        elif turn["plays"]:
            page.click("#bh-hint")
            hinted = page.evaluate(TURN)
            assert hinted["play"] in turn["plays"]
            assert hinted["raised"] == len(hinted["play"].split())
            before = self.moves()
            page.click("#play")  # one more tap plays the hint
            self.answered(before)
            self.hinted += 1
        elif set(turn["words"]) <= self.passes:  # all I may answer: the page does, in time
            assert page.locator("#auto-pass").is_checked()
            self.answered(self.moves())
            self.passed_for_me += 1
        else:
            act_once(page)  # a pass I may make or not (the claim of 保子 is mine to make)

    def auto_play_on_and_off(self) -> None:
        page, said = self.page, self.said
        assert page.inner_text(".actions #auto-play") == said["auto_play"]
        page.click("#auto-play")
        page.wait_for_selector("#auto-bar #auto-play[aria-pressed=true]")
        assert page.inner_text("#auto-play") == said["auto_play_off"]
        mark = said["stand_in.mark"].format(name=self.name)
        page.wait_for_function("mark => document.body.textContent.includes(mark)", arg=mark)
        page.click("#auto-play")
        page.wait_for_selector("#auto-play[aria-pressed=false]")
        self.auto_played = True

    def leave_and_take_back(self) -> None:
        page, said = self.page, self.said
        page.click("#leave")
        page.click("#confirm-yes")
        page.wait_for_selector("#take-back")
        assert page.inner_text("#take-back") == said["left_seat_back"]
        page.click("#take-back")
        page.wait_for_selector("#leave")
        self.took_back = True


@pytest.mark.parametrize("lang", list(LOCALES))
def test_a_whole_journey(web_server, browser, monkeypatch, lang):
    monkeypatch.setattr(invites, "POLL_SECONDS", 2)  # the lobby asks for invites sooner
    monkeypatch.setattr("yamen.server.operations.new_seed", lambda: 11)  # the same deal each run
    said = words(lang)
    name, viewport = PEOPLE[lang]
    http = httpx.Client(base_url=web_server.url, timeout=30)
    me = person(browser, web_server.url, name, viewport, LOCALES[lang])
    friend = person(browser, web_server.url, "Bo")
    my_id, my_auth = account(http, me, name)
    friend_id, friend_auth = account(http, friend, "Bo")
    http.put(f"/api/friends/{friend_id}", headers=my_auth).raise_for_status()
    http.put(f"/api/friends/{my_id}", headers=friend_auth).raise_for_status()

    # invited from the friend's friends list; one tap on the card seats me at the friend's table
    link = create_room(friend, "baohuang", {"deals": 1})
    friend.click("#friends-open")
    invite = f"#friends-panel .friend[data-player='{my_id}'] .invite-friend"
    friend.wait_for_selector(invite)
    friend.click(invite)
    card = me.locator(".invite-card")
    card.wait_for(timeout=30_000)
    invited = said["invite.from"].format(name="Bo", game=said["baohuang.title"])
    assert card.inner_text().startswith(invited)
    me.click(".invite-card .accept-invite")
    me.wait_for_url(re.compile(re.escape(link.split("?")[0])))
    me.wait_for_selector(".seats li.mine")
    friend.click("#friends-close")
    fill_with_bots(friend)
    friend.click("#start")

    # the whole game: the friend plays the first action offered (a person's seat: the deal
    # waits for it, so that mine is never played through while I look), mine with the chores
    journey = Journey(me, name, lang, web_server)
    deadline = time.monotonic() + 300
    while not me.locator("#result").count():
        assert time.monotonic() < deadline, "the game did not end in time"
        if friend.locator(".your-move").count():
            act_once(friend)
        if me.locator(".your-move").count():
            journey.decide()
        time.sleep(0.05)
    assert journey.done, vars(journey)
    assert me.evaluate("document.documentElement.lang") == lang

    # play now: a public table, its wait shortened by me (who opened it), bots fill it
    me.goto(f"{web_server.url}/#/")
    me.locator(".play-now-button[data-game=baohuang]").first.click()
    me.wait_for_selector("#fill-note .timer")
    assert said["play_now.filling"] in me.inner_text("#fill-note")
    table = room_id(me)
    me.click("#room-setup summary")
    me.fill("#set-fill", "1")
    me.click("#save-settings")
    me.wait_for_selector(".baohuang", timeout=30_000)
    seats = http.get(f"/api/rooms/{table}").json()["seats"]
    assert sum(bool(s["bot"]) for s in seats) == len(seats) - 1

    # back in the lobby: one tap leads back to that table
    me.goto(f"{web_server.url}/#/")
    me.wait_for_selector("#back-to-table")
    assert me.inner_text("#back-to-table h2") == said["back.title"]
    me.click(f"#back-to-table .back-link[data-room='{table}']")
    me.wait_for_selector(".baohuang")
    assert room_id(me) == table
    assert not me.errors and not friend.errors
