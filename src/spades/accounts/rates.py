"""Counting by key over moving windows, with the well-kept ``limits`` library (its moving
window strategy over its in-memory storage: a restart forgets the counts; several processes
would share a Redis storage instead, issue 42).

A rate is written as ``limits`` writes it: ``"3/minute"``, ``"5 per 15 minutes"``, several
separated by ``;`` (``"3/minute;10/hour"``: both hold). ``Rates.hit`` takes one from every
window of a key or, if one of them is full, takes nothing and says how long to wait.
"""

from __future__ import annotations

import math
import time

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter


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


class Rates:
    """One rate (one or several windows) counted separately for each key."""

    def __init__(self, rate: str, storage: MemoryStorage | None = None):
        self.rate = parse_rate(rate)
        self.items: list[RateLimitItem] = parse_many(rate)
        self.limiter = MovingWindowRateLimiter(storage or MemoryStorage())

    def wait(self, *key: str) -> int:
        """Whole seconds until ``key`` has room in every window (0: it has room now)."""
        now = time.time()
        waits = [self.limiter.get_window_stats(item, *key).reset_time - now
                 for item in self.items if not self.limiter.test(item, *key)]
        return max(1, math.ceil(max(waits))) if waits else 0

    def hit(self, *key: str) -> int:
        """Count one for ``key`` and answer 0 if every window has room; else count nothing
        and answer the seconds to wait (no ``await`` between the test and the count: on one
        event loop, two requests cannot both take the last room)."""
        wait = self.wait(*key)
        if wait == 0:
            for item in self.items:
                self.limiter.hit(item, *key)
        return wait

    def clear(self, *key: str) -> None:
        for item in self.items:
            self.limiter.clear(item, *key)
