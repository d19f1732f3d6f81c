"""Display names: a name shows at least one visible character, and nothing in it can reorder
the text around it (bidi overrides), so no name looks empty or poses as another."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yamen.server.identity import NAME_LIMIT, clean_name, same_secret

# Characters that draw nothing, chosen by hand (not by the code under test): spaces, zero-width
# and format characters, variation selectors, combining marks, and blank letters.
INVISIBLE = [
    " ", "\t", "\u00a0", "\u2003", "\u3000",  # spaces
    "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u180e", "\u00ad",  # zero-width, format
    "\ufe0f", "\ufe00", "\U000e0100", "\u034f", "\u0301", "\u20dd",  # selectors and marks
    "\u3164", "\uffa0", "\u115f", "\u1160", "\u2800", "\U0001d159",  # blank letters
]  # fmt: skip
BIDI = [chr(c) for c in [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]]
SEEN = st.characters(whitelist_categories=["Lu", "Ll", "Lo", "Nd", "Po", "Sm", "So"]).filter(
    lambda ch: ch not in INVISIBLE
)


def refused(name: str) -> bool:
    try:
        clean_name(name)
    except ValueError:
        return True
    return False


@given(st.lists(st.sampled_from(INVISIBLE), max_size=30))
def test_names_of_invisible_characters_are_refused(chars):
    assert refused("".join(chars))


@given(st.text(max_size=15), st.sampled_from(BIDI), st.text(max_size=15))
def test_bidi_overrides_are_refused(before, bidi, after):
    assert refused(before + bidi + after)


@given(
    st.lists(st.sampled_from(INVISIBLE), max_size=5),
    SEEN,
    st.lists(st.one_of(SEEN, st.sampled_from(INVISIBLE)), max_size=20),
)
def test_a_name_with_a_visible_character_is_kept(before, seen, after):
    name = "".join([*before, seen, *after])
    if any(not ch.isprintable() and not ch.isspace() for ch in name):
        assert refused(name)  # format characters are refused wherever they are
        return
    cleaned = clean_name(name) if len(" ".join(name.split())) <= NAME_LIMIT else None
    if cleaned is not None:
        assert seen in cleaned
        assert clean_name(cleaned) == cleaned  # cleaning twice changes nothing


@given(st.text(max_size=60))
def test_every_accepted_name_shows_something(name):
    if refused(name):
        return
    cleaned = clean_name(name)
    assert 0 < len(cleaned) <= NAME_LIMIT
    shown = [
        ch
        for ch in cleaned
        if unicodedata.category(ch)[0] not in "ZC"
        and unicodedata.category(ch) not in ("Mn", "Me")
        and ch not in INVISIBLE
    ]
    assert shown


@pytest.mark.parametrize("name", ["Ann", "李白", "Zoë", "O'Neil 2", "😀"])
def test_ordinary_names_are_accepted(name):
    assert clean_name(name) == name


@pytest.mark.parametrize("invite", ["é", "招待", "abc\u0000", "", "x" * 64])
def test_any_invite_text_is_compared_and_only_the_code_opens_a_private_room(invite):
    """Local rooms and rooms owned by another process of a cluster read invites alike: any text
    is a wrong code (``compare_digest`` alone raises on non-ASCII text: a 500)."""
    from yamen.server.cluster import Remote, Snapshot

    seen = Snapshot(info={}, invite="the-code", host="h", public=False, players=["p"])
    remote = Remote(None, "room", "owner", seen)
    assert not same_secret(invite, "the-code") and not remote.may_watch(None, invite)
    assert remote.may_watch(None, "the-code") and remote.may_watch("p", None)
