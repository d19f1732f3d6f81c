"""Accounts: a guest claims one and keeps their player and games; signing in elsewhere is the
same player; sessions are revoked one by one, all at once, or by a new password; a deleted
account leaves its games to an anonymous player; a wrong name and a wrong password look alike;
attempts are rate-limited per address and per name. On SQLite and PostgreSQL."""

from __future__ import annotations

import httpx
import pytest

from tests.server.helpers import (
    PASSWORD,
    ServerThread,
    claimed,
    played_against_bots,
    refusal,
    run,
    server_on_each_database,
    signed_in,
)
from yamen.client import Lobby
from yamen.server.guesses import Guesses
from yamen.server.limits import Limits

server = pytest.fixture(scope="module", params=["sqlite", "postgres"])(server_on_each_database)


def test_a_claimed_guest_keeps_their_games_and_signs_in_elsewhere(server):
    async def go():
        guest = await Lobby.guest(server.url, "Ann")
        rid = await played_against_bots(guest, public=False)
        game = (await guest.call("GET", f"/api/rooms/{rid}"))["game_id"]
        before = await guest.call("GET", "/api/me")
        answer = await guest.call("POST", "/api/account", {"name": "Ann.Lee", "password": PASSWORD})
        after = await guest.call("GET", "/api/me")  # the guest's token still works
        other = await signed_in(server.url, "  ann.LEE ")  # any case, spaces trimmed
        elsewhere = await other.call("GET", "/api/me")
        record = await other.call("GET", f"/api/games/{game}/record")  # a private room's game
        hosted = await other.call("GET", f"/api/rooms/{rid}")
        stranger = await Lobby.guest(server.url, "Bob")
        hidden = await refusal(stranger, "GET", f"/api/games/{game}/record")
        return before, answer, after, elsewhere, record, hosted, hidden, other.token, guest.token

    before, answer, after, elsewhere, record, hosted, hidden, token, first = run(go())
    assert before["account"] is None
    assert answer == {
        "player": before["player"],
        "name": "Ann",
        "account": "Ann.Lee",
        "token": None,
    }
    assert after == elsewhere == {**before, "account": "Ann.Lee"}
    assert record["game"] == "baohuang" and record["result"] is not None
    assert "invite" in hosted  # still the host of the room
    assert hidden.status == 404
    assert token != first and len(token) >= 43


def test_names_are_unique_whatever_their_case(server):
    async def go():
        await claimed(server.url, "C", "Carol")
        other = await Lobby.guest(server.url, "C2")
        taken = await refusal(
            other, "POST", "/api/account", {"name": "cAROL", "password": PASSWORD}
        )
        wide = await refusal(
            other, "POST", "/api/account", {"name": "ＣＡＲＯＬ", "password": PASSWORD}
        )
        again = await claimed(server.url, "D", "Dave")
        twice = await refusal(
            again, "POST", "/api/account", {"name": "Dave2", "password": PASSWORD}
        )
        short = await refusal(
            other, "POST", "/api/account", {"name": "Carl", "password": "1234567"}
        )
        long = await refusal(other, "POST", "/api/account", {"name": "Carl", "password": "x" * 257})
        blank = await refusal(
            other, "POST", "/api/account", {"name": "\u200b", "password": PASSWORD}
        )
        return taken, wide, twice, short, long, blank

    taken, wide, twice, short, long, blank = run(go())
    assert (taken.status, taken.code) == (wide.status, wide.code) == (409, "name_taken")
    assert (twice.status, twice.code) == (409, "has_account")
    for refused in (short, long):
        assert (refused.status, refused.code, refused.params) == (
            422,
            "bad_password",
            {"min": 8, "max": 256},
        )
    assert (blank.status, blank.code) == (422, "bad_name")


def test_a_wrong_name_and_a_wrong_password_look_alike(server):
    async def go():
        await claimed(server.url, "E", "Erin")
        answers = []
        for name, password in (
            ("Erin", "wrong password"),
            ("Nobody", PASSWORD),
            ("\u200b", PASSWORD),
        ):
            async with httpx.AsyncClient(base_url=server.url) as http:
                got = await http.post(
                    "/api/account/sessions", json={"name": name, "password": password}
                )
            answers.append((got.status_code, got.json()))
        return answers

    answers = run(go())
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0] == 401 and answers[0][1]["detail"]["code"] == "bad_credentials"


def test_signing_out_revokes_the_token(server):
    async def go():
        first = await claimed(server.url, "F", "Fay")
        second = await signed_in(server.url, "Fay")
        await second.call("DELETE", "/api/account/sessions/current")
        gone = await refusal(second, "GET", "/api/me")
        kept = await first.call("GET", "/api/me")
        guest = await Lobby.guest(server.url, "G")
        no_account = await refusal(guest, "DELETE", "/api/account/sessions/current")
        return gone, kept, no_account

    gone, kept, no_account = run(go())
    assert (gone.status, gone.code) == (401, "bad_token")
    assert kept["account"] == "Fay"
    assert (no_account.status, no_account.code) == (409, "no_account")


def test_signing_out_everywhere_revokes_every_token(server):
    async def go():
        first = await claimed(server.url, "H", "Hal")
        others = [await signed_in(server.url, "Hal") for _ in range(2)]
        await others[0].call("DELETE", "/api/account/sessions")
        gone = [await refusal(lobby, "GET", "/api/me") for lobby in [first, *others]]
        back = await signed_in(server.url, "Hal")  # the account itself stays
        return gone, await back.call("GET", "/api/me")

    gone, me = run(go())
    assert all((e.status, e.code) == (401, "bad_token") for e in gone)
    assert me["account"] == "Hal"


def test_changing_the_password_needs_the_old_one_and_revokes_other_sessions(server):
    async def go():
        first = await claimed(server.url, "I", "Ivy")
        other = await signed_in(server.url, "Ivy")
        wrong = await refusal(
            first, "PUT", "/api/account/password", {"old": "not it!!", "new": "new password"}
        )
        weak = await refusal(
            first, "PUT", "/api/account/password", {"old": PASSWORD, "new": "short"}
        )
        await first.call("PUT", "/api/account/password", {"old": PASSWORD, "new": "new password"})
        kept = await first.call("GET", "/api/me")
        gone = await refusal(other, "GET", "/api/me")
        old = await refusal(
            Lobby(server.url),
            "POST",
            "/api/account/sessions",
            {"name": "Ivy", "password": PASSWORD},
        )
        new = await signed_in(server.url, "Ivy", "new password")
        return wrong, weak, kept, gone, old, await new.call("GET", "/api/me")

    wrong, weak, kept, gone, old, new = run(go())
    assert (wrong.status, wrong.code) == (401, "bad_credentials")
    assert (weak.status, weak.code) == (422, "bad_password")
    assert kept["account"] == "Ivy" == new["account"] and kept["player"] == new["player"]
    assert (gone.status, gone.code) == (401, "bad_token")
    assert (old.status, old.code) == (401, "bad_credentials")


def test_a_deleted_account_leaves_its_games_to_an_anonymous_player(server):
    async def go():
        lobby = await claimed(server.url, "Jo", "Jo")
        other = await signed_in(server.url, "Jo")
        room = await lobby.call("POST", "/api/rooms", {"game": "baohuang", "seat": 0})
        wrong = await refusal(lobby, "DELETE", "/api/account", {"password": "not it!!"})
        await lobby.call("DELETE", "/api/account", {"password": PASSWORD})
        gone = [await refusal(x, "GET", "/api/me") for x in (lobby, other)]
        signin = await refusal(
            Lobby(server.url), "POST", "/api/account/sessions", {"name": "Jo", "password": PASSWORD}
        )
        again = await claimed(server.url, "Jo2", "Jo")  # the name is free again
        return room, wrong, gone, signin, await again.call("GET", "/api/me")

    room, wrong, gone, signin, again = run(go())
    assert (wrong.status, wrong.code) == (401, "bad_credentials")
    assert all((e.status, e.code) == (401, "bad_token") for e in gone)
    assert (signin.status, signin.code) == (401, "bad_credentials")
    assert again["account"] == "Jo" and again["player"] != room["host"]


def test_a_deleted_players_name_is_anonymous(tmp_path):
    """The player row stays (their games keep it) under the anonymous name."""
    import sqlalchemy as sa

    db = tmp_path / "a.db"
    with ServerThread(f"sqlite:///{db}") as server:

        async def go():
            lobby = await claimed(server.url, "Kim", "Kim")
            await lobby.call("DELETE", "/api/account", {"password": PASSWORD})
            return lobby.player

        player = run(go())
    engine = sa.create_engine(f"sqlite:///{db}")
    with engine.connect() as conn:
        name = conn.execute(
            sa.text("SELECT name FROM players WHERE id = :p"), {"p": player}
        ).scalar()
        left = conn.execute(
            sa.text("SELECT count(*) FROM sessions WHERE player_id = :p"), {"p": player}
        ).scalar()
        accounts = conn.execute(sa.text("SELECT count(*) FROM accounts")).scalar()
    assert (name, left, accounts) == ("", 0, 0)  # wire.DELETED: clients word it


def from_address(base: str, host: str) -> httpx.AsyncClient:
    """A client whose connections come from ``host`` (any 127.x.y.z is this machine)."""
    transport = httpx.AsyncHTTPTransport(local_address=host)
    return httpx.AsyncClient(base_url=base, transport=transport)


async def sign_in_from(base: str, host: str, name: str, password: str) -> tuple[int, dict, str]:
    """A sign-in from ``host``: its status, body and Retry-After."""
    async with from_address(base, host) as http:
        got = await http.post("/api/account/sessions", json={"name": name, "password": password})
        return got.status_code, got.json(), got.headers.get("retry-after")


def test_guessing_at_a_name_slows_the_guessers_not_its_owner(tmp_path):
    """Issue 23: nine wrong guesses from each of twelve addresses no longer keep the owner of
    a name out. The addresses that failed at the name wait (429 with Retry-After) once it is
    being guessed at; the owner, from an address that has not been failing, gets in with the
    right password meanwhile; a new address gets one guess; and each address's own
    ``sign_ins`` bucket still counts every attempt it makes, whatever the name."""
    limits = Limits.off().set(["sign_ins=3/600"])
    with ServerThread(f"sqlite:///{tmp_path / 'l.db'}", limits) as server:
        server.app.state.guesses = Guesses(limits.sign_ins, clock=lambda: 1000.0)  # time stops

        async def go():
            await claimed(server.url, "Lee", "Lee")
            attackers = [f"127.0.0.{i}" for i in range(10, 22)]
            guesses = [
                [await sign_in_from(server.url, a, "LEE", "wrong password") for _ in range(9)]
                for a in attackers
            ]
            owner = await sign_in_from(server.url, "127.0.0.2", "Lee", PASSWORD)
            fresh = [await sign_in_from(server.url, "127.0.0.3", "lee", "wrong!!!")]
            fresh.append(await sign_in_from(server.url, "127.0.0.3", "lee", PASSWORD))
            other = await sign_in_from(server.url, "127.0.0.10", "May", "wrong password")
            spent = [
                await sign_in_from(server.url, "127.0.0.4", f"n{i}", "wrong password")
                for i in range(4)
            ]
            return guesses, owner, fresh, other, spent

        guesses, owner, fresh, other, spent = run(go())
    statuses = [[status for status, _, _ in address] for address in guesses]
    # the name's three failures come from the first three addresses, one each; from then on
    # every address that has failed at it waits, and a new one gets its one guess
    assert statuses[:3] == [[401] + [429] * 8] * 3
    assert all(s == [401] + [429] * 8 for s in statuses[3:])
    refused = guesses[5][1]
    assert refused[1]["detail"]["code"] == "rate_limited"
    assert int(refused[2]) == refused[1]["detail"]["retry_after"] >= 1
    assert owner[0] == 201 and owner[1]["token"]
    assert [status for status, _, _ in fresh] == [401, 429]  # failing now: held too
    assert other[0] == 401  # an attacker's address is held at that name only
    assert [status for status, _, _ in spent] == [401, 401, 401, 429]  # per address


def test_a_wrong_name_is_held_like_a_wrong_password(tmp_path):
    """Guessing at a name nobody has is counted and refused exactly like guessing at an
    account's: the refusals tell nothing about which names exist."""
    limits = Limits.off().set(["sign_ins=2/600"])
    with ServerThread(f"sqlite:///{tmp_path / 'w.db'}", limits) as server:
        server.app.state.guesses = Guesses(limits.sign_ins, clock=lambda: 1000.0)  # time stops

        async def go():
            await claimed(server.url, "Ned", "Ned")
            answers = {}
            for name in ("Ned", "Nobody"):
                tries = [
                    await sign_in_from(server.url, f"127.0.1.{i}", name, "wrong password")
                    for i in (1, 2, 1)
                ]
                answers[name] = [(status, body["detail"]["code"]) for status, body, _ in tries]
            return answers

        answers = run(go())
    assert (
        answers["Ned"]
        == answers["Nobody"]
        == [
            (401, "bad_credentials"),
            (401, "bad_credentials"),
            (429, "rate_limited"),
        ]
    )


def test_the_account_api_is_in_the_openapi_schema(server):
    async def go():
        async with httpx.AsyncClient(base_url=server.url) as http:
            return (await http.get("/openapi.json")).json()["paths"]

    paths = run(go())
    assert {
        "/api/account",
        "/api/account/sessions",
        "/api/account/sessions/current",
        "/api/account/password",
    } <= set(paths)


def test_a_hash_made_with_the_old_parameters_signs_in_and_is_renewed(tmp_path, monkeypatch):
    """Issue 23: passwords are hashed with OWASP's cheaper Argon2id parameters now (a check
    took 215 ms of CPU with argon2-cffi's default). An account hashed before still signs in,
    and that sign-in stores a hash with today's parameters."""
    import sqlalchemy as sa
    from argon2 import PasswordHasher
    from argon2.profiles import RFC_9106_LOW_MEMORY

    from yamen.server import passwords

    db = tmp_path / "h.db"

    def stored() -> str:
        with sa.create_engine(f"sqlite:///{db}").connect() as conn:
            return conn.execute(sa.text("SELECT password_hash FROM accounts")).scalar_one()

    today = passwords.hasher
    with ServerThread(f"sqlite:///{db}") as server:
        monkeypatch.setattr(
            passwords, "hasher", PasswordHasher.from_parameters(RFC_9106_LOW_MEMORY)
        )
        run(claimed(server.url, "Old", "Old"))
        before = stored()
        monkeypatch.setattr(passwords, "hasher", today)
        run(signed_in(server.url, "Old"))
        after = stored()
    assert "m=65536,t=3,p=4" in before
    assert "m=7168,t=5,p=1" in after and today.verify(after, PASSWORD)
