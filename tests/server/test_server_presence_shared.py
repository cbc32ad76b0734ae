"""Presence, grace periods and turn timers of a table for friends served by several server
processes (issue 42 items 2 and 4): who is here is read across processes (a socket at
another process counts), only the lease holder runs grace periods, stand-ins and timers,
its ``table`` and ``turn-timer`` messages reach every process's sockets, and when it stops
the other process takes them over from the store. Two apps in this test process stand for
two server processes (one SQLite store, the Redis on 127.0.0.1); skips, saying why,
without Redis."""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from friends_kit import as_player, join, make_table, play_until_played_for, until
from server_testkit import Driver, client, db_url, open_table
from test_server_processes import holder
from test_server_redis import REDIS, needs_redis

from spades.server.here import here_key
from spades.store import Store

pytestmark = [pytest.mark.timeout(120), needs_redis]

Sleep = Callable[[float], Awaitable[None]]
ANN, BOB = "player-ann-00001", "player-bob-00002"


def start_two(http: Any, **options: Any) -> str:
    """A partnership table of Ann (seat 0) and Bob (seat 1), started; its id."""
    made = make_table(http, ANN, preset="partnership", **options)
    assert join(http, made["code"], BOB, 1, "Bob").status_code == 200
    assert http.post(f"/api/tables/{made['id']}/start",
                     headers=as_player(ANN)).status_code == 200
    return str(made["id"])


def parts(http: Any) -> Any:
    """The app's parts (``app.state``)."""
    return http.app.state


def recording(slept: list[float], quick: bool = True) -> Sleep:
    """A fake sleep for a presence's timers and grace periods: each length is kept; it
    then runs out at once (``quick``) or practically never."""

    async def sleep(seconds: float) -> None:
        slept.append(seconds)
        await asyncio.sleep(0.05 if quick else 3600)

    return sleep


def seat_states(tmp_path: Path, table_id: str) -> list[str]:
    store = Store(db_url(tmp_path))
    try:
        table = store.friends.get(table_id)
    finally:
        store.close()
    assert table is not None
    return [s.state for s in sorted(table.seats, key=lambda s: s.seat)]


def presence_of(frame: dict[str, Any], seat: int) -> str:
    return str(frame["table"]["seats"][seat]["presence"])


def me(http: Any) -> str:
    return str(parts(http).owners.me)


def test_a_person_whose_socket_is_at_the_follower_is_not_taken_for_away(
        tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS, grace=0.3) as one, \
            client(tmp_path, redis_url=REDIS, grace=0.3) as two:
        table_id = start_two(one)
        assert holder(tmp_path, table_id) == me(one)  # one started it: one leads
        with open_table(two, table_id, ANN) as ann, open_table(one, table_id, BOB) as bob:
            until(ann, "state")
            frames: list[Any] = []
            until(bob, "table", frames=frames, where=lambda m: presence_of(m, 0) == "here")
            with open_table(one, table_id, ANN) as tab:  # a second tab, at the leader
                until(tab, "state")
            # the tab closed: Ann's last socket at the leader, not her last anywhere
            time.sleep(2.5)  # past the grace, and several readings of who is here
            assert seat_states(tmp_path, table_id) == ["here", "here"]
            assert not parts(one).lobby.tables[table_id].session.absent
            bob.send_json({"type": "ping"})
            until(bob, "pong", frames=frames)
            told = [f for f in frames if f["type"] == "table"]
            assert told and all(presence_of(f, 0) == "here" for f in told)
            assert not any(f["table"]["seats"][0]["stand_in"] for f in told)
            # Redis holds Ann's seat from two and Bob's from one, and no tab's
            import redis

            members = redis.Redis.from_url(REDIS, decode_responses=True).zrange(
                here_key(table_id), 0, -1)
            assert sorted(members) == sorted([f"0:{me(two)}", f"1:{me(one)}"])
            # Bob's socket at one: one leads on (it hands over only a table it has no
            # socket of)
            assert holder(tmp_path, table_id) == me(one)
            assert parts(one).lobby.tables[table_id].session.leading


def step_together(drivers: dict[int, Driver], done: Callable[[dict[str, Any]], bool],
                  limit: int = 400) -> dict[str, Any]:
    """Read each seat's socket up to the latest version (each change reaches every
    socket); the seat asked to decide acts; until a state some seat received satisfies
    ``done``, which is returned."""

    def next_state(seat: int, newer_than: int) -> dict[str, Any]:
        driver = drivers[seat]
        while True:
            state = until(driver.ws, "state", frames=driver.frames)
            if done(state):
                raise Found(state)
            if state["version"] > newer_than:
                driver.state = state
                return state

    for driver in drivers.values():
        driver.send({"type": "sync"})  # a state each, the one now
    try:
        states = {seat: next_state(seat, -1) for seat in drivers}
        for _ in range(limit):
            top = max(s["version"] for s in states.values())
            behind = [seat for seat, s in states.items() if s["version"] < top]
            for seat in behind:
                states[seat] = next_state(seat, top - 1)
            if behind:
                continue
            actor = next((seat for seat, s in states.items() if s["legal"]), None)
            if actor is not None:
                drivers[actor].act(drivers[actor].choose(states[actor]))
            states = {seat: next_state(seat, top) for seat in drivers}
    except Found as found:
        return found.state
    raise AssertionError("it did not happen")


class Found(Exception):
    def __init__(self, state: dict[str, Any]):
        super().__init__("found")
        self.state = state


def test_a_person_who_leaves_the_follower_is_played_for_then_comes_back_at_the_leader(
        tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS, grace=0.5) as one, \
            client(tmp_path, redis_url=REDIS, grace=0.5) as two:
        table_id = start_two(one)  # one leads
        with open_table(one, table_id, ANN) as ann:
            driver = Driver(ann, random.Random(4))
            with open_table(two, table_id, BOB) as bob:
                until(bob, "state")
                # the leader saw Bob's socket at the other process
                until(ann, "table", where=lambda m: presence_of(m, 1) == "here")
            away = until(ann, "table", where=lambda m: presence_of(m, 1) == "away")
            assert away["table"]["seats"][1]["grace"] is not None
            until(ann, "table", where=lambda m: m["table"]["seats"][1]["stand_in"])
            driver.send({"type": "sync"})
            # Ann plays; the computer player plays Bob's turns
            played = play_until_played_for(driver, "Bob")
            assert played and played[0]["seat"] == 1
            assert parts(one).lobby.tables[table_id].session.absent == {1}
            with open_table(one, table_id, BOB) as bob:  # back, at the other process
                told = until(bob, "while-away")
                assert told["events"] and all(e["played_for"] == "Bob" for e in told["events"])
                until(ann, "table", where=lambda m: presence_of(m, 1) == "here")
                bobs = Driver(bob, random.Random(5))
                # Bob decides again: a bid or a card of his seat, not played for him
                last = step_together({0: Driver(ann, random.Random(6)), 1: bobs},
                                     lambda state: any(
                    e["seat"] == 1 and e["kind"] in ("bid", "play") and not e.get("played_for")
                    and e["step"] > played[-1]["step"] for e in state["events"]))
                assert last["events"]
                assert any(f["type"] == "state" and f["legal"] for f in bobs.frames)
        assert seat_states(tmp_path, table_id)[1] in ("here", "away")


def test_the_turn_timer_runs_out_once_with_sockets_at_both_processes(tmp_path: Path) -> None:
    with client(tmp_path, redis_url=REDIS) as one, client(tmp_path, redis_url=REDIS) as two:
        at_one: list[float] = []
        at_two: list[float] = []

        release = threading.Event()

        async def first_only(seconds: float) -> None:  # the first timer runs out when told
            at_one.append(seconds)
            if len(at_one) > 1:
                await asyncio.sleep(3600)
            while not release.is_set():
                await asyncio.sleep(0.02)

        parts(one).presence.sleep = first_only
        parts(two).presence.sleep = recording(at_two)
        table_id = start_two(one, timer=20)  # one leads
        with open_table(one, table_id, ANN) as ann, open_table(two, table_id, BOB) as bob:
            first = until(bob, "turn-timer", where=lambda m: m["seat"] is not None)
            assert first["of"] == 20 and 0 < first["left"] <= 20  # heard from the leader
            release.set()
            played = until(ann, "state", where=lambda m: any(
                e.get("played_for") for e in m["events"]))
            seat = next(e["seat"] for e in played["events"] if e.get("played_for"))
            assert seat == first["seat"]
            # the next person's timer (the other person: the computer players sit
            # between them) is heard at the follower too
            at_bob: list[Any] = []
            until(bob, "turn-timer", frames=at_bob,
                  where=lambda m: m["seat"] not in (None, seat))

            def marked(m: Any) -> bool:  # the follower's sockets are told it was played for
                return m["type"] == "state" and any(
                    e.get("played_for") and e["seat"] == seat for e in m["events"])
            if not any(marked(m) for m in at_bob):
                until(bob, "state", where=marked)
            wait_for(lambda: len(at_one) >= 2)  # the next timer's deadline is kept first
            time.sleep(1.0)  # what a follower timing it would have done meanwhile
            assert at_two == []  # the follower never ran a timer
            assert at_one[:2] == [20, 20]
            marks = wait_for(lambda: parts(one).store.friends.stand_ins(table_id))
            assert list(marks.values()) == [seat]  # played for once


def wait_for(get: Callable[[], Any], timeout: float = 10.0) -> Any:
    """``get()`` once it is truthy."""
    deadline = time.monotonic() + timeout
    while not (value := get()):
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.05)
    return value


def test_when_the_leader_stops_the_other_process_takes_grace_and_timer_over(
        tmp_path: Path) -> None:
    at_one: list[float] = []
    at_two: list[float] = []
    with client(tmp_path, redis_url=REDIS, grace=60) as two:
        parts(two).presence.sleep = recording(at_two)
        one: Any = client(tmp_path, redis_url=REDIS, grace=60).__enter__()
        try:
            parts(one).presence.sleep = recording(at_one, quick=False)
            table_id = start_two(one, timer=20)  # one leads; the sockets are at two
            with open_table(two, table_id, ANN) as ann:
                frames: list[Any] = []
                until(ann, "turn-timer", frames=frames, where=lambda m: m["seat"] is not None)
                with open_table(two, table_id, BOB) as bob:
                    until(bob, "state")
                    until(ann, "table", frames=frames,
                          where=lambda m: presence_of(m, 1) == "here")
                # Bob left: one, the leader, runs his grace period (60 s) and the timer
                until(ann, "table", frames=frames, where=lambda m: presence_of(m, 1) == "away")
                store = parts(two).store
                wait_for(lambda: store.friends.get(table_id).timer_until)
                wait_for(lambda: len(at_one) >= 2)
                assert sorted(at_one) == [20, 60] and at_two == []
                stopped = time.monotonic()
                one.__exit__(None, None, None)  # the leader goes (its lease given up)
                one = None
                gone = until(ann, "table", frames=frames,
                             where=lambda m: m["table"]["seats"][1]["stand_in"])
                took = time.monotonic() - stopped
                assert presence_of(gone, 1) == "gone"
                played = until(ann, "state", frames=frames, where=lambda m: any(
                    e.get("played_for") for e in m["events"]))
            assert holder(tmp_path, table_id) == me(two)
        finally:
            if one is not None:
                one.__exit__(None, None, None)
    # two picked up the deadlines the store kept (not new ones): less than 60 s of grace
    # and less than 20 s of the running timer were left
    assert any(50 < s < 60 for s in at_two), at_two
    assert any(0 < s < 20 for s in at_two), at_two
    assert took < 10, took
    assert played["events"]


def test_what_was_played_for_a_person_is_told_by_the_next_leader(tmp_path: Path) -> None:
    """Bob is away and played for while process one leads; one stops and two takes the
    table over; Bob comes back at two and is told all that was played for him, the cards
    one's computer player made included (rebuilt from the store, not one's memory)."""
    with client(tmp_path, redis_url=REDIS, grace=0.5) as two:
        one: Any = client(tmp_path, redis_url=REDIS, grace=0.5).__enter__()
        try:
            table_id = start_two(one)  # one leads; the sockets are at two
            with open_table(two, table_id, ANN) as ann:
                driver = Driver(ann, random.Random(8))
                with open_table(two, table_id, BOB) as bob:
                    until(bob, "state")
                    until(ann, "table", where=lambda m: presence_of(m, 1) == "here")
                until(ann, "table", where=lambda m: m["table"]["seats"][1]["stand_in"])
                driver.send({"type": "sync"})
                before = play_until_played_for(driver, "Bob")  # made at one
                one.__exit__(None, None, None)  # the leader goes (its lease given up)
                one = None
                wait_for(lambda: holder(tmp_path, table_id) == me(two))
                with open_table(two, table_id, BOB) as bob:  # back, at the new leader
                    told = until(bob, "while-away")
        finally:
            if one is not None:
                one.__exit__(None, None, None)
    steps = [e["step"] for e in told["events"]]
    assert all(e["played_for"] == "Bob" and e["seat"] == 1 for e in told["events"])
    assert before[0]["step"] in steps  # what one's computer player made for him
    assert steps == sorted(steps) and "While you were away" in told["text"]


def test_a_table_whose_people_are_all_at_the_other_process_is_handed_over(
        tmp_path: Path) -> None:
    """One started the table and leads it; both people's sockets open at two: one gives
    the table up (its lease and its copy), two leads it within seconds, and the game goes
    on there, the computer players' turns included, with nothing lost."""
    with client(tmp_path, redis_url=REDIS) as one, client(tmp_path, redis_url=REDIS) as two:
        table_id = start_two(one)
        assert holder(tmp_path, table_id) == me(one)
        with open_table(two, table_id, ANN) as ann, open_table(two, table_id, BOB) as bob:
            drivers = {0: Driver(ann, random.Random(7)), 1: Driver(bob, random.Random(8))}
            until(ann, "state", frames=drivers[0].frames)
            until(bob, "state", frames=drivers[1].frames)
            wait_for(lambda: holder(tmp_path, table_id) == me(two))
            wait_for(lambda: table_id not in parts(one).lobby.tables)
            served = parts(two).lobby.tables[table_id]
            wait_for(lambda: served.session.leading)
            start = served.session.version
            # two plays on alone: the people's cards and the computer players' after them
            last = step_together(drivers, lambda state: state["step"] >= start + 12)
            assert holder(tmp_path, table_id) == me(two)
            assert table_id not in parts(one).lobby.tables
        store = Store(db_url(tmp_path))
        try:
            game = store.load_game(table_id)
        finally:
            store.close()
        assert game is not None and len(game.actions) >= last["step"]
        assert {a.seat for a in game.actions[start:]} == {0, 1, 2, 3}
