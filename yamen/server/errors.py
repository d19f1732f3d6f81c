"""Every refusal the HTTP API gives is the documented JSON ``{"detail": {"code", "message"}}``
(and ``params`` where the message has variable parts, for a client to say it in its language),
whatever refused: a room (its own code), a request that does not fit the schema (``invalid``),
a path that names nothing (``not_found``), the database (``storage``, 503: try again), or a
fault of the server's own (``internal``, 500: logged here, with the room where there is one;
the client never sees a traceback). A room's refusals are :class:`RoomError`: the same code is
the live protocol's ``error`` frame."""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException

from yamen.errors import OptionsError, YamenError

log = logging.getLogger(__name__)
CODES = {400: "bad_request", 404: "not_found", 405: "method_not_allowed", 413: "too_large"}


class RoomError(YamenError):
    """A request the room refuses: ``code`` for the protocol, ``status`` for HTTP, ``params``
    the message's variable parts (a client words the refusal from the code and these)."""

    def __init__(
        self, code: str, message: str, status: int = 409, params: dict[str, Any] | None = None
    ):
        self.code, self.status, self.params = code, status, params or {}
        super().__init__(message)


def options_refused(exc: OptionsError) -> RoomError:
    """Options or settings that do not pass: ``bad_options`` (422), with the check's reason
    and its variable parts as params (yamen/errors.py)."""
    params = {"reason": exc.reason, **exc.params} if exc.reason else {}
    return RoomError("bad_options", str(exc), 422, params)


class StorageFailed(RoomError):
    """The database did not take a change: nothing changed, try again (``storage``, 503)."""

    def __init__(self, message: str):
        super().__init__("storage", message, 503)


def refusal(status: int, code: str, message: str, headers: Any = None) -> JSONResponse:
    return JSONResponse({"detail": {"code": code, "message": message}}, status, headers=headers)


def where(request: Request) -> str:
    room = request.path_params.get("room_id")
    place = f"{request.method} {request.url.path}"
    return place if room is None else f"room {room}: {place}"


async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
    if isinstance(exc.detail, dict):  # already a refusal of ours
        return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
    code = CODES.get(exc.status_code, f"http_{exc.status_code}")
    return refusal(exc.status_code, code, str(exc.detail), exc.headers)


async def invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
    problems = [
        f"{'.'.join(str(p) for p in error['loc'])}: {error['msg']}" for error in exc.errors()[:5]
    ]
    return refusal(422, "invalid", "; ".join(problems) or "the request is not valid")


async def storage(request: Request, exc: Exception) -> JSONResponse:
    log.warning("%s: storage failed: %s", where(request), type(exc).__name__)
    message = "the server could not reach its storage; nothing was changed, try again"
    return refusal(503, "storage", message, {"Retry-After": "5"})


async def internal(request: Request, exc: Exception) -> JSONResponse:
    log.error("%s: unhandled %s", where(request), type(exc).__name__, exc_info=exc)
    return refusal(500, "internal", "the server failed to answer; the fault has been logged")


def install(app: FastAPI) -> None:
    # Starlette types every handler as taking any Exception, though it calls each with the class
    # it was added for (Kludex/starlette#2417): these two read their own class's fields.
    app.add_exception_handler(HTTPException, http_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, invalid)  # type: ignore[arg-type]
    app.add_exception_handler(SQLAlchemyError, storage)
    app.add_exception_handler(sqlite3.Error, storage)
    app.add_exception_handler(Exception, internal)
