"""What every route of the server shares: its settings, reading the player id, JSON."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import orjson
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse
from starlette.websockets import WebSocket

from spades.accounts import COST, AccountLimits, Cost, Limited

from .hosts import LOCAL_HOSTS
from .lobby import Lobby
from .quotas import GameLimits
from .watchers import Watchers
from .wire import Json

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: The largest request body or websocket message we read.
MAX_MESSAGE = 16 * 1024
PLAYER_HEADER = "x-spades-player"
NOT_FOUND = "no such game for this player"
#: The websocket close code for a client that stopped taking its messages.
POLICY_CLOSE = 1008
BAD_PLAYER = ("a player id is needed: start a session (POST /api/session), sign in, or send "
              "the header X-Spades-Player with 8 to 64 characters of A-Z, a-z, 0-9, - and _")


@dataclass(frozen=True)
class Settings:
    """How to run the server. ``db_url`` None is SQLite in the user's data folder;
    ``workers`` None is one thinking process per core, 0 thinks inline (tests);
    ``pace`` is the least time between two changes made by computer players;
    ``seed`` makes the computer players' choices repeatable (tests only);
    ``allowed_hosts`` are the names the server answers to (``Host``), None: any;
    ``trusted_proxies`` are the addresses or networks whose X-Forwarded-For and
    X-Forwarded-Proto are believed; ``smtp_url`` sends password reset links by email
    (None: they are written to the server's log); ``public_url`` is the address those links
    start with (never taken from a request's Host header); an https:// one says the pages
    are served over TLS, so the session cookie is Secure and HSTS is sent; ``account_limits``
    and ``game_limits`` hold back sign-ups, password guessing, hashes at once and new games
    (docs/self-hosting.md, "Limits"); ``device_secret`` signs device cookies (None: a random
    key at each start, which forgets the devices)."""

    db_url: str | None = None
    web_dir: Path = field(default=WEB_DIR)
    workers: int | None = None
    pace: float = 0.6
    table_prefix: str = ""
    seed: int | None = None
    allowed_hosts: tuple[str, ...] | None = LOCAL_HOSTS
    trusted_proxies: tuple[str, ...] = ()
    smtp_url: str | None = None
    public_url: str = "http://127.0.0.1:8000"
    password_cost: Cost = COST
    # the limits of issue 37 items 1-4, together
    account_limits: AccountLimits = field(default_factory=AccountLimits)
    game_limits: GameLimits = field(default_factory=GameLimits)
    device_secret: str | None = None
    #: seconds a person's seat is held after their last socket closes (tables for friends)
    grace: float = 30.0
    #: wrong invite or watch codes a minute per address (None: SPADES_INVITE_LIMIT or 20)
    invite_limit: int | None = None
    #: Redis, shared by the server's processes (``redis://...``; None: this process only)
    redis_url: str | None = None
    #: server processes on this port (``--processes``): each reads a player's frames at its
    #: share of the per-player rate, as each allows its share of an address's connections
    processes: int = 1


def dumps(message: Json) -> str:
    """A message as the compact JSON text of a frame (orjson: UTF-8 as it is, not escaped;
    keys that are not strings written as strings, as the json module does)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def limited(error: Limited) -> JSONResponse:
    """429 with when to retry, in seconds (Retry-After and the body)."""
    return JSONResponse({"error": error.message(), "retry_after": error.retry},
                        status_code=429, headers={"Retry-After": str(error.retry)})


def lobby_of(request: Request | WebSocket) -> Lobby:
    lobby: Lobby = request.app.state.lobby
    return lobby


def watchers_of(request: Request | WebSocket) -> Watchers:
    """The open sockets by login: a sign-in that ends ends its sockets before the answer
    goes (docs/protocol.md, "When a sign-in ends")."""
    watchers: Watchers = request.app.state.watchers
    return watchers


async def read_body(request: Request, limit: int = MAX_MESSAGE) -> bytes | None:
    """The request body, or None as soon as it is over ``limit`` bytes (it is never read
    whole: a huge body costs no memory) or the client is gone."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    try:
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                return None
            chunks.append(chunk)
    except ClientDisconnect:  # gone, or cut off by the server (a body over its limit)
        return None
    return b"".join(chunks)


def reason(error: Exception) -> str:
    """Why JSON could not be read, in a sentence (never a traceback)."""
    if isinstance(error, RecursionError):
        return "it is nested too deep"
    return str(error)
