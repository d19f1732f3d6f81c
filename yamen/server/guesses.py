"""Password guesses slowed down, never an owner locked out: failures are counted per (name,
address) and per name, and only the addresses that fail wait.

A limit per account name alone lets anyone keep its owner out: a few wrong passwords from a
few addresses, and the right one is refused too. So here:

- each (name, address) that fails waits before its next try at that name: ``FIRST_DELAY``
  seconds after one failure, twice as long after each more (at most the ``sign_ins`` rate's
  period), forgotten after a success or a period with no failure;
- each name has a bucket of failures, the ``sign_ins`` rate, charged by failures from any
  address: once it is empty (the name is being guessed at), an address that has failed at
  that name waits until the bucket has a failure to give again, and every failure empties it
  again. An address with no failure at the name is not held: the owner, signing in from where
  they have not been failing, gets in whoever hammers the name elsewhere.

The attempts of one address are also limited as a whole by the ``sign_ins`` rate
(yamen/server/limits.py), on top of this. A name is any key: an account's name key, or a
player for the checks of a signed-in player's own password. A known name and an unknown one
are counted alike, so refusals tell nothing about which names exist. A refusal is
:class:`~yamen.server.limits.Limited` (429 ``rate_limited`` with Retry-After) and changes
nothing. Memory is bounded (``keys`` entries of each kind, the least recently used dropped
first); each process counts for itself.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

from yamen.server.limits import WHAT, Limited, Rate

FIRST_DELAY = 1.0  # seconds a (name, address) waits after its first failure; doubled after each


class Guesses:
    """The failed sign-ins of one server process; ``rate`` None: no limit."""

    def __init__(
        self, rate: Rate | None, keys: int = 100_000, clock: Callable[[], float] = time.monotonic
    ):
        self.rate, self.keys, self.clock = rate, keys, clock
        # (name, address) -> (failures in a row, when the last one was)
        self.pairs: OrderedDict[tuple[str, str], tuple[int, float]] = OrderedDict()
        # name -> (failures it may still take, when that was counted): a token bucket
        self.names: OrderedDict[str, tuple[float, float]] = OrderedDict()

    def check(self, name: str, address: str) -> None:
        """Whether ``address`` may try a password for ``name`` now; :class:`Limited` if not."""
        if self.rate is None:
            return
        now = self.clock()
        failures = self._failures(name, address, now)
        if not failures:
            return  # never held: an address that has not been failing at this name
        last = self.pairs[(name, address)][1]
        wait = last + self._delay(failures) - now
        tokens = self._tokens(name, now)
        if tokens < 1:  # the name is being guessed at: its failing addresses wait for it
            wait = max(wait, (1 - tokens) * self.rate.seconds / self.rate.count)
        if wait > 0:
            raise Limited("rate_limited", f"too many {WHAT['sign_ins']}", wait)

    def failed(self, name: str, address: str) -> None:
        if self.rate is None:
            return
        now = self.clock()
        self._keep(self.pairs, (name, address), (self._failures(name, address, now) + 1, now))
        self._keep(self.names, name, (max(0.0, self._tokens(name, now) - 1), now))

    def succeeded(self, name: str, address: str) -> None:
        self.pairs.pop((name, address), None)

    def _failures(self, name: str, address: str, now: float) -> int:
        """Failures in a row of this address at this name; a period without one forgets."""
        assert self.rate is not None
        failures, last = self.pairs.get((name, address), (0, now))
        return failures if now - last < self._delay(failures) + self.rate.seconds else 0

    def _delay(self, failures: int) -> float:
        assert self.rate is not None
        if not failures:
            return 0.0
        return min(FIRST_DELAY * 2 ** min(failures - 1, 30), self.rate.seconds)

    def _tokens(self, name: str, now: float) -> float:
        assert self.rate is not None
        tokens, then = self.names.get(name, (self.rate.count, now))
        return min(self.rate.count, tokens + (now - then) * self.rate.count / self.rate.seconds)

    def _keep(self, table: OrderedDict, key: object, value: object) -> None:
        table[key] = value
        table.move_to_end(key)
        while len(table) > self.keys:
            table.popitem(last=False)
