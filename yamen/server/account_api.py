"""Accounts over HTTP, under ``/api/account``: a guest claims a name and a password and keeps
their player (and so their games); signing in elsewhere gives a new session token; sessions
are revoked one by one, all at once, or when the password changes, and the WebSockets that
said hello with a revoked token are closed (yamen/server/revocation.py); a deleted account's
player stays, anonymous, with its games.

Safety: every attempt that checks a password or takes a name counts against the ``sign_ins``
rate of the client's address (yamen/server/limits.py); failed passwords slow down the
(name, address) that failed, and, once a name is being guessed at, every address that has
failed at it, but never an address that has not (yamen/server/guesses.py): nobody can keep an
owner out. A wrong name and a wrong password give the same answer (``bad_credentials``) in the
same time; passwords are checked on threads of their own, a bounded queue of them, else 429
``busy`` at once (yamen/server/passwords.py).
"""

from __future__ import annotations

import contextlib
import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request, Response
from pydantic import BaseModel, Field, StrictStr

from yamen.server import account_store as accounts
from yamen.server import passwords
from yamen.server.guesses import Guesses
from yamen.server.identity import Player, player_of
from yamen.server.limits import Limited, address, limiter_of, refused
from yamen.server.lobby import Body, bearer, current_player, http_error, rooms_of
from yamen.server.passwords import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    account_name,
    needs_rehash,
    password_problem,
)
from yamen.server.share import Busy
from yamen.server.storage import Store

router = APIRouter(prefix="/api/account", tags=["accounts"])
Text = Annotated[StrictStr, Field(max_length=1024)]  # the rules are checked after, with a code


class Credentials(Body):
    name: Text
    password: Text


class NewPassword(Body):
    old: Text
    new: Text


class Password(Body):
    password: Text


class Account(BaseModel):
    player: str
    name: str  # the player's display name
    account: str  # the name to sign in with
    token: str | None = None  # a new session's token: shown only now


async def signed_in(
    request: Request, authorization: Annotated[str | None, Header()] = None
) -> tuple[Player, str]:
    """The caller and the token they sent."""
    player = await current_player(request, authorization)
    token = bearer(authorization)
    assert token is not None
    return player, token


Caller = Annotated[tuple[Player, str], Depends(signed_in)]


def store_of(request: Request) -> Store:
    return rooms_of(request).store


def guesses_of(request: Request) -> Guesses:
    return request.app.state.guesses


def attempt(request: Request, name: str | None = None) -> None:
    """One ``sign_ins`` for the caller's address, or 429; with ``name`` (a name's key or a
    player) a password is tried for it: refused while this address must wait at that name
    (yamen/server/guesses.py) or while the password threads are busy (``busy``: full, or
    their share spent), and then not charged."""
    where = address(request.client)
    try:
        if name is not None:
            guesses_of(request).check(name, where)
            passwords.HASHING.admit()  # refused before any look-up, and not charged
        limiter_of(request).take("sign_ins", where)
    except Limited as exc:
        raise refused(exc) from None


async def password_is(request: Request, name: str, stored: str | None, password: str) -> bool:
    """Whether ``password`` is the one ``stored`` hashes (None: no account, False in the same
    time), counted for (name, address): a failure slows that address down at that name."""
    right = await check(stored, password)
    where = address(request.client)
    if right:
        guesses_of(request).succeeded(name, where)
    else:
        guesses_of(request).failed(name, where)
    return right


async def check(stored: str | None, password: str) -> bool:
    try:
        return await passwords.check(stored, password)
    except Busy as exc:
        raise refused(exc) from None


async def hash_password(password: str) -> str:
    try:
        return await passwords.hash_password(password)
    except Busy as exc:  # the password threads and their queue are full, or their share spent
        raise refused(exc) from None


def bad_credentials() -> Exception:
    return http_error(401, "bad_credentials", "this name and password do not match an account")


def checked_name(name: str) -> tuple[str, str]:
    try:
        return account_name(name)
    except ValueError as exc:
        raise http_error(422, "bad_name", str(exc)) from None


def checked_password(password: str) -> None:
    if password_problem(password):
        message = f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters"
        params = {"min": PASSWORD_MIN, "max": PASSWORD_MAX}
        raise http_error(422, "bad_password", message, params)


async def own_account(store: Store, player: Player) -> Any:
    found = await accounts.account(store, player.id)
    if found is None:
        raise http_error(409, "no_account", "a guest has no account: claim one first")
    return found


async def confirmed(request: Request, player: Player, password: str) -> Any:
    """The caller's account, once ``password`` is its password (rate-limited)."""
    store = store_of(request)
    found = await own_account(store, player)
    name = f"player:{player.id}"
    attempt(request, name)
    if not await password_is(request, name, found.password_hash, password):
        raise bad_credentials()
    return found


@router.post("", status_code=201)
async def claim(body: Credentials, caller: Caller, request: Request) -> Account:
    """The calling guest claims an account: a name to sign in with (unique, whatever its case)
    and a password. The player stays the same, with their games; the token in use stays
    valid, as the account's first session. 409 ``name_taken`` or ``has_account``."""
    player, _ = caller
    shown, key = checked_name(body.name)
    attempt(request)
    checked_password(body.password)
    store = store_of(request)
    if await accounts.account(store, player.id) is not None:
        raise http_error(409, "has_account", "this player has an account already")
    if not await accounts.add_account(
        store, player.id, shown, key, await hash_password(body.password)
    ):
        raise http_error(409, "name_taken", "this name is taken: choose another")
    return Account(player=player.id, name=player.name, account=shown)


@router.post("/sessions", status_code=201)
async def sign_in(body: Credentials, request: Request) -> Account:
    """Sign in with an account's name and password: a new session token for this device (the
    same player as everywhere else). 401 ``bad_credentials`` whether the name or the password
    is wrong."""
    store = store_of(request)
    try:
        _, key = account_name(body.name)
    except ValueError:
        key = None
    name = f"name:{key or body.name[:160]}"
    attempt(request, name)
    found = None if key is None else await accounts.account_by_key(store, key)
    stored = None if found is None else found.password_hash
    if not await password_is(request, name, stored, body.password):
        raise bad_credentials()
    assert found is not None
    if needs_rehash(found.password_hash):
        with contextlib.suppress(Busy):  # renewed at a later sign-in: this one is in
            renewed = await passwords.hash_password(body.password)
            await accounts.set_password(store, found.player_id, renewed)
    token = secrets.token_urlsafe(32)
    await accounts.add_session(store, found.player_id, token)
    player = await player_of(store, token)
    assert player is not None
    return Account(player=player.id, name=player.name, account=found.name, token=token)


@router.delete("/sessions/current", status_code=204)
async def sign_out(caller: Caller, request: Request) -> Response:
    """Revoke the token of this request: it is refused (401) from now on."""
    player, token = caller
    await own_account(store_of(request), player)
    await accounts.revoke(store_of(request), player.id, token)
    await rooms_of(request).sessions_ended(player.id)  # its WebSockets are closed
    return Response(status_code=204)


@router.delete("/sessions", status_code=204)
async def sign_out_everywhere(caller: Caller, request: Request) -> Response:
    """Revoke every token of the player, this one too."""
    player, _ = caller
    await own_account(store_of(request), player)
    await accounts.revoke_all(store_of(request), player.id)
    await rooms_of(request).sessions_ended(player.id)
    return Response(status_code=204)


@router.put("/password", status_code=204)
async def change_password(body: NewPassword, caller: Caller, request: Request) -> Response:
    """A new password, given the old one (401 ``bad_credentials`` else); every other session
    is revoked, this one stays."""
    player, token = caller
    await confirmed(request, player, body.old)
    checked_password(body.new)
    store = store_of(request)
    await accounts.set_password(store, player.id, await hash_password(body.new))
    await accounts.revoke_all(store, player.id, keep=token)
    await rooms_of(request).sessions_ended(player.id)
    return Response(status_code=204)


@router.delete("", status_code=204)
async def delete_account(body: Password, caller: Caller, request: Request) -> Response:
    """Delete the account, given its password: its name, password and sessions are gone; the
    player's games stay, under a name that says so in each client's language (``""``,
    wire.DELETED); the player's own page answers 404 ``player_deleted``."""
    player, _ = caller
    await confirmed(request, player, body.password)
    await accounts.delete_account(store_of(request), player.id)
    await rooms_of(request).sessions_ended(player.id, deleted=True)
    return Response(status_code=204)
