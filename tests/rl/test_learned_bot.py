"""The learned bot (numpy only: these tests need no PyTorch): it plays the checkpoint shipped for
the variant it is dealt, only legal moves, and decides from its view alone."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from tests.paths import ROOT
from tests.rl.helpers import play_alike, swapped_deals
from yamen.bots import make_bot, play_bots, qnet
from yamen.bots.learned import LearnedBot, shipped
from yamen.engine import get_game
from yamen.errors import OptionsError

VARIANTS = ["shandong", "japanese"]


def test_baohuang_ships_a_small_checkpoint_per_variant():
    files = shipped("yamen.bots.baohuang")
    variants = sorted(qnet.load(path).meta["match"]["variant"] for path in files)
    assert variants == sorted(VARIANTS)
    assert all(path.stat().st_size < 2_000_000 for path in files)  # with its proposer


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_learned_bot_plays_only_legal_moves_with_its_variants_checkpoint(variant):
    for seed in range(3):
        state = get_game("baohuang", {"variant": variant}).new_state(seed)
        rng = random.Random(seed)
        bots = [make_bot("baohuang", rng.choice(["learned", "rules", "random"])) for _ in range(5)]
        bots[seed] = make_bot("baohuang", "learned")
        assert play_bots(state, bots, rng) > 0  # bot_move raises on an illegal move
        net, _ = bots[seed].network(state.view(0))
        assert net.meta["match"] == {"variant": variant}


@pytest.mark.parametrize("preset", ["bie_liu_168", "bie_san_216"])
def test_the_learned_bot_plays_the_bie_presets_with_the_shipped_checkpoints(preset):
    """憋六/憋三 (lowest_held): the checkpoints, padded with a zero weight for that house rule,
    read the observation it adds, and every move is legal (its base, the rules bot, knows the
    rule; its proposals are legal actions)."""
    from yamen.engine import game_type
    from yamen.options import preset_options

    options = preset_options(game_type("baohuang").presets, preset)
    for seed in range(2):
        state = get_game("baohuang", options).new_state(seed)
        bots = [make_bot("baohuang", "learned") for _ in range(5)]
        assert play_bots(state, bots, random.Random(seed)) > 0  # bot_move checks legality


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("seed", range(3))
def test_the_decision_is_the_same_when_only_hidden_cards_differ(variant, seed):
    """Two games that differ only in a card swapped between two other seats: wherever the
    seat's views agree, the bot scores every legal action alike and makes the same choice."""
    game = get_game("baohuang", {"variant": variant})
    rng = random.Random(seed)
    me = seed % 5
    hands, other, _ = swapped_deals(game, seed, me, rng)
    one, two = game.new_state(seed, deal=hands), game.new_state(seed, deal=other)
    bot = make_bot("baohuang", "learned")
    assert isinstance(bot, LearnedBot)

    def same(one, two) -> bool:
        if me not in one.pending() or one.view(me) != two.view(me) or len(one.legal(me)) < 2:
            return False
        legal = one.legal(me)
        assert np.array_equal(bot.scores(one.view(me), legal), bot.scores(two.view(me), legal))
        assert bot.choose(one.view(me), legal, rng) == bot.choose(two.view(me), legal, rng)
        return True

    compared = play_alike(one, two, rng, same)
    assert compared >= 2


def test_a_bad_path_is_a_clear_error(tmp_path):
    with pytest.raises(OptionsError, match="cannot read"):
        make_bot("baohuang", f"learned:path={tmp_path / 'none.npz'}")


def test_playing_imports_no_torch_and_no_rl():
    """A fresh interpreter plays a game of learned bots without PyTorch ever imported, nor the
    rl layer (a server offers the bot and may not reach rl: docs/architecture.md)."""
    code = (
        "import random, sys\n"
        "from yamen.bots import make_bot, play_bots\n"
        "from yamen.engine import get_game\n"
        "state = get_game('baohuang', {}).new_state(1)\n"
        "play_bots(state, [make_bot('baohuang', 'learned') for _ in range(5)], random.Random(1))\n"
        "assert 'torch' not in sys.modules, 'torch was imported'\n"
        "assert not [m for m in sys.modules if m.startswith('yamen.rl')], 'rl was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
