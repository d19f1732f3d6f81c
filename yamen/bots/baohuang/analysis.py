"""Post-game analysis for Baohuang: each play a seat made, valued by the search bot's playouts
from that seat's view alone.

How it sees: :func:`decisions` replays the record and, at each decision of the seat, keeps
only ``state.view(seat)`` and ``state.legal(seat)`` (and what was played); :func:`evaluate`
gets nothing else, so it cannot read another seat's hand: it samples the unseen cards from the
view, as the search bot does (yamen/bots/baohuang/search.py).

How it values: the candidates the search bot would compare (its :func:`candidates`, the
playout policy's own choice and the action played) are played out on the same sampled deals
(paired rounds, so the luck of the deal cancels), ``playouts`` playouts a decision at most; an
action's value is its mean score for the seat in this deal. The points at stake are the best
value minus the played one. A declaration (明保 / 明獨, or the rebellion 反乱) is valued against
passing as the search bot bids (yamen/bots/baohuang/bidding.py): the deal as it would start
after each answer, the others passing, played out on the same sampled deals. The other
decisions before play (the call, grabbing 搶莊 and yielding the emperor's seat) are listed, not
valued: not grabbing is worth what the call and the declarations after it make of the deal,
which the playouts do not simulate; so are decisions with one sensible action.

Deterministic given ``seed``: each decision draws from its own ``Random(f"{seed}:{step}")``.

In three parts, as ``Game.analyst`` names them (yamen/engine.py), so that a server can run the
decisions apart: :func:`decisions` (the record replayed, cheap), :func:`value` (one decision,
pure, from the view alone: the CPU work, one task a decision in a worker process) and
:func:`assemble` (the rows and the summary); :func:`analyse` runs the three in a row.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping
from typing import Any, cast

from yamen.bots.baohuang.bidding import declared_view
from yamen.bots.baohuang.determinize import ViewSampler, build_state
from yamen.bots.baohuang.playout import Playouts
from yamen.bots.baohuang.playout import choose as playout_choice
from yamen.bots.baohuang.search import candidates
from yamen.games.baohuang.actions import DECLARE, PASS, REBEL
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.view import SeatView
from yamen.records import Record
from yamen.table import Table

DECLARATIONS = {DECLARE: "declare", REBEL: "rebel"}  # an answer of the declaration window
NOT_VALUED: dict[str, Any] = {"values": {}, "playouts": 0}
Progress = Callable[[int, int], None]  # (decisions done, decisions in all)
Decision = tuple[int, Mapping[str, Any], list[int], int]  # (step, view, legal, played)


def decisions(record: Record, seat: int) -> Iterator[Decision]:
    """Each decision of ``seat`` in the record: (step, the seat's view, its legal actions, the
    action it played). ``step`` is the action's index in the record (the replay's step
    before it)."""
    table = Table(record.start())
    for step, (who, text) in enumerate(record.actions):
        if who == seat:
            state = table.state
            yield step, state.view(seat), list(state.legal(seat)), state.parse_action(seat, text)
        table.act_text(who, text)


def evaluate(
    view: Mapping[str, Any], legal: list[int], played: int, playouts: int, rng: random.Random
) -> dict[str, Any]:
    """The values of the sensible actions at one decision, from ``view`` and ``legal`` only:
    ``{"values": {action: mean score}, "playouts": n}`` (``values`` empty when not valued)."""
    seen = cast(SeatView, view)
    if len(legal) < 2 or playouts < 2:
        return NOT_VALUED
    if seen["phase"] == Phase.DECLARE:
        return declaration(seen, legal, playouts, rng)
    if seen["phase"] != Phase.PLAY:
        return NOT_VALUED
    me = seen["seat"]
    sampler = ViewSampler(seen)
    playout = sampler.playouts(rng)
    assert playout.state is not None, "a view's first sample is a state"
    default = playout_choice(playout.state, me)
    options = list(dict.fromkeys([played, default, *candidates(seen, legal)]))
    options = [a for a in options if a in legal][:playouts]  # at least one round
    if len(options) < 2:
        return NOT_VALUED
    rounds = playouts // len(options)
    totals = dict.fromkeys(options, 0.0)
    for round_ in range(rounds):
        if round_:
            playout = sampler.playouts(rng)
        for action in options:
            totals[action] += float(playout.scores(action)[me])
    values = {a: total / rounds for a, total in totals.items()}
    return {"values": values, "playouts": rounds * len(options)}


def declaration(
    seen: SeatView, legal: list[int], playouts: int, rng: random.Random
) -> dict[str, Any]:
    """Declaring (or rebelling) against passing, from the view: each answer's deal as it would
    start (:func:`declared_view`), played out on the same sampled deals."""
    answers = [a for a in legal if a in DECLARATIONS]
    if PASS not in legal or len(answers) != 1:
        return NOT_VALUED
    me, answer = seen["seat"], answers[0]
    starts = {PASS: declared_view(seen, "pass"), answer: declared_view(seen, DECLARATIONS[answer])}
    rounds = playouts // len(starts)
    totals = dict.fromkeys(starts, 0.0)
    sampler = ViewSampler(starts[PASS])
    for _ in range(rounds):
        deal = sampler.deal(rng)
        for action, start in starts.items():
            state = build_state(start, deal, fresh=True)
            totals[action] += float(Playouts(state).scores()[me])
    return {
        "values": {a: total / rounds for a, total in totals.items()},
        "playouts": rounds * len(starts),
    }


def decision_seed(seed: int, step: int) -> str:
    """The seed of the decision at ``step`` in the analysis of seed ``seed``."""
    return f"{seed}:{step}"


def value(
    view: Mapping[str, Any], legal: list[int], played: int, playouts: int, seed: str
) -> dict[str, Any]:
    """One decision valued (:func:`evaluate`) with its own chance, ``Random(seed)``: what a
    worker is given, nothing about the game beyond the seat's view."""
    return evaluate(view, legal, played, playouts, random.Random(seed))


def assemble(
    record: Record, seat: int, playouts: int, found: list[Decision], values: list[dict[str, Any]]
) -> dict[str, Any]:
    """The analysis from the decisions (:func:`decisions`) and their values (:func:`value`,
    in the same order): each decision's step, the action played, the bot's preferred action
    and the points at stake (best value minus played value, for the seat; 0 when they agree),
    and a summary. Actions are given by id and in the game's notation."""
    start = record.start()
    rows, agreements, loss = [], 0, 0.0
    for (step, _, _, played), found_values in zip(found, values, strict=True):
        values_of = found_values["values"]
        row: dict[str, Any] = {
            "step": step,
            "played": played,
            "played_text": start.action_text(played),
            "playouts": found_values["playouts"],
            "evaluated": bool(values_of),
            "best": played,
            "best_text": start.action_text(played),
            "loss": 0.0,
        }
        if values_of:
            best = max(values_of, key=lambda a: (values_of[a], a == played))  # ties: the played
            row["best"], row["best_text"] = best, start.action_text(best)
            row["loss"] = round(values_of[best] - values_of[played], 3)
            row["values"] = {str(a): round(v, 3) for a, v in values_of.items()}
            agreements += best == played
            loss += row["loss"]
        rows.append(row)
    evaluated = sum(r["evaluated"] for r in rows)
    return {
        "seat": seat,
        "playouts": playouts,
        "decisions": rows,
        "summary": {
            "decisions": len(rows),
            "evaluated": evaluated,
            "agreements": agreements,
            "loss": round(loss, 3),
        },
    }


def analyse(
    record: Record,
    seat: int,
    playouts: int = 200,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Every decision of ``seat`` valued in this process, one after another
    (:func:`assemble` says what the answer holds); ``progress`` is told each one done."""
    found = list(decisions(record, seat))
    values = []
    for done, (step, view, legal, played) in enumerate(found):
        values.append(value(view, legal, played, playouts, decision_seed(seed, step)))
        if progress is not None:
            progress(done + 1, len(found))
    return assemble(record, seat, playouts, found, values)
