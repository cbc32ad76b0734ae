"""Helpers for the session tests."""

from __future__ import annotations

import asyncio
import concurrent.futures
from collections.abc import Coroutine
from typing import Any, TypeVar

from spades.session import Change, Snapshot

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` in an event loop of its own thread (a browser test before it in the same
    worker may leave its loop running in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


class Ear:
    """A session's listener that keeps every change it is told."""

    def __init__(self) -> None:
        self.changes: list[Change] = []
        self.thought: list[int] = []

    def changed(self, change: Change) -> None:
        self.changes.append(change)

    def thinking(self, seat: int, snapshot: Snapshot) -> None:
        self.thought.append(seat)

    def told(self, seat: int = 0) -> list[object]:
        """Everything ``seat`` was told, in order."""
        return [e for c in self.changes for e in c.events(seat)]
