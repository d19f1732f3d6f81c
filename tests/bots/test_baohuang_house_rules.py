"""Bots under every combination of the house rules before play (royalist_declares,
solo_declares, cede, guard_by_fourth): the rules bot, the search bot (its bidding and its
playouts, which build states from the view's options) and random bots never make an illegal
move. Seeded: a few hundred games here; more in a manual run (docs/rules/baohuang.md)."""

from __future__ import annotations

import random

from tests.games.baohuang.test_house_rules import COMBINATIONS
from yamen.bots import bot_move, make_bot
from yamen.bots.baohuang.hand import ViewPerspective
from yamen.bots.baohuang.rules import decide
from yamen.engine import new_game

GAMES = 16  # per combination, rules and random bots: 256 games


def test_rules_and_random_bots_only_make_legal_moves_under_every_combination():
    """Rules bots on a seeded mask of seats, random bots elsewhere. The rules' own choice is
    checked (not the bot's last-resort fallback to the first legal action)."""
    decisions = before_play = 0
    for i, options in enumerate(COMBINATIONS):
        for game in range(GAMES):
            seed = 1000 * i + game
            rng = random.Random(seed)
            mask = rng.randrange(1, 32)
            state = new_game("baohuang", options, seed)
            while not state.over:
                seat = state.pending()[0]
                legal = state.legal(seat)
                if mask >> seat & 1:
                    action = decide(ViewPerspective(state.view(seat)), list(legal))
                    assert action in legal, (options, state.view(seat), action)
                else:
                    action = rng.choice(legal)
                before_play += state.phase != "play"
                state.apply(seat, action)
                decisions += 1
            assert state.result() is not None
    assert decisions > 80_000 and before_play > 2_000


def test_the_search_bot_only_makes_legal_moves_under_every_combination():
    """One search seat (a small reproducible budget) among rules and random bots: its
    bidding, fallback and playouts under each combination."""
    search = make_bot("baohuang", "search:iterations=20:seconds=null")
    rules, rand = make_bot("baohuang", "rules"), make_bot("baohuang", "random")
    for i, options in enumerate(COMBINATIONS):
        bots = [rules, rand, rules, rand, rules]
        bots[i % 5] = search
        state = new_game("baohuang", {**options, "deals": 1}, 7 + i)
        rng = random.Random(i)
        while not state.over:
            seat = state.pending()[0]
            state.apply(seat, bot_move(bots[seat], state, seat, rng))  # raises if illegal
        assert state.result() is not None
