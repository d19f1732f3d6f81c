"""A soak with random faults over three ``yamen serve`` processes sharing PostgreSQL and Redis
(benchmarks/soak.py, small): kill -9, SIGTERM, SIGSTOP past the lease, Redis CLIENT PAUSE, and
Redis CLIENT KILL of a process's subscriber and of its publisher connection, each at a random
moment, while people connected to different processes play rooms with bots, their clients
behaving like the browser (no sync of their own unless they hear nothing, or see a step they
never got). It ends with every room finished or still moving, every hello and frame answered,
no client silent beyond the bound that no fault explains, and every acknowledged action
stored. Skipped, saying why, without PostgreSQL or Redis; about two minutes. A room nobody is
at waits on purpose (its bots play only while someone is at the table): it is not stalled, and
it must move once someone comes to watch."""

from __future__ import annotations

import asyncio
import sys

from tests.paths import ROOT
from tests.server.test_cluster import database, redis_url  # noqa: F401 (fixtures: the skips)

sys.path.insert(0, str(ROOT / "benchmarks"))

import soak  # noqa: E402


def test_random_faults_strand_no_room_and_no_client(database, redis_url):  # noqa: F811
    args = soak.parser().parse_args(
        [
            "--rooms", "6",
            "--paused", "1",
            "--faults", "12",
            "--lease", "1.5",
            "--every", "5",
            "--settle", "8",
            "--window", "12",
            "--second-person", "0.5",
            "--seed", "11",
        ]
    )  # fmt: skip
    figures = asyncio.run(soak.soak(args))
    print(figures)
    assert all(figures["faults"][kind] == 2 for kind in soak.KINDS)
    assert figures["rooms_stalled"] == 0, figures["notes"]
    assert figures["hellos_unanswered"] == 0, figures["notes"]
    assert figures["frames_unanswered"] == 0, figures["notes"]
    assert figures["clients_silent"] == 0, figures["notes"]
    assert figures["bad_acks"] == 0, figures["notes"]
    assert figures["actions_lost"] == 0, figures["notes"]
    assert figures["actions_acked"] > 0
    for kind in ("sub", "pub"):  # every fault kind's recovery is timed
        assert figures["recovery_s"][kind]["n"] > 0, figures["recovery_s"]
