"""``yamen serve``: the README's first command starts on a SQLite file in the current directory
and prints every URL friends can use; a busy port is one clear line; the log level is honoured;
the API docs at /docs load nothing from the internet."""

from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from tests.server.helpers import ServerThread, free_port
from yamen.server.addresses import banner, machine_addresses, reachable


def start(tmp_path: Path, *flags: str) -> subprocess.Popen:
    """``yamen serve`` in ``tmp_path``, its log in ``tmp_path/log`` (a pipe nobody reads could
    fill up)."""
    log = (tmp_path / "log").open("w")
    return subprocess.Popen(
        [sys.executable, "-m", "yamen", "serve", *flags],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
    )


def stop(proc: subprocess.Popen, tmp_path: Path) -> tuple[str, str]:
    """Stop it (SIGTERM, as a service manager does); what it printed after, and its log."""
    proc.terminate()
    rest = proc.communicate(timeout=30)[0]
    return rest, (tmp_path / "log").read_text()


def test_serve_uses_a_sqlite_file_here_and_prints_its_url(tmp_path):
    port = free_port()
    proc = start(tmp_path, "--port", str(port), "--log-level", "info")
    try:
        assert proc.stdout.readline().strip() == f"Yamen is serving at http://localhost:{port}/"
        hint = proc.stdout.readline()
        assert "only this machine" in hint and "--host 0.0.0.0" in hint
        games = httpx.get(f"http://127.0.0.1:{port}/api/games").json()
        assert {g["game"] for g in games} == {"baohuang", "criminal_poker", "bao_qingtian"}
        assert (tmp_path / "yamen.db").exists()
    finally:
        rest, log = stop(proc, tmp_path)
    assert "Traceback" not in rest + log  # SIGTERM shuts it down cleanly
    # the access log (from info on): one line a request, on stderr, not stdout
    assert '"GET /api/games HTTP/1.1" 200' in log and "GET" not in rest


def test_the_log_level_is_honoured(tmp_path):
    port = free_port()
    proc = start(tmp_path, "--port", str(port), "--log-format", "json")  # warning: the default
    try:
        proc.stdout.readline()
        assert httpx.get(f"http://127.0.0.1:{port}/api/games").status_code == 200
        assert httpx.get(f"http://127.0.0.1:{port}/api/rooms/nope").status_code == 404
    finally:
        _, log = stop(proc, tmp_path)
    assert "/api/games" not in log and "startup complete" not in log  # info lines left out
    assert "Traceback" not in log


def test_an_unknown_log_level_is_refused(tmp_path):
    done = subprocess.run(
        [sys.executable, "-m", "yamen", "serve", "--log-level", "loud"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "--log-level" in done.stderr


def test_a_busy_port_is_one_clear_line_and_status_1(tmp_path):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [sys.executable, "-m", "yamen", "serve", "--port", str(port)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 1
    assert done.stderr.strip() == (
        f"yamen serve: port {port} is in use: stop the other server or pass --port N"
    )
    assert done.stdout == "" and not (tmp_path / "yamen.db").exists()  # nothing else started


def test_on_every_interface_it_names_the_machines_addresses(monkeypatch):
    monkeypatch.setattr(
        "yamen.server.addresses.machine_addresses",
        lambda ipv6: ["192.168.1.20", "2001:db8::20"] if ipv6 else ["192.168.1.20"],
    )
    assert banner("0.0.0.0", 8000) == [
        "Yamen is serving at http://localhost:8000/",
        "  on your network: http://192.168.1.20:8000/",
    ]
    assert banner("::", 8000)[1:] == [
        "  on your network: http://192.168.1.20:8000/",
        "  on your network: http://[2001:db8::20]:8000/",
    ]
    assert banner("10.0.0.5", 8080) == ["Yamen is serving at http://10.0.0.5:8080/"]


def test_the_machines_addresses_are_ones_others_can_reach():
    found = machine_addresses(ipv6=True)  # whatever this machine has: maybe none
    assert all(reachable(a) for a in found) and len(set(found)) == len(found)
    assert not any(reachable(a) for a in ("127.0.0.1", "::1", "fe80::1", "0.0.0.0", "x"))


def test_the_api_docs_need_no_internet(tmp_path):
    with ServerThread(f"sqlite:///{tmp_path / 'y.db'}") as server:
        for page in ("/docs", "/redoc"):
            html = httpx.get(server.url + page)
            assert html.status_code == 200
            assert not re.search(r"https?://", html.text), f"{page} names an outside URL"
            assets = re.findall(r'(?:src|href)="(/[^"]+)"', html.text)
            assert len(assets) >= 2, page  # its script, and a style sheet or an icon
            for asset in assets:
                assert httpx.get(server.url + asset).status_code == 200, asset
        assert httpx.get(server.url + "/openapi.json").status_code == 200
