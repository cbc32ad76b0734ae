"""The HTTP routes of tables for friends (docs/protocol.md, "Tables with friends"). Every
route goes through the one access check (``Hall.reach`` for the people seated,
``Hall.by_code`` for the holder of a code); for anyone else a table does not exist (404,
the body of every game's 404)."""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spades.store import WAITING, FriendTable, StoreError

from .api import new_game_refused
from .bodies import json_object
from .common import NOT_FOUND, error_response, watchers_of
from .forwarded import client_address
from .identity import Identity, person
from .presets import ChoiceError
from .rooms import Rooms
from .table_json import table_object
from .tables import OPTION_FIELDS, Hall, Limited, TableError
from .tickets import TICKET_LIFE, tickets_of
from .watchers import NOT_SEATED

log = logging.getLogger("spades.server")
Handler = Callable[[Request, Identity], Awaitable[Response]]


def hall_of(request: Request) -> Hall:
    hall: Hall = request.app.state.hall
    return hall


def rooms_of(request: Request) -> Rooms:
    rooms: Rooms = request.app.state.rooms
    return rooms


def refused(error: Exception) -> Response:
    """The answer of a refused change, a refused choice, or too many wrong codes."""
    if isinstance(error, Limited):
        wait = max(1, math.ceil(error.wait))
        return JSONResponse({"error": "too many wrong codes: try again in a minute",
                             "retry_after": wait}, status_code=429,
                            headers={"Retry-After": str(wait)})
    if isinstance(error, ChoiceError):
        return error_response(400, str(error))
    assert isinstance(error, TableError)
    if error.status == 404:
        return error_response(404, NOT_FOUND)
    return error_response(error.status, error.message)


def route(handler: Handler, change: bool = True) -> Callable[[Request], Awaitable[Response]]:
    """A route: the asker identified (a change needs its CSRF token), refusals answered."""

    async def endpoint(request: Request) -> Response:
        who = await person(request, change=change)
        if isinstance(who, Response):
            return who
        try:
            return await handler(request, who)
        except (TableError, ChoiceError, Limited) as error:
            return refused(error)
        except StoreError:
            log.exception("a table for friends could not be read or saved")
            return error_response(503, "the table could not be read or saved; try again")

    return endpoint


async def answer(request: Request, table: FriendTable, you: int | None, status: int = 200,
                 **extra: Any) -> Response:
    """The table for the asker at seat ``you``; once started, with its game's seats (a
    computer player's seat is "computer", with its name)."""
    rooms = rooms_of(request)
    row = None
    if table.status != WAITING:
        row = await asyncio.to_thread(hall_of(request).store.get_game, table.id)
    body = {**extra, "table": table_object(table, you, row, here=rooms.here(table.id))}
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def create(request: Request, who: Identity) -> Response:
    data = await json_object(request, (*OPTION_FIELDS, "name", "seat"), '{"name": "Ann"}')
    if isinstance(data, Response):
        return data
    table, code, watch = await hall_of(request).create(who.player, who.players, data)
    you = table.seats[0].seat
    return await answer(request, table, you, 201, id=table.id, code=code, invite=f"/t/{code}",
                  watch_code=watch, watch_link=None if watch is None else f"/w/{watch}")


async def show(request: Request, who: Identity) -> Response:
    found = await hall_of(request).reach(request.path_params["table_id"], who.players)
    if found is None:
        raise TableError(404)
    return await answer(request, found[0], found[1].seat)


async def preview(request: Request, who: Identity) -> Response:
    hall = hall_of(request)
    table = await hall.by_code(request.path_params["code"], client_address(request),
                               who.players)
    if table is None:
        raise TableError(404)
    mine = table.person(who.players)
    return await answer(request, table, None if mine is None else mine.seat)


async def join(request: Request, who: Identity) -> Response:
    data = await json_object(request, ("seat", "name"), '{"seat": 1, "name": "Bob"}')
    if isinstance(data, Response):
        return data
    hall = hall_of(request)
    table = await hall.by_code(request.path_params["code"], client_address(request),
                               who.players)
    if table is None:
        raise TableError(404)
    table, seat = await hall.join(table, who.player, who.players, data)
    rooms_of(request).tell(table)
    return await answer(request, table, seat.seat, seat=seat.seat, name=seat.name)


def changing(kind: str, fields: tuple[str, ...], example: str) -> Handler:
    """A change of a waiting table: a person's own seat, or the host's powers."""

    async def handler(request: Request, who: Identity) -> Response:
        data = await json_object(request, fields, example)
        if isinstance(data, Response):
            return data
        hall, table_id = hall_of(request), request.path_params["table_id"]
        before = await hall.load(table_id)
        table = await hall.change(table_id, who.players, kind, data)
        if kind == "remove" and before is not None:
            gone = set(table.barred) - set(before.barred)
            await watchers_of(request).end_at(NOT_SEATED, table_id, gone)
        if kind == "patch" and not table.options["watching"]:
            await watchers_of(request).end_at(NOT_SEATED, table_id, watching=True)
        rooms_of(request).tell(table)
        mine = table.person(who.players)
        return await answer(request, table, None if mine is None else mine.seat)

    return handler


def coding(watch: bool, revoke: bool) -> Handler:
    """The host renews or revokes the invite link or the watch link."""

    async def handler(request: Request, who: Identity) -> Response:
        table_id = request.path_params["table_id"]
        table, code = await hall_of(request).new_code(table_id, who.players, watch, revoke)
        if watch:  # the old watch link's spectators go at once
            await watchers_of(request).end_at(NOT_SEATED, table_id, watching=True)
        rooms_of(request).tell(table)
        mine = table.person(who.players)
        you = None if mine is None else mine.seat
        if watch:
            link = None if code is None else f"/w/{code}"
            return await answer(request, table, you, watch_code=code, watch_link=link)
        return await answer(request, table, you, code=code,
                      invite=None if code is None else f"/t/{code}")

    return handler


async def leave(request: Request, who: Identity) -> Response:
    table_id = request.path_params["table_id"]
    table, mine = await hall_of(request).leave(table_id, who.players)
    await watchers_of(request).end_at(NOT_SEATED, table_id, who.players)
    rooms_of(request).tell(table)
    return JSONResponse({"left": True, "seat": mine.seat})


async def start(request: Request, who: Identity) -> Response:
    table_id = request.path_params["table_id"]
    found = await hall_of(request).reach(table_id, who.players)
    if found is not None and found[0].status == WAITING:
        refused = await new_game_refused(request, who)  # a new game, as any other
        if refused is not None:
            return refused
    table, row = await hall_of(request).start(table_id, who.players)
    rooms_of(request).started(table_id)
    mine = table.person(who.players)
    return JSONResponse({"game": row.id, "websocket": f"/ws/games/{row.id}",
                         "table": table_object(table, None if mine is None else mine.seat,
                                               row)})


async def again(request: Request, who: Identity) -> Response:
    table_id = request.path_params["table_id"]
    nxt = await hall_of(request).again(table_id, who.player, who.players)
    rooms_of(request).send_all(table_id, {"type": "again", "table": nxt.id})
    rooms_of(request).tell(nxt)
    mine = nxt.person(who.players)
    return await answer(request, nxt, None if mine is None else mine.seat)


async def watch_ticket(request: Request, who: Identity) -> Response:
    hall = hall_of(request)
    table = await hall.by_code(request.path_params["code"], client_address(request),
                               who.players, watch=True)
    if table is None:
        raise TableError(404)
    token = await tickets_of(request).issue(table.id, who.player, who.login, who.account,
                                      watching=True)
    return JSONResponse({"ticket": token, "game": table.id,
                         "websocket": f"/ws/games/{table.id}",
                         "expires_in": int(TICKET_LIFE)},
                        headers={"Cache-Control": "no-store"})
