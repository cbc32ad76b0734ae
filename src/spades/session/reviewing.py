"""Hand reviews for a server: each finished hand reviewed once (``spades.ai.review``), in the
thinking processes' review lane (``Thinker.review``), its progress told as it goes, the
answer kept.

``Reviews`` keeps the last ``REVIEWS_KEPT`` reviews in memory (least recently asked for
dropped first) and computes a review once however many ask for it meanwhile: everyone
waiting hears its progress and gets the same answer. A review is deterministic, so nothing
is stored: after a restart it is worked out again when asked for (docs/review.md).
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from spades.ai.hindsight import choices_json, hard_choices
from spades.ai.review import HandReview, finished_hand, review_hand
from spades.engine import GameState

from .session import Snapshot
from .workers import report

#: Reviews kept in memory (one is some 10 to 20 KB of JSON).
REVIEWS_KEPT = 128
#: The least time between two progress reports of a review (and the last one always).
PROGRESS_EVERY = 0.25

Json = dict[str, Any]
Progress = Callable[[int, int], None]
#: Hears the review of the plays worked out so far (``HandReview.to_json`` of a partial one).
Partial = Callable[[Json], None]

__all__ = ["PROGRESS_EVERY", "REVIEWS_KEPT", "Partial", "Progress", "Reviews",
           "review_job"]


def review_job(state: GameState, hand: int, seats: tuple[int, ...] | None = None) -> Json:
    """The review of finished hand ``hand`` as JSON (runs in a thinking process), with what
    Hard would have done beside the bids and cards of ``seats`` (every seat: None), worked
    out after the double-dummy counts (``spades.ai.hindsight``); reporting
    ``(done, total, partial)`` at most every ``PROGRESS_EVERY`` seconds: the positions
    settled, and the review of the plays worked out so far when more are than at the last
    report (else None), so that the first tricks can be read while the rest are worked out."""
    last = time.monotonic()
    latest: HandReview | None = None

    def partial(review: HandReview) -> None:
        nonlocal latest
        latest = review

    def progress(done: int, total: int) -> None:
        nonlocal last, latest
        now = time.monotonic()
        if done >= total or now - last >= PROGRESS_EVERY:
            last = now
            report((done, total, None if latest is None else latest.to_json()))
            latest = None

    review = review_hand(state, hand, progress, partial)
    data = review.to_json()
    data["hard"] = choices_json(hard_choices(state, hand, review, seats=seats))
    return data


class Reviewing(Protocol):
    async def review(self, state: GameState, hand: int, table: str,
                     progress: Progress, partial: Partial | None = None,
                     seats: tuple[int, ...] | None = None) -> Json: ...


@dataclass
class _Running:
    """A review being worked out and who waits for it."""

    listeners: list[Progress] = field(default_factory=list)
    watchers: list[Partial] = field(default_factory=list)
    task: asyncio.Task[Json] | None = None
    done: tuple[int, int] | None = None  #: its last progress
    latest: Json | None = None  #: the review of the plays worked out so far
    waiting: int = 0  #: how many wait for it: none left, the work stops

    def tell(self, done: int, total: int) -> None:
        self.done = (done, total)
        for listener in list(self.listeners):
            listener(done, total)

    def show(self, review: Json) -> None:
        self.latest = review
        for watcher in list(self.watchers):
            watcher(review)


class Reviews:
    """The reviews of one server: computed once per (game, hand), the last ones kept."""

    def __init__(self, thinker: Reviewing, size: int = REVIEWS_KEPT):
        self.thinker = thinker
        self.size = size
        self.kept: OrderedDict[tuple[str, int], Json] = OrderedDict()
        self.running: dict[tuple[str, int], _Running] = {}
        #: reviews worked out so far (a review found in memory is not one)
        self.computed = 0

    async def review(self, game: str, at: GameState | Snapshot, hand: int,
                     progress: Progress | None = None, partial: Partial | None = None,
                     seats: tuple[int, ...] | None = None) -> Json:
        """The review of finished hand ``hand`` (from 1) of game ``game`` as JSON
        (``HandReview.to_json``); ``ReviewError`` at once for a hand still in play or no
        such hand. ``progress(done, total)`` hears how the work goes, if it is not done, and
        ``partial`` the review of the plays worked out so far; Hard's choices are beside
        the bids and cards of ``seats`` (the game's people; every seat: None). When
        everyone waiting has stopped (a socket closed, an HTTP client gone), the work is
        cancelled. ``at``: the game now (a server's ``Snapshot``, or its state)."""
        state = at.state if isinstance(at, Snapshot) else at
        finished_hand(state, hand)
        key = (game, hand)
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            return found
        running = self.running.get(key)
        if running is None:
            running = self.running[key] = _Running()
            running.task = asyncio.get_running_loop().create_task(
                self._compute(key, state, running, seats), name=f"review {game} {hand}")
            # its failure is told to those who wait; nobody waiting is no error
            running.task.add_done_callback(lambda t: t.cancelled() or t.exception())
        assert running.task is not None
        self._listen(running, progress, partial)
        running.waiting += 1
        try:
            # one who stops waiting (a closed socket) does not stop the others' review
            return await asyncio.shield(running.task)
        finally:
            running.waiting -= 1
            if progress is not None:
                running.listeners.remove(progress)
            if partial is not None:
                running.watchers.remove(partial)
            if not running.waiting and not running.task.done():
                running.task.cancel()  # nobody waits any more: stop the work

    @staticmethod
    def _listen(running: _Running, progress: Progress | None, partial: Partial | None) -> None:
        """Tell a new listener what is known so far, and the rest as it comes."""
        if partial is not None:
            running.watchers.append(partial)
            if running.latest is not None:
                partial(running.latest)
        if progress is not None:
            running.listeners.append(progress)
            if running.done is not None:
                progress(*running.done)

    async def _compute(self, key: tuple[str, int], state: GameState,
                       running: _Running, seats: tuple[int, ...] | None = None) -> Json:
        try:
            self.computed += 1
            result = await self.thinker.review(state, key[1], key[0], running.tell,
                                               running.show, seats)
            self.kept[key] = result
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)
            return result
        finally:
            del self.running[key]
