"""The tables' shared ``Appender`` (group commit): appends made while a transaction runs
wait for it and go together in the next; each gets its own game's version, or its own
error; a lone one goes at once; nobody waits for ever when the writing stops."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from sessionkit import run_async

from spades.engine import find_preset
from spades.session import Appender, first_deal, one_person, store_first
from spades.store import ActionRow, Append, StaleVersionError, Store, StoreError

pytestmark = pytest.mark.timeout(60)


def stored_games(tmp_path: Path, count: int) -> tuple[Store, list[str]]:
    store = Store(f"sqlite:///{tmp_path / 'store.db'}")
    ids = []
    for _ in range(count):
        row, first = first_deal("player-aaaa-0001", find_preset("house"),
                                one_person("player-aaaa-0001", 4, "easy"), {})
        store_first(store, row, first)
        ids.append(row.id)
    return store, ids


def bid(seq: int, seat: int = 1) -> ActionRow:
    return ActionRow(seq=seq, hand=0, seat=seat, action={"seat": seat, "bid": 3})


class Counted:
    """A store whose batches are counted, and held until ``go`` is set (when given)."""

    def __init__(self, store: Store, go: threading.Event | None = None):
        self.store = store
        self.go = go
        self.batches: list[int] = []

    def append_actions(self, appends: Any) -> Any:
        self.batches.append(len(appends))
        if self.go is not None:
            assert self.go.wait(10)
        return self.store.append_actions(appends)


def test_appends_made_meanwhile_go_in_one_transaction_each_with_its_version(
        tmp_path: Path) -> None:
    store, ids = stored_games(tmp_path, 12)
    go = threading.Event()
    counted = Counted(store, go)
    appender = Appender(counted, lanes=1)  # type: ignore[arg-type]

    async def run() -> list[int | BaseException]:
        first = asyncio.create_task(appender.append(Append(ids[0], 0, bid(1))))
        await asyncio.sleep(0.05)  # its transaction runs (held): the others wait for it
        rest = [asyncio.create_task(appender.append(Append(game_id, 0, bid(1))))
                for game_id in ids[1:]]
        stale = asyncio.create_task(appender.append(Append(ids[0], 0, bid(1, 2))))
        await asyncio.sleep(0.05)
        go.set()
        return await asyncio.gather(first, *rest, stale, return_exceptions=True)

    done = run_async(run())
    assert done[:12] == [1] * 12
    assert isinstance(done[12], StaleVersionError)  # the same version again: refused alone
    assert counted.batches == [1, 12]  # a lone one at once; the eleven and the stale together
    for game_id in ids:
        game = store.load_game(game_id)
        assert game is not None and game.game.version == 1 and len(game.actions) == 1
    store.close()


def test_a_fault_of_the_store_reaches_each_waiter_and_the_next_batch_goes(
        tmp_path: Path) -> None:
    store, ids = stored_games(tmp_path, 2)

    class Broken:
        calls = 0

        def append_actions(self, appends: Any) -> Any:
            Broken.calls += 1
            if Broken.calls == 1:
                raise RuntimeError("a bug")
            return store.append_actions(appends)

    appender = Appender(Broken(), lanes=1)  # type: ignore[arg-type]

    async def run() -> list[int | BaseException]:
        failed = await asyncio.gather(appender.append(Append(ids[0], 0, bid(1))),
                                      return_exceptions=True)
        kept = await appender.append(Append(ids[1], 0, bid(1)))
        return [*failed, kept]

    failed, kept = run_async(run())
    assert isinstance(failed, StoreError) and "a bug" in str(failed)
    assert kept == 1
    store.close()


def test_when_the_writing_stops_nobody_waits_for_ever(tmp_path: Path) -> None:
    store, ids = stored_games(tmp_path, 2)
    go = threading.Event()
    appender = Appender(Counted(store, go), lanes=1)  # type: ignore[arg-type]

    async def run() -> list[int | BaseException]:
        waiting = [asyncio.create_task(appender.append(Append(g, 0, bid(1)))) for g in ids]
        await asyncio.sleep(0.05)
        assert len(appender._writing) == 1
        for task in appender._writing:
            task.cancel()  # the loop goes down
        go.set()
        return await asyncio.gather(*waiting, return_exceptions=True)

    done = run_async(run())
    assert all(isinstance(d, StoreError) and "stopping" in str(d) for d in done), done
    store.close()


def test_with_two_lanes_two_transactions_go_at_once_and_the_rest_waits(
        tmp_path: Path) -> None:
    """Given two lanes, a second append goes while the first is written; what comes next
    waits for a lane and goes together (a server writes one at a time: ``LANES``)."""
    store, ids = stored_games(tmp_path, 6)
    go = threading.Event()
    counted = Counted(store, go)
    appender = Appender(counted, lanes=2)  # type: ignore[arg-type]
    assert Appender(store).lanes == 1

    async def run() -> list[int | BaseException]:
        tasks = []
        for game_id in ids:
            tasks.append(asyncio.create_task(appender.append(Append(game_id, 0, bid(1)))))
            await asyncio.sleep(0.05)
        go.set()
        return await asyncio.gather(*tasks, return_exceptions=True)

    assert run_async(run()) == [1] * 6
    assert counted.batches[:2] == [1, 1] and sum(counted.batches) == 6
    assert len(counted.batches) <= 4, counted.batches  # the four that waited: one or two
