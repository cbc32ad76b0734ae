"""One table served by several server processes (issue 42 items 1 and 4): a person's socket
at one process, the computer players led by another, every change followed through Redis
wake-ups and the store; the lease moves to a surviving process when its owner stops. Two
apps in this test process stand for two server processes (their own event loops, one
SQLite store, the Redis on 127.0.0.1); skips, saying why, without Redis."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from server_testkit import Driver, check_frames, client, db_url, new_game_id, open_table, stored
from test_server_redis import REDIS, needs_redis

from spades.store import Store

pytestmark = [pytest.mark.timeout(120), needs_redis]


def decide(driver: Driver, count: int) -> dict[str, Any]:
    """Make ``count`` of seat 0's decisions; the state after the last."""
    state = driver.until_decision()
    for _ in range(count):
        if state["view"]["over"]:
            break
        driver.act(driver.choose(state))
        state = driver.until_decision()
    return state


def holder(tmp_path: Path, game_id: str) -> str | None:
    store = Store(db_url(tmp_path))
    try:
        held = store.leases.holder(game_id)
    finally:
        store.close()
    return None if held is None else held[0]


def test_a_person_at_one_process_plays_the_computer_players_of_another(
        tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as one, client(tmp_path, redis_url=REDIS) as two:
        game_id = new_game_id(one)  # one made it: one leads it
        leader = holder(tmp_path, game_id)
        assert leader == one.app.state.owners.me  # type: ignore[attr-defined]
        with open_table(two, game_id) as ws:
            driver = Driver(ws)
            state = decide(driver, 30)
        game = stored(tmp_path, game_id)
        # the computer players' turns were played (by one) and told (by two)
        assert state["step"] == len(game.actions) and len(game.actions) > 60
        assert {r.seat for r in game.actions} == {0, 1, 2, 3}
        assert check_frames(driver.frames, game) > 30
        steps = [f["step"] for f in driver.frames if f["type"] == "state"]
        assert steps == sorted(steps)
        assert holder(tmp_path, game_id) == leader


def test_the_lease_moves_when_its_owner_stops(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as two:
        with client(tmp_path, redis_url=REDIS) as one:
            game_id = new_game_id(one)
            first = one.app.state.owners.me  # type: ignore[attr-defined]
            assert holder(tmp_path, game_id) == first
            with open_table(two, game_id) as ws:
                driver = Driver(ws)
                decide(driver, 3)
        # one is gone (its leases given up): two leads, and the computer players play on
        began = time.monotonic()
        with open_table(two, game_id) as ws:
            driver = Driver(ws)
            state = decide(driver, 10)
        assert holder(tmp_path, game_id) == two.app.state.owners.me  # type: ignore[attr-defined]
        assert time.monotonic() - began < 30
        game = stored(tmp_path, game_id)
        assert state["step"] == len(game.actions)
        assert check_frames(driver.frames, game) > 5
