"""Tables for friends at play (issue 39): spectators see only what the table shows everyone
(every frame checked), the host closes watching, seats held through a lost connection (the
grace period, the computer player playing for the person, marked, and the seat back), and
an account deleted from a shared game."""

from __future__ import annotations

import dataclasses
import datetime as dt
import random
import time
from pathlib import Path
from typing import Any

import pytest
from friends_kit import as_player, join, make_table, play_until_played_for, until, watching
from server_testkit import (
    CODE_OF,
    Driver,
    assert_hides,
    check_frames,
    client,
    db_url,
    open_table,
    stored,
    true_states,
)

from spades.engine import parse_action
from spades.store import Store, StoredGame

pytestmark = pytest.mark.timeout(180)

ANN, BOB, CAT, DAN, EVE = ("player-ann-00001", "player-bob-00002", "player-cat-00003",
                           "player-dan-00004", "player-eve-00005")


def all_hidden(state: Any) -> set[int]:
    """Every card a spectator may not see: every seat's, the stock, the kitty."""
    hand = state.hand
    if state.over:
        return set()
    secret: set[int] = set()
    for held in hand.hands:
        secret |= {c for c in range(len(CODE_OF)) if held >> c & 1}
    if state.rules.draw:
        secret |= set(hand.deck[hand.stock:])
    if hand.kitty is not None:
        secret.add(hand.kitty)
    return secret


def check_public(frames: list[dict[str, Any]], game: StoredGame) -> int:
    """No frame shows a spectator a card still held (or undrawn); how many states."""
    states = true_states(game)
    checked = 0
    for frame in frames:
        if frame["type"] != "state":  # table, thinking, error: no card at all
            assert_hides(frame, set(range(len(CODE_OF))), frame["type"])
            continue
        assert frame["game"]["you"] is None and frame["legal"] is None
        assert frame["view"]["hand"] is None and frame["view"]["passes"] == []
        state = states[frame["step"]]
        body = {k: v for k, v in frame.items() if k not in ("events", "shuffle")}
        assert_hides(body, all_hidden(state), f"state at step {frame['step']}",
                     state.rules.kitty)
        for event in frame["events"]:
            before = states[event["step"] - 1]
            secret = all_hidden(before)
            _, action = parse_action(game.actions[event["step"] - 1].action, before.rules)
            secret.discard(getattr(action, "card", -1))
            if event["kind"] == "draw":
                secret.discard(before.hand.deck[before.hand.stock + (1 if event["keep"] else 0)])
            assert_hides(event, secret, f"event {event['kind']}", state.rules.kitty)
        checked += 1
    return checked


def play_hand(drivers: dict[int, Driver], spectator: Any, frames: list[Any]) -> None:
    """The people act whenever asked until the first hand is over; the spectator's frames
    are read as they come."""
    states = {seat: until(d.ws, "state", frames=d.frames) for seat, d in drivers.items()}
    until(spectator, "state", frames=frames)
    for _ in range(400):
        turn = [s for s, st in states.items() if st["legal"]]
        if turn:
            driver = drivers[turn[0]]
            driver.state = states[turn[0]]
            driver.act(driver.choose(states[turn[0]]))
        spectated = until(spectator, "state", frames=frames)
        version = spectated["version"]
        states = {seat: until(d.ws, "state", frames=d.frames,
                              where=lambda m, v=version: m["version"] >= v)
                  for seat, d in drivers.items()}
        if spectated["view"]["hand_number"] > 1:
            return
    raise AssertionError("the hand did not end")


def test_four_people_and_a_spectator_each_see_no_card_they_may_not(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="partnership", watching=True)
        table_id = made["id"]
        assert made["watch_link"] == f"/w/{made['watch_code']}"
        for seat, (player, name) in enumerate(((BOB, "Bob"), (CAT, "Cat"), (DAN, "Dan")), 1):
            assert join(http, made["code"], player, seat, name).status_code == 200
        http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        frames: list[Any] = []
        with open_table(http, table_id, ANN) as ann, open_table(http, table_id, BOB) as bob, \
                open_table(http, table_id, CAT) as cat, open_table(http, table_id, DAN) as dan, \
                watching(http, made["watch_code"], EVE) as eve:
            drivers = {seat: Driver(ws, random.Random(seat))
                       for seat, ws in enumerate((ann, bob, cat, dan))}
            play_hand(drivers, eve, frames)
            eve.send_json({"type": "act", "version": 0, "action": {"bid": 3}})
            refused = until(eve, "error", frames=frames)
            assert refused["code"] == "watching"
        for path in (f"/api/games/{table_id}", f"/api/games/{table_id}/record"):
            assert http.get(path, headers=as_player(EVE)).status_code == 404
    game = stored(tmp_path, table_id)
    assert check_public(frames, game) > 50
    for seat, driver in drivers.items():
        assert check_frames([f for f in driver.frames if f["type"] == "state"], game,
                            seat) > 10
        assert all(f["game"]["you"] == seat for f in driver.frames if f["type"] == "state")


def test_the_host_closes_watching_and_the_spectators_go_at_once(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, watching=True)
        table_id = made["id"]
        with watching(http, made["watch_code"], EVE) as eve:
            assert until(eve, "table")["table"]["you"] is None
            closed = http.delete(f"/api/tables/{table_id}/watch", headers=as_player(ANN))
            assert closed.status_code == 200 and not closed.json()["table"]["watch"]
            assert until(eve, "error")["code"] == "not-found"
        again = http.post(f"/api/watch/{made['watch_code']}/ticket", headers=as_player(EVE))
        assert again.status_code == 404


def wait_for(predicate: Any, timeout: float = 20.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "it did not happen"
        time.sleep(0.02)


def test_a_lost_connection_holds_the_seat_then_the_computer_plays_for_them(
        tmp_path: Path) -> None:
    with client(tmp_path, grace=0.3) as http:
        made = make_table(http, ANN, preset="partnership")
        table_id = made["id"]
        join(http, made["code"], BOB, 1, "Bob")
        http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        with open_table(http, table_id, ANN) as ann:
            driver = Driver(ann, random.Random(4))
            with open_table(http, table_id, BOB) as bob:
                until(bob, "state")
            away = until(ann, "table", where=lambda m: m["table"]["seats"][1]["presence"]
                         == "away")["table"]["seats"][1]
            assert away["grace"] is not None and away["grace"] <= 1
            until(ann, "table", where=lambda m: m["table"]["seats"][1]["stand_in"])
            driver.send({"type": "sync"})  # the states read past meanwhile: the one now
            played = play_until_played_for(driver, "Bob")
            assert played and played[0]["text"].startswith("Played for Bob: ")
            with open_table(http, table_id, BOB) as bob:
                told = until(bob, "while-away")
                assert told["events"] and all(e["played_for"] == "Bob" for e in told["events"])
                back = until(ann, "table", where=lambda m: m["table"]["seats"][1]["presence"]
                             == "here")
                assert not back["table"]["seats"][1]["stand_in"]
    store = Store(db_url(tmp_path))
    try:
        marks = store.friends.stand_ins(table_id)  # kept: the marks survive a restart
    finally:
        store.close()
    assert marks and set(marks.values()) == {1}
    steps = {e["step"] for e in played}
    assert steps <= set(marks)


def test_deleting_an_account_keeps_the_shared_game_for_the_others(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN)
        signup = http.post("/api/account/signup", json={"email": "bob@example.org",
                                                        "password": "a long pass phrase"})
        assert signup.status_code == 201, signup.text
        bob = signup.json()["player"]
        csrf = {"X-CSRF-Token": signup.json()["csrf"]}
        joined = http.post(f"/api/invites/{made['code']}", json={"seat": 2, "name": "Bob"},
                           headers=csrf)
        assert joined.status_code == 200, joined.text
        alone = http.post("/api/games", json={"level": "random"}, headers=csrf).json()["id"]
        jar = dict(http.cookies)
        http.cookies.clear()  # Ann is another browser: her header alone
        started = http.post(f"/api/tables/{made['id']}/start", headers=as_player(ANN))
        assert started.status_code == 200, started.text
        http.cookies.update(jar)
        deleted = http.post("/api/account/delete", json={"password": "a long pass phrase"},
                            headers=csrf)
        assert deleted.status_code == 200 and deleted.json()["games"] == 1
        summary = http.get(f"/api/games/{made['id']}", headers=as_player(ANN)).json()
        assert summary["players"][2] == "a former player"
        with open_table(http, made["id"], ANN) as ws:
            driver = Driver(ws, random.Random(5))
            state = driver.until_decision()
            driver.act(driver.choose(state))
            assert until(ws, "state")["version"] > state["version"]
    game = stored(tmp_path, made["id"])
    assert game.game.seats[2].kind == "computer" and game.game.seats[2].player_id is None
    assert bob and alone


def test_a_grace_period_runs_on_after_a_restart(tmp_path: Path) -> None:
    with client(tmp_path, grace=60) as http:
        made = make_table(http, ANN, preset="partnership")
        table_id = made["id"]
        join(http, made["code"], BOB, 1, "Bob")
        http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        with open_table(http, table_id, ANN) as ann:
            with open_table(http, table_id, BOB) as bob:
                until(bob, "state")
            until(ann, "table", where=lambda m: m["table"]["seats"][1]["presence"] == "away")
    store = Store(db_url(tmp_path))
    try:  # the server was down while the grace period ran out
        table = store.friends.get(table_id)
        assert table is not None and table.seats[1].away_until is not None
        past = table.seats[1].away_until - dt.timedelta(seconds=61)
        bob_seat = dataclasses.replace(table.seats[1], away_until=past)
        store.friends.save(dataclasses.replace(table, seats=(table.seats[0], bob_seat)))
    finally:
        store.close()
    with client(tmp_path, grace=60) as http, open_table(http, table_id, ANN) as ann:
        gone = until(ann, "table", where=lambda m: m["table"]["seats"][1]["stand_in"])
        assert gone["table"]["seats"][1]["presence"] == "gone"
        driver = Driver(ann, random.Random(6))
        driver.send({"type": "sync"})
        for _ in range(300):
            message = driver.recv()
            if message["type"] != "state":
                continue
            if any(e.get("played_for") == "Bob" for e in message["events"]):
                break
            if message["legal"]:
                driver.act(driver.choose(message))
        else:
            raise AssertionError("nothing was played for Bob")


def test_a_table_whose_game_ends_is_over(tmp_path: Path) -> None:
    with client(tmp_path, grace=0.05) as http:
        made = make_table(http, ANN, house_rules={"target_score": 250, "mercy": True})
        table_id = made["id"]
        http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        with open_table(http, table_id, ANN) as ann:
            until(ann, "state")  # then Ann goes: the computer player plays her turns too
        store = http.app.state.store

        def over() -> bool:
            table = store.friends.get(table_id)
            return table is not None and table.status == "over"

        wait_for(over, timeout=120)
        shown = http.get(f"/api/tables/{table_id}", headers=as_player(ANN)).json()
        assert shown["table"]["status"] == "over"
        assert http.get(f"/api/games/{table_id}",
                        headers=as_player(ANN)).json()["status"] == "over"
        assert store.friends.live() == []  # a restart no longer picks it up


def test_an_anonymous_person_deletes_their_data_and_the_shared_game_goes_on(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="partnership")
        assert join(http, made["code"], BOB, 1, "Bob").status_code == 200
        started = http.post(f"/api/tables/{made['id']}/start", headers=as_player(BOB))
        assert started.status_code == 403  # only the host starts
        http.post(f"/api/tables/{made['id']}/start", headers=as_player(ANN))
        alone = http.post("/api/games", json={"level": "random"},
                          headers=as_player(BOB)).json()["id"]
        with open_table(http, made["id"], BOB) as mine:
            until(mine, "state")
            answer = http.delete("/api/me", headers=as_player(BOB))
            assert answer.status_code == 200, answer.text
            assert answer.json() == {"deleted": True, "games": 1, "player": None}
            gone = until(mine, "error")  # his own socket at the shared game is told, closed
            assert gone["code"] == "not-found"
        assert http.get(f"/api/games/{alone}", headers=as_player(BOB)).status_code == 404
        assert http.get("/api/games", headers=as_player(BOB)).json()["games"] == []
        summary = http.get(f"/api/games/{made['id']}", headers=as_player(ANN)).json()
        assert summary["players"][1] == "a former player"
        with open_table(http, made["id"], ANN) as ws:  # the game goes on for Ann
            driver = Driver(ws, random.Random(5))
            state = driver.until_decision()
            driver.act(driver.choose(state))
            assert until(ws, "state")["version"] > state["version"]
        table = http.get(f"/api/tables/{made['id']}", headers=as_player(ANN)).json()["table"]
        assert table["seats"][1]["kind"] == "computer"
        # a signed-in browser deletes its account instead: nothing is deleted
        signup = http.post("/api/account/signup", json={"email": "cat@example.org",
                                                        "password": "a long pass phrase"})
        csrf = {"X-CSRF-Token": signup.json()["csrf"]}
        kept = http.post("/api/games", json={"level": "random"}, headers=csrf).json()["id"]
        refused = http.delete("/api/me", headers=csrf)
        assert refused.status_code == 409 and "delete the account" in refused.json()["error"]
        assert http.get(f"/api/games/{kept}", headers=csrf).status_code == 200
    game = stored(tmp_path, made["id"])
    assert game.game.seats[1].kind == "computer" and game.game.seats[1].player_id is None
