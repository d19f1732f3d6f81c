"""The Baohuang search bot: legal, view-only, within its budget; its playout policy is legal."""

import random

import pytest

from tests.games.baohuang.helpers import act, answer_all, make_deal, new
from yamen.bots import RandomBot, bot_move, make_bot
from yamen.bots.baohuang import bidding
from yamen.bots.baohuang.determinize import determinize
from yamen.bots.baohuang.hand import ViewPerspective, table_shape
from yamen.bots.baohuang.play import beating
from yamen.bots.baohuang.playout import choose as playout_choose
from yamen.bots.baohuang.playout import deal_scores, play_out
from yamen.bots.baohuang.search import BaohuangSearchBot, candidates, fallback_choice
from yamen.games.baohuang.kinds import BJ_MARKED
from yamen.games.baohuang.sets import PLAY_BASE, decoded

VARIANTS = ["shandong", "japanese"]


def small_bot(iterations: int = 40) -> BaohuangSearchBot:
    return BaohuangSearchBot(iterations=iterations, seconds=None)


@pytest.mark.parametrize("variant", VARIANTS)
def test_playout_policy_only_builds_legal_actions(variant):
    for seed in range(40):
        state = new(variant, seed=seed, grabbing=seed % 2 == 0)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            action = playout_choose(state, seat) if state.phase == "play" else rng.choice(legal)
            assert action in legal, (state.action_text(action), state.view(seat))
            state.apply(seat, action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_playout_policy_plays_as_the_rules_bot_does(variant):
    """The search's playouts model its opponents: the policy is shared, and the seat read
    from a sampled state (``StatePerspective``) must read as the seat's view does
    (``ViewPerspective``), or the search misjudges."""
    rules = make_bot("baohuang", "rules")
    for seed in range(4):
        state = new(variant, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            action = bot_move(rules, state, seat, rng)
            if state.phase == "play":
                sample = determinize(state.view(seat), rng, fresh=True)
                assert playout_choose(sample, seat) == action, state.view(seat)
            state.apply(seat, action)


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_policy_generates_exactly_the_legal_sets_that_beat_the_table(variant):
    """The shared play policy never lists legal actions: it generates the beating sets from
    the hand's counts, in the engine's order (the first of equally priced sets is played)."""
    checked = 0
    for seed in range(6):
        state = new(variant, seed=seed)
        rng = random.Random(seed)
        while not state.over:
            seat = state.pending()[0]
            legal = state.legal(seat)
            view = state.view(seat)
            if state.phase == "play" and view["table"] is not None:
                r, n, x, y = table_shape(view["table"]["cards"])
                shapes = beating(ViewPerspective(view), r, n, x) if not y else []
                plays = [decoded(a)[:4] for a in legal if a >= PLAY_BASE]
                assert shapes == list(dict.fromkeys(plays))
                checked += bool(shapes)
            state.apply(seat, rng.choice(legal))
    assert checked > 20


@pytest.mark.parametrize("variant", VARIANTS)
def test_playouts_stop_once_the_scores_are_settled_and_read_them_right(variant):
    stopped = 0
    for seed in range(16):
        state = new(variant, seed=seed, grabbing=seed % 3 == 0)
        rng = random.Random(seed)
        while state.phase != "play":
            seat = state.pending()[0]
            state.apply(seat, rng.choice(state.legal(seat)))
        sample = determinize(state.view(state.pending()[0]), rng, fresh=True)
        play_out(sample)
        scores = deal_scores(sample)
        stopped += not sample.over
        while not sample.over:  # playing on changes nothing
            seat = sample.pending()[0]
            sample.apply(seat, playout_choose(sample, seat))
        assert list(sample.totals) == scores
    assert stopped


@pytest.mark.parametrize("variant", VARIANTS)
def test_search_returns_legal_actions_in_random_positions(variant):
    bot = small_bot()
    searched = 0
    for seed in range(2):
        state = new(variant, seed=seed, deals=2 if variant == "japanese" else 1)
        rng = random.Random(seed)
        while not state.over:
            seat = rng.choice(state.pending())
            legal = state.legal(seat)
            if state.phase == "play" and rng.random() < 0.04:
                view = state.view(seat)
                options = candidates(view, legal)
                assert options and set(options) <= set(legal)
                action = bot_move(bot, state, seat, rng)  # raises on an illegal action
                searched += bot.last_iterations > 0
            else:
                action = rng.choice(legal)
            state.apply(seat, action)
    assert searched > 5


def test_fallback_rules_answer_every_phase_legally():
    for variant in VARIANTS:
        for seed in range(6):
            state = new(variant, seed=seed)
            while state.phase not in ("play", "over"):
                seat = state.pending()[0]
                legal = state.legal(seat)
                action = fallback_choice(state.view(seat), legal)
                assert action in legal
                state.apply(seat, action)


def twin_positions():
    """Two deals differing only in seats 2 and 3's hands, at seat 0's first lead and seat 1's
    first answer, through the same public actions."""
    deal = make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"}, [40, 44, 44, 44, 44])
    swapped = [deal[0], deal[1], deal[3], deal[2], deal[4]]
    twins = []
    for hands in (deal, swapped):
        state = new(deal=hands, grabbing=False)
        act(state, 0, "call 9H")
        answer_all(state)
        twins.append(state)
    return twins


def test_the_choice_depends_on_the_view_only():
    a, b = twin_positions()
    assert a.partner != b.partner and a.view(0) == b.view(0)
    for seat in (0, 1):
        choice_a = small_bot(60).choose(a.view(seat), a.legal(seat), random.Random(5))
        choice_b = small_bot(60).choose(b.view(seat), b.legal(seat), random.Random(5))
        assert choice_a == choice_b
        a.apply(seat, choice_a)
        b.apply(seat, choice_b)
        assert a.view(1) == b.view(1)


def test_the_time_cap_holds_and_the_iterations_cap_counts_playouts():
    """The clock is checked before every playout: with no time left none is played, and the
    policy's own choice is answered (no wall-clock is measured here)."""
    state, _ = twin_positions()
    view, legal = state.view(0), state.legal(0)
    bot = BaohuangSearchBot(iterations=10**6, seconds=0.0)
    assert bot.choose(view, legal, random.Random(0)) == playout_choose(state, 0)
    assert bot.last_iterations == 0
    bot = BaohuangSearchBot(iterations=100, seconds=None)
    bot.choose(view, legal, random.Random(0))
    assert 0 < bot.last_iterations <= 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_search_bot_finishes_a_game_among_random_bots(variant):
    state = new(variant, seed=21)
    bots = [RandomBot() for _ in range(5)]
    bots[2] = small_bot(6)
    rng = random.Random(0)
    while not state.over:
        seat = state.pending()[0]
        state.apply(seat, bot_move(bots[seat], state, seat, rng))
    assert state.result() is not None


def test_hypothetical_views_build_the_game_the_choice_starts():
    """A grab view gives the seat the marked joker and the lead, alone; a declaration view
    makes the royalist public and doubles the stakes."""
    state = new(seed=3)
    seat = next(s for s in state.pending() if state.view(s)["marked_joker"] != s)
    grab = bidding.grab_view(state.view(seat))
    sample = determinize(grab, random.Random(0), fresh=True)
    assert sample.emperor == seat and sample.grabbed and sample.partner is None
    assert sample.hands[seat][BJ_MARKED] == 1 and sample.pending() == (seat,)
    assert sample.sizes == grab["hand_sizes"] and sum(sample.sizes) == 216
    a, _ = twin_positions_before_declaring()
    for answer, declared in (("pass", False), ("declare", True)):
        view = bidding.declared_view(a.view(3), answer)
        sample = determinize(view, random.Random(1), fresh=True)
        assert sample.partner == 3 and sample.declared is declared
        assert (sample.public_roles.get(3) == "royalist") is declared
        assert sample.pending() == (0,) and sample.emperor == 0


def twin_positions_before_declaring():
    deal = make_deal("shandong", {0: "BJ* 9H 9H 9H", 3: "9H"}, [40, 44, 44, 44, 44])
    state = new(deal=deal, grabbing=False)
    act(state, 0, "call 9H")
    return state, deal


def test_a_strong_grab_is_taken_and_a_weak_one_is_not():
    def cards(ranks: str, copies: int) -> str:
        """``copies`` cards of each rank, suits in turn."""
        return " ".join(r + "SHDC"[i % 4] for r in ranks for i in range(copies))

    strong = make_deal("shandong", {1: "BJ BJ BJ SJ SJ SJ SJ " + cards("2A", 16)})
    weak = make_deal("shandong", {1: cards("3456789T", 5)})  # eight small sets, no jokers
    for deal, grabs in ((strong, True), (weak, False)):
        state = new(deal=deal)
        answered = 0
        while 1 not in state.pending():
            answered += 1
            seat = state.pending()[0]
            state.apply(seat, state.legal(seat)[0])  # pass, or the holder calls / yields
            assert answered < 10
        bot = BaohuangSearchBot(iterations=60, seconds=None)
        action = bot.choose(state.view(1), state.legal(1), random.Random(0))
        assert (state.action_text(action) == "grab") is grabs
