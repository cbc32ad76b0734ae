"""Counting by key over moving windows, with the well-kept ``limits`` library (its moving
window strategy, asyncio flavour): in memory by default (a restart forgets the counts), or
in Redis (``counts_in``), where every process of a server counts together, so that N
processes do not allow N times as much.

A rate is written as ``limits`` writes it: ``"3/minute"``, ``"5 per 15 minutes"``, several
separated by ``;`` (``"3/minute;10/hour"``: both hold). ``Rates.hit`` takes one from every
window of a key or, if one of them is full, takes nothing and says how long to wait.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from redis.asyncio import BlockingConnectionPool

#: Connections to Redis the counts of one process may hold at once, and the seconds a
#: count waits for one (and for Redis's answer) before it fails.
REDIS_CONNECTIONS = 64
REDIS_WAIT = 2.0


def parse_rate(text: str) -> str:
    """``text`` if it is a rate ``limits`` reads (such as ``3/minute;10/hour``), else
    ValueError saying what one looks like."""
    try:
        items = parse_many(text)
    except ValueError:
        items = []
    if not items or any(item.amount < 1 for item in items):
        raise ValueError(f"{text!r} is not a rate such as 3/minute, 5/15minutes or "
                         "3/minute;10/hour")
    return text


def counts_in(redis_url: str | None) -> Storage:
    """Where counts are kept: Redis at ``redis_url`` (``redis://...``, through redis-py's
    asyncio client), else this process's memory."""
    if redis_url is None:
        return MemoryStorage()
    # a burst of requests waits for a free connection (redis-py's own pool refuses the
    # 101st at once: a 500 for a person's ticket or sign-in)
    pool = BlockingConnectionPool.from_url(redis_url, max_connections=REDIS_CONNECTIONS,
                                           timeout=REDIS_WAIT, socket_timeout=REDIS_WAIT,
                                           socket_connect_timeout=REDIS_WAIT)
    return RedisStorage(f"async+{redis_url}", implementation="redispy",
                        key_prefix="spades-limits",
                        connection_pool=pool)  # type: ignore[arg-type]


class Rates:
    """One rate (one or several windows) counted separately for each key. ``name`` keeps
    the keys of different counts apart in a storage they share."""

    def __init__(self, name: str, rate: str, storage: Storage | None = None):
        self.name = name
        self.rate = parse_rate(rate)
        self.items: list[RateLimitItem] = parse_many(rate)
        self.limiter = MovingWindowRateLimiter(storage or MemoryStorage())

    async def wait(self, *key: str) -> int:
        """Whole seconds until ``key`` has room in every window (0: it has room now)."""
        now = time.time()
        waits = []
        for item in self.items:
            if not await self.limiter.test(item, self.name, *key):
                stats = await self.limiter.get_window_stats(item, self.name, *key)
                waits.append(stats.reset_time - now)
        return max(1, math.ceil(max(waits))) if waits else 0

    async def hit(self, *key: str) -> int:
        """Count one for ``key`` and answer 0 if every window has room; else answer the
        seconds to wait. Each window's count is taken at once by the storage (a Lua script
        in Redis), so racing requests, on any processes, never get past a window; a window
        found full after others were counted leaves those counted (the stricter side:
        ``take_all`` tests every window first)."""
        for item in self.items:
            if not await self.limiter.hit(item, self.name, *key):
                return await self.wait(*key) or 1
        return 0

    async def clear(self, *key: str) -> None:
        for item in self.items:
            await self.limiter.clear(item, self.name, *key)


async def take_all(*counts: tuple[Rates, tuple[str, ...]]) -> int:
    """Count one in each of ``counts`` (a rate and its key) and answer 0, or, when one has
    no room, answer the seconds to wait, having counted none if that was seen at once."""
    for rates, key in counts:
        if wait := await rates.wait(*key):
            return wait
    for rates, key in counts:
        if wait := await rates.hit(*key):
            return wait
    return 0
