"""Fuzzed notation: whatever text a seat writes, ``parse_action`` returns an action id (which
``check`` then accepts or refuses with :class:`IllegalAction`) or raises :class:`NotationError`
(or :class:`IllegalAction`), never another exception, and the game does not change.

Texts are mutations of the legal actions' own notation (the inputs a parser is most likely to
half-read: a seat number turned into ``²`` or ``①``, a count of 5,000 digits, a token dropped,
doubled or swapped), random Unicode, and huge numbers; each is tried on a game moved a random
number of random legal steps, as the seat to act and as a seat that owes nothing.
"""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conformance import checked, every_case, rulesets, snapshot
from yamen.engine import new_game
from yamen.errors import IllegalAction, NotationError

# every registered game's rules, by its declaration (tests/conformance.py)
GAMES = [case.param() for case in rulesets()]

# Tokens that look like numbers to one reader and not to another (str.isdigit accepts the
# superscripts and circled digits that int() refuses; int() accepts Arabic-Indic digits and
# refuses more than 4,300 digits), plus quotes, signs and odd spaces.
ODD = [
    "²", "①", "٣", "³", "⁰", "½", "-1", "+1", "1e3", "0x1", "1_0", "00000000003",
    "9" * 5000, "0" * 4400 + "1", "-" + "9" * 4301, "1.5", "∞", "NaN", '"', '""', "'", "*",
    "\u00a0", "\u3000", "\u200b", "\x00", "ﾠ", "ㅤ", "SJ*", "BJ*", "10", "T", "1H", "9♥",
]  # fmt: skip
odd_tokens = st.sampled_from(ODD) | st.text(max_size=6) | st.integers().map(str)
huge = st.builds(  # 4,301 digits and more: int() refuses them
    lambda lead, digit, n: lead + digit * n,
    st.sampled_from(["", "1", "-", "0"]),
    st.sampled_from("0123456789"),
    st.integers(4301, 6000),
)


def mutate(rng: random.Random, text: str) -> str:
    tokens = text.split(" ")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(tokens))
        how = rng.randrange(7)
        if how == 0:
            tokens[i] = rng.choice(ODD)
        elif how == 1:
            tokens.insert(i, rng.choice(ODD))
        elif how == 2 and len(tokens) > 1:
            del tokens[i]
        elif how == 3:
            tokens.insert(i, tokens[i])
        elif how == 4:
            tokens[i] = tokens[i].upper() if rng.random() < 0.5 else tokens[i].swapcase()
        elif how == 5:
            tokens[i] = tokens[i] + rng.choice(ODD)
        else:
            rng.shuffle(tokens)
    return rng.choice([" ", "  ", "\t", "\u3000"]).join(tokens)


def moved(game: str, options: dict, seed: int, steps: int):
    state = new_game(game, options, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.over:
            break
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
    return state


def check_text_read_or_refused(state, seat: int, text: str) -> None:
    """The contract: any text is read as an action id (which ``check`` accepts or refuses) or
    refused with NotationError (or IllegalAction), never another exception; nothing changes."""
    before = snapshot(state)
    try:
        action = state.parse_action(seat, text)
    except (NotationError, IllegalAction):
        pass
    else:
        assert type(action) is int, (text, action)
        with contextlib.suppress(IllegalAction):  # a reading need not be legal now
            state.check(seat, action)
    assert snapshot(state) == before, text


@pytest.mark.parametrize(("game", "options"), GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 120),
    kind=st.sampled_from(["mutated", "unicode", "huge", "odd"]),
    data=st.data(),
    to_act=st.booleans(),
)
def test_any_text_is_read_or_refused_and_changes_nothing(
    game, options, seed, steps, kind, data, to_act
):
    state = moved(game, options, seed, steps)
    if state.over:
        return
    seats = state.pending() if to_act else range(state.num_seats)
    seat = data.draw(st.sampled_from(list(seats)), label="seat")
    if kind == "mutated":
        texts = [state.action_text(a) for a in state.legal(state.pending()[0])]
        rng = random.Random(data.draw(st.integers(0, 2**32), label="mutation"))
        text = mutate(rng, rng.choice(texts))
    elif kind == "unicode":
        text = data.draw(st.text(max_size=40), label="text")
    elif kind == "huge":
        word = data.draw(st.sampled_from(["", "vote ", "next ", "arrest ", "judge ", "guess "]))
        text = word + data.draw(huge, label="number")
    else:
        text = " ".join(data.draw(st.lists(odd_tokens, min_size=1, max_size=4), label="tokens"))
    check_text_read_or_refused(state, seat, text)


def check_notation_round_trips(game: str, options: dict, seed: int) -> None:
    """The contract: every legal action's text reads back as that action, for its seat, and
    ``check_text`` writes it back the same (what a record stores is what a person typed)."""
    state = new_game(game, options, seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.over:
        if checked(step):
            for seat in state.pending():
                for action in state.legal(seat):
                    text = state.action_text(action)
                    assert state.parse_action(seat, text) == action, (step, seat, text)
                    assert state.check_text(seat, text) == text, (step, seat, text)
        seat = rng.choice(state.pending())
        state.apply(seat, rng.choice(state.legal(seat)))
        step += 1


ROUND_TRIP = [case.param() for case in every_case()]


@pytest.mark.parametrize(("game", "options"), ROUND_TRIP)
def test_every_legal_actions_notation_reads_back_as_itself(game, options):
    check_notation_round_trips(game, options, seed=2)


@pytest.mark.parametrize("text", ["vote ²", "next ²", "arrest ①", "vote " + "9" * 5000])
def test_criminal_poker_numbers_are_ascii_digits(text):
    state = new_game("criminal_poker", {"mode": "detective", "players": 4}, seed=1)
    with pytest.raises(NotationError):
        state.parse_action(0, text)


@pytest.mark.parametrize("text", ["appoint ²", "guess ① holds", "appoint " + "9" * 4400])
def test_bao_qingtian_numbers_are_ascii_digits(text):
    state = new_game("bao_qingtian", {"players": 5}, seed=1)
    with pytest.raises(NotationError):
        state.parse_action(0, text)


def test_leading_zeros_are_still_read_however_many():
    state = new_game("bao_qingtian", {"players": 5}, seed=1)
    assert state.parse_action(0, "appoint " + "0" * 4400 + "1") == state.parse_action(
        0, "appoint 1"
    )
    state = new_game("criminal_poker", {"mode": "detective", "players": 4}, seed=1)
    assert state.parse_action(0, "vote " + "0" * 4400 + "2") == state.parse_action(0, "vote 2")
