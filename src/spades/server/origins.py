"""Whose pages may open a websocket: a browser sends the ``Origin`` of the page that opens
it, and a websocket is not held by the browser's same-origin rule, so the server checks it.

An origin is allowed when it names the host and port the request was sent to (the ``Host``
header: the table's own page), or one of the host names the server is configured to answer
to on that port. No
``Origin`` at all is a client that is not a browser (a script, a test): it still needs a
ticket, which only a person seated at the game can get.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from .hosts import host_name, parse_host

DEFAULT_PORTS = {"http": 80, "https": 443, "ws": 80, "wss": 443}


def _host_port(host: str, scheme: str) -> tuple[str, int | None] | None:
    """The ``Host`` header's name and port (the scheme's default port when none is said),
    or None when it is malformed (``parse_host``: a userinfo part, say)."""
    parsed = parse_host(host)
    if parsed is None:
        return None
    return parsed[0], parsed[1] if parsed[1] is not None else DEFAULT_PORTS.get(scheme)


def origin_allowed(origin: str | None, host: str | None,
                   allowed_hosts: Iterable[str] = ()) -> bool:
    """May a page of ``origin`` open a socket sent to ``host`` (the Host header)?"""
    if origin is None:
        return True
    try:
        page = urlsplit(origin.strip())
        page_port = page.port
    except ValueError:
        return False
    scheme = page.scheme.lower()
    page_host = (page.hostname or "").lower()
    if scheme not in ("http", "https") or not page_host:
        return False  # "null" (a sandboxed frame, a file), or not a web page
    if not host:
        return False
    target = _host_port(host, scheme)
    if target is None:
        return False
    if page_port is None:
        page_port = DEFAULT_PORTS[scheme]
    if target[1] != page_port:
        return False  # another port is another site's page (a local dev server, say)
    # the same host (a default port unsaid), or another name the server answers to
    page_host = host_name(page_host)  # case, brackets and one final dot: the same host
    if not page_host:
        return False
    return page_host == target[0] or page_host in {host_name(name) for name in allowed_hosts}
