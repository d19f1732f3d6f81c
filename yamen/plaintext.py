"""Plain-text helpers shared by the games' terminal renderers (``yamen/games/*/text.py``).

A renderer turns a seat's view into text for a person at a terminal. It is plain text (no
colour, no markup) so that it reads the same in a pipe, a test and a log.
"""

from __future__ import annotations

from collections.abc import Sequence


def table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    """Left-aligned columns under a header line; ``None`` cells print as ``-``."""
    cells = [[str(h) for h in headers]] + [["-" if c is None else str(c) for c in r] for r in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = [
        "  ".join(c.ljust(w) for c, w in zip(row, widths, strict=True)).rstrip() for row in cells
    ]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def seat_name(seat: int, me: int | None) -> str:
    """``3``, or ``3 (you)`` for the viewer's own seat."""
    return f"{seat} (you)" if seat == me else str(seat)


def words(values: Sequence[object]) -> str:
    """A list as space-separated words; ``-`` when empty."""
    return " ".join(str(v) for v in values) or "-"


def who(seat: int | None, me: int | None) -> str:
    """A seat in a sentence: ``you`` for the reader's own, else ``seat 3``."""
    if seat is None:
        return "nobody"
    return "you" if seat == me else f"seat {seat}"


def seats_text(seats: Sequence[int], me: int | None) -> str:
    """Several seats in a sentence (``seat 1, you``); ``nobody`` when none."""
    return ", ".join(who(seat, me) for seat in seats) or "nobody"
