"""The browser joins an update's lists sent by their tails (yamen/web/net.js ``joined``) as the
protocol says (docs/protocol.md, ``appended``): the page's function, given the tables of a
random Baohuang deal as the server writes them for one seat, holds the whole table at every
step, as yamen/client.py's ``joined`` does, and refuses (null: ask for the state) an update
in parts that is not its table's next."""

from __future__ import annotations

import json
import random

from tests.server.test_frame_tails import table
from tests.web.helpers import needs_chromium
from yamen.engine import get_game, new_game
from yamen.server import frames

pytestmark = needs_chromium

JOIN = """async ([first, updates]) => {
  const { joined } = await import('/net.js');
  let held = first;
  const views = [];
  for (const shown of updates) {
    held = joined(held, shown);
    views.push(held && held.view);
  }
  const behind = { ...first, seq: -5 };
  const parts = updates.find((u) => u.appended);
  return { views, refused: joined(behind, parts), none: joined(null, parts) };
}"""


def test_the_page_joins_an_updates_tails_as_the_protocol_says(web_server, browser):
    rng = random.Random(4)
    state = new_game("baohuang", {}, seed=9)
    first = json.loads(frames.text(table(state, 1, 0)))
    updates, wholes, base, seq = [], [], None, 0
    while not state.over:
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
        seq += 1
        whole = table(state, 1, seq)
        short, base = frames.tails(whole, base, get_game("baohuang").view_logs)
        updates.append(json.loads(frames.text(short)))
        wholes.append(json.loads(frames.text(whole))["view"])
    assert sum(bool(u["appended"]) for u in updates) > len(updates) // 2
    page = browser.new_page()
    page.goto(web_server.url)
    got = page.evaluate(JOIN, [first, updates])
    assert got["views"] == wholes
    assert got["refused"] is None and got["none"] is None
    page.close()
