"""Building Criminal Poker positions for tests: explicit deals and scripted turns.

(Its one test, that the helpers build what they promise, is in test_rules.py.)
"""

from __future__ import annotations

from tests.games.helpers import act
from yamen.engine import new_game
from yamen.games.criminal_poker.cards import default_catalog
from yamen.games.criminal_poker.rules import CriminalPokerState

SHERIFF_DEAL = {
    # seat 0 is the sheriff; seat 4 holds the weapon
    "identities": ["sheriff", "citizen", "citizen", "citizen", "citizen"],
    "hands": [[], ["P1", "S1"], ["P2", "W1"], ["S2", "W2"], ["weapon", "P3"]],
    "deck": ["P4", "S3", "W3", "P5", "S4", "W4", "P6"],
}
DETECTIVE_DEAL = {
    # seat 1 is the detective; seat 2 holds the weapon
    "identities": ["citizen", "detective", "citizen", "citizen"],
    "hands": [["P1", "S1"], ["P2", "W1"], ["weapon", "S2"], ["P3", "W2"]],
    "deck": ["P4", "S3", "W3", "P5", "S4", "W4", "P6"],
}


def new(seed: int = 1, deal=None, **options) -> CriminalPokerState:
    return new_game("criminal_poker", options, seed=seed, deal=deal)


def sheriff_game(**options) -> CriminalPokerState:
    return new(deal=SHERIFF_DEAL, **options)


def detective_game(**options) -> CriminalPokerState:
    return new(deal=DETECTIVE_DEAL, mode="detective", **options)


def ids(state: CriminalPokerState, cards: list[int]) -> list[str]:
    return [state.deck[c].id for c in cards]


def open_with(state: CriminalPokerState, choices: dict[int, str] | None = None) -> None:
    """Answer the opening: the given seats reveal the given card, the others their first."""
    choices = choices or {}
    for seat in list(state.pending()):
        card = choices.get(seat) or state.action_text(state.legal(seat)[0]).split()[1]
        act(state, seat, f"reveal {card}")


def skip_all_turns(state: CriminalPokerState, order: list[int] | None = None) -> None:
    """From the first call: suspects in ``order`` (default: seat order) all skip."""
    for seat in order or list(state.suspects):
        if state.phase == "next":
            act(state, state.investigator, f"next {seat}")
        assert state.turn == seat
        act(state, seat, "skip")


def to_questioning(state: CriminalPokerState) -> None:
    open_with(state)
    skip_all_turns(state)
    assert state.phase == "questioning"


def vote(state: CriminalPokerState, targets: list[int]) -> None:
    """Everyone votes, seat i for ``targets[i]``."""
    for seat, target in enumerate(targets):
        act(state, seat, f"vote {target}")


def card(card_id: str):
    return next(c for c in default_catalog().evidence if c.id == card_id)
