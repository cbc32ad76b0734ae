"""The ASGI app: ``create_app(settings)`` serves the table's static files, a small JSON API
and one websocket per game (docs/protocol.md)."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket

from spades import __version__
from spades.stats import FigureCache, store_stats
from spades.store import Store, StoreError

from .limits import Limits
from .lobby import Lobby, is_player_id
from .presets import ChoiceError, presets_json
from .table import Connection, Refusal
from .thinking import Brain
from .wire import Json

log = logging.getLogger("spades.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"
#: The largest request body or websocket message we read.
MAX_MESSAGE = 16 * 1024
PLAYER_HEADER = "x-spades-player"
NOT_FOUND = "no such game for this player"
#: The websocket close code for a client that stopped taking its messages.
POLICY_CLOSE = 1008


@dataclass(frozen=True)
class Settings:
    """How to run the server. ``db_url`` None is SQLite in the user's data folder;
    ``workers`` None is one thinking process per core, 0 thinks inline (tests);
    ``pace`` is the least time between two changes made by computer players;
    ``seed`` makes the computer players' choices repeatable (tests only)."""

    db_url: str | None = None
    web_dir: Path = field(default=WEB_DIR)
    workers: int | None = None
    pace: float = 0.6
    table_prefix: str = ""
    seed: int | None = None


def dumps(message: Json) -> str:
    return json.dumps(message, separators=(",", ":"))


def error_response(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def player_of(request: Request) -> str | None:
    value = request.headers.get(PLAYER_HEADER) or request.query_params.get("player")
    return value if is_player_id(value) else None


BAD_PLAYER = ("a player id is needed: send the header X-Spades-Player (or ?player=) with 8 "
              "to 64 characters of A-Z, a-z, 0-9, - and _")


def web_version(web_dir: Path) -> str:
    """The version of the web client, which names its offline cache: the package's version
    and a digest of the files served (a client that reports another one must reload)."""
    digest = hashlib.sha256()
    for path in sorted(web_dir.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(web_dir).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def create_app(settings: Settings | None = None) -> Starlette:
    settings = settings or Settings()
    web_dir = Path(settings.web_dir)
    limits = Limits()
    version = web_version(web_dir)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await asyncio.to_thread(Store, settings.db_url, prefix=settings.table_prefix)
        brain = Brain(settings.workers, settings.seed)
        await brain.start()
        lobby = Lobby(store, brain, settings.pace)
        app.state.store = store
        app.state.lobby = lobby
        app.state.brain = brain
        try:
            yield
        finally:
            await lobby.close()
            brain.close()
            store.close()

    def lobby_of(request: Request | WebSocket) -> Lobby:
        lobby: Lobby = request.app.state.lobby
        return lobby

    async def index(request: Request) -> Response:
        page = web_dir / "index.html"
        if page.is_file():
            return FileResponse(page, headers={"Cache-Control": "no-cache"})
        return HTMLResponse("<!doctype html><title>Spades</title><p>The table is not built.")

    async def version_info(request: Request) -> Response:
        return JSONResponse({"version": version}, headers={"Cache-Control": "no-store"})

    async def presets(request: Request) -> Response:
        return JSONResponse(presets_json())

    async def list_games(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return error_response(400, BAD_PLAYER)
        try:
            games = await lobby_of(request).list_games(player)
        except StoreError:
            log.exception("could not list games")
            return error_response(503, "the saved games cannot be read right now")
        return JSONResponse({"games": games})

    async def create_game(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return error_response(400, BAD_PLAYER)
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return error_response(415, "the body is JSON: send Content-Type: application/json")
        body = await read_body(request)
        if body is None:  # the rest is not read: the connection closes after the answer
            return JSONResponse({"error": f"the request is over {MAX_MESSAGE} bytes"},
                                status_code=413, headers={"Connection": "close"})
        try:
            data = json.loads(body or b"{}")
        except (ValueError, RecursionError) as error:  # also too deep, or too long a number
            return error_response(400, f"the body is not JSON we can read: {reason(error)}")
        if not isinstance(data, dict):
            return error_response(400, 'the body is an object such as {"preset": "house"}')
        unknown = sorted(set(data) - {"preset", "level", "house_rules", "seats"})
        if unknown:
            return error_response(400, f"unknown field(s): {', '.join(unknown)}; a new game "
                                  "takes preset, level, house_rules and seats")
        try:
            row = await lobby_of(request).create(
                player, data.get("preset", "house"), data.get("house_rules"),
                data.get("level", "normal"), data.get("seats"))
        except ChoiceError as error:
            return error_response(400, str(error))
        except StoreError as error:
            log.exception("could not create a game")
            if error.reason:
                return error_response(503, f"the game could not be saved: {error.reason}")
            return error_response(503, "the game could not be saved; try again")
        from .lobby import summary_json

        return JSONResponse({"id": row.id, "websocket": f"/ws/games/{row.id}",
                             "game": summary_json(row)}, status_code=201)

    async def game_summary(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return error_response(400, BAD_PLAYER)
        try:
            summary = await lobby_of(request).summary(request.path_params["game_id"], player)
        except StoreError:
            log.exception("could not read a game")
            return error_response(503, "this game cannot be read right now")
        if summary is None:
            return error_response(404, NOT_FOUND)
        return JSONResponse(summary)

    async def record(request: Request) -> Response:
        player = player_of(request)
        if player is None:
            return error_response(400, BAD_PLAYER)
        game_id = request.path_params["game_id"]
        try:
            data = await lobby_of(request).download(game_id, player)
        except StoreError:
            log.exception("could not load game %s", game_id)
            return error_response(503, "this game cannot be read right now")
        if data is None:
            return error_response(404, NOT_FOUND)
        return Response(json.dumps(data, indent=1), media_type="application/json", headers={
            "Content-Disposition": f'attachment; filename="spades-{game_id}.json"'})

    figures = FigureCache()

    async def stats(request: Request) -> Response:
        """The player's statistics, from their own games only (docs/protocol.md)."""
        player = player_of(request)
        if player is None:
            return error_response(400, BAD_PLAYER)
        unreadable: list[str] = []
        try:
            found = await asyncio.to_thread(store_stats, request.app.state.store, player,
                                            figures, unreadable)
        except StoreError:
            log.exception("could not work out statistics")
            return error_response(503, "the statistics cannot be worked out right now")
        for message in unreadable:
            log.error("statistics left a game out: %s", message)
        return JSONResponse({**found.to_json(), "unreadable": len(unreadable)})

    async def game_socket(ws: WebSocket) -> None:
        await ws.accept()
        player = ws.query_params.get("player", "")
        game_id = ws.path_params["game_id"]
        try:
            table = await lobby_of(ws).table(game_id, player) if is_player_id(player) else None
        except StoreError:
            log.exception("could not load game %s", game_id)
            await ws.send_text(dumps({"type": "error", "code": "server", "version": None,
                                      "message": "this game cannot be loaded right now"}))
            await ws.close(code=1011)
            return
        if table is None:
            await ws.send_text(dumps({"type": "error", "code": "not-found",
                                      "message": NOT_FOUND, "version": None}))
            await ws.close(code=4404)
            return
        seat = table.seat_of(player)
        assert seat is not None

        async def refresh() -> Json:
            return await table.state_message(seat)

        async def hang_up() -> None:
            await ws.close(code=POLICY_CLOSE)

        conn = Connection(seat, ws.send_text, refresh, hang_up)
        pump = asyncio.create_task(conn.pump(dumps))
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

    async def handle(table: Any, conn: Connection, text: str | None) -> None:
        try:
            kind, data = read_message(text)
            if kind == "ping":
                conn.send({"type": "pong"})
                return
            if kind == "sync":
                conn.send_fresh()
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
        table.reply(conn, error)  # the error and the table as it is now, together

    routes = [
        Route("/", index),
        Route("/api/presets", presets),
        Route("/api/version", version_info),
        Route("/api/games", list_games, methods=["GET"]),
        Route("/api/games", create_game, methods=["POST"]),
        Route("/api/games/{game_id}", game_summary),
        Route("/api/games/{game_id}/record", record),
        Route("/api/stats", stats),
        WebSocketRoute("/ws/games/{game_id}", game_socket),
    ]
    if web_dir.is_dir():
        routes += [Mount("/static", StaticFiles(directory=web_dir)),
                   Mount("/", StaticFiles(directory=web_dir, html=True))]
    return Starlette(routes=routes, lifespan=lifespan)


async def read_body(request: Request, limit: int = MAX_MESSAGE) -> bytes | None:
    """The request body, or None as soon as it is over ``limit`` bytes (it is never read
    whole: a huge body costs no memory)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


def reason(error: Exception) -> str:
    """Why JSON could not be read, in a sentence (never a traceback)."""
    if isinstance(error, RecursionError):
        return "it is nested too deep"
    return str(error)


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
    if kind != "act":
        raise Refusal("bad-message", f'unknown message type {kind!r}: send "act", "sync" or '
                      '"ping"')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool):
        raise Refusal("bad-message", '"act" needs the "version" of the state it was made '
                      "from (a whole number)")
    action = data.get("action")
    if not isinstance(action, dict):
        raise Refusal("bad-message", '"act" needs an "action" such as {"play": "AS"}')
    return kind, data
