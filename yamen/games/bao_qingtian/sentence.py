"""The sentence: a punishment, a count, and what each officer does to the count.

Every number an officer may give comes from a small fixed range, so that each decision has a
finite list of legal actions (an RL action space). The punishment is a phrase: one of a fixed
catalogue, or the judge's own words (see ``rules.py`` for how free text travels as an action).
"""

from __future__ import annotations

from yamen.errors import NotationError

MAX_NUMBER = 10
MAX_TEXT = 80

# The numbers each step may give. The judge's count is at least 1 (a sentence punishes); the
# divide officer never divides by 0; plus, minus and times may give 0.
RANGES: dict[str, range] = {
    "judge": range(1, MAX_NUMBER + 1),
    "plus": range(0, MAX_NUMBER + 1),
    "minus": range(0, MAX_NUMBER + 1),
    "times": range(0, MAX_NUMBER + 1),
    "divide": range(1, MAX_NUMBER + 1),
}
OFFICERS = ("plus", "minus", "times", "divide")  # in the order they act
SEVERITIES = ("light", "heavy")

# (English, Chinese): either is read; the English is written.
CATALOGUE: tuple[tuple[str, str], ...] = (
    ("sing a song", "唱一首歌"),
    ("do push-ups", "做伏地挺身"),
    ("do squats", "做深蹲"),
    ("tell a joke", "講一個笑話"),
    ("dance", "跳一段舞"),
    ("imitate an animal", "學動物叫"),
    ("praise every player", "稱讚每位玩家"),
    ("hop on one foot", "單腳跳"),
)


def apply_step(count: int, officer: str, number: int) -> int:
    """The count after one officer: plus adds, minus subtracts (never below 0), times
    multiplies, divide divides rounding down."""
    if number not in RANGES[officer]:
        raise ValueError(f"{officer} gives a number in {RANGES[officer]}, not {number}")
    if officer == "plus":
        return count + number
    if officer == "minus":
        return max(0, count - number)
    if officer == "times":
        return count * number
    return count // number


def final_count(start: int, plus: int, minus: int, times: int, divide: int) -> int:
    """The count after all four officers, in their order."""
    count = start
    for officer, number in zip(OFFICERS, (plus, minus, times, divide), strict=True):
        count = apply_step(count, officer, number)
    return count


def clean_text(text: str) -> str:
    """A punishment phrase as stored: runs of white space made one space, at most
    ``MAX_TEXT`` characters, printable, not empty."""
    cleaned = " ".join(text.split())
    if not cleaned:
        raise NotationError(text, "the punishment is empty")
    if len(cleaned) > MAX_TEXT:
        raise NotationError(cleaned, f"the punishment is longer than {MAX_TEXT} characters")
    if not cleaned.isprintable():
        raise NotationError(cleaned, "the punishment has a character that cannot be printed")
    return cleaned


def catalogue_index(text: str) -> int | None:
    """The catalogue entry a cleaned phrase names (English or Chinese, any case), if any."""
    folded = text.casefold()
    for index, names in enumerate(CATALOGUE):
        if folded in (name.casefold() for name in names):
            return index
    return None
