"""Criminal Poker 犯罪心理: suspects show and hide evidence; the sheriff (or a vote led by a
detective who may be the culprit) arrests one of them."""

from __future__ import annotations

import json
from typing import Any

from yamen.engine import Game
from yamen.errors import OptionsError
from yamen.games.criminal_poker import text
from yamen.games.criminal_poker.cards import (
    SPECIAL_ROLES,
    Catalog,
    default_catalog,
    parse_catalog,
)
from yamen.games.criminal_poker.rules import CriminalPokerState
from yamen.games.criminal_poker.setup import HAND, role_counts, suspect_count
from yamen.options import is_whole, require_bool, with_defaults

DEFAULTS: dict[str, Any] = {
    "mode": "sheriff",
    "players": None,  # by mode: sheriff 5 (1 + 4 suspects), detective 4
    "sheriff": None,  # the sheriff's seat; null: drawn from the seed
    "mastermind": False,
    "antisocial": False,
    "cards": None,  # null: Yamen's own list (cards.json); or a list of the same shape
}
PLAYERS = {"sheriff": range(4, 7), "detective": range(3, 6)}
DEFAULT_PLAYERS = {"sheriff": 5, "detective": 4}


class CriminalPoker(Game):
    name = "criminal_poker"
    title = "Criminal Poker 犯罪心理"

    @classmethod
    def normalize_options(cls, options: dict[str, Any] | None) -> dict[str, Any]:
        opts = with_defaults(options, DEFAULTS)
        mode = opts["mode"]
        if not isinstance(mode, str) or mode not in PLAYERS:
            raise OptionsError(f"mode must be 'sheriff' or 'detective', not {mode!r}")
        if opts["players"] is None:
            opts["players"] = DEFAULT_PLAYERS[mode]
        players = opts["players"]
        allowed = PLAYERS[mode]
        if not is_whole(players) or players not in allowed:
            raise OptionsError(
                f"{mode} mode is for {allowed[0]} to {allowed[-1]} players"
                + (" (the sheriff and 3 to 5 suspects)" if mode == "sheriff" else "")
            )
        sheriff = opts["sheriff"]
        if mode == "detective" and sheriff is not None:
            raise OptionsError("detective mode has no sheriff: leave the option sheriff null")
        if sheriff is not None and (not is_whole(sheriff) or not 0 <= sheriff < players):
            raise OptionsError(f"sheriff must be a seat from 0 to {players - 1}, or null")
        for role in SPECIAL_ROLES:
            require_bool(opts, role)
        _check_specials(opts)
        if opts["cards"] is not None:
            opts["cards"] = _plain(opts["cards"])
        _check_catalog(opts, catalog_of(opts))
        return opts

    @classmethod
    def new(cls, options: dict[str, Any], seed: int, deal: Any = None) -> CriminalPokerState:
        return CriminalPokerState(options, seed, catalog_of(options), deal)

    @classmethod
    def render_text(cls, view: dict[str, Any]) -> str:
        return text.render(view)


def catalog_of(options: dict[str, Any]) -> Catalog:
    cards = options["cards"]
    return default_catalog() if cards is None else parse_catalog(cards)


def _plain(value: Any) -> Any:
    """A room's card list as plain JSON (so records store exactly what was played)."""
    try:
        return json.loads(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError, RecursionError):  # not JSON, or nested beyond reading
        raise OptionsError(
            "cards: must be plain JSON data (objects, lists, strings, numbers)"
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
            + " (the detective and special roles should not outnumber the citizens)"
        )


def _check_catalog(opts: dict[str, Any], catalog: Catalog) -> None:
    """The card list must be able to set up this game: its identities and two evidence cards
    for each suspect."""
    for role, needed in role_counts(opts).items():
        if catalog.count(role) < needed:
            raise OptionsError(
                f"cards: these options need {needed} {role} identity card(s), "
                f"the list has {catalog.count(role)}"
            )
    suspects = suspect_count(opts)
    size = len(catalog.deck(suspects))
    if size < HAND * suspects:
        raise OptionsError(
            f"cards: a game of {suspects} suspects needs at least {HAND * suspects} evidence "
            f"cards to deal two each, this list gives {size}"
        )


__all__ = ["CriminalPoker", "CriminalPokerState"]
