"""Seats by number (issue 9): several people at one table (seated by invitation: a new
game seats only its maker's ids, issue 39 item 7), a person at any seat, and the seating API
of POST /api/games; every frame checked with the no-leak projection for the socket's own
seat."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from friends_kit import NAMES, seat_by_invitation
from server_testkit import HEADERS, OTHER, PLAYER, Driver, check_frames, client, open_table, stored

from spades.store import Store

pytestmark = pytest.mark.timeout(180)

PEOPLE = ("player-0000-aaaa", "player-seat-1111", "player-seat-2222", "player-seat-3333")


def create(http: Any, body: dict[str, Any], player: str = PLAYER) -> Any:
    return http.post("/api/games", json=body, headers={"X-Spades-Player": player})


def test_four_people_play_a_whole_hand_each_seeing_only_their_own(tmp_path: Path) -> None:
    with client(tmp_path) as http:  # seated by invitation (issue 39 item 7)
        game_id = seat_by_invitation(http, dict(enumerate(PEOPLE)), "partnership")
        summary = http.get(f"/api/games/{game_id}", headers=HEADERS).json()
        assert summary["players"] == list(NAMES[:4])
        sockets = [open_table(http, game_id, p) for p in PEOPLE]
        drivers = [Driver(ws.__enter__(), random.Random(seat))
                   for seat, ws in enumerate(sockets)]
        try:
            played = play_one_hand(drivers)
        finally:
            for ws in sockets:
                ws.__exit__(None, None, None)
    assert played >= 4 + 52  # four bids and every card
    game = stored(tmp_path, game_id)
    assert {a.seat for a in game.actions} == {0, 1, 2, 3}
    for seat, driver in enumerate(drivers):
        assert all(f["game"]["you"] == seat for f in driver.frames if f["type"] == "state")
        assert check_frames(driver.frames, game, seat) == played + 1


def next_state(driver: Driver) -> dict[str, Any]:
    """The next state a socket gets (a table for friends also says who is here)."""
    while (message := driver.recv())["type"] != "state":
        assert message["type"] == "table", message
    return message


def play_one_hand(drivers: list[Driver]) -> int:
    """Each socket gets one state on connect and one after every action; whoever is asked
    to act does. Returns how many actions were played."""
    states = [next_state(d) for d in drivers]
    played = 0
    while states[0]["view"]["hand_number"] == 1:
        assert len({s["version"] for s in states}) == 1, "the sockets disagree"
        turn = [seat for seat, s in enumerate(states) if s["legal"]]
        assert turn == [states[0]["view"]["turn"]], turn
        driver = drivers[turn[0]]
        driver.act(driver.choose(states[turn[0]]))
        states = [next_state(d) for d in drivers]
        assert all(s["type"] == "state" and s["events"] for s in states), states
        played += 1
        assert played < 200
    return played


def test_a_person_at_seat_2_of_a_three_player_game(tmp_path: Path) -> None:
    body = {"preset": "three-player", "level": "random",
            "seats": [{"level": "random"}, {"level": "easy"}, {"player": PLAYER}]}
    with client(tmp_path) as http:
        answer = create(http, body)
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        with open_table(http, game_id, PLAYER) as ws:
            driver = Driver(ws, random.Random(3))
            state = driver.until_decision()
            assert state["game"]["you"] == 2 and state["view"]["turn"] == 2
            while state["view"]["hand_number"] == 1:
                driver.act(driver.choose(state))
                state = driver.until_decision()
        assert http.post(f"/api/games/{game_id}/ticket", headers={"X-Spades-Player": OTHER}
                         ).status_code == 404
        assert http.get(f"/api/games/{game_id}", headers={"X-Spades-Player": OTHER}
                        ).status_code == 404
    game = stored(tmp_path, game_id)
    assert [s.kind for s in game.game.seats] == ["computer", "computer", "human"]
    assert [s.level for s in game.game.seats][:2] == ["random", "easy"]
    assert check_frames(driver.frames, game, 2) > 10
    assert {a.seat for a in game.actions if a.hand == 0} == {0, 1, 2}


def test_a_second_person_finds_the_game_in_their_list(tmp_path: Path) -> None:
    body = {"preset": "two-player", "seats": [{"level": "random"}, {"player": PLAYER}]}
    with client(tmp_path) as http:
        first = create(http, body).json()["id"]
        second = seat_by_invitation(http, {0: PLAYER, 1: OTHER})
        mine = [g["id"] for g in http.get("/api/games", headers=HEADERS).json()["games"]]
        theirs = [g["id"] for g in http.get(
            "/api/games", headers={"X-Spades-Player": OTHER}).json()["games"]]
    assert set(mine) == {first, second}
    assert theirs == [second]


@pytest.mark.parametrize("seats,words", [
    ([{"player": PLAYER}], "seat 4 players"),
    ("everyone", "seat 4 players"),
    ([{"player": PLAYER}, {"player": PLAYER}, {"level": "easy"}, {"level": "easy"}],
     "only one seat"),
    ([{"player": OTHER}, {"level": "easy"}, {"level": "easy"}, {"level": "easy"}],
     "seats only you"),
    ([{"player": PLAYER}, {"player": OTHER}, {"level": "easy"}, {"level": "easy"}],
     "seats only you"),
    ([{"player": PLAYER}, {"player": "bad id"}, {"level": "easy"}, {"level": "easy"}],
     "seat 1: a player id"),
    ([{"player": PLAYER}, {"level": "genius"}, {"level": "easy"}, {"level": "easy"}],
     "level must be"),
    ([{"player": PLAYER}, {"level": "easy", "player": OTHER}, {}, {}], "seat 1"),
])
def test_a_bad_seating_is_refused_and_stores_nothing(tmp_path: Path, seats: Any,
                                                     words: str) -> None:
    with client(tmp_path) as http:
        answer = create(http, {"preset": "house", "seats": seats})
        listed = http.get("/api/games", headers=HEADERS).json()["games"]
    assert answer.status_code == 400
    assert words in answer.json()["error"]
    assert listed == []
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        assert store.list_games(OTHER) == []
    finally:
        store.close()
