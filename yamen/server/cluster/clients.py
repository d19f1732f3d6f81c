"""The clients connected to this process whose room another process owns.

Each gets an id of its own on the bus (the owner knows it by this process's node id and that
id), so that the owner's frames for it find it. A client whose frame the owner has not answered
for too long is attached again, then told and closed (Upkeep.check_clients, upkeep.py): this keeps
when the oldest unanswered frame was relayed, and when it was rerouted.
"""

from __future__ import annotations

import itertools
import time

from yamen.server.handle import Client


class Clients:
    def __init__(self) -> None:
        self.ids = itertools.count()
        self.cids: dict[Client, str] = {}  # client -> its id on the bus
        self.by_cid: dict[str, tuple[Client, str]] = {}  # its id -> (client, room id)
        # when the oldest of its frames nothing has answered yet was relayed, and when it was
        # rerouted for it (the owner seemed to have forgotten it)
        self.asked: dict[Client, float] = {}
        self.rerouted: dict[Client, float] = {}

    def cid(self, client: Client, room_id: str) -> str:
        """The client's id on the bus (given once), now for ``room_id``."""
        cid = self.cids.get(client)
        if cid is None:
            cid = self.cids[client] = str(next(self.ids))
        self.by_cid[cid] = (client, room_id)
        return cid

    def known(self, client: Client) -> str | None:
        return self.cids.get(client)

    def find(self, cid: str) -> tuple[Client, str] | None:
        """The client with this id, and its room's id."""
        return self.by_cid.get(cid)

    def relayed(self, client: Client) -> None:
        """One of its frames went to the owner: it waits for an answer from now on, unless it
        already waited."""
        self.asked.setdefault(client, time.monotonic())

    def answered(self, client: Client) -> None:
        self.asked.pop(client, None)
        self.rerouted.pop(client, None)

    def forget(self, client: Client) -> None:
        self.answered(client)
        cid = self.cids.pop(client, None)
        if cid is not None:
            self.by_cid.pop(cid, None)
