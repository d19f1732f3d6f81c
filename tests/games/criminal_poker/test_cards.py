"""The card list as data: Yamen's own, and a room's replacement through the option ``cards``."""

import copy
import json
import random
from collections import Counter
from importlib import resources

import pytest

from tests.games.criminal_poker.helpers import new
from tests.games.helpers import play_random
from yamen import selfplay
from yamen.errors import OptionsError
from yamen.games.criminal_poker.cards import default_catalog
from yamen.records import Recorder, replay


def own_list() -> dict:
    files = resources.files("yamen.games.criminal_poker")
    return json.loads(files.joinpath("cards.json").read_text(encoding="utf-8"))


def test_the_default_list_is_the_rulings_list():
    catalog = default_catalog()
    assert len(catalog.evidence) == 18 and len(catalog.identities) == 9
    kinds = Counter(c.kind for c in catalog.evidence)
    assert kinds == {"physical": 9, "self-statement": 4, "witness": 4, "weapon": 1}
    by_kind = {k: sorted(c.innocence for c in catalog.evidence if c.kind == k) for k in kinds}
    assert by_kind["physical"] == [2] * 9
    assert by_kind["self-statement"] == by_kind["witness"] == [1, 2, 3, 4]
    roles = Counter(i.role for i in catalog.identities)
    assert roles == {"sheriff": 1, "detective": 1, "citizen": 5, "mastermind": 1, "antisocial": 1}
    assert catalog.physical_by_suspects == {3: 3, 4: 6, 5: 9}


def test_every_card_has_an_id_and_a_name_in_english_and_chinese():
    catalog = default_catalog()
    for item in (*catalog.evidence, *catalog.identities):
        assert item.id and set(item.name) == {"en", "zh"}
        assert all(item.name.values())
    assert len({c.id.lower() for c in catalog.evidence}) == 18
    assert len({i.id.lower() for i in catalog.identities}) == 9
    assert catalog.role_names()["mastermind"] == {"en": "Mastermind", "zh": "幕後黑手"}


def test_the_weapon_has_no_innocence_in_the_data():
    weapon = next(c for c in own_list()["evidence"] if c["type"] == "weapon")
    assert weapon["innocence"] is None
    card = next(c for c in default_catalog().evidence if c.kind == "weapon")
    assert card.to_json() == weapon


def test_a_room_may_play_its_own_list():
    cards = own_list()
    for entry in cards["evidence"]:
        if entry["type"] == "physical":
            entry["innocence"] = 3  # a house rule: stronger physical evidence
            entry["name"] = {"en": "Alibi " + entry["id"]}
    state = new(seed=3, cards=cards)
    assert state.options["cards"] == cards
    assert all(c.innocence == 3 for c in state.deck if c.kind == "physical")
    play_random(state, random.Random(3))
    seats = state.result().details["seats"]
    for seat in seats:
        if seat["innocence"] is not None:
            held = seat["shown"] + seat["hidden"]
            assert seat["innocence"] >= 3 * sum(1 for i in held if i.startswith("P"))


def test_a_room_list_is_kept_in_the_record_and_replays():
    cards = own_list()
    cards["evidence"][-1]["id"] = "knife"
    recorder = Recorder("criminal_poker", {"cards": cards, "mode": "detective"}, seed=4)
    selfplay.play_random(recorder, random.Random(4))
    record = recorder.finish()
    assert record.options["cards"]["evidence"][-1]["id"] == "knife"
    assert replay(record).result() is not None


def broken(change) -> dict:
    cards = copy.deepcopy(own_list())
    change(cards)
    return cards


def set_(path, value):
    def change(cards):
        target = cards
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        ([], "cards: must be an object"),
        ({"evidence": []}, "missing key"),
        (broken(lambda c: c.update(extra=1)), "unknown key.*extra"),
        (broken(set_(["evidence"], [])), "evidence must be a list of 1 to 100 cards"),
        (broken(set_(["evidence", 0, "type"], "rumour")), r"evidence\[0\]: type must be one of"),
        (broken(set_(["evidence", 1, "innocence"], -1)), r"evidence\[1\]: innocence must be"),
        (broken(set_(["evidence", 1, "innocence"], 1.5)), "innocence must be a whole number"),
        (broken(set_(["evidence", 17, "innocence"], 0)), "the murder weapon has innocence null"),
        (broken(set_(["evidence", 2, "id"], "p 3")), r"evidence\[2\]: id must be one word"),
        (broken(set_(["evidence", 2, "id"], "p1")), "id 'p1' is used twice"),
        (broken(set_(["evidence", 3, "name"], {"zh": "只有中文"})), 'with at least "en"'),
        (broken(set_(["evidence", 3, "name"], "Receipt")), "name must be an object"),
        (broken(lambda c: c["evidence"][0].update(type="weapon", innocence=None)), "at most one"),
        (broken(lambda c: c["evidence"][0].pop("name")), r"missing key\(s\) \['name'\]"),
        (broken(set_(["identities", 0, "role"], "judge")), r"identities\[0\]: role must be"),
        (broken(set_(["identities", 3, "id"], "citizen1")), "id 'citizen1' is used twice"),
        (broken(set_(["physical_by_suspects", "4"], 10)), "from 0 to 9"),
        (broken(lambda c: c["physical_by_suspects"].pop("5")), 'keys "3", "4" and "5"'),
        (broken(set_(["identities", 0, "role"], "citizen")), "need 1 sheriff identity card"),
        (broken(lambda c: c["identities"].__delitem__(slice(2, 4))), "need 4 citizen"),
        (broken(lambda c: c["evidence"].__delitem__(slice(9, 17))), "needs at least 8 evidence"),
        ({"evidence": [{"id": "x"}], "identities": [1], "physical_by_suspects": {}}, "missing"),
        ({"bad": {1, 2}}, "plain JSON"),
    ],
)
def test_a_bad_room_list_is_refused_with_a_clear_message(cards, message):
    with pytest.raises(OptionsError, match=message):
        new(cards=cards)


def test_special_roles_need_their_cards_in_the_list():
    cards = broken(lambda c: c["identities"].pop())  # no antisocial card
    new(cards=cards, mastermind=True)
    with pytest.raises(OptionsError, match="need 1 antisocial identity card"):
        new(cards=cards, antisocial=True)
