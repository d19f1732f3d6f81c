"""Failed sign-ins slow the (name, address) that failed, doubling its wait, and once a name is
being guessed at they hold every address that has failed at it, never one that has not; a
success or a quiet period forgets; memory is bounded (yamen/server/guesses.py, on a clock of
the test's own)."""

from __future__ import annotations

import pytest

from yamen.server.guesses import FIRST_DELAY, Guesses
from yamen.server.limits import Limited, Rate


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def waits(guesses: Guesses, name: str, address: str) -> float | None:
    """Seconds ``address`` is told to wait at ``name``; None: it may try now."""
    try:
        guesses.check(name, address)
    except Limited as exc:
        assert exc.code == "rate_limited"
        return exc.retry_after
    return None


def test_each_failure_doubles_the_wait_of_that_address_at_that_name():
    clock = Clock()
    guesses = Guesses(Rate(100, 600), clock=clock)
    seen = []
    for _ in range(5):
        assert waits(guesses, "ann", "a") is None
        guesses.failed("ann", "a")
        seen.append(waits(guesses, "ann", "a"))
        assert waits(guesses, "ann", "b") is None  # another address: not held
        assert waits(guesses, "bob", "a") is None  # another name: not held
        clock.now += seen[-1]  # waited as told
    assert seen == [FIRST_DELAY * 2**k for k in range(5)]


def test_the_wait_is_at_most_the_period_and_a_success_or_a_quiet_period_forgets():
    clock = Clock()
    guesses = Guesses(Rate(1000, 60), clock=clock)
    for _ in range(12):
        guesses.failed("ann", "a")
    assert waits(guesses, "ann", "a") == 60  # 2**11 s, cut to the rate's period
    guesses.succeeded("ann", "a")
    assert waits(guesses, "ann", "a") is None
    guesses.failed("ann", "a")
    guesses.failed("ann", "a")
    clock.now += 2 + 60  # its wait, then a period with no failure
    guesses.failed("ann", "a")
    assert waits(guesses, "ann", "a") == FIRST_DELAY  # counted from one again


def test_a_name_being_guessed_at_holds_its_failing_addresses_and_no_other():
    clock = Clock()
    guesses = Guesses(Rate(3, 600), clock=clock)  # a name takes 3 failures, then 1 in 200 s
    for address in ("a", "b", "c"):
        guesses.failed("ann", address)
    clock.now += 10  # every address's own wait (1 s) is over
    assert [waits(guesses, "ann", x) for x in "abc"] == [190, 190, 190]  # the name's turn
    assert waits(guesses, "ann", "owner") is None  # never failed here: not held
    assert waits(guesses, "bob", "a") is None  # the name is what is held, not the address
    clock.now += 190  # the name may take one failure again
    assert waits(guesses, "ann", "a") is None
    guesses.failed("ann", "a")
    clock.now += 2
    assert waits(guesses, "ann", "b") == 198  # a failure empties it again for all of them
    assert waits(guesses, "ann", "owner") is None


def test_off_holds_nobody_and_memory_is_bounded():
    off = Guesses(None)
    for _ in range(10):
        off.failed("ann", "a")
    assert waits(off, "ann", "a") is None
    clock = Clock()
    small = Guesses(Rate(1, 600), keys=3, clock=clock)
    for i in range(10):
        small.failed(f"n{i}", f"a{i}")
    assert len(small.pairs) == 3 and len(small.names) == 3
    assert waits(small, "n9", "a9") == 600  # the latest kept, the oldest let go
    assert waits(small, "n0", "a0") is None


@pytest.mark.parametrize("name", ["ann", "player:ab12"])
def test_any_key_is_a_name(name):
    guesses = Guesses(Rate(1, 60), clock=Clock())
    guesses.failed(name, "a")
    assert waits(guesses, name, "a") == 60
