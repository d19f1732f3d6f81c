"""The README's first command: ``yamen serve`` with no flags starts on a SQLite file in the
current directory and prints the URL it serves."""

from __future__ import annotations

import subprocess
import sys

import httpx

from tests.server.helpers import free_port


def test_serve_uses_a_sqlite_file_here_and_prints_its_url(tmp_path):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "yamen", "serve", "--port", str(port)],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        assert line.strip() == f"Yamen is serving at http://localhost:{port}/"
        games = httpx.get(f"http://127.0.0.1:{port}/api/games").json()
        assert {g["game"] for g in games} == {"baohuang", "criminal_poker", "bao_qingtian"}
        assert (tmp_path / "yamen.db").exists()
    finally:
        proc.terminate()
        rest = proc.communicate(timeout=30)[0]
    assert "Traceback" not in rest  # SIGTERM shuts it down cleanly
