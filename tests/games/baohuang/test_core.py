"""Baohuang's compiled core (yamen/games/baohuang/_core.c) agrees with the Python engine and
the rules bot's playout policy at every decision (yamen/bots/baohuang/lockstep.py), and the
comparison catches a one-line difference planted in the core's rules, scoring or policy."""

from __future__ import annotations

import contextlib
import importlib.machinery
import importlib.util
import random
import shutil
import subprocess
import sysconfig
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from yamen.bots.baohuang import lockstep, playout
from yamen.engine import game_type, get_game
from yamen.games.baohuang import core
from yamen.games.baohuang.actions import HAND_ON
from yamen.games.baohuang.core import CORE, pack, packed_hands
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.rules import BaohuangState
from yamen.records import Record

SOURCE = Path(core.__file__).with_name("_core.c")
needs_core = pytest.mark.skipif(
    CORE is None, reason="the compiled core is not built here (no C compiler at install)"
)


@needs_core
@pytest.mark.parametrize("options", lockstep.CASES, ids=lambda o: "-".join(map(str, o.values())))
def test_core_and_python_agree_at_every_decision(options):
    decisions, playouts = lockstep.run(CORE, [options], deals=6, seed=3)
    assert decisions > 500 and playouts == 12


@needs_core
@pytest.mark.parametrize("options", lockstep.CASES, ids=lambda o: "-".join(map(str, o.values())))
def test_the_vector_path_observes_and_hands_back_as_python(options):
    """Every decision of every deal stepped by batch.py's stepper: the seat, legal ids and
    observation; every deal handed back: the match as Python's."""
    assert lockstep.check_observations(CORE, options, games=3, seed=1)[0] > 500


@needs_core
def test_a_tribute_counts_a_card_called_after_it_was_paid():
    options, seed = lockstep.CALLED_AFTER_TRIBUTE
    assert lockstep.check_observations(CORE, options, games=2, seed=seed)[0] > 500


@needs_core
def test_the_cores_observation_layout_is_the_encoders():
    from yamen.games.baohuang.encoding import OFFSET

    written = CORE.OBSERVATION_OFFSETS
    assert len(written) > 20 and written == {name: OFFSET[name] for name in written}


@needs_core
def test_the_vector_path_hands_a_void_deal_back_to_be_dealt_again():
    """The emperor card handed on round the table to a holder with nothing to call: void."""
    decisions, voids = lockstep.check_observations(
        CORE, lockstep.VOID_CASE, games=4, seed=1, prefer=(HAND_ON,)
    )
    assert voids > 0 and decisions > 500


TRIBUTE_CASES = [{"variant": "japanese"}, {"variant": "japanese", "guard_by_fourth": True}]


@needs_core
@pytest.mark.parametrize("options", TRIBUTE_CASES, ids=["japanese", "guard_by_fourth"])
def test_core_and_python_pay_the_same_tribute(options):
    """The same cards, givers and takers, and Python's random state left as the core left it."""
    assert lockstep.check_tribute(CORE, options, times=300, seed=5) > 200


@needs_core
def test_a_bad_tribute_is_an_error():
    hands = packed_hands(lockstep.at_play({"variant": "japanese"}, 1, random.Random(0)).hands)
    words = random.Random(0).getstate()[1]
    assert CORE.tribute(hands, (0, 0, 0, 0, 0), 0, False, words) is None  # nothing scored
    with pytest.raises(ValueError, match="shares differ"):
        CORE.tribute(hands, (24, 12, -12, -12, 0), 0, False, words)  # three give, two take
    with pytest.raises(ValueError, match="tribute takes"):
        CORE.tribute(hands[:-1], (24, 12, -12, -12, -12), 0, False, words)
    with pytest.raises(ValueError, match="random state"):
        CORE.tribute(hands, (24, 12, -12, -12, -12), 0, False, words[:-1])
    with pytest.raises(ValueError, match="packed deal: byte"):
        CORE.tribute(b"\x09" * (5 * 56), (24, 12, -12, -12, -12), 0, False, words)


DEAL_CASES = [{"variant": "shandong"}, *TRIBUTE_CASES]


@needs_core
@pytest.mark.parametrize("options", DEAL_CASES, ids=["shandong", "japanese", "guard_by_fourth"])
def test_core_and_python_deal_alike(options):
    """From the same random states: the same hands, and the same state left."""
    lockstep.check_deals(CORE, options, times=200, seed=7)


@needs_core
def test_a_bad_deal_is_an_error():
    words = random.Random(0).getstate()[1]
    for args, match in (
        ((bytes(range(52)) * 4 + bytes(1), 0, 0, -1), "more than 4 copies"),
        ((bytes([56]) * 10, 1, 0, -1), "no kind"),
        ((bytes(4), 0, 0, -1), "deal takes"),
        ((bytes(range(52)), 2, 0, -1), "deal takes"),
        ((bytes(range(52)), 1, 5, -1), "deal takes"),
        ((bytes(range(52)), 0, 0, 56), "deal takes"),
    ):
        with pytest.raises(ValueError, match=match):
            CORE.deal(*args, words)
    with pytest.raises(ValueError, match="random state"):
        CORE.deal(bytes(range(52)), 0, 0, -1, words[:-1])


@needs_core
@pytest.mark.parametrize("variant", ["shandong", "japanese"])
def test_whole_deals_played_in_the_core(variant):
    """Dealt, opened and played by random legal actions: as many decisions a deal as the Python
    engine's random games take (about 470 shandong, 280 japanese), the same for the same seed."""
    state = get_game("baohuang", {"variant": variant}).new_state(1)
    rules = pack(state)
    decisions = CORE.random_deals(rules, 7, 200)
    assert decisions == CORE.random_deals(rules, 7, 200) != CORE.random_deals(rules, 8, 200)
    expected = {"shandong": 470, "japanese": 280}[variant]
    assert 0.85 * expected < decisions / 200 < 1.15 * expected
    no_marked_joker = bytearray(rules)
    for seat in range(5):
        no_marked_joker[seat * 56 + 55] = 0
    with pytest.raises(ValueError, match="deals no game|marked big joker"):
        CORE.random_deals(bytes(no_marked_joker), 7, 1)
    with pytest.raises(ValueError, match="marked big joker"):
        CORE.begin(rules, bytes(no_marked_joker[: 5 * 56]))


RECORDS = sorted((Path(__file__).parent / "records").glob("*.json"))


@needs_core
@pytest.mark.parametrize("path", RECORDS, ids=[p.stem for p in RECORDS])
def test_core_and_python_agree_on_every_record(path):
    assert lockstep.check_record(CORE, Record.load(path)) > 50


@needs_core
def test_a_refused_action_and_a_bad_deal_are_errors():
    state = lockstep.at_play({"variant": "shandong"}, 1, random.Random(0))
    packed = pack(state)
    illegal = next(a for a in range(64, 30_000) if a not in state.legal(state.pending()[0]))
    with pytest.raises(ValueError, match=f"action {illegal} is not legal"):
        CORE.step(packed, illegal)
    with pytest.raises(ValueError, match="not legal"):
        CORE.play_out(packed, illegal)
    with pytest.raises(ValueError, match=f"a packed deal is {CORE.PACKED_SIZE} bytes"):
        CORE.legal(packed[:-1])
    for at, value in ((0, 9), (CORE.PACKED_SIZE - 1, 7), (300, -3)):  # a hand, the seat to act
        forged = bytearray(packed)
        forged[at] = value & 0xFF
        with pytest.raises(ValueError, match=f"byte {at} is {value}, not in"):
            CORE.play_out(bytes(forged))
    seat = state.pending()[0]
    emptied = bytearray(packed)
    emptied[seat * 56 : seat * 56 + 56] = bytes(56)  # the seat to act holds nothing
    with pytest.raises(ValueError, match="packed deal: a seat out holds cards, or one in holds"):
        CORE.random_playouts(bytes(emptied), 1, 1)
    opening = get_game("baohuang", {"variant": "shandong"}).new_state(1)
    assert isinstance(opening, BaohuangState) and opening.phase is Phase.GRAB
    packed = pack(opening)
    for call in (CORE.choose, CORE.play_out, CORE.outcome):  # the policy plays, and a deal
        with pytest.raises(ValueError, match="in play|before play"):  # is scored, in play
            call(packed)
    holder = opening.holder  # the grab window asks the four others
    with pytest.raises(ValueError, match=f"seat {holder} is not to act"):
        CORE.legal(packed, holder)
    asked = opening.pending()
    assert [CORE.legal(packed, s) for s in asked] == [opening.legal(s) for s in asked]


@needs_core
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 400), st.integers(-128, 127)), min_size=1, max_size=6))
def test_no_forged_deal_takes_the_core_out_of_bounds(changes):
    """A packed deal with bytes changed is refused (ValueError) or played: never a crash."""
    in_play = lockstep.at_play({"variant": "japanese"}, 2, random.Random(1))
    dealt = lockstep.at_deal({"variant": "shandong"}, 2, random.Random(1))  # its grab window
    calls = (CORE.legal, CORE.choose, CORE.play_out, CORE.outcome)
    for state in (in_play, dealt):
        packed = bytearray(pack(state))
        for at, value in changes:
            packed[at % len(packed)] = value & 0xFF
        for call in (*calls, lambda p: CORE.random_playouts(p, 1, 2)):
            with contextlib.suppress(ValueError):
                call(bytes(packed))


@needs_core
def test_search_playouts_score_the_same_with_and_without_the_core(monkeypatch):
    """Playouts (what search, bidding and analysis play) through the core and through Python:
    the same scores from the same sampled deals, for every first action."""
    rng = random.Random(2)
    compared = 0
    for seed in range(12):
        for options in ({"variant": "shandong"}, {"variant": "japanese", "lowest_held": True}):
            state = lockstep.at_play(options, seed, rng)
            legal = state.legal(state.pending()[0])
            with_core = [playout.Playouts(state).scores(a) for a in legal[:6]]
            monkeypatch.setattr(playout, "CORE", None)
            in_python = [playout.Playouts(state).scores(a) for a in legal[:6]]
            monkeypatch.undo()
            assert with_core == in_python
            compared += len(legal[:6])
    assert compared > 100


def test_the_game_says_which_engine_runs_it(monkeypatch):
    kind = game_type("baohuang")
    assert kind.engine() == (
        "python"
        if CORE is None
        else "python, compiled core for search playouts and vector environments"
    )
    monkeypatch.setattr(core, "CORE", None)  # YAMEN_CORE=python, or nothing built
    assert kind.engine() == "python"


# One-line differences planted in the core, each in a rule or in the policy: (what, line, planted)
PLANTED = [
    ("set comparison", "(uint32_t)(~0u << (rb + 1))", "(uint32_t)(~0u << (rb))"),
    ("claim (接風)", "d->to_ask[0] == d->after[owner][0])", "d->to_ask[0] != d->after[owner][0])"),
    ("hard pass", "if (!d->hard_pass || !d->passed[s])", "if (!d->hard_pass || d->passed[s])"),
    ("sunk rank", "if (n > 0 && r == d->sink_rank)", "if (n > 1 && r == d->sink_rank)"),
    ("policy: beat limit", "        limit = 2.0;", "        limit = 2.5;"),
    ("scoring: place points", "{6, 3, 0, -3, -6}", "{6, 2, 0, -3, -6}"),
    ("scoring: a lone emperor's quarters", "-points * TWELFTHS / 4", "-points * TWELFTHS / 3"),
    ("scoring: the rebellion", "int factor = d->rebellion ? 2 : 1;", "int factor = 1;"),
    ("tribute: the next best card", "            left[kind]--;", "            (void)left;"),
    ("tribute: the shuffle", "int j = below(g, i + 1)", "int j = below(g, i)"),
    (
        "opening: the grab's priority",
        "int s = (d->holder - i + 5) % 5;",
        "int s = (d->holder + i) % 5;",
    ),
    ("opening: 暗保", "seat == d->partner && d->royalist_declares", "seat == d->partner"),
    ("opening: a round of holders", "d->handed_on == ROUND_OF_HOLDERS ||", "d->handed_on == 4 ||"),
    ("dealing: the first seat", "(i + first) % 5", "(i + first + 1) % 5"),
    ("dealing: the marked joker", "hands[below(g, 5)][extra]++", "hands[below(g, 4)][extra]++"),
]


# ... and in the vector environment's path (the observation, and what a deal's memory keeps)
PLANTED_OBSERVATION = [
    (
        "the trick's words",
        "(action >= PLAY_BASE ? 0 : action + 1)",
        "(action >= PLAY_BASE ? 0 : action)",
    ),
    ("the unseen cards", "deck[j] - m->total[j] - block[j]", "deck[j] - block[j]"),
    (
        "the history's order",
        "int at = (m->sets - 1 - i) % RECENT;",
        "int at = (m->sets + i) % RECENT;",
    ),
    ("the called card's copies", "if (k == called) row[TOLD]", "if (k == called + 1) row[TOLD]"),
    ("a new lead empties the trick", "        m->moves = 0;", "        (void)m;"),
    ("a window's answers", "if (window && d->answers[s] >= 0)", "if (d->answers[s] >= 0)"),
    ("the phase's column", "{5, 0, 1, 2, 3, 4}", "{5, 0, 1, 2, 4, 3}"),
    ("a grab's own role", "d->solo || d->grabbed ? R_SOLO", "d->solo ? R_SOLO"),
    (
        "the tribute's called card",
        "kind_block(m->tribute[me][given], called, block);",
        "kind_block(m->tribute[me][given], -1, block);",
    ),
]


def build_planted(tmp: Path, line: str, planted: str):
    """The core compiled with one line changed, loaded under its own path."""
    text = SOURCE.read_text(encoding="utf-8")
    assert text.count(line) == 1, f"the line to plant in is not unique: {line}"
    source = tmp / "_core.c"
    source.write_text(text.replace(line, planted), encoding="utf-8")
    library = tmp / f"_core{sysconfig.get_config_var('EXT_SUFFIX')}"
    include = sysconfig.get_paths()["include"]
    command = ["gcc", "-O1", "-shared", "-fPIC", f"-I{include}", "-o", str(library), str(source)]
    subprocess.run(command, check=True, capture_output=True)
    loader = importlib.machinery.ExtensionFileLoader("_core", str(library))
    spec = importlib.util.spec_from_file_location("_core", library, loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc to build planted cores with")
@pytest.mark.parametrize(("what", "line", "planted"), PLANTED, ids=[p[0] for p in PLANTED])
def test_a_planted_difference_is_caught(tmp_path, what, line, planted):
    mutant = build_planted(tmp_path, line, planted)
    with pytest.raises(lockstep.Disagreement):
        for options in DEAL_CASES:
            lockstep.check_deals(mutant, options, times=200, seed=7)
        for options in TRIBUTE_CASES:
            lockstep.check_tribute(mutant, options, times=300, seed=5)
        lockstep.run(mutant, lockstep.CASES, deals=6, seed=3)


@pytest.mark.skipif(shutil.which("gcc") is None, reason="no gcc to build planted cores with")
@pytest.mark.parametrize(
    ("what", "line", "planted"), PLANTED_OBSERVATION, ids=[p[0] for p in PLANTED_OBSERVATION]
)
def test_a_planted_difference_in_the_observation_is_caught(tmp_path, what, line, planted):
    mutant = build_planted(tmp_path, line, planted)
    with pytest.raises(lockstep.Disagreement):
        for options in lockstep.CASES:
            lockstep.check_observations(mutant, options, games=2, seed=3)
        lockstep.check_observations(mutant, lockstep.VOID_CASE, games=4, seed=1, prefer=(HAND_ON,))
        options, seed = lockstep.CALLED_AFTER_TRIBUTE
        lockstep.check_observations(mutant, options, games=2, seed=seed)
