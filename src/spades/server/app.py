"""The ASGI app: ``create_app(settings)`` serves the table's static files, a small JSON API
(``api``) and one websocket per game (``sockets``), docs/protocol.md. The server's parts
(store, thinking, lobby of tables) live from start to shutdown (``lifespan``)."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from spades.accounts import (
    DeviceKeys,
    Guesses,
    Hashing,
    Outbox,
    Passwords,
    Resets,
    Signups,
    counts_in,
)
from spades.session import Thinker
from spades.stats import FigureCache
from spades.store import Store

from . import account_api, again, api, forget_api, sessions, shared, tables_api, tickets
from .common import Settings
from .endings import Endings
from .forwarded import served_over_tls
from .guesses import WrongCodes
from .headers import SecurityHeaders
from .here import Here
from .hosts import AllowedHosts
from .limits import Limits
from .lobby import Lobby
from .owners import Owners
from .presence import Presence
from .quotas import GameQuota
from .rooms import Rooms
from .sockets import game_socket
from .tables import OPTION_FIELDS, Hall
from .watchers import Watchers

Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager[None]]


def lifespan_of(settings: Settings) -> Lifespan:
    """Open the store, start the thinking processes and the lobby; close them in order."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, settings.db_url, prefix=settings.table_prefix)
        thinker = Thinker(settings.workers, settings.seed)
        await thinker.start()
        lobby = Lobby(store, thinker, settings.pace)
        state: Any = app.state
        state.settings, state.store, state.thinker, state.lobby = settings, store, thinker, lobby
        state.counts = counts_in(settings.redis_url)  # every limit's (Redis: all processes)
        friends_parts(state, settings)
        state.figures, state.limits = FigureCache(), Limits.shared(settings.processes)
        account_parts(state, settings)
        listening = shared_parts(state, settings)
        await state.presence.resume()
        try:
            yield
        finally:
            for task in listening:
                task.cancel()
            if state.presence.shared is not None:
                await state.presence.shared.leave_all()
            if state.owners is not None:
                await state.owners.close()
            state.presence.close()
            await lobby.close()
            state.hashing.close()
            thinker.close()
            store.close()
            if state.redis is not None:
                await state.redis.aclose()

    return lifespan


def shared_parts(state: Any, settings: Settings) -> list[asyncio.Task[None]]:
    """What the server's processes share: the Redis client (``--redis``); the tickets, in
    Redis then, else in this process (docs/protocol.md); the sockets of each login, whose
    ends are told to every process then; the tables, each led by one process and followed
    by the others (``owners``), who is at a table for friends (``presence``, ``here``). The
    tasks that hear the other processes are returned."""
    state.redis = None if settings.redis_url is None else shared.connect(settings.redis_url)
    state.watchers = Watchers()
    state.owners = None
    if state.redis is None:
        state.tickets = tickets.Tickets()
        return []
    state.tickets = tickets.RedisTickets(state.redis)
    endings = state.watchers.endings = Endings(state.redis, state.watchers)
    owners = state.owners = Owners(state.store, state.lobby, state.redis)
    state.lobby.adopt = owners.adopt
    owners.on_lead = state.presence.leading_changed
    state.presence.hand_over = owners.hand_over
    sharing = state.presence.share(Here(state.redis, owners.me))
    return [asyncio.create_task(endings.listen()), *owners.start(), *sharing]


def account_parts(state: Any, settings: Settings) -> None:
    """What accounts need while the server runs: the password hasher and its pool, the
    counts of sign-ups, of failed sign-ins and of reset links asked for, the key of device
    cookies, where reset links go, the mails being sent; and the counts of new games."""
    limits = settings.account_limits
    state.passwords = Passwords(settings.password_cost)
    state.hashing = Hashing(state.passwords, limits.hash_workers, limits.hash_queue)
    counts = state.counts
    state.signups, state.guesses = Signups(limits, counts), Guesses(limits, counts)
    state.resets = Resets(limits, counts)
    secret = settings.device_secret
    state.devices = DeviceKeys(secret.encode() if secret else secrets.token_bytes(32))
    state.game_quota = GameQuota(settings.game_limits, counts)
    state.outbox = Outbox(settings.smtp_url)
    state.mailing = set()


def friends_parts(state: Any, settings: Settings) -> None:
    """Tables for friends: the tables (``Hall``), their sockets (``Rooms``), who is away
    and who stands in (``Presence``)."""
    wrong = WrongCodes(settings.invite_limit, storage=state.counts)
    state.hall = Hall(state.store, state.lobby, wrong)
    state.rooms = Rooms(state.hall, state.lobby, settings.grace)
    state.presence = Presence(state.hall, state.rooms, settings.grace)
    state.lobby.prepare = state.presence.prepare
    state.lobby.held = state.presence.holds


def friends_routes() -> list[BaseRoute]:
    """Tables for friends (docs/protocol.md, "Tables with friends")."""
    post, base = ["POST"], "/api/tables/{table_id}"
    r = tables_api.route
    seat = tables_api.changing("seat", ("seat",), '{"seat": 3}')
    move = tables_api.changing("move", ("from", "to"), '{"from": 2, "to": 3}')
    remove = tables_api.changing("remove", ("seat",), '{"seat": 2}')
    patch = tables_api.changing("patch", OPTION_FIELDS, '{"timer": 40}')
    return [
        Route("/t/{code}", api.index), Route("/w/{code}", api.index),
        Route("/api/tables", r(tables_api.create), methods=post),
        Route(base, r(tables_api.show, change=False), methods=["GET"]),
        Route(base, r(patch), methods=["PATCH"]),
        Route(f"{base}/seat", r(seat), methods=post),
        Route(f"{base}/move", r(move), methods=post),
        Route(f"{base}/remove", r(remove), methods=post),
        Route(f"{base}/leave", r(tables_api.leave), methods=post),
        Route(f"{base}/start", r(tables_api.start), methods=post),
        Route(f"{base}/again", r(tables_api.again), methods=post),
        Route(f"{base}/invite", r(tables_api.coding(False, False)), methods=post),
        Route(f"{base}/invite", r(tables_api.coding(False, True)), methods=["DELETE"]),
        Route(f"{base}/watch", r(tables_api.coding(True, False)), methods=post),
        Route(f"{base}/watch", r(tables_api.coding(True, True)), methods=["DELETE"]),
        Route("/api/invites/{code}", r(tables_api.preview, change=False), methods=["GET"]),
        Route("/api/invites/{code}", r(tables_api.join), methods=post),
        Route("/api/watch/{code}/ticket", r(tables_api.watch_ticket), methods=post),
    ]


def account_routes() -> list[BaseRoute]:
    """Sessions and accounts (docs/protocol.md, "Accounts and sessions")."""
    post = ["POST"]
    return [
        Route("/api/session", sessions.get_session, methods=["GET"]),
        Route("/api/session", sessions.post_session, methods=post),
        Route("/api/account", account_api.account_info, methods=["GET"]),
        Route("/api/account/games.zip", account_api.games_zip, methods=["GET"]),
        Route("/api/account/signup", account_api.signup, methods=post),
        Route("/api/account/signin", account_api.signin, methods=post),
        Route("/api/account/signout", account_api.signout, methods=post),
        Route("/api/account/signout-everywhere", account_api.signout_everywhere, methods=post),
        Route("/api/account/delete", account_api.delete_account, methods=post),
        Route("/api/me", forget_api.forget_me, methods=["DELETE"]),
        Route("/api/account/reset", account_api.reset, methods=post),
        Route("/api/account/reset/confirm", account_api.reset_confirm, methods=post),
        Route("/api/account/move", account_api.move, methods=post),
    ]


def routes_of(web_dir: Path) -> list[BaseRoute]:
    routes: list[BaseRoute] = [
        Route("/", api.index),
        Route("/api/presets", api.presets),
        Route("/api/version", api.version_info),
        Route("/api/health", api.health),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/games", api.create_game, methods=["POST"]),
        Route("/api/games/{game_id}", api.game_summary, methods=["GET"]),
        Route("/api/games/{game_id}", api.delete_game, methods=["DELETE"]),
        Route("/api/games/{game_id}/record", api.record),
        Route("/api/games/{game_id}/hands/{hand}/review", api.hand_review),
        Route("/api/games/{game_id}/hands/{hand}/again", again.play_again, methods=["POST"]),
        Route("/api/games/{game_id}/ticket", tickets.ticket, methods=["POST"]),
        Route("/api/stats", api.stats),
        WebSocketRoute("/ws/games/{game_id}", game_socket),
        *account_routes(),
        *friends_routes(),
    ]
    if web_dir.is_dir():
        routes += [Mount("/static", StaticFiles(directory=web_dir)),
                   Mount("/", StaticFiles(directory=web_dir, html=True))]
    return routes


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    web_dir = Path(settings.web_dir)
    guards = [Middleware(SecurityHeaders,  # outermost: a refused host gets them too
                         https=served_over_tls(settings.public_url)),
              Middleware(AllowedHosts, names=settings.allowed_hosts)]
    app = Starlette(routes=routes_of(web_dir), middleware=guards, lifespan=lifespan_of(settings))
    app.state.web_version = api.web_version(web_dir)  # the web client's, for /api/version
    return app
