"""Listening: the uvicorn server of ``spades serve``, with limits on what one client may hold.

uvicorn alone reads a request's head without a time or size limit and lets one address open
any number of connections, so a few slow or huge requests could hold every file descriptor
or gigabytes of memory. The HTTP protocol here adds, before the application sees anything:

- a time limit on reading a request's head, from the connection (or from the first byte of
  the next request on a kept-alive one) to its last header line;
- a size limit on that head, counted as its bytes arrive (431, and the connection is closed);
- a size limit on a request's body: a ``Content-Length`` over it is refused before a byte
  of the body is read, a body sent without one as soon as it passes the limit (413, and the
  connection is closed: the rest is never read);
- a cap on the connections open at once from one address, websockets included;
- a cap on the refusals answered to one address in a second: past it, that address's new
  connections are dropped unread until the second is over, so a flood of bad requests
  costs the server little more than accepting them.

Each refusal is logged (at most once in ``QUIET`` seconds per address and kind).
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import time
from collections.abc import Callable, Sequence
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .common import MAX_MESSAGE
from .paced import PacedWebSocket

log = logging.getLogger("spades.server")

#: Connections open at once from one address (a browser uses a handful).
PER_ADDRESS = 50
#: Seconds a client has to send a request's head.
HEAD_TIMEOUT = 10.0
#: The largest request head (request line and headers), in bytes.
HEAD_LIMIT = 32 * 1024
#: Refusals answered to one address in a second; past it, its new connections are dropped.
REFUSALS = 20
#: The largest websocket message (a frame of the protocol is at most 16 KB of JSON).
WS_LIMIT = 64 * 1024
#: A refusal of the same kind for the same address is logged at most this often.
QUIET = 10.0


class Guard:
    """Counts the open connections of each address and logs refusals."""

    def __init__(self, per_address: int = PER_ADDRESS, head_timeout: float = HEAD_TIMEOUT,
                 head_limit: int = HEAD_LIMIT, clock: Callable[[], float] = time.monotonic,
                 body_limit: int = MAX_MESSAGE, refusals: int = REFUSALS):
        self.per_address = per_address
        self.head_timeout = head_timeout
        self.head_limit = head_limit
        self.body_limit = body_limit
        self.refusals = refusals  # 0: no cap
        self.clock = clock
        self.open: dict[str, set[asyncio.BaseTransport]] = {}
        self._prune_at = 256
        self._told: dict[tuple[str, str], float] = {}
        #: each address's refusals in the second that began at the time kept with them
        self._refused: dict[str, tuple[float, int]] = {}

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """Count ``transport`` for ``address``, or False if that address has its fill.
        Connections that became websockets are let go when their transport closes."""
        live = {t for t in self.open.get(address, ()) if not t.is_closing()}
        if len(live) >= self.per_address:
            self.open[address] = live
            return False
        live.add(transport)
        self.open[address] = live
        if len(self.open) > self._prune_at:  # forget addresses whose connections all closed
            self.open = {a: ts for a, ts in self.open.items()
                         if any(not t.is_closing() for t in ts)}
            self._prune_at = max(256, 2 * len(self.open))
        return True

    def release(self, address: str, transport: asyncio.BaseTransport) -> None:
        held = self.open.get(address)
        if held is not None:
            held.discard(transport)
            if not held:
                del self.open[address]

    def refused(self, address: str) -> None:
        """Count a refusal answered to ``address``."""
        now = self.clock()
        start, count = self._refused.get(address, (now, 0))
        if now - start >= 1.0:
            start, count = now, 0
        if len(self._refused) > 10_000:
            self._refused.clear()
        self._refused[address] = (start, count + 1)

    def over_refusals(self, address: str) -> bool:
        """Whether ``address`` had its fill of refusals this second."""
        start, count = self._refused.get(address, (0.0, 0))
        return 0 < self.refusals <= count and self.clock() - start < 1.0

    def tell(self, kind: str, address: str, message: str, *args: Any) -> None:
        now = self.clock()
        if now - self._told.get((kind, address), -QUIET) >= QUIET:
            if len(self._told) > 10_000:
                self._told.clear()
            self._told[(kind, address)] = now
            log.warning(message, address, *args)


def head_bytes(tail: bytes, data: bytes) -> int:
    """How many bytes of ``data`` belong to a request head still being read (``tail``: the
    bytes read just before): up to the blank line that ends it, the body after it not."""
    end = (tail + data).find(b"\r\n\r\n")
    return len(data) if end < 0 else max(0, end + 4 - len(tail))


class GuardedHttp(HttpToolsProtocol):
    """uvicorn's httptools protocol under ``guard`` (a subclass per server sets it)."""

    guard: Guard
    _head: int | None = 0  # bytes of the request head read so far; None: in the body
    _body = 0  # bytes of the request body read so far
    _tail = b""  # the last bytes read while in a head (its end may straddle two reads)
    _timer: asyncio.TimerHandle | None = None
    _address = ""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        if self.guard.over_refusals(self._address):
            self.guard.tell("dropped", self._address, "dropping connections from %s for a "
                            "second: it had %d requests refused in one", self.guard.refusals)
            transport.abort()
            return
        if not self.guard.admit(self._address, transport):
            self.guard.refused(self._address)
            self.guard.tell("crowd", self._address, "refused a connection from %s: it has %d "
                       "open already (the most for one address)", self.guard.per_address)
            transport.abort()
            return
        self._start_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_timer()
        self.guard.release(self._address, self.transport)
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # refused: nothing more is read
        if self._head is not None:
            self._head += head_bytes(self._tail, data)
            self._tail = data[-3:]
            if self._head > self.guard.head_limit:
                self.guard.tell("head", self._address, "refused a request from %s: its head "
                           "is over %d bytes", self.guard.head_limit)
                self._refuse(431, f"the request head is over {self.guard.head_limit} bytes")
                return
            if self._timer is None:
                self._start_timer()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        if self.transport.is_closing():
            return  # a request after a refusal in the same read
        self._stop_timer()
        self._head = None
        self._body = 0
        if self._declared_length() > self.guard.body_limit:
            self._body_refused()  # before a byte of the body is read or the app sees it
            return
        super().on_headers_complete()

    def on_body(self, body: bytes) -> None:
        if self.transport.is_closing():
            return
        self._body += len(body)
        if self._body > self.guard.body_limit:  # a body sent without a length
            if self.cycle is not None and self.cycle.response_started:
                self.transport.close()  # the app answered already: read no more
            else:
                self._body_refused()
            return
        super().on_body(body)

    def on_message_complete(self) -> None:
        if self.transport.is_closing():
            return
        self._head = 0  # the next request's head is counted and timed from its start
        self._tail = b""
        super().on_message_complete()

    def _declared_length(self) -> int:
        for name, value in self.headers:
            if name == b"content-length":
                return int(value) if value.isdigit() else 0
        return 0

    def _body_refused(self) -> None:
        self.guard.tell("body", self._address, "refused a request from %s: its body is over "
                        "%d bytes", self.guard.body_limit)
        self._refuse(413, f"the request body is over {self.guard.body_limit} bytes")

    def _start_timer(self) -> None:
        self._stop_timer()
        self._timer = self.loop.call_later(self.guard.head_timeout, self._too_slow)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _too_slow(self) -> None:
        self._timer = None
        if self.transport.is_closing():
            return
        self.guard.tell("slow", self._address, "closed a connection from %s: no complete "
                   "request head within %.0f s", self.guard.head_timeout)
        self._refuse(408, f"the request head did not come within {self.guard.head_timeout:.0f} "
                     "seconds")

    def _refuse(self, status: int, message: str) -> None:
        """Answer ``status`` with ``message`` and close: the connection reads no more (the
        app's request, if one began, sees the client gone)."""
        self._stop_timer()
        self._head = None
        self.guard.refused(self._address)
        body = json.dumps({"error": message}).encode()
        reasons = {408: "Request Timeout", 413: "Content Too Large",
                   431: "Request Header Fields Too Large"}
        self.transport.write(
            f"HTTP/1.1 {status} {reasons[status]}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\nconnection: close\r\n\r\n".encode() + body)
        self.transport.close()


def guarded_protocol(guard: Guard) -> type[asyncio.Protocol]:
    """uvicorn's httptools protocol under ``guard``."""
    return type("GuardedHttp", (GuardedHttp,), {"guard": guard})


class Server(uvicorn.Server):
    """uvicorn's server that says "stopping" to ``on_exit`` as soon as a signal asks it to
    stop (before it waits for the open connections), so nothing is restarted meanwhile.

    uvicorn takes a SIGINT that comes while it already stops for a second Ctrl+C and quits
    at once, without the app's shutdown. Only a second SIGINT is that here: with
    ``--processes N`` Ctrl+C reaches every server process as the supervisor's SIGTERM does,
    in either order (a process that has SIGINT blocked for a moment while it starts a
    thinking process gets the SIGTERM first), and both ask for the one graceful stop."""

    def __init__(self, config: uvicorn.Config, on_exit: Callable[[], None]):
        super().__init__(config)
        self.on_exit = on_exit
        self.interrupted = False

    def handle_exit(self, sig: int, frame: Any) -> None:
        self.on_exit()
        if sig == signal.SIGINT:
            first, self.interrupted = not self.interrupted, True
            if first and self.should_exit:
                return  # the stop under way (a SIGTERM's) is the one Ctrl+C asks for
        super().handle_exit(sig, frame)


def make_server(app: Any, host: str, port: int, guard: Guard | None = None,
                trusted_proxy: Sequence[str] = ()) -> Server:
    """The server of ``spades serve`` for the Starlette ``app`` of ``create_app``. The
    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` headers are believed only from the
    ``trusted_proxy`` addresses (uvicorn's ProxyHeadersMiddleware): a request through that
    proxy has the client's address and the scheme the client used (https); from anywhere
    else they are ignored."""
    guard = guard or Guard()

    def stopping() -> None:
        thinker = getattr(app.state, "thinker", None)
        if thinker is not None:
            thinker.stopping()

    # frames go uncompressed: permessage-deflate cost the server more CPU a card than the
    # few hundred bytes it saves a state are worth (docs/protocol.md, "The websocket")
    config = uvicorn.Config(app, host=host, port=port, log_level="warning",
                            http=guarded_protocol(guard), ws=PacedWebSocket,
                            ws_max_size=WS_LIMIT, ws_per_message_deflate=False,
                            proxy_headers=bool(trusted_proxy),
                            forwarded_allow_ips=list(trusted_proxy) or None)
    return Server(config, stopping)
