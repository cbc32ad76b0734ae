"""The HTTP routes of the JSON API and the table's page (docs/protocol.md): each a small
function of the request; the server's parts are in ``request.app.state``."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response

from spades import __version__
from spades.accounts import Limited
from spades.session import OverrunError, ReviewError, StoppingError
from spades.stats import store_stats
from spades.store import PLAYING, StoreError

from .common import (
    MAX_MESSAGE,
    NOT_FOUND,
    error_response,
    limited,
    lobby_of,
    read_body,
    reason,
    watchers_of,
)
from .forwarded import client_address
from .identity import Identity, person
from .lobby import summary_json
from .presets import ChoiceError, presets_json
from .quotas import GameQuota, too_many
from .review import ClientGone, failure, while_connected
from .shared import answers
from .watchers import GAME_ABANDONED

log = logging.getLogger("spades.server")
#: What a new game's body may hold.
NEW_GAME_FIELDS = ("preset", "level", "house_rules", "seats")


async def index(request: Request) -> Response:
    page = Path(request.app.state.settings.web_dir) / "index.html"
    if page.is_file():
        return FileResponse(page, headers={"Cache-Control": "no-cache"})
    return HTMLResponse("<!doctype html><title>Spades</title><p>The table is not built.")


def web_version(web_dir: Path) -> str:
    """The version of the web client, which names its offline cache: the package's version
    and a digest of the files served (a client that reports another one must reload)."""
    digest = hashlib.sha256()
    for path in sorted(web_dir.rglob("*")):
        if path.is_file():
            digest.update(path.relative_to(web_dir).as_posix().encode() + b"\0" + path.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


async def version_info(request: Request) -> Response:
    return JSONResponse({"version": request.app.state.web_version},
                        headers={"Cache-Control": "no-store"})


async def health(request: Request) -> Response:
    """Whether the server can read its store (a trivial query) and, with ``--redis``,
    whether Redis answers, for a monitor or a proxy: 503 when either does not."""
    headers = {"Cache-Control": "no-store"}
    body: dict[str, Any] = {"ok": True, "store": "ok", "version": __version__}
    try:
        await asyncio.to_thread(request.app.state.store.check)
    except StoreError as error:
        log.error("health check: %s", error)
        body.update(ok=False, store="error", error="the saved games cannot be read right now")
    client = request.app.state.redis
    if client is not None:
        reached = await answers(client)
        body["redis"] = "ok" if reached else "error"
        if not reached:
            log.error("health check: Redis does not answer")
            body["ok"] = False
            body.setdefault("error", "Redis, which the server's processes share, does not "
                                     "answer")
    return JSONResponse(body, status_code=200 if body["ok"] else 503, headers=headers)


async def presets(request: Request) -> Response:
    return JSONResponse(presets_json())


async def list_games(request: Request) -> Response:
    who = await person(request)
    if isinstance(who, Response):
        return who
    try:
        games = await lobby_of(request).list_games(who.players)
    except StoreError:
        log.exception("could not list games")
        return error_response(503, "the saved games cannot be read right now")
    return JSONResponse({"games": games})


async def new_game_body(request: Request) -> dict[str, Any] | Response:
    """The new game's body as an object, or the response that refuses it."""
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
    unknown = sorted(set(data) - set(NEW_GAME_FIELDS))
    if unknown:
        return error_response(400, f"unknown field(s): {', '.join(unknown)}; a new game "
                              "takes preset, level, house_rules and seats")
    return data


async def create_game(request: Request) -> Response:
    who = await person(request, change=True)
    if isinstance(who, Response):
        return who
    data = await new_game_body(request)
    if isinstance(data, Response):
        return data
    try:
        if (refused := await new_game_refused(request, who)) is not None:
            return refused
        row = await lobby_of(request).create(
            who.player, data.get("preset", "house"), data.get("house_rules"),
            data.get("level", "normal"), data.get("seats"), who.players)
    except ChoiceError as error:
        return error_response(400, str(error))
    except StoreError as error:
        log.exception("could not create a game")
        if error.reason:
            return error_response(503, f"the game could not be saved: {error.reason}")
        return error_response(503, "the game could not be saved; try again")
    return JSONResponse({"id": row.id, "websocket": f"/ws/games/{row.id}",
                         "game": summary_json(row)}, status_code=201)


async def new_game_refused(request: Request, who: Identity) -> Response | None:
    """A new game past the limits (docs/protocol.md): started too fast (429, counted per
    player id and per address), or too many unfinished ones (409, which says how to delete
    one); None: it may be made."""
    quota: GameQuota = request.app.state.game_quota
    try:
        await quota.take(who.player, client_address(request))
    except Limited as error:
        return limited(error)
    most = quota.limits.unfinished
    if await lobby_of(request).unfinished(who.players) >= most:
        return error_response(409, too_many(most))
    return None


async def delete_game(request: Request) -> Response:
    """``DELETE /api/games/{id}``: the person who started a game in play deletes it. The
    game is marked abandoned (its rows stay: every record of it still verifies); it leaves
    the games list, and its sockets close (4404)."""
    who = await person(request, change=True)
    if isinstance(who, Response):
        return who
    game_id = request.path_params["game_id"]
    lobby = lobby_of(request)
    try:
        row = await lobby.seated_row(game_id, who.players)
        if row is None:
            return error_response(404, NOT_FOUND)
        if row.owner not in who.players:
            return error_response(403, "only the player who started this game can delete it")
        if any(s.player_id is not None and s.player_id not in who.players for s in row.seats):
            # a shared game is everyone's at it (issue 39): one leaves it, for good
            return error_response(409, "other people play at this game: leave the table "
                                  "instead (POST /api/tables/{id}/leave)")
        if row.status != PLAYING or not await lobby.abandon(game_id):
            return error_response(409, "this game is over: only a game in play can be "
                                  "deleted, and a finished one stays in the list")
    except StoreError:
        log.exception("could not delete game %s", game_id)
        return error_response(503, "this game cannot be deleted right now; try again")
    await watchers_of(request).end(GAME_ABANDONED, games=[game_id])  # its sockets first,
    await lobby.forget([game_id])  # then its table
    return JSONResponse({"deleted": True, "id": game_id})


async def game_summary(request: Request) -> Response:
    who = await person(request)
    if isinstance(who, Response):
        return who
    try:
        summary = await lobby_of(request).summary(request.path_params["game_id"],
                                                  who.players)
    except StoreError:
        log.exception("could not read a game")
        return error_response(503, "this game cannot be read right now")
    if summary is None:
        return error_response(404, NOT_FOUND)
    return JSONResponse(summary)


async def record(request: Request) -> Response:
    who = await person(request)
    if isinstance(who, Response):
        return who
    game_id = request.path_params["game_id"]
    try:
        data = await lobby_of(request).download(game_id, who.players)
    except StoreError:
        log.exception("could not load game %s", game_id)
        return error_response(503, "this game cannot be read right now")
    if data is None:
        return error_response(404, NOT_FOUND)
    return Response(json.dumps(data, indent=1), media_type="application/json", headers={
        "Content-Disposition": f'attachment; filename="spades-{game_id}.json"'})


async def stats(request: Request) -> Response:
    """The player's statistics, from their own games only (docs/protocol.md)."""
    who = await person(request)
    if isinstance(who, Response):
        return who
    unreadable: list[str] = []
    state = request.app.state
    try:
        found = await asyncio.to_thread(store_stats, state.store, who.players, state.figures,
                                        unreadable)
    except StoreError:
        log.exception("could not work out statistics")
        return error_response(503, "the statistics cannot be worked out right now")
    for message in unreadable:
        log.error("statistics left a game out: %s", message)
    return JSONResponse({**found.to_json(), "unreadable": len(unreadable)})


async def hand_review(request: Request) -> Response:
    """``GET /api/games/{id}/hands/{n}/review``: the review of a finished hand (it waits
    while the review is worked out)."""
    who = await person(request)
    if isinstance(who, Response):
        return who
    game_id = request.path_params["game_id"]
    text = request.path_params["hand"]
    if not text.isdigit() or len(text) > 6:
        return error_response(400, f"hands are numbered from 1, not {text!r}")
    hand = int(text)
    try:
        table = await lobby_of(request).table(game_id, who.players)
    except StoreError:
        log.exception("could not load game %s", game_id)
        return error_response(503, "this game cannot be read right now")
    if table is None:
        return error_response(404, NOT_FOUND)
    game = table.snapshot
    try:
        asked = table.reviews.review(table.id, game, hand, seats=table.people)
        review = await while_connected(request, asked)
    except ClientGone:
        return Response(status_code=499)  # nobody to answer: the review was stopped
    except ReviewError as error:
        # the hand in play is not over yet (409); a hand that does not exist is not found
        in_play = hand == game.hands_done + 1 and not game.over
        return error_response(409 if in_play else 404, str(error))
    except Exception as error:
        if not isinstance(error, OverrunError | StoppingError):
            log.exception("the review of hand %d of game %s failed", hand, game_id)
        return error_response(503, failure(error))
    return JSONResponse({"hand": hand, "review": review})
