"""The rule-based Baohuang bot: always legal, reaches every kind of decision, judges simple
positions sensibly, and beats random play clearly."""

from __future__ import annotations

import random
import time
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.baohuang.helpers import act, answer_all, make_deal, new
from yamen.bots import RandomBot, bot_move, make_bot, play_bots
from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.rules import BaohuangRulesBot, decide
from yamen.engine import new_game
from yamen.games.baohuang.actions import CALL_BASE, CLAIM, WORDS

VARIANTS = ("shandong", "japanese")


def bot_says(state, seat: int) -> str:
    """The rules bot's answer for ``seat``, as notation (bot_move checks it is legal)."""
    return state.action_text(bot_move(BaohuangRulesBot(), state, seat, random.Random(0)))


def test_registered_as_rules():
    assert isinstance(make_bot("baohuang", "rules"), BaohuangRulesBot)


# ---------------------------------------------------------------- always legal, every phase


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    variant=st.sampled_from(VARIANTS),
    seats=st.integers(1, 31),
    grabbing=st.booleans(),
)
def test_only_legal_actions_in_any_company(seed, variant, seats, grabbing):
    """Rules bots on the seats in the bit mask ``seats``, random bots elsewhere; two deals, so
    that japanese tribute is paid. The rules' own choice is checked, not the bot's last-resort
    fallback to the first legal action."""
    state = new_game("baohuang", {"variant": variant, "deals": 2, "grabbing": grabbing}, seed)
    rng = random.Random(seed)
    while not state.over:
        seat = state.pending()[0]
        legal = state.legal(seat)
        if seats >> seat & 1:
            action = decide(ViewPerspective(state.view(seat)), list(legal))
            assert action in legal, (state.view(seat), action)
        else:
            action = rng.choice(legal)
        state.apply(seat, action)
    assert state.result() is not None


def decision_kinds(variant: str, deals: int, seed: int) -> Counter:
    """What rules bots on every seat decided over a match: (phase, kind of action), counted
    only where the seat had a choice."""
    state = new_game("baohuang", {"variant": variant, "deals": deals}, seed=seed)
    bot = BaohuangRulesBot()
    rng = random.Random(seed)
    kinds: Counter = Counter()
    while not state.over:
        seat = state.pending()[0]
        legal = state.legal(seat)
        action = bot_move(bot, state, seat, rng)
        if len(legal) > 1:
            word = "call" if CALL_BASE <= action < CALL_BASE + 54 else WORDS.get(action, "set")
            kinds[state.phase, word] += 1
        state.apply(seat, action)
    return kinds


def test_every_kind_of_decision_happens_shandong():
    kinds = decision_kinds("shandong", 40, seed=11)
    for needed in [
        ("grab", "grab"),
        ("grab", "pass"),
        ("call", "call"),
        ("call", "yield"),
        ("declare", "declare"),
        ("declare", "pass"),
        ("play", "set"),
        ("play", "pass"),
        ("play", "yield"),
        ("play", "claim"),
    ]:
        assert kinds[needed] > 0, (needed, kinds)


def test_every_kind_of_decision_happens_japanese():
    kinds = decision_kinds("japanese", 40, seed=12)
    for needed in [
        ("emperor card", "keep"),
        ("emperor card", "hand on"),
        ("declare", "rebel"),
        ("declare", "declare"),
        ("declare", "pass"),
        ("play", "set"),
        ("play", "pass"),
    ]:
        assert kinds[needed] > 0, (needed, kinds)


# ---------------------------------------------------------------- judgement on explicit deals

# Seat 0: the marked joker, three 9H to call, a big joker, low pairs, high singles.
EMPEROR = "BJ* BJ 9H 9H 9H 3S 3H 7D 7C JS QD KD AS 2S 2H"
ROYALIST = "9H 5S 5D 6S 8C TD TC QS KS KC AH AD 2C 2D"


def shandong_play(fixed: dict[int, str], sizes: list[int], declare: dict[int, str] | None = None):
    """A shandong deal from ``fixed`` hands: nobody grabs, seat 0 calls 9H, then the given
    declarations; seat 0 is to lead."""
    state = new(deal=make_deal("shandong", fixed, sizes))
    answer_all(state)
    act(state, 0, "call 9H")
    answer_all(state, declare)
    return state


def test_leads_a_low_set_not_a_big_joker():
    state = shandong_play({0: EMPEROR}, [15, 50, 50, 50, 51])
    assert bot_says(state, 0) == "3 3"


def test_a_hand_that_is_one_set_goes_out_at_once():
    state = shandong_play({0: "BJ* 9H 9H 9H", 1: "6S 6D"}, [4, 53, 53, 53, 53])
    assert bot_says(state, 0) == "BJ 9H 9H 9H"


def test_plays_its_last_set_to_go_out():
    state = shandong_play({0: EMPEROR.replace("3S 3H", "6S 6H"), 1: "8S 8D"}, [15, 2, 66, 66, 67])
    act(state, 0, "6 6")
    assert bot_says(state, 1) == "8 8"


def test_does_not_beat_its_declared_partners_winning_set():
    state = shandong_play({0: EMPEROR, 4: ROYALIST}, [15, 50, 50, 50, 51], {4: "declare"})
    act(state, 0, "3 3")
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    act(state, 4, "5 5")
    assert bot_says(state, 0) == "pass"


def test_beats_a_set_cheaply_when_its_player_may_be_an_opponent():
    state = shandong_play({0: EMPEROR, 4: ROYALIST}, [15, 50, 50, 50, 51])
    act(state, 0, "3 3")
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    act(state, 4, "5 5")
    assert bot_says(state, 0) == "7 7"


def test_keeps_its_jokers_when_only_jokers_would_beat():
    state = shandong_play({0: EMPEROR, 4: ROYALIST}, [15, 50, 50, 50, 51])
    act(state, 0, "3 3")
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    act(state, 4, "2 2")
    assert bot_says(state, 0) in ("pass", "yield")


def test_claims_the_lead_after_its_partner_went_out():
    """Seat 0 is the next seat still in after its partner, seat 4: the one that may claim."""
    state = shandong_play({0: EMPEROR, 4: "9H 9S"}, [15, 66, 66, 67, 2])
    act(state, 0, "3 3")
    for seat in (1, 2, 3):
        act(state, seat, "pass")
    act(state, 4, "9H 9")  # out, and unmasked as the royalist
    assert CLAIM in state.legal(0)
    assert bot_says(state, 0) == "claim"


def test_a_hidden_royalist_keeps_the_called_card_back():
    """Seat 2 holds the fourth 9H and two more nines: it beats a rebel's 8 8 with two plain
    nines, not with the 9H that would unmask it."""
    royalist = "9H 9S 9S 4S 4D 6S 6D TD JC QS KS AH 2S"
    state = shandong_play({0: EMPEROR, 1: "8S 8D 4C 4C 5H", 2: royalist}, [15, 5, 13, 91, 92])
    act(state, 0, "3 3")
    act(state, 1, "8 8")
    assert bot_says(state, 2) == "9 9"


def test_grabs_only_with_a_monster_hand():
    monster = "BJ BJ BJ SJ SJ SJ SJ 2S 2S 2H 2H 2D 2D AS AS AH AH KS KS KH KH"
    state = new(deal=make_deal("shandong", {0: "BJ* 9H 9H 9H", 2: monster}))
    assert bot_says(state, 2) == "grab"
    assert bot_says(state, 1) == "pass"


WEAK_LOW_CARDS = "3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 7S 7H 7D 8S 8H 8D TS TH TD JS JH JD"


def test_calls_the_strongest_card_held_three_times_and_avoids_a_weak_solo():
    weak = f"BJ* 9H 9H 9H AS AS AS QS QS QS QS {WEAK_LOW_CARDS} 3C 4C 5C 6C 7C 8C TC JC KC"
    state = new(deal=make_deal("shandong", {0: weak}, [44, 43, 43, 43, 43]))
    answer_all(state)
    assert bot_says(state, 0) == "call AS"


def test_when_forced_calls_the_strongest_card_held_exactly_three_times():
    weak = f"BJ* 9H 9H 9H AS AS AS QS QS QS QS {WEAK_LOW_CARDS} 3C 4C 5C 6C 7C 8C TC JC KC"
    state = new(deal=make_deal("shandong", {0: weak}, [44, 43, 43, 43, 43]), grabbing=False)
    for seat in (0, 4, 3, 2, 1):  # the marked joker goes round once
        act(state, seat, "yield")
    assert state.phase == "force" and state.pending() == (0,)
    assert bot_says(state, 0) == "call AS"


def test_a_strong_hand_plays_solo_on_four_copies():
    strong = "BJ* BJ BJ SJ SJ QS QS QS QS 2S 2H 2D AS AH AD KS KH"
    state = new(deal=make_deal("shandong", {0: strong}), grabbing=False)
    assert bot_says(state, 0) == "call QS"


def test_a_royalist_with_a_monster_hand_declares():
    monster = "9H BJ BJ SJ SJ SJ SJ 2S 2S 2H 2H 2D 2D AS AS AH AH KS KS KH KH"
    state = new(deal=make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: monster}))
    answer_all(state)
    act(state, 0, "call 9H")
    assert bot_says(state, 3) == "declare"
    assert bot_says(state, 1) == "pass"


def test_a_hidden_guard_answers_with_a_plain_small_joker():
    """Seat 2 holds the guard card SJ* and a plain SJ: against a commoner about to go out it
    spends a small joker, the plain one."""
    fixed = {0: "BJ* 6S 6H 7S 8S 9S TS", 1: "2S 2H 9H", 2: "SJ* SJ 7H 7D 8H 9D TH JH QH KH"}
    state = new("japanese", deal=make_deal("japanese", fixed, [7, 3, 10, 74, 74]))
    act(state, 0, "keep")
    answer_all(state)
    act(state, 0, "6")
    act(state, 1, "2")
    assert bot_says(state, 2) == "SJ"


JAPANESE_LOW_CARDS = "6S 6H 6D 6C 6S 7S 7H 7D 7C 7S 8S 8H 8D 8C 8S 9S 9H 9D 9C 9S"


def test_japanese_hands_on_both_marked_jokers_with_a_weak_hand():
    weak = f"BJ* SJ* {JAPANESE_LOW_CARDS} TS TH TD TC JS JH JD JC QS QH QD QC"
    state = new("japanese", deal=make_deal("japanese", {0: weak}, [34, 34, 34, 33, 33]))
    assert state.pending() == (0,)
    assert bot_says(state, 0) == "hand on"


def test_japanese_keeps_the_emperor_card_with_an_ordinary_hand():
    ordinary = f"BJ* {JAPANESE_LOW_CARDS} TS TH TD TC JS JH JD JC QS QH QD QC 2S"
    state = new("japanese", deal=make_deal("japanese", {0: ordinary}, [34, 34, 34, 33, 33]))
    assert bot_says(state, 0) == "keep"


# ---------------------------------------------------------------- strength against random


def duplicate_means(variant: str, seeds: range, rules_seats: int) -> tuple[float, float]:
    """Mean points per deal of rules and random bots: for each seed every rotation r, seat s
    playing the rules bot iff (s + r) % 5 < rules_seats, so each seat plays each side."""
    totals = {True: 0.0, False: 0.0}
    counts = {True: 0, False: 0}
    for seed in seeds:
        for rotation in range(5):
            is_rules = [(s + rotation) % 5 < rules_seats for s in range(5)]
            state = new_game("baohuang", {"variant": variant}, seed=seed)
            bots = [BaohuangRulesBot() if r else RandomBot() for r in is_rules]
            play_bots(state, bots, random.Random(seed))
            for seat, score in enumerate(state.result().scores):
                totals[is_rules[seat]] += float(score)
                counts[is_rules[seat]] += 1
    return totals[True] / counts[True], totals[False] / counts[False]


def test_one_rules_bot_beats_four_random_bots_clearly():
    """Measured on other seeds: the difference per seed averages 11.8 (shandong) and 5.4
    (japanese) with standard deviations 3.1 and 4.2, so over ten seeds the margins below sit
    more than three standard deviations under the mean."""
    for variant, margin in (("shandong", 5.0), ("japanese", 1.5)):
        rules, rand = duplicate_means(variant, range(10), rules_seats=1)
        assert rules - rand > margin, (variant, rules, rand)


# ---------------------------------------------------------------- speed


def decision_times(variant: str, seeds: range) -> list[float]:
    """Seconds per rules-bot decision (the bot's own time, not the view's), sorted, over
    all-rules games."""
    bot = BaohuangRulesBot()
    times = []
    for seed in seeds:
        state = new_game("baohuang", {"variant": variant}, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            view, legal = state.view(seat), state.legal(seat)
            start = time.perf_counter()
            action = bot.choose(view, list(legal), rng)
            times.append(time.perf_counter() - start)
            state.apply(seat, action)
    return sorted(times)


def test_decisions_are_fast():
    """Typically about 0.03 ms median and 0.1 ms at the 99th percentile; the bounds leave room
    for a slow or busy machine."""
    for variant in VARIANTS:
        times = decision_times(variant, range(2))
        assert times[len(times) // 2] < 0.001, variant
        assert sum(times) / len(times) < 0.002, variant
