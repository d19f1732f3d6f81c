"""Why a Baohuang action is refused: the reason a player reads instead of "not legal".

The engine only asks whether an action is among the legal ones (a fast set lookup); when it
is not, :func:`why` is called once, on that error path, to say which rule stops it, in the
order a player would check: is it a time for sets at all, do I hold these cards, is this a
set in these rules, does it beat the set on the table, and may it leave my hand yet (the
lowest rank held to the end, option ``lowest_held``). Everything it needs is passed in
(:class:`Seen`), so it reads no state and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass

from yamen.games.baohuang.actions import CALL_BASE, PASS, WORDS
from yamen.games.baohuang.kinds import BIG_SLOT, KIND_TEXT, SJ_MARKED, SMALL_SLOT, slot_text
from yamen.games.baohuang.phases import Phase
from yamen.games.baohuang.sets import SetShape, decode, is_play, is_shape

NUMBERS = [
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
]
CHINESE_NUMBER = {"3": "三", "6": "六"}  # the held ranks: the lowest of the 216 and 168 decks


@dataclass(frozen=True)
class Seen:
    """What the refusing seat's situation is: the phase, its hand by slot (ranks by strength,
    then small and big jokers), the telling card (the called card, or the marked small joker:
    -1 for none) and how many the seat holds, the set on the table as ``(r, n, x, y)`` (or
    ``None`` when the seat leads), whether a single natural may go with jokers, the actions
    the seat may take now, and (option ``lowest_held``) the rank held to the end and the
    hand's size."""

    phase: str
    slots: list[int]
    tell_kind: int
    telling_held: int
    table: tuple[int, int, int, int] | None
    single_with_jokers: bool
    legal_words: tuple[str, ...]
    held_rank: int = -1  # lowest_held: the rank held to the end (-1: off)
    hand_size: int = 0  # the seat's cards in all (lowest_held: a set that empties the hand)


def why(action: int, text: str, seen: Seen) -> str:
    """The reason the seat may not take ``action`` (written ``text``) now."""
    if not is_play(action):
        return _word_refused(action, text, seen)
    if seen.phase != Phase.PLAY:
        return f"{text} cannot be played yet: sets are played once the opening is over"
    r, n, x, y, t = decode(action)
    reason = _not_held(r, n, x, y, t, seen) or _not_a_set(r, n, x, y, seen)
    if reason is None and seen.table is not None:
        reason = _does_not_beat(SetShape(r, n, x, y), SetShape(*seen.table))
    if reason is None and n and r == seen.held_rank and n + x + y < seen.hand_size:
        reason = _held_back(rank_name(r))
    return f"{text} cannot be played: {reason or 'it is not one of your plays now'}"


def _word_refused(action: int, text: str, seen: Seen) -> str:
    if seen.phase == Phase.PLAY and action == PASS and seen.table is None:
        return "you cannot pass: you lead, so play a set"
    if action in WORDS or CALL_BASE <= action < CALL_BASE + 54:
        open_now = ", ".join(seen.legal_words)
        hint = f" (now you may: {open_now})" if open_now else ""
        return f"'{text}' is not open to you now{hint}"
    return f"'{text}' is not a Baohuang action"


def _count(n: int, what: str) -> str:
    word = NUMBERS[n] if n < len(NUMBERS) else str(n)
    return f"{word} {what}" + ("s" if n != 1 else "")


def rank_name(r: int) -> str:
    """A rank as a player says it: ``10`` rather than the notation's ``T``."""
    return "10" if slot_text(r) == "T" else slot_text(r)


def _not_held(r: int, n: int, x: int, y: int, t: int, seen: Seen) -> str | None:
    slots = seen.slots
    if n and slots[r] < n:
        held = slots[r]
        return f"you hold {'only ' if held else ''}{_count(held, rank_name(r))}"
    if x > slots[SMALL_SLOT]:
        return f"you hold {_count(slots[SMALL_SLOT], 'small joker')}"
    if y > slots[BIG_SLOT]:
        return f"you hold {_count(slots[BIG_SLOT], 'big joker')}"
    if seen.tell_kind < 0:
        return None
    marked = seen.tell_kind == SJ_MARKED
    card = "the marked small joker SJ*" if marked else KIND_TEXT[seen.tell_kind]
    if t > seen.telling_held:
        held = seen.telling_held
        return f"you hold {card} only {_count(held, 'time')}" if held else f"you do not hold {card}"
    if marked:
        among, held = x, slots[SMALL_SLOT]
    elif n and r == seen.tell_kind // 4:
        among, held = n, slots[r]
    else:
        return None  # no card of the telling slot in the set: nothing to write
    plain = held - seen.telling_held
    if among - t > plain:
        return f"besides {card} you hold {_count(plain, 'plain one')}: write {card} in the set"
    return None


def _not_a_set(r: int, n: int, x: int, y: int, seen: Seen) -> str | None:
    if is_shape(r, n, x, y, seen.single_with_jokers):
        return None
    if n == 1 and x + y:
        return "a single card cannot go with jokers in these rules"
    return "that is not a set"


def _held_back(rank: str) -> str:
    bie = f"憋{CHINESE_NUMBER.get(rank, rank)}"
    return f"the {rank}s are held to the end ({bie}): play them in the set that empties your hand"


def _does_not_beat(mine: SetShape, table: SetShape) -> str | None:
    if mine.size != table.size:
        return f"the table holds {_count(table.size, 'card')}: answer with as many"
    if table.y:
        return "nothing beats a big joker on the table"
    if mine.y < table.x:
        return "each small joker on the table needs a big joker above it"
    if mine.n and table.n == 0:
        return "jokers alone on the table are beaten only by jokers"
    if mine.n and mine.r <= table.r:
        return f"{rank_name(mine.r)} does not beat {rank_name(table.r)}: play a higher rank"
    return None
