"""Load benchmark of Yamen's server on loopback: N rooms, every seat a WebSocket client.

The benchmark starts the server itself, as a process of its own (``yamen serve`` on a free port
with a temporary SQLite file, or ``--db URL``, e.g. a scratch PostgreSQL database), creates
``--rooms`` rooms over the HTTP lobby (Baohuang by default: five guests each, all seats people),
connects one WebSocket per seat, starts every game and plays: in each room the first pending
seat picks one of its legal actions at random, and a finished game is rematched by the host.
The clients run in one or more generator processes (``--workers``; all the connections of one
room in one process) on the same machine as the server. The parts live in ``loadkit/``.

Paces (``--pace``):

- ``human``: the seat to act waits a random (exponential) delay averaging ``--think`` seconds
  (2 s) after its update arrives, then acts: each room does about one action every 2 s. Each
  room starts at a random moment of its first game (``--spread``, the default at this pace:
  played to at bot pace while the rooms are set up; ``loadkit.spread``), so that games end at
  a steady rate, as on a site, not all in one wave.
- ``bot``: the seat to act acts as soon as its update arrives; every room as fast as it can.
  Then (unless ``--no-baseline``) the same client code drives a bare fan-out server measured in
  the same run (``loadkit.bare``: no game, no storage, update frames of Yamen's shape and size).
  The figure is Yamen's actions/s divided by it.

Windows: after ``--warmup`` seconds, ``--runs`` windows of ``--duration`` seconds each are
measured, a gap of two seconds and 1% of a window between them. With ``--abuse``, the abuse
then starts (``loadkit.abuse``: ``--abuse-bot-rooms`` rooms of five search bots, a chat flood
over ``--abuse-chat-connections`` connections of one player, a swarm of
``--abuse-spectators`` spectator sockets joining and leaving), gets a warm-up, and ``--runs``
more windows are measured: the other rooms' p99 without and with the abuse, side by side from
one run. ``--abuse-each KIND,...`` adds one such phase for each kind alone, one after the
other (``--interleave``: the phases take turns, a window each a round, so that no phase meets
only the rooms' later deals), among them the kinds whose work grows with a game, a match or
the site:
``sync_flood`` (seats and anonymous spectators asking for ``sync`` of a long game),
``heavy_room`` (reads of a private match of long games, each finding it unloaded),
``sign_ins`` (wrong passwords, without pause) and ``player_page`` (readers of a page with
``--abuse-page-games`` games, stored before the server starts).

Figures of each window (nothing is asserted):

- latency of an action (action-to-broadcast): from just before the acting client writes its
  ``act`` frame to the moment the last of the room's connections has received and parsed the
  ``update`` frame that the action caused. p50, p99 and max of the actions sent in the window;
  an action whose update had not reached all of them a second after the window counts as longer
  than any (``unfinished``), and a percentile that falls on one is shown as such.
- actions per second: actions sent in the window and answered by then, divided by the window.
- pauses of each process, the server's and every generator's: its longest garbage collection,
  its collections (full ones: generation 2) and its longest event-loop lag. The generators
  freeze their heap once set up and collect only between windows, so their pauses stay out of
  the latencies (and the report shows that they did).
- CPU of the server, the generators and the whole machine; with ``--abuse``, what the abuse did
  and everything the server refused it.

Also: memory per room (the server's RSS at the end, every room connected and playing, minus its
RSS before the first room, divided by the rooms), the mean update frame size, error frames,
refusals (429s, closed sockets by close code) and dropped connections. ``--profile cprofile``
(CPU time of the server's event-loop thread) or ``--profile pyinstrument`` (wall time) profiles
the server during the windows; ``--profile py-spy`` samples every thread of it from outside,
a file a window, and prints each phase's cores by function (loadkit/samples.py); ``--profile-out
FILE`` keeps the profile. ``--server-arg`` passes
a flag on to ``yamen serve`` (``loadkit.servers.server_flags`` assembles them).

    python benchmarks/load.py --pace human --rooms 1000 --duration 300 --warmup 10 --runs 3
    python benchmarks/load.py --pace human --rooms 1000 --duration 300 --warmup 10 --abuse
    python benchmarks/load.py --pace human --rooms 1000 --duration 120 --warmup 10 \
        --abuse-each sync_flood,heavy_room,sign_ins,player_page
    python benchmarks/load.py --pace bot --rooms 100 --duration 30 --runs 1
    [--workers N] [--think S] [--game G] [--options JSON] [--compression none] [--json]
    [--db URL] [--timeout S] [--seed N] [--profile cprofile --profile-out FILE]

Bounded in count and time: at most 3,000 rooms and 600 s a window, and the whole run is stopped
after ``--timeout`` seconds (default: the schedule plus 15 minutes) whatever happens. A
database given by ``--db`` keeps the benchmark's rooms (unfinished games are resumed at the
server's next start): give it a scratch database.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from loadkit.abuse import KINDS
from loadkit.client import loads, raise_file_limit
from loadkit.measure import measure
from loadkit.report import report
from loadkit.samples import print_samples
from loadkit.servers import (
    db_url,
    pin_the_benchmark,
    profile_path,
    start_bare,
    start_yamen,
)
from loadkit.site import seed_games

MAX_ROOMS = 3000
MAX_DURATION = 600.0
MAX_RUNS = 10


def run_yamen(args: argparse.Namespace, tmp: Path) -> tuple[dict[str, Any], int]:
    seeded = None
    if "player_page" in args.abuse_each:  # its games are stored before the server starts
        seeded = seed_games(db_url(args, tmp), args.abuse_page_games, args.seed)
    server = start_yamen(args, tmp)
    try:
        with httpx.Client(base_url=server.url, trust_env=False, timeout=60) as http:
            http.get("/api/games").raise_for_status()  # imports the games before the base RSS
        figures = measure("yamen", server, args, seats_of(args), args.abused)
    except BaseException:
        server.stop()
        print("the server said:\n" + "".join(server.output[-40:]), file=sys.stderr)
        raise
    finally:
        server.stop()
    if args.profile:
        figures["profile"] = str(profile_path(args, tmp))
    if seeded is not None:
        figures["page_games_stored_s"] = round(seeded, 1)
    notes = [line.strip() for line in server.output if line.startswith("LOAD-NOTE")]
    for note in notes:  # an experiment's (LOAD_GC, LOAD_STALLS: loadkit/watched.py)
        print(note, file=sys.stderr)
    failures = [line.strip() for line in server.output if line.startswith("Traceback")]
    figures["server_tracebacks"] = len(failures)
    if failures:  # the line that names each exception: the first unindented one after it
        last = [line for line in server.output if line[:1].isalpha() and ":" in line]
        figures["server_last_error"] = last[-1].strip()[:200] if last else None
    return figures, seats_of(args)


def seats_of(args: argparse.Namespace) -> int:
    from yamen.engine import get_game

    return get_game(args.game, args.options).num_seats


def run_bare(
    args: argparse.Namespace, tmp: Path, samples: list[list[str]], seats: int
) -> dict[str, Any]:
    fallback = {"type": "update", "events": [], "table": {"legal": [], "view": "x" * 2000}}
    watching, acting = ([loads(s) for s in pool] or [fallback] for pool in samples)
    path = tmp / "bare-samples.json"
    path.write_text(json.dumps({"watching": watching, "acting": acting, "seats": seats}))
    server = start_bare(path, args.pin)
    try:
        return measure("bare", server, args, seats)
    except BaseException:
        server.stop()
        print("the bare server said:\n" + "".join(server.output[-40:]), file=sys.stderr)
        raise
    finally:
        server.stop()


def print_profile(path: str, kind: str) -> None:
    if kind == "pyinstrument":
        print(f"\nserver profile (pyinstrument, wall time of the event loop's thread): {path}")
        print(Path(path).read_text())
        return
    import pstats

    print("\nserver profile (cProfile, CPU time of the event loop's thread), by own time:")
    pstats.Stats(path).sort_stats("tottime").print_stats(25)
    print("by cumulative time:")
    pstats.Stats(path).sort_stats("cumulative").print_stats(40)


def parse(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--pace", choices=["human", "bot"], default="human")
    p.add_argument("--rooms", type=int, default=100)
    p.add_argument("--duration", type=float, default=300.0, help="seconds a measured window")
    p.add_argument("--runs", type=int, default=3, help="measured windows (each phase)")
    p.add_argument("--warmup", type=float, default=10.0, help="seconds played before measuring")
    p.add_argument("--think", type=float, default=2.0, help="human pace: mean seconds per action")
    p.add_argument("--game", default="baohuang")
    p.add_argument("--options", type=json.loads, default={}, help="the game's options, JSON")
    p.add_argument("--workers", type=int, default=0, help="generator processes (0: by size)")
    p.add_argument("--db", help="database URL (default: a temporary SQLite file)")
    p.add_argument(
        "--pin",
        action="store_true",
        help="the server on core 0 alone, the generators and abuse on the others (Linux)",
    )
    p.add_argument(
        "--spread",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="each room starts at a random moment of its first game, played to at set-up, "
        "so that games end at a steady rate (default: at human pace; loadkit/spread.py)",
    )
    p.add_argument(
        "--baseline",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="also measure the bare fan-out server (default: at bot pace without --abuse)",
    )
    p.add_argument(
        "--compression",
        choices=["deflate", "none"],
        default="deflate",
        help="WebSocket compression the clients offer (browsers offer deflate)",
    )
    abuse = p.add_argument_group("abuse (--abuse: measured again, the same run, with it)")
    abuse.add_argument("--abuse", action="store_true", help="add an abused phase")
    abuse.add_argument(
        "--interleave",
        action="store_true",
        help="phases take turns, a window each a round (not each phase's windows together)",
    )
    abuse.add_argument("--abuse-bot-rooms", type=int, default=2, help="rooms of 5 search bots")
    abuse.add_argument("--abuse-chat-connections", type=int, default=10)
    abuse.add_argument(
        "--abuse-chat-rate", type=float, default=50.0, help="chat frames/s a connection"
    )
    abuse.add_argument("--abuse-spectators", type=int, default=300, help="spectator sockets")
    abuse.add_argument("--abuse-dwell", type=float, default=2.0, help="a spectator's mean stay")
    abuse.add_argument(
        "--abuse-each",
        type=lambda text: [k for k in text.split(",") if k],
        default=[],
        help=f"a phase for each of these kinds alone: {','.join(KINDS)}",
    )
    abuse.add_argument("--abuse-long-deals", type=int, default=50, help="a long game's deals")
    abuse.add_argument("--abuse-sync-moves", type=int, default=6000, help="the long game's")
    abuse.add_argument("--abuse-sync-seats", type=int, default=4, help="its player's sockets")
    abuse.add_argument("--abuse-sync-rate", type=float, default=20.0, help="syncs/s a socket")
    abuse.add_argument("--abuse-sync-spectators", type=int, default=2)
    abuse.add_argument("--abuse-sync-spectator-rate", type=float, default=10.0)
    abuse.add_argument("--abuse-heavy-games", type=int, default=3, help="50-deal games")
    abuse.add_argument(
        "--abuse-heavy-every", type=float, default=8.0, help="seconds between two asks"
    )
    abuse.add_argument(
        "--abuse-heavy-idle", type=float, default=5.0, help="the server's idle_seconds then"
    )
    abuse.add_argument("--abuse-sign-ins", type=int, default=40, help="in flight at once")
    abuse.add_argument("--abuse-page-readers", type=int, default=4)
    abuse.add_argument("--abuse-page-games", type=int, default=10000, help="stored first")
    p.add_argument(
        "--server-arg",
        action="append",
        default=[],
        help="a flag for yamen serve (repeat; e.g. --server-arg=--some-limit=1000)",
    )
    p.add_argument("--profile", choices=["cprofile", "pyinstrument", "py-spy"])
    p.add_argument("--profile-out", help="where the server's profile goes")
    p.add_argument("--timeout", type=float, help="the whole run's bound, seconds")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = p.parse_args(argv)
    if not 1 <= args.rooms <= MAX_ROOMS:
        p.error(f"--rooms must be from 1 to {MAX_ROOMS}")
    if not 0 < args.duration <= MAX_DURATION:
        p.error(f"--duration must be above 0 and at most {MAX_DURATION:g} seconds")
    if not 1 <= args.runs <= MAX_RUNS:
        p.error(f"--runs must be from 1 to {MAX_RUNS}")
    if args.warmup < 0 or args.think <= 0:
        p.error("--warmup must be at least 0 and --think above 0")
    counts = (args.abuse_bot_rooms, args.abuse_chat_connections, args.abuse_spectators)
    if min(counts) < 0 or max(counts) > 5000 or args.abuse_chat_rate <= 0:
        p.error("--abuse-* counts must be from 0 to 5000 and --abuse-chat-rate above 0")
    if args.abuse_dwell <= 0:
        p.error("--abuse-dwell must be above 0")
    unknown = [k for k in args.abuse_each if k not in KINDS]
    if unknown:
        p.error(f"--abuse-each: no abuse kind {', '.join(unknown)} (kinds: {', '.join(KINDS)})")
    args.abused = args.abuse or bool(args.abuse_each)
    if args.baseline is None:
        args.baseline = args.pace == "bot" and not args.abused
    if args.spread is None:
        args.spread = args.pace == "human"
    if args.timeout is None:  # the schedule (twice with a baseline) and time to set up
        count = 1 + args.abuse + len(args.abuse_each)
        warmups = 1 + (count - 1) * (args.runs if args.interleave else 1)
        phases = warmups * args.warmup + count * args.runs * (args.duration * 1.01 + 2)
        args.timeout = phases * (2 if args.baseline else 1) + 900
    return args


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--watched"]:  # a server process of this benchmark
        from loadkit.watched import main as watched

        return watched(argv[1:])
    args = parse(argv)
    raise_file_limit()
    if args.pin:
        pin_the_benchmark()
    args.deadline = time.monotonic() + args.timeout
    timer = threading.Timer(args.timeout + 30, lambda: os._exit(3))  # the last resort
    timer.daemon = True
    timer.start()
    with tempfile.TemporaryDirectory(prefix="yamen-load-") as tmp:
        yamen, seats = run_yamen(args, Path(tmp))
        samples = yamen.pop("samples")
        result: dict[str, Any] = {
            "pace": args.pace,
            "think_s": args.think if args.pace == "human" else None,
            "game": args.game,
            "options": args.options,
            "compression": args.compression,
            "cores": os.cpu_count(),
            "yamen": yamen,
        }
        if args.baseline:
            bare = run_bare(args, Path(tmp), samples, seats)
            bare.pop("samples")
            result["bare"] = bare
            if bare["actions_per_s"]:
                result["ratio"] = round(yamen["actions_per_s"] / bare["actions_per_s"], 3)
            if yamen["actions_per_server_cpu_s"] and bare["actions_per_server_cpu_s"]:
                per_cpu = yamen["actions_per_server_cpu_s"] / bare["actions_per_server_cpu_s"]
                result["ratio_per_server_cpu"] = round(per_cpu, 3)
        if args.json:
            print(json.dumps(result, indent=2))
        else:
            pace = (
                f"human, one action per {args.think:g} s a room" if args.pace == "human" else "bot"
            )
            print(f"pace: {pace}; game {args.game} {args.options or ''}; {os.cpu_count()} cores")
            report(yamen)
            if "bare" in result:
                report(result["bare"])
                print(f"ratio yamen/bare actions per second: {result.get('ratio')}")
                print(
                    "ratio yamen/bare actions per CPU-second of the server (less sensitive to "
                    f"other work on the machine): {result.get('ratio_per_server_cpu')}"
                )
        if args.profile == "py-spy" and not args.json:
            print_samples(yamen["profile"], yamen["windows"], args.duration)
        elif args.profile and not args.json:
            print_profile(yamen["profile"], args.profile)


if __name__ == "__main__":
    main()
