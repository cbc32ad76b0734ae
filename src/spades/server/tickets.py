"""Tickets to open a game's websocket (docs/protocol.md, "Who can reach a game").

A browser cannot set a websocket's headers, and a player id in the socket's address would be
kept in history and logs. So a person asks ``POST /api/games/{id}/ticket`` (identified as
every HTTP request is, by the session cookie or the ``X-Spades-Player`` header) and gets a
random ticket, good once, for 30 seconds, for that game and the player id they sit at it
with; the socket's first message carries it. The ticket also remembers the login it was
asked with (the cookie's session, and its account), so that the socket ends when that
login does (``watchers``).

Tickets live in this process's memory (``Tickets``), or in Redis with ``--redis``
(``RedisTickets``), where any process of a server may take a ticket another gave, once; a
restart of a single process only makes an open page fetch a new one.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.websockets import WebSocket

from spades.store import StoreError

from . import identity
from .common import NOT_FOUND, error_response, lobby_of

#: How long a ticket opens its game's socket, in seconds.
TICKET_LIFE = 30.0
#: Tickets kept at most; beyond this the oldest are dropped (a flood costs bounded memory).
MOST_TICKETS = 10_000
log = logging.getLogger("spades.server")


@dataclass(frozen=True)
class Ticket:
    game: str
    player: str
    expires: float
    login: str | None = None  # the login session asked with (None: a header's player id)
    account: str | None = None  # that login's account (None: anonymous)
    watching: bool = False  # a spectator's (a watch code's), not a seat's


class Tickets:
    """The tickets given out and not yet used, oldest first (they all live as long, so the
    oldest is the first to expire)."""

    def __init__(self, life: float = TICKET_LIFE, most: int = MOST_TICKETS,
                 clock: Callable[[], float] = time.monotonic):
        self.life = life
        self.most = most
        self.clock = clock
        self._tickets: dict[str, Ticket] = {}

    def __len__(self) -> int:
        return len(self._tickets)

    async def issue(self, game: str, player: str, login: str | None = None,
                    account: str | None = None, watching: bool = False) -> str:
        """A new ticket for ``player`` to open ``game``'s socket, asked for with ``login``
        (of ``account``); ``watching``: as a spectator."""
        self._forget_expired()
        while len(self._tickets) >= self.most:
            del self._tickets[next(iter(self._tickets))]
        token = secrets.token_urlsafe(32)
        self._tickets[token] = Ticket(game, player, self.clock() + self.life, login, account,
                                      watching)
        return token

    async def redeem(self, token: object, game: str) -> Ticket | None:
        """The ticket, if it is for ``game`` and still good. A ticket is used up by this,
        whatever the answer."""
        if not isinstance(token, str):
            return None
        ticket = self._tickets.pop(token, None)
        if ticket is None or ticket.game != game or ticket.expires <= self.clock():
            return None
        return ticket

    def _forget_expired(self) -> None:
        now = self.clock()
        while self._tickets:
            token, ticket = next(iter(self._tickets.items()))
            if ticket.expires > now:
                return
            del self._tickets[token]


class RedisTickets:
    """The tickets in Redis, shared by every process of a server: each kept under the
    SHA-256 of its token (the token itself is never stored) for ``life`` seconds, and taken
    with GETDEL, so that exactly one process can use it."""

    def __init__(self, client: Any, life: float = TICKET_LIFE, prefix: str = "spades:"):
        self.client = client
        self.life = life
        self.prefix = f"{prefix}ticket:"

    def _key(self, token: str) -> str:
        return self.prefix + hashlib.sha256(token.encode()).hexdigest()

    async def issue(self, game: str, player: str, login: str | None = None,
                    account: str | None = None, watching: bool = False) -> str:
        token = secrets.token_urlsafe(32)
        ticket = Ticket(game, player, 0.0, login, account, watching)
        fields = {k: v for k, v in dataclasses.asdict(ticket).items() if k != "expires"}
        await self.client.set(self._key(token), json.dumps(fields), ex=math.ceil(self.life))
        return token

    async def redeem(self, token: object, game: str) -> Ticket | None:
        """As ``Tickets.redeem``: the ticket if it is for ``game`` and still good (Redis
        forgets it when its life is over); used up whatever the answer."""
        if not isinstance(token, str) or not 0 < len(token) <= 256:
            return None
        found = await self.client.getdel(self._key(token))
        if found is None:
            return None
        ticket = Ticket(expires=0.0, **json.loads(found))
        return ticket if ticket.game == game else None


def tickets_of(request: Request | WebSocket) -> Tickets | RedisTickets:
    tickets: Tickets | RedisTickets = request.app.state.tickets
    return tickets


async def ticket(request: Request) -> Response:
    """``POST /api/games/{id}/ticket``: a ticket to open the game's socket, for a person
    seated at it (404 for anyone else, as for every route of a game)."""
    person = await identity.person(request, change=True)  # a cookie's needs its CSRF token
    if isinstance(person, Response):
        return person
    game_id = request.path_params["game_id"]
    try:
        player = await lobby_of(request).seated_id(game_id, person.players)
        if player is None:  # a table for friends still waiting: its waiting room
            found = await request.app.state.hall.reach(game_id, person.players)
            player = None if found is None else found[1].player_id
    except StoreError:
        log.exception("could not read game %s", game_id)
        return error_response(503, "this game cannot be read right now")
    if player is None:
        return error_response(404, NOT_FOUND)
    token = await tickets_of(request).issue(game_id, player, person.login, person.account)
    return JSONResponse({"ticket": token, "expires_in": int(TICKET_LIFE)},
                        headers={"Cache-Control": "no-store"})
