"""A bound on the password hashes computed at once: each is an argon2id hash of 32 MiB and
about 100 ms of a core, so that a flood of sign-ups, sign-ins or password changes cannot
take every core and hundreds of MiB (issue 37). Hashes run in a pool of ``workers``
threads (argon2 lets go of the GIL); up to ``queue`` more wait their turn, briefly; beyond
that a request is refused at once (``Limited``: 429 with Retry-After) rather than queued.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from .limits import Limited
from .passwords import Passwords

T = TypeVar("T")
BUSY = "the server is busy checking passwords"


class Hashing:
    """``Passwords`` through a pool of fixed size with a bounded queue."""

    def __init__(self, passwords: Passwords, workers: int = 2, queue: int = 16):
        if workers < 1 or queue < 0:
            raise ValueError("hash workers is at least 1 and the queue not negative")
        self.passwords = passwords
        self.workers, self.queue = workers, queue
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="hash")
        self.busy = 0  # hashes running or waiting

    async def _run(self, work: Callable[[], T]) -> T:
        if self.busy >= self.workers + self.queue:
            raise Limited(1, BUSY)
        self.busy += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._pool, work)
        finally:
            self.busy -= 1

    async def hash(self, password: str) -> str:
        return await self._run(lambda: self.passwords.hash(password))

    async def verify(self, stored: str | None, password: str) -> bool:
        return await self._run(lambda: self.passwords.verify(stored, password))

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
