"""The leader's sweep of who is at its tables (``Presence._sweep``, several processes) reads
every table's set in one round trip; a reading older than one a socket's close made
meanwhile is let go, so a person just gone is not found back by a sweep read before."""

from __future__ import annotations

import time
from types import SimpleNamespace
from typing import Any

from server_testkit import run_async

from spades.server.presence import Presence


class FakeHere:
    """Redis's sets, as the test says they are now."""

    def __init__(self, seats: frozenset[int]) -> None:
        self.now = seats

    async def seats(self, game_id: str) -> frozenset[int] | None:
        return self.now


def _presence() -> tuple[Presence, list[tuple[str, int]]]:
    served = SimpleNamespace(id="t1", session=SimpleNamespace(leading=True))
    hall = SimpleNamespace(lobby=SimpleNamespace(tables={"t1": served}))
    presence = Presence(hall, rooms=None)  # type: ignore[arg-type]
    presence._options["t1"] = {"timer": 0}
    calls: list[tuple[str, int]] = []

    async def back(served: Any, seat: int) -> None:
        calls.append(("back", seat))

    async def away(table_id: str, seat: int) -> None:
        calls.append(("away", seat))

    presence._back = back  # type: ignore[method-assign]
    presence._away = away  # type: ignore[method-assign]
    return presence, calls


def test_a_sweeps_reading_older_than_a_close_is_let_go() -> None:
    presence, calls = _presence()
    here = FakeHere(frozenset({0, 2}))
    presence.shared = here  # type: ignore[assignment]
    presence._seen["t1"] = frozenset({0, 2})

    async def go() -> None:
        swept = (time.monotonic(), frozenset({0, 2}))  # the sweep read both here
        here.now = frozenset({0})  # then seat 2's last socket closed: read again, away
        await presence.reconcile("t1", left=frozenset({2}))
        await presence.reconcile("t1", read=swept)  # the sweep's older reading: let go
        assert calls == [("away", 2)]
        here.now = frozenset({0, 2})  # seat 2 comes back: a later sweep finds it
        await presence.reconcile("t1", read=(time.monotonic(), frozenset({0, 2})))
        assert calls == [("away", 2), ("back", 2)]

    run_async(go())
