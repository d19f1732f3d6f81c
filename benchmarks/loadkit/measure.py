"""One measured run against one server: the generators set up the rooms, then every process
follows one schedule of windows, and the figures of each window are gathered.

The schedule: a warm-up, then ``runs`` windows of ``duration`` seconds (phase ``clean``); then
each abused phase in turn (``--abuse``: ``abused``, the three crowds together; ``--abuse-each``:
``abused:KIND``, one kind alone): its abuse starts, gets a warm-up of its own, ``runs`` windows
follow, and it stops before the next phase starts. With ``--interleave``, the phases take turns
instead, a window each a round (each abused window after a warm-up of its abuse). So the other
rooms' latency with and without each abuse comes from the same server, rooms and run. Windows
are a gap apart: a second for the window's last updates, then one (plus 1% of the window) in
which the generators collect the garbage they deferred.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing as mp
import os
import queue
import random
import time
from typing import Any

from loadkit.abuse import LEGACY, abuse_main
from loadkit.generator import GRACE, generator_main
from loadkit.servers import Server, machine_cpu
from loadkit.spread import game_lengths, starting_points


def settle(duration: float) -> float:
    """Seconds after a window's grace for the generators' deferred collections (a longer
    window leaves more garbage)."""
    return 1.0 + duration / 100


def percentile(values: list[float], p: float) -> float | None:
    """Nearest-rank percentile of sorted ``values``."""
    if not values:
        return None
    return values[min(len(values) - 1, max(0, math.ceil(p / 100 * len(values)) - 1))]


def phases(args: argparse.Namespace) -> list[tuple[str, list[str]]]:
    """Each phase's name and the abuse kinds it runs: the clean one first; ``--abuse`` adds
    one of the three crowds together, ``--abuse-each`` one of each kind it names alone."""
    found = [("clean", [])]
    if args.abuse:
        found.append(("abused", list(LEGACY)))
    found += [(f"abused:{kind}", [kind]) for kind in args.abuse_each]
    return found


def schedule(args: argparse.Namespace, go: float, plan: list[tuple[str, list[str]]]) -> dict:
    """Every window (phase, run, start, end); each stretch of abuse (its phase's name and kinds,
    when it starts and its windows: it gets a warm-up of its own); when all stop.

    Phase after phase (``runs`` windows each), or, with ``args.interleave``, round after round
    (a window of each phase a round): the rooms of a run move through their deals together,
    and a Baohuang view, the heap and the server's CPU grow through a deal, so the phases
    measured last would meet later deals than the clean ones; in rounds, the phases meet the
    run's stages side by side."""
    windows, abused, t = [], [], go + args.warmup
    runs = range(1, args.runs + 1)
    if args.interleave:
        order = [(phase, kinds, run) for run in runs for phase, kinds in plan]
    else:
        order = [(phase, kinds, run) for phase, kinds in plan for run in runs]
    previous = None
    for phase, kinds, run in order:
        if kinds and phase != previous:  # an abuse starts (and runs on through its phase)
            abused.append({"name": phase, "kinds": kinds, "start": t, "windows": []})
            t += args.warmup
        windows.append({"phase": phase, "run": run, "start": t, "end": t + args.duration})
        if kinds:
            abused[-1]["windows"].append((t, t + args.duration))
        t += args.duration + GRACE + settle(args.duration)
        previous = phase
    return {"go": go, "windows": windows, "phases": abused, "stop": t - settle(args.duration)}


def starts(args: argparse.Namespace, kind: str) -> list[int]:
    """How many actions of its first game each room plays before the windows: a random
    moment of a site that has been playing (loadkit/spread.py; ``--spread``, at human pace by
    default), or none."""
    if kind != "yamen" or not args.spread:
        return [0] * args.rooms
    lengths = game_lengths(args.game, args.options, args.seed)
    return starting_points(lengths, args.rooms, random.Random(args.seed))


def spawn(
    args: argparse.Namespace,
    kind: str,
    server: Server,
    seats: int,
    kinds: set[str],
    skips: list[int],
) -> Any:
    """The generator processes (all connections of a room in one) and the abuse process."""
    workers = args.workers or max(1, min(4, math.ceil(args.rooms * seats / 2500)))
    workers = min(workers, args.rooms)
    ctx = mp.get_context("spawn")
    outbox = ctx.Queue()
    procs: dict[Any, tuple[Any, Any]] = {}  # worker -> (process, inbox)
    first = 0
    for w in range(workers):
        rooms = args.rooms // workers + (w < args.rooms % workers)
        spec = {
            "kind": kind,
            "url": server.url,
            "worker": w,
            "workers": workers,
            "first": first,
            "rooms": rooms,
            "skips": skips[first : first + rooms],
            "seats": seats,
            "think": args.think if args.pace == "human" else None,
            "game": args.game,
            "options": args.options,
            "compression": args.compression,
            "seed": args.seed * 1000 + w,
        }
        first += rooms
        inbox = ctx.Queue()
        procs[w] = (ctx.Process(target=generator_main, args=(spec, inbox, outbox)), inbox)
    if kinds:
        spec = {
            "url": server.url,
            "kinds": sorted(kinds),
            "bot_rooms": args.abuse_bot_rooms,
            "chat_connections": args.abuse_chat_connections,
            "chat_rate": args.abuse_chat_rate,
            "spectators": args.abuse_spectators,
            "dwell": args.abuse_dwell,
            "long_deals": args.abuse_long_deals,
            "sync_moves": args.abuse_sync_moves,
            "sync_seats": args.abuse_sync_seats,
            "sync_rate": args.abuse_sync_rate,
            "sync_spectators": args.abuse_sync_spectators,
            "sync_spectator_rate": args.abuse_sync_spectator_rate,
            "heavy_games": args.abuse_heavy_games,
            "heavy_every": args.abuse_heavy_every,
            "sign_ins": args.abuse_sign_ins,
            "page_readers": args.abuse_page_readers,
            "seed": args.seed * 1000 + 999,
        }
        inbox = ctx.Queue()
        procs["abuse"] = (ctx.Process(target=abuse_main, args=(spec, inbox, outbox)), inbox)
    for proc, _ in procs.values():
        proc.daemon = True
        proc.start()
    return workers, procs, outbox


def cores_of(server: Server, procs: dict[Any, tuple[Any, Any]]) -> dict[str, list[int]] | None:
    """The cores the server and the benchmark's processes may run on (``--pin``), read from
    the processes themselves; None where the system cannot say."""
    if not hasattr(os, "sched_getaffinity"):
        return None
    benchmark = set().union(*(os.sched_getaffinity(p.pid) for p, _ in procs.values()))
    return {"server": sorted(os.sched_getaffinity(server.proc.pid)), "benchmark": sorted(benchmark)}


def collect(outbox: Any, procs: dict[Any, Any], kind: str, deadline: float) -> dict[Any, Any]:
    """Every process's ``kind`` report; an error when one fails, dies or is late."""
    answers: dict[Any, Any] = {}
    dead_since = None
    while len(answers) < len(procs):
        try:
            what, worker, data = outbox.get(timeout=1)
        except queue.Empty:
            if time.monotonic() > deadline:
                raise TimeoutError(f"generators did not report {kind!r} in time") from None
            if any(not p.is_alive() for w, (p, _) in procs.items() if w not in answers):
                dead_since = dead_since or time.monotonic()
                if time.monotonic() - dead_since > 5:  # its last words have had time to come
                    raise RuntimeError("a generator process died") from None
            continue
        if what == "failed":
            raise RuntimeError(f"generator {worker} failed:\n{data}")
        if what == kind:
            answers[worker] = data
    return answers


def sleep_until(when: float) -> None:
    time.sleep(max(0.0, when - time.monotonic()))


def measure(
    kind: str, server: Server, args: argparse.Namespace, seats: int, abuse: bool = False
) -> dict[str, Any]:
    """Set up the rooms on ``server``, play the schedule, and gather the figures; ``abuse``:
    with the abused phases of ``args`` (:func:`phases`)."""
    rss_base = server.rss()
    plan_phases = phases(args) if abuse else [("clean", [])]
    kinds = {kind for _, ks in plan_phases for kind in ks}
    skips = starts(args, kind)
    workers, procs, outbox = spawn(args, kind, server, seats, kinds, skips)
    try:
        setup_began = time.monotonic()
        collect(outbox, procs, "ready", args.deadline)
        setup_seconds = time.monotonic() - setup_began
        cores = cores_of(server, procs)
        rss_connected = server.rss()
        plan = schedule(args, time.monotonic() + 0.2, plan_phases)
        spans = [(w["start"], w["end"]) for w in plan["windows"]]
        for worker, (_, inbox) in procs.items():
            if worker == "abuse":
                inbox.put({"phases": plan["phases"], "stop": plan["stop"]})
            else:
                inbox.put({"go": plan["go"], "windows": spans, "stop": plan["stop"]})
        for window in plan["windows"]:
            sleep_until(window["start"])
            cpu0, machine0 = server.cpu(), machine_cpu()
            server.window_begins()
            sleep_until(window["end"])
            server.window_ends()
            cpu1, machine1 = server.cpu(), machine_cpu()
            busy, stolen, total = (b - a for a, b in zip(machine0, machine1, strict=True))
            window["server_cpu_s"] = cpu1 - cpu0
            window["machine_busy"] = round(busy / max(1, total) * os.cpu_count(), 2)
            window["machine_stolen"] = round(stolen / max(1, total) * os.cpu_count(), 2)
        rss_end = server.rss()
        answers = collect(outbox, procs, "result", args.deadline)
    finally:
        for proc, _ in procs.values():
            proc.join(15)
            if proc.is_alive():
                proc.terminate()
    abuse_report = answers.pop("abuse", None)
    gens = [answers[w] for w in sorted(answers)]
    windows = [
        window_figures(i, w, gens, server.pauses(), args.duration)
        for i, w in enumerate(plan["windows"])
    ]
    if abuse_report is not None:
        abused = [w for w in windows if w["phase"] != "clean"]
        for window, figures in zip(abused, abuse_report["windows"], strict=True):
            window["abuse"] = figures
    setup_refused = None if abuse_report is None else abuse_report["setup_refused"]
    updates = sum(g["updates"] for g in gens)
    clean = [w for w in windows if w["phase"] == "clean"]
    pooled = sorted(lat for w in clean for lat in w.pop("_latencies"))
    for w in windows:
        w.pop("_latencies", None)
    unfinished = sum(w["unfinished"] for w in clean)
    seconds = args.duration * len(clean)
    server_cpu = sum(w["server_cpu_s"] for w in clean)
    return {
        "server": kind,
        "rooms": args.rooms,
        "connections": args.rooms * seats,
        "workers": workers,
        "setup_s": round(setup_seconds, 1),
        # played at set-up, to the rooms' starting points (fewer than drawn where a game ended)
        "forwarded_actions": sum(g["forwarded"] for g in gens),
        "cores": cores,  # where each side may run: {"server": [0], "benchmark": [1]} with --pin
        "window_s": args.duration,
        "runs": args.runs,
        # the clean windows together
        "actions": len(pooled),
        "actions_per_s": round(len(pooled) / seconds, 1),
        "unfinished": unfinished,  # acts in a window still unanswered a second after it
        **dict(zip(("p50_ms", "p99_ms", "max_ms"), latency_ms(pooled, unfinished), strict=True)),
        "p99_ms_by_run": {
            phase: [w["p99_ms"] for w in windows if w["phase"] == phase]
            for phase in dict.fromkeys(w["phase"] for w in windows)
        },
        "windows": windows,
        "games_finished": sum(g["games"] for g in gens),
        "update_frame_bytes": round(sum(g["update_bytes"] for g in gens) / updates)
        if updates
        else None,
        "errors": merged(g["errors"] for g in gens),  # error frames by code (rate_limited...)
        "dropped_connections": sum(g["dropped"] for g in gens),
        "closed": merged(g["closed"] for g in gens),  # closed or refused sockets by code
        "lobby_refusals": merged(g["refusals"] for g in gens),  # e.g. "http 429"
        "lobby_retries": sum(g["retries"] for g in gens),
        "abuse_setup_refused": setup_refused,  # what the abuse could not set up (None: no abuse)
        "rss_base_mib": round(rss_base / 2**20, 1),
        "rss_connected_mib": round(rss_connected / 2**20, 1),
        "rss_end_mib": round(rss_end / 2**20, 1),
        "memory_per_room_kib": round((rss_end - rss_base) / args.rooms / 1024, 1),
        "server_cpu": round(server_cpu / seconds, 2),  # 1.0: one core
        "actions_per_server_cpu_s": round(len(pooled) / server_cpu) if server_cpu > 0 else None,
        "generators_cpu": round(sum(w["generators_cpu"] for w in clean) / len(clean), 2),
        "samples": [[s for g in gens for s in g["samples"][i]] for i in (0, 1)],
    }


def window_figures(
    i: int, window: dict[str, Any], gens: list[dict[str, Any]], server_pauses: Any, seconds: float
) -> dict[str, Any]:
    """One window's latencies, actions, CPU and every process's pauses."""
    mine = [g["windows"][i] for g in gens]
    latencies = sorted(lat for m in mine for lat in m["latencies"])
    unfinished = sum(m["sent"] for m in mine) - len(latencies)
    p50, p99, top = latency_ms(latencies, unfinished)
    cpu = window["server_cpu_s"]
    pauses = {"server": server_pauses}
    for n, m in enumerate(mine):
        pauses[f"generator {n}"] = {
            **m["pauses"],
            "collector": m["collector"],  # "deferred": no collection inside the window
            # its collection after the window (in the gap): objects freed, and how long
            "garbage_after": m["settled"][0],
            "collect_after_ms": round(m["settled"][1] * 1000, 1),
        }
    return {
        "phase": window["phase"],
        "run": window["run"],
        "actions": len(latencies),
        "actions_per_s": round(len(latencies) / seconds, 1),
        "unfinished": unfinished,
        "p50_ms": p50,
        "p99_ms": p99,
        "max_ms": top,
        "server_cpu": round(cpu / seconds, 2),
        "server_cpu_s": round(cpu, 3),
        "actions_per_server_cpu_s": round(len(latencies) / cpu) if cpu > 0 else None,
        "generators_cpu": round(sum(m["cpu"] for m in mine) / seconds, 2),
        "machine_busy": window["machine_busy"],
        "machine_stolen": window["machine_stolen"],
        "pauses": pauses,
        "_latencies": latencies,
    }


def latency_ms(latencies: list[float], unfinished: int) -> list[float | None]:
    """p50, p99 and max in ms; acts unanswered by the end count as longer than any (None)."""
    timed = latencies + [math.inf] * unfinished
    return [
        None if v is None or v == math.inf else round(v * 1000, 2)
        for v in (percentile(timed, 50), percentile(timed, 99), timed[-1] if timed else None)
    ]


def merged(counters: Any) -> dict[str, int]:
    total: dict[str, int] = {}
    for counter in counters:
        for key, n in counter.items():
            total[key] = total.get(key, 0) + n
    return total
