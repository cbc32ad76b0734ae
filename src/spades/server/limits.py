"""Rate limits on what a browser sends: a token bucket per connection and one per player.

The limits are far above what a person clicking fast sends (a few frames a second, a burst
when a tab reconnects) and far below what would let one socket keep the server busy.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass

#: Frames a second one websocket may send, and the burst it may send at once. Beyond this
#: the server reads its frames more slowly (nothing is dropped): a person never notices, a
#: flood is held to this pace and the socket's own buffers fill, not the server's.
SOCKET_RATE = 30.0
SOCKET_BURST = 60.0
#: The same for all the websockets of one player id together.
PLAYER_RATE = 60.0
PLAYER_BURST = 120.0
#: Player buckets kept at most; full ones (idle players) are forgotten first.
KEEP_PLAYERS = 10_000


@dataclass
class Bucket:
    """``rate`` tokens a second up to ``burst``; a frame takes one."""

    rate: float
    burst: float
    tokens: float = -1.0
    stamp: float = 0.0

    def fill(self, now: float) -> float:
        """The tokens now."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.burst, now
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def wait(self, now: float) -> float:
        """Seconds until a token is there (0: now)."""
        return max(0.0, (1.0 - self.fill(now)) / self.rate)

    def full(self, now: float) -> bool:
        return self.tokens < 0 or self.tokens + (now - self.stamp) * self.rate >= self.burst


class Limits:
    """The buckets of every player id, kept in bounded memory."""

    def __init__(self, socket_rate: float = SOCKET_RATE, socket_burst: float = SOCKET_BURST,
                 player_rate: float = PLAYER_RATE, player_burst: float = PLAYER_BURST,
                 clock: Callable[[], float] = time.monotonic):
        self.socket_rate, self.socket_burst = socket_rate, socket_burst
        self.player_rate, self.player_burst = player_rate, player_burst
        self.clock = clock
        self.players: dict[str, Bucket] = {}

    @classmethod
    def shared(cls, processes: int) -> Limits:
        """One of ``processes`` server processes on one port: a player's sockets may be at
        any of them, so each reads that player's frames at its share of the per-player rate
        (together, what one process allows) and burst (never below one socket's own, which
        a reconnecting tab may need). A socket is at one process: its own bucket is whole."""
        share = max(1, processes)
        return cls(player_rate=PLAYER_RATE / share, player_burst=max(
            SOCKET_BURST, PLAYER_BURST / share))

    def socket(self) -> Bucket:
        return Bucket(self.socket_rate, self.socket_burst)

    def player(self, player_id: str) -> Bucket:
        bucket = self.players.get(player_id)
        if bucket is None:
            if len(self.players) >= KEEP_PLAYERS:
                now = self.clock()
                self.players = {p: b for p, b in self.players.items() if not b.full(now)}
            bucket = self.players[player_id] = Bucket(self.player_rate, self.player_burst)
        return bucket

    def wait(self, *buckets: Bucket) -> float:
        """Take one frame from every bucket and return 0, or take nothing and return the
        seconds to wait before asking again."""
        now = self.clock()
        wait = max(bucket.wait(now) for bucket in buckets)
        if wait == 0:
            for bucket in buckets:
                bucket.tokens -= 1.0
        return wait

    async def take(self, *buckets: Bucket) -> None:
        """Wait until every bucket has a token, and take them."""
        while (wait := self.wait(*buckets)) > 0:
            await asyncio.sleep(wait)
