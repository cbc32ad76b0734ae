"""Deleting a person's data (docs/protocol.md, "DELETE /api/me"): an anonymous person's
player id is taken out of every game, as deleting an account does for its ids. Shared games
go on for the others (the person's seat is a computer player's, named "a former player");
the games nobody else sits at are deleted.

``hand_over`` is what follows in the server for both: the sockets of deleted games close,
the tables in memory take their new seats, and everyone at a shared game is told."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spades.store import StoreError

from .common import error_response, lobby_of, watchers_of
from .identity import login_of, person, store_of
from .sessions import without_cookie
from .watchers import GAME_DELETED, NOT_SEATED

log = logging.getLogger("spades.server")
SIGNED_IN = ("this browser is signed in: its games are the account's (delete the account "
             "instead: Account, then Delete account)")
UNAVAILABLE = "your data could not be deleted right now; try again"


async def hand_over(request: Request, seated: Collection[str], deleted: list[str],
                    players: Collection[str] = ()) -> None:
    """After a person left every game at once: ``deleted`` games' sockets close and their
    tables go; in the games others sit at (``seated`` less ``deleted``) the person's sockets
    (of ``players``) close, the seats follow and everyone is told."""
    watchers = watchers_of(request)
    await watchers.end(GAME_DELETED, games=deleted)
    lobby = lobby_of(request)
    await lobby.forget(deleted)
    shared = [g for g in seated if g not in deleted]
    for game_id in shared:
        await watchers.end_at(NOT_SEATED, game_id, players)
    await lobby.refresh_seats(shared)
    for game_id in shared:
        await request.app.state.rooms.presence_changed(game_id)


async def forget_me(request: Request) -> Response:
    """``DELETE /api/me``: the asker's anonymous player id and everything of it."""
    who = await person(request, change=True)
    if isinstance(who, Response):
        return who
    if who.account is not None:
        return error_response(409, SIGNED_IN)
    accounts = store_of(request).accounts
    try:
        if await asyncio.to_thread(accounts.owner_of, who.player) is not None:
            return error_response(409, SIGNED_IN)  # its games were moved into an account
        seated = await asyncio.to_thread(accounts.games_of, None, [who.player])
        deleted = await asyncio.to_thread(accounts.forget_player, who.player)
    except StoreError:
        log.exception("could not delete a player's data")
        return error_response(503, UNAVAILABLE)
    login = login_of(request)
    if login is not None:
        await watchers_of(request).end(NOT_SEATED, logins=[login.id])
    await hand_over(request, seated, deleted, [who.player])
    return without_cookie(JSONResponse({"deleted": True, "games": len(deleted),
                                        "player": None}), request)
