"""The server's py-spy samples (``--profile py-spy``), a file a window (loadkit/watched.py),
read back by phase: where each phase spent the server's CPU, in cores, and what an abused
phase spent more than the clean one. A sample is one thread's stack at one tick of py-spy's
``RATE``; a function's cores are its samples over the ticks of the phase's windows."""

from __future__ import annotations

import collections
import re
from pathlib import Path
from typing import Any

RATE = 100  # samples a second (loadkit/watched.py asks py-spy for this)
SHOWN = 25


def frame_name(frame: str) -> str:
    """``fn (path/to/module.py:12)`` -> ``fn (module.py)``: a function, all its lines together."""
    found = re.match(r"(.*) \((.*?)(?::\d+)?\)$", frame)
    if not found:
        return frame or "(native)"
    function, path = found.groups()
    return f"{function} ({Path(path).name})"


def read(path: Path) -> tuple[collections.Counter[str], collections.Counter[str]]:
    """(own, inclusive) samples by function of one py-spy ``--format raw`` file."""
    own: collections.Counter[str] = collections.Counter()
    inclusive: collections.Counter[str] = collections.Counter()
    # lines end at "\n" alone: a stack read without stopping the server (``--nonblocking``)
    # can be torn, its names holding any character, which splitlines() would split at
    for line in path.read_text(errors="replace").split("\n"):
        stack, _, count = line.rpartition(" ")
        if not stack:
            continue
        names = [frame_name(f) for f in stack.split(";")]
        own[names[-1]] += int(count)
        for name in set(names):
            inclusive[name] += int(count)
    return own, inclusive


def by_phase(out: str, windows: list[dict[str, Any]], seconds: float) -> dict[str, Any]:
    """Each phase's (own, inclusive) cores by function, its windows' samples together."""
    phases: dict[str, Any] = {}
    for i, window in enumerate(windows, 1):
        path = Path(f"{out}.{i}")
        if not path.exists():
            continue
        own, inclusive = read(path)
        got = phases.setdefault(window["phase"], [collections.Counter(), collections.Counter(), 0])
        got[0].update(own)
        got[1].update(inclusive)
        got[2] += seconds * RATE
    return {
        phase: tuple({k: v / ticks for k, v in c.items()} for c in (own, inclusive))
        for phase, (own, inclusive, ticks) in phases.items()
    }


def print_samples(out: str, windows: list[dict[str, Any]], seconds: float) -> None:
    phases = by_phase(out, windows, seconds)
    clean = phases.get("clean")
    for phase, (own, inclusive) in phases.items():
        print(f"\nserver samples (py-spy, every thread), {phase}: {sum(own.values()):.2f} cores")
        print("  own cores by function:")
        for name, cores in sorted(own.items(), key=lambda kv: -kv[1])[:SHOWN]:
            print(f"  {cores:7.3f}  {name}")
        if clean is None or phase == "clean":
            continue
        more = {k: v - clean[1].get(k, 0.0) for k, v in inclusive.items()}
        print("  inclusive cores more than clean (negative: less):")
        for name, cores in sorted(more.items(), key=lambda kv: -abs(kv[1]))[:SHOWN]:
            print(f"  {cores:+7.3f}  {name}")
