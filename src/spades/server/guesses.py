"""Wrong invite and watch codes, counted per client address: beyond the limit (20 a minute
by default: ``spades serve --invite-limit``, ``SPADES_INVITE_LIMIT``) every code is refused
until the oldest wrong one is a minute old, so codes cannot be tried in bulk.

A small counter in this process's memory, behind ``WrongCodes``: a server of several
processes would keep it where they all see it (as for tickets).
"""

from __future__ import annotations

import os
import time
from collections import deque
from collections.abc import Callable

DEFAULT_LIMIT = 20
WINDOW = 60.0
#: Addresses remembered at most (the oldest are forgotten first).
MOST_ADDRESSES = 10_000
LIMIT_VARIABLE = "SPADES_INVITE_LIMIT"


def default_limit() -> int:
    """The limit from ``SPADES_INVITE_LIMIT``, else 20."""
    text = os.environ.get(LIMIT_VARIABLE, "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else DEFAULT_LIMIT


class WrongCodes:
    def __init__(self, limit: int | None = None, window: float = WINDOW,
                 clock: Callable[[], float] = time.monotonic):
        self.limit = default_limit() if limit is None else limit
        self.window = window
        self.clock = clock
        self._wrong: dict[str, deque[float]] = {}

    def wait(self, address: str) -> float:
        """Seconds before ``address`` may try a code again (0: now)."""
        times = self._times(address)
        if len(times) < self.limit:
            return 0.0
        return max(0.0, times[0] + self.window - self.clock())

    def wrong(self, address: str) -> None:
        """``address`` tried a code that does not work."""
        times = self._times(address)
        times.append(self.clock())
        self._wrong.pop(address, None)
        self._wrong[address] = times  # the most recent last
        while len(self._wrong) > MOST_ADDRESSES:
            del self._wrong[next(iter(self._wrong))]

    def _times(self, address: str) -> deque[float]:
        times = self._wrong.get(address, deque())
        since = self.clock() - self.window
        while times and times[0] <= since:
            times.popleft()
        return times
