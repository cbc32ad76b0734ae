"""The websocket of a game (docs/protocol.md): a person's socket joins the table's hub for
their seat, and their intents go to the table's session."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from typing import Any

from starlette.websockets import WebSocket

from spades.store import StoreError

from .common import MAX_MESSAGE, NOT_FOUND, POLICY_CLOSE, dumps, lobby_of, reason
from .connections import Connection
from .limits import Limits
from .lobby import is_player_id
from .table import Refusal, Table
from .wire import Json

log = logging.getLogger("spades.server")


async def find_table(ws: WebSocket) -> Table | None:
    """The socket's table, or None after telling the client why not (and closing)."""
    player = ws.query_params.get("player", "")
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


def connection(ws: WebSocket, table: Table, seat: int) -> Connection:
    """The socket's connection: a client that fell behind gets the table as it is now; one
    that stopped reading is hung up on."""

    async def refresh() -> Json:
        return await table.state_message(seat)

    async def hang_up() -> None:
        await ws.close(code=POLICY_CLOSE)

    return Connection(seat, ws.send_text, refresh, hang_up)


async def game_socket(ws: WebSocket) -> None:
    await ws.accept()
    table = await find_table(ws)
    if table is None:
        return
    player = ws.query_params["player"]
    seat = table.seat_of(player)
    assert seat is not None
    conn = connection(ws, table, seat)
    pump = asyncio.create_task(conn.pump(dumps))
    limits: Limits = ws.app.state.limits
    buckets = limits.socket(), limits.player(player)
    try:
        table.join(conn)
        while not conn.closed:
            await limits.take(*buckets)  # a flood is read at a person's pace at most
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            await handle(table, conn, message.get("text"))
            # let every other socket and table have its turn, however fast this one sends
            await asyncio.sleep(0)
    finally:
        table.leave(conn)
        conn.close()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(pump, timeout=5)


async def handle(table: Table, conn: Connection, text: str | None) -> None:
    kind = ""
    try:
        kind, data = read_message(text)
        if kind == "ping":
            conn.send({"type": "pong"})
            return
        if kind == "sync":
            conn.send_fresh()
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
    if kind == "entropy":  # the table did not move: the error alone, marked as the answer
        table.note(conn, {**error, "intent": "entropy"})
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
    if kind in ("ping", "sync"):
        return kind, data
    if kind == "entropy":
        hand = data.get("hand")
        if not isinstance(hand, int) or isinstance(hand, bool) or "value" not in data:
            raise Refusal("bad-message", '"entropy" needs the "hand" to shuffle (a whole '
                          'number, from 1) and a "value" of hex digits')
        return kind, data
    if kind != "act":
        raise Refusal("bad-message", f'unknown message type {kind!r}: send "act", "entropy", '
                      '"sync" or "ping"')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refusal("bad-message", '"act" needs the "version" of the state it was made '
                      "from (a whole number)")
    action = data.get("action")
    if not isinstance(action, dict):
        raise Refusal("bad-message", '"act" needs an "action" such as {"play": "AS"}')
    return kind, data
