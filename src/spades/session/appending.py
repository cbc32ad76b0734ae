"""Group commit: the actions of a server's many tables kept in one transaction each time.

Every action is a row appended in a transaction of its own if it is alone; with many tables
busy, the appends that arrive while one transaction runs wait for it and then go together,
in the next (``Store.append_actions``: each checked against its own game's version, a stale
one refused alone). One commit then serves several tables: less of the database's and the
server's work per action (one thread hand-off, one commit), and no wait added when the
server is quiet (a lone append goes at once). One transaction goes at a time: SQLite writes
one at a time anyway, and on PostgreSQL four at a time made smaller batches that cost the
server and the database more CPU a card than the wait for one commit saved (bench/RESULTS.md,
"PostgreSQL's connections and one transaction at a time").
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from spades.store import Append, Store, StoreError

#: Appends kept in one transaction at most (a longer queue goes in several).
BATCH = 64
#: Transactions written at the same time.
LANES = 1


class Appender:
    """Appends actions to ``store`` for every table of one event loop, a batch at a time."""

    def __init__(self, store: Store, batch: int = BATCH, lanes: int = LANES):
        self.store = store
        self.batch = batch
        self.lanes = lanes
        self._waiting: list[tuple[Append, asyncio.Future[int]]] = []
        #: the tasks writing now, one transaction each at a time
        self._writing: set[asyncio.Task[None]] = set()

    async def append(self, one: Append) -> int:
        """Keep ``one`` (in the next transaction): its game's new version. Raises the
        ``StoreError`` (``StaleVersionError`` included) that kept it out."""
        future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
        self._waiting.append((one, future))
        # a task that found nothing more to write is done (nothing ran since its last look)
        self._writing = {task for task in self._writing if not task.done()}
        if len(self._writing) < self.lanes:
            self._writing.add(asyncio.create_task(self._write()))
        return await future

    async def _write(self) -> None:
        """Write what waits, a batch at a time, until nothing does."""
        batch: list[tuple[Append, asyncio.Future[int]]] = []
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:self.batch], self._waiting[self.batch:]
                try:
                    done = await asyncio.to_thread(self.store.append_actions,
                                                   [one for one, _ in batch])
                except Exception as error:  # not the database's refusal: a fault of ours
                    reason = error.reason if isinstance(error, StoreError) else ""
                    done = [StoreError(f"could not save: {error}", reason) for _ in batch]
                settle(batch, done)
        except asyncio.CancelledError:  # the loop goes down: nobody waits for ever
            stopped, self._waiting = [*batch, *self._waiting], []
            settle(stopped, [StoreError("the server is stopping") for _ in stopped])
            raise


def settle(batch: Sequence[tuple[Append, asyncio.Future[int]]],
           done: Sequence[int | StoreError]) -> None:
    """Tell each append's waiter its new version or its error (one that stopped waiting,
    cancelled, is told nothing: what was kept stays kept, as for any write under way)."""
    for (_, future), result in zip(batch, done, strict=True):
        if future.done():
            continue
        if isinstance(result, StoreError):
            future.set_exception(result)
        else:
            future.set_result(result)
