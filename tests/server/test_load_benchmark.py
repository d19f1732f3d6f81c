"""benchmarks/load.py runs end to end with tiny numbers and prints its figures. A test of the
script, not of speed: no figure is compared with a time."""

import asyncio
import gc
import json
import os
import random
import subprocess
import sys
import time

import httpx
import pytest

from tests.paths import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))

from loadkit import client, measure, pauses, samples, spread  # noqa: E402

FIGURES = (
    "actions",
    "actions_per_s",
    "p50_ms",
    "p99_ms",
    "memory_per_room_kib",
    "rss_base_mib",
    "rss_end_mib",
    "update_frame_bytes",
)
PAUSES = ("gc_max_ms", "gc_passes", "gc_full", "gc_total_ms", "loop_lag_max_ms")


def load(*args: str) -> dict:
    done = subprocess.run(
        [sys.executable, "benchmarks/load.py", "--rooms", "2", "--duration", "2", "--json"]
        + [*args, "--warmup", "1", "--timeout", "240"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    return json.loads(done.stdout)


def check(figures: dict, phases: dict[str, int]) -> None:
    """The report's shape; every window played; every process reported its pauses, and the
    generators made no collection inside a window (they defer them to the gaps)."""
    assert figures["rooms"] == 2 and figures["connections"] == 10
    for name in FIGURES:
        assert isinstance(figures[name], int | float), name
    assert figures["actions"] > 0  # the games moved: every seat was played by a client
    assert figures["errors"] == {} and figures["dropped_connections"] == 0
    assert figures["closed"] == {} and figures["lobby_refusals"] == {}
    assert {p: len(v) for p, v in figures["p99_ms_by_run"].items()} == phases
    windows = figures["windows"]
    assert [(w["phase"], w["run"]) for w in windows] == [
        (phase, run) for phase, n in phases.items() for run in range(1, n + 1)
    ]
    for w in windows:
        assert w["actions"] > 0, w
        assert set(w["pauses"]) == {"server"} | {
            f"generator {i}" for i in range(figures["workers"])
        }
        for who, p in w["pauses"].items():
            assert p is not None, who  # the server's report came back through its wrapper
            assert all(k in p for k in PAUSES), (who, p)
            if who != "server":
                assert p["collector"] == "deferred" and p["gc_passes"] == 0, (who, p)
                assert p["loop_lag_max_ms"] is not None


def test_bot_pace_measures_yamen_and_the_bare_fan_out():
    result = load("--pace", "bot", "--runs", "1")
    assert result["pace"] == "bot"
    check(result["yamen"], {"clean": 1})
    check(result["bare"], {"clean": 1})
    assert result["ratio"] > 0


@pytest.mark.skipif(
    not hasattr(os, "sched_setaffinity") or (os.cpu_count() or 1) < 2,
    reason="--pin needs Linux's CPU affinity and two cores",
)
def test_pin_gives_the_server_a_core_the_load_does_not_use():
    """``--pin``: yamen's server and the bare one each on core 0 alone, every generator on the
    others (read back from the processes themselves)."""
    result = load("--pace", "bot", "--runs", "1", "--pin")
    others = list(range(1, os.cpu_count()))
    for side in ("yamen", "bare"):
        check(result[side], {"clean": 1})
        assert result[side]["cores"] == {"server": [0], "benchmark": others}, side


def test_human_pace_runs_side_by_side():
    result = load("--pace", "human", "--think", "0.05", "--runs", "2")
    assert result["think_s"] == 0.05
    check(result["yamen"], {"clean": 2})
    assert result["yamen"]["forwarded_actions"] > 0  # the rooms began at random moments
    if hasattr(os, "sched_getaffinity"):  # not pinned: where this test may run, both sides
        mine = sorted(os.sched_getaffinity(0))
        assert result["yamen"]["cores"] == {"server": mine, "benchmark": mine}
    assert "bare" not in result and "ratio" not in result


def test_without_spread_every_room_starts_its_first_game_in_the_windows():
    result = load("--pace", "human", "--think", "0.05", "--runs", "1", "--no-spread")
    check(result["yamen"], {"clean": 1})
    assert result["yamen"]["forwarded_actions"] == 0


def test_a_room_starts_at_a_moment_that_falls_in_a_game_by_its_length():
    """A random moment of a site lands in a game in proportion to its length, at a uniform
    point of it: with games of 10 and 30 decisions, a point below 10 has the chance 20/40 (both
    games reach it), one from 10 to 29 the chance 10/40 (only the long one); none reaches 30."""
    points = spread.starting_points([10, 30], 40_000, random.Random(1))
    assert min(points) == 0 and max(points) == 29
    assert 0.48 < sum(p < 10 for p in points) / len(points) < 0.52
    assert spread.starting_points([10, 30], 50, random.Random(2)) == spread.starting_points(
        [10, 30], 50, random.Random(2)
    )


def test_game_lengths_are_whole_self_play_games_and_the_seed_gives_the_same():
    lengths = spread.game_lengths("baohuang", {"variant": "japanese"}, seed=3, games=3)
    assert len(lengths) == 3 and all(length > 50 for length in lengths)
    assert lengths == spread.game_lengths("baohuang", {"variant": "japanese"}, seed=3, games=3)


def test_abuse_is_measured_in_the_same_run():
    result = load(
        "--think",
        "0.05",
        "--runs",
        "1",
        "--abuse",
        "--abuse-bot-rooms",
        "1",
        "--abuse-chat-connections",
        "2",
        "--abuse-spectators",
        "5",
        "--abuse-dwell",
        "0.3",
    )
    check(result["yamen"], {"clean": 1, "abused": 1})
    clean, abused = result["yamen"]["windows"]
    assert "abuse" not in clean
    abuse = abused["abuse"]
    assert abuse["bot_rooms"] == 1
    assert abuse["chat_sent"] > 0 and abuse["spectator_joins"] > 0
    assert isinstance(abuse["refused"], dict)
    assert result["yamen"]["abuse_setup_refused"] == {}
    assert "bare" not in result  # the abuse would not be the same on the baseline


def test_each_abuse_kind_is_measured_alone():
    """The kinds whose work grows with a game, a match or the site, each in a phase of its
    own: each did its work (or was refused, counted) and nothing else ran beside it."""
    kinds = ["sync_flood", "heavy_room", "sign_ins", "player_page"]
    result = load(
        "--think",
        "0.05",
        "--runs",
        "1",
        "--abuse-each",
        ",".join(kinds),
        "--abuse-long-deals",
        "1",
        "--abuse-sync-moves",
        "40",
        "--abuse-sync-seats",
        "2",
        "--abuse-heavy-games",
        "2",
        "--abuse-heavy-every",
        "0.5",
        "--abuse-heavy-idle",
        "0.2",
        "--abuse-sign-ins",
        "2",
        "--abuse-page-games",
        "3",
    )
    figures = result["yamen"]
    check(figures, {"clean": 1, **{f"abused:{k}": 1 for k in kinds}})
    assert figures["abuse_setup_refused"] == {}
    sync, heavy, sign_ins, page = (w["abuse"] for w in figures["windows"][1:])
    assert [w["kinds"] for w in (sync, heavy, sign_ins, page)] == [[k] for k in kinds]
    assert sync["done"]["sync_answered_seat"] > 0 and sync["done"]["sync_answered_spectator"] > 0
    assert heavy["done"].get("heavy_outsider_404", 0) > 0  # a private room: not the outsider's
    assert heavy["done"].get("heavy_host_200", 0) > 0
    assert sign_ins["done"].get("sign_in_401", 0) + sign_ins["refused"].get("sign_in 429", 0) > 0
    assert page["done"].get("page_200", 0) > 0
    assert figures["page_games_stored_s"] >= 0


def test_a_lobby_refusal_is_waited_out_and_counted():
    """429 with Retry-After: the call waits and tries again; the refusal is reported."""
    answers = iter(
        [httpx.Response(429, headers={"Retry-After": "0"}), httpx.Response(200, json={})]
    )
    lobby = client.Lobby("http://x", 2)
    lobby.http = httpx.AsyncClient(
        base_url="http://x", transport=httpx.MockTransport(lambda _: next(answers))
    )
    assert asyncio.run(lobby.call("POST", "/api/guests", None, {})) == {}
    assert lobby.refusals == {"http 429": 1}


def test_schedule_puts_each_abused_phase_after_the_last():
    args = type("Args", (), {"warmup": 5.0, "runs": 3, "duration": 10.0, "interleave": False})()
    args.abuse, args.abuse_each = True, ["sign_ins"]
    plan = measure.schedule(args, 100.0, measure.phases(args))
    windows = plan["windows"]
    names = ["clean"] * 3 + ["abused"] * 3 + ["abused:sign_ins"] * 3
    assert [w["phase"] for w in windows] == names
    assert windows[0]["start"] == 105.0
    for a, b in zip(windows, windows[1:], strict=False):
        assert a["end"] < b["start"]  # a gap for the last updates and the deferred garbage
    crowds, alone = plan["phases"]
    assert crowds["kinds"] == ["bot_rooms", "chat", "spectators"] and alone["kinds"] == ["sign_ins"]
    for phase, first in ((crowds, 3), (alone, 6)):
        assert windows[first - 1]["end"] < phase["start"] < windows[first]["start"]
        assert windows[first]["start"] - phase["start"] == 5.0  # the abuse has its warm-up
        assert phase["windows"] == [(w["start"], w["end"]) for w in windows[first : first + 3]]
    assert plan["stop"] > windows[-1]["end"]


def test_pauses_count_full_collections_in_their_window():
    watch = pauses.Pauses()
    watch.watch_gc()
    try:
        began = time.monotonic()
        gc.collect()
        inside = watch.summary(began, time.monotonic() + 1)
        later = watch.summary(time.monotonic() + 1, time.monotonic() + 2)
    finally:
        gc.callbacks.remove(watch._on_gc)
    assert inside["gc_full"] >= 1 and inside["gc_passes"] >= 1
    assert later["gc_passes"] == 0


def test_a_quiet_process_collects_only_when_it_settles():
    watch = pauses.Pauses()
    try:
        watch.quiet()
        assert not gc.isenabled() and gc.get_freeze_count() > 0
        gc.unfreeze()
        watch.settle()  # between windows: collected, then frozen again
        assert len(watch.deferred) == 1 and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()


def test_refused_sockets_are_named_by_status_or_close_code():
    from websockets.exceptions import ConnectionClosedError, InvalidStatus
    from websockets.frames import Close
    from websockets.http11 import Response

    refused = InvalidStatus(Response(429, "Too Many Requests", {}, b""))
    assert client.refusal_of(refused) == "handshake 429"
    closed = ConnectionClosedError(Close(1008, "too many"), None)
    assert client.refusal_of(closed) == "closed 1008"
    assert client.refusal_of(OSError()) == "OSError"


def test_interleaved_phases_take_turns_each_abused_window_after_its_warm_up():
    args = type("Args", (), {"warmup": 5.0, "runs": 2, "duration": 10.0, "interleave": True})()
    args.abuse, args.abuse_each = False, ["sign_ins", "player_page"]
    plan = measure.schedule(args, 100.0, measure.phases(args))
    windows = plan["windows"]
    names = ["clean", "abused:sign_ins", "abused:player_page"] * 2
    assert [w["phase"] for w in windows] == names
    assert [w["run"] for w in windows] == [1, 1, 1, 2, 2, 2]
    stretches = plan["phases"]
    assert [s["name"] for s in stretches] == names[1:3] * 2
    abused = [w for w in windows if w["phase"] != "clean"]
    for stretch, window in zip(stretches, abused, strict=True):
        assert stretch["windows"] == [(window["start"], window["end"])]
        assert window["start"] - stretch["start"] == 5.0  # the abuse has its warm-up each time
    for a, b in zip(windows, windows[1:], strict=False):
        assert a["end"] < b["start"]


def test_py_spy_samples_are_read_by_phase_in_cores(tmp_path):
    """Window i's file is OUT.i; a phase's windows pool; a function's own and inclusive samples
    over its phase's ticks are its cores; a missing window's file is passed by."""
    out = tmp_path / "server"
    stack = "run (/x/asyncio/base_events.py:10);act (/x/yamen/server/rooms.py:{})"
    (out.parent / "server.1").write_text(f"{stack.format(5)} 150\n{stack.format(9)} 50\n")
    native = "run (/x/asyncio/base_events.py:12);(native)\x00\x0c"  # a torn read's name
    (out.parent / "server.2").write_text(f"{stack.format(5)} 300\n{native} 100\n")
    windows = [{"phase": "clean"}, {"phase": "abused:sign_ins"}, {"phase": "clean"}]
    phases = samples.by_phase(str(out), windows, seconds=2.0)  # 200 ticks a window
    clean_own, clean_inclusive = phases["clean"]
    assert clean_own == {"act (rooms.py)": 1.0}  # both lines of act: one function
    assert clean_inclusive == {"act (rooms.py)": 1.0, "run (base_events.py)": 1.0}
    abused_own, abused_inclusive = phases["abused:sign_ins"]
    assert abused_own == {"act (rooms.py)": 1.5, "(native)\x00\x0c": 0.5}
    assert abused_inclusive["run (base_events.py)"] == 2.0
