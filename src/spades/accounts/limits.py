"""Holding back what costs a password hash or tells about accounts, without handing a
lock-out to an attacker (docs/self-hosting.md, "Limits"):

- ``Signups``: sign-ups per client address and in all, counted before any hash is made;
- ``Guesses``: failed sign-ins counted per account and address *together* (an attacker's
  address is held, not the account), per address, and per device cookie; the tries of one
  account from browsers it does not know go one at a time, and past a number of their
  failures each is slowed down (a delay) rather than refused, so that the owner still gets
  in, at once from a browser that signed in before (a device cookie, ``devices.DeviceKeys``);
- ``Resets``: password reset links asked for, per email and per address;
- ``Limited``: the refusal, with when to retry (HTTP 429 with ``Retry-After``).

The counts live in memory, or in Redis for a server of several processes (``rates.Rates``,
``rates.counts_in``). The slow lane of an account is in each process's memory.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from limits.aio.storage import Storage

from .rates import Rates, take_all

#: Sign-ups one client address may make, and all addresses together.
SIGNUPS_PER_ADDRESS = "3/minute;10/hour"
SIGNUPS_IN_ALL = "30/minute"
#: Failed sign-ins allowed per account and address together, per address, per device cookie.
GUESSES_PER_PAIR = "5/15minutes"
GUESSES_PER_ADDRESS = "20/15minutes"
#: Failures for one account from browsers without its device cookie past which their tries
#: are slowed down, and the delay of each slowed try.
SLOW_AFTER = "10/15minutes"
SLOW_DELAY = 2.0
#: Reset links asked for per email and per client address.
RESETS_PER_EMAIL = "3/hour"
RESETS_PER_ADDRESS = "10/hour"
#: Tries from browsers without the device cookie that may wait for one account at once;
#: beyond it they get 429.
LANE_QUEUE = 16


@dataclass(eq=False)  # not frozen: raising through a context manager sets __traceback__
class Limited(Exception):
    """Held back: try again in ``retry`` seconds. ``why`` is the sentence before when."""

    retry: int
    why: str = "too many failed sign-ins"

    def message(self) -> str:
        if self.retry < 60:
            return f"{self.why}: try again in {self.retry} second{'s' if self.retry > 1 else ''}"
        minutes = -(-self.retry // 60)
        return f"{self.why}: try again in {minutes} minute{'s' if minutes > 1 else ''}"


@dataclass(frozen=True)
class AccountLimits:
    """The limits of accounts, each a ``spades serve`` flag (``limits`` rates as text)."""

    signups_per_address: str = SIGNUPS_PER_ADDRESS
    signups_in_all: str = SIGNUPS_IN_ALL
    guesses_per_pair: str = GUESSES_PER_PAIR
    guesses_per_address: str = GUESSES_PER_ADDRESS
    slow_after: str = SLOW_AFTER
    slow_delay: float = SLOW_DELAY
    hash_workers: int = 2
    hash_queue: int = 16
    resets_per_email: str = RESETS_PER_EMAIL
    resets_per_address: str = RESETS_PER_ADDRESS


class Signups:
    """Sign-ups per address and in all, counted before the password is hashed."""

    def __init__(self, limits: AccountLimits = AccountLimits(),
                 storage: Storage | None = None):
        self.per_address = Rates("signups", limits.signups_per_address, storage)
        self.in_all = Rates("signups-all", limits.signups_in_all, storage)

    async def take(self, address: str) -> None:
        """Count one sign-up from ``address``, or raise Limited (nothing counted)."""
        if wait := await take_all((self.per_address, (address,)), (self.in_all, ("all",))):
            raise Limited(wait, "too many new accounts from here just now")


class Guesses:
    """Failed sign-ins, and the slow lane of the accounts under attack."""

    def __init__(self, limits: AccountLimits = AccountLimits(),
                 storage: Storage | None = None):
        self.pair = Rates("guesses-pair", limits.guesses_per_pair, storage)
        self.address = Rates("guesses-address", limits.guesses_per_address, storage)
        self.device = Rates("guesses-device", limits.guesses_per_pair, storage)
        self.untrusted = Rates("guesses-untrusted", limits.slow_after, storage)
        self.delay = limits.slow_delay
        self._lanes: dict[str, tuple[asyncio.Lock, list[int]]] = {}

    async def check(self, account: str, address: str, device: str | None = None) -> None:
        """Raise Limited if this try is held back (before the password is checked: a held
        try tells nothing). A device cookie of the account (``device``, its nonce) is held
        by its own failures only; any other try by those of its address, and of this
        account from its address."""
        if device is not None:
            wait = await self.device.wait(device)
        else:
            wait = await self.address.wait(address) or await self.pair.wait(account, address)
        if wait:
            raise Limited(wait)

    async def fail(self, account: str, address: str, device: str | None = None) -> None:
        if device is not None:
            await self.device.hit(device)
            return
        await self.address.hit(address)
        await self.pair.hit(account, address)
        await self.untrusted.hit(account)

    async def succeed(self, account: str, address: str, device: str | None = None) -> None:
        """A right password clears the failures of this account from this address (or
        of this device cookie), not those of the account from elsewhere."""
        await self.pair.clear(account, address)
        if device is not None:
            await self.device.clear(device)

    async def reset(self, account: str) -> None:
        """A new password: the guesses at the old one no longer slow anyone down."""
        await self.untrusted.clear(account)

    @asynccontextmanager
    async def lane(self, account: str, device: str | None = None) -> AsyncIterator[None]:
        """Where a try of ``account`` checks its password. A browser with the account's
        device cookie goes at once. Others go one at a time per account, so that their
        failures are counted exactly; past SLOW_AFTER of them each waits ``delay`` seconds
        first: however many addresses guess, the account then meets one guess per delay
        from browsers it does not know, and its owner on a new browser still gets in.
        Limited when LANE_QUEUE tries already wait."""
        if device is not None:
            yield
            return
        lock, waiting = self._lanes.setdefault(account, (asyncio.Lock(), [0]))
        if waiting[0] >= LANE_QUEUE:
            raise Limited(max(1, int(self.delay * waiting[0]) + 1), "too many tries at once")
        waiting[0] += 1
        try:
            async with lock:
                if await self.untrusted.wait(account):
                    await asyncio.sleep(self.delay)
                yield
        finally:
            waiting[0] -= 1
            if not waiting[0]:
                del self._lanes[account]


class Resets:
    """Asking for password reset links, per email and per address: every ask counts, so
    an inbox is not flooded with links."""

    def __init__(self, limits: AccountLimits = AccountLimits(),
                 storage: Storage | None = None):
        self.per_email = Rates("resets-email", limits.resets_per_email, storage)
        self.per_address = Rates("resets-address", limits.resets_per_address, storage)

    async def take(self, email: str, address: str) -> None:
        if wait := await take_all((self.per_email, (email,)), (self.per_address, (address,))):
            raise Limited(wait, "too many reset links asked for")
