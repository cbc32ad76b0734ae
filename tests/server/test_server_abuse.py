"""A hostile or broken client changes nothing it should not and costs bounded memory and
time: send queues are bounded, floods are read at a person's pace, bodies are refused while
they stream, JSON that Python cannot read is a bad message, and a lost or full database is
refused with its cause (issue 7)."""

from __future__ import annotations

import asyncio
import itertools
import json
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from server_testkit import (
    HEADERS,
    PLAYER,
    Driver,
    client,
    db_url,
    new_game_id,
    open_table,
    run_async,
    stored,
)
from starlette.requests import Request

from spades.server.common import MAX_MESSAGE
from spades.server.connections import Connection

pytestmark = pytest.mark.timeout(60)



def snapshot(tmp_path: Path, game_id: str) -> tuple[int, int]:
    game = stored(tmp_path, game_id)
    return game.game.version, len(game.actions)


# ------------------------------------------------------------------ 1. bounded send queues

def test_a_client_that_never_reads_costs_a_bounded_queue_then_gets_a_fresh_state() -> None:
    async def scenario() -> tuple[int, int, int, list[str]]:
        gate = asyncio.Event()
        sent: list[str] = []

        async def send_text(text: str) -> None:
            await gate.wait()  # the browser does not read
            sent.append(text)

        async def refresh() -> dict[str, Any]:
            return {"type": "state", "version": 99}

        conn = Connection(0, send_text, refresh)
        pump = asyncio.create_task(conn.pump(json.dumps))
        for version in range(20_000):
            conn.send({"type": "state", "version": version})
            if version % 1000 == 0:
                await asyncio.sleep(0)
        most = conn.queue.qsize()
        gate.set()  # the browser reads again
        conn.close()
        await asyncio.wait_for(pump, 5)
        return most, conn.limit, conn.dropped, sent

    most, limit, dropped, sent = run_async(scenario())
    assert most <= limit <= 100
    assert dropped > 0
    versions = [json.loads(text)["version"] for text in sent]
    # what it had fallen behind on is replaced by the table as it is now
    assert 99 in versions and len(versions) <= limit + 2, versions[:40]


def test_syncs_from_a_client_that_does_not_read_cost_nothing() -> None:
    async def scenario() -> tuple[int, int, list[str]]:
        gate = asyncio.Event()
        sent: list[str] = []
        made = [0]

        async def send_text(text: str) -> None:
            await gate.wait()
            sent.append(text)

        async def refresh() -> dict[str, Any]:
            made[0] += 1
            return {"type": "state", "version": made[0]}

        conn = Connection(0, send_text, refresh)
        pump = asyncio.create_task(conn.pump(json.dumps))
        conn.send({"type": "pong"})
        await asyncio.sleep(0)  # the pump is stuck sending the pong
        for _ in range(10_000):
            conn.send_fresh()
        waiting = conn.queue.qsize()
        gate.set()
        await asyncio.sleep(0.05)
        conn.close()
        await asyncio.wait_for(pump, 5)
        return waiting, made[0], sent

    waiting, made, sent = run_async(scenario())
    assert waiting == 1 and made == 1
    assert [json.loads(t)["type"] for t in sent] == ["pong", "state"]


def test_syncs_as_fast_as_allowed_make_one_fresh_state_a_second() -> None:
    """A client that reads, sending a sync every 20 ms: the first is answered at once, the
    rest by one fresh state a second (before, each made a state: issue 37 item 5)."""
    async def scenario() -> tuple[list[float], float]:
        made: list[float] = []
        loop = asyncio.get_running_loop()

        async def send_text(text: str) -> None:
            pass

        async def refresh() -> dict[str, Any]:
            made.append(loop.time())
            return {"type": "state", "version": len(made)}

        conn = Connection(0, send_text, refresh)
        pump = asyncio.create_task(conn.pump(json.dumps))
        start = loop.time()
        while loop.time() - start < 1.5:
            conn.send_fresh()
            await asyncio.sleep(0.02)
        conn.close()
        await asyncio.wait_for(pump, 5)
        return made, start

    made, start = run_async(scenario())
    gaps = [b - a for a, b in itertools.pairwise(made)]
    assert made[0] - start < 0.1 and len(made) >= 2, (made, start)
    assert min(gaps) >= 0.95, gaps


def test_a_client_that_stops_reading_is_hung_up() -> None:
    async def scenario() -> bool:
        hung = asyncio.Event()

        async def send_text(text: str) -> None:
            await asyncio.sleep(3600)

        async def hang_up() -> None:
            hung.set()

        conn = Connection(0, send_text, hang_up=hang_up, timeout=0.2)
        pump = asyncio.create_task(conn.pump(json.dumps))
        conn.send({"type": "pong"})
        await asyncio.wait_for(pump, 5)
        return hung.is_set() and conn.closed

    assert run_async(scenario())


def test_nothing_is_read_from_a_client_whose_message_is_stuck() -> None:
    """A client that sends without ever reading: once a message to it has been unsent for
    ``stuck`` seconds, ``flowing`` waits (the socket's frames are not read) until that
    message goes or the connection ends; a client that reads is never held."""
    async def scenario() -> tuple[float, bool, float]:
        release = asyncio.Event()

        async def stuck_send(text: str) -> None:
            await release.wait()

        async def quick_send(text: str) -> None:
            return None

        quick = Connection(0, quick_send, stuck=0.05)
        quick_pump = asyncio.create_task(quick.pump(json.dumps))
        quick.send({"type": "pong"})
        await asyncio.sleep(0.1)
        began = asyncio.get_running_loop().time()
        await asyncio.wait_for(quick.flowing(), 1)
        held_quick = asyncio.get_running_loop().time() - began
        conn = Connection(0, stuck_send, stuck=0.05)
        pump = asyncio.create_task(conn.pump(json.dumps))
        conn.send({"type": "pong"})
        await asyncio.wait_for(conn.flowing(), 1)  # in flight, not stuck yet: goes on
        await asyncio.sleep(0.1)
        waiting = asyncio.create_task(conn.flowing())
        await asyncio.sleep(0.2)
        held = not waiting.done()
        began = asyncio.get_running_loop().time()
        release.set()  # the client takes the message: reading goes on
        await asyncio.wait_for(waiting, 1)
        after = asyncio.get_running_loop().time() - began
        for c, p in ((conn, pump), (quick, quick_pump)):
            c.close()
            await asyncio.wait_for(p, 1)
        return held_quick, held, after

    held_quick, held, after = run_async(scenario())
    assert held_quick < 0.05 and held and after < 0.5


# ------------------------------------------------------------------ 2. bodies

def test_only_json_bodies_create_games(tmp_path: Path) -> None:
    """A page elsewhere may POST text/plain (no preflight): ?player= names nobody, and a
    body that is not JSON makes no game even with the header."""
    with client(tmp_path) as http:
        for kind in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data",
                     None):
            headers = {} if kind is None else {"Content-Type": kind}
            response = http.post(f"/api/games?player={PLAYER}", content=b'{"level":"easy"}',
                                 headers=headers)
            assert response.status_code == 400, (kind, response.text)
            response = http.post("/api/games", content=b'{"level":"easy"}',
                                 headers={**headers, **HEADERS})
            assert response.status_code == 415, (kind, response.text)
            assert "application/json" in response.json()["error"]
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}
        response = http.post("/api/games", content=b"{}", headers={
            **HEADERS, "Content-Type": "application/json; charset=utf-8"})
        assert response.status_code == 201


def test_an_oversized_body_is_refused_before_it_is_read(tmp_path: Path) -> None:
    from spades.server.common import read_body

    read: list[int] = []

    async def receive() -> dict[str, Any]:  # 8 MB in chunks of 4 KB, without a length
        read.append(1)
        return {"type": "http.request", "body": b" " * 4096, "more_body": len(read) < 2000}

    scope = {"type": "http", "method": "POST", "path": "/api/games", "headers": []}
    assert run_async(read_body(Request(scope, receive))) is None
    assert len(read) == MAX_MESSAGE // 4096 + 1  # it stopped reading at once
    read.clear()
    told = {**scope, "headers": [(b"content-length", b"8192000")]}
    assert run_async(read_body(Request(told, receive))) is None
    assert read == []  # a declared length over the limit: nothing read at all
    json_headers = {**HEADERS, "Content-Type": "application/json"}
    with client(tmp_path) as http:
        response = http.post("/api/games", content=b" " * (MAX_MESSAGE + 1),
                             headers=json_headers)
        assert response.status_code == 413 and str(MAX_MESSAGE) in response.json()["error"]
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}


# ------------------------------------------------------------------ 4. floods

def test_buckets_let_a_person_through_and_hold_a_flood() -> None:
    from spades.server.limits import SOCKET_BURST, SOCKET_RATE, Bucket, Limits

    now = [0.0]
    limits = Limits(clock=lambda: now[0])
    socket, player = limits.socket(), limits.player(PLAYER)
    # a person: a click every 0.15 s for a minute, and a burst of 20 on reconnecting
    for _ in range(20):
        assert limits.wait(socket, player) == 0
    for _ in range(400):
        now[0] += 0.15
        assert limits.wait(socket, player) == 0
    # a flood: beyond the burst it must wait, about 1/rate a frame
    taken = sum(1 for _ in range(1000) if limits.wait(socket, player) == 0)
    assert taken <= SOCKET_BURST
    assert limits.wait(socket, player) == pytest.approx(1 / SOCKET_RATE, rel=0.5)
    # the player's sockets share a bucket: many sockets cannot multiply the rate
    others = [limits.socket() for _ in range(10)]
    now[0] += 100
    together = sum(1 for s in others for _ in range(100) if limits.wait(s, player) == 0)
    assert together <= limits.player_burst
    assert Bucket(1.0, 2.0).wait(0.0) == 0


def test_processes_on_one_port_each_read_a_players_frames_at_its_share(
        tmp_path: Path) -> None:
    """``--processes 2``: a player's sockets at both read together at most what one
    process reads of them; a person (a click every 0.15 s) still goes through at each."""
    from spades.server.limits import PLAYER_RATE, Limits

    with client(tmp_path, processes=2) as http:
        assert http.app.state.limits.player_rate == PLAYER_RATE / 2
    now = [0.0]
    each = [Limits.shared(2), Limits.shared(2)]
    for limits in each:
        limits.clock = lambda: now[0]
    players = [limits.player(PLAYER) for limits in each]
    for _ in range(400):  # a person at both
        now[0] += 0.15
        assert all(lim.wait(lim.socket(), p) == 0 for lim, p in zip(each, players, strict=True))
    now[0] += 100
    took = 0
    for _ in range(600):  # then a flood at both, for ten seconds
        now[0] += 1 / 60
        took += sum(1 for lim, p in zip(each, players, strict=True)
                    if lim.wait(lim.socket(), p) == 0)
    one = Limits()
    assert took <= 10 * one.player_rate + 2 * each[0].player_burst
    assert Limits.shared(1).player_rate == one.player_rate


def test_a_flood_of_frames_is_read_at_a_persons_pace(tmp_path: Path) -> None:
    """Every frame is answered (nothing dropped) but a flood beyond the burst waits, and
    another table's socket is answered at once meanwhile."""
    from spades.server.limits import SOCKET_BURST, SOCKET_RATE

    frames = 150
    with client(tmp_path) as http:
        mine, other = new_game_id(http), new_game_id(http)
        with open_table(http, mine) as ws, \
                open_table(http, other) as calm:
            Driver(ws).until_decision()
            Driver(calm).until_decision()
            start = time.monotonic()
            for _ in range(frames):
                ws.send_text('{"type":"ping"}')
            calm.send_text('{"type":"ping"}')
            assert calm.receive_json() == {"type": "pong"}
            other_answer = time.monotonic() - start
            pongs = [ws.receive_json() for _ in range(frames)]
            flood = time.monotonic() - start
    assert pongs == [{"type": "pong"}] * frames
    least = (frames - SOCKET_BURST) / SOCKET_RATE
    assert flood >= 0.8 * least, f"{frames} frames were all read in {flood:.2f} s"
    assert other_answer < 0.5 * least


# ------------------------------------------------------------------ 6. a lost or full store

def test_a_deleted_sqlite_file_refuses_every_change(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            (tmp_path / "games.db").unlink()
            for suffix in ("-wal", "-shm"):
                (tmp_path / f"games.db{suffix}").unlink(missing_ok=True)
            driver.act({"bid": 3})
            error = driver.recv()
            assert error["type"] == "error" and error["code"] == "server"
            assert "deleted" in error["message"] and "nothing changed" in error["message"]
            after = driver.recv()
            assert after["version"] == state["version"] and after["view"] == state["view"]
        response = http.post("/api/games", json={"level": "random"}, headers=HEADERS)
        assert response.status_code == 503 and "deleted" in response.json()["error"]


def full_disk(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
    """What SQLite says when a write needs a page the disk has no room for."""
    if statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
        raise sqlite3.OperationalError("database or disk is full")


def read_only(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.execute("PRAGMA query_only = 1")  # SQLite's own SQLITE_READONLY


@pytest.mark.parametrize(("event", "listener", "cause"), [
    ("before_cursor_execute", full_disk, "the disk is full"),
    ("connect", read_only, "the database is read-only"),
])
def test_a_full_or_read_only_database_refuses_with_its_cause(
        tmp_path: Path, event: str, listener: Any, cause: str) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            before = snapshot(tmp_path, game_id)
            store = http.app.state.store  # type: ignore[attr-defined]
            store.engine.dispose()
            sa.event.listen(store.engine, event, listener)
            try:
                for _ in range(3):  # a full disk stays full: each try is refused
                    driver.act({"bid": 4})
                    error = driver.recv()
                    assert error["code"] == "server" and cause in error["message"], error
                    assert driver.recv()["version"] == state["version"]
                response = http.post("/api/games", json={"level": "random"}, headers=HEADERS)
                assert response.status_code == 503 and cause in response.json()["error"]
            finally:
                sa.event.remove(store.engine, event, listener)
                store.engine.dispose()
            assert snapshot(tmp_path, game_id) == before
            driver.act({"bid": 4})  # room again: the same intent is taken
            assert driver.until_decision()["view"]["bids"][0] == 4


# ------------------------------------------------------------------ 7. JSON Python cannot read

UNREADABLE = [
    ("[" * 5000 + "]" * 5000, "nested too deep"),
    ('{"type":"act","version":0,"action":' + '{"a":' * 2000 + "1" + "}" * 2001,
     "nested too deep"),
    ('{"type":"act","version":' + "9" * 5000 + ',"action":{"bid":1}}', "digits"),
    ('{"type":"act","version":0,"action":{"bid":' + "1" * 4301 + "}}", "digits"),
]


def test_unreadable_json_on_the_socket_is_a_bad_message(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        with open_table(http, game_id) as ws:
            driver = Driver(ws)
            state = driver.until_decision()
            for text, words in UNREADABLE:
                ws.send_text(text)
                error = driver.recv()
                assert error["code"] == "bad-message" and words in error["message"], error
                assert driver.recv()["version"] == state["version"]
            ws.send_text('{"type":"ping"}')
            assert driver.recv() == {"type": "pong"}
    assert "Traceback" not in caplog.text and not any(
        r.exc_info for r in caplog.records), caplog.text


def test_unreadable_json_in_a_new_game_is_a_json_400(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        for text, words in UNREADABLE:
            response = http.post("/api/games", content=text.encode(), headers={
                **HEADERS, "Content-Type": "application/json"})
            assert response.status_code == 400, response.text
            assert response.headers["content-type"] == "application/json"
            assert words in response.json()["error"]
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}


def test_asking_for_unknown_games_leaves_nothing_behind(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        lobby = http.app.state.lobby  # type: ignore[attr-defined]

        async def ask() -> list[Any]:
            unknown = [lobby.table(f"nosuchgame{i:05d}", PLAYER) for i in range(2000)]
            found = [lobby.table(game_id, PLAYER) for _ in range(20)]
            return await asyncio.gather(*unknown, *found)

        answers = http.portal.call(ask)  # type: ignore[union-attr]
        assert answers[:2000] == [None] * 2000
        assert {id(t) for t in answers[2000:]} == {id(lobby.tables[game_id])}
        assert lobby._loading == {}


# ------------------------------------------------------------------ 8. the command line

def test_serve_with_a_db_that_is_not_a_url_exits_2_with_a_message(tmp_path: Path) -> None:
    for url in ("not a url", "postgresql+psycopg://u:secret@host:notaport/db"):
        done = subprocess.run([sys.executable, "-m", "spades.cli.main", "serve", "--db", url,
                               "--port", "1"], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2, done.stderr
        assert "Traceback" not in done.stderr
        assert "not a database URL" in done.stderr and "sqlite:///" in done.stderr
        assert "secret" not in done.stderr
    done = subprocess.run([sys.executable, "-m", "spades.cli.main", "serve", "--db",
                           db_url(tmp_path), "--per-address", "0"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "--per-address" in done.stderr
