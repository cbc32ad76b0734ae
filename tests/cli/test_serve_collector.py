"""A server process runs with Python's collector tuned for a server (``COLLECTOR``), what
it made before serving frozen out of the collector's walks: set by ``run_loop``, the one
way both ``spades serve`` and each of ``--processes N`` run their event loop."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from types import SimpleNamespace

import pytest

from spades.cli.processes import COLLECTOR, run_loop


@pytest.fixture
def collector() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def test_the_event_loop_runs_with_the_servers_collector(collector: None) -> None:
    gc.set_threshold(700, 10, 10)  # Python's default
    gc.unfreeze()
    seen: list[tuple[tuple[int, int, int], int]] = []

    async def main() -> None:
        seen.append((gc.get_threshold(), gc.get_freeze_count()))

    server = SimpleNamespace(config=SimpleNamespace(get_loop_factory=lambda: None))
    run_loop(main(), server)
    assert seen, "the coroutine did not run"
    thresholds, frozen = seen[0]
    assert thresholds == COLLECTOR
    assert COLLECTOR[0] > 700  # fewer, larger young collections than Python's default
    assert frozen > 1000  # the modules and objects made before serving
