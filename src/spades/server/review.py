"""A hand review asked for at the table (docs/protocol.md, docs/review.md): over the game's
websocket (``{"type": "review", "hand": N}``, answered with ``review-progress`` messages
then ``review``) or over HTTP (``GET /api/games/{id}/hands/{n}/review``, in ``api``). Only a
finished hand is reviewed: for any other the answer is an error and nothing else."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import TypeVar

from starlette.requests import Request

from spades.session import OverrunError, ReviewError, Reviews, Snapshot, StoppingError

from .connections import Connection
from .wire import Json

log = logging.getLogger("spades.server")

T = TypeVar("T")
#: How often a review asked for over HTTP checks that its client is still there.
GONE_EVERY = 0.5

#: Why a review could not be made, for a person.
TOO_LONG = "this hand's review took too long and was stopped; ask again later"
STOPPING = "the server is stopping; ask for the review again in a moment"
FAILED = "the review could not be worked out"


def review_error(hand: int, message: str) -> Json:
    """The answer to a review that cannot be made (``code`` "review"): no state follows."""
    return {"type": "error", "code": "review", "hand": hand, "message": message}


def failure(error: BaseException) -> str:
    """Why a review failed, in a sentence for a person."""
    if isinstance(error, ReviewError):
        return str(error)
    if isinstance(error, OverrunError):
        return TOO_LONG
    if isinstance(error, StoppingError):
        return STOPPING
    return FAILED


async def send_review(reviews: Reviews, game_id: str, game: Snapshot, conn: Connection,
                      hand: int, seats: tuple[int, ...] | None = None) -> None:
    """Review finished hand ``hand`` for one socket: its progress as it goes (with the
    review of the plays worked out so far, when more are), then the review; or an error
    (code "review") and nothing else."""

    shown: list[Json] = []  # the plays worked out so far, not yet sent

    def partial(review: Json) -> None:
        shown[:] = [review]

    def progress(done: int, total: int) -> None:
        message: Json = {"type": "review-progress", "hand": hand, "done": done,
                         "total": total}
        if shown:  # the first tricks, readable while the rest are worked out
            message["review"] = shown.pop()
        conn.send(message)

    try:
        review = await reviews.review(game_id, game, hand, progress, partial, seats)
    except Exception as error:
        if not isinstance(error, ReviewError | OverrunError | StoppingError):
            log.exception("the review of hand %d of game %s failed", hand, game_id)
        conn.send(review_error(hand, failure(error)))
        return
    conn.send({"type": "review", "hand": hand, "review": review})


class ClientGone(Exception):
    """The HTTP client stopped waiting (it closed its connection)."""


async def while_connected(request: Request, work: Awaitable[T]) -> T:
    """``work``'s answer, or ``ClientGone`` once the client of ``request`` has gone: a review
    nobody waits for any more is cancelled (``Reviews.review``), its process ended."""
    task = asyncio.ensure_future(work)
    try:
        while True:
            done, _ = await asyncio.wait({task}, timeout=GONE_EVERY)
            if done:
                return task.result()
            if await request.is_disconnected():
                raise ClientGone
    finally:
        if not task.done():
            task.cancel()
