"""Passwords hashed with argon2id (argon2-cffi), the hash holding its own parameters, so
that a change of cost applies to new hashes and old ones still verify (and are rehashed
at the next sign-in).

The cost: 2 passes over 32 MiB, one lane: about 90 ms of CPU a hash on the project's
2-core Xeon (``bench/signin.py`` measures it), within the 50-100 ms aimed at; more than
OWASP's least (2 passes over 19 MiB), less than RFC 9106's second choice (3 over 64 MiB),
which would hold a small server's sign-ins too long. One lane: a sign-in takes one core.
"""

from __future__ import annotations

from dataclasses import dataclass

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError


@dataclass(frozen=True)
class Cost:
    time: int = 2  # passes
    memory: int = 32 * 1024  # KiB
    lanes: int = 1


COST = Cost()


class Passwords:
    """Hash and verify passwords at one cost."""

    def __init__(self, cost: Cost = COST):
        self.cost = cost
        self._hasher = PasswordHasher(time_cost=cost.time, memory_cost=cost.memory,
                                      parallelism=cost.lanes)
        #: verified against when there is no account, so that an unknown email takes as
        #: long to refuse as a wrong password
        self._decoy = self._hasher.hash("not anyone's password at all")

    def hash(self, password: str) -> str:
        return self._hasher.hash(password)

    def verify(self, stored: str | None, password: str) -> bool:
        """Whether ``password`` is the one ``stored`` is the hash of (None: no account,
        verified against a decoy all the same)."""
        try:
            return self._hasher.verify(stored or self._decoy, password) and stored is not None
        except (VerifyMismatchError, VerificationError, InvalidHashError):
            return False

    def stale(self, stored: str) -> bool:
        """Whether ``stored`` was made at another cost (rehash it after a sign-in)."""
        try:
            return self._hasher.check_needs_rehash(stored)
        except InvalidHashError:
            return True
