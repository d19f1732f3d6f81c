"""Post-game analysis for Baohuang (yamen/bots/baohuang/analysis.py): it values a seat's
decisions from that seat's view alone, within its budget, the same way for the same seed."""

from __future__ import annotations

import random

import pytest

from yamen.bots import make_bot
from yamen.bots.baohuang import analysis
from yamen.records import Record, Recorder
from yamen.table import Table

OPTIONS = {"deals": 1}


def one_deal(seed: int = 7) -> Record:
    """A one-deal game played by the rules bot at every seat."""
    recorder = Recorder("baohuang", OPTIONS, seed)
    bot, rng = make_bot("baohuang", "rules"), random.Random(seed)
    state = recorder.state
    recorder.play(lambda seat: bot.choose(state.view(seat), state.legal(seat), rng))
    return recorder.finish()


@pytest.fixture(scope="module")
def record() -> Record:
    return one_deal()


def test_every_decision_of_the_seat_is_listed_with_its_budget(record):
    found = analysis.analyse(record, 0, playouts=12, seed=1)
    steps = [i for i, (seat, _) in enumerate(record.actions) if seat == 0]
    assert [row["step"] for row in found["decisions"]] == steps
    assert all(row["playouts"] <= 12 for row in found["decisions"])
    valued = [row for row in found["decisions"] if row["evaluated"]]
    assert valued, "a deal's play has decisions worth valuing"
    for row in valued:
        assert row["loss"] >= 0
        assert str(row["played"]) in row["values"] and str(row["best"]) in row["values"]
    summary = found["summary"]
    assert summary["decisions"] == len(steps)
    assert summary["agreements"] == sum(r["best"] == r["played"] for r in valued)
    assert summary["loss"] == pytest.approx(sum(r["loss"] for r in valued), abs=0.01)


def test_same_seed_same_answer(record):
    assert analysis.analyse(record, 2, 10, seed=3) == analysis.analyse(record, 2, 10, seed=3)


def test_it_is_given_the_seats_views_only(record, monkeypatch):
    """evaluate() receives exactly state.view(seat) and state.legal(seat): nothing that holds
    another seat's hand (the view hides them: yamen/games/baohuang/view.py)."""
    seen = []
    real = analysis.evaluate

    def spy(view, legal, played, playouts, rng):
        seen.append((view, legal))
        return real(view, legal, played, playouts, rng)

    monkeypatch.setattr(analysis, "evaluate", spy)
    analysis.analyse(record, 1, playouts=4)
    table, expected = Table(record.start()), []
    for seat, text in record.actions:
        if seat == 1:
            expected.append((table.state.view(1), table.state.legal(1)))
        table.act_text(seat, text)
    assert seen == expected
    assert all(view["seat"] == 1 for view, _ in seen)


def test_hidden_cards_do_not_change_the_evaluation(record):
    """Another deal of the hidden cards that leaves the seat's view alone gives the same
    values: a state sampled from the view has that view."""
    from yamen.bots.baohuang.determinize import determinize

    for step, view, legal, played in analysis.decisions(record, 0):
        if view["phase"] == "play" and len(legal) > 2:
            other = determinize(view, random.Random(5))
            assert other.view(0) == view  # the same view, over other hidden hands
            first = analysis.evaluate(view, legal, played, 8, random.Random(step))
            second = analysis.evaluate(other.view(0), legal, played, 8, random.Random(step))
            assert first == second
            return
    pytest.fail("no decision to value")


def test_a_declaration_is_valued_against_passing_from_the_view_alone():
    """The royalist's 明保 (or the emperor's 明獨) against passing: both answers valued on the
    same sampled deals within the budget, the same for the same seed (what it is given is the
    view: test_it_is_given_the_seats_views_only)."""
    from yamen.games.baohuang.actions import PASS

    record = one_deal(7)  # seat 1 is the royalist, asked whether to declare
    found = [d for d in analysis.decisions(record, 1) if d[1]["phase"] == "declare"]
    assert found, "seed 7 has a declaration window for seat 1"
    step, view, legal, played = found[0]
    assert len(legal) == 2 and PASS in legal
    first = analysis.evaluate(view, legal, played, 12, random.Random(step))
    assert set(first["values"]) == set(legal) and first["playouts"] <= 12
    assert analysis.evaluate(view, legal, played, 12, random.Random(step)) == first
    row = next(r for r in analysis.analyse(record, 1, 12)["decisions"] if r["step"] == step)
    assert row["evaluated"] and set(row["values"]) == {str(a) for a in legal}
