"""The terminal client: whole games of every game with scripted input, bad input, quitting."""

from __future__ import annotations

import json
import random

import pytest
from typer.testing import CliRunner

from tests.conformance import defaults, rulesets
from yamen.bots import make_bot
from yamen.cli import app
from yamen.engine import Game, game_names, get_game, new_game
from yamen.terminal import TerminalGame, event_text, moves_text

runner = CliRunner()
# every registered game's rules (tests/conformance.py), and a match of two deals (its breaks)
GAMES = [case.param() for case in rulesets()] + [
    pytest.param("baohuang", {"variant": "japanese", "deals": 2}, id="baohuang-deals=2")
    for name in game_names()
    if name == "baohuang"
]


def client(game, options, seed, seat, ask):
    state = new_game(game, options, seed)
    others = [s for s in range(state.num_seats) if s != seat]
    bots = {s: make_bot(game, "random") for s in others}
    rngs = {s: random.Random(s) for s in others}
    said: list[str] = []
    return TerminalGame(state, seat, bots, rngs, ask, said.append), said


def typist(seed):
    """A person who answers with a move's number or its notation, at random."""
    rng = random.Random(seed)
    holder = {}

    def ask(prompt):
        game = holder["client"]
        legal = game.state.legal(game.seat)
        index = rng.randrange(len(legal))
        if rng.random() < 0.5:
            return str(index + 1)
        return game.state.action_text(legal[index])

    return holder, ask


def check_terminal_game(game: str, options: dict, seed: int) -> None:
    """The contract: a person at the terminal (seat 1, typing a move's number or its notation
    at random) plays a whole game against random bots and is told the result."""
    holder, ask = typist(7)
    seat = 1
    terminal, said = client(game, options, seed, seat, ask)
    holder["client"] = terminal
    result = terminal.run()
    assert result is not None and terminal.state.over
    text = "\n".join(said)
    assert "Your moves:" in text and "Game over." in text
    assert f"{seat} (you)" in text


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_with_scripted_input(game, options):
    check_terminal_game(game, options, 5)


@pytest.mark.parametrize("game", game_names())
def test_the_play_command_plays_a_whole_game(game):
    """Always the first move, through the command and its standard input."""
    args = ["play", game, "--seat", "2", "--seed", "4", "--bots", "random"]
    result = runner.invoke(app, args, input="1\n" * 3000)
    assert result.exit_code == 0, result.output
    assert "Game over." in result.stdout and "seed 4" in result.stdout


def snapshot(state, seat):
    return json.dumps(
        [state.view(None), state.view(seat), state.pending(), state.legal(seat)], default=str
    )


@pytest.mark.parametrize(("game", "options"), [case.param() for case in defaults()])
def test_bad_input_is_an_error_and_asks_again_without_changing_the_game(game, options):
    lines = iter(["nonsense words", "0", "9999", "", "?", "pass pass pass", "1", "quit"])
    seen = []

    def ask(prompt):
        seen.append((prompt, snapshot(terminal.state, terminal.seat)))
        return next(lines)

    terminal, said = client(game, options, 3, 0, ask)
    assert terminal.run() is None  # ended by "quit"
    prompts = [p for p, _ in seen]
    assert prompts[:7] == ["seat 0> "] * 7
    assert len({s for _, s in seen[:7]}) == 1  # six bad lines changed nothing
    errors = [line for line in said if line.startswith("error:")]
    assert len(errors) == 4  # two bad notations, two numbers out of range
    assert "there is no move 0" in errors[1] and "there is no move 9999" in errors[2]
    assert all("Try again" in e for e in errors)
    assert said[-1] == "Game ended by you; nothing was recorded."


def test_end_of_input_ends_the_game_cleanly():
    def ask(prompt):
        raise EOFError

    terminal, said = client("criminal_poker", None, 1, 0, ask)
    assert terminal.run() is None and not terminal.state.over
    result = runner.invoke(app, ["play", "bao_qingtian", "--seed", "1"], input="")  # default bots
    assert result.exit_code == 0 and "Game ended by you" in result.stdout


def test_the_person_sees_only_its_own_hand():
    """Events pass through visible_to: Baohuang deals five private hands, one is shown."""
    terminal, said = client("baohuang", None, 2, 3, lambda prompt: "quit")
    terminal.run()
    dealt = [line for line in said if line.startswith("  your hand: ")]
    own = " ".join(terminal.state.view(3)["hand"])
    assert dealt == [f"  your hand: {own}"]


def test_the_person_is_asked_even_with_one_legal_move():
    """A seat with nothing to beat the table with has only 'pass' (no yield in the Japanese
    variant); it is asked all the same, never answered for."""
    asked = []

    def ask(prompt):
        asked.append(len(terminal.state.legal(terminal.seat)))
        return "1"

    terminal, _ = client("baohuang", {"variant": "japanese"}, 8, 4, ask)
    assert terminal.run() is not None
    assert 1 in asked


def test_bad_seat_and_unknown_bot_exit_2():
    seat = runner.invoke(app, ["play", "baohuang", "--seat", "5"])
    assert seat.exit_code == 2 and "--seat must be from 0 to 4" in seat.stderr
    bot = runner.invoke(app, ["play", "baohuang", "--bots", "nobody"])
    assert bot.exit_code == 2 and "no bot 'nobody'" in bot.stderr


def test_every_game_renders_its_own_text_and_the_default_dumps_the_view():
    for name in game_names():
        state = new_game(name, None, 0)
        text = get_game(name).render_text(state.view(0))
        assert "0 (you)" in text and "{" not in text  # a table, not a JSON dump
    dump = Game.render_text({"phase": "play", "hand": ["9H", "9S"], "table": {"owner": 1}})
    assert dump.splitlines() == ["phase: play", "hand: 9H 9S", 'table: {"owner": 1}']


def test_baohuang_hand_is_grouped_by_rank():
    view = new_game("baohuang", None, 0).view(0)
    text = get_game("baohuang").render_text(view)
    nines = [c for c in view["hand"] if c.startswith("9")]
    if nines:
        assert f"  9 x{len(nines):<2} {' '.join(nines)}" in text


def test_event_and_move_text():
    from yamen.engine import Event

    event = Event("play", {"seat": 2, "cards": ["9H", "9S"], "out": False})
    assert event_text(event, 2) == "  you: play (cards 9H 9S, out no)"
    assert event_text(event, 0) == "  seat 2: play (cards 9H 9S, out no)"
    assert moves_text(["pass", "9 9"]).splitlines()[1].split() == ["1)", "pass", "2)", "9", "9"]


def test_a_judge_types_its_own_words_at_the_terminal():
    """The words travel with the text (apply_text): they are the sentence's punishment."""
    from tests.games.bao_qingtian.test_support import make_deal, new

    deal = make_deal(5, {0: "EMP SEV", 1: "JUD", 2: "WANG", 3: "THF", 4: "ADD SUB MUL DIV"})
    state = new(deal=deal)
    asked_to_punish = []

    def ask(prompt):
        if terminal.state.phase == "punish":
            asked_to_punish.append(prompt)
            if len(asked_to_punish) > 1:
                raise EOFError  # refused: the person gives up (the test fails below)
            return 'punish "recite   a poem" 3'
        return "1"

    others = [0, 2, 3, 4]
    bots = {s: make_bot("bao_qingtian", "random") for s in others}
    said: list[str] = []
    terminal = TerminalGame(state, 1, bots, {s: random.Random(s) for s in others}, ask, said.append)
    result = terminal.run()
    assert result is not None and asked_to_punish == ["seat 1> "]  # taken at the first try
    assert not [line for line in said if line.startswith("error:")]
    assert result.details["punishment"] == "recite a poem"
    assert result.details["sentence"][0] == {"step": "judge", "seat": 1, "number": 3, "count": 3}
    assert any("punishment" in line and "recite a poem" in line for line in said)


def test_events_are_in_the_games_words_and_never_cut():
    from yamen.engine import Event, Game
    from yamen.terminal import event_line

    class Words(Game):  # a game that words one kind of event
        @classmethod
        def event_text(cls, event, me, view):
            return (
                f"{'you' if event.data['seat'] == me else 'someone'} waved"
                if (event.kind == "wave")
                else None
            )

    assert event_line(Words.event_text, Event("wave", {"seat": 1}), 1, {}) == "  you waved"
    long = Event("details", {"seat": 0, "text": "x" * 500})
    assert event_line(Words.event_text, long, 1, {}).endswith("x" * 500 + ")")  # whole


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_a_whole_game_shows_its_events_in_words(game, options):
    holder, ask = typist(3)
    terminal, said = client(game, options, 4, 0, ask)
    holder["client"] = terminal
    terminal.run()
    events = [line for line in said if line.startswith("  ") and not line.startswith("   ")]
    assert events and not [line for line in events if line.endswith("...")]
    assert not [line for line in events if line.startswith(("  seat 0:", "  you:"))]


def test_criminal_poker_evidence_is_named_at_the_terminal():
    terminal, said = client("criminal_poker", {"mode": "sheriff"}, 3, 0, lambda prompt: "quit")
    terminal.run()
    text = "\n".join(said)
    hidden = terminal.state.view(0)["hidden"]
    names = [terminal.state.view(0)["cards"][c]["name"]["en"] for c in hidden]
    assert all(name in text for name in names)
    assert f"your face-down evidence: {'; '.join(names)}" in text


def test_a_refused_baohuang_play_says_why():
    from tests.games.baohuang.helpers import make_deal, new, to_play

    state = new(deal=make_deal("shandong", {0: "9C 9D 9S"}))
    to_play(state)
    seat = state.pending()[0]
    nines = sum(card.startswith("9") for card in state.view(seat)["hand"])
    typed = iter([" ".join(["9"] * (nines + 1)), "quit"])
    others = [s for s in range(5) if s != seat]
    bots = {s: make_bot("baohuang", "random") for s in others}
    said: list[str] = []
    rngs = {s: random.Random(s) for s in others}
    TerminalGame(state, seat, bots, rngs, lambda prompt: next(typed), said.append).run()
    errors = [line for line in said if line.startswith("error:")]
    assert len(errors) == 1 and "you hold" in errors[0], errors
    assert "not a legal action" not in errors[0]
