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


def answers(sock: socket.socket, count: int) -> list[int]:
    """The statuses of the next ``count`` HTTP answers on ``sock`` (each read whole)."""
    buffer, statuses = b"", []
    while len(statuses) < count:
        while b"\r\n\r\n" not in buffer:
            chunk = sock.recv(65536)
            if not chunk:
                return statuses
            buffer += chunk
        head, _, buffer = buffer.partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        statuses.append(int(lines[0].split()[1]))
        fields = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(fields.get("content-length", "0"))
        while len(buffer) < length:
            buffer += sock.recv(65536)
        buffer = buffer[length:]
    return statuses


def gone(sock: socket.socket) -> bool:
    """The server closed the connection (with unread bytes of ours, the close is a reset)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def request(path: str, pad: int = 0, body: bytes = b"") -> bytes:
    """A whole HTTP/1.1 request, its head padded by a header of ``pad`` bytes."""
    head = f"{'POST' if body else 'GET'} {path} HTTP/1.1\r\nHost: x\r\n"
    if pad:
        head += f"X-Pad: {'a' * pad}\r\n"
    if body:
        head += f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
    return head.encode() + b"\r\n" + body


def test_a_huge_request_head_is_refused_from_its_first_byte(tmp_path):
    """A head of 250,000 bytes sent in one write is refused (431) and closed, whether it is a
    connection's first request or a later one (its first read counts); a keep-alive connection
    of ordinary requests, one with a body and one with a 100 KB head, is answered as before."""
    port = free_port()
    proc = start(tmp_path, "--port", str(port), "--limit", "all=off")
    try:
        proc.stdout.readline()
        with socket.create_connection(("127.0.0.1", port), timeout=30) as first:
            first.sendall(request("/api/games", pad=250_000))
            alone = answers(first, 1)
            closed = gone(first)
        with socket.create_connection(("127.0.0.1", port), timeout=30) as kept:
            statuses = []
            for one in (
                request("/api/games"),
                request("/api/guests", body=b'{"name": "Ann"}'),
                request("/api/games", pad=100_000),
                request("/api/games"),
            ):
                kept.sendall(one)
                statuses += answers(kept, 1)
            kept.sendall(request("/api/games", pad=250_000))
            statuses += answers(kept, 1)
            kept_closed = gone(kept)
    finally:
        stop(proc, tmp_path)
    assert alone == [431] and closed
    assert statuses == [200, 201, 200, 200, 431] and kept_closed


def test_every_connection_sends_its_writes_at_once(tmp_path):
    """TCP_NODELAY on every accepted connection (serve.py's nodelay): asyncio sets it only on a
    socket made with proto IPPROTO_TCP, and a listening socket made with proto 0 (serve.py's,
    uvicorn's) passes 0 on; with Nagle's algorithm on, a response's body waited for the ACK of
    its head, which the client delays up to 40 ms, on every request after the first on a
    kept-alive connection (measured with curl: 42-44 ms, 0.6-1.0 ms with it)."""
    with ServerThread(f"sqlite:///{tmp_path / 'n.db'}") as server:
        port = int(server.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=30) as kept:
            kept.sendall(request("/api/games"))
            assert answers(kept, 1) == [200]
            accepted = [c.transport for c in server.server.server_state.connections]
            options = [
                t.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY)
                for t in accepted
            ]
    assert options and all(options), options
