"""Actions as small ints, and their text notation.

    pass, yield, claim, grab, keep, hand on, declare, rebel     the words
    call 9H                                                     call a card (shandong)
    9 9 9H SJ                                                   a set (see sets.py)

Ids below ``CALL_BASE`` are the words, ``CALL_BASE + kind`` calls a card kind (0..53), and
from ``sets.PLAY_BASE`` on an id encodes a set ``(r, n, x, y, t)``. In a set, a natural card
written without a suit is a plain card; written with its suit it is the telling card when it
is the telling kind (the called card), and a plain card otherwise. ``SJ*`` is the marked
small joker (the japanese guard card). Words are case-insensitive.

Only the telling kind of the deal (``tell_kind``: the called natural, the marked small joker,
or -1) changes how a set is read or written, so that is all these functions are given.
"""

from __future__ import annotations

from functools import lru_cache

from yamen.cards import parse_card, parse_rank
from yamen.errors import NotationError
from yamen.games.baohuang.kinds import (
    KIND_TEXT,
    SJ_MARKED,
    SLOT_OF,
    STRENGTH_RANKS,
    kind_of,
    slot_text,
)
from yamen.games.baohuang.sets import NO_RANK, decode, encode, is_play

PASS, YIELD, CLAIM, GRAB, KEEP, HAND_ON, DECLARE, REBEL = range(8)
CALL_BASE = 8  # CALL_BASE + kind calls that card kind
WORDS = {
    PASS: "pass",
    YIELD: "yield",
    CLAIM: "claim",
    GRAB: "grab",
    KEEP: "keep",
    HAND_ON: "hand on",
    DECLARE: "declare",
    REBEL: "rebel",
}
WORD_ACTIONS = {word: action for action, word in WORDS.items()}
MAX_NATURALS, MAX_JOKERS = 16, 4  # of one rank, of one colour: what four decks hold


def text(action: int, tell_kind: int) -> str:
    """The notation of an action id; :class:`NotationError` if it is none of Baohuang's."""
    if action in WORDS:
        return WORDS[action]
    if CALL_BASE <= action < CALL_BASE + 54:
        return "call " + KIND_TEXT[action - CALL_BASE]
    if not is_play(action):
        raise NotationError(str(action), "not a Baohuang action id")
    return play_text(action, tell_kind)


def parse(words: str, tell_kind: int) -> int:
    """Read an action (see the module docstring); :class:`NotationError` names what is wrong."""
    joined = " ".join(words.lower().split())
    if joined in WORD_ACTIONS:
        return WORD_ACTIONS[joined]
    if joined.startswith("call "):
        card = parse_card(joined[5:])
        return CALL_BASE + kind_of(card._replace(marked=False))
    tokens = words.split()
    if not tokens:
        raise NotationError(words, "empty action")
    rank, n, x, y, t = NO_RANK, 0, 0, 0, 0
    for token in tokens:
        upper = token.upper()
        if upper in ("SJ", "SJ*"):
            x += 1
            t += upper == "SJ*" and tell_kind == SJ_MARKED
            continue
        if upper in ("BJ", "BJ*"):
            y += 1
            continue
        try:
            slot, kind = STRENGTH_RANKS.index(parse_rank(token)), None
        except NotationError:
            kind = kind_of(parse_card(token))
            slot = SLOT_OF[kind]
        if rank not in (NO_RANK, slot):
            raise NotationError(token, "a set is cards of one rank, plus any jokers")
        rank = slot
        n += 1
        t += kind is not None and kind == tell_kind
    if n > MAX_NATURALS or x > MAX_JOKERS or y > MAX_JOKERS:
        raise NotationError(words, "more cards than four decks hold")
    return encode(rank, n, x, y, t)


@lru_cache(maxsize=1 << 16)
def play_text(action: int, tell_kind: int) -> str:
    """A set's notation; only the telling card (``tell_kind``) depends on the deal. Cached:
    every view lists the seat's legal sets, and a server sends a view per seat per action."""
    r, n, x, y, t = decode(action)
    small_tells = t if tell_kind == SJ_MARKED else 0
    natural_tells = t if 0 <= tell_kind < 52 else 0
    tokens = ["BJ"] * y + ["SJ*"] * small_tells + ["SJ"] * (x - small_tells)
    if n:
        tokens += [KIND_TEXT[tell_kind]] * natural_tells + [slot_text(r)] * (n - natural_tells)
    return " ".join(tokens)
