"""What a game's options change in play: the house rules and the rules edition, read once.

The state machine (rules.py) and the search playouts ask a :class:`House`, never an option by
name, so the rules and the playouts cannot drift apart.

- ``edition`` (issue 16): how Yamen reads its source texts. Edition 1 is the reading before
  two corrections; stored games that do not name an edition were played under it and replay
  under it (options.py: ``legacy``). Edition 2, for new games:
  - claim (接風, shandong): only the finished seat's next seat still in may claim the lead on
    that seat's last set (seed 002: 對上家的底牌, the last set of one's 上家); edition 1 let any
    seat answering in the first circle claim;
  - dealing (japanese): the seat after the dealer cuts and the first card goes to the seat
    after the cutter (seed 003: カットしたプレイヤーの右隣から); edition 1 dealt the first card
    to the dealer's next seat.
- ``hard_pass``: a seat that passed may not answer again until the trick is over (someone
  leads anew); by default a pass holds against one set only (the soft pass).
- ``lowest_held`` (憋六 in the 168-card game, 憋三 in the 216-card one): the deck's lowest rank
  is held to the end. A set holding a card of that rank may be played only when it empties
  the hand (jokers in it as the set rules allow); every public implementation with the rule
  reads it so (docs/rules/baohuang.md). Such a set never beats anything, so the rule only
  narrows the leads; a seat can always lead (another set, or the whole hand), and a seat left
  holding the rank when the deal ends is simply the seat left, last.
- ``lowest_last``: a seat whose last set holds a card of the deck's lowest rank goes out but
  is ranked below every other seat, the one left holding cards included; several such seats
  keep their finishing order among themselves, under the rest. This was Yamen's first reading
  of 憋六/憋三 (issue 16); it is kept, under its own name, for the games recorded with it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from yamen.games.baohuang.kinds import STRENGTH_RANKS
from yamen.games.baohuang.sets import DECODED, decoded

EDITION = 2  # the reading new games are played under
LEGACY_EDITION = 1  # a stored game that names no edition was played under this one


@dataclass(frozen=True, slots=True)
class House:
    edition: int
    hard_pass: bool
    sink_rank: int  # lowest_last: the rank (strength index) one must not go out on; -1: off
    held_rank: int  # lowest_held: the rank (strength index) held to the end; -1: off

    @classmethod
    def read(cls, options: Mapping[str, Any], lowest_strength: int) -> House:
        """The house of a game's options (complete: read against the declaration)."""
        sink = lowest_strength if options["lowest_last"] else -1
        held = lowest_strength if options["lowest_held"] else -1
        return cls(options["edition"], options["hard_pass"], sink, held)

    def first_card(self, dealer: int) -> int:
        """The seat a dealt round of cards starts with (japanese)."""
        return (dealer + (2 if self.edition >= 2 else 1)) % 5

    def may_claim(self, seat: int, next_still_in: int) -> bool:
        """Whether ``seat`` may claim the lead on the last set of a seat now out, whose next
        seat still in is ``next_still_in``."""
        return self.edition < 2 or seat == next_still_in

    def to_ask(self, order: list[int], passed: list[bool]) -> list[int]:
        """Who answers a new set: the seats still in after its player, in play order; with
        the hard pass, not those that passed since the trick's lead."""
        return [s for s in order if not passed[s]] if self.hard_pass else order[:]

    def holds_back(self, r: int, n: int, x: int, y: int, hand_size: int) -> bool:
        """Whether the set (``n`` naturals of rank ``r``, ``x`` small and ``y`` big jokers)
        must stay in a hand of ``hand_size`` cards: it holds the held rank and would not
        empty the hand."""
        return n > 0 and r == self.held_rank and n + x + y < hand_size

    def leads_allowed(self, leads: list[int], hand_size: int) -> list[int]:
        """The leads (action ids) that lowest_held lets a hand of ``hand_size`` cards play:
        a set holding the held rank only when it empties the hand. No answer is narrowed:
        a set of the deck's lowest rank beats nothing."""
        kept = []
        for action in leads:
            r, n, x, y, _ = DECODED.get(action) or decoded(action)
            if not self.holds_back(r, n, x, y, hand_size):
                kept.append(action)
        return kept

    def sinks(self, r: int, n: int) -> bool:
        """Whether going out with the set (``n`` naturals of rank ``r``) ranks a seat last."""
        return n > 0 and r == self.sink_rank

    @staticmethod
    def places(out: list[int], sunk: list[int], still_in: list[int]) -> list[int]:
        """Finishing places: the seats out (but the sunk ones) in the order they went out,
        then ``still_in`` (at the end of a deal, the one seat left), then the sunk seats."""
        return [s for s in out if s not in sunk] + still_in + sunk

    def sunk_of(self, out: list[int], plays: list[tuple[int, list[str]]]) -> list[int]:
        """The sunk seats of a deal from its public plays: each seat out whose last set held
        a card of the sink rank (for a state built from its parts)."""
        if self.sink_rank < 0:
            return []
        rank = STRENGTH_RANKS[self.sink_rank]  # a card's text starts with its rank; a joker's
        last = {seat: cards for seat, cards in plays}  # with S or B, which is no rank
        return [s for s in out if any(card[0] == rank for card in last.get(s, []))]
