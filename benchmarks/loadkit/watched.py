"""A server process that reports its own pauses, window by window: the wrapper the benchmark
runs ``yamen serve`` (or the bare fan-out server) in. Not part of the ``yamen`` package: the
server itself is untouched; only callbacks are added around it.

The benchmark signals each measured window: SIGUSR1 when it begins, SIGUSR2 when it ends. At
each end this process prints one line, ``REPORT`` and a JSON object (``Pauses.summary`` of the
window), which the benchmark reads from its output. With a profiler, the profiler runs inside
the windows only, and its profile is written when SIGTERM stops the server. ``py-spy`` samples
the process from outside (its cost lands on another core, not the event loop) into one file a
window, ``OUT.1``, ``OUT.2``..., so a clean window and an abused one can be set side by side.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from loadkit.pauses import Pauses

REPORT = "LOAD-WINDOW-PAUSES "


def profiler(kind: str | None, out: str | None) -> tuple[Callable, Callable, Callable]:
    """(begin, end, write) of the chosen profiler; nothing at all without one."""
    if kind is None:
        return (lambda: None), (lambda: None), (lambda: None)
    if kind == "cprofile":
        import cProfile

        prof = cProfile.Profile(time.thread_time)  # CPU time of the event loop's thread
        return prof.enable, prof.disable, lambda: prof.dump_stats(out)
    if kind == "py-spy":
        return sampler(out)
    from pyinstrument import Profiler

    wall = Profiler(interval=0.001, async_mode="disabled")
    return (
        wall.start,
        wall.stop,
        lambda: Path(out).write_text(wall.output_text(unicode=False, show_all=False)),
    )


def sampler(out: str) -> tuple[Callable, Callable, Callable]:
    """py-spy recording this process (every thread, idle ones left out) from each window's begin
    to its end, as collapsed stacks with counts (``--format raw``), a file a window."""
    running: list[subprocess.Popen] = []
    beside = Path(sys.executable).with_name("py-spy")  # the benchmark's environment's own
    spy = str(beside) if beside.exists() else "py-spy"

    def begin() -> None:
        command = [spy, "record", "--pid", str(os.getpid()), "--rate", "100"]
        path = f"{out}.{len(running) + 1}"
        command += ["--nonblocking", "--format", "raw", "--output", path]
        running.append(subprocess.Popen(elsewhere(command), stdout=subprocess.DEVNULL))

    def end() -> None:
        running[-1].send_signal(signal.SIGINT)  # py-spy writes its file when interrupted
        running[-1].wait()

    return begin, end, lambda: None


def on_cores(cores: set[int], command: list[str]) -> list[str]:
    """``command`` started on ``cores`` alone, with every thread it makes (taskset sets them
    before the program runs: no thread of it, and none of this process, is ever elsewhere)."""
    return ["taskset", "--cpu-list", ",".join(map(str, sorted(cores))), *command]


def elsewhere(command: list[str]) -> list[str]:
    """A helper of the server's (its sampler) started off the server's cores where it is pinned
    (load.py --pin) and others are free, so that it does not take the server's core."""
    if not hasattr(os, "sched_getaffinity"):
        return command
    others = set(range(os.cpu_count() or 1)) - os.sched_getaffinity(0)
    return on_cores(others, command) if others else command


def run(serve: Callable[[], Any], kind: str | None = None, out: str | None = None) -> None:
    """Run ``serve()`` (blocking) with the window signals handled. (uvicorn raises SIGTERM again
    once it has shut down: the handler here turns that into a normal exit.)"""
    pauses = Pauses()
    pauses.watch_gc()
    begin, end, write = profiler(kind, out)
    window = {"start": 0.0, "watching": False}

    def started(*_: Any) -> None:
        # The handler runs on the main thread, inside the server's event loop: watch that loop.
        loop = asyncio._get_running_loop()
        if loop is not None and not window["watching"]:
            window["watching"] = True
            pauses.watch_loop(loop)
            if os.environ.get("LOAD_STALLS"):
                window["stalls"] = stalls_of(loop, float(os.environ["LOAD_STALLS"]))
        window["start"] = time.monotonic()
        begin()

    def ended(*_: Any) -> None:
        end()
        summary = pauses.summary(window["start"], time.monotonic())
        print(REPORT + json.dumps(summary), flush=True)
        if "stalls" in window:  # an experiment: where the loop was when it stalled
            for n, stack in window["stalls"].most_common(8):
                print(f"LOAD-NOTE stalled x{n}: {stack}", flush=True)
            window["stalls"].clear()

    def finish(*_: Any) -> None:
        if os.environ.get("LOAD_GC"):  # an experiment: what a full pass finds at the end
            import collections
            import gc

            from yamen.server import collector

            began = time.perf_counter()
            gc.set_debug(gc.DEBUG_SAVEALL)  # what was unreachable, kept to be named
            found = collector.full_pass()  # the server's own: what a load froze too
            took = (time.perf_counter() - began) * 1000
            kinds = collections.Counter(type(o).__qualname__ for o in gc.garbage).most_common(25)
            print(
                f"LOAD-NOTE full pass at the end: {found} unreachable, {took:.0f} ms: {kinds}",
                flush=True,
            )
        raise SystemExit(0)

    signal.signal(signal.SIGUSR1, started)
    signal.signal(signal.SIGUSR2, ended)
    signal.signal(signal.SIGTERM, finish)
    with contextlib.suppress(SystemExit):
        serve()
    write()


def stalls_of(loop: asyncio.AbstractEventLoop, seconds: float) -> Any:
    """``LOAD_STALLS=S`` (an experiment): a thread that looks at the event loop's thread every
    10 ms and, when the loop has not ticked for ``S`` seconds, counts where that thread is (its
    innermost frames): a profile of the stalls alone."""
    import collections
    import sys
    import threading
    import traceback

    main = threading.main_thread().ident
    ticked = [time.monotonic()]
    stacks: collections.Counter[str] = collections.Counter()

    def tick() -> None:
        ticked[0] = time.monotonic()
        loop.call_later(0.005, tick)

    def look() -> None:
        while True:
            time.sleep(0.01)
            if time.monotonic() - ticked[0] > seconds:
                frame = sys._current_frames().get(main)
                if frame is not None:
                    last = traceback.extract_stack(frame)[-10:]
                    where = " < ".join(
                        f"{f.filename.split('/')[-1]}:{f.lineno} {f.name}" for f in reversed(last)
                    )
                    stacks[where] += 1

    loop.call_soon_threadsafe(tick)
    threading.Thread(target=look, daemon=True).start()
    return stacks


def main(argv: list[str]) -> None:
    """``[--profile KIND OUT] yamen ARGS...`` or ``bare PORT SAMPLES``."""
    kind = out = None
    if argv[:1] == ["--profile"]:
        kind, out, argv = argv[1], argv[2], argv[3:]
    if argv[0] == "bare":
        from loadkit.bare import serve_bare

        return run(lambda: serve_bare(int(argv[1]), argv[2]))
    from yamen.cli import app

    collector_for_experiments(os.environ.get("LOAD_GC"))
    run(lambda: app(argv[1:]), kind, out)


def collector_for_experiments(spec: str | None) -> None:
    """``LOAD_GC`` in the environment replaces the server's collector policy, to compare
    policies in one benchmark (not a server option): ``legacy`` (the thresholds the server
    had before yamen/server/collector.py: 50,000, 20, 100, no clock) or
    ``young=S,middle=S,full=S|none,threshold=N``."""
    if not spec:
        return
    import gc

    from yamen.server import collector

    if spec == "legacy":

        def legacy(policy: Any = None) -> None:
            gc.freeze()
            gc.set_threshold(50_000, 20, 100)

        async def idle(policy: Any = None) -> None:
            await asyncio.Event().wait()

        collector.tune, collector.clock = legacy, idle
        return
    parts = dict(part.split("=") for part in spec.split(","))
    full = parts.get("full", "600")
    collector.DEFAULT = collector.Policy(
        young_every=float(parts.get("young", 0.1)),
        middle_every=float(parts.get("middle", 2.0)),
        full_every=None if full == "none" else float(full),
        young_threshold=int(parts.get("threshold", 50_000)),
    )
