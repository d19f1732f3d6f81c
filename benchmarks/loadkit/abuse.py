"""``--abuse`` and ``--abuse-each``: what one hostile guest does to the server while the
measured rooms play, in a process of its own.

Each kind of abuse is a class in ``KINDS`` that sets itself up before the measured windows
(rooms, an account, a long game) and then runs as a set of endless tasks. The abuse process
follows the benchmark's phases: at an abused phase's start it starts the tasks of that phase's
kinds, and at its end it cancels them, so each kind can be measured alone (``--abuse-each``)
or several together (``--abuse``: search-bot rooms, a chat flood and a spectator swarm).

Kinds (in ``loadkit.crowds``, ``loadkit.heavy`` and ``loadkit.site``):

- ``bot_rooms``: rooms of five ``search`` bots at the default pace, watched by their host, who
  rematches each finished game;
- ``chat``: one player sending chat in a room of its own over several connections, each at
  ``chat_rate`` frames a second (what a connection is allowed), reconnecting when closed;
- ``spectators``: sockets that join a room as spectators, stay a random while and leave;
- ``sync_flood``: a long game (``sync_moves`` actions played in one 50-deal game), its seated
  player's connections and anonymous spectators each asking for ``sync`` many times a second;
- ``heavy_room``: a private match of ``heavy_games`` 50-deal games; an outsider asks for it
  (``GET /api/rooms/{id}`` and a WebSocket hello, no invite) each time the server has unloaded
  it, and its host reads it as well;
- ``sign_ins``: ``sign_ins`` wrong passwords for one account in flight at once, for ever;
- ``player_page``: ``page_readers`` clients reading the page of ``bot:rules``, who has
  ``page_games`` rated games (stored before the server starts: ``loadkit.heavy.seed_games``).

Everything the server refuses is counted, never fatal: 429s, ``rate_limited`` and other error
frames, refused handshakes and closed sockets (by close code). Counts are taken for each abused
window.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
import traceback
from typing import Any

from loadkit.client import (
    Lobby,
    close_code,
    count,
    dumps,
    loads,
    raise_file_limit,
    refusal_of,
    run_async,
    ws_connect,
)
from loadkit.crowds import KINDS as CROWDS
from loadkit.heavy import KINDS as HEAVY
from loadkit.site import KINDS as SITE

KINDS = {**CROWDS, **HEAVY, **SITE}
LEGACY = ("bot_rooms", "chat", "spectators")  # what --abuse runs together


class Abuse:
    """The abuse process: its kinds, what they did and what the server refused them."""

    def __init__(self, spec: dict[str, Any]):
        self.spec, self.url = spec, spec["url"]
        self.rng = random.Random(spec["seed"])
        self.counts: dict[str, int] = {}  # what was done: bot actions, chats, joins, reads...
        self.refused: dict[str, int] = {}  # what the server refused or closed, by kind
        self.sockets: set[Any] = set()
        self.kinds = {name: KINDS[name](self) for name in spec["kinds"]}

    # ----- what every kind uses ------------------------------------------------------------

    async def open(self, room: str, hello: dict[str, Any]) -> Any:
        """A socket past hello (its state frame read), or None when the server refused it."""
        try:
            ws = await ws_connect(self.url, room)
        except Exception as exc:
            count(self.refused, refusal_of(exc))
            return None
        self.sockets.add(ws)
        try:
            await ws.send(dumps({"type": "hello", "v": 1, **hello}))
            while True:
                frame = loads(await ws.recv())
                if frame["type"] == "state":
                    return ws
                if frame["type"] == "error":
                    count(self.refused, frame.get("code", "?"))
        except Exception:
            count(self.refused, close_code(ws))
            self.sockets.discard(ws)
            return None

    async def shut(self, ws: Any) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(ws.close(), 5)
        self.sockets.discard(ws)

    async def start(self, room: str, token: str) -> None:
        try:
            await self.lobby.call("POST", f"/api/rooms/{room}/start", token)
        except Exception as exc:
            count(self.refused, f"start: {str(exc)[:40]}")

    async def guarded(self, what: str, setup: Any) -> None:
        """One kind's set-up; a refusal or failure leaves it out (counted)."""
        try:
            await setup
        except Exception as exc:
            count(self.refused, f"setup {what}: {type(exc).__name__} {str(exc)[:80]}")

    # ----- the run -------------------------------------------------------------------------

    async def run(self, inbox: Any, outbox: Any) -> None:
        self.lobby = Lobby(self.url, 8)
        self.lobby.refusals = self.refused  # the lobby's 429s counted with the rest
        for name, kind in self.kinds.items():
            await self.guarded(name, kind.set_up())
        setup_refused = dict(self.refused)
        outbox.put(("ready", "abuse", None))
        plan = await asyncio.to_thread(inbox.get)
        each = []
        for phase in plan["phases"]:
            await sleep_until(phase["start"])
            tasks = [
                asyncio.create_task(work)
                for name in phase["kinds"]
                if name in self.kinds
                for work in self.kinds[name].tasks()
            ]
            for start, end in phase["windows"]:
                await sleep_until(start)
                before = (dict(self.counts), dict(self.refused), time.process_time())
                await sleep_until(end)
                each.append(self.window(phase["kinds"], end - start, *before))
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            for ws in list(self.sockets):  # the next phase starts with none of these open
                await self.shut(ws)
        outbox.put(("result", "abuse", {"windows": each, "setup_refused": setup_refused}))
        await self.lobby.close()

    def window(
        self,
        kinds: list[str],
        seconds: float,
        counts: dict[str, int],
        refused: dict[str, int],
        cpu: float,
    ) -> dict[str, Any]:
        """What was done and refused in one window (lobby 429s included)."""
        done = {k: v - counts.get(k, 0) for k, v in self.counts.items()}
        no = {k: v - refused.get(k, 0) for k, v in self.refused.items()}
        bot_rooms = self.kinds.get("bot_rooms")
        return {
            "kinds": kinds,
            "bot_rooms": len(bot_rooms.rooms) if bot_rooms and "bot_rooms" in kinds else 0,
            "bot_actions_per_s": round(done.get("bot_actions", 0) / seconds, 1),
            "bot_games": done.get("bot_games", 0),
            "chat_sent": done.get("chat_sent", 0),
            "chat_echoed": done.get("chat_echoed", 0),
            "spectator_joins": done.get("spectator_joins", 0),
            "done": {k: v for k, v in done.items() if v},
            "refused": {k: v for k, v in no.items() if v},
            "cpu": round((time.process_time() - cpu) / seconds, 2),
        }


async def sleep_until(when: float) -> None:
    await asyncio.sleep(max(0.0, when - time.monotonic()))


def abuse_main(spec: dict[str, Any], inbox: Any, outbox: Any) -> None:
    raise_file_limit()
    try:
        run_async(Abuse(spec).run(inbox, outbox))
    except BaseException:
        outbox.put(("failed", "abuse", traceback.format_exc()))
