"""Fair scheduling of thinking: a ``Lane`` is a few worker processes in front of which every
table has a queue of its own, served in turn (round robin), so that no table's thinking
takes more than its share of the lane. Cheap and expensive levels think in separate lanes,
so that a cheap decision never waits behind an expensive one at another table.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .workers import StoppingError, Worker

log = logging.getLogger("spades.session")


@dataclass
class Job:
    budget: float | None
    func: Any
    args: tuple[Any, ...]
    future: asyncio.Future[Any] = field(repr=False)
    progress: Callable[[Any], None] | None = None


def _stopper(task: asyncio.Task[None]) -> Callable[[asyncio.Future[Any]], None]:
    """A callback for a job's future: when the wait for it is cancelled (abandoned), cancel
    the task running it, which ends its process (``Worker.run``, cancelled)."""
    def stop(future: asyncio.Future[Any]) -> None:
        if future.cancelled():
            task.cancel()
    return stop


class Lane:
    """``size`` worker processes (started when first needed) and one queue per table;
    ``nice`` lowers the workers' CPU priority (a lane of long thinking yields the cores to
    the server and to quick decisions). With ``end_abandoned``, a job whose caller stops
    waiting (its wait cancelled) is stopped too: its process is ended (a hand review nobody
    wants any more); else the job runs on and its answer is dropped."""

    def __init__(self, name: str, size: int, warm: Any = None, nice: int = 0,
                 end_abandoned: bool = False):
        self.name = name
        self.nice = nice
        self.end_abandoned = end_abandoned
        self.size = max(1, size)
        self.warm = warm
        self.idle: list[Worker] = []
        self.workers: set[Worker] = set()
        self.busy = 0
        self.queues: OrderedDict[str, deque[Job]] = OrderedDict()
        self.closed = False
        self._tasks: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Start the workers now rather than on the first decision."""
        while len(self.idle) + self.busy < self.size:
            self.idle.append(self._new())

    def _new(self) -> Worker:
        worker = Worker(self.warm, self.nice)
        self.workers.add(worker)
        return worker

    async def run(self, table: str, budget: float | None, func: Any, *args: Any,
                  progress: Callable[[Any], None] | None = None) -> Any:
        """``func(*args)`` in a worker, when ``table``'s turn in the lane comes; what it
        reports meanwhile (``workers.report``) goes to ``progress``."""
        if self.closed:
            raise StoppingError("the server is stopping: no new decisions")
        job = Job(budget, func, args, asyncio.get_running_loop().create_future(), progress)
        self.queues.setdefault(table, deque()).append(job)
        self._dispatch()
        return await job.future

    def waiting(self) -> int:
        return sum(len(q) for q in self.queues.values())

    def spare(self) -> bool:
        """Is a process free, with no job waiting for it?"""
        return self.busy < self.size and not self.queues

    def _next(self) -> Job | None:
        """The first job of the next table in turn; that table goes to the back."""
        while self.queues:
            table, queue = next(iter(self.queues.items()))
            job = queue.popleft()
            if queue:
                self.queues.move_to_end(table)
            else:
                del self.queues[table]
            if not job.future.done():  # a cancelled wait drops its job
                return job
        return None

    def _dispatch(self) -> None:
        while not self.closed and (self.idle or self.busy < self.size):
            job = self._next()
            if job is None:
                return
            worker = self.idle.pop() if self.idle else self._new()
            self.busy += 1
            task = asyncio.get_running_loop().create_task(self._execute(worker, job))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            if self.end_abandoned:
                job.future.add_done_callback(_stopper(task))

    async def _execute(self, worker: Worker, job: Job) -> None:
        try:
            result = await worker.run(job.budget, job.func, *job.args, progress=job.progress)
        except Exception as error:
            if not job.future.done():
                job.future.set_exception(error)
        else:
            if not job.future.done():
                job.future.set_result(result)
        finally:
            self.busy -= 1
            if worker.alive and not self.closed:
                self.idle.append(worker)
            else:
                worker.end()
                self.workers.discard(worker)
            self._dispatch()

    def close(self) -> None:
        """End the workers; jobs waiting fail with ``StoppingError``."""
        self.closed = True
        for queue in self.queues.values():
            for job in queue:
                if not job.future.done():
                    job.future.set_exception(StoppingError("the server is stopping"))
        self.queues.clear()
        for task in self._tasks:
            task.cancel()
        for worker in self.workers:
            worker.end()
        self.workers.clear()
        self.idle.clear()
