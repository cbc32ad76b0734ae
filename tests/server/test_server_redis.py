"""What the processes of one server share through Redis (issue 42 item 2, ``--redis``): a
ticket given by one process opens the game's socket at another, once; Redis keeps no token,
only its digest, and forgets it when its life is over; the limits count across processes; a
socket ended by one process (a deleted game, a sign-out) is ended on the others before the
answer; ``GET /api/health`` reports Redis; ``spades serve`` refuses a Redis it cannot reach.
Runs against the Redis on 127.0.0.1 (CI has one) and skips, saying why, where there is none."""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import secrets
import time
from dataclasses import astuple
from pathlib import Path

import pytest
from server_testkit import HEADERS, client, new_game_id, ticket
from test_server_access import first_state, refusal

from spades.accounts import AccountLimits, Guesses, Limited, Rates, Signups, counts_in
from spades.cli.main import main
from spades.server import sockets
from spades.server.endings import CHANNEL, Endings
from spades.server.quotas import GameLimits
from spades.server.shared import connect
from spades.server.tickets import RedisTickets
from spades.server.watchers import GONE_CLOSE, SIGNED_OUT_EVERYWHERE, Watcher, Watchers

pytestmark = pytest.mark.timeout(60)  # a socket left open would wait for ever

REDIS = os.environ.get("SPADES_TEST_REDIS", "redis://127.0.0.1:6379/0")
#: A port where nothing listens.
NO_REDIS = "redis://127.0.0.1:1/0"


def redis_reachable() -> str | None:
    import redis

    try:
        redis.Redis.from_url(REDIS, socket_connect_timeout=2).ping()
    except (redis.RedisError, OSError) as error:
        return f"Redis is not reachable at {REDIS} ({type(error).__name__})"
    return None


needs_redis = pytest.mark.skipif(redis_reachable() is not None,
                                 reason=str(redis_reachable()))


@needs_redis
def test_a_ticket_from_one_process_opens_the_socket_at_another_once(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as one, client(tmp_path, redis_url=REDIS) as two:
        game_id = new_game_id(one)
        token = ticket(one, game_id)
        with two.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": token})
            assert first_state(ws)["game"]["you"] == 0
        for http in (one, two):  # used up, wherever it is shown again
            with http.websocket_connect(f"/ws/games/{game_id}") as ws:
                ws.send_json({"type": "hello", "ticket": token})
                error, closing = refusal(ws)
            assert error["code"] == "ticket" and closing["code"] == sockets.TICKET_CLOSE


@needs_redis
def test_redis_keeps_the_tickets_digest_for_its_life_only() -> None:
    async def run() -> None:
        client_ = connect(REDIS)
        try:
            tickets = RedisTickets(client_, life=1, prefix=f"test-{os.getpid()}:")
            token = await tickets.issue("game-a", "player-0000-aaaa", watching=True)
            digest = hashlib.sha256(token.encode()).hexdigest()
            keys = [key async for key in client_.scan_iter(match=f"{tickets.prefix}*")]
            assert keys == [f"{tickets.prefix}{digest}"] and token not in keys[0]
            assert 0 < await client_.ttl(keys[0]) <= 1
            stored = await client_.get(keys[0])
            assert token not in stored and "player-0000-aaaa" in stored
            assert await tickets.redeem(token, "game-b") is None  # another game: used up
            late = await tickets.issue("game-a", "player-0000-aaaa")
            kept = await tickets.issue("game-a", "player-0000-aaaa", "login-1", "acct-1")
            found = await tickets.redeem(kept, "game-a")
            assert found is not None and (found.player, found.login, found.account,
                                          found.watching) == ("player-0000-aaaa", "login-1",
                                                              "acct-1", False)
            await asyncio.sleep(1.3)
            assert await tickets.redeem(late, "game-a") is None  # its life is over
            assert await tickets.redeem(12345, "game-a") is None
            assert await tickets.redeem("x" * 10_000, "game-a") is None
        finally:
            await client_.aclose()

    asyncio.run(run())


@needs_redis
def test_health_reports_redis(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as http:
        answer = http.get("/api/health")
        assert answer.status_code == 200 and answer.json()["redis"] == "ok"
    with client(tmp_path) as http:  # without --redis: nothing said of it
        assert "redis" not in http.get("/api/health").json()


def test_health_says_when_redis_does_not_answer(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=NO_REDIS) as http:
        answer = http.get("/api/health")
    assert answer.status_code == 503
    body = answer.json()
    assert (body["ok"], body["store"], body["redis"]) == (False, "ok", "error")
    assert "Redis" in body["error"]


def test_spades_serve_refuses_a_redis_it_cannot_reach(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    db = f"sqlite:///{tmp_path / 'games.db'}"
    assert main(["serve", "--db", db, "--port", "0", "--redis", NO_REDIS]) == 2
    assert "cannot reach Redis at redis://127.0.0.1:1" in capsys.readouterr().err
    assert main(["serve", "--db", db, "--port", "0", "--redis", "localhost:6379"]) == 2
    assert "--redis is not a Redis URL" in capsys.readouterr().err


@needs_redis
def test_new_games_are_counted_across_processes(tmp_path: Path) -> None:
    """Two processes on one Redis allow what one would, not twice as much."""
    limits = GameLimits(per_player="2/minute", per_address="10000/minute", unfinished=10_000)
    player = f"player-{secrets.token_hex(4)}-redis"  # Redis keeps counts between runs
    with client(tmp_path, redis_url=REDIS, game_limits=limits) as one, \
            client(tmp_path, redis_url=REDIS, game_limits=limits) as two:
        codes = [http.post("/api/games", json={"preset": "house", "level": "random"},
                           headers={"X-Spades-Player": player}).status_code
                 for http in (one, two, one, two)]
    assert codes == [201, 201, 429, 429]


@needs_redis
def test_sign_ups_and_sign_ins_are_counted_across_processes() -> None:
    async def run() -> None:
        limits = AccountLimits(signups_per_address="1/minute", signups_in_all="100/minute",
                               guesses_per_pair="2/minute")
        one, two = counts_in(REDIS), counts_in(REDIS)  # each process its own client
        address = f"198.51.100.{secrets.randbelow(250)}-{secrets.token_hex(3)}"
        await Signups(limits, one).take(address)
        with pytest.raises(Limited):
            await Signups(limits, two).take(address)
        account = f"{secrets.token_hex(4)}@example.org"
        await Guesses(limits, one).fail(account, address)
        await Guesses(limits, two).fail(account, address)
        with pytest.raises(Limited):
            await Guesses(limits, one).check(account, address)
        assert await Rates("other-count", "1/minute", two).wait(address) == 0  # apart

    asyncio.run(run())


def listeners(count: int) -> None:
    """Wait until at least ``count`` processes hear the endings channel."""
    import redis

    client_ = redis.Redis.from_url(REDIS)
    try:
        for _ in range(100):
            if dict(client_.pubsub_numsub(CHANNEL))[CHANNEL.encode()] >= count:
                return
            time.sleep(0.05)
    finally:
        client_.close()
    raise AssertionError("the processes never listened to the endings channel")


@needs_redis
def test_a_game_deleted_on_one_process_closes_its_socket_on_another(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as one, client(tmp_path, redis_url=REDIS) as two:
        listeners(2)
        game_id = new_game_id(one)
        with two.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": ticket(two, game_id)})
            first_state(ws)
            answer = one.delete(f"/api/games/{game_id}", headers=HEADERS)
            assert answer.status_code == 200, answer.text
            # answered only once the other process had ended its socket: it is closing
            closing = ws.receive_json()
            while closing["type"] != "error":
                closing = ws.receive_json()
            assert closing["code"] == "not-found"
            assert ws.receive()["code"] == GONE_CLOSE


def test_an_order_from_elsewhere_is_carried_out_and_garbage_dropped(
        caplog: pytest.LogCaptureFixture) -> None:
    watchers = Watchers()
    mine = watchers.add(Watcher("g1", "p1", "login-a", "acct"))
    theirs = watchers.add(Watcher("g2", "p2", "login-b", None))
    sent: list[tuple[str, str]] = []

    class Client:
        async def rpush(self, key: str, value: str) -> None:
            sent.append((key, value))

        async def expire(self, key: str, seconds: int) -> None:
            pass

    endings = Endings(Client(), watchers)

    async def run() -> None:
        for garbage in ("{", "[1, 2]", json.dumps({"why": [1], "logins": []}),
                        json.dumps({"why": [4410, "x", "y"], "logins": "login-a",
                                    "account": None, "games": []})):
            await endings._carry_out(garbage)
        await endings._carry_out(json.dumps({"from": endings.me, "why": [4410, "x", "y"],
                                             "logins": ["login-b"], "account": None,
                                             "games": []}))  # its own: already done
        await endings._carry_out(json.dumps({
            "from": "another", "answer": "spades:endings:answer:1",
            "why": list(astuple(SIGNED_OUT_EVERYWHERE)), "logins": [], "account": "acct",
            "games": []}))

    asyncio.run(run())
    assert mine.ended == SIGNED_OUT_EVERYWHERE and theirs.ended is None
    assert sent == [("spades:endings:answer:1", "1")]
    assert caplog.text.count("not an order") == 3


@needs_redis
def test_a_burst_of_redis_commands_waits_for_connections_rather_than_failing() -> None:
    """More commands at once than the pool holds wait for a free connection (redis-py's
    default pool refused the 101st at once: a 500 for a person's ticket)."""
    async def run() -> None:
        client_ = connect(REDIS)
        key = f"test-burst-{os.getpid()}-{secrets.token_hex(4)}"
        try:
            # each holds its connection for 0.1 s: 300 at once need 3 rounds of the pool
            done = await asyncio.gather(*(client_.blpop([key], timeout=0.1)
                                          for _ in range(300)), return_exceptions=True)
            assert [d for d in done if d is not None] == []
        finally:
            await client_.aclose()

    asyncio.run(run())


def test_the_counts_in_redis_wait_for_a_connection_too() -> None:
    from redis.asyncio import BlockingConnectionPool

    storage = counts_in("redis://127.0.0.1:1/0")  # nothing is connected until used
    pool = storage.bridge.storage.connection_pool  # type: ignore[attr-defined]
    assert isinstance(pool, BlockingConnectionPool) and pool.max_connections >= 32
