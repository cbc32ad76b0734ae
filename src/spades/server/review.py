"""A hand review asked for at the table (docs/protocol.md, docs/review.md): over the game's
websocket (``{"type": "review", "hand": N}``, answered with ``review-progress`` messages
then ``review``) or over HTTP (``GET /api/games/{id}/hands/{n}/review``, in ``api``). Only a
finished hand is reviewed: for any other the answer is an error and nothing else."""

from __future__ import annotations

import logging

from spades.engine import GameState
from spades.session import OverrunError, ReviewError, Reviews, StoppingError

from .connections import Connection
from .wire import Json

log = logging.getLogger("spades.server")

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


async def send_review(reviews: Reviews, game_id: str, state: GameState, conn: Connection,
                      hand: int) -> None:
    """Review finished hand ``hand`` for one socket: its progress as it goes, then the
    review; or an error (code "review") and nothing else."""

    def progress(done: int, total: int) -> None:
        conn.send({"type": "review-progress", "hand": hand, "done": done, "total": total})

    try:
        review = await reviews.review(game_id, state, hand, progress)
    except Exception as error:
        if not isinstance(error, ReviewError | OverrunError | StoppingError):
            log.exception("the review of hand %d of game %s failed", hand, game_id)
        conn.send(review_error(hand, failure(error)))
        return
    conn.send({"type": "review", "hand": hand, "review": review})
