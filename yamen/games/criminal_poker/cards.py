"""The cards as data: evidence and identities, read from ``cards.json`` or a room's own list.

The published card list is not available, so Yamen ships its own (RULINGS) and lets a room
replace it with the option ``cards``: an object of the same shape as ``cards.json``. Every
problem with such a list is an :class:`OptionsError` that says where it is.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, TypedDict

from yamen.errors import OptionsError
from yamen.options import is_whole, require_text

PHYSICAL, SELF_STATEMENT, WITNESS, WEAPON = "physical", "self-statement", "witness", "weapon"
EVIDENCE_TYPES = (PHYSICAL, SELF_STATEMENT, WITNESS, WEAPON)
SHERIFF, DETECTIVE, CITIZEN, MASTERMIND, ANTISOCIAL = (
    "sheriff",
    "detective",
    "citizen",
    "mastermind",
    "antisocial",
)
ROLES = (SHERIFF, DETECTIVE, CITIZEN, MASTERMIND, ANTISOCIAL)
SPECIAL_ROLES = (MASTERMIND, ANTISOCIAL)
SUSPECT_COUNTS = (3, 4, 5)
ID_PATTERN = re.compile(r"[A-Za-z][A-Za-z0-9_-]*\Z")  # one notation token, e.g. "P3", "weapon"
# A room's own list is stored and shown to everyone who looks at the room: every part is bounded.
MAX_CARDS = {"evidence": 100, "identities": 50}
MAX_ID = 32  # characters of a card's id
MAX_NAME = 80  # characters of a card's name in one language
MAX_LANGUAGES = 8  # names by language, per card
MAX_LANGUAGE = 16  # characters of a language's code ("en", "zh-Hant")
MAX_INNOCENCE = 100


class CardJson(TypedDict):
    """A card as views and lists write it: ``innocence`` is None for the murder weapon."""

    id: str
    type: str
    innocence: int | None
    name: dict[str, str]  # language -> name


@dataclass(frozen=True, slots=True)
class Card:
    """An evidence card. ``innocence`` is 0 for the murder weapon, which has none."""

    id: str
    kind: str
    innocence: int
    name: dict[str, str]

    def to_json(self) -> CardJson:
        innocence = None if self.kind == WEAPON else self.innocence
        return {"id": self.id, "type": self.kind, "innocence": innocence, "name": dict(self.name)}


@dataclass(frozen=True, slots=True)
class Identity:
    """An identity card: its role decides how its holder wins."""

    id: str
    role: str
    name: dict[str, str]


@dataclass(frozen=True)
class Catalog:
    """A whole card list: all evidence, all identities, and how many physical cards a game of
    3, 4 or 5 suspects uses."""

    evidence: tuple[Card, ...]
    identities: tuple[Identity, ...]
    physical_by_suspects: dict[int, int]

    def deck(self, suspects: int) -> tuple[Card, ...]:
        """The evidence of a game: the first N physical cards (N by the number of suspects),
        then every other card, in the list's order. A card's place here is its index."""
        physical = [c for c in self.evidence if c.kind == PHYSICAL]
        wanted = self.physical_by_suspects[suspects]
        return tuple(physical[:wanted]) + tuple(c for c in self.evidence if c.kind != PHYSICAL)

    def count(self, role: str) -> int:
        return sum(1 for i in self.identities if i.role == role)

    def role_names(self) -> dict[str, dict[str, str]]:
        """Each role's display name (from its first identity card)."""
        names: dict[str, dict[str, str]] = {}
        for identity in self.identities:
            names.setdefault(identity.role, dict(identity.name))
        return names


@cache
def default_catalog() -> Catalog:
    """Yamen's own card list, ``cards.json`` next to this module (read once)."""
    text = resources.files(__package__).joinpath("cards.json").read_text(encoding="utf-8")
    return parse_catalog(json.loads(text))


def parse_catalog(data: Any) -> Catalog:
    """Read a card list in the ``cards.json`` shape; raise :class:`OptionsError` saying what
    is wrong and where."""
    if not isinstance(data, dict):
        raise OptionsError(
            "cards: must be an object with evidence, identities and physical_by_suspects"
        )
    keys = {"evidence", "identities", "physical_by_suspects"}
    if set(data) != keys:
        missing, extra = sorted(keys - set(data)), sorted(set(data) - keys)
        raise OptionsError(f"cards: missing key(s) {missing}, unknown key(s) {extra}")
    evidence = _list(data, "evidence")
    identities = _list(data, "identities")
    cards = tuple(_card(i, entry) for i, entry in enumerate(evidence))
    people = tuple(_identity(i, entry) for i, entry in enumerate(identities))
    for where, items in (("evidence", cards), ("identities", people)):
        seen: set[str] = set()
        for item in items:
            if item.id.lower() in seen:
                raise OptionsError(f"cards: {where}: id {item.id!r} is used twice")
            seen.add(item.id.lower())
    if sum(1 for c in cards if c.kind == WEAPON) > 1:
        raise OptionsError("cards: evidence: at most one murder weapon")
    physical = sum(1 for c in cards if c.kind == PHYSICAL)
    by_suspects = _physical_by_suspects(data["physical_by_suspects"], physical)
    return Catalog(cards, people, by_suspects)


def _list(data: dict, key: str) -> list:
    value = data[key]
    if not isinstance(value, list) or not value or len(value) > MAX_CARDS[key]:
        raise OptionsError(f"cards: {key} must be a list of 1 to {MAX_CARDS[key]} cards")
    return value


def _fields(where: str, entry: Any, keys: set[str]) -> None:
    if not isinstance(entry, dict):
        raise OptionsError(f"cards: {where} must be an object")
    if set(entry) != keys:
        missing, extra = sorted(keys - set(entry)), sorted(set(entry) - keys)
        raise OptionsError(f"cards: {where}: missing key(s) {missing}, unknown key(s) {extra}")
    card_id = entry["id"]
    if not isinstance(card_id, str) or not ID_PATTERN.match(card_id) or len(card_id) > MAX_ID:
        raise OptionsError(
            f"cards: {where}: id must be one word of letters, digits, '-' or '_' starting "
            f"with a letter, at most {MAX_ID} characters, not {str(card_id)[:MAX_ID]!r}"
        )


def _name(where: str, name: Any) -> dict[str, str]:
    ok = (
        isinstance(name, dict)
        and isinstance(name.get("en"), str)
        and name["en"].strip()
        and all(isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in name.items())
    )
    if not ok or len(name) > MAX_LANGUAGES:
        raise OptionsError(
            f"cards: {where}: name must be an object of non-empty strings by language "
            f'(at most {MAX_LANGUAGES}), with at least "en" (e.g. {{"en": "Train ticket", '
            '"zh": "車票"})'
        )
    for language, text in name.items():
        require_text(language, f"cards: {where}: a language code", MAX_LANGUAGE)
        require_text(text, f"cards: {where}: name[{language!r}]", MAX_NAME)
    return dict(name)


def _card(index: int, entry: Any) -> Card:
    where = f"evidence[{index}]"
    _fields(where, entry, {"id", "type", "innocence", "name"})
    kind, innocence = entry["type"], entry["innocence"]
    if kind not in EVIDENCE_TYPES:
        raise OptionsError(f"cards: {where}: type must be one of {list(EVIDENCE_TYPES)}")
    if kind == WEAPON:
        if innocence is not None:
            raise OptionsError(f"cards: {where}: the murder weapon has innocence null")
        innocence = 0
    elif not is_whole(innocence) or not 0 <= innocence <= MAX_INNOCENCE:
        raise OptionsError(
            f"cards: {where}: innocence must be a whole number from 0 to {MAX_INNOCENCE}"
        )
    return Card(entry["id"], kind, innocence, _name(where, entry["name"]))


def _identity(index: int, entry: Any) -> Identity:
    where = f"identities[{index}]"
    _fields(where, entry, {"id", "role", "name"})
    if entry["role"] not in ROLES:
        raise OptionsError(f"cards: {where}: role must be one of {list(ROLES)}")
    return Identity(entry["id"], entry["role"], _name(where, entry["name"]))


def _physical_by_suspects(value: Any, physical: int) -> dict[int, int]:
    wanted = {str(n) for n in SUSPECT_COUNTS}
    if not isinstance(value, dict) or set(value) != wanted:
        raise OptionsError(
            'cards: physical_by_suspects must be an object with keys "3", "4" and "5" '
            "(the physical evidence used for that many suspects)"
        )
    counts = {}
    for key in sorted(value):
        count = value[key]
        if not is_whole(count) or not 0 <= count <= physical:
            raise OptionsError(
                f"cards: physical_by_suspects[{key!r}] must be a whole number from 0 to "
                f"{physical} (the physical evidence in the list)"
            )
        counts[int(key)] = count
    return counts
