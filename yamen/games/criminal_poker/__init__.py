"""Criminal Poker 犯罪心理: suspects show and hide evidence; the sheriff (or a vote led by a
detective who may be the culprit) arrests one of them."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from yamen.engine import Event, Game, Word
from yamen.errors import OptionsError
from yamen.games.criminal_poker import standing, text
from yamen.games.criminal_poker.actions import REVEAL_BASE
from yamen.games.criminal_poker.cards import (
    SPECIAL_ROLES,
    Catalog,
    default_catalog,
    parse_catalog,
)
from yamen.games.criminal_poker.rules import CriminalPokerState
from yamen.games.criminal_poker.setup import HAND, role_counts, suspect_count
from yamen.options import Option

DECLARATION = (
    Option("mode", "choice", "sheriff", "Who arrests", choices=("sheriff", "detective")),
    Option(
        "players",
        "whole",
        5,
        "Players (the sheriff and 3 to 5 suspects)",
        low=4,
        high=6,
        applies=("mode", "sheriff"),
    ),
    Option("players", "whole", 4, "Players", low=3, high=5, applies=("mode", "detective")),
    Option(
        "sheriff",
        "seat",
        None,
        "The sheriff's seat (null: drawn)",
        low=0,
        high=5,
        nullable=True,
        applies=("mode", "sheriff"),
    ),
    Option("mastermind", "bool", False, "A mastermind (幕後黑手)"),
    Option("antisocial", "bool", False, "An antisocial (反社會份子)"),
    # null: Yamen's own list (cards.json); or a list of the same shape
    Option("cards", "data", None, "The card list (null: Yamen's own)", nullable=True),
)


class CriminalPoker(Game):
    name = "criminal_poker"
    title = "Criminal Poker 犯罪心理"
    seats = range(3, 7)
    declaration = DECLARATION
    bots = {"rules": "yamen.bots.criminal_poker.rules:CriminalPokerRulesBot"}
    encoder = "yamen.games.criminal_poker.encoding:CriminalPokerEncoder"
    view_type = "yamen.games.criminal_poker.view:CriminalPokerView"
    phases = "yamen.games.criminal_poker.phases:Phase"
    view_logs = ("votes",)  # the votes finished (a turn's entry changes as it goes on: no log)
    figures = ()  # places only put the winners first, and a score is 1 for a win: its words
    __slots__ = ("catalog",)
    catalog: Catalog

    def __init__(self, options: dict[str, Any] | None = None, stored: bool = False):
        if isinstance(options, dict) and "players" in options and options["players"] is None:
            options = {k: v for k, v in options.items() if k != "players"}  # null: by mode
        super().__init__(options, stored)

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        players = options["players"]
        sheriff = options["sheriff"]
        if options["mode"] == "detective" and sheriff is not None:
            message = "detective mode has no sheriff: leave the option sheriff null"
            raise OptionsError(message, "detective_sheriff")
        if sheriff is not None and sheriff >= players:
            message = f"sheriff must be a seat from 0 to {players - 1}, or null"
            raise OptionsError(message, "sheriff_seat", high=players - 1)
        _check_specials(options)
        if options["cards"] is not None:
            options["cards"] = _plain(options["cards"])
        catalog = catalog_of(options)
        _check_catalog(options, catalog)
        deck = catalog.deck(suspect_count(options))
        self._fix(num_seats=players, num_actions=REVEAL_BASE + len(deck), catalog=catalog)

    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> CriminalPokerState:
        return CriminalPokerState(options, seed, self.catalog, deal)

    @classmethod
    def part(cls, result: Mapping[str, Any], seat: int) -> list[Word]:
        return standing.part(result, seat)

    @classmethod
    def render_text(cls, view: Mapping[str, Any]) -> str:
        return text.render(view)

    @classmethod
    def event_text(cls, event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
        return text.event_text(event, me, view)


def catalog_of(options: dict[str, Any]) -> Catalog:
    cards = options["cards"]
    if cards is None:
        return default_catalog()
    try:
        return parse_catalog(cards)
    except OptionsError as exc:  # what is wrong is in the message; a front says "the list"
        raise OptionsError(str(exc), exc.reason or "cards", **exc.params) from None


def _plain(value: Any) -> Any:
    """A room's card list as plain JSON (so records store exactly what was played)."""
    try:
        return json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested beyond reading
        raise OptionsError(
            "cards: must be plain JSON data (objects, lists, strings, numbers)", "cards"
        ) from None


def _check_specials(opts: dict[str, Any]) -> None:
    """The seed's advice for detective mode, as a rule: with votes deciding the arrest, too
    many seats that do not want the culprit caught break the game. Three players: no special
    roles; four or five: at most one. Sheriff mode has no limit."""
    if opts["mode"] != "detective":
        return
    count = sum(opts[role] for role in SPECIAL_ROLES)
    limit = 0 if opts["players"] == 3 else 1
    if count > limit:
        raise OptionsError(
            f"detective mode with {opts['players']} players allows "
            + ("no special roles" if limit == 0 else "at most one special role")
            + " (the detective and special roles should not outnumber the citizens)",
            "detective_specials",
            players=opts["players"],
            most=limit,
        )


def _check_catalog(opts: dict[str, Any], catalog: Catalog) -> None:
    """The card list must be able to set up this game: its identities and two evidence cards
    for each suspect."""
    for role, needed in role_counts(opts).items():
        if catalog.count(role) < needed:
            raise OptionsError(
                f"cards: these options need {needed} {role} identity card(s), "
                f"the list has {catalog.count(role)}",
                "cards_roles",
                role=role,
                needed=needed,
                have=catalog.count(role),
            )
    suspects = suspect_count(opts)
    size = len(catalog.deck(suspects))
    if size < HAND * suspects:
        raise OptionsError(
            f"cards: a game of {suspects} suspects needs at least {HAND * suspects} evidence "
            f"cards to deal two each, this list gives {size}",
            "cards_evidence",
            suspects=suspects,
            needed=HAND * suspects,
            have=size,
        )


__all__ = ["CriminalPoker", "CriminalPokerState"]
