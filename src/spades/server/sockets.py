"""The websocket of a game (docs/protocol.md): a person's socket joins the table's hub for
their seat, and their intents go to the table's session. A socket lasts no longer than the
sign-in its ticket was asked with (``watchers``)."""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import json
import logging
from typing import Any

from starlette.websockets import WebSocket

from spades.session import Refusal
from spades.store import Store, StoreError

from .common import (
    MAX_MESSAGE,
    NOT_FOUND,
    POLICY_CLOSE,
    dumps,
    lobby_of,
    reason,
    watchers_of,
)
from .connections import Connection
from .ids import is_player_id
from .limits import Limits
from .origins import origin_allowed
from .presence import Presence
from .rooms import Rooms, serve_room
from .table import ServedTable
from .tickets import Ticket, tickets_of
from .watchers import SIGN_IN_EXPIRED, SIGNED_OUT, Farewell, Watcher
from .wire import Json

log = logging.getLogger("spades.server")
#: Seconds a new socket has to send its hello with a ticket.
HELLO_WAIT = 10.0
#: Close codes: the hello or its ticket was not good; the page is of an older version.
TICKET_CLOSE = 4401
RELOAD_CLOSE = 4426
#: A close reason is at most 123 bytes.
MAX_REASON = 120
#: Seconds past a login's expiry before it is read again (clocks and rounding), and before
#: a failed read of it is tried again.
EXPIRY_SLACK = 0.5
EXPIRY_RETRY = 60.0
RELOAD = ("this page is of an older version of the table: reload it to play on "
          "(your game is saved)")


async def find_table(ws: WebSocket, player: str) -> ServedTable | None:
    """The socket's table, or None after telling the client why not (and closing)."""
    game_id = ws.path_params["game_id"]
    try:
        table = await lobby_of(ws).table(game_id, player) if is_player_id(player) else None
    except StoreError:
        log.exception("could not load game %s", game_id)
        await ws.send_text(dumps({"type": "error", "code": "server", "version": None,
                                  "message": "this game cannot be loaded right now"}))
        await ws.close(code=1011)
        return None
    if table is None:
        await ws.send_text(dumps({"type": "error", "code": "not-found",
                                  "message": NOT_FOUND, "version": None}))
        await ws.close(code=4404)
    return table


async def refuse(ws: WebSocket, code: str, message: str, close: int) -> None:
    """Tell the client why, in an error frame and the close reason, and close."""
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "code": code, "message": message,
                                  "version": None}))
        await ws.close(code=close, reason=message[:MAX_REASON])


async def read_hello(ws: WebSocket) -> Ticket | None:
    """The ticket the socket's first message holds, or None after telling the client why
    not (and closing)."""
    try:
        message = await asyncio.wait_for(ws.receive(), HELLO_WAIT)
    except TimeoutError:
        await refuse(ws, "ticket", f"no hello with a ticket came within {HELLO_WAIT:.0f} "
                     "seconds", TICKET_CLOSE)
        return None
    if message["type"] == "websocket.disconnect":
        return None
    text = message.get("text")
    try:
        data = json.loads(text) if isinstance(text, str) and len(text) <= MAX_MESSAGE else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or data.get("type") != "hello":
        await refuse(ws, "ticket", 'the first message is {"type": "hello", "ticket": ...} '
                     "with a ticket from POST /api/games/{id}/ticket", TICKET_CLOSE)
        return None
    since = data.get("since")  # the last step the page saw, if it comes back
    if isinstance(since, int) and not isinstance(since, bool) and since >= 0:
        ws.scope["spades.since"] = since
    # a brief client keeps the parts of the last state that did not change (Connection)
    ws.scope["spades.brief"] = data.get("brief") is True
    # a client that takes the bid suggestion after its turn to bid (Hub)
    ws.scope["spades.late"] = data.get("late_suggestion") is True
    ticket = await tickets_of(ws).redeem(data.get("ticket"), ws.path_params["game_id"])
    if ticket is None:
        await refuse(ws, "ticket", "that ticket does not open this game (a ticket works "
                     "once, for 30 seconds): ask for a new one", TICKET_CLOSE)
    return ticket


def still_signed_in(store: Store, ticket: Ticket) -> bool:
    """Blocking: whether the login the ticket was asked with still lasts (a script's
    header has no login: its player id must not have moved into an account since)."""
    if ticket.login is None:
        return store.accounts.owner_of(ticket.player) is None
    return expiry(store, ticket) is not None


def expiry(store: Store, ticket: Ticket) -> dt.datetime | None:
    """Blocking: when the ticket's login expires unless it is used (each use over HTTP puts
    it off); None when it is gone, expired or another account's. Only for a login's ticket."""
    assert ticket.login is not None
    login = store.accounts.login(ticket.login, dt.datetime.now(dt.UTC))
    if login is None or login.account_id != ticket.account:
        return None
    return login.expires


async def watch_expiry(store: Store, ticket: Ticket, watcher: Watcher) -> None:
    """End the socket when its login expires: it is not a use of the login (a page left
    open is not a person), so a login unused for its lifetime ends its sockets too, unless
    a use on another page of the device put the expiry off meanwhile."""
    while watcher.ended is None:
        try:
            until = await asyncio.to_thread(expiry, store, ticket)
        except StoreError:  # not known to be expired: look again later
            log.exception("could not read the login of an open socket")
            await asyncio.sleep(EXPIRY_RETRY)
            continue
        if until is None:
            watcher.end(SIGN_IN_EXPIRED)
            return
        left = (until - dt.datetime.now(dt.UTC)).total_seconds()
        await asyncio.sleep(max(0.0, left) + EXPIRY_SLACK)


async def let_in(ws: WebSocket) -> Ticket | None:
    """Check who opens the socket: a page of a foreign origin is refused before the socket
    opens; an old page that sends its player id in the address is told to reload; then the
    first message's ticket says which player id it is."""
    settings = ws.app.state.settings
    origin, host = ws.headers.get("origin"), ws.headers.get("host")
    if not origin_allowed(origin, host, getattr(settings, "allowed_hosts", ())):
        log.warning("refused a websocket from a page of %r (the request was sent to %r)",
                    origin[:200] if origin else origin, host)
        await ws.close(code=POLICY_CLOSE)  # before accepting: the browser sees a 403
        return None
    await ws.accept()
    if "player" in ws.query_params:
        await refuse(ws, "reload", RELOAD, RELOAD_CLOSE)
        return None
    return await read_hello(ws)


def connection(ws: WebSocket, table: ServedTable, seat: int) -> Connection:
    """The socket's connection: a client that fell behind gets the table as it is now; one
    that stopped reading is hung up on."""

    late = ws.scope.get("spades.late", False)

    async def refresh() -> Json:
        return await table.state_message(seat, late=late)

    async def hang_up() -> None:
        await ws.close(code=POLICY_CLOSE)

    return Connection(seat, ws.send_text, refresh, hang_up,
                      brief=ws.scope.get("spades.brief", False),
                      late=late)


async def game_socket(ws: WebSocket) -> None:
    ticket = await let_in(ws)
    if ticket is None:
        return
    # watched from now on: a sign-out from here on ends it, even before it joins its table
    watchers = watchers_of(ws)
    watcher = watchers.add(Watcher(ticket.game, ticket.player, ticket.login, ticket.account,
                                   watching=ticket.watching))
    try:
        await serve(ws, ticket, watcher)
    finally:
        watchers.discard(watcher)


async def serve(ws: WebSocket, ticket: Ticket, watcher: Watcher) -> None:
    """The socket of a good ticket: checked still signed in, then at its table until it
    goes or its sign-in ends."""
    try:
        signed_in = await asyncio.to_thread(still_signed_in, ws.app.state.store, ticket)
    except StoreError:  # not known to be signed out: the page tries again, as for any fault
        log.exception("could not read the login of a ticket")
        await refuse(ws, "server", "the sign-in cannot be checked right now", 1011)
        return
    if not signed_in:
        watcher.end(SIGNED_OUT)
    if watcher.ended is None and await serve_room(ws, ticket, watcher, ws.app.state.rooms):
        return  # a waiting room's socket, or a spectator's
    player = ticket.player
    table = None if watcher.ended else await find_table(ws, player)
    if watcher.ended is not None:
        await refuse(ws, watcher.ended.code, watcher.ended.reason, watcher.ended.close)
        return
    if table is None:
        return
    seat = table.seat_of(player)
    assert seat is not None
    conn = connection(ws, table, seat)
    pump = asyncio.create_task(conn.pump(dumps))
    watcher.on_end = lambda why: farewell(ws, conn, pump, why)
    expiring = None if ticket.login is None else asyncio.create_task(
        watch_expiry(ws.app.state.store, ticket, watcher))
    limits: Limits = ws.app.state.limits
    buckets = limits.socket(), limits.player(player)
    presence: Presence = ws.app.state.presence
    try:
        table.join(conn, ws.scope.get("spades.since"))
        presence.opened(table, seat)
        while not conn.closed:
            await limits.take(*buckets)  # a flood is read at a person's pace at most
            await conn.flowing()  # and not at all from a client that does not read
            message = await ws.receive()
            # ended meanwhile (signed out): what it sent is not read (no await since)
            if message["type"] == "websocket.disconnect" or conn.closed:
                break
            await handle(table, conn, message.get("text"), ws.app.state.rooms)
            # let every other socket and table have its turn, however fast this one sends
            await asyncio.sleep(0)
    finally:
        if expiring is not None:
            expiring.cancel()
        watcher.on_end = None
        table.leave(conn)
        presence.closed(table, seat)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, timeout=5)
        if watcher.ended is not None:
            await closing(ws, watcher.ended)


def farewell(ws: WebSocket, conn: Connection, pump: asyncio.Task[None], why: Farewell) -> None:
    """End a socket whose sign-in ended: from now on it takes no intent and is sent nothing
    of its table; its last message says why, then it closes with ``why``'s code."""
    conn.end({"type": "error", "code": why.code, "message": why.reason, "version": None})
    watchers_of(ws).keep(asyncio.get_running_loop().create_task(_close_after(ws, pump, why)))


async def _close_after(ws: WebSocket, pump: asyncio.Task[None], why: Farewell) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait({pump}, timeout=5)  # the last message goes first
    await closing(ws, why)


async def closing(ws: WebSocket, why: Farewell) -> None:
    """Close with ``why``'s code and reason (nothing if closed already)."""
    with contextlib.suppress(Exception):
        await ws.close(code=why.close, reason=why.reason[:MAX_REASON])


async def handle(table: ServedTable, conn: Connection, text: str | None,
                 rooms: Rooms | None = None) -> None:
    kind = ""
    try:
        kind, data = read_message(text)
        if kind == "ping":
            conn.send({"type": "pong"})
            return
        if kind == "phrase":  # a table for friends: everyone hears it
            if rooms is not None and table.row.options.get("friends"):
                rooms.phrase(conn, table.id, conn.seat, table.names[conn.seat], data)
                return
            raise Refusal("bad-message", "phrases are for tables with friends")
        if kind == "sync":
            conn.send_fresh()
            return
        if kind == "review":
            table.review(conn, data["hand"])
            return
        if kind == "hint":  # answered by a "hint" message, to this socket only
            table.hint(conn, data["version"])
            return
        if kind == "entropy":  # the protocol counts hands from 1, the session from 0
            await table.contribute(conn.seat, data["hand"] - 1, data["value"])
            return
        await table.act(conn.seat, data["version"], data["action"])
    except Refusal as refusal:
        error = {"type": "error", "code": refusal.code, "message": refusal.message}
    except Exception:
        log.exception("an intent failed at game %s", table.id)
        error = {"type": "error", "code": "server",
                 "message": "the server failed on that; nothing changed"}
    else:
        return
    if kind in ("entropy", "phrase", "hint"):  # the table did not move: the error alone
        table.note(conn, {**error, "intent": kind})
        return
    table.reply(conn, error)  # the error and the table as it is now, together


def read_message(text: str | None) -> tuple[str, dict[str, Any]]:
    """Check a browser message's shape; a Refusal("bad-message") says what is wrong."""
    if text is None:
        raise Refusal("bad-message", "messages are JSON text, not binary")
    if len(text) > MAX_MESSAGE:
        raise Refusal("bad-message", f"the message is over {MAX_MESSAGE} characters")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError) as error:  # also too deep, or too long a number
        raise Refusal("bad-message", f"the message is not JSON we can read: "
                      f"{reason(error)}") from None
    if not isinstance(data, dict):
        raise Refusal("bad-message", 'a message is an object such as {"type": "sync"}')
    kind = data.get("type")
    if kind in ("ping", "sync", "phrase"):
        return kind, data
    if kind == "review":
        hand = data.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or not 1 <= hand <= 10**6:
            raise Refusal("bad-message", '"review" needs the "hand" to review (a whole '
                          "number from 1)")
        return kind, data
    if kind == "entropy":
        hand = data.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or "value" not in data:
            raise Refusal("bad-message", '"entropy" needs the "hand" to shuffle (a whole '
                          'number, from 1) and a "value" of hex digits')
        return kind, data
    if kind not in ("act", "hint"):
        raise Refusal("bad-message", f'unknown message type {kind!r}: send "act", "hint", '
                      '"review", "entropy", "sync" or "ping"')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refusal("bad-message", f'"{kind}" needs the "version" of the state it was made '
                      "from (a whole number)")
    if kind == "hint":
        return kind, data
    action = data.get("action")
    if not isinstance(action, dict):
        raise Refusal("bad-message", '"act" needs an "action" such as {"play": "AS"}')
    return kind, data
