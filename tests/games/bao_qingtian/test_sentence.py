"""The card list and the sentence arithmetic, as data and pure functions."""

import pytest

from yamen.errors import NotationError
from yamen.games.bao_qingtian.cards import (
    CARD_TYPES,
    CRIMINALS,
    DECK,
    OFFICE_CARDS,
    OFFICES,
    hand_codes,
    parse_card_type,
)
from yamen.games.bao_qingtian.sentence import (
    CATALOGUE,
    MAX_TEXT,
    RANGES,
    apply_step,
    catalogue_index,
    clean_text,
    final_count,
)


def test_the_54_cards_of_the_seed():
    copies = {t.english: t.copies for t in CARD_TYPES}
    assert copies == {
        "Emperor": 2,
        "Bao Qing-tian (Judge)": 2,
        "Wang (Captor)": 2,
        "Ma (Captor)": 2,
        "Theft (Criminal)": 2,
        "Robber (Criminal)": 2,
        "Murderer (Criminal)": 2,
        "Pickpocket (Criminal)": 2,
        "Commoner": 26,
        "Plus Officer": 2,
        "Minus Officer": 2,
        "Multiply Officer": 2,
        "Divide Officer": 2,
        "Severity Officer": 2,
        "Executor": 2,
    }
    assert len(DECK) == 54
    assert [t.id for t in CARD_TYPES] == list(range(15))
    assert len({t.code for t in CARD_TYPES}) == 15
    assert CARD_TYPES[13].chinese == "輕重官"
    assert [CARD_TYPES[c].key for c in CRIMINALS] == ["theft", "robber", "murderer", "pickpocket"]
    assert set(OFFICE_CARDS) == set(OFFICES)


def test_a_card_is_read_by_code_key_or_chinese_name():
    for t in CARD_TYPES:
        for name in (t.code, t.code.lower(), t.key, t.chinese, t.chinese.split("(")[0]):
            assert parse_card_type(name) == t.id
    with pytest.raises(NotationError) as bad:
        parse_card_type("JOKER")
    assert bad.value.token == "JOKER"
    assert hand_codes([1] + [0] * 7 + [2] + [0] * 6) == ["EMP", "COM", "COM"]


@pytest.mark.parametrize(
    "count, officer, number, after",
    [
        (3, "plus", 0, 3),
        (3, "plus", 10, 13),
        (5, "minus", 2, 3),
        (5, "minus", 5, 0),
        (5, "minus", 9, 0),  # never below 0
        (0, "minus", 1, 0),
        (4, "times", 3, 12),
        (4, "times", 0, 0),
        (7, "divide", 2, 3),  # rounds down
        (9, "divide", 10, 0),
        (8, "divide", 1, 8),
        (200, "divide", 3, 66),
    ],
)
def test_each_officers_step(count, officer, number, after):
    assert apply_step(count, officer, number) == after


def test_numbers_out_of_range_and_the_ranges():
    assert list(RANGES["judge"]) == list(range(1, 11))
    assert list(RANGES["divide"]) == list(range(1, 11))
    for officer in ("plus", "minus", "times"):
        assert list(RANGES[officer]) == list(range(0, 11))
    with pytest.raises(ValueError):
        apply_step(5, "divide", 0)
    with pytest.raises(ValueError):
        apply_step(5, "plus", 11)


def test_the_steps_in_order():
    assert final_count(3, 2, 1, 2, 4) == 2  # ((3 + 2 - 1) * 2) // 4
    assert final_count(3, 0, 9, 5, 1) == 0  # minus clamps at 0 before times
    assert final_count(10, 10, 0, 10, 3) == 66


def test_punishment_words():
    assert clean_text("  sing\t a   song ") == "sing a song"
    assert clean_text("唱 一首歌") == "唱 一首歌"
    assert len(clean_text("x" * MAX_TEXT)) == MAX_TEXT
    for bad in ("", "   ", "x" * (MAX_TEXT + 1), "bell\x07"):
        with pytest.raises(NotationError):
            clean_text(bad)
    assert catalogue_index("SING A SONG") == 0 == catalogue_index("唱一首歌")
    assert catalogue_index("juggle") is None
    assert len({english for english, _ in CATALOGUE}) == len(CATALOGUE)
