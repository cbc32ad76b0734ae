"""The websockets watching a table: one ``Connection`` per socket, its messages sent in
order through a bounded queue, so that a slow browser never holds the table nor grows the
server."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from .wire import Json

log = logging.getLogger("spades.server")

#: Messages a connection may have waiting to be sent; beyond this the client has fallen
#: behind: what waits is dropped and it gets the table as it is now instead.
QUEUE_LIMIT = 64
#: A client that has not taken one message in this many seconds is disconnected.
SEND_TIMEOUT = 30.0
#: Put in a queue instead of the messages dropped from it: send a fresh state.
FRESH: Json = {"type": "fresh"}
#: A message to the client unsent after this many seconds: the client is not reading, and
#: nothing more is read from it until it takes that message (``flowing``).
STUCK = 1.0
#: A fresh state is made at most this often for one socket: a client that asks again and
#: again (syncs as fast as the rate limit lets it, and never reads) costs one state a
#: second, not thirty; a page's first sync is answered at once.
FRESH_EVERY = 1.0
#: What a brief socket's ``state`` leaves out when it is the same as in the last ``state``
#: this socket was sent (the game's facts, the shuffles' news: most of a state's bytes, and
#: they change a few times a game); the client keeps them from that state.
KEPT = ("game", "shuffle")
#: What such a state's ``view`` leaves out so (the score sheet: it changes once a hand,
#: and grows with the hands).
KEPT_IN_VIEW = ("sheet",)


def _same(kept: dict[str, Any], part: Json, keys: tuple[str, ...]) -> list[str]:
    """The ``keys`` of ``part`` whose values are as in ``kept``, which then takes the new
    values (a list made once is the same object again: checked first)."""
    same = [key for key in keys if key in part and key in kept
            and (kept[key] is part[key] or kept[key] == part[key])]
    for key in keys:
        if key in part:
            kept[key] = part[key]
    return same


def unbrief(state: Json, last: Json | None) -> Json:
    """What a brief client does with a ``state`` (the page's net.js does the same): the
    parts left out are those of ``last``, the socket's last state, filled in."""
    if last is not None:
        for key in KEPT:
            if key not in state:
                state[key] = last[key]
        for key in KEPT_IN_VIEW:
            if key not in state["view"]:
                state["view"][key] = last["view"][key]
    return state


class Connection:
    """One websocket watching a table for a seat.

    ``refresh`` makes the state message that replaces the messages of a client that fell
    behind; ``hang_up`` closes the socket of a client that stopped reading. A ``brief``
    client (its hello said so) gets states without the parts (``KEPT``) that are as in the
    last state sent to it: less to serialise, compress and parse for every change. A
    ``late`` client (its hello said ``late_suggestion``) gets its turn to bid at once and
    the bid suggestion in a state after it (``Hub``)."""

    def __init__(self, seat: int, send_text: Callable[[str], Awaitable[Any]],
                 refresh: Callable[[], Awaitable[Json]] | None = None,
                 hang_up: Callable[[], Awaitable[Any]] | None = None,
                 limit: int = QUEUE_LIMIT, timeout: float = SEND_TIMEOUT,
                 fresh_every: float = FRESH_EVERY, stuck: float = STUCK,
                 brief: bool = False, late: bool = False):
        self.seat = seat
        self.brief = brief
        self.late = late
        #: the parts of the last state sent (a brief client's), by name, and of its view
        self._kept: dict[str, Any] = {}
        self._kept_view: dict[str, Any] = {}
        self._send_text = send_text
        self._refresh = refresh
        self._hang_up = hang_up
        self.limit = limit
        self.timeout = timeout
        self.queue: asyncio.Queue[Json | None] = asyncio.Queue()
        #: how many times the client fell behind and its messages were dropped
        self.dropped = 0
        self.closed = False
        self._fresh_waiting = False
        self.fresh_every = fresh_every
        self._fresh_at = -fresh_every  # the event loop's time the last fresh state was made
        self.stuck = stuck
        #: the event loop's time the message being sent began to be sent (None: none is)
        self._sending_since: float | None = None
        self._sent = asyncio.Event()
        self._sent.set()
        #: the task pumping the messages, and the timer that stops it when a message stays
        #: unsent for ``timeout`` (``_check``); ``_overdue``: it did
        self._pump: asyncio.Task[Any] | None = None
        self._watchdog: asyncio.TimerHandle | None = None
        self._overdue = False

    def send(self, message: Json) -> None:
        if self.closed:
            return
        if self.queue.qsize() >= self.limit:
            while not self.queue.empty():
                self.queue.get_nowait()
            self._fresh_waiting = False
            self.dropped += 1
            if self._refresh is None:  # nothing to catch up with: hang up
                self.close()
                return
            message = FRESH
        if message is FRESH:
            if self._fresh_waiting or self._refresh is None:
                return  # one fresh state already waits: it will do for both
            self._fresh_waiting = True
        self.queue.put_nowait(message)

    def send_fresh(self) -> None:
        """Send the table as it is when the client reads it (made only then: asking again
        and again while not reading costs nothing)."""
        self.send(FRESH)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)

    def end(self, last: Json) -> None:
        """Stop now (its sign-in ended): what waits is dropped and ``last`` is the final
        message; nothing of the table goes out after it."""
        if self.closed:
            return
        while not self.queue.empty():
            self.queue.get_nowait()
        self._fresh_waiting = False
        self.queue.put_nowait(last)
        self.close()

    async def pump(self, dumps: Callable[[Json], str]) -> None:
        loop = asyncio.get_running_loop()
        task = self._pump = asyncio.current_task()
        while True:
            message = await self.queue.get()
            if message is None:
                self._disarm()
                return
            try:
                if message is FRESH:
                    message = await self._fresh()
                if self.brief and message.get("type") == "state":
                    message = self._briefed(message)
                text = dumps(message)
                self._sending_since = loop.time()
                self._sent.clear()
                if self._watchdog is None:
                    self._watchdog = loop.call_later(self.timeout, self._check)
                try:
                    await self._send_text(text)
                finally:
                    self._sending_since = None
                    self._sent.set()
            except asyncio.CancelledError:
                if not self._overdue:
                    raise
                if task is not None:
                    task.uncancel()  # the watchdog's cancel, not the server's
                log.warning("a client of seat %d took nothing for %.0f s: disconnected",
                            self.seat, self.timeout)
                break
            except Exception:  # the browser went away, or the state could not be made
                break
        await self._end()

    def _disarm(self) -> None:
        if self._watchdog is not None:
            self._watchdog.cancel()
            self._watchdog = None

    def _check(self) -> None:
        """The watchdog: a message unsent for ``timeout`` seconds stops the pump (a timer
        armed at most once a ``timeout`` while messages go, rather than one a message)."""
        loop = asyncio.get_running_loop()
        self._watchdog = None
        since = self._sending_since
        if since is None or self._pump is None:
            return  # nothing in flight: the next message arms it again
        left = since + self.timeout - loop.time()
        if left > 0:
            self._watchdog = loop.call_later(left, self._check)
        else:
            self._overdue = True
            self._pump.cancel()

    def _briefed(self, state: Json) -> Json:
        """``state`` without the parts that are as in the last state sent."""
        same = _same(self._kept, state, KEPT)
        view = state.get("view")
        if isinstance(view, dict) and (inner := _same(self._kept_view, view, KEPT_IN_VIEW)):
            view = {key: value for key, value in view.items() if key not in inner}
        if not same and view is state.get("view"):
            return state
        return {key: view if key == "view" else value for key, value in state.items()
                if key not in same}

    async def flowing(self) -> None:
        """Return at once, unless a message to the client has been unsent for ``stuck``
        seconds (it does not read): then when that message goes, or the connection ends.
        The socket's frames are not read meanwhile, so a client that sends without ever
        reading costs nothing once its buffers are full (the rate limit alone still read
        30 of its frames a second), and is disconnected after ``timeout``."""
        since = self._sending_since
        if since is not None and asyncio.get_running_loop().time() - since >= self.stuck:
            await self._sent.wait()

    async def _fresh(self) -> Json:
        """The table as it is now, made no sooner than ``fresh_every`` after the last one
        (the asks that come meanwhile are answered by it too)."""
        loop = asyncio.get_running_loop()
        wait = self._fresh_at + self.fresh_every - loop.time()
        if wait > 0:
            await asyncio.sleep(wait)
        self._fresh_waiting = False
        assert self._refresh is not None
        message = await self._refresh()
        self._fresh_at = loop.time()
        return message

    async def _end(self) -> None:
        self.closed = True
        self._disarm()
        if self._hang_up is not None:
            with contextlib.suppress(Exception):
                await self._hang_up()
