"""Who is at a table when several processes serve it (``server/here.py``): a process's
renewal writes every seat it holds with one Redis command, the leader's sweep reads every
table's set with one, and both keep meaning what they meant as pipelines: members living
``HERE_LIFE`` seconds, sets living ``KEY_LIFE``, expired members not here, a Redis that
forgot its scripts served again, a Redis gone answered with "cannot say". Runs against the
Redis on 127.0.0.1 (CI has one) and skips, saying why, where there is none."""

from __future__ import annotations

import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from server_testkit import run_async
from test_server_redis import NO_REDIS, REDIS, needs_redis

from spades.server.here import HERE_LIFE, KEY_LIFE, Here, here_key
from spades.server.shared import connect

pytestmark = [pytest.mark.timeout(60), needs_redis]


def counting(client: Any) -> list[str]:
    """The names of the commands ``client`` sends from now on (one a round trip)."""
    sent: list[str] = []
    send = client.execute_command

    async def execute_command(*args: Any, **options: Any) -> Any:
        sent.append(str(args[0]).upper())
        return await send(*args, **options)

    client.execute_command = execute_command
    return sent


def on_redis(body: Callable[[Any], Awaitable[None]], url: str = REDIS) -> None:
    """``body`` run with a client of ``url``, closed after."""

    async def go() -> None:
        client = connect(url)
        try:
            await body(client)
        finally:
            await client.aclose()

    run_async(go())


def games(count: int) -> list[str]:
    return [f"here-test-{secrets.token_hex(6)}" for _ in range(count)]


def test_a_renewal_writes_every_held_seat_with_one_command() -> None:
    async def body(client: Any) -> None:
        here = Here(client, "p1")
        ids = games(150)
        here.mine = {(g, seat) for g in ids for seat in (0, 2)}
        await here.renew()  # the first may load the script into Redis
        sent = counting(client)
        before = time.time()
        await here.renew()
        assert sent == ["EVALSHA"]
        for game_id in ids:
            members = await client.zrange(here_key(game_id), 0, -1, withscores=True)
            assert sorted(m for m, _ in members) == ["0:p1", "2:p1"]
            for _, until in members:
                assert before + HERE_LIFE - 1 <= until <= time.time() + HERE_LIFE + 1
            assert KEY_LIFE - 5 <= await client.ttl(here_key(game_id)) <= KEY_LIFE
        await client.delete(*(here_key(g) for g in ids))

    on_redis(body)


def test_a_sweep_reads_every_tables_seats_with_one_command_expired_members_left_out() -> None:
    async def body(client: Any) -> None:
        one, two = Here(client, "p1"), Here(client, "p2")
        ids = games(40)
        one.mine = {(g, 0) for g in ids}
        two.mine = {(g, 3) for g in ids[:20]}
        await one.renew()
        await two.renew()
        gone = ids[5]  # seat 1 of that game: a member a dead process left, expired
        await client.zadd(here_key(gone), {"1:p3": time.time() - 1})
        unknown = games(1)[0]
        await one.seats_of([unknown])  # the first may load the script into Redis
        sent = counting(client)
        found = await one.seats_of([*ids, unknown])
        assert sent == ["EVALSHA"]
        assert found is not None
        for index, game_id in enumerate(ids):
            assert found[game_id] == ((frozenset({0, 3}), True) if index < 20
                                      else (frozenset({0}), False))
            assert found[game_id].seats == await one.seats(game_id)  # the one-game read
        assert found[unknown] == (frozenset(), False)
        await client.delete(*(here_key(g) for g in ids))

    on_redis(body)


def test_a_redis_that_forgot_its_scripts_is_served_again() -> None:
    async def body(client: Any) -> None:
        here = Here(client, "p1")
        game_id = games(1)[0]
        here.mine = {(game_id, 1)}
        await here.renew()
        await client.script_flush()
        await here.renew()
        assert await here.seats_of([game_id]) == {game_id: (frozenset({1}), False)}
        await client.delete(here_key(game_id))

    on_redis(body)


def test_without_redis_a_renewal_says_so_and_a_sweep_cannot_say() -> None:
    async def body(client: Any) -> None:
        here = Here(client, "p1")
        here.mine = {("g", 0)}
        await here.renew()  # logged, not raised: the loop goes on
        assert await here.seats_of(["g"]) is None
        assert await here.seats("g") is None

    on_redis(body, NO_REDIS)
