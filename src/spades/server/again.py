"""``POST /api/games/{id}/hands/{n}/again``: play a finished hand's deal again (issue 41
item 3, docs/protocol.md): a new game for the person, in the same seat against computer
players, dealt the very same cards, from 0-0 or from the scores before that hand. Its first
deal was chosen, and its shuffle news and record say so; it counts as practice."""

from __future__ import annotations

import json
import logging

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from spades.store import StoreError

from .api import new_game_refused
from .common import NOT_FOUND, error_response, lobby_of, read_body
from .identity import person
from .lobby import summary_json
from .presets import ChoiceError

log = logging.getLogger("spades.server")


async def play_again(request: Request) -> Response:
    who = await person(request, change=True)
    if isinstance(who, Response):
        return who
    text = request.path_params["hand"]
    if not text.isdigit() or len(text) > 6 or int(text) < 1:
        return error_response(400, f"hands are numbered from 1, not {text!r}")
    body = await read_body(request)
    try:
        data = json.loads(body or b"{}") if body is not None else None
    except (ValueError, RecursionError):
        data = None
    if not isinstance(data, dict) or set(data) - {"from_scores"} or not isinstance(
            data.get("from_scores", False), bool):
        return error_response(400, 'the body is {"from_scores": true} (from the scores '
                              "before that hand) or {} (from 0-0)")
    try:
        if (refused := await new_game_refused(request, who)) is not None:
            return refused
        row = await lobby_of(request).again(request.path_params["game_id"], who.player,
                                            who.players, int(text),
                                            bool(data.get("from_scores", False)))
    except ChoiceError as error:
        return error_response(409, str(error))
    except StoreError:
        log.exception("could not play a deal again")
        return error_response(503, "the new game could not be saved; try again")
    if row is None:
        return error_response(404, NOT_FOUND)
    return JSONResponse({"id": row.id, "websocket": f"/ws/games/{row.id}",
                         "game": summary_json(row)}, status_code=201)
