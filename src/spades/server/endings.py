"""Sockets ended on every process of a server (``spades serve --redis``): a sign-out, a
password reset, a deleted account or game, a person removed from a table. The process that
ends them ends its own sockets at once (``Watchers``), then publishes the order on a Redis
channel; every other process ends its own sockets and says so, and the first process waits
for those answers (at most ``ANSWER_WAIT`` seconds) before its HTTP answer goes out, so that
no intent slips through another process after a sign-out is answered.

An order is JSON: ``{"from", "answer", "why": [close, code, reason], "logins", "account",
"games"}`` for ``Watchers.end``, or ``{"from", "answer", "why", "game", "players",
"watching"}`` for ``Watchers.end_at``. A message that is not one is logged and dropped.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
from typing import Any, Protocol

from redis.exceptions import RedisError

#: The channel the orders go on.
CHANNEL = "spades:endings"
#: How long the ending process waits for the others to say they ended their sockets.
ANSWER_WAIT = 2.0
#: How long an answer list is kept in Redis.
ANSWER_LIFE = 30
log = logging.getLogger("spades.server")

Order = dict[str, Any]


class Ender(Protocol):
    def end_order(self, order: Order) -> int: ...


class Endings:
    """The orders of one process: ``tell`` publishes one and waits for the answers;
    ``listen`` (a task for the server's lifetime) carries out the others' orders."""

    def __init__(self, client: Any, ender: Ender):
        self.client = client
        self.ender = ender
        self.me = secrets.token_hex(8)

    async def tell(self, order: Order) -> None:
        answer = f"spades:endings:answer:{secrets.token_hex(8)}"
        try:
            heard = await self.client.publish(CHANNEL, json.dumps(
                {**order, "from": self.me, "answer": answer}))
            for _ in range(max(0, int(heard) - 1)):  # every listener but this process
                if await self.client.blpop([answer], timeout=ANSWER_WAIT) is None:
                    log.warning("a server process did not say it ended its sockets in "
                                "%s s", ANSWER_WAIT)
                    return
        except (RedisError, OSError) as error:
            log.error("could not tell the other processes to end sockets: %s", error)

    async def listen(self) -> None:
        """Carry out the other processes' orders until cancelled (Redis lost: try again
        every second)."""
        while True:
            try:
                async with self.client.pubsub() as pubsub:
                    await pubsub.subscribe(CHANNEL)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            await self._carry_out(message.get("data"))
            except (RedisError, OSError) as error:
                log.error("lost the endings channel: %s; again in 1 s", error)
                await asyncio.sleep(1)

    async def _carry_out(self, data: Any) -> None:
        try:
            order = json.loads(data)
            if not isinstance(order, dict) or order.get("from") == self.me:
                return
            self.ender.end_order(order)
        except (ValueError, TypeError, KeyError) as error:
            log.warning("dropped a message on %s that is not an order: %s", CHANNEL, error)
            return
        answer = order.get("answer")
        if isinstance(answer, str) and answer.startswith("spades:endings:answer:"):
            await self.client.rpush(answer, "1")
            await self.client.expire(answer, ANSWER_LIFE)
