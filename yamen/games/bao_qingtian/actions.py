"""Action ids and their text notation.

Actions are small ints (an RL action index); the layout below is fixed for every table size
(up to ``MAX_SEATS`` seats), so ``NUM_ACTIONS`` is the size of the action space. Each action has
one text form, written by :func:`action_text` and read by :func:`parse`. Only a custom
punishment says more than its id ("the judge's own words"): the words travel with the text, and
``BaoQingtianState.apply_text`` reads and applies them as one step.
"""

from __future__ import annotations

from itertools import accumulate

from yamen.errors import NotationError
from yamen.games.bao_qingtian.cards import CODE, CRIMINALS, NUM_TYPES, parse_card_type
from yamen.games.bao_qingtian.sentence import (
    CATALOGUE,
    OFFICERS,
    RANGES,
    catalogue_index,
    clean_text,
)

MAX_SEATS = 50
COUNTS = RANGES["judge"]  # the judge's count: 1 .. 10

DISCARD = 0  # + card type: discard that card (and draw the top card)
NAME = DISCARD + NUM_TYPES  # + index in CRIMINALS: the emperor names the criminal to catch
APPOINT = NAME + len(CRIMINALS)  # + seat
WAIT = APPOINT + MAX_SEATS  # the captor lets the turn pass without a guess
GUESS_DISCARDED = WAIT + 1  # + seat: "that seat just discarded the criminal card"
GUESS_DREW = GUESS_DISCARDED + MAX_SEATS  # + seat: "... just drew it"
GUESS_HOLDS = GUESS_DREW + MAX_SEATS  # + seat: "... holds it"
PUNISH = GUESS_HOLDS + MAX_SEATS  # + slot * len(COUNTS) + count - 1
CUSTOM_SLOT = len(CATALOGUE)  # the slot after the catalogue: the judge's own words
_NUMBERS = PUNISH + (CUSTOM_SLOT + 1) * len(COUNTS)
_WIDTHS = [len(RANGES[officer]) for officer in OFFICERS]
NUMBER: dict[str, int] = dict(  # officer -> the id of its smallest number
    zip(OFFICERS, accumulate(_WIDTHS[:-1], initial=_NUMBERS), strict=True)
)
_WORDS = _NUMBERS + sum(_WIDTHS)
LIGHT, HEAVY, EXECUTE, PARDON, DONE = range(_WORDS, _WORDS + 5)
NUM_ACTIONS = DONE + 1

WORDS = {
    WAIT: "wait",
    LIGHT: "light",
    HEAVY: "heavy",
    EXECUTE: "execute",
    PARDON: "pardon",
    DONE: "done",
}
WORD_ACTIONS = {word: action for action, word in WORDS.items()}
GUESS_FORMS = {"discarded": GUESS_DISCARDED, "drew": GUESS_DREW, "holds": GUESS_HOLDS}


def punish(slot: int, count: int) -> int:
    return PUNISH + slot * len(COUNTS) + count - COUNTS.start


def number(officer: str, n: int) -> int:
    """The action of an officer giving the number ``n``."""
    return NUMBER[officer] + n - RANGES[officer].start


def number_value(officer: str, action: int) -> int:
    return action - NUMBER[officer] + RANGES[officer].start


def punish_parts(action: int) -> tuple[int, int]:
    """(slot, count) of a punish action."""
    slot, rest = divmod(action - PUNISH, len(COUNTS))
    return slot, rest + COUNTS.start


def is_punish(action: int) -> bool:
    return PUNISH <= action < NUMBER[OFFICERS[0]]


def guess_parts(action: int) -> tuple[str, int]:
    """(form, seat) of a guess action."""
    for form, base in GUESS_FORMS.items():
        if base <= action < base + MAX_SEATS:
            return form, action - base
    raise ValueError(f"{action} is not a guess")


def action_text(action: int, custom: str | None = None) -> str:
    """The action's notation; ``custom`` is the judge's own words for a custom punishment."""
    if not isinstance(action, int) or isinstance(action, bool) or not 0 <= action < NUM_ACTIONS:
        raise NotationError(repr(action), "not an action id of this game")
    if action in WORDS:
        return WORDS[action]
    if action < NAME:
        return f"discard {CODE[action - DISCARD]}"
    if action < APPOINT:
        return f"name {CODE[CRIMINALS[action - NAME]]}"
    if action < WAIT:
        return f"appoint {action - APPOINT}"
    if action < PUNISH:
        form, seat = guess_parts(action)
        return f"guess {seat} {form}"
    if is_punish(action):
        slot, count = punish_parts(action)
        if slot == CUSTOM_SLOT:
            if custom is None:
                raise NotationError(str(action), "no punishment of the judge's own was written")
            return f'punish "{custom}" {count}'
        return f'punish "{CATALOGUE[slot][0]}" {count}'
    for officer in reversed(OFFICERS):
        if action >= NUMBER[officer]:
            return f"{officer} {number_value(officer, action)}"
    raise AssertionError(action)  # unreachable: every id below NUM_ACTIONS is covered


def parse(text: str, num_seats: int) -> tuple[int, str | None]:
    """An action from its notation, and the judge's own words when it is a custom punishment.
    Case does not matter; a :class:`NotationError` names the token that could not be read."""
    parts = text.split(None, 1)
    if not parts:
        raise NotationError(text, "empty action")
    verb = parts[0].lower()
    rest = parts[1] if len(parts) > 1 else ""
    if verb == "punish":
        return _parse_punish(rest)
    tokens = rest.split()
    if verb in WORD_ACTIONS:
        _expect(tokens, 0)
        return WORD_ACTIONS[verb], None
    if verb == "discard":
        _expect(tokens, 1, "discard takes one card: discard COM")
        return DISCARD + parse_card_type(tokens[0]), None
    if verb == "name":
        _expect(tokens, 1, "name takes one criminal card: name THF")
        card = parse_card_type(tokens[0])
        if card not in CRIMINALS:
            raise NotationError(tokens[0], "not a criminal card (THF ROB MUR PKP)")
        return NAME + CRIMINALS.index(card), None
    if verb == "appoint":
        _expect(tokens, 1, "appoint takes one seat: appoint 2")
        return APPOINT + _seat(tokens[0], num_seats), None
    if verb == "guess":
        _expect(tokens, 2, "guess takes a seat and discarded, drew or holds: guess 2 holds")
        seat = _seat(tokens[0], num_seats)
        form = tokens[1].lower()
        if form not in GUESS_FORMS:
            raise NotationError(tokens[1], "a guess is discarded, drew or holds")
        return GUESS_FORMS[form] + seat, None
    if verb in NUMBER:
        _expect(tokens, 1, f"{verb} takes one number: {verb} 2")
        return number(verb, _number(tokens[0], verb)), None
    raise NotationError(parts[0], "not an action of this game (see docs/rules/bao_qingtian.md)")


def _parse_punish(rest: str) -> tuple[int, str | None]:
    """``"words" count``: the words are everything between the first and the last quote."""
    body = rest.strip()
    last = body.rfind('"')
    if not body.startswith('"') or last == 0:
        raise NotationError(body or "punish", 'write the punishment in quotes: punish "dance" 3')
    words = clean_text(body[1:last])
    tail = body[last + 1 :].split()
    if len(tail) != 1:
        bad = tail[1] if tail else body
        raise NotationError(bad, 'one count follows the punishment: punish "dance" 3')
    count = _number(tail[0], "judge")
    slot = catalogue_index(words)
    if slot is not None:
        return punish(slot, count), None
    return punish(CUSTOM_SLOT, count), words


def _expect(tokens: list[str], count: int, usage: str = "this action takes no argument") -> None:
    if len(tokens) > count:
        raise NotationError(tokens[count], usage)
    if len(tokens) < count:
        raise NotationError(" ".join(tokens) or "(nothing)", usage)


def _small(token: str) -> int | None:
    """A short run of ASCII digits as a number, else None: str.isdigit also takes "²" and
    "①", which int() refuses, and int() refuses more than 4,300 digits (leading zeros aside,
    no number of this game has more than three)."""
    digits = token.lstrip("0") or "0"
    if not (token.isascii() and token.isdigit()) or len(digits) > 3:
        return None
    return int(digits)


def _seat(token: str, num_seats: int) -> int:
    seat = _small(token)
    if seat is None or seat >= num_seats:
        raise NotationError(token, f"not a seat at this table (0 to {num_seats - 1})")
    return seat


def _number(token: str, officer: str) -> int:
    allowed = RANGES[officer]
    n = _small(token)
    if n is None or n not in allowed:
        raise NotationError(token, f"a whole number from {allowed[0]} to {allowed[-1]}")
    return n
