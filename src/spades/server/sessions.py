"""Login sessions: ``GET /api/session`` says who the cookie is, ``POST /api/session`` starts
an anonymous one (adopting the browser's old player id, so its games stay reachable), and
what signing in and out share: a new login with a new token, the cookie that carries it.

A login is stored by the SHA-256 of its token (``identity.login_id``); the token itself is
only ever in the cookie (HttpOnly: no script reads it). Each login has its own CSRF token,
which the page reads from these answers and sends back as ``X-CSRF-Token``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import secrets
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spades.accounts import device_label
from spades.store import LoginRow, StoreError

from .bodies import json_object
from .common import error_response
from .forwarded import is_https
from .identity import (
    COOKIE,
    CSRF_REFUSED,
    csrf_ok,
    forget,
    identify,
    lifetime,
    login_id,
    login_of,
    now,
    store_of,
)
from .ids import is_player_id

log = logging.getLogger("spades.server")
UNAVAILABLE = "the sessions cannot be read right now; try again"


def new_player_id() -> str:
    return secrets.token_urlsafe(16)  # 22 characters of A-Z, a-z, 0-9, - and _


async def start_login(request: Request, player: str, account: str | None = None,
                      moving: str | None = None) -> tuple[str, LoginRow]:
    """A new login (and so a new token: nothing set before it stays valid) replacing the
    request's own; its token for the cookie, and its row."""
    token = secrets.token_urlsafe(32)
    when = now()
    login = LoginRow(id=login_id(token), player_id=player, account_id=account,
                     csrf=secrets.token_urlsafe(32), created=when, last_seen=when,
                     expires=when, device=device_label(request.headers.get("user-agent")),
                     moving=moving)
    login = dataclasses.replace(login, expires=when + lifetime(login))
    old = login_of(request)
    await asyncio.to_thread(store_of(request).accounts.add_login, login,
                            replaces=old.id if old is not None else None)
    forget(request)
    return token, login


def with_cookie(response: Response, request: Request, token: str, login: LoginRow) -> Response:
    response.set_cookie(COOKIE, token, max_age=int(lifetime(login).total_seconds()), path="/",
                        httponly=True, samesite="lax", secure=is_https(request))
    return response


def without_cookie(response: Response, request: Request) -> Response:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="lax",
                           secure=is_https(request))
    return response


def session_json(login: LoginRow | None, email: str | None = None,
                 moving: int = 0, player: str | None = None) -> dict[str, Any]:
    """What a page knows of its session: its player id, its account, its CSRF token, and
    whether games wait for "move them into the account?"."""
    answer: dict[str, Any] = {
        "player": login.player_id if login is not None else player,
        "account": {"email": email} if email is not None else None,
        "csrf": login.csrf if login is not None else None,
    }
    if moving:
        answer["move_games"] = {"count": moving}
    return answer


def _described(request: Request, login: LoginRow | None,
               player: str | None) -> dict[str, Any]:
    """Blocking: the session's answer, reading the account's email and waiting games."""
    accounts = store_of(request).accounts
    email = None
    moving = 0
    if login is not None and login.account_id is not None:
        account = accounts.get(login.account_id)
        email = account.email if account is not None else None
        if login.moving is not None:
            moving = accounts.count_games(login.moving)
    return session_json(login, email, moving, player)


async def describe(request: Request, login: LoginRow | None,
                   player: str | None = None) -> dict[str, Any]:
    return await asyncio.to_thread(_described, request, login, player)


async def get_session(request: Request) -> Response:
    try:
        identity = await identify(request)
        answer = await describe(request, login_of(request),
                                identity.player if identity is not None else None)
    except StoreError:
        log.exception("could not read a session")
        return error_response(503, UNAVAILABLE)
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def post_session(request: Request) -> Response:
    """Start an anonymous login for the browser's player id (``{"player": ...}``: its games
    stay reachable) or a new one (``{}``). A page already in a session keeps it."""
    data = await json_object(request, ("player",), '{"player": "its id"} or {}')
    if isinstance(data, Response):
        return data
    player = data.get("player")
    if player is not None and not is_player_id(player):
        return error_response(400, "player is the id this browser played with: 8 to 64 "
                              "characters of A-Z, a-z, 0-9, - and _")
    try:
        identity = await identify(request)
        login = login_of(request)
        if login is not None:
            if not csrf_ok(request, identity):
                return error_response(403, CSRF_REFUSED)
            if login.account_id is not None or player in (None, login.player_id):
                return JSONResponse(await describe(request, login))
        accounts = store_of(request).accounts
        if player is None or await asyncio.to_thread(accounts.owner_of, player) is not None:
            player = new_player_id()  # an id moved into an account is reached by signing in
        token, login = await start_login(request, player)
        answer = await describe(request, login)
    except StoreError:
        log.exception("could not start a session")
        return error_response(503, UNAVAILABLE)
    return with_cookie(JSONResponse(answer, status_code=201), request, token, login)
