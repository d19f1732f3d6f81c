"""A person against bots at a terminal: ``yamen play``.

The person sees only what a front may show a seat: the game's own text rendering of
``view(seat)`` (``Game.render_text``), the events that pass :func:`yamen.engine.visible_to` for
that seat, and its own legal moves. It names no game: the renderer, the notation
(``action_text``, and ``apply_text`` for a move typed out) and the bots come from the
registries.

The person is always asked, even with a single legal move: auto-answering would tell the
table who had a real choice (docs/protocol.md). Bots answer first when several seats owe a
decision at once, so the person's question comes when only the person is left. Input and
output are plain functions (``ask`` like :func:`input`, ``say`` like :func:`print`) so that a
test, or another front, can script a whole game.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Any

from yamen.bots import Bot, bot_move
from yamen.engine import (
    Action,
    Event,
    Game,
    Result,
    State,
    compact,
    game_type,
    score_json,
    visible_to,
)
from yamen.errors import IllegalAction, NotationError
from yamen.plaintext import table, who
from yamen.table import Table

QUIT = {"quit", "exit"}  # never "q": Q is a queen in Baohuang's notation
HELP = {"?", "help"}
HELP_TEXT = (
    "Type a move's number or the move itself in the game's notation; "
    "'?' shows the table again, 'quit' ends the game."
)


class Quit(Exception):
    """The person ended the game (``quit``, end of input or Ctrl-C)."""


class TerminalGame:
    """One game: the person at ``seat``, ``bots[s]`` at every other seat ``s``."""

    def __init__(
        self,
        state: State,
        seat: int,
        bots: dict[int, Bot],
        rngs: dict[int, random.Random],
        ask: Callable[[str], str] = input,
        say: Callable[[str], None] = print,
    ):
        self.state, self.seat, self.bots, self.rngs = state, seat, bots, rngs
        self.table = Table(state)  # no record and no hook: the terminal keeps no record
        self.ask, self.say = ask, say
        self.render = game_type(state.game).render_text
        self.words = game_type(state.game).event_text

    def run(self) -> Result | None:
        """Play to the end; the result, or ``None`` when the person quit."""
        title = game_type(self.state.game).title
        self.say(f"{title}: you are seat {self.seat} of {self.state.num_seats}. {HELP_TEXT}")
        self.show_events(self.state.opening_events)
        try:
            while not self.state.over:
                pending = self.state.pending()
                others = [s for s in pending if s != self.seat]
                if others:
                    bot_seat = others[0]
                    action = bot_move(
                        self.bots[bot_seat], self.state, bot_seat, self.rngs[bot_seat]
                    )
                    self.show_events(self.table.act(bot_seat, action))
                else:
                    self.show_events(self.person_move())
        except Quit:
            self.say("Game ended by you; nothing was recorded.")
            return None
        result = self.state.result()
        assert result is not None, "a game that is over has a result"
        self.say(self.render(self.state.view(self.seat)))
        self.say(result_text(result, self.seat))
        return result

    def person_move(self) -> list[Event]:
        """Show the table and the moves, ask until the person gives a legal one, and play
        it; the events it made."""
        self.say("")
        self.say(self.render(self.state.view(self.seat)))
        legal = self.state.legal(self.seat)
        texts = [self.state.action_text(a) for a in legal]
        self.say(moves_text(texts))
        while True:
            try:
                line = self.ask(f"seat {self.seat}> ").strip()
            except (EOFError, KeyboardInterrupt):
                raise Quit from None
            if line.lower() in QUIT:
                raise Quit
            if line.lower() in HELP or not line:
                self.say(self.render(self.state.view(self.seat)))
                self.say(moves_text(texts))
                self.say(HELP_TEXT)
                continue
            try:
                return self.play_move(line, legal)
            except (NotationError, IllegalAction) as exc:
                self.say(f"error: {exc}. Try again ('?' for the moves).")

    def play_move(self, line: str, legal: list[Action]) -> list[Event]:
        """Play a move given by its number in the list, or written in the game's notation
        (which may say more than the list: a Bao Qing-tian judge's own words); raise, with the
        game unchanged, on anything else."""
        if line.isdigit():
            number = int(line)
            if not 1 <= number <= len(legal):
                raise IllegalAction(f"there is no move {number}: choose 1 to {len(legal)}")
            return self.table.act(self.seat, legal[number - 1])
        return self.table.act_text(self.seat, line)

    def show_events(self, events: list[Event]) -> None:
        shown = visible_to(events, self.seat)
        if shown:
            view = self.state.view(self.seat)  # once: the game names its cards from it
            for event in shown:
                self.say(event_line(self.words, event, self.seat, view))


EventWords = Callable[[Event, int | None, Mapping[str, Any]], str | None]


def event_line(words: EventWords, event: Event, me: int | None, view: Mapping[str, Any]) -> str:
    """An event as the game words it (``Game.event_text``), else the generic line; whole,
    never cut."""
    text = words(event, me, view)
    return event_text(event, me) if text is None else f"  {text}"


def event_text(event: Event, me: int | None) -> str:
    """One event on one line, knowing no game: who, what, and the rest of its data."""
    data = dict(event.data)
    seat = data.pop("seat", None)
    actor = f"{who(seat, me)}: " if isinstance(seat, int) else ""
    details = ", ".join(f"{key} {_value(value)}" for key, value in data.items())
    return f"  {actor}{event.kind}" + (f" ({details})" if details else "")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return compact(value)


def moves_text(texts: list[str], width: int = 100) -> str:
    """The legal moves, numbered from 1, in columns."""
    cells = [f"{i:>3}) {text}" for i, text in enumerate(texts, 1)]
    cell = max(len(c) for c in cells) + 2
    per_line = max(1, width // cell)
    lines = [
        "".join(c.ljust(cell) for c in cells[i : i + per_line]).rstrip()
        for i in range(0, len(cells), per_line)
    ]
    return "Your moves:\n" + "\n".join(lines)


def result_text(result: Result, me: int) -> str:
    rows = [
        [place, f"{seat} (you)" if seat == me else seat, score_json(result.scores[seat]),
         "yes" if seat in result.winners else ""]
        for place, seat in enumerate(result.places, 1)
    ]  # fmt: skip
    verdict = "You won." if me in result.winners else "You did not win."
    return "Game over.\n" + table(["place", "seat", "score", "winner"], rows) + "\n" + verdict


def play_terminal(
    game: Game,
    seed: int,
    seat: int,
    bots: list[Bot],
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
) -> Result | None:
    """Start a game and play it with the person at ``seat``; ``bots`` are cycled over the
    other seats in seat order. Each bot draws from its own generator, made from the seed."""
    state = game.new_state(seed)
    others = [s for s in range(state.num_seats) if s != seat]
    seated = {s: bots[i % len(bots)] for i, s in enumerate(others)}
    rngs = {s: random.Random(f"yamen play {seed} {s}") for s in others}
    return TerminalGame(state, seat, seated, rngs, ask, say).run()
