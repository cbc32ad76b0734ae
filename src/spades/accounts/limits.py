"""Holding back password guessing: failed sign-ins are counted per account and per client
address over a window; past the limit, further tries are refused until the oldest failure
leaves the window (HTTP 429 with when to retry). In memory: a restart forgets them."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

#: Failures allowed per account and per client address in WINDOW seconds.
PER_ACCOUNT = 5
PER_ADDRESS = 20
WINDOW = 15 * 60.0
#: Keys remembered at most; the stalest are forgotten first.
KEEP = 50_000


@dataclass(frozen=True)
class Limited(Exception):
    """Too many failures: try again in ``retry`` seconds."""

    retry: int

    def message(self) -> str:
        minutes = max(1, -(-self.retry // 60))
        return (f"too many failed sign-ins: try again in {minutes} minute"
                f"{'s' if minutes > 1 else ''}")


class Attempts:
    """Failures by key ("account:ann@example.org", "address:192.0.2.7")."""

    def __init__(self, per_account: int = PER_ACCOUNT, per_address: int = PER_ADDRESS,
                 window: float = WINDOW, clock: Callable[[], float] = time.monotonic):
        self.per_account, self.per_address, self.window = per_account, per_address, window
        self.clock = clock
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float]:
        found = self._failures.get(key)
        if found is None:
            return deque()
        while found and found[0] <= now - self.window:
            found.popleft()
        if not found:
            del self._failures[key]
        return found

    def check(self, account: str, address: str) -> None:
        """Raise Limited if either key is past its limit (checked before the password)."""
        now = self.clock()
        waits = []
        for key, limit in ((f"account:{account}", self.per_account),
                           (f"address:{address}", self.per_address)):
            recent = self._recent(key, now)
            if len(recent) >= limit:
                waits.append(recent[len(recent) - limit] + self.window - now)
        if waits:
            raise Limited(max(1, int(max(waits)) + 1))

    def fail(self, account: str, address: str) -> None:
        now = self.clock()
        if len(self._failures) >= KEEP:
            for key in list(self._failures):
                self._recent(key, now)
            while len(self._failures) >= KEEP:
                del self._failures[next(iter(self._failures))]
        for key in (f"account:{account}", f"address:{address}"):
            self._failures.setdefault(key, deque()).append(now)

    def succeed(self, account: str) -> None:
        """A right password clears the account's failures (not the address's)."""
        self._failures.pop(f"account:{account}", None)
