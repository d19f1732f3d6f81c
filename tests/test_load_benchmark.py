"""benchmarks/load.py runs end to end with tiny numbers and prints its figures. A test of the
script, not of speed: no figure is compared with a time."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
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


def check(figures: dict) -> None:
    assert figures["rooms"] == 2 and figures["connections"] == 10
    for name in FIGURES:
        assert isinstance(figures[name], int | float), name
    assert figures["actions"] > 0  # the games moved: every seat was played by a client
    assert figures["errors"] == {} and figures["dropped_connections"] == 0


def test_bot_pace_measures_yamen_and_the_bare_fan_out():
    result = load("--pace", "bot")
    assert result["pace"] == "bot"
    check(result["yamen"])
    check(result["bare"])
    assert result["ratio"] > 0


def test_human_pace_without_baseline():
    result = load("--pace", "human", "--think", "0.05")
    assert result["think_s"] == 0.05
    check(result["yamen"])
    assert "bare" not in result and "ratio" not in result
