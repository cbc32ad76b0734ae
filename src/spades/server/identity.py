"""One identity per request (docs/protocol.md, "Accounts and sessions").

``identify(conn)`` says who is asking, for an HTTP request or a websocket alike:

1. the ``spades_session`` cookie (HttpOnly, SameSite=Lax, Secure over HTTPS) names a login
   session in the store, by the SHA-256 of its token: an anonymous login is one player id,
   a signed-in one is every player id of its account;
2. else the header ``X-Spades-Player`` (scripts and tests; a header is no CSRF risk, since
   a page elsewhere cannot set it without our consent), unless that id's games were moved
   into an account: then only signing in reaches them.

A player id in a URL is no longer read for HTTP. The answer is worked out once per request
(kept in its scope). ``csrf_refusal`` is the check every state-changing request makes.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import hashlib
import hmac
from dataclasses import dataclass

from starlette.requests import HTTPConnection, Request
from starlette.responses import Response
from starlette.websockets import WebSocket

from spades.store import LoginRow, Store

from .common import BAD_PLAYER, PLAYER_HEADER, error_response
from .ids import is_player_id

#: The cookie that carries a login session's token.
COOKIE = "spades_session"
#: The header a cookie-authenticated change must carry, holding its login's CSRF token.
CSRF_HEADER = "x-csrf-token"
#: How long a login lasts without being used: a signed-in one, and an anonymous one (the
#: browser's own saves: as long as browsers keep a cookie).
ACCOUNT_LIFETIME = dt.timedelta(days=30)
ANONYMOUS_LIFETIME = dt.timedelta(days=400)
#: A login's "last seen" is written at most this often.
TOUCH_EVERY = dt.timedelta(minutes=10)
#: Methods that change something: they need the CSRF token when a cookie authenticates.
CHANGES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
CSRF_REFUSED = ("this change was refused: it did not carry this session's X-CSRF-Token "
                "(reload the page and try again)")

_IDENTITY = "spades.identity"
_LOGIN = "spades.login"


@dataclass(frozen=True)
class Identity:
    player: str  # the player id a new game seats this person with
    players: frozenset[str]  # every player id whose games this person may reach
    account: str | None = None
    login: str | None = None  # the login session's id


def login_id(token: str) -> str:
    """The id a login is stored by: the SHA-256 of its cookie's token, never the token."""
    return hashlib.sha256(token.encode()).hexdigest()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def store_of(conn: HTTPConnection) -> Store:
    store: Store = conn.app.state.store
    return store


def lifetime(login: LoginRow) -> dt.timedelta:
    return ANONYMOUS_LIFETIME if login.account_id is None else ACCOUNT_LIFETIME


def _resolve(store: Store, token: str | None, header: str | None,
             when: dt.datetime) -> tuple[Identity | None, LoginRow | None]:
    """Blocking: the identity of a cookie's token or a header's player id."""
    accounts = store.accounts
    if token:
        login = accounts.login(login_id(token), when)
        if login is not None:
            if when - login.last_seen >= TOUCH_EVERY:
                accounts.touch(login.id, when, when + lifetime(login))
            if login.account_id is None:
                return Identity(login.player_id, frozenset({login.player_id}),
                                login=login.id), login
            players = accounts.players(login.account_id)
            return Identity(login.player_id, players | {login.player_id},
                            account=login.account_id, login=login.id), login
    if is_player_id(header):
        assert header is not None
        if accounts.owner_of(header) is None:
            return Identity(header, frozenset({header})), None
    return None, None


async def identify(conn: Request | WebSocket) -> Identity | None:
    """Who is asking (None: nobody we know; see the module's docstring)."""
    scope = conn.scope
    if _IDENTITY not in scope:
        identity, login = await asyncio.to_thread(
            _resolve, store_of(conn), conn.cookies.get(COOKIE),
            conn.headers.get(PLAYER_HEADER), now())
        scope[_IDENTITY], scope[_LOGIN] = identity, login
    found: Identity | None = scope[_IDENTITY]
    return found


def login_of(conn: HTTPConnection) -> LoginRow | None:
    """The login of the request's cookie (after ``identify``), None if none."""
    login: LoginRow | None = conn.scope.get(_LOGIN)
    return login


def forget(conn: HTTPConnection) -> None:
    """Work the identity out afresh next time (after signing in or out)."""
    conn.scope.pop(_IDENTITY, None)
    conn.scope.pop(_LOGIN, None)


def csrf_ok(conn: HTTPConnection, identity: Identity | None) -> bool:
    """Whether a state-changing request may go on: one authenticated by its cookie must
    carry that login's CSRF token (compared in constant time); a header's needs none."""
    if identity is None or identity.login is None or conn.scope.get("method") not in CHANGES:
        return True
    login = login_of(conn)
    given = conn.headers.get(CSRF_HEADER, "")
    return login is not None and hmac.compare_digest(given.encode(), login.csrf.encode())


async def person(request: Request, *, change: bool = False) -> Identity | Response:
    """The identity of a route's request, or the response that refuses it: nobody known
    (400), or a change authenticated by the cookie without its CSRF token (403)."""
    identity = await identify(request)
    if identity is None:
        return error_response(400, BAD_PLAYER)
    if change and not csrf_ok(request, identity):
        return error_response(403, CSRF_REFUSED)
    return identity
