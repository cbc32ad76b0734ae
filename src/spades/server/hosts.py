"""Allowed hosts: the server answers only to the names it is configured for.

A web page on another site can make its own name resolve to 127.0.0.1 (DNS rebinding) and
then talk to a server on this computer as if it were the same site. The browser still sends
that site's name in ``Host``, so a request whose ``Host`` is not one of ours is refused with
400 and a sentence, before any route sees it, websockets included. ``Host`` is read
strictly (a name or address and a port, nothing else) and must be said once. The refused
name is never repeated in the answer (nor anywhere else: nothing here builds a URL from
``Host``).
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The names of this computer, always allowed.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Addresses that mean "every interface": never a name a browser sends.
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})  # nosec B104 - compared with, never bound
WRONG_HOST = ("this server does not answer to that host name: open it by a name it is "
              "configured for (spades serve --allowed-host NAME)")
TWO_HOSTS = "a request names one host: this one had more than one Host header"


#: A DNS label (letters, digits, ``-``; ``_`` as some local names have it), or an IPv4 part.
LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?")
#: A port: one to five digits.
PORT = re.compile(r"[0-9]{1,5}")
#: The longest host name DNS allows, without the final dot.
LONGEST_NAME = 253


def _ipv6(text: str) -> str | None:
    """``text`` as a bare IPv6 address, written as Python writes it, or None."""
    try:
        return str(ipaddress.IPv6Address(text))
    except ValueError:
        return None


def _name(text: str) -> str | None:
    """A host name (or IPv4 address) in lower case, one final dot dropped, or None if it
    is anything else (an empty label, a userinfo ``@``, a percent sign, a space...)."""
    text = text.lower()
    if text.endswith("."):
        text = text[:-1]  # ``cards.lan.`` is ``cards.lan`` (once: ``cards.lan..`` is not)
    if not text or len(text) > LONGEST_NAME:
        return None
    if not all(LABEL.fullmatch(label) for label in text.split(".")):
        return None
    return text


def _split(value: str) -> tuple[str, str | None, bool] | None:
    """``host[:port]`` or ``[ipv6][:port]`` cut in two: the host, the port's text (None:
    no colon) and whether the host was bracketed; None if it is neither shape."""
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1:]
        if end < 0 or (rest and not rest.startswith(":")):
            return None
        return value[1:end], rest[1:] if rest else None, True
    if value.count(":") > 1:
        return None  # a bare IPv6 address: a Host header brackets it
    host, colon, port = value.partition(":")
    return host, port if colon else None, False


def parse_host(value: str) -> tuple[str, int | None] | None:
    """A ``Host`` header's name and port: ``host`` or ``host:port``, the host a name, an
    IPv4 address or a bracketed IPv6 address; the name in lower case without one final dot
    (``Cards.LAN.:8443`` is ``("cards.lan", 8443)``). None for anything else: a userinfo part
    (``127.0.0.1:8622@evil.example``), a path, an empty or non-numeric port, a bare IPv6
    address, spaces inside."""
    split = _split(value.strip(" \t"))
    if split is None:
        return None
    host, port, bracketed = split
    name = _ipv6(host) if bracketed else _name(host)
    if name is None or (port is not None and not PORT.fullmatch(port)):
        return None
    if port is not None and int(port) > 65535:
        return None
    return name, int(port) if port is not None else None


def host_name(value: str) -> str:
    """The name in a ``Host`` header or a setting, without its port, brackets or final dot,
    in lower case: ``[::1]:8000`` is ``::1``, ``Example.org.:443`` is ``example.org``; ""
    for a malformed one (``parse_host``). A setting may name a bare IPv6 address (``::1``)."""
    bare = _ipv6(value.strip()) if value.count(":") > 1 and "[" not in value else None
    if bare is not None:
        return bare
    parsed = parse_host(value)
    return parsed[0] if parsed is not None else ""


def allowed_names(extra: Iterable[str] = ()) -> tuple[str, ...]:
    """The local names and ``extra`` (the bind address and --allowed-host names), cleaned,
    without duplicates; addresses meaning "every interface" are left out."""
    names: list[str] = []
    for value in (*LOCAL_HOSTS, *extra):
        name = host_name(value)
        if name not in ANY_ADDRESS and name not in names:
            names.append(name)
    return tuple(names)


class AllowedHosts:
    """ASGI middleware: refuse an HTTP request or a websocket whose ``Host`` is not in
    ``names``, is malformed (``parse_host``), or is said more than once (two ``Host``
    headers could be read differently by a proxy and by us); ``names`` None: any host, for
    an app embedded elsewhere that checks it itself."""

    def __init__(self, app: ASGIApp, names: Iterable[str] | None):
        self.app = app
        self.names = None if names is None else frozenset(host_name(n) for n in names)

    def refusal_of(self, scope: Scope) -> str | None:
        """Why the request's ``Host`` is refused, or None if it is one of ours."""
        hosts = [value for key, value in scope["headers"] if key == b"host"]
        if len(hosts) > 1:
            return TWO_HOSTS
        parsed = parse_host(hosts[0].decode("latin-1")) if hosts else None
        if parsed is None or self.names is None or parsed[0] not in self.names:
            return WRONG_HOST
        return None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.names is None:
            await self.app(scope, receive, send)
            return
        why = self.refusal_of(scope)
        if why is None:
            await self.app(scope, receive, send)
            return
        refusal = JSONResponse({"error": why}, status_code=400)
        if scope["type"] == "http":
            await refusal(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await receive()  # websocket.connect
            await refusal(scope, receive, send)  # the denial response, as HTTP 400
        else:  # a server without the denial extension answers 403
            await receive()
            await send({"type": "websocket.close", "code": 1008, "reason": why[:120]})
