"""A seat's part in a finished game (``Game.part``, issue 26): for every registered game's
rules, every seat of random games to their end has words that are keys of the game's catalog in
all four languages, with every value their words take; and each game's words say what its
result says (Baohuang's roles deal by deal, Criminal Poker's culprit and arrest, the Bao
Qing-tian trial's offices and sentence)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from tests.conformance import rulesets
from tests.paths import WEB
from yamen.engine import game_type, new_game

LANGS = ["en", "zh-Hant", "zh-Hans", "ja"]
CASES = [case.param() for case in rulesets()]
SEEDS = 12


def finished(game: str, options: dict, seed: int) -> dict:
    """A random game to its end: its result as JSON."""
    state, rng = new_game(game, options, seed=seed), random.Random(seed)
    while state.pending():
        seat = state.pending()[0]
        state.apply(seat, rng.choice(state.legal(seat)))
    return state.result().to_json()


@pytest.mark.parametrize(("game", "options"), CASES)
def test_every_part_is_worded_by_the_games_catalog(game, options):
    catalog = json.loads((WEB / "i18n" / "games" / f"{game}.json").read_text())
    for seed in range(SEEDS):
        result = finished(game, options, seed)
        for seat in range(len(result["places"])):
            for word in game_type(game).part(result, seat):
                assert set(word) <= {"key", "params", "times"}, word
                assert word.get("times", 2) > 1, word  # once is said by no count
                for lang in LANGS:
                    text = catalog[lang].get(f"{game}.{word['key']}")
                    assert text is not None, (lang, word)
                    assert set(re.findall(r"\{(\w+)\}", text)) == set(word.get("params", {}))


def parts(game: str, result: dict) -> list[list[dict]]:
    return [game_type(game).part(result, seat) for seat in range(len(result["places"]))]


def test_baohuang_counts_each_seats_role_deal_by_deal():
    for variant in ("shandong", "japanese"):
        result = finished("baohuang", {"variant": variant, "deals": 4}, 3)
        for seat, words in enumerate(parts("baohuang", result)):
            roles = Counter({w["key"]: w.get("times", 1) for w in words})
            assert sum(roles.values()) == 4
            expected = Counter()
            for deal in result["deals"]:
                if seat == deal["emperor"]:
                    expected[
                        "role.solo emperor" if deal["partner"] is None else "role.emperor"
                    ] += 1
                elif seat == deal["partner"]:
                    expected["role.guard" if variant == "japanese" else "role.royalist"] += 1
                else:
                    expected["role.commoner" if variant == "japanese" else "role.rebel"] += 1
            assert roles == expected


def test_criminal_poker_says_identity_culprit_arrest_and_the_end():
    for mode in ("sheriff", "detective"):
        for seed in range(6):
            result = finished("criminal_poker", {"mode": mode}, seed)
            for seat, words in enumerate(parts("criminal_poker", result)):
                keys = [w["key"] for w in words]
                mine = result["seats"][seat]
                assert keys[0] == f"role.{mine['identity']}"
                assert ("culprit" in keys) == (seat in result["culprits"])
                assert ("arrested" in keys) == (seat in result["arrested"])
                assert keys[-1] == ("part.caught" if result["caught"] else "part.got_away")


def test_the_trial_says_offices_the_captors_hunt_and_the_sentence():
    seen = set()
    for seed in range(30):
        result = finished("bao_qingtian", {"players": 6}, seed)
        for seat, words in enumerate(parts("bao_qingtian", result)):
            keys = [w["key"] for w in words]
            offices = {k for k, holder in result["offices"].items() if holder == seat}
            offices |= {"emperor"} if result["emperor"] == seat else set()
            assert {k[7:] for k in keys if k.startswith("office.")} == offices
            if result["offices"]["captor"] == seat:
                assert ("part.caught" in keys) == (result["why"] == "caught")
                assert ("part.missed" in keys) == (result["why"] != "caught")
            assert ("escaped" in keys) == (seat in result["escaped"])
            if seat == result["tried"] and result["verdict"] == "executed":
                assert {"key": "part.punished", "params": {"n": result["count"]}} in words
                seen.add("punished")
            elif seat == result["tried"]:
                assert "part.pardoned" in keys
                seen.add("pardoned")
            if not offices and seat not in result["escaped"] and seat != result["tried"]:
                assert keys == ["part.no_office"]
                seen.add("nothing")
    assert seen == {"punished", "pardoned", "nothing"}
