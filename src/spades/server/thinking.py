"""Computer players think in other processes, never on the event loop.

A ``Brain`` owns a process pool sized to the cores. Each decision gets the seat's
``PlayerView`` (what a person in the seat would see) and returns an action; the bid
suggestion for the person is computed the same way.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import os
import random
import signal
import threading
import time
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from spades.ai.base import Player
from spades.ai.suggest import suggest_bid
from spades.engine import Action, Bid, PlayerView

from .presets import LEVEL_NAMES

log = logging.getLogger("spades.server")

_PLAYERS: dict[str, Player] = {}
#: A decision that takes longer than this is abandoned (a safety net: the levels keep to
#: their own budgets, well under a second).
THINK_LIMIT = 30.0


def player_for(level: str) -> Player:
    """The computer player of ``level`` (one per process)."""
    player = _PLAYERS.get(level)
    if player is None:
        from spades.ai.levels import make_player

        player = make_player(level)
        _PLAYERS[level] = player
    return player


def choose(level: str, view: PlayerView, seed: int) -> tuple[Action, float]:
    """One decision and the seconds it took (runs in a worker process)."""
    start = time.perf_counter()
    action = player_for(level).choose(view, random.Random(seed))
    return action, time.perf_counter() - start


def suggest(view: PlayerView) -> dict[str, Any] | None:
    """The bid suggestion for a person's view."""
    result = suggest_bid(view)
    bid = result.bid
    code = bid.code if isinstance(bid, Bid) else bid
    label = bid.label if isinstance(bid, Bid) else str(bid)
    return {"bid": code, "label": label[:1].upper() + label[1:],
            "reasons": [str(r) for r in result.reasons]}


#: How often a thinking process checks that its server is still there.
WATCH_EVERY = 0.5


class StoppingError(RuntimeError):
    """The server is shutting down: no more decisions are started."""


def _watch_parent(parent: int) -> None:
    """End this process as soon as its server is gone, however the server ended (a SIGKILL
    included): the process is then adopted by another parent."""
    while os.getppid() == parent:
        time.sleep(WATCH_EVERY)
    os._exit(0)


def _start_worker(parent: int) -> None:
    """Each worker: leave Ctrl+C to the server, which shuts the workers down in order, and
    end with the server."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if os.getppid() != parent:  # the server died while this process was starting
        os._exit(0)
    threading.Thread(target=_watch_parent, args=(parent,), name="watch-server",
                     daemon=True).start()


def _warm(levels: tuple[str, ...]) -> int:
    for level in levels:
        player_for(level)
    return os.getpid()


class Brain:
    """Runs decisions in a process pool (``workers`` processes, default one per core), or
    inline when ``workers`` is 0 (instant players in tests and benchmarks)."""

    def __init__(self, workers: int | None = None, seed: int | None = None):
        self.workers = (os.cpu_count() or 1) if workers is None else workers
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._closed = False
        #: decisions draw their random generators from here: secret unless seeded (tests)
        self._seeds: random.Random = (random.SystemRandom() if seed is None
                                      else random.Random(seed))

    def _executor(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._closed:
            raise StoppingError("the server is stopping: no new decisions")
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers, mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker, initargs=(os.getpid(),))
        return self._pool

    async def start(self, levels: tuple[str, ...] = ("random", *LEVEL_NAMES)) -> None:
        """Start the workers and load the computer players now rather than on the first
        decision."""
        if not self.workers:
            return
        loop = asyncio.get_running_loop()
        pool = self._executor()
        await asyncio.gather(*(loop.run_in_executor(pool, _warm, levels)
                               for _ in range(self.workers)))

    async def _run(self, func: Any, *args: Any) -> Any:
        if not self.workers:
            return func(*args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), func, *args)
        except BrokenProcessPool:
            if self._closed:  # the workers were stopped with the server: do not restart
                raise StoppingError("the server is stopping: no new decisions") from None
            log.error("a thinking process died; starting a new pool")
            self._pool = None
            return await loop.run_in_executor(self._executor(), func, *args)

    async def choose(self, level: str, view: PlayerView) -> tuple[Action, float]:
        """One decision; TimeoutError after ``THINK_LIMIT`` seconds (the caller then plays
        for the computer player)."""
        result: tuple[Action, float] = await asyncio.wait_for(
            self._run(choose, level, view, self._seeds.getrandbits(64)), THINK_LIMIT)
        return result

    async def suggest(self, view: PlayerView) -> dict[str, Any] | None:
        try:
            result: dict[str, Any] | None = await self._run(suggest, view)
        except Exception:  # a suggestion is a help, never a reason to fail
            log.exception("the bid suggestion failed")
            return None
        return result

    def stopping(self) -> None:
        """The server is going down (a signal came): a thinking process that dies now was
        stopped with it, so the pool is not started again."""
        self._closed = True

    def close(self) -> None:
        """Stop the workers for good: a decision asked for afterwards raises
        ``StoppingError`` instead of starting a new pool."""
        self._closed = True
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
