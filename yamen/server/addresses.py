"""Where friends can reach ``yamen serve``: the lines it prints when it starts.

On a loopback address (the default, 127.0.0.1) only this machine can connect: the local URL,
and how to open it to the network. On every interface (0.0.0.0, or :: for IPv6 too) the local
URL and one URL per address this machine has on its networks, found with the standard library
alone: the addresses the host name resolves to, and the address the system would send from (a
UDP socket "connected" to a documentation address: connecting a UDP socket picks a route and
sends nothing)."""

from __future__ import annotations

import ipaddress
import socket

EVERYWHERE = ("0.0.0.0", "::", "")
LOOPBACK = ("127.0.0.1", "localhost", "::1")
# Documentation addresses (RFC 5737, RFC 3849): routed like any other, never answered.
PROBES = ((socket.AF_INET, "192.0.2.1"), (socket.AF_INET6, "2001:db8::1"))


def url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"


def reachable(address: str) -> bool:
    """An address another machine could connect to: not loopback, not link-local (those need
    an interface name in the URL), not unspecified."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def outgoing(family: socket.AddressFamily, probe: str) -> str | None:
    """The address this machine sends from on its default route (no packet is sent)."""
    try:
        with socket.socket(family, socket.SOCK_DGRAM) as sock:
            sock.connect((probe, 9))
            return str(sock.getsockname()[0])
    except OSError:  # no such route, or no such family
        return None


def machine_addresses(ipv6: bool = True) -> list[str]:
    """This machine's addresses on its networks, IPv4 first, each once."""
    found: list[str] = []
    families = [socket.AF_INET, socket.AF_INET6] if ipv6 else [socket.AF_INET]
    for family, probe in PROBES:
        if family in families:
            found.append(outgoing(family, probe) or "")
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, type=socket.SOCK_STREAM)
    except OSError:  # the host name resolves to nothing
        infos = []
    found += [str(info[4][0]) for info in infos if info[0] in families]
    unique = [a for i, a in enumerate(found) if reachable(a) and a not in found[:i]]
    return sorted(unique, key=lambda a: ":" in a)  # stable: the outgoing address first


def banner(host: str, port: int) -> list[str]:
    """What ``yamen serve`` prints once it listens on ``host``:``port``."""
    if host in EVERYWHERE:
        lines = [f"Yamen is serving at {url('localhost', port)}"]
        others = machine_addresses(ipv6=host == "::")
        lines += [f"  on your network: {url(a, port)}" for a in others]
        if not others:
            lines.append("  on your network: no address found (is this machine connected?)")
        return lines
    if host in LOOPBACK:
        shown = host if host == "::1" else "localhost"
        return [
            f"Yamen is serving at {url(shown, port)}",
            "  only this machine can open it: to let others on your network in, "
            f"run yamen serve --host 0.0.0.0 --port {port}",
        ]
    return [f"Yamen is serving at {url(host, port)}"]
