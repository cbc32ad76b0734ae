"""Who is asking, behind a reverse proxy or not: the client's address and whether the
request came over HTTPS. The forwarded headers are believed only from a peer in
``Settings.trusted_proxies`` (``--trusted-proxy``): anyone else could write them."""

from __future__ import annotations

import functools
import ipaddress
from collections.abc import Iterable

from starlette.requests import HTTPConnection

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


@functools.lru_cache(maxsize=64)
def networks(trusted: tuple[str, ...]) -> tuple[Network, ...]:
    """The trusted proxies' networks (an address alone is a network of one)."""
    return tuple(ipaddress.ip_network(item.strip(), strict=False) for item in trusted
                 if item.strip())


def parse_trusted(values: Iterable[str]) -> tuple[str, ...]:
    """``--trusted-proxy`` values (each may list several, comma-separated), checked;
    ValueError says which one is not an address or network."""
    out: list[str] = []
    for value in values:
        for item in value.split(","):
            item = item.strip()
            if not item:
                continue
            try:
                ipaddress.ip_network(item, strict=False)
            except ValueError:
                raise ValueError(f"{item!r} is not an IP address or network such as "
                                 "10.0.0.1 or 10.0.0.0/8") from None
            out.append(item)
    return tuple(out)


def _is_trusted(address: str, trusted: tuple[str, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks(trusted))


def _trusted_of(conn: HTTPConnection) -> tuple[str, ...]:
    trusted: tuple[str, ...] = conn.app.state.settings.trusted_proxies
    return trusted


def peer(conn: HTTPConnection) -> str:
    return conn.client.host if conn.client else ""


def client_address(conn: HTTPConnection) -> str:
    """The client's address: the peer's, or, when the peer is a trusted proxy, the last
    address in ``X-Forwarded-For`` that is not a trusted proxy (the one it appended)."""
    trusted = _trusted_of(conn)
    address = peer(conn)
    if not _is_trusted(address, trusted):
        return address
    hops = [h.strip() for h in ",".join(conn.headers.getlist("x-forwarded-for")).split(",")
            if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else address


def served_over_tls(public_url: str) -> bool:
    """Whether ``--public-url`` says the pages are served over HTTPS (by a proxy in front
    that does TLS): then every page a browser opens came over HTTPS, whatever the hop from
    the proxy to us said."""
    return public_url.strip().lower().startswith("https://")


def is_https(conn: HTTPConnection) -> bool:
    """Whether the browser reached us over HTTPS (directly, through a trusted proxy that
    says so in ``X-Forwarded-Proto``, or because ``--public-url`` is an https:// one)."""
    if conn.url.scheme in ("https", "wss"):
        return True
    if served_over_tls(conn.app.state.settings.public_url):
        return True
    if _is_trusted(peer(conn), _trusted_of(conn)):
        proto = conn.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
        return proto == "https"
    return False
