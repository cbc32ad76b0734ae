"""Allowed hosts: the server answers only to the names it is configured for.

A web page on another site can make its own name resolve to 127.0.0.1 (DNS rebinding) and
then talk to a server on this computer as if it were the same site. The browser still sends
that site's name in ``Host``, so a request whose ``Host`` is not one of ours is refused with
400 and a sentence, before any route sees it, websockets included. The refused name is never
repeated in the answer (nor anywhere else: nothing here builds a URL from ``Host``).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

#: The names of this computer, always allowed.
LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1")
#: Addresses that mean "every interface": never a name a browser sends.
ANY_ADDRESS = frozenset({"", "0.0.0.0", "::"})  # nosec B104 - compared with, never bound
WRONG_HOST = ("this server does not answer to that host name: open it by a name it is "
              "configured for (spades serve --allowed-host NAME)")


def host_name(value: str) -> str:
    """The name in a ``Host`` header or a setting, without its port, brackets or final dot,
    in lower case: ``[::1]:8000`` is ``::1``, ``Example.org.:443`` is ``example.org``."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        return value[1:end] if end > 0 else ""
    if value.count(":") == 1:  # name:port (a bare IPv6 address has several colons)
        value = value.split(":", 1)[0]
    return value.rstrip(".")


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
    ``names`` (None: any host, for an app embedded elsewhere that checks it itself)."""

    def __init__(self, app: ASGIApp, names: Iterable[str] | None):
        self.app = app
        self.names = None if names is None else frozenset(host_name(n) for n in names)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket") or self.names is None:
            await self.app(scope, receive, send)
            return
        host = ""
        for key, value in scope["headers"]:
            if key == b"host":
                host = value.decode("latin-1")
                break
        if host_name(host) in self.names:
            await self.app(scope, receive, send)
            return
        refusal = JSONResponse({"error": WRONG_HOST}, status_code=400)
        if scope["type"] == "http":
            await refusal(scope, receive, send)
        elif "websocket.http.response" in scope.get("extensions", {}):
            await receive()  # websocket.connect
            await refusal(scope, receive, send)  # the denial response, as HTTP 400
        else:  # a server without the denial extension answers 403
            await receive()
            await send({"type": "websocket.close", "code": 1008, "reason": WRONG_HOST[:120]})
