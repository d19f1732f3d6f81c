"""The figures as text: one line per window, the p99 of each run side by side, and what the
abuse did and what the server refused."""

from __future__ import annotations

import os
from typing import Any


def shown(ms: float | None) -> str:
    return "unanswered" if ms is None else f"{ms} ms"


def pauses_line(pauses: dict[str, Any]) -> str:
    """Each process: longest collection / full passes / longest loop lag."""
    parts = []
    for who, p in pauses.items():
        if p is None:
            parts.append(f"{who} (no report)")
            continue
        lag = "n/a" if p["loop_lag_max_ms"] is None else f"{p['loop_lag_max_ms']} ms"
        gc = f"GC {p['gc_max_ms']} ms x{p['gc_passes']} ({p['gc_full']} full)"
        if p.get("gc_max_cpu_ms"):
            gc += f" (CPU {p['gc_max_cpu_ms']} ms)"
        if p.get("gc_by_generation"):
            gens = ", ".join(f"gen{g} {n}x<={ms}" for g, (n, ms) in p["gc_by_generation"].items())
            gc += f" [{gens}]"
        if "gc_freed" in p:
            gc += f", {p['gc_freed']} freed, {p['gc_frozen']} frozen"
        after = ""
        if "garbage_after" in p:
            after = f", {p['garbage_after']} freed in {p['collect_after_ms']} ms after"
        parts.append(f"{who} {gc}, lag {lag}{after}")
    return "; ".join(parts)


def abuse_line(a: dict[str, Any]) -> str:
    bots = ""
    if a["bot_rooms"]:
        bots = f"{a['bot_rooms']} search-bot rooms at {a['bot_actions_per_s']} actions/s, "
    return (
        f"{' + '.join(a['kinds'])}: {bots}did {a['done'] or 'nothing'}, abuse CPU {a['cpu']}; "
        f"refused: {a['refused'] or 'nothing'}"
    )


def report(figures: dict[str, Any]) -> None:
    f = figures
    print(
        f"{f['server']}: {f['rooms']} rooms, {f['connections']} WebSockets, "
        f"{f['workers']} generator process(es); set up in {f['setup_s']} s; "
        f"{len(f['windows'])} window(s) of {f['window_s']:g} s"
    )
    if f["forwarded_actions"]:
        print(
            f"  spread: the rooms played {f['forwarded_actions']} actions at set-up, "
            f"{f['forwarded_actions'] / f['rooms']:.0f} a room, to random moments of their games"
        )
    if f["cores"] and f["cores"]["server"] != f["cores"]["benchmark"]:
        print(f"  cores: server {f['cores']['server']}, benchmark {f['cores']['benchmark']}")
    for w in f["windows"]:
        print(
            f"  {w['phase']} run {w['run']}: {w['actions_per_s']} actions/s, p50 "
            f"{shown(w['p50_ms'])}, p99 {shown(w['p99_ms'])}, max {shown(w['max_ms'])}, "
            f"unfinished {w['unfinished']}; CPU server {w['server_cpu']}, generators "
            f"{w['generators_cpu']}, machine {w['machine_busy']} of {os.cpu_count()}"
            f" ({w['machine_stolen']} stolen by its host)"
        )
        print(f"    pauses: {pauses_line(w['pauses'])}")
        if "abuse" in w:
            print(f"    abuse: {abuse_line(w['abuse'])}")
    for phase, p99s in f["p99_ms_by_run"].items():
        print(f"  p99 by run, {phase}: " + " | ".join(shown(v) for v in p99s))
    print(
        f"  clean windows together: {f['actions']} actions, {f['actions_per_s']} actions/s, "
        f"p50 {shown(f['p50_ms'])}, p99 {shown(f['p99_ms'])}, max {shown(f['max_ms'])}"
    )
    print(
        f"  unfinished acts {f['unfinished']}, games finished {f['games_finished']}, "
        f"update frame {f['update_frame_bytes']} B, error frames {f['errors'] or 0}, "
        f"dropped connections {f['dropped_connections']}, closed or refused sockets "
        f"{f['closed'] or 0}, lobby refusals "
        f"{f['lobby_refusals'] or 0}, lobby calls retried {f['lobby_retries']}"
    )
    print(
        f"  server RSS {f['rss_base_mib']} MiB before rooms, {f['rss_connected_mib']} MiB "
        f"connected, {f['rss_end_mib']} MiB playing: {f['memory_per_room_kib']} KiB per room"
    )
    print(
        f"  server CPU {f['server_cpu']} cores ({f['actions_per_server_cpu_s']} actions per "
        f"CPU-second), generators {f['generators_cpu']}"
    )
    if f.get("abuse_setup_refused"):
        print(f"  abuse refused while setting up: {f['abuse_setup_refused']}")
    if f.get("server_tracebacks"):
        print(f"  server tracebacks: {f['server_tracebacks']}, the last: {f['server_last_error']}")
