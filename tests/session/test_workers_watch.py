"""How a thinking process's pipe is watched (``Worker._listen``): once for the jobs that
follow one another, not once a message, and no longer once the process died between jobs
(its pipe then reads as ready at every turn of the event loop)."""

from __future__ import annotations

import asyncio
import operator

import pytest

from spades.session.workers import Worker

pytestmark = pytest.mark.timeout(60)


def test_jobs_in_a_row_keep_one_watch_and_a_process_dead_between_jobs_drops_it() -> None:
    async def go() -> tuple[list[int], list[bool], int, bool]:
        worker = Worker()
        wakes = [0]
        readable = worker._readable

        def counted() -> None:
            wakes[0] += 1
            readable()

        worker._readable = counted  # type: ignore[method-assign]
        loop = asyncio.get_running_loop()
        added = [0]
        add_reader = loop.add_reader

        def add(fd: int, callback: object, *args: object) -> None:
            added[0] += 1
            add_reader(fd, callback, *args)  # type: ignore[arg-type]

        loop.add_reader = add  # type: ignore[method-assign,assignment]
        try:
            results = [await worker.run(5.0, operator.add, n, 1) for n in range(20)]
            watched = [worker._watching is not None]
            worker.process.kill()
            worker.process.wait(10)
            before = wakes[0]
            await asyncio.sleep(0.3)  # the loop turns many times meanwhile
            watched.append(worker._watching is not None)
            return results, watched, wakes[0] - before, worker.alive
        finally:
            loop.add_reader = add_reader  # type: ignore[method-assign]
            worker.end()
            assert added[0] <= 3, added  # ready, then the jobs: not one a job

    results, watched, wakes_after_death, alive = asyncio.run(go())
    assert results == list(range(1, 21))
    assert watched == [True, False]
    assert wakes_after_death <= 2  # told once, then not watched: no busy loop
    assert not alive
