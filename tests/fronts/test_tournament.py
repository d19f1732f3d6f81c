"""Duplicate tournaments: rotations, replayed deals, the figures, and the command."""

from __future__ import annotations

import json
import math
from collections import Counter
from fractions import Fraction

import pytest
from typer.testing import CliRunner

from yamen import bots as bot_registry
from yamen.cli import app
from yamen.tournament import (
    Outcome,
    Plan,
    TournamentError,
    confidence_interval,
    game_ranks,
    lineups,
    plan,
    play,
    seat_ranks,
    summarize,
    t_quantile,
)

runner = CliRunner()
PNG = b"\x89PNG\r\n\x1a\n"


def run(*args: str):
    result = runner.invoke(app, list(args))
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result


class RecordingBot:
    """Deterministic (it ignores its generator) and it notes the hand it holds at its first
    decision, which in Baohuang is the hand as dealt."""

    name = "first"
    seen: list[tuple[str, int, tuple[str, ...]]] = []

    def __init__(self) -> None:
        self.noted = False

    def choose(self, view, legal, rng):
        if not self.noted:
            RecordingBot.seen.append((self.name, view["seat"], tuple(view["hand"])))
            self.noted = True
        return self.pick(legal)

    def pick(self, legal):
        return legal[0]


class LastBot(RecordingBot):
    name = "last"

    def pick(self, legal):
        return legal[-1]


@pytest.fixture
def toy_bots(monkeypatch):
    """Two toy bots registered for Baohuang for the length of a test (in this process only:
    tests that use them play with one worker)."""
    table = bot_registry.REGISTRY["baohuang"]
    monkeypatch.setitem(table, "first", "tests.fronts.test_tournament:RecordingBot")
    monkeypatch.setitem(table, "last", "tests.fronts.test_tournament:LastBot")
    RecordingBot.seen = []
    return RecordingBot.seen


# --- rotations ---------------------------------------------------------------------------


def test_as_many_bots_as_seats_rotate_through_every_seat():
    bots = ["a", "b", "c", "d", "e"]
    got = lineups(bots, 5)
    assert len(got) == 5
    for r, lineup in enumerate(got):
        assert lineup == tuple(bots[(s + r) % 5] for s in range(5))
    for seat in range(5):
        assert sorted(lineup[seat] for lineup in got) == bots  # each bot once in each seat


def test_fewer_bots_are_cycled_and_sit_in_every_seat_equally_often():
    got = lineups(["a", "b"], 5)
    assert got[0] == ("a", "b", "a", "b", "a") and len(got) == 5
    for seat in range(5):
        assert Counter(lineup[seat] for lineup in got) == {"a": 3, "b": 2}


def test_a_repeating_line_up_is_played_once_per_distinct_rotation():
    assert lineups(["a"], 5) == [("a",) * 5]
    assert lineups(["a", "b"], 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def test_more_bots_than_seats_is_refused():
    with pytest.raises(TournamentError, match="at most 5"):
        lineups(list("abcdef"), 5)
    with pytest.raises(TournamentError):
        lineups([], 5)


def test_every_deal_is_replayed_in_every_rotation(toy_bots):
    tournament = plan("baohuang", ["first", "last"], 3, 11)
    deals = play(tournament, workers=1)
    assert [len(games) for games in deals] == [5, 5, 5]
    for games in deals:
        seats = Counter((seat, name) for g in games for seat, name in enumerate(g.lineup))
        assert seats == {(s, n): c for s in range(5) for n, c in (("first", 3), ("last", 2))}
    # 3 deals x 5 rotations x 5 seats: each bot noted the hand it was dealt
    assert len(toy_bots) == 75
    dealt = []
    for deal in range(3):
        noted = toy_bots[deal * 25 : (deal + 1) * 25]
        for r, lineup in enumerate(tournament.lineups):
            in_rotation = noted[r * 5 : (r + 1) * 5]
            assert sorted((seat, name) for name, seat, _ in in_rotation) == sorted(
                (seat, name) for seat, name in enumerate(lineup)
            )
        hands = {}
        for _, seat, hand in noted:
            hands.setdefault(seat, set()).add(hand)
        assert all(len(h) == 1 for h in hands.values())  # the same cards in every rotation
        dealt.append(hands)
    assert dealt[0] != dealt[1] != dealt[2]  # and another deal has other cards


def test_deterministic_bots_replay_a_deal_identically(toy_bots):
    """Bots that ignore their generators, in the same seats, on the same deal: the same game."""
    tournament = plan("baohuang", ["first", "last"], 1, 4)
    once = play(tournament, workers=1)
    again = play(tournament, workers=1)
    assert once == again


def test_results_do_not_depend_on_the_number_of_workers():
    args = ["tournament", "criminal_poker", "--bots", "random", "-n", "12", "--seed", "3"]
    one = run(*args, "--workers", "1", "--json")
    two = run(*args, "--workers", "2", "--json")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert json.loads(one.stdout) == json.loads(two.stdout)


# --- figures -----------------------------------------------------------------------------


def test_t_quantiles_match_the_tables():
    for df, value in ((1, 12.7062), (4, 2.7764), (9, 2.2622), (29, 2.0452), (120, 1.9799)):
        assert t_quantile(0.975, df) == pytest.approx(value, abs=1e-4)
    assert t_quantile(0.975, 10**6) == pytest.approx(1.95996, abs=1e-5)
    assert t_quantile(0.995, 1000) == pytest.approx(2.5808, abs=1e-4)


def test_confidence_interval_of_a_known_sample():
    low, high = confidence_interval([1.0, 2.0, 3.0, 4.0, 5.0])
    half = 2.7764451 * math.sqrt(2.5) / math.sqrt(5)  # t(0.975, 4) * sd / sqrt(n)
    assert low == pytest.approx(3 - half) and high == pytest.approx(3 + half)
    assert confidence_interval([2.0]) is None
    assert confidence_interval([2.0, 2.0, 2.0]) == (2.0, 2.0)


def result(scores, places, winners, lineup=("a", "b", "c")):
    return Outcome(0, 0, tuple(lineup), tuple(map(Fraction, scores)), places, winners, 1)


def test_seats_tied_in_score_and_outcome_share_a_rank():
    # Baohuang-like: emperor 1st, royalist 4th, rebels on -1 all losing: the two rebels next
    # to each other in the places tie, the last one (after the royalist) does not
    game = Outcome(0, 0, tuple("abcde"), tuple(map(Fraction, (2, -1, -1, 1, -1))), (0, 1, 2, 3, 4),
                (0, 3), 1)  # fmt: skip
    assert seat_ranks(game) == [0, 1, 1, 3, 4]
    # a bot holding several seats is ranked by their mean rank
    assert game_ranks(result((1, 0, 1), (0, 2, 1), (0, 2), ("a", "b", "a"))) == {"a": 0, "b": 1}
    assert game_ranks(result((3, 2, 1), (0, 1, 2), (0,), ("a", "b", "a"))) == {"a": 0, "b": 0}


def test_summary_from_known_games():
    tournament = Plan("toy", {}, ("a", "b"), 3, 0, 2, (("a", "b"), ("b", "a")))

    def pair(deal, a_first, a_second):
        """Deal ``deal`` played in both rotations; a's score in each (b scores the opposite)."""
        return [
            Outcome(deal, 0, ("a", "b"), (Fraction(a_first), Fraction(-a_first)),
                 (0, 1) if a_first > 0 else (1, 0), (0,) if a_first > 0 else (1,), 1),
            Outcome(deal, 1, ("b", "a"), (Fraction(-a_second), Fraction(a_second)),
                 (1, 0) if a_second > 0 else (0, 1), (1,) if a_second > 0 else (0,), 1),
        ]  # fmt: skip

    deals = [pair(0, 2, 4), pair(1, 1, -1), pair(2, 3, 3)]
    summary = summarize(tournament, deals)
    a, b = summary.bots
    assert (a.name, a.games, a.wins, b.games, b.wins) == ("a", 6, 5, 6, 1)
    assert a.per_deal == [3.0, 0.0, 3.0] and a.mean == pytest.approx(2.0)
    low, high = a.interval
    assert (low + high) / 2 == pytest.approx(2.0)
    assert high - 2.0 == pytest.approx(t_quantile(0.975, 2) * math.sqrt(3) / math.sqrt(3))
    assert b.mean == pytest.approx(-2.0) and a.win_rate == pytest.approx(5 / 6)
    assert a.rating > b.rating and a.mu > 25 > b.mu
    assert summary.games == 6 and summary.decisions == 6


# --- the command -------------------------------------------------------------------------


def test_unknown_bot_is_a_clear_error():
    result = run("tournament", "baohuang", "--bots", "random,nobody", "-n", "2")
    assert result.exit_code == 2
    assert "no bot 'nobody' for baohuang" in result.stderr and "known: " in result.stderr
    assert result.stdout == ""


def test_bots_named_with_arguments_are_labelled_by_their_spec():
    spec = "search:iterations=2:seconds=null"
    tournament = plan("baohuang", [spec, "random"], 1, 3)
    summary = summarize(tournament, play(tournament, workers=1))
    assert [bot.name for bot in summary.bots] == [spec, "random"]
    assert summary.bots[0].games == 15
    with pytest.raises(TournamentError, match="the search bot has no argument budget"):
        plan("baohuang", ["search:budget=1", "random"], 1, 3)


def test_too_many_bots_and_bad_options_exit_2():
    four = ",".join(["random"] * 4)
    too_many = run("tournament", "bao_qingtian", "--players", "3", "--bots", four)
    assert too_many.exit_code == 2 and "at most 3" in too_many.stderr
    bad = run("tournament", "baohuang", "--bots", "random", "--variant", "nowhere")
    assert bad.exit_code == 2 and "variant" in bad.stderr
    assert run("tournament", "chess", "--bots", "random").exit_code == 2


def test_json_summary_and_png_chart(tmp_path):
    chart = tmp_path / "chart.png"
    result = run(
        "tournament", "baohuang", "--bots", "random", "-n", "3", "--seed", "2",
        "--variant", "japanese", "--workers", "1", "--json", "--plot", str(chart),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert summary["game"] == "baohuang" and summary["options"]["variant"] == "japanese"
    assert summary["deals"] == 3 and summary["seats"] == 5 and summary["games"] == 3
    (row,) = summary["results"]
    assert row["bot"] == "random" and row["games"] == 15
    assert set(row) >= {"mean", "ci_low", "ci_high", "win_rate", "rating", "mu", "sigma"}
    assert row["mean"] == pytest.approx(0.0)  # one bot in every seat of a zero-sum game
    assert chart.read_bytes().startswith(PNG)
    assert f"chart written to {chart.resolve()}" in result.stderr  # stdout is the JSON


def test_table_on_stdout(tmp_path):
    result = run("tournament", "bao_qingtian", "--bots", "random", "-n", "2", "--workers", "1")
    assert result.exit_code == 0
    for word in ("bao_qingtian: 2 deals", "mean points", "95% CI", "win rate", "rating"):
        assert word in result.stdout


def test_a_chart_into_a_missing_folder_fails_before_playing(tmp_path):
    result = run(
        "tournament", "baohuang", "--bots", "random", "--plot", str(tmp_path / "no" / "x.png")
    )
    assert result.exit_code == 2 and "no folder" in result.stderr


def test_the_table_is_followed_by_where_the_chart_went(tmp_path):
    chart = tmp_path / "chart.png"
    result = run(
        "tournament", "baohuang", "--bots", "random", "-n", "1", "--workers", "1",
        "--plot", str(chart),
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert result.stdout.rstrip().endswith(f"chart written to {chart.resolve()}")


def test_bot_arguments_are_explained_in_words():
    wrong = run("tournament", "baohuang", "--bots", "search:iterations=[1]", "-n", "1")
    assert wrong.exit_code == 2 and "iterations must be a number" in wrong.stderr
    unknown = run("tournament", "baohuang", "--bots", "rules:depth=3", "-n", "1")
    assert "the rules bot has no argument depth (it takes no arguments)" in unknown.stderr
    assert "TypeError" not in unknown.stderr and "()" not in unknown.stderr
