import pytest

from yamen.cards import Card, deck, decks, format_cards, parse_card, parse_cards, parse_rank
from yamen.errors import NotationError


@pytest.mark.parametrize(
    ("token", "card"),
    [
        ("9H", Card("9", "H")),
        ("10s", Card("T", "S")),
        ("TS", Card("T", "S")),
        ("ad", Card("A", "D")),
        ("2C", Card("2", "C")),
        ("SJ", Card("SJ")),
        ("BJ", Card("BJ")),
        ("BJ*", Card("BJ", "", True)),
        ("sj*", Card("SJ", "", True)),
    ],
)
def test_parse_card(token, card):
    assert parse_card(token) == card


@pytest.mark.parametrize("text", ["9H", "TS", "SJ", "BJ*", "AC"])
def test_notation_round_trips(text):
    assert str(parse_card(text)) == text


@pytest.mark.parametrize("token", ["1H", "9X", "9", "QH*", "", "BJJ", "11S", "J"])
def test_bad_card_names_the_token(token):
    with pytest.raises(NotationError) as info:
        parse_card(token)
    assert info.value.token == token
    assert repr(token) in str(info.value)


def test_parse_cards_names_the_first_bad_token():
    assert format_cards(parse_cards("9H, 10S BJ*")) == "9H TS BJ*"
    with pytest.raises(NotationError) as info:
        parse_cards("9H 9Z 1C")
    assert info.value.token == "9Z"


def test_parse_rank():
    assert parse_rank("10") == "T"
    assert parse_rank("q") == "Q"
    with pytest.raises(NotationError):
        parse_rank("1")


def test_decks():
    one = deck()
    assert len(one) == 54 and len(set(one)) == 54
    assert len(deck(jokers=False)) == 52
    assert len(decks(4)) == 216
    assert len(decks(4, ranks="6789TJQKA2")) == 168
