"""Baohuang 保皇: five players, four decks, a hidden royalist (or guard)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from yamen.cards import parse_cards
from yamen.engine import Contest, Event, Game, Word
from yamen.errors import NotationError, OptionsError
from yamen.games.baohuang import standing, text
from yamen.games.baohuang.house import EDITION, LEGACY_EDITION
from yamen.games.baohuang.kinds import KIND_TEXT, kind_of
from yamen.games.baohuang.rules import BaohuangState
from yamen.games.baohuang.sets import NUM_ACTIONS
from yamen.games.baohuang.variants import TITLES, VARIANTS, variant_for
from yamen.options import Option, Preset, refuse_where_not_applying

MAX_DEALS = 50  # a match is one game: a game of bots alone must end
# what runs where the core was built: rules and views in Python, the core for search playouts
# and the vector environment's deals (yamen/games/baohuang/batch.py)
ENGINE_WITH_CORE = "python, compiled core for search playouts and vector environments"
TARGET_DEAL_CAP = MAX_DEALS  # a match played to a target score still ends
MAX_TARGET = 10_000  # points; far beyond what fifty deals score
DECLARATION = (
    # live: see Option
    Option("variant", "choice", "shandong", "Rules", choices=VARIANTS.keys(), choice_labels=TITLES),
    Option("deals", "whole", 1, "Deals in the match", low=1, high=MAX_DEALS),
    Option(
        "target",
        "whole",
        None,
        "Play to this score (null: no target)",
        low=1,
        high=MAX_TARGET,
        nullable=True,
    ),
    Option("grabbing", "bool", True, "Grabbing (搶莊)", applies=("variant", "shandong")),
    # house rules before play (docs/rules/baohuang.md, "Options and presets")
    Option(
        "royalist_declares",
        "choice",
        "open",
        "The royalist may declare (明保), or stays hidden (暗保 only)",
        choices=("open", "hidden"),
        applies=("variant", "shandong"),
    ),
    Option("solo_declares", "bool", True, "A solo emperor may declare (明獨)"),
    Option("cede", "bool", True, "The marked joker's holder may pass it on (讓莊)"),
    Option(
        "guard_by_fourth",
        "bool",
        False,
        "The emperor calls a card; its 4th copy's holder is the guard",
        applies=("variant", "japanese"),
    ),
    Option("tribute", "bool", True, "Tribute (上納)", applies=("variant", "japanese")),
    # house rules during play, and the rules edition (house.py)
    Option("hard_pass", "bool", False, "Hard pass: who passed sits the trick out"),
    Option("lowest_held", "bool", False, "The lowest rank is held to the end (憋六/憋三)"),
    Option(  # the first reading of 憋六/憋三 (issue 16), kept for the games recorded with it
        "lowest_last",
        "bool",
        False,
        "Going out on the lowest rank ranks last (kept for games recorded with it)",
        shown=False,
    ),
    Option(
        "edition",
        "whole",
        EDITION,
        "Rules edition (set by Yamen; a record keeps its own)",
        low=LEGACY_EDITION,
        high=EDITION,
        legacy=LEGACY_EDITION,
        shown=False,
    ),
)
# asked of rules without them: said, not ignored (grabbing is not: records of japanese games
# may carry grabbing: false)
REFUSED_WHERE_NOT_APPLYING = ("tribute", "royalist_declares", "guard_by_fourth")
PRESETS = (  # the rules tables play by, as named bundles of options (docs/rules/baohuang.md)
    Preset("shandong_text", "Shandong text", {"variant": "shandong"}),
    Preset("standard_168", "168 standard", {"variant": "japanese"}),
    Preset(
        "bie_liu_168", "168 cards, sixes last (憋六)", {"variant": "japanese", "lowest_held": True}
    ),
    Preset(
        "bie_san_216", "216 cards, threes last (憋三)", {"variant": "shandong", "lowest_held": True}
    ),
    Preset(
        "hidden_royalist",
        "216 cards, hidden royalist only (暗保)",
        {"variant": "shandong", "royalist_declares": "hidden"},
    ),
)


class Baohuang(Game):
    name = "baohuang"
    title = "Baohuang 保皇"
    seats = range(5, 6)
    declaration = DECLARATION
    presets = PRESETS
    bots = {
        "rules": "yamen.bots.baohuang.rules:BaohuangRulesBot",
        "search": "yamen.bots.baohuang.search:BaohuangSearchBot",
        # Deep Monte-Carlo (yamen train), with the checkpoints shipped beside the other bots
        "learned": "yamen.bots.learned:LearnedBot:package=yamen.bots.baohuang",
    }
    analyst = "yamen.bots.baohuang.analysis"
    encoder = "yamen.games.baohuang.encoding:BaohuangEncoder"
    playouts = {"rules": "yamen.bots.baohuang.playout:rules_scores"}
    sampled_playouts = {"rules": "yamen.bots.baohuang.determinize:sampled_scores"}
    stepper = "yamen.games.baohuang.batch:stepper"
    view_type = "yamen.games.baohuang.view:BaohuangView"
    phases = "yamen.games.baohuang.phases:Phase"
    view_logs = ("played", "history")  # the sets played this deal; the deals finished
    __slots__ = ()

    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        refuse_where_not_applying(DECLARATION, given, options, REFUSED_WHERE_NOT_APPLYING)
        if options["lowest_held"] and options["lowest_last"]:
            message = (
                "lowest_held and lowest_last are two readings of 憋六/憋三: choose one "
                "(lowest_held, the lowest rank held to the end)"
            )
            raise OptionsError(message, "lowest_both")
        if options["target"] is not None and "deals" not in given:
            options["deals"] = TARGET_DEAL_CAP
        self._fix(num_seats=5, num_actions=NUM_ACTIONS)

    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> BaohuangState:
        kinds = None if deal is None else parse_deal(deal, options)
        return BaohuangState(options, seed, kinds)

    @classmethod
    def engine(cls) -> str:
        from yamen.games.baohuang.core import CORE  # imports the rules: read on demand

        return "python" if CORE is None else ENGINE_WITH_CORE

    @classmethod
    def contests(cls, result: Mapping[str, Any]) -> list[Contest]:
        """Ratings: each deal is a contest of the emperor's side (with the guard or royalist;
        alone when solo) against the rebels, won by the side the emperor's score says."""
        found = []
        for deal in result.get("deals", []):
            emperor, partner = deal["emperor"], deal["partner"]
            side = sorted({emperor} if partner is None else {emperor, partner})
            rebels = [s for s in range(len(deal["places"])) if s not in side]
            score = Fraction(str(deal["scores"][emperor]))
            ranks = [0, 0] if score == 0 else [0, 1] if score > 0 else [1, 0]
            found.append(Contest([side, rebels], ranks))
        return found or super().contests(result)

    @classmethod
    def part(cls, result: Mapping[str, Any], seat: int) -> list[Word]:
        return standing.part(result, seat)

    @classmethod
    def render_text(cls, view: Mapping[str, Any]) -> str:
        return text.render(view)

    @classmethod
    def event_text(cls, event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
        return text.event_text(event, me, view)


def parse_deal(deal: Any, options: dict[str, Any]) -> list[list[int]]:
    """An explicit first deal: five hands in card notation that together are exactly the deck
    (of the variant with its house rules: guard_by_fourth marks no small joker)."""
    if not isinstance(deal, list) or len(deal) != 5:
        raise OptionsError("an explicit deal is a list of five hands")
    hands = []
    for seat, hand in enumerate(deal):
        if isinstance(hand, list) and all(isinstance(card, str) for card in hand):
            hand = " ".join(hand)
        if not isinstance(hand, str):
            raise OptionsError(f"explicit deal: hand {seat} must be a string of cards")
        try:
            hands.append([kind_of(card) for card in parse_cards(hand)])
        except NotationError as exc:
            raise OptionsError(f"explicit deal, hand {seat}: {exc}") from None
    given = Counter(k for hand in hands for k in hand)
    wanted = Counter(variant_for(options).deck())
    if given != wanted:
        missing = [KIND_TEXT[k] for k in sorted((wanted - given).elements())]
        extra = [KIND_TEXT[k] for k in sorted((given - wanted).elements())]
        raise OptionsError(
            f"explicit deal is not exactly the deck: missing {missing[:8]}, extra {extra[:8]}"
        )
    return hands
