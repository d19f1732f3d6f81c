"""The game protocol every front drives, the seeded RNG and the registry of games.

A game is a deterministic state machine: options + seed (or an explicit deal) + actions give the
state. ``get_game(name, options)`` reads the options once and answers what a front asks before
any deal (seats, size of the action space, the options declared); its ``new_state`` starts a
game. The server, bots, CLI, replays and RL environments only use the methods below, so a rule
lives in exactly one place.

States are mutable for speed (random self-play and search apply millions of actions); ``apply``
validates before it changes anything, so a refused action leaves the state exactly as it was,
and ``clone`` gives an independent copy where one is needed.
"""

from __future__ import annotations

import importlib
import json
import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, ClassVar, NamedTuple, Required, TypedDict

from yamen.errors import IllegalAction, NotationError, NotYourTurn, OptionsError, shown
from yamen.options import Option, Preset, read_options

Action = int
"""Actions are small integers: cheap to generate, hash and use as an RL action index. Each game
gives them a text notation through ``action_text`` and ``parse_action``."""


class Event(NamedTuple):
    """Something that happened. ``to`` lists the seats allowed to see it; ``None`` means all
    seats and spectators. Fronts must pass events through :func:`visible_to`."""

    kind: str
    data: dict
    to: tuple[int, ...] | None = None


DEAL_OVER = "deal over"
"""The event kind that ends one deal of a game played as several (a match of deals in one
game): a server may pause the table after it, until the players are ready for the next."""


def visible_to(events: list[Event], seat: int | None) -> list[Event]:
    """The events a seat (or a spectator, ``None``) may see."""
    return [e for e in events if e.to is None or (seat is not None and seat in e.to)]


def score_json(score: Fraction) -> int | str:
    """Exact scores for JSON: an int when whole, else the string ``"n/d"``."""
    return score.numerator if score.denominator == 1 else str(score)


@dataclass
class Result:
    """The outcome of a finished game.

    ``scores`` are each seat's exact totals; ``places`` every seat from first to last;
    ``winners`` the seats that won (by the game's own definition); ``details`` game-specific
    facts (roles, per-deal scores), all public once the game is over."""

    scores: tuple[Fraction, ...]
    places: tuple[int, ...]
    winners: tuple[int, ...]
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": [score_json(s) for s in self.scores],
            "places": list(self.places),
            "winners": list(self.winners),
            **self.details,
        }


class State(ABC):
    """One game in progress. Seats are numbered ``0 .. num_seats-1``.

    The protocol's bookkeeping lives here, once for every game: who is pending, the legal
    actions computed once per decision, and ``apply``, which validates before it lets the game
    act, so that a refused action changes nothing. A game supplies ``_legal_actions`` and
    ``_act`` (plus views, results and notation) and keeps ``_pending``, ``_legal_cache`` and
    ``_events`` up to date as it moves."""

    # The protocol's three fields are this class's own slots, so that it writes only fields it
    # declares; each game's state declares the rest in its own ``__slots__`` (and its
    # ``clone`` copies these three as well).
    __slots__ = ("_pending", "_legal_cache", "_events")
    # fields that only remember what reading the state computed (anything may fill them, so
    # they are no part of what the state is): a game adds its own
    MEMOS: ClassVar[tuple[str, ...]] = ("_legal_cache",)
    game: ClassVar[str]
    num_seats: int
    options: dict[str, Any]
    seed: int
    opening_events: list[Event]
    """What setting the game up produced (the deal): fronts send these before any action."""
    _pending: tuple[int, ...]
    _legal_cache: tuple[int, list[Action]] | None  # (seat, its legal actions) for this decision
    _events: list[Event]  # what the action being applied produced

    def pending(self) -> tuple[int, ...]:
        """The seats that owe a decision now; several during simultaneous choices, none when
        the game is over."""
        return self._pending

    @property
    def over(self) -> bool:
        return not self._pending

    def legal(self, seat: int) -> list[Action]:
        """That seat's legal actions now (empty when it owes no decision); a fresh list."""
        return self._legal_now(seat)[:] if seat in self._pending else []

    def apply(self, seat: int, action: Action) -> list[Event]:
        """Apply a legal action; raise :class:`IllegalAction` (state unchanged) otherwise."""
        if seat not in self._pending:
            raise NotYourTurn(f"seat {seat} has no decision to make now")
        cache = self._legal_cache  # inlined _legal_now: this runs once per decision
        legal = cache[1] if cache is not None and cache[0] == seat else self._legal_now(seat)
        if type(action) is not int or action not in legal:
            raise IllegalAction(self._refusal(seat, action))
        events: list[Event] = []
        self._events = events
        self._legal_cache = None
        self._act(seat, action)
        return events

    def talk(self, seat: int) -> bool:
        """Whether the decision ``seat`` owes closes a time the table talks in (Criminal
        Poker's questioning): a server then gives the people at the table time to talk before
        a bot or a timer makes it. Most decisions are not."""
        return False

    def running_scores(self) -> list[Fraction] | None:
        """Each seat's scores so far in a game played as several deals (the deals finished),
        for fronts that show match totals as they grow; None, the default, until the result."""
        return None

    def check_turn(self, seat: int) -> None:
        if seat not in self._pending:
            raise NotYourTurn(f"seat {seat} has no decision to make now")

    def check(self, seat: int, action: Action) -> None:
        """Raise what :meth:`apply` would raise for this action, changing nothing: for fronts
        that store an action before they apply it."""
        self.check_turn(seat)
        if type(action) is not int or action not in self._legal_now(seat):
            raise IllegalAction(self._refusal(seat, action))

    def apply_text(self, seat: int, text: str) -> list[Event]:
        """Read an action written in the game's notation and apply it, as one step: the way
        for a text that carries more than an action id can (a game that takes free text
        overrides this). Raises as :meth:`parse_action` and :meth:`apply` do, state unchanged."""
        self.check_turn(seat)  # before reading: a game may read text by the seat's hand
        return self.apply(seat, self.parse_action(seat, text))

    def check_text(self, seat: int, text: str) -> str:
        """Raise what :meth:`apply_text` would raise for this text, changing nothing; else the
        text as a record writes it (the game's own spelling), for fronts that store a text
        before they apply it. Overridden with :meth:`apply_text`."""
        self.check_turn(seat)
        action = self.parse_action(seat, text)
        self.check(seat, action)
        return self.action_text(action)

    def _legal_now(self, seat: int) -> list[Action]:
        cache = self._legal_cache
        if cache is not None and cache[0] == seat:
            return cache[1]
        actions = self._legal_actions(seat)
        self._legal_cache = (seat, actions)
        return actions

    def _emit(self, kind: str, to: tuple[int, ...] | None = None, **data: Any) -> None:
        self._events.append(Event(kind, data, to))

    def _refusal(self, seat: int, action: Any) -> str:
        """Why a pending seat may not take this action now, for the error message. Called
        only once an action is refused, so a game may spend time here to name the rule (the
        default says no more than that it is not legal)."""
        return f"{self._describe(action)} is not a legal action for you now"

    def _describe(self, action: Any) -> str:
        """An action for an error message: its notation when it has one."""
        try:
            return repr(self.action_text(action))
        except (NotationError, TypeError, ValueError, KeyError, IndexError):
            return f"action {action!r}"

    @abstractmethod
    def _legal_actions(self, seat: int) -> list[Action]:
        """The legal actions of a pending seat, computed afresh."""

    @abstractmethod
    def _act(self, seat: int, action: Action) -> None:
        """Carry out an action already known to be legal, emitting events."""

    @abstractmethod
    def view(self, seat: int | None = None) -> Mapping[str, Any]:
        """Exactly what that seat (``None``: a spectator) may see, as JSON-ready data: a dict,
        whose keys a game declares as a TypedDict (its view.py) for its bots and renderer."""

    @abstractmethod
    def result(self) -> Result | None:
        """The outcome once the game is over, else ``None``."""

    @abstractmethod
    def action_text(self, action: Action) -> str:
        """The action in the game's text notation (as written in records)."""

    @abstractmethod
    def parse_action(self, seat: int, text: str) -> Action:
        """Read an action written in the game's notation; raise :class:`NotationError`.
        Reading never changes the state (:meth:`apply_text` reads and applies)."""

    @abstractmethod
    def clone(self) -> State:
        """An independent copy (for search)."""


class Contest(NamedTuple):
    """Teams of seats and their ranks (0 best) in one contest of a finished game (ratings)."""

    teams: list[list[int]]
    ranks: list[int]


class Word(TypedDict, total=False):
    """A word of a game's catalog that tells a seat's part in a finished game (``Game.part``):
    its key under the game's name, the values its words take, how many times it came."""

    key: Required[str]
    params: dict[str, Any]
    times: int


class Game(ABC):
    """A game with its options read: a configured, immutable object that knows, without
    dealing, how many seats and how many distinct actions it has, and starts states.

    Each game subclasses this once and declares its type as data (as OpenSpiel's GameType):
    ``title``, the seat counts it takes over all options (``seats``), its options
    (``declaration``, see :mod:`yamen.options`) and named bundles of them (``presets``), and
    its bots by name (``bots``: name -> ``"module:Class"``, so that games never import the
    bots). An instance is made by
    :func:`get_game`: the options are checked once, there, and never change."""

    name: ClassVar[str]
    title: ClassVar[str]
    seats: ClassVar[range]
    declaration: ClassVar[tuple[Option, ...]]
    bots: ClassVar[dict[str, str]] = {}  # "random" serves every game besides these
    presets: ClassVar[tuple[Preset, ...]] = ()  # named bundles of options, the usual first
    # post-game analysis: a module's name (so that games never import it), in three parts a
    # server runs apart (yamen/server/analysis.py): decisions(record, seat) -> the seat's
    # (step, view, legal, played); value(view, legal, played, playouts, seed) -> one decision
    # valued from the view alone, pure (a worker process's task; seed: decision_seed(s, step)
    # for the analysis of seed s); assemble(record, seat, playouts, decisions, values) -> the
    # analysis. None: the game has none
    analyst: ClassVar[str | None] = None
    # the observation encoding for learners (yamen/rl, docs/rl.md): "module:Class", a class
    # built from the configured game (the module sits beside the rules and may import numpy,
    # which nothing imports until an RL environment or a learned bot asks; the loader:
    # yamen/bots/encoding.py); None: no RL environment yet
    encoder: ClassVar[str | None] = None
    # fast ways to play a state on to its end as one of the bots would in every seat, for
    # learners' rollouts (yamen/rl/improve.py): bot name -> "module:function", the function
    # taking a state (it may change it) and returning the game's final scores
    playouts: ClassVar[dict[str, str]] = {}
    # the same from a seat's view, over deals drawn to fit it (labels of what the seat can
    # know, yamen/rl/improve.py): bot name -> "module:function", the function taking (view,
    # actions, samples, rng) and returning the seat's final score after each action averaged
    # over that many drawn deals, or None where it draws none (the real deal is played then)
    sampled_playouts: ClassVar[dict[str, str]] = {}
    # a compiled fast path for the vector environment (yamen/rl/vector.py's Stepper):
    # "module:function" taking (game, num_envs, observations, to_act, forced) and returning
    # a stepper, or None where it is not built; None: the Python engine steps alone
    stepper: ClassVar[str | None] = None
    # what a view holds and what its "phase" may be, as data the conformance tests read
    # (tests/conformance.py): "module:TypedDict" for the views a state's ``view`` builds (its
    # view.py), "module:StrEnum" for its phases. None: undeclared, which those tests refuse
    view_type: ClassVar[str | None] = None
    phases: ClassVar[str | None] = None
    # the keys of its views that hold a log: lists that a step only extends, or starts again
    # with fewer items than before (a new deal). A live update sends them by their new items
    # (yamen/server/frames.py: tails); tests/server/test_frame_tails.py holds every game to it
    view_logs: ClassVar[tuple[str, ...]] = ()
    # the figures of a player's page that mean something in this game (GET /api/games):
    # "places" where a seat's place ranks it, "points" where its scores add up to something.
    # A game whose places only put the winners first and whose scores only repeat the win
    # declares neither: its own words (``part``) tell what became of a seat
    figures: ClassVar[tuple[str, ...]] = ("places", "points")

    __slots__ = ("_options", "num_actions", "num_seats")
    _options: dict[str, Any]
    num_seats: int
    num_actions: int
    """The size of the action space: every action id is below it (an RL mask's length)."""

    def __init__(self, options: dict[str, Any] | None = None, stored: bool = False):
        read = read_options(self.declaration, options, stored)
        self._configure(read, options or {})
        self._fix(_options=read)

    @abstractmethod
    def _configure(self, options: dict[str, Any], given: dict[str, Any]) -> None:
        """The game's own checks of options already read against the declaration (raise
        :class:`OptionsError`), filling in what depends on what was ``given``; then
        :meth:`_fix` ``num_seats``, ``num_actions`` and whatever else a state will need."""

    @abstractmethod
    def _new_state(self, options: dict[str, Any], seed: int, deal: Any) -> State:
        """A fresh state from these (checked) options, a seed and an explicit deal or None."""

    def _fix(self, **facts: Any) -> None:
        for name, value in facts.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a configured game does not change; get_game() makes another")

    def __reduce__(self) -> tuple[Any, ...]:  # (for a tournament's worker processes)
        return type(self), (self.options,)

    def __repr__(self) -> str:
        return f"get_game({self.name!r}, {self._options!r})"

    @property
    def options(self) -> dict[str, Any]:
        """The options, read and complete (defaults filled in): a fresh copy, as records and
        rooms store them."""
        return dict(self._options)

    def new_state(self, seed: int | None = None, deal: Any = None) -> State:
        """Start a game. Without a seed one is drawn, and kept in ``state.seed`` for the record;
        ``deal`` (the game's own shape, see docs/rules/) fixes the cards instead."""
        return self._new_state(self.options, new_seed() if seed is None else seed, deal)

    @classmethod
    def type_json(cls) -> dict[str, Any]:
        """The game's type as JSON, for a lobby: its title, seats, option declaration and
        presets."""
        return {
            "title": cls.title,
            "seats": {"min": cls.seats[0], "max": cls.seats[-1]},
            "declaration": [option.to_json() for option in cls.declaration],
            "presets": [preset.to_json() for preset in cls.presets],
        }

    @classmethod
    def engine(cls) -> str:
        """What runs the game here: ``python`` (its rules as written, the reference), or what
        a compiled core beside them adds where one was built (Baohuang's: its search
        playouts). Shown by ``yamen games GAME`` and ``GET /api/games``."""
        return "python"

    @classmethod
    def contests(cls, result: Mapping[str, Any]) -> list[Contest]:
        """What a finished game's result (as JSON) says about who beat whom, for ratings: one
        or more contests, each of teams (lists of seats) and their ranks (0 best, equal ranks
        tie). By default one contest: where some but not all seats won (a side), the winners'
        team against the rest's; else every seat alone, in the order of the places (equal
        scores tie). A game whose sides change within it (deal by deal) overrides this."""
        seats = len(result["places"])
        winners = set(result["winners"])
        if 0 < len(winners) < seats:
            losers = [s for s in range(seats) if s not in winners]
            return [Contest([sorted(winners), losers], [0, 1])]
        scores = [Fraction(str(s)) for s in result["scores"]]
        ranks, previous = [0] * seats, None
        for index, seat in enumerate(result["places"]):
            if scores[seat] != previous:
                rank, previous = index, scores[seat]
            ranks[seat] = rank
        return [Contest([[s] for s in range(seats)], ranks)]

    @classmethod
    def part(cls, result: Mapping[str, Any], seat: int) -> list[Word]:
        """A seat's part in a finished game (its result as JSON) in the game's own words, for
        player pages and a game's page: its role, what became of it. Each word names a key of
        the game's catalog (``<game>.<key>``, yamen/web/i18n/games/<game>.json) with the
        ``params`` the catalog's words take, and ``times`` where it came more than once (a
        role, deal by deal). None by default: the win and the place say it."""
        return []

    @classmethod
    def render_text(cls, view: Mapping[str, Any]) -> str:
        """A seat's view as plain text for a person at a terminal.

        Fronts know no game by name, so a game may override this with a readable table; the
        default is a compact dump of the view (one ``key: value`` line each), which shows
        everything the seat may see, if not prettily."""
        return "\n".join(f"{key}: {compact(value)}" for key, value in view.items())

    @classmethod
    def event_text(cls, event: Event, me: int | None, view: Mapping[str, Any]) -> str | None:
        """One event in words for the person at seat ``me`` (``None``: a spectator), whole:
        fronts never cut it. ``view`` is that person's view now, for the game's own names (a
        card list's). ``None``, the default, leaves the front its generic line."""
        return None


def compact(value: Any) -> str:
    """A JSON value on one line: a list of plain values as space-separated words, strings
    without quotes, anything else as JSON."""
    if isinstance(value, str):
        return value
    if isinstance(value, list) and not any(isinstance(v, list | dict) for v in value):
        return " ".join(compact(v) for v in value) or "-"
    return json.dumps(value, ensure_ascii=False)


# A new game is new files plus one line here: name -> "module:Game subclass". The order is the
# games' order wherever they are listed (the lobby, its leaderboards, `yamen games`).
REGISTRY: dict[str, str] = {
    "baohuang": "yamen.games.baohuang:Baohuang",
    "criminal_poker": "yamen.games.criminal_poker:CriminalPoker",
    "bao_qingtian": "yamen.games.bao_qingtian:BaoQingtian",
}


def game_names() -> list[str]:
    """The registered games, in the registry's order: every list of games keeps it."""
    return list(REGISTRY)


def game_type(name: str) -> type[Game]:
    """A registered game's class: its type as data (title, seats, declaration, bots), before
    any options are read."""
    try:
        module, attr = REGISTRY[name].split(":")
    except KeyError:
        known = ", ".join(game_names())
        raise OptionsError(f"unknown game {shown(name)}; known: {known}") from None
    return getattr(importlib.import_module(module), attr)


def get_game(name: str, options: dict[str, Any] | None = None, stored: bool = False) -> Game:
    """The game ``name`` configured by ``options`` (defaults where none are given); raise
    :class:`OptionsError` for an unknown game or bad options. ``stored``: the options of a
    game already played (a record): an option it lacks takes its legacy value (options.py)."""
    return game_type(name)(options, stored)


def new_seed() -> int:
    return secrets.randbits(63)


def make_rng(seed: int) -> random.Random:
    """All chance in a game comes from one generator made from its seed."""
    return random.Random(seed)


def new_game(
    name: str, options: dict[str, Any] | None = None, seed: int | None = None, deal: Any = None
) -> State:
    """Start a game: ``get_game(name, options).new_state(seed, deal)``."""
    return get_game(name, options).new_state(seed, deal)
