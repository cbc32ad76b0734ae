"""One table served by several server processes (issue 42 items 1 and 4): a person's socket
at one process, the computer players led by another, every change followed through Redis
wake-ups and the store; the lease moves to a surviving process when its owner stops. Two
apps in this test process stand for two server processes (their own event loops, one
SQLite store, the Redis on 127.0.0.1); skips, saying why, without Redis."""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from server_testkit import Driver, check_frames, client, db_url, new_game_id, open_table, stored
from test_server_redis import REDIS, needs_redis

from spades.store import Store

pytestmark = [pytest.mark.timeout(120), needs_redis]


def decide(driver: Driver, count: int, state: dict[str, Any] | None = None) -> dict[str, Any]:
    """Make ``count`` of seat 0's decisions from ``state`` (None: the next that asks for
    one); the state after the last."""
    state = state or driver.until_decision()
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
        # the leader's computer players thinking, told at the follower too
        thinking = [f for f in driver.frames if f["type"] == "thinking"]
        assert thinking and {f["seat"] for f in thinking} <= {1, 2, 3}
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



class RedisServer:
    """A Redis server of this test's own, on its own port (it keeps nothing on disk), that
    the test stops and starts again."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            pytest.skip("redis-server is not installed (apt-get install redis-server)")
        self.binary = binary
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen([self.binary, "--port", str(self.port), "--bind",
                                      "127.0.0.1", "--save", "", "--appendonly", "no"],
                                     stdout=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while True:
            try:
                redis.Redis(port=self.port, socket_connect_timeout=1).ping()
                return
            except redis.RedisError:
                assert time.monotonic() < deadline, "redis-server did not start"
                time.sleep(0.05)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)


def test_a_redis_restart_mid_game_loses_nothing(tmp_path: Path) -> None:
    private = RedisServer()
    private.start()
    try:
        with client(tmp_path, redis_url=private.url) as one, \
                client(tmp_path, redis_url=private.url) as two:
            game_id = new_game_id(one)  # one leads: it plays the computer players
            with open_table(two, game_id) as ws:
                driver = Driver(ws)
                state = decide(driver, 4)
                private.stop()  # Redis goes away: the processes read the store meanwhile
                during = decide(driver, 6, state)
                private.start()  # and comes back, empty
                after = decide(driver, 6, during)
        game = stored(tmp_path, game_id)
        assert state["step"] < during["step"] < after["step"] == len(game.actions)
        assert not [f for f in driver.frames if f["type"] == "error"]
        assert check_frames(driver.frames, game) > 10
    finally:
        private.stop()
