"""Accounts over HTTP, under ``/api/account``: a guest claims a name and a password and keeps
their player (and so their games); signing in elsewhere gives a new session token; sessions
are revoked one by one, all at once, or when the password changes, and the WebSockets that
said hello with a revoked token are closed (yamen/server/revocation.py); a deleted account's
player stays, anonymous, with its games.

Safety: every attempt that checks a password or takes a name counts against the ``sign_ins``
rate, per client address and per account name (yamen/server/limits.py); a wrong name and a
wrong password give the same answer (``bad_credentials``) in the same time
(yamen/server/passwords.py).
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Header, Request, Response
from pydantic import BaseModel, Field, StrictStr

from yamen.server import account_store as accounts
from yamen.server.identity import Player, player_of
from yamen.server.limits import Limited, address, limiter_of, refused
from yamen.server.lobby import Body, bearer, current_player, http_error, rooms_of
from yamen.server.passwords import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    account_name,
    check,
    hash_password,
    needs_rehash,
    password_problem,
)
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


def attempt(request: Request, key: str) -> None:
    """One ``sign_ins`` for the caller's address and for ``key`` (a name or a player), or 429."""
    try:
        limiter_of(request).take("sign_ins", address(request.client), key)
    except Limited as exc:
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
    attempt(request, f"player:{player.id}")
    if not await check(found.password_hash, password):
        raise bad_credentials()
    return found


@router.post("", status_code=201)
async def claim(body: Credentials, caller: Caller, request: Request) -> Account:
    """The calling guest claims an account: a name to sign in with (unique, whatever its case)
    and a password. The player stays the same, with their games; the token in use stays
    valid, as the account's first session. 409 ``name_taken`` or ``has_account``."""
    player, _ = caller
    shown, key = checked_name(body.name)
    attempt(request, f"name:{key}")
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
    attempt(request, f"name:{key or body.name[:160]}")
    found = None if key is None else await accounts.account_by_key(store, key)
    if not await check(None if found is None else found.password_hash, body.password):
        raise bad_credentials()
    assert found is not None
    if needs_rehash(found.password_hash):
        await accounts.set_password(store, found.player_id, await hash_password(body.password))
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
