"""What the sockets of a table for friends hear besides the game: the ``table`` message,
phrases, the start (docs/protocol.md, "The waiting room on the websocket"), and the sockets
of the waiting room and of spectators (``serve_room``).

``Rooms`` keeps the waiting rooms' sockets; a started game's sockets are its hub's (a seat)
and its audience's (spectators), told through the lobby's table.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
from collections.abc import Iterator
from dataclasses import dataclass

from starlette.websockets import WebSocket

from spades.store import WAITING, FriendTable, GameRow

from .common import MAX_MESSAGE, NOT_FOUND, POLICY_CLOSE, dumps
from .connections import Connection
from .lobby import Lobby
from .phrases import PHRASES, TOO_FAST, Bucket
from .table import ServedTable
from .table_json import host_seat, table_object
from .tables import Hall, next_clockwise, players_of
from .tickets import Ticket
from .watchers import Watcher
from .wire import Json

log = logging.getLogger("spades.server")
#: The close code of a waiting room's socket when its game starts (the page reconnects).
STARTED_CLOSE = 4000
WATCHING = "spectators watch: they cannot act"


@dataclass(eq=False)
class Member:
    """A socket of a waiting room (a person's seat, or a spectator's: ``seat`` None) or a
    spectator's at a game: its connection, the socket and the task that sends."""

    conn: Connection
    seat: int | None
    ws: WebSocket
    pump: asyncio.Task[None]
    player: str | None = None  # a seat's player id (a move changes its seat)

    def finish(self, last: Json, close: int, reason: str) -> asyncio.Task[None]:
        """Send ``last`` as the final message (what waits is dropped), then close."""
        self.conn.end(last)
        return asyncio.get_running_loop().create_task(self._close(close, reason))

    async def _close(self, close: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await asyncio.wait({self.pump}, timeout=5)
        with contextlib.suppress(Exception):
            await self.ws.close(code=close, reason=reason)


class Rooms:
    def __init__(self, hall: Hall, lobby: Lobby, grace: float = 30.0):
        self.hall = hall
        self.lobby = lobby
        #: how long a host may be gone from the waiting room before the powers pass
        self.grace = grace
        self.members: dict[str, set[Member]] = {}
        self._buckets: dict[tuple[str, int], Bucket] = {}
        self._closing: set[asyncio.Task[None]] = set()

    def here(self, table_id: str) -> frozenset[int]:
        """The seats with a waiting room's socket open."""
        return frozenset(m.seat for m in self.members.get(table_id, ()) if m.seat is not None)

    def _game_sockets(self, table_id: str) -> Iterator[tuple[Connection, int | None]]:
        served = self.lobby.tables.get(table_id)
        for m in self.members.get(table_id, ()):
            yield m.conn, m.seat
        if served is not None:
            for conn in list(served.hub.connections):
                yield conn, conn.seat
            for conn in list(served.audience.connections):
                yield conn, None

    def tell(self, table: FriendTable, row: GameRow | None = None) -> None:
        """Send every socket of the table the table as it is now (each for its seat: a
        person moved is told their new one)."""
        for m in self.members.get(table.id, ()):
            person = None if m.player is None else table.person({m.player})
            if person is not None:
                m.seat = m.conn.seat = person.seat
        served = self.lobby.tables.get(table.id)
        if row is None and served is not None:
            row = served.row
        here = self.here(table.id)
        for conn, seat in self._game_sockets(table.id):
            conn.send({"type": "table", "table": table_object(table, seat, row, here=here)})

    async def host_gone(self, table_id: str, seat: int) -> None:
        """The host's last socket of the waiting room closed: after the grace period, if
        they are still away, the host's powers pass to the next person clockwise who is
        here."""
        await asyncio.sleep(self.grace)
        if seat in self.here(table_id):
            return
        async with self.hall.lock(table_id):
            table = await self.hall.load(table_id)
            if table is None or table.status != WAITING or host_seat(table) != seat:
                return
            host = next_clockwise(table.seats, seat, players_of(table), self.here(table_id))
            if host is None:
                return
            table = dataclasses.replace(table, host=host)
            await self.hall.save(table)
        self.tell(table)

    async def presence_changed(self, table_id: str) -> None:
        """A socket of the table opened or closed: everyone sees who is here."""
        table = await self.hall.load(table_id)
        if table is not None:
            self.tell(table)

    def send_all(self, table_id: str, message: Json) -> None:
        for conn, _ in self._game_sockets(table_id):
            conn.send(message)

    def started(self, table_id: str) -> None:
        """The game started: each waiting room's socket is told, then closed (the page
        connects again with a new ticket and gets the game)."""
        for member in list(self.members.get(table_id, ())):
            self._closing.add(member.finish({"type": "started", "game": table_id},
                                            STARTED_CLOSE, "the game started"))

    def phrase(self, conn: Connection, table_id: str, seat: int, name: str,
               data: dict[str, object]) -> None:
        """A person says one of the phrases: everyone at the table hears it."""
        phrase = data.get("phrase")
        if not isinstance(phrase, str) or phrase not in PHRASES:
            conn.send({"type": "error", "code": "bad-message", "intent": "phrase",
                       "message": f"a phrase is one of {', '.join(PHRASES)}"})
            return
        bucket = self._buckets.setdefault((table_id, seat), Bucket())
        if not bucket.take():
            conn.send({"type": "error", "code": "too-fast", "intent": "phrase",
                       "message": TOO_FAST})
            return
        self.send_all(table_id, {"type": "phrase", "seat": seat, "name": name,
                                 "phrase": phrase, "text": PHRASES[phrase]})


def read_frame(text: str | None) -> dict[str, object] | None:
    try:
        data = json.loads(text) if isinstance(text, str) and len(text) <= MAX_MESSAGE else None
    except (ValueError, RecursionError):
        data = None
    return data if isinstance(data, dict) else None


async def not_found(ws: WebSocket) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "code": "not-found", "message": NOT_FOUND,
                                  "version": None}))
        await ws.close(code=4404)


def member(ws: WebSocket, seat: int | None, watcher: Watcher,
           player: str | None = None) -> Member:
    """A room's or a spectator's socket: its connection sends in order; a watcher that
    ends (a sign-out, a person removed, watching closed) sends its reason last, then
    closes."""

    async def hang_up() -> None:
        await ws.close(code=POLICY_CLOSE)

    conn = Connection(-1 if seat is None else seat, ws.send_text, None, hang_up,
                      brief=ws.scope.get("spades.brief", False),
                      late=ws.scope.get("spades.late", False))
    joined = Member(conn, seat, ws, asyncio.create_task(conn.pump(dumps)), player)
    watcher.on_end = lambda why: _keep(joined.finish(
        {"type": "error", "code": why.code, "message": why.reason, "version": None},
        why.close, why.reason))
    return joined


_ENDING: set[asyncio.Task[None]] = set()


def _keep(task: asyncio.Task[None]) -> None:
    _ENDING.add(task)
    task.add_done_callback(_ENDING.discard)


async def _receive(ws: WebSocket, joined: Member) -> str | None:
    """The next frame's text, or None when the socket is gone or ended."""
    message = await ws.receive()
    if message["type"] == "websocket.disconnect" or joined.conn.closed:
        return None
    text = message.get("text")
    return text if isinstance(text, str) else ""


async def _leave(joined: Member, watcher: Watcher) -> None:
    watcher.on_end = None
    joined.conn.close()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(joined.pump, timeout=5)


async def serve_room(ws: WebSocket, ticket: Ticket, watcher: Watcher, rooms: Rooms) -> bool:
    """Serve a waiting room's socket or a spectator's; False when the ticket is a seat's
    at a started game (the game's socket serves it)."""
    hall = rooms.hall
    table = await hall.load(ticket.game)
    if ticket.watching:
        if table is None or not table.options.get("watching") or table.watch is None:
            await not_found(ws)
            return True
        if table.status != WAITING:
            await watch_game(ws, table, watcher, rooms)
            return True
        await room(ws, table, None, watcher, rooms)
        return True
    if table is None or table.status != WAITING:
        return False
    found = await hall.reach(ticket.game, {ticket.player})
    if found is None:
        await not_found(ws)
        return True
    await room(ws, table, found[1].seat, watcher, rooms)
    return True


async def room(ws: WebSocket, table: FriendTable, seat: int | None, watcher: Watcher,
               rooms: Rooms) -> None:
    """A waiting room's socket: the table now and at every change, phrases, the start."""
    joined = member(ws, seat, watcher, None if seat is None else watcher.player)
    members = rooms.members.setdefault(table.id, set())
    members.add(joined)
    try:
        if seat is not None:
            await rooms.hall.touch(table.id)
        await rooms.presence_changed(table.id)
        while (text := await _receive(ws, joined)) is not None:
            await room_message(rooms, table.id, joined, text)
    finally:
        members.discard(joined)
        # in tasks of their own: this socket's task may be cancelled as it closes
        loop = asyncio.get_running_loop()
        _keep(loop.create_task(rooms.presence_changed(table.id)))
        if joined.seat is not None and joined.seat not in rooms.here(table.id):
            _keep(loop.create_task(rooms.host_gone(table.id, joined.seat)))
        await _leave(joined, watcher)


async def room_message(rooms: Rooms, table_id: str, member: Member, text: str | None) -> None:
    data = read_frame(text)
    kind = None if data is None else data.get("type")
    conn = member.conn
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "sync":
        table = await rooms.hall.load(table_id)
        if table is not None:
            conn.send({"type": "table", "table": table_object(
                table, member.seat, here=rooms.here(table_id))})
    elif kind == "phrase" and member.seat is not None:
        table = await rooms.hall.load(table_id)
        person = None if table is None else table.at(member.seat)
        if person is not None:
            rooms.phrase(conn, table_id, member.seat, person.name, data or {})
    elif member.seat is None and kind in ("act", "entropy", "phrase", "hint"):
        conn.send({"type": "error", "code": "watching", "message": WATCHING,
                   "version": None})
    else:
        conn.send({"type": "error", "code": "bad-message", "version": None,
                   "message": 'the waiting room takes "ping", "sync" and "phrase"'})


async def watch_game(ws: WebSocket, table: FriendTable, watcher: Watcher,
                     rooms: Rooms) -> None:
    """A spectator's socket at a started game: public states, table messages, phrases."""
    served = await rooms.lobby.watched(table.id)
    if served is None:
        await not_found(ws)
        return
    joined = member(ws, None, watcher)
    served.audience.join(joined.conn)
    joined.conn.send({"type": "table", "table": table_object(table, None, served.row)})
    try:
        while (text := await _receive(ws, joined)) is not None:
            await watch_message(served, joined.conn, text)
    finally:
        served.audience.leave(joined.conn)
        await _leave(joined, watcher)


async def watch_message(served: ServedTable, conn: Connection, text: str | None) -> None:
    data = read_frame(text)
    kind = None if data is None else data.get("type")
    if kind == "ping":
        conn.send({"type": "pong"})
    elif kind == "sync":
        conn.send(served.audience.message())
    elif kind == "review" and isinstance(data, dict):
        hand = data.get("hand")
        if isinstance(hand, int) and not isinstance(hand, bool) and 1 <= hand <= 10**6:
            served.review(conn, hand)
        else:
            conn.send({"type": "error", "code": "bad-message", "version": None,
                       "message": '"review" needs the "hand" to review (a whole number '
                       "from 1)"})
    elif kind in ("act", "entropy", "phrase", "hint"):
        conn.send({"type": "error", "code": "watching", "message": WATCHING,
                   "version": None})
    else:
        conn.send({"type": "error", "code": "bad-message", "version": None,
                   "message": 'a spectator sends "ping", "sync" or "review"'})
