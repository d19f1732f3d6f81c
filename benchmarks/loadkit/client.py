"""What every client process of the benchmark shares: JSON, the lobby over HTTP, WebSockets,
and counting what the server refused.

A server may refuse a load test from one address (429 with Retry-After, a ``rate_limited``
frame, a closed socket): those are counted and reported, never fatal. A lobby call the server
refused with 429 is retried after the time it asked for (at most ``MAX_WAIT`` s, ``RETRIES_429``
times); one it failed (5xx, a dropped connection) is retried a few times too.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import resource
from typing import Any

import httpx

try:
    import orjson

    def loads(text: str | bytes) -> Any:
        return orjson.loads(text)

except ImportError:  # pragma: no cover - the standard library will do
    loads = json.loads

RETRIES = 4  # for a lobby call the server failed (5xx, transport)
RETRIES_429 = 20  # for one it refused as too many
MAX_WAIT = 30.0  # seconds, whatever Retry-After says


def dumps(frame: Any) -> str:
    return json.dumps(frame, separators=(",", ":"))


def count(counter: dict[str, int], key: str, n: int = 1) -> None:
    counter[key] = counter.get(key, 0) + n


class Refused(RuntimeError):
    """A lobby call refused (4xx) for good."""

    def __init__(self, status: int, text: str):
        super().__init__(f"{status} {text[:200]}")
        self.status = status


class Lobby:
    """HTTP calls to one server, with retries; ``retries`` and ``refusals`` count them."""

    def __init__(self, url: str, concurrency: int):
        limits = httpx.Limits(max_connections=concurrency)
        self.http = httpx.AsyncClient(base_url=url, timeout=120, limits=limits, trust_env=False)
        self.retries = 0
        self.refusals: dict[str, int] = {}  # "http 429" and the like -> times

    async def call(self, method: str, path: str, token: str | None, body: Any = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        failed = refused = 0
        while True:
            try:
                answer = await self.http.request(method, path, json=body, headers=headers)
            except httpx.TransportError:  # e.g. a kept-alive connection the server closed
                if failed == RETRIES:
                    raise
                failed += 1
                self.retries += 1
                continue
            if answer.status_code == 429 and refused < RETRIES_429:
                refused += 1
                count(self.refusals, "http 429")
                await asyncio.sleep(retry_after(answer))
                continue
            if answer.status_code < 500 or failed == RETRIES:
                break
            self.retries += 1
            await asyncio.sleep(0.5 * 2**failed)
            failed += 1
        if answer.status_code >= 400:
            count(self.refusals, f"http {answer.status_code}")
            raise Refused(answer.status_code, f"{method} {path}: {answer.text}")
        return answer.json()

    async def close(self) -> None:
        await self.http.aclose()


def retry_after(answer: httpx.Response) -> float:
    try:
        return min(MAX_WAIT, max(0.1, float(answer.headers.get("Retry-After", 1))))
    except ValueError:
        return 1.0


async def ws_connect(url: str, room_id: str, compression: str = "none") -> Any:
    from websockets.asyncio.client import connect

    ws_url = url.replace("http", "ws", 1) + f"/ws/rooms/{room_id}"
    return await connect(
        ws_url,
        compression=None if compression == "none" else "deflate",
        max_size=2**24,
        open_timeout=120,
        ping_interval=None,
        proxy=None,
    )


def refusal_of(exc: BaseException) -> str:
    """A short name for why a WebSocket could not be opened or used."""
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if status is not None:
        return f"handshake {status}"
    rcvd = getattr(exc, "rcvd", None)
    if rcvd is not None:
        return f"closed {rcvd.code}"
    return type(exc).__name__


def close_code(ws: Any) -> str:
    code = getattr(ws, "close_code", None)
    return "closed (no code)" if code is None else f"closed {code}"


def raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def run_async(coro: Any) -> Any:
    try:
        import uvloop
    except ImportError:  # pragma: no cover
        return asyncio.run(coro)
    return uvloop.run(coro)
