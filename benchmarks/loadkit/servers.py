"""The server processes the benchmark starts, each on a free port of 127.0.0.1 and each inside
``loadkit.watched`` (run as ``load.py --watched ...``) so that it reports its own pauses.

``server_flags`` is the one place where the flags given to ``yamen serve`` are assembled: every
client of the benchmark comes from 127.0.0.1, so limits per address that the server offers must
be raised there (or with ``--server-arg``) for the measured rooms to be set up at all.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx

from loadkit.watched import REPORT, on_cores

LOAD_PY = Path(__file__).resolve().parent.parent / "load.py"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def server_flags(args: argparse.Namespace) -> list[str]:
    """Flags of ``yamen serve`` beyond its port and database. Every client of a load test comes
    from one address: no limits per address or player (``--limit all=off``); ``--server-arg``
    flags come after it, so ``--server-arg=--limit --server-arg=chat=10/10`` turns one back on
    (the abuse of ``--abuse`` then meets it)."""
    flags = ["--limit", "all=off"]
    if "heavy_room" in getattr(args, "abuse_each", []):  # the heavy room must be unloaded often
        flags += ["--limit", f"idle_seconds={args.abuse_heavy_idle:g}"]
    return [*flags, *args.server_arg]


def db_url(args: argparse.Namespace, tmp: Path) -> str:
    """The server's database: ``--db``, else a SQLite file in ``tmp``."""
    return args.db or f"sqlite:///{tmp / 'load.db'}"


SERVER_CORES = {0}  # --pin: the server's core; the benchmark's own processes get the others


def pin_the_benchmark() -> None:
    """``--pin``: this process, and the generators and abuse it starts after (they inherit it),
    on every core but the server's, so that the load and the server never take each other's
    core, as when the clients are other machines (Linux, at least two cores, taskset)."""
    cores = set(range(os.cpu_count() or 1)) - SERVER_CORES
    if not hasattr(os, "sched_setaffinity") or not cores or not shutil.which("taskset"):
        raise SystemExit("--pin needs Linux, at least two cores and taskset (util-linux)")
    os.sched_setaffinity(0, cores)


class Server:
    """A server process (on ``SERVER_CORES`` alone with ``pinned``, every thread it starts
    too); its output is drained (and kept) by a thread."""

    def __init__(self, args: list[str], port: int, ready: str | None, pinned: bool = False):
        self.port, self.url = port, f"http://127.0.0.1:{port}"
        self.output: list[str] = []
        self.proc = subprocess.Popen(
            on_cores(SERVER_CORES, args) if pinned else args,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        deadline = time.monotonic() + 120
        while ready is not None:
            line = self.proc.stdout.readline()
            self.output.append(line)
            if ready in line:
                break
            if not line or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start:\n" + "".join(self.output))
        self.drain = threading.Thread(target=self._drain, daemon=True)
        self.drain.start()
        while ready is None:  # no announcement: wait for the port
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError("the server did not start:\n" + "".join(self.output))
            time.sleep(0.05)
        self.reports_read = 0

    def _drain(self) -> None:
        for line in self.proc.stdout:
            self.output.append(line)

    def rss(self) -> int:
        """Resident set size in bytes (Linux: /proc)."""
        with open(f"/proc/{self.proc.pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        return 0

    def cpu(self) -> float:
        """CPU seconds used so far (user + system)."""
        with open(f"/proc/{self.proc.pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def window_begins(self) -> None:
        self.proc.send_signal(signal.SIGUSR1)

    def window_ends(self) -> None:
        self.proc.send_signal(signal.SIGUSR2)

    def pauses(self, wait: float = 10.0) -> dict[str, Any] | None:
        """The server's report of its pauses in the window that ended last (None: no report)."""
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            reports = [line for line in list(self.output) if line.startswith(REPORT)]
            if len(reports) > self.reports_read:
                self.reports_read += 1
                return json.loads(reports[self.reports_read - 1][len(REPORT) :])
            time.sleep(0.05)
        return None

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(30)


def machine_cpu() -> tuple[float, float, float]:
    """(busy, stolen, total) jiffies of the whole machine so far. Stolen: time a virtual
    machine's cores were ready to run and its host ran something else (counted as busy too);
    a window with much of it measured a slower machine than the others."""
    with open("/proc/stat") as f:
        values = [int(v) for v in f.readline().split()[1:]]
    idle = values[3] + values[4]
    stolen = values[7] if len(values) > 7 else 0
    return sum(values) - idle, stolen, sum(values)


def profile_path(args: argparse.Namespace, tmp: Path) -> Path:
    if args.profile_out:
        return Path(args.profile_out).resolve()
    return tmp / ("server.prof" if args.profile == "cprofile" else "server-profile.txt")


def start_yamen(args: argparse.Namespace, tmp: Path) -> Server:
    port = free_port()
    db = db_url(args, tmp)
    command = [sys.executable, str(LOAD_PY), "--watched"]
    if args.profile:
        command += ["--profile", args.profile, str(profile_path(args, tmp))]
    command += ["yamen", "serve", "--port", str(port), "--db", db, *server_flags(args)]
    return Server(command, port, "serving at http://", args.pin)


def start_bare(sample_path: Path, pinned: bool = False) -> Server:
    port = free_port()
    command = [sys.executable, str(LOAD_PY), "--watched", "bare", str(port), str(sample_path)]
    return Server(command, port, None, pinned)


@contextlib.asynccontextmanager
async def serving(db: str, *flags: str, seconds: float = 600) -> AsyncIterator[tuple[str, float]]:
    """``yamen serve`` (the ``yamen`` this Python imports) on a free port and ``db``, for a
    benchmark of its own: its URL and the seconds it took to answer (migrations included);
    stopped on the way out."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    command = [sys.executable, "-m", "yamen", "serve", "--port", str(port), "--db", db, *flags]
    begun = time.monotonic()
    server = subprocess.Popen(command, env=os.environ.copy(), stdout=subprocess.DEVNULL)
    try:
        async with httpx.AsyncClient(trust_env=False) as http:
            while True:
                if server.poll() is not None:
                    raise RuntimeError("the server stopped")
                if time.monotonic() > begun + seconds:
                    raise RuntimeError("the server did not start")
                with contextlib.suppress(httpx.TransportError):
                    if (await http.get(f"{url}/api/games")).status_code == 200:
                        break
                await asyncio.sleep(0.1)
        yield url, time.monotonic() - begun
    finally:
        server.terminate()
        server.wait(30)
