"""Every event of every game is told in words, in all four languages, as the room's log shows
it (context.js ``describe``: the game's table module, else the shell's fallback, which shows
the raw data). The cases come from the registry (tests/conformance.py ``under_each_choice``):
random play of each case collects each kind of event the engine emits, in each shape its data
takes (a field null or set, a list empty or not), with the view of the seat (or spectator) it
was sent to; the page's own modules then word each one. A new game, or a new event of a game,
is enrolled without a line here, and fails until its words are in its table module and
catalog. A line is never raw (``key=value``, JSON, a catalog key, the event's own name), never
left in English on a Chinese or Japanese page, and no step tells the same line twice (a
Baohuang grab was once told by the grab window's closing and by the grab)."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from tests.conformance import under_each_choice
from tests.web.helpers import needs_chromium
from yamen.engine import Event, State, game_names, get_game

pytestmark = needs_chromium

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
SEEDS = (1, 2, 3)  # random games a case
GAMES = game_names()  # every registered game
RAW = re.compile(r"\b(undefined|null|NaN)\b|\[object |[{}=]|\b[a-z_]+\.[a-z_]+(\.[a-z_]+)*\b")
LATIN_KEPT = {"A", "K", "Q", "J"}  # the cards' rank letters


def shape(event: Event) -> tuple:
    """An event's kind and the shape of its data: each field null, empty, a flag's value, or
    the type of what it holds."""

    def of(value: Any) -> str:
        if value is None or value in ([], {}, ""):
            return repr(value)
        return repr(value) if isinstance(value, bool) else type(value).__name__

    return (event.kind, tuple(sorted((k, of(v)) for k, v in event.data.items())))


def as_sent(state: State, audience: int | None, events: list[Event]) -> dict[str, Any]:
    """What the page of ``audience`` holds when it words a step: its table, the events it was
    sent (JSON, as frames carry them), the table's number of seats (bots, named in its words)."""
    result = state.result()
    table = {
        "view": state.view(audience),
        "legal": [],
        "pending": list(state.pending()),
        "seq": 0,
        "number": 1,
        "deadlines": {},
        "result": None if result is None else result.to_json(),
        "totals": [],
    }
    sent = [
        {"kind": e.kind, "data": e.data}
        for e in events
        if e.to is None or (audience is not None and audience in e.to)
    ]
    step = {"table": table, "events": sent, "seat": audience, "seats": state.num_seats}
    return json.loads(json.dumps(step, default=str))


def samples(game: str) -> tuple[list[dict[str, Any]], set[str]]:
    """Steps of random play, as each audience got them, that between them hold every shape of
    every event the cases meet; and the kinds met."""
    kept, shapes = [], set()
    for case in [c for c in under_each_choice() if c.game == game]:
        for seed in SEEDS:
            state = get_game(game, case.options).new_state(seed)
            rng = random.Random(seed)
            step = list(state.opening_events)
            while True:
                audiences = {None} | {s for e in step if e.to for s in e.to[:1]}
                for audience in sorted(audiences, key=lambda a: -1 if a is None else a):
                    seen = [e for e in step if e.to is None or audience in e.to]
                    new = {shape(e) for e in seen} - shapes
                    if new:
                        shapes |= new
                        kept.append(as_sent(state, audience, step))
                if state.over:
                    break
                seat = rng.choice(state.pending())
                step = list(state.apply(seat, rng.choice(state.legal(seat))))
    return kept, {kind for kind, _ in shapes}


# The page's own log words: a room page on show with this game's table module, its seats bots
# (named in the page's language), each step's table as its audience held it.
WORDS = """async ([game, steps, langs]) => {
  const i18n = await import('/i18n.js');
  const { shell } = await import('/shell.js');
  const { describe } = await import('/context.js');
  let module;
  try {
    module = (await import(`/games/${game}.js`)).default;
  } catch {
    module = (await import('/games/generic.js')).default;
  }
  await i18n.loadGame(game);
  const room = { id: 'r', game, seats: [], status: 'playing', settings: {} };
  const out = {};
  for (const lang of langs) {
    await i18n.setLang(lang, false);
    out[lang] = steps.map((step) => {
      room.seats = Array.from({ length: step.seats }, () => ({ bot: 'rules', player: null }));
      shell.page = { id: 'r', room, table: step.table, seat: step.seat, chat: [], log: [], module };
      return step.events.map((e) => describe(e));
    });
  }
  shell.page = null;
  return out;
}"""


@pytest.mark.parametrize("game", GAMES)
def test_every_event_is_told_in_words_in_every_language(web_server, browser, game):
    steps, kinds = samples(game)
    page = browser.new_page()
    page.goto(web_server.url)
    page.wait_for_selector("#name")  # booted; the page's language is set, ours comes after
    said = page.evaluate(WORDS, [game, steps, LANGS])
    bad = []
    for lang in LANGS:
        for step, lines in zip(steps, said[lang], strict=True):
            told = [line for line in lines if line]
            for event, line in zip(step["events"], lines, strict=True):
                where = (
                    f"{lang} {event['kind']} {json.dumps(event['data'], ensure_ascii=False)[:80]}"
                )
                if not line:  # "": another event of its step tells it
                    if not told:
                        bad.append(f"{where}: nothing said of the step")
                    continue
                if RAW.search(line) or line.strip() == event["kind"]:
                    bad.append(f"{where}: raw {line!r}")
                latin = set(re.findall(r"[A-Za-z]+", line)) - LATIN_KEPT
                if lang != "en" and latin:
                    bad.append(f"{where}: English {sorted(latin)} in {line!r}")
            twice = {line for line in told if told.count(line) > 1}
            if twice:
                bad.append(f"{lang} step {[e['kind'] for e in step['events']]}: told twice {twice}")
    bad = list(dict.fromkeys(bad))  # (a line is often wrong in several steps alike)
    assert not bad, f"{game}: {len(bad)} wrong, of {sorted(kinds)}:\n" + "\n".join(bad[:40])
    page.close()
