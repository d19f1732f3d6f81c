"""The leak audit's checker: every frame each seat and spectator received, and every lobby
answer given during a game, held to what that receiver may know.

What a receiver may know is rebuilt here from the game's record and each game's rules of
visibility as docs/rules/ state them, written down in ``RULES`` below, not taken from the
engine's ``visible_to`` or from what the server sent:

- **Hidden data, searched for everywhere.** At every step of the record: each seat's hand
  (its cards in the game's notation; Criminal Poker's face-down evidence, whose card ids are
  unique), the Criminal Poker deck (until the investigator looks), roles not yet public, and
  the seed, which reveals everything. Every field of every frame (welcome, state, update,
  room, ack, chat, error) and every lobby answer is walked, keys and values: a list holding
  another seat's hand, a card id the receiver may not see, a seat paired with its hidden role
  (``{"3": "rebel"}``, ``{"seat": 3, "role": "rebel"}``), or the seed, anywhere, is a
  finding. A role name alone is no finding: the names are public (the roles in play).
- **What may differ between receivers.** Per game, the event kinds only their seat sees and the
  view keys only a seat has. A seat's table may differ from the spectator's at the same step
  only in those keys; the events a receiver gets are exactly the action's public events plus
  its own private ones (the engine's events are checked against the same rules: a private kind
  goes to one seat, a public kind to all).
- **Shape.** Every frame and lobby answer has exactly the fields yamen/server/protocol.py
  documents: a field no one documented is a finding, whatever it holds.
- **The engine's own view**, legal actions and pending seats at each step must match too.

``audit`` returns findings; a sound server gives none, and each planted leak of
tests/server/test_audit.py must give some.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from pydantic import BaseModel

from yamen.engine import Event
from yamen.games.bao_qingtian.cards import hand_codes
from yamen.games.baohuang.kinds import hand_cards
from yamen.records import Record
from yamen.server import protocol


class Finding(NamedTuple):
    check: str  # seed, hand, card, role, shape, events, differs, view, own
    where: str  # receiver, frame index and type, path
    detail: str

    def __str__(self) -> str:
        return f"[{self.check}] {self.where}: {self.detail}"


# ----- each game's visibility, from docs/rules/ ------------------------------------------


def _cp_hands(state: Any) -> list[list[str]]:
    return [[state.deck[c].id for c in hidden] for hidden in state.hidden]


def _cp_hidden_ids(state: Any, receiver: int | None) -> set[str]:
    """Face-down evidence of the other seats, and the deck unless the receiver is the
    investigator after its look."""
    ids = {state.deck[c].id for s, h in enumerate(state.hidden) if s != receiver for c in h}
    if not (receiver == state.investigator and state.looked):
        ids |= {state.deck[c].id for c in state.pile}
    return ids


def _cp_roles(state: Any) -> dict[int, str]:
    """Every identity but the investigator's is known only to its holder until the end."""
    return {s: r for s, r in enumerate(state.roles) if s != state.investigator}


def _bh_roles(state: Any) -> dict[int, str]:
    """Once the emperor is known each seat knows its own side; a side is public only once
    revealed (the emperor at once; the partner by declaring or by the marked card; a rebel
    by its answer)."""
    if state.emperor is None:
        return {}
    roles = {seat: state.own_role(seat) for seat in range(state.num_seats)}
    return {s: r for s, r in roles.items() if s not in state.public_roles}


@dataclass(frozen=True)
class Rules:
    """What one game hides, and from whom."""

    private_events: frozenset[str]  # event kinds only the seat they name may see
    seat_keys: frozenset[str]  # view keys only a seat has (its own hand, role, legal...)
    hand_key: str  # the view key of a seat's own hidden cards
    hands: Callable[[Any], list[list[str]]]  # every seat's hidden cards, in notation
    min_hand: int  # shorter lists are too common to mean a hand (a played pair, say)
    hidden_ids: Callable[[Any, int | None], set[str]] | None = None  # unique card ids hidden
    catalogs: tuple[tuple, ...] = ()  # paths of lists of every card of the game
    roles: Callable[[Any], dict[int, str]] | None = None  # roles not yet public, by seat


RULES: dict[str, Rules] = {
    # Hidden: other hands, tribute cards of other seats, roles not yet public, sealed answers.
    "baohuang": Rules(
        private_events=frozenset({"hand", "tribute"}),
        seat_keys=frozenset({"hand", "role", "tribute", "legal"}),
        hand_key="hand",
        hands=lambda s: [hand_cards(h) for h in s.hands],
        min_hand=5,
        roles=_bh_roles,
    ),
    # Hidden until the end: face-down evidence, identities but the investigator's, the deck
    # (the investigator sees it after its look), sealed answers of an open window.
    "criminal_poker": Rules(
        private_events=frozenset({"identity", "evidence", "drew", "deck"}),
        seat_keys=frozenset({"identity", "hidden", "answer", "deck", "legal"}),
        hand_key="hidden",
        hands=_cp_hands,
        min_hand=2,
        hidden_ids=_cp_hidden_ids,
        roles=_cp_roles,
        # every card of the game, by id, in the view and in the setup event: public
        catalogs=(("view", "cards"), ("events", "*", "data", "deck")),
    ),
    # Hidden: other hands, other seats' discards and draws (only that they took a turn).
    "bao_qingtian": Rules(
        private_events=frozenset({"hand", "turn cards"}),
        seat_keys=frozenset({"hand", "my_turns", "legal"}),
        hand_key="hand",
        hands=lambda s: [hand_codes(h) for h in s.hands],
        min_hand=3,
    ),
}


# ----- the truth, step by step ------------------------------------------------------------


@dataclass
class Step:
    events: list[Event]
    hands: list[list[str]]
    hidden_ids: dict[int | None, set[str]]
    views: dict[int | None, dict[str, Any]]
    legal: dict[int, list[int]]
    pending: list[int]
    roles: dict[int, str]
    by_cards: dict[tuple, list[int]] = field(default_factory=dict)  # sorted hand -> seats

    def __post_init__(self) -> None:
        for seat, hand in enumerate(self.hands):
            self.by_cards.setdefault(tuple(sorted(hand)), []).append(seat)


def plain(data: Any) -> Any:
    return json.loads(json.dumps(data))


def truth(record: Record) -> list[Step]:
    """For every action count k: the events of action k (the deal's for 0) and what is hidden."""
    state = record.start()
    rules = RULES[record.game]
    audiences = [None, *range(state.num_seats)]

    def step(events: list[Event]) -> Step:
        ids = {r: rules.hidden_ids(state, r) if rules.hidden_ids else set() for r in audiences}
        return Step(
            events=list(events),
            hands=rules.hands(state),
            hidden_ids=ids,
            views={r: plain(state.view(r)) for r in audiences},
            legal={s: state.legal(s) for s in range(state.num_seats)},
            pending=list(state.pending()),
            roles=rules.roles(state) if rules.roles else {},
        )

    steps = [step(state.opening_events)]
    for seat, text in record.actions:
        steps.append(step(state.apply_text(seat, text)))
    return steps


# ----- walking every field ----------------------------------------------------------------


def walk(value: Any, path: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """Every node of a JSON value with its path; dict keys are nodes too."""
    stack = [(path, value)]
    while stack:
        path, value = stack.pop()
        yield path, value
        if type(value) is dict:
            for key, item in value.items():
                stack.append(((*path, f"<key {key}>"), key))
                stack.append(((*path, key), item))
        elif type(value) is list:
            stack.extend(((*path, i), item) for i, item in enumerate(value))


def _is_catalog(path: tuple, rules: Rules) -> bool:
    """Inside a list of every card of the game (public: it says what, not where). A catalog
    is a run of keys somewhere in the path; ``*`` stands for any list index."""
    for pattern in rules.catalogs:
        n = len(pattern)
        for i in range(len(path) - n + 1):
            if all(
                p == x or (p == "*" and isinstance(x, int))
                for p, x in zip(pattern, path[i : i + n], strict=True)
            ):
                return True
    return False


def _at(where: str, path: tuple) -> str:
    return f"{where} {'.'.join(map(str, path))}"


def hidden_in(
    value: Any,
    receiver: int | None,
    steps: list[Step],
    record: Record,
    ks: list[int],
    where: str,
) -> list[Finding]:
    """The seed anywhere; at the steps ``ks`` (none once the game is over: its result is
    public), another seat's hand as a list, or a card id the receiver may not see."""
    rules = RULES[record.game]
    seed = record.seed
    findings = []
    over = len(record.actions) if record.result is not None else None
    live = [k for k in ks if 0 <= k < len(steps) and k != over]
    shown = str(seed)
    for path, node in walk(value):
        kind = type(node)
        if (kind is int and node == seed) or (kind is str and shown in node):
            findings.append(Finding("seed", _at(where, path), "the game's seed"))
        if kind is dict:
            for k in live:
                for seat, role in steps[k].roles.items():
                    said = node.get(str(seat)) == role or (
                        node.get("seat") == seat and role in node.values()
                    )
                    if seat != receiver and said:
                        findings.append(
                            Finding("role", _at(where, path), f"seat {seat} is {role} at {k}")
                        )
            continue
        if kind is not list and kind is not str:
            continue
        for k in live:
            step = steps[k]
            if (
                isinstance(node, list)
                and len(node) >= rules.min_hand
                and all(isinstance(x, str) for x in node)
            ):
                holders = step.by_cards.get(tuple(sorted(node)), [])
                if receiver not in holders:  # the same cards as its own hand tell it nothing
                    for s in holders:
                        findings.append(
                            Finding("hand", _at(where, path), f"seat {s}'s hand at {k}")
                        )
            if isinstance(node, str) and step.hidden_ids[receiver] and not _is_catalog(path, rules):
                leaked = set(node.split()) & step.hidden_ids[receiver]
                if leaked:
                    findings.append(Finding("card", _at(where, path), f"hidden {sorted(leaked)}"))
    return findings


# ----- shapes: exactly the documented fields ------------------------------------------------


FRAMES: dict[str, type[BaseModel]] = {
    "welcome": protocol.Welcome,
    "state": protocol.StateFrame,
    "update": protocol.Update,
    "history": protocol.HistoryPage,
    "room": protocol.RoomFrame,
    "presence": protocol.Presence,
    "ack": protocol.Ack,
    "chat": protocol.ChatFrame,
    "invites": protocol.InvitesFrame,  # new invites wait for this player: nothing else in it
    "error": protocol.Error,
}
CHAT_LINE = {"name", "seat", "text", "at"}  # a state frame's recent chat
EVENT = {"kind", "data"}
STAND_IN = {"seat", "why"}
ENTRY = {"seq", "events", "stand_in"}  # a step of a receiver's log (a state frame's, a page's)


def fields(model: type[BaseModel]) -> set[str]:
    return set(model.model_fields)


def optional(model: type[BaseModel]) -> set[str]:
    """Documented fields a frame may leave out (an error's ``retry_after``)."""
    return {name for name, f in model.model_fields.items() if not f.is_required()}


def _exact(
    got: Any, wanted: set[str], where: str, may_lack: set[str] = frozenset()
) -> list[Finding]:
    if not isinstance(got, dict):
        return [Finding("shape", where, f"not an object: {type(got).__name__}")]
    extra, missing = set(got) - wanted, wanted - may_lack - set(got)
    if extra or missing:
        return [Finding("shape", where, f"undocumented {sorted(extra)}, missing {sorted(missing)}")]
    return []


def room_shape(
    room: Any,
    where: str,
    extra: set[str] = frozenset(),
    model: type[BaseModel] = protocol.RoomInfo,  # RoomSummary: the public list's
) -> list[Finding]:
    found = _exact(room, fields(model) | extra, where)
    if not found:
        for i, seat in enumerate(room["seats"]):
            found += _exact(seat, fields(protocol.SeatInfo), f"{where}.seats.{i}")
    return found


def frame_shape(frame: Any, where: str) -> list[Finding]:
    kind = frame.get("type") if isinstance(frame, dict) else None
    if kind not in FRAMES:
        return [Finding("shape", where, f"unknown frame type {kind!r}")]
    found = _exact(frame, fields(FRAMES[kind]), where, optional(FRAMES[kind]))
    if found:
        return found
    try:
        protocol.server_message.validate_python(frame)
    except ValueError as exc:
        found.append(Finding("shape", where, f"not the documented schema: {exc}"))
    if "room" in frame:
        found += room_shape(frame["room"], f"{where} room")
    if frame.get("stand_in") is not None:
        found += _exact(frame["stand_in"], STAND_IN, f"{where} stand_in")
    if frame.get("table") is not None:
        found += _exact(frame["table"], fields(protocol.SeatTable), f"{where} table")
        found += _entries_shape(frame["table"].get("history"), f"{where} history")
    if kind == "history":
        found += _entries_shape(frame.get("entries"), f"{where} entries")
    for i, line in enumerate(frame.get("chat") or []):
        found += _exact(line, CHAT_LINE, f"{where} chat.{i}")
    for i, event in enumerate(frame.get("events") or []):
        found += _exact(event, EVENT, f"{where} events.{i}")
    return found


def _entries_shape(entries: Any, where: str) -> list[Finding]:
    found = []
    for i, entry in enumerate(entries or []):
        found += _exact(entry, ENTRY, f"{where}.{i}")
        for j, event in enumerate(entry.get("events") or [] if isinstance(entry, dict) else []):
            found += _exact(event, EVENT, f"{where}.{i}.events.{j}")
        if isinstance(entry, dict) and entry.get("stand_in") is not None:
            found += _exact(entry["stand_in"], STAND_IN, f"{where}.{i}.stand_in")
    return found


# ----- the audit ----------------------------------------------------------------------------


@dataclass
class Answer:
    """One lobby answer: who asked (a seat, or None for anyone else), at which step (the
    spectator's seq when it was asked), and what came back."""

    who: int | None
    label: str
    step: int | None
    status: int
    body: Any
    extra: set[str] = field(default_factory=set)  # documented extras: the host's invite


def expected_events(events: list[Event], receiver: int | None, rules: Rules) -> list[dict]:
    """The rules' filter, not the engine's: private kinds to their seat, the rest to all."""
    return plain(
        [
            {"kind": e.kind, "data": e.data}
            for e in events
            if e.kind not in rules.private_events
            or (receiver is not None and receiver in (e.to or ()))
        ]
    )


def engine_events(steps: list[Step], rules: Rules) -> list[Finding]:
    """The engine addresses each event as the rules say: a private kind to one seat."""
    found = []
    for k, step in enumerate(steps):
        for e in step.events:
            private = e.kind in rules.private_events
            if private and (e.to is None or len(e.to) != 1):
                found.append(Finding("events", f"engine step {k}", f"{e.kind!r} to {e.to}"))
            if not private and e.to is not None:
                found.append(Finding("events", f"engine step {k}", f"{e.kind!r} is private"))
    return found


def audit(
    record: Record,
    received: list[tuple[int | None, list[dict[str, Any]]]],
    answers: list[Answer] = (),
) -> list[Finding]:
    """Everything wrong with what each receiver (seat or None: a spectator) was sent."""
    rules = RULES[record.game]
    steps = truth(record)
    found = engine_events(steps, rules)
    # (step, break) -> the spectator's table then: between two deals a step has two tables
    spectator_tables: dict[tuple[int, str], dict] = {}
    for receiver, frames in received:
        if receiver is None:
            for frame in frames:
                if frame.get("table") is not None:
                    table = frame["table"]
                    spectator_tables.setdefault(_moment(table), table)
    for receiver, frames in received:
        who = "spectator" if receiver is None else f"seat {receiver}"
        at = None
        updated: set[int] = set()  # the steps whose update this receiver got
        last_state: dict | None = None  # its last state frame's table, and the pages after it
        paged: list[dict] = []
        for i, frame in enumerate(frames):
            where = f"{who} frame {i} ({frame.get('type')})"
            found += frame_shape(frame, where)
            table = frame.get("table") if isinstance(frame, dict) else None
            if isinstance(frame, dict) and frame.get("type") == "history":
                # a page of its log: each entry as its update carried it, none past its table
                entries = frame.get("entries") or []
                found += _entries(entries, receiver, steps, record, rules, at or 0, where)
                paged += entries
                found += hidden_in(frame, receiver, steps, record, [at or 0], where)
                continue
            if frame.get("type") == "state" and isinstance(table, dict):
                last_state, paged = table, []
            if isinstance(table, dict) and isinstance(table.get("seq"), int):
                at = table["seq"]
                repeat = frame.get("type") == "update" and at in updated
                found += _table(
                    table, frame, receiver, steps, rules, spectator_tables, where, repeat
                )
                if frame.get("type") == "update":
                    updated.add(at)
                found += _history(table, receiver, steps, record, rules, where)
                ks = [at]
            else:
                ks = [] if at is None else [at, at + 1]  # the server may have moved on
            found += hidden_in(frame, receiver, steps, record, ks, where)
        if paged and last_state is not None:  # paged back from its last state frame: whole
            have = {e.get("seq") for e in [*paged, *(last_state.get("history") or [])]}
            k = last_state["seq"]
            told = [j for j in range(k + 1) if expected_events(steps[j].events, receiver, rules)]
            missing = sorted(set(told) - have)
            if missing:
                found.append(Finding("events", f"{who} pages", f"steps {missing[:5]} are missing"))
    for answer in answers:
        where = f"lobby {answer.label} (asked by {answer.who}) [{answer.status}]"
        if answer.status < 400 and isinstance(answer.body, list):  # the public list
            for i, room in enumerate(answer.body):
                found += room_shape(room, f"{where} {i}", answer.extra, protocol.RoomSummary)
        elif answer.status < 400:
            found += room_shape(answer.body, where, answer.extra)
        ks = [] if answer.step is None else list(range(answer.step, answer.step + 4))
        found += hidden_in(answer.body, answer.who, steps, record, ks, where)
    return found


def _table(
    table: dict,
    frame: dict,
    receiver: int | None,
    steps: list[Step],
    rules: Rules,
    spectator_tables: dict[tuple[int, str], dict],
    where: str,
    repeat: bool = False,
) -> list[Finding]:
    """``repeat``: an update for a step the receiver had its update of (the table changed
    between two deals: who is ready, the break over): it carries no events."""
    k = table["seq"]
    if not 0 <= k < len(steps):
        return [Finding("view", where, f"seq {k} is no step of the game")]
    step, found = steps[k], []
    view = table.get("view")
    asked = table.get("pause") is None  # between two deals nobody is asked anything
    wanted = step.views[receiver]
    if not asked and "legal" in wanted:
        wanted = {**wanted, "legal": []}
    if view != wanted:
        found.append(Finding("view", where, f"not the engine's view at step {k}"))
    legal = step.legal.get(receiver, []) if receiver is not None and asked else []
    if table.get("legal") != legal:
        found.append(Finding("view", where, f"legal {table.get('legal')} is not {legal}"))
    if table.get("pending") != (step.pending if asked else []):
        found.append(Finding("view", where, "pending"))
    if frame["type"] == "update":
        wanted = [] if repeat else expected_events(step.events, receiver, rules)
        if frame.get("events") != wanted:
            found.append(Finding("events", where, f"not the events its receiver may see at {k}"))
    if not isinstance(view, dict):
        return found
    # Only a seat's own keys differ from the spectator's table at the same step.
    spectator = spectator_tables.get(_moment(table))
    if receiver is None:
        shown = sorted(rules.seat_keys & set(view))
        if shown:
            found.append(Finding("differs", where, f"the spectator got seat keys {shown}"))
    elif spectator is None:
        found.append(Finding("differs", where, f"the spectator got no table at step {k}"))
    else:
        # (its log: checked by _history; which of its view's lists came by their tails,
        # ``appended``, follows its own view, which is checked whole, as the client joined it)
        own = ("view", "legal", "history", "history_before", "appended")
        mine = {key: v for key, v in table.items() if key not in own}
        theirs = {key: v for key, v in spectator.items() if key not in own}
        if mine != theirs:
            found.append(Finding("differs", where, "table fields differ from the spectator's"))
        public = {key: v for key, v in view.items() if key not in rules.seat_keys | {"seat"}}
        seen = spectator.get("view") or {}
        theirs = {key: v for key, v in seen.items() if key != "seat"}
        if public != theirs:
            keys = sorted(
                key for key in set(public) | set(theirs) if public.get(key) != theirs.get(key)
            )
            found.append(Finding("differs", where, f"view differs from the spectator's in {keys}"))
        own = view.get(rules.hand_key)
        if own is not None and Counter(own) != Counter(step.hands[receiver]):
            found.append(Finding("own", where, f"its {rules.hand_key} is not its hand at {k}"))
    return found


def _moment(table: dict) -> tuple[int, str]:
    """A table's step and break (who is ready), as the spectator's tables are looked up."""
    return table.get("seq"), json.dumps(table.get("pause"))


def _history(
    table: dict,
    receiver: int | None,
    steps: list[Step],
    record: Record,
    rules: Rules,
    where: str,
) -> list[Finding]:
    """A state frame's history (its receiver's latest entries): each step's events as the
    receiver's update carried them (the rules' filter), every step from its cursor (from the
    deal without one) up to the table's that showed it something, the cursor its first step,
    and nothing hidden at the step an entry tells of (another seat's hand then, say)."""
    history = table.get("history")
    if history is None:
        return []
    k = table["seq"]
    found = _entries(history, receiver, steps, record, rules, k, f"{where} history")
    # its latest entries: every step from its cursor on (from the deal without one)
    start = table.get("history_before") or 0
    seqs = {e.get("seq") for e in history if isinstance(e, dict)}
    told = [j for j in range(start, k + 1) if expected_events(steps[j].events, receiver, rules)]
    missing = sorted(set(told) - seqs)
    if missing:
        found.append(Finding("events", f"{where} history", f"steps {missing[:5]} are missing"))
    if history and table.get("history_before") not in (None, history[0].get("seq")):
        found.append(Finding("events", f"{where} history", "the cursor is not its first step"))
    return found


def _entries(
    entries: list[Any],
    receiver: int | None,
    steps: list[Step],
    record: Record,
    rules: Rules,
    k: int,
    where: str,
) -> list[Finding]:
    """Log entries (a state frame's, a page's): steps up to ``k`` in order, each with the
    events its update carried (the rules' filter), and nothing hidden at its step."""
    found, seqs = [], []
    for i, entry in enumerate(entries):
        at = f"{where}.{i}"
        seq = entry.get("seq") if isinstance(entry, dict) else None
        if not isinstance(seq, int) or not 0 <= seq <= k or (seqs and seq <= seqs[-1]):
            found.append(Finding("events", at, f"seq {seq!r} is no step up to {k} in order"))
            continue
        seqs.append(seq)
        if entry.get("events") != expected_events(steps[seq].events, receiver, rules):
            found.append(Finding("events", at, f"not the events its receiver may see at {seq}"))
        found += hidden_in(entry, receiver, steps, record, [seq], at)
    return found
