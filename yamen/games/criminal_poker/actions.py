"""Actions as small ints, and their text notation.

    skip, draw, keep hidden, end questioning     the words
    next N                                       the investigator lets suspect N take its turn
    arrest N, vote N                             sheriff's arrest, a detective-mode vote
    reveal ID                                    show an evidence card, by its id ("P3")

The ids are ordered so that a game's whole action space is ``range(REVEAL_BASE + deck size)``.
Text is case-insensitive and spaces separate tokens.
"""

from __future__ import annotations

from collections.abc import Sequence

from yamen.errors import NotationError
from yamen.games.criminal_poker.cards import Card

SKIP, DRAW, KEEP_HIDDEN, END_QUESTIONING = range(4)
SEAT_BLOCK = 10  # room for every seat a game can have (at most 6)
NEXT_BASE, ARREST_BASE, VOTE_BASE, REVEAL_BASE = 10, 20, 30, 40

WORDS = {SKIP: "skip", DRAW: "draw", KEEP_HIDDEN: "keep hidden", END_QUESTIONING: "end questioning"}
WORD_ACTIONS = {word: action for action, word in WORDS.items()}
SEAT_WORDS = {"next": NEXT_BASE, "arrest": ARREST_BASE, "vote": VOTE_BASE}
SEAT_BASES = {base: word for word, base in SEAT_WORDS.items()}
KNOWN = "skip, draw, keep hidden, end questioning, next N, arrest N, vote N, reveal ID"


def text(action: int, deck: Sequence[Card], seats: int) -> str:
    """The notation of an action id; :class:`NotationError` if it is none of this game's."""
    if type(action) is int:
        if action in WORDS:
            return WORDS[action]
        if NEXT_BASE <= action < REVEAL_BASE and action % SEAT_BLOCK < seats:
            base = action - action % SEAT_BLOCK
            return f"{SEAT_BASES[base]} {action - base}"
        if REVEAL_BASE <= action < REVEAL_BASE + len(deck):
            return f"reveal {deck[action - REVEAL_BASE].id}"
    raise NotationError(str(action), "not a Criminal Poker action id")


def parse(words: str, deck: Sequence[Card], seats: int) -> int:
    """Read an action; a :class:`NotationError` names the token that is wrong."""
    raw = words.split()  # errors quote the token as written
    tokens = [t.lower() for t in raw]
    if not tokens:
        raise NotationError(words, "empty action")
    joined = " ".join(tokens)
    if joined in WORD_ACTIONS:
        return WORD_ACTIONS[joined]
    head = tokens[0]
    if head in ("keep", "end"):
        wanted = WORDS[KEEP_HIDDEN if head == "keep" else END_QUESTIONING]
        bad = raw[1] if len(raw) > 1 else raw[0]
        raise NotationError(bad, f"did you mean {wanted!r}?")
    if head in WORDS.values():  # "skip" or "draw" with something after it
        raise NotationError(raw[1], f"{head!r} takes nothing after it")
    if head in SEAT_WORDS or head == "reveal":
        if len(tokens) != 2:
            bad = raw[2] if len(raw) > 2 else raw[0]
            raise NotationError(bad, f"write {head!r} and one {_what(head)}")
        if head == "reveal":
            return REVEAL_BASE + _card_index(raw[1], deck)
        return SEAT_WORDS[head] + _seat(raw[1], seats)
    raise NotationError(raw[0], f"unknown action; known: {KNOWN}")


def _what(head: str) -> str:
    return "card id" if head == "reveal" else "seat number"


def _seat(token: str, seats: int) -> int:
    # ASCII digits only: str.isdigit also takes "²" and "①", which int() refuses; and no
    # more digits than a seat has (int() refuses 4,301 of them), leading zeros aside
    digits = token.lstrip("0") or "0"
    if not (token.isascii() and token.isdigit()):
        raise NotationError(token, "not a seat number")
    if len(digits) > 2 or int(digits) >= seats:
        raise NotationError(token, f"no such seat; seats are 0 to {seats - 1}")
    return int(digits)


def _card_index(token: str, deck: Sequence[Card]) -> int:
    wanted = token.lower()
    for index, card in enumerate(deck):
        if card.id.lower() == wanted:
            return index
    raise NotationError(token, "no evidence card with this id in this game")
