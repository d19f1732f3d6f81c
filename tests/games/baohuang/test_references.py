"""Where public implementations of Baohuang part from the seeds, the seeds stand (issue 25).

Each test is one situation in which at least one implementation that nobody here wrote
(github 0019/baohuang, s-deme/trump_geme, fangjun0120/baohuang, Guyulang/wh-baohuang) plays
otherwise, and quotes the seed that decides it. docs/rules/baohuang.md, "Checked against other
implementations", says which reference differs and how. 憋六/憋三 is in test_lowest_rank.py.
"""

from __future__ import annotations

from fractions import Fraction

from tests.games.baohuang.helpers import make_deal, new, pass_until_lead
from tests.games.baohuang.test_rules import play_state
from tests.games.helpers import act
from yamen.games.baohuang.kinds import BJ, BJ_MARKED, SJ, SJ_MARKED
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.sets import NO_RANK, SetShape, beats


def words(state, seat):
    return [state.action_text(a) for a in state.legal(seat)]


def test_jokers_alone_are_a_set_though_seed_002_asks_for_a_natural():
    """Seed 002, 一套牌: 同點數牌 N 張 + X 個小王 + Y 個大王, 其中 N 為大於等於 1 的整數 (at
    least one natural card). Yamen reads past the letter: a hand left with jokers alone could
    never go out, and the seed ranks 大花 > 小花 > 2 as values of their own. Seed 003 leads
    好きな１枚 (any one card) and ２枚以上のジョーカー (two or more jokers), and every reference
    lets jokers go alone."""
    state = play_state("shandong", fixed={0: "BJ* 9H 9H 9H SJ SJ", 3: "9H"},
                       sizes=[6, 40, 40, 40, 90])  # fmt: skip
    assert {"SJ", "SJ SJ", "BJ", "BJ SJ SJ"} <= set(words(state, 0))
    act(state, 0, "BJ 9H 9H 9H")
    pass_until_lead(state)
    assert words(state, 0) == ["SJ", "SJ SJ"]  # jokers alone: the only way out of this hand
    act(state, 0, "SJ SJ")
    assert state.out == [0]


def test_a_joker_set_is_beaten_card_by_card_not_by_a_joker_set_of_another_make_up():
    """Seed 003: すべてのカードが強い必要がある (every card must be stronger): BJ SJ does not
    beat SJ SJ (its small joker does not beat a small joker); BJ BJ does. Seed 002: 掛大花的牌
    是最大的 (a set with a big joker is the biggest): nothing beats BJ SJ."""
    small_pair, mixed, big_pair = (SetShape(NO_RANK, 0, x, y) for x, y in [(2, 0), (1, 1), (0, 2)])
    assert not beats(mixed, small_pair) and beats(big_pair, small_pair)
    assert not beats(big_pair, mixed)
    state = play_state("japanese", fixed={0: "BJ* SJ SJ 7S", 1: "BJ BJ SJ"},
                       sizes=[4, 3, 60, 60, 41])  # fmt: skip
    act(state, 0, "SJ SJ")
    assert words(state, 1) == ["pass", "BJ BJ"]


def test_two_big_jokers_do_not_kill_a_single():
    """大王二杀一 (two big jokers over one card) is no seed's: seed 002, (3) 張數相同: 下家所出
    牌的張數必須和上家牌的張數相同; seed 003: 同じ組み合わせで (the same combination)."""
    state = play_state("shandong", fixed={0: "BJ* 9H 9H 9H 2S", 1: "BJ BJ KS", 3: "9H"},
                       sizes=[5, 3, 60, 40, 108])  # fmt: skip
    act(state, 0, "2")
    assert words(state, 1) == ["pass", "yield", "BJ"]


def test_the_last_set_of_a_seat_that_went_out_may_still_be_beaten():
    """Seed 002, 接風: 對上家的底牌可暫不上牌而申請由自己重新發牌 … 但如果有人不同意，並上牌，
    則接風失敗 (the set stays on the table and may be beaten); seed 003: ソフトパスなので、自分以外
    の全員がパスするまで手番が回ってきます. Some references clear the table when a seat goes out."""
    for variant, first in [("shandong", "BJ 9H 9H 9H"), ("japanese", "BJ")]:
        calls = "9H 9H 9H " if variant == "shandong" else ""
        fixed = {0: f"BJ* {calls}8S", 1: "KS KS", **({3: "9H"} if calls else {})}
        n0 = len(fixed[0].split())
        state = play_state(variant, fixed=fixed, sizes=[n0, 2, 60, 60, 90])
        act(state, 0, first)
        pass_until_lead(state)
        act(state, 0, "8")
        assert state.out == [0] and "K" in words(state, 1)
        act(state, 1, "K")  # beats the finished seat's last set
        pass_until_lead(state)
        assert state.pending() == (1,)  # and leads, as after any set nobody beat


def japanese_at_play(declared: list[int], rebels: list[int]) -> BaohuangState:
    """A 168-card deal in play with seat 0 a solo emperor (both marked jokers) and these
    declarations: ``declared`` the emperor's own, ``rebels`` the commoners who rebelled."""
    hands = [[0] * 56 for _ in range(5)]
    hands[0][BJ_MARKED] = hands[0][SJ_MARKED] = 1
    for seat in range(1, 5):
        hands[seat][12 + seat - 1] = 1  # one 6 each, of its own suit
    roles = {0: "solo emperor", **{s: "commoner" for s in rebels}}
    return BaohuangState.at_play(
        {"variant": "japanese", "deals": 1, "target": None, "grabbing": True,
         "royalist_declares": "open", "solo_declares": True, "cede": True,
         "guard_by_fourth": False, "tribute": True, "hard_pass": False, "lowest_held": False,
         "lowest_last": False, "edition": 2},
        hands, emperor=0, partner=None, called=None, grabbed=False, declared=declared,
        roles=roles, out=[], pending=(0,),
    )  # fmt: skip


def test_a_declared_solo_with_a_rebellion_scores_four_times():
    """Seed 003: 皇帝の宣言があればこの得点が２倍になります。さらに反乱の宣言もあれば４倍に
    なります (a declared solo doubles; with a rebellion too, four times)."""
    first = [0, 1, 2, 3, 4]
    plain = japanese_at_play([], []).deal_scores(first)
    assert plain == [12, -3, -3, -3, -3]
    assert japanese_at_play([0], []).deal_scores(first) == [2 * s for s in plain]
    assert japanese_at_play([0], [2]).deal_scores(first) == [4 * s for s in plain]


def test_one_rebel_is_enough_to_double_and_more_change_nothing():
    """Seed 003: 反乱を宣言すると全員の得点が２倍になります。宣言があった場合、他の平民も同じ
    ように宣言することができますが、得点は変わりません (one rebel doubles; more change nothing).
    Some references double only when two commoners declare."""
    third = [1, 2, 0, 3, 4]
    plain = japanese_at_play([], []).deal_scores(third)
    assert plain == [-12, 3, 3, 3, 3]
    one = japanese_at_play([], [2]).deal_scores(third)
    assert one == [2 * s for s in plain] == japanese_at_play([], [1, 2, 3]).deal_scores(third)
    assert all(isinstance(s, Fraction) for s in one)


def test_the_guard_may_not_declare():
    """Seed 003: 皇帝のプレイヤーは自分が皇帝だということを宣言しますが、警護官は公表しては
    いけません (the guard must not make itself known). Some references let it declare; only
    commoners may rebel (平民のプレイヤーは反乱を宣言することができます)."""
    deal = make_deal("japanese", {0: "BJ*", 2: "SJ*"})
    state = new("japanese", deal=deal)
    act(state, 0, "keep")
    assert set(state.pending()) == {0, 1, 2, 3, 4}
    assert words(state, 2) == ["pass"]  # the guard
    assert words(state, 0) == ["pass"]  # an emperor with a partner has nothing to declare
    for commoner in (1, 3, 4):
        assert words(state, commoner) == ["pass", "rebel"]


def test_a_joker_may_be_called():
    """Seed 002, 叫莊: 叫莊需要有 3 張或 4 張同點數同花色的牌（大王、小王也可以作為叫莊牌）:
    three small jokers, or the marked big joker with two plain ones, may be called."""
    state = new("shandong", deal=make_deal("shandong", {0: "BJ* BJ BJ SJ SJ SJ"}), grabbing=False)
    calls = [w for w in words(state, 0) if w.startswith("call")]
    assert {"call SJ", "call BJ"} <= set(calls)
    act(state, 0, "call SJ")
    holder = next(s for s in range(1, 5) if state.hands[s][SJ])  # the fourth small joker
    assert state.partner == holder and state.hands[0][BJ] == 2
