"""Helpers for the tests of tables for friends: people seated by invitation (a table made
by a host, joined by its code, started), and their sockets."""

from __future__ import annotations

import contextlib
import random
from collections.abc import Iterator, Mapping
from typing import Any

from server_testkit import Driver, open_table

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


def as_player(player: str) -> dict[str, str]:
    return {"X-Spades-Player": player}


def make_table(http: Any, host: str, **body: Any) -> dict[str, Any]:
    """A waiting table hosted by ``host`` (named Ann unless told); the answer's body."""
    answer = http.post("/api/tables", json={"name": "Ann", "level": "random", **body},
                       headers=as_player(host))
    assert answer.status_code == 201, answer.text
    made: dict[str, Any] = answer.json()
    return made


def join(http: Any, code: str, player: str, seat: int, name: str) -> Any:
    return http.post(f"/api/invites/{code}", json={"seat": seat, "name": name},
                     headers=as_player(player))


def seat_by_invitation(http: Any, people: Mapping[int, str], preset: str = "house",
                       level: str = "random", **options: Any) -> str:
    """A game with ``people`` (seat -> player id) seated by invitation: the first is the
    host, the others join with the code; computer players of ``level`` elsewhere. Its id."""
    seats = sorted(people)
    host = people[seats[0]]
    made = make_table(http, host, preset=preset, level=level, seat=seats[0],
                      name=NAMES[seats[0]], **options)
    for seat in seats[1:]:
        answer = join(http, made["code"], people[seat], seat, NAMES[seat])
        assert answer.status_code == 200, answer.text
    started = http.post(f"/api/tables/{made['id']}/start", headers=as_player(host))
    assert started.status_code == 200, started.text
    game_id: str = started.json()["game"]
    return game_id


@contextlib.contextmanager
def waiting_room(http: Any, table_id: str, player: str) -> Iterator[Any]:
    """A waiting table's socket for ``player`` (the game's ticket and socket)."""
    answer = http.post(f"/api/games/{table_id}/ticket", headers=as_player(player))
    assert answer.status_code == 200, answer.text
    with http.websocket_connect(f"/ws/games/{table_id}") as ws:
        ws.send_json({"type": "hello", "ticket": answer.json()["ticket"]})
        yield ws


@contextlib.contextmanager
def watching(http: Any, watch_code: str, player: str) -> Iterator[Any]:
    """A spectator's socket, by a watch code."""
    answer = http.post(f"/api/watch/{watch_code}/ticket", headers=as_player(player))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    with http.websocket_connect(body["websocket"]) as ws:
        ws.send_json({"type": "hello", "ticket": body["ticket"]})
        yield ws


def until(ws: Any, kind: str, limit: int = 500, frames: list[Any] | None = None,
          where: Any = None) -> dict[str, Any]:
    """Read frames until one of ``kind`` (and ``where`` of it holds); every frame read is
    kept in ``frames``."""
    for _ in range(limit):
        message: dict[str, Any] = ws.receive_json()
        if frames is not None:
            frames.append(message)
        if message["type"] == kind and (where is None or where(message)):
            return message
    raise AssertionError(f"no {kind} came")


def play_until_played_for(driver: Any, name: str, limit: int = 300) -> list[dict[str, Any]]:
    """Play the driver's seat until a state tells what the computer player made for
    ``name`` (away); those events."""
    for _ in range(limit):
        message = driver.recv()
        if message["type"] != "state":
            continue
        played = [e for e in message["events"] if e.get("played_for") == name]
        if played:
            return played
        if message["legal"] and message["step"] != driver.acted:
            driver.act(driver.choose(message))
    return []


def played_game(http: Any, player: str, decisions: int = 8,
                seed: int = 4) -> tuple[str, Any]:
    """A house game of ``player`` with random computer players, played for ``decisions``
    of the person's decisions; its id and the person's ``Driver`` (its frames, its state
    asking for the next decision)."""
    game_id = str(http.post("/api/games", json={"level": "random", "preset": "house"},
                            headers=as_player(player)).json()["id"])
    with open_table(http, game_id, player) as ws:
        driver = Driver(ws, random.Random(seed))
        driver.state = driver.until_decision()
        for _ in range(decisions):
            driver.act(driver.choose(driver.state))
            driver.state = driver.until_decision()
    return game_id, driver
