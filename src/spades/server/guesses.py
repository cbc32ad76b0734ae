"""Wrong invite and watch codes, counted per client address: beyond the limit (20 a minute
by default: ``spades serve --invite-limit``, ``SPADES_INVITE_LIMIT``) every code is refused
until the oldest wrong one is a minute old, so codes cannot be tried in bulk.

The counts are a moving window of the ``limits`` library (``spades.accounts.Rates``, as for
sign-ins), in this process's memory, or in Redis with ``--redis``, where every process
counts together.
"""

from __future__ import annotations

import os

from limits.aio.storage import Storage

from spades.accounts import Rates

DEFAULT_LIMIT = 20
LIMIT_VARIABLE = "SPADES_INVITE_LIMIT"


def default_limit() -> int:
    """The limit from ``SPADES_INVITE_LIMIT``, else 20."""
    text = os.environ.get(LIMIT_VARIABLE, "").strip()
    return int(text) if text.isdigit() and int(text) > 0 else DEFAULT_LIMIT


class WrongCodes:
    """``limit`` wrong codes per address in every moving ``per`` (a ``limits`` period:
    "minute", or "second" in tests)."""

    def __init__(self, limit: int | None = None, per: str = "minute",
                 storage: Storage | None = None):
        self.limit = default_limit() if limit is None else limit
        self.rates = Rates("wrong-codes", f"{self.limit}/{per}", storage)

    async def wait(self, address: str) -> float:
        """Seconds before ``address`` may try a code again (0: now)."""
        return float(await self.rates.wait(address))

    async def wrong(self, address: str) -> None:
        """``address`` tried a code that does not work."""
        await self.rates.hit(address)
