"""Who takes an office, and the captor's choices, as pure functions (offices.py, capture.py)."""

from __future__ import annotations

from yamen.games.bao_qingtian import actions as act
from yamen.games.bao_qingtian.capture import decisions, got_away, hit
from yamen.games.bao_qingtian.cards import NUM_TYPES, parse_card_type
from yamen.games.bao_qingtian.offices import Appointment, filling


def hands(*held: str) -> list[list[int]]:
    """Counts by type, one hand per argument (card codes separated by spaces)."""
    result = []
    for text in held:
        counts = [0] * NUM_TYPES
        for code in text.split():
            counts[parse_card_type(code)] += 1
        result.append(counts)
    return result


def test_a_single_holder_takes_the_office():
    assert filling("judge", hands("EMP", "JUD", "COM"), {}, 0, False) == 1
    assert filling("captor", hands("WANG MA", "JUD", "COM"), {"judge": 1}, 0, False) == 0


def test_several_holders_or_none_the_emperor_appoints_any_seat():
    several = filling("judge", hands("EMP", "JUD", "JUD"), {}, 0, False)
    assert several == Appointment("judge", 0, (1, 2), None)
    assert filling("plus", hands("EMP", "JUD", "COM"), {}, 0, False) == Appointment(
        "plus", 0, (), None
    )


def test_nobody_holding_it_with_find_by_drawing_means_draw_turns():
    assert filling("plus", hands("EMP", "JUD", "COM"), {}, 0, True) is None


def test_the_judge_picks_between_wang_and_ma_else_any_seat():
    offices = {"judge": 2}
    wang_and_ma = filling("captor", hands("EMP WANG", "MA", "JUD"), offices, 0, False)
    assert wang_and_ma == Appointment("captor", 2, (0, 1), (0, 1))
    two_wangs = filling("captor", hands("EMP WANG", "WANG", "JUD MA"), offices, 0, False)
    assert two_wangs == Appointment("captor", 2, (0, 1, 2), None)


def test_the_captor_must_guess_once_a_round():
    free = decisions(captor=1, last=0, round_turns=2, num_seats=3, guessed_in_round=False)
    assert act.WAIT in free and act.GUESS_DREW + 0 in free and act.GUESS_HOLDS + 1 not in free
    forced = decisions(captor=1, last=1, round_turns=3, num_seats=3, guessed_in_round=False)
    assert act.WAIT not in forced and act.GUESS_DISCARDED + 1 not in forced


def test_guesses_and_who_got_away():
    thf = parse_card_type("THF")
    held = hands("THF", "COM", "THF")
    discarded_theft = (1, thf, 8)  # seat 1 discarded a Theft card and drew a commoner
    assert hit("discarded", 1, thf, discarded_theft, held)
    assert not hit("drew", 1, thf, discarded_theft, held)
    assert hit("holds", 2, thf, discarded_theft, held)
    assert not hit("holds", 1, thf, discarded_theft, held)
    assert got_away(held, thf, captor=0) == [2]
