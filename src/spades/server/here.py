"""Who is at a table for friends when several server processes serve it (``spades serve
--redis``; docs/architecture.md, "Several processes").

A person's sockets may be open at any process. Each process writes the seats it holds a
socket for into a Redis sorted set per game, ``spades:here:<game>``, members
``"<seat>:<process>"`` scored by the moment they expire (``HERE_LIFE`` seconds on; renewed
every ``RENEW`` seconds while a socket stays open, removed when the process's last socket
of the seat closes). So a process that dies leaves members that expire within
``HERE_LIFE`` seconds, and the seats here are the members not yet expired, wherever their
sockets are.

The process that leads the table (its lease, ``owners.py``) reads the set and decides who
is away and back; what it decides, and its turn timer, goes to the other processes as news
on the ``NEWS`` channel (``{"from", "game", "kind", ...}``): ``here`` (a seat's sockets
opened or closed somewhere: read the set again), ``table`` (read the table from the store
and tell your sockets), ``timer`` (the turn timer that runs now) and ``while-away`` (what
was played for a person who is back). A lost news item costs a delay: the leader reads the
set every ``RENEW`` seconds anyway.

Expiry moments are the processes' own clocks (``time.time``): processes on several
machines need clocks that agree within a second or so (NTP).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from typing import Any, NamedTuple

from redis.exceptions import RedisError

log = logging.getLogger("spades.server")
#: The Redis channel of presence news.
NEWS = "spades:presence"
#: Seconds a member of a game's set lives unless renewed; it is renewed every ``RENEW``.
#: Ten renewals' time: a process whose loop falls seconds behind (overloaded) must not let
#: its people's members expire, which makes them away and then back at every table; a
#: dead process's people reconnect elsewhere within seconds, and those who do not are away
#: this much later.
HERE_LIFE = 10.0
RENEW = 1.0
#: Seconds a game's whole set lives after its last write (a table nobody opens any more).
KEY_LIFE = 3600

News = dict[str, Any]

#: Members written and their games' sets kept ``KEY_LIFE`` more seconds, in one command:
#: KEYS the sets, ARGV[1] the members' expiry, ARGV[2] ``KEY_LIFE``, ARGV[2 + i] the member
#: for KEYS[i].
RENEWAL = """
for i, key in ipairs(KEYS) do
    redis.call('ZADD', key, ARGV[1], ARGV[i + 2])
    redis.call('EXPIRE', key, ARGV[2])
end
return #KEYS
"""
#: The members not yet expired (ARGV[1], now) of each set in KEYS, in one reply.
READING = """
local found = {}
for i, key in ipairs(KEYS) do
    found[i] = redis.call('ZRANGEBYSCORE', key, ARGV[1], '+inf')
end
return found
"""


def here_key(game_id: str) -> str:
    return f"spades:here:{game_id}"


class Found(NamedTuple):
    """Who is at one game: the seats with a socket open at any process, and whether a
    process other than the reader holds one of them."""

    seats: frozenset[int]
    elsewhere: bool


def _seats(members: list[Any]) -> frozenset[int]:
    """The seats of a game's set's members (``"<seat>:<process>"``)."""
    return _found(members, "").seats


def _found(members: list[Any], me: str) -> Found:
    """The seats of a game's set's members (``"<seat>:<process>"``), and whether one is
    held by a process other than ``me``."""
    seats, elsewhere = set(), False
    for member in members:
        seat, _, process = str(member).partition(":")
        if seat.isdigit():
            seats.add(int(seat))
            elsewhere = elsewhere or process != me
    return Found(frozenset(seats), elsewhere)


class Here:
    """This process's part of who is where: the seats it holds a socket for (``mine``),
    written to Redis; the seats here at any process; the news between processes."""

    def __init__(self, client: Any, me: str):
        self.client = client
        self.me = me
        #: (game, seat) this process holds at least one socket of
        self.mine: set[tuple[str, int]] = set()
        #: what to do with another process's news (``Presence.heard``)
        self.on_news: Callable[[News], None] | None = None
        # one write at a time: a seat's last close is never overtaken by its open before
        self._writing = asyncio.Lock()
        # Redis runs each script by its digest, loading it again where it was forgotten
        self._renewal = client.register_script(RENEWAL)
        self._reading = client.register_script(READING)

    def _member(self, seat: int) -> str:
        return f"{seat}:{self.me}"

    async def sync(self, game_id: str, seat: int) -> None:
        """Write whether this process holds a socket of ``seat`` now (as ``mine`` says)."""
        async with self._writing:
            try:
                if (game_id, seat) in self.mine:
                    await self._write([(game_id, seat)])
                else:
                    await self.client.zrem(here_key(game_id), self._member(seat))
            except (RedisError, OSError) as error:
                log.warning("could not write who is at game %s: %s", game_id, error)

    async def _write(self, held: list[tuple[str, int]]) -> None:
        """Write ``held``'s members, living ``HERE_LIFE`` seconds from now, with one Redis
        command (``RENEWAL``) however many seats: a pipeline of two commands a seat would
        cost the client a reply to parse and time for each."""
        until = time.time() + HERE_LIFE
        await self._renewal(
            keys=[here_key(game_id) for game_id, _ in held],
            args=[until, KEY_LIFE, *(self._member(seat) for _, seat in held)],
            client=self.client,
        )

    async def renew(self) -> None:
        """Renew the members of every seat this process holds a socket of (a Redis that
        came back empty has them again)."""
        async with self._writing:
            held = sorted(self.mine)
            if not held:
                return
            try:
                await self._write(held)
            except (RedisError, OSError) as error:
                log.warning("could not renew who is here: %s", error)

    async def seats(self, game_id: str) -> frozenset[int] | None:
        """The seats of ``game_id`` with a socket open at any process; None when Redis
        cannot say (then nobody should be taken for away)."""
        try:
            members = await self.client.zrangebyscore(here_key(game_id), time.time(), "+inf")
        except (RedisError, OSError) as error:
            log.warning("could not read who is at game %s: %s", game_id, error)
            return None
        return _seats(members)

    async def seats_of(self, game_ids: list[str]) -> dict[str, Found] | None:
        """``seats`` of each of ``game_ids``, and whether another process holds one of
        them, read in one round trip (a leader's sweep of its tables); None when Redis
        cannot say."""
        try:
            found = await self._reading(
                keys=[here_key(g) for g in game_ids], args=[time.time()], client=self.client
            )
        except (RedisError, OSError) as error:
            log.warning("could not read who is at %d games: %s", len(game_ids), error)
            return None
        return {g: _found(members, self.me) for g, members in zip(game_ids, found, strict=True)}

    async def leave_all(self) -> None:
        """This process goes: its members go at once (the others need not wait for their
        expiry)."""
        async with self._writing:
            held, self.mine = sorted(self.mine), set()
            try:
                for game_id, seat in held:
                    await self.client.zrem(here_key(game_id), self._member(seat))
            except (RedisError, OSError) as error:
                log.warning("could not say this process's sockets are gone: %s", error)

    # ------------------------------------------------------------------ news

    async def publish(self, news: News) -> None:
        try:
            await self.client.publish(NEWS, json.dumps({**news, "from": self.me}))
        except (RedisError, OSError) as error:
            log.warning("could not publish presence news: %s", error)

    async def listen(self) -> None:
        """Hear the other processes' news until cancelled (Redis lost: again every
        second)."""
        while True:
            try:
                async with self.client.pubsub() as pubsub:
                    await pubsub.subscribe(NEWS)
                    async for message in pubsub.listen():
                        if message.get("type") == "message":
                            self._heard(message.get("data"))
            except (RedisError, OSError) as error:
                log.error("lost the presence channel: %s; again in 1 s", error)
            await asyncio.sleep(1)

    def _heard(self, data: Any) -> None:
        try:
            news = json.loads(data)
            if not isinstance(news, dict) or not isinstance(news.get("game"), str):
                raise ValueError("no game")
        except (ValueError, TypeError) as error:
            log.warning("dropped a message on %s that is not news: %s", NEWS, error)
            return
        if news.get("from") != self.me and self.on_news is not None:
            self.on_news(news)
