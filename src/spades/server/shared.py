"""What the processes of one server share through Redis (``spades serve --redis URL``): the
client, made with redis-py's asyncio client, and whether it answers. Redis carries what must
outlive one process or be seen by all of them (the tickets today); PostgreSQL keeps the
games (docs/architecture.md)."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

#: Seconds a Redis command may take before the server treats Redis as unreachable.
REDIS_TIMEOUT = 2.0
#: Connections to Redis one process may hold at once (each channel it listens on holds one).
REDIS_CONNECTIONS = 128


def connect(url: str) -> Any:
    """A client for ``url`` (``redis://host:port/db``); it connects on first use. Its pool
    holds at most ``REDIS_CONNECTIONS`` and a command waits up to ``REDIS_TIMEOUT`` for a
    free one (redis-py's default pool refuses the 101st at once: 500s in a burst)."""
    pool = aioredis.BlockingConnectionPool.from_url(
        url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_TIMEOUT,
        socket_timeout=REDIS_TIMEOUT, socket_connect_timeout=REDIS_TIMEOUT,
        decode_responses=True)
    return aioredis.Redis.from_pool(pool)  # the client owns its pool: aclose closes both


async def answers(client: Any) -> bool:
    """Whether Redis answers a PING within ``REDIS_TIMEOUT``."""
    try:
        return bool(await asyncio.wait_for(client.ping(), REDIS_TIMEOUT))
    except (RedisError, OSError, TimeoutError):
        return False
