"""Tables for friends, more (issue 39): a socket that comes back gets what it missed, in
order and once; two tabs of one person both stay right; phrases and their limit; the turn
timer (a fast sleep); an invited person takes a computer player's seat mid-game; a waiting
table nobody opened for 24 hours is gone."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
import random
from pathlib import Path
from typing import Any

import pytest
from friends_kit import as_player, join, make_table, played_game, until, waiting_room
from server_testkit import Driver, check_frames, client, open_table, ticket

from spades.server.history import missed_events

pytestmark = pytest.mark.timeout(180)

ANN, BOB, CAT = "player-ann-00001", "player-bob-00002", "player-cat-00003"


def start_two(http: Any, **options: Any) -> str:
    made = make_table(http, ANN, preset="partnership", **options)
    assert join(http, made["code"], BOB, 1, "Bob").status_code == 200
    assert http.post(f"/api/tables/{made['id']}/start",
                     headers=as_player(ANN)).status_code == 200
    return str(made["id"])


def state_of(ws: Any, frames: list[Any] | None = None) -> dict[str, Any]:
    return until(ws, "state", frames=frames)


def test_a_socket_that_comes_back_gets_what_it_missed_once_in_order(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = http.post("/api/games", json={"level": "random", "preset": "house"},
                            headers=as_player(ANN)).json()["id"]
        with open_table(http, game_id, ANN) as ws:
            driver = Driver(ws, random.Random(3))
            seen: list[Any] = []
            state = driver.until_decision()
            for _ in range(6):
                driver.act(driver.choose(state))
                state = driver.until_decision()
            for frame in driver.frames:
                if frame["type"] == "state":
                    seen += frame["events"]
        left_at = seen[len(seen) // 2]["step"]
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": ticket(http, game_id, ANN),
                          "since": left_at})
            back = state_of(ws)
        wanted = [e for e in seen if e["step"] > left_at]
        assert back["events"] == wanted and wanted
        assert back["step"] == state["step"] and "missed" not in back
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": ticket(http, game_id, ANN),
                          "since": state["step"]})
            assert state_of(ws)["events"] == []


def at_least(ws: Any, version: int) -> dict[str, Any]:
    return until(ws, "state", where=lambda m: m["version"] >= version)


def test_two_tabs_of_one_person_both_stay_right(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = start_two(http)
        with open_table(http, game_id, BOB) as one, open_table(http, game_id, BOB) as two, \
                open_table(http, game_id, ANN) as ann:
            rng = random.Random(1)
            states = [state_of(one), state_of(two), state_of(ann)]
            for _ in range(20):
                version = max(s["version"] for s in states)
                states = [s if s["version"] == version else at_least(ws, version)
                          for s, ws in zip(states, (one, two, ann), strict=True)]
                a, b, c = states
                assert a["view"] == b["view"] and a["legal"] == b["legal"], "tabs disagree"
                if c["legal"]:
                    ann.send_json({"type": "act", "version": version,
                                   "action": Driver(ann, rng).choose(c)})
                    states[2] = at_least(ann, version + 1)
                    continue
                if not a["legal"]:
                    states = [at_least(ws, version + 1) for ws in (one, two, ann)]
                    continue
                action = Driver(one, rng).choose(a)
                one.send_json({"type": "act", "version": version, "action": action})
                first = at_least(one, version + 1)
                after = [first, until(two, "state",
                                      where=lambda m, v=first["version"]: m["version"] == v)]
                assert after[0]["view"] == after[1]["view"]  # both tabs see the move
                two.send_json({"type": "act", "version": version, "action": action})
                stale = until(two, "error")
                assert stale["code"] == "stale"  # the other tab's old decision is refused
                assert stale["version"] >= after[1]["version"]  # the table now follows
                assert at_least(two, after[1]["version"])["type"] == "state"
                return
            raise AssertionError("Bob was never asked to act")


def test_phrases_are_heard_by_everyone_one_a_second(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = start_two(http)
        with open_table(http, game_id, ANN) as ann, open_table(http, game_id, BOB) as bob:
            state_of(bob)  # Bob's socket is at the table
            for _ in range(3):
                ann.send_json({"type": "phrase", "phrase": "nice-nil"})
            heard = until(bob, "phrase")
            assert heard == {"type": "phrase", "seat": 0, "name": "Ann",
                             "phrase": "nice-nil", "text": "Nice nil!"}
            ann.send_json({"type": "phrase", "phrase": "nice-nil"})
            refused = until(ann, "error")
            assert refused["code"] == "too-fast" and refused["intent"] == "phrase"
            bob.send_json({"type": "phrase", "phrase": "you are bad"})
            bad = until(bob, "error")
            assert bad["code"] == "bad-message" and bad["intent"] == "phrase"
        names = [p["name"] for p in http.get("/api/presets").json()["phrases"]]
        assert "good-game" in names and "thumbs-up" in names


def test_the_turn_timer_runs_out_and_the_computer_player_moves_once(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        slept: list[float] = []

        async def fast(seconds: float) -> None:  # the fake clock: a timer runs at once
            slept.append(seconds)
            await asyncio.sleep(0.05)

        http.app.state.presence.sleep = fast
        game_id = start_two(http, timer=20)
        with open_table(http, game_id, ANN) as ann, open_table(http, game_id, BOB) as bob:
            timer = until(ann, "turn-timer", where=lambda m: m["seat"] is not None)
            assert timer["of"] == 20 and timer["left"] == 20
            played = until(ann, "state", where=lambda m: any(
                e.get("played_for") for e in m["events"]))
            assert 20 in slept
            seat = next(e["seat"] for e in played["events"] if e.get("played_for"))
            assert seat in (0, 1)
            until(bob, "state")
        http.app.state.presence.sleep = asyncio.sleep  # a timer that runs while we look
        with open_table(http, game_id, ANN) as ann:
            state = until(ann, "state")
            if state["view"]["turn"] in (0, 1) and not state["view"]["over"]:
                running = until(ann, "turn-timer")  # a socket that opens hears it at once
                assert running["seat"] == state["view"]["turn"] and running["of"] == 20


def test_an_invited_person_takes_a_computer_players_seat(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="partnership", take_seats=True)
        http.post(f"/api/tables/{made['id']}/start", headers=as_player(ANN))
        person = join(http, made["code"], CAT, 0, "Cat")
        assert person.status_code == 409  # Ann's seat is a person's
        took = join(http, made["code"], CAT, 3, "Cat")
        assert took.status_code == 200 and took.json()["seat"] == 3
        with open_table(http, made["id"], CAT) as ws:
            state = state_of(ws)
            assert state["game"]["you"] == 3 and state["game"]["players"][3] == "Cat"
        closed = http.patch(f"/api/tables/{made['id']}", json={"take_seats": False},
                            headers=as_player(ANN))
        assert closed.status_code == 200
        assert join(http, made["code"], BOB, 1, "Bob").status_code == 404


def test_a_waiting_table_nobody_opened_for_a_day_is_gone(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    from spades.server import tables

    with client(tmp_path) as http:
        made = make_table(http, ANN)
        with waiting_room(http, made["id"], ANN) as ws:
            assert until(ws, "table")["table"]["status"] == "waiting"
        later = dt.datetime.now(dt.UTC) + dt.timedelta(hours=24, seconds=1)
        monkeypatch.setattr(tables, "now", lambda: later)
        assert http.get(f"/api/tables/{made['id']}", headers=as_player(ANN)).status_code == 404
        assert http.get(f"/api/invites/{made['code']}",
                        headers=as_player(BOB)).status_code == 404


def test_a_turn_timer_runs_on_after_a_restart(tmp_path: Path) -> None:
    from server_testkit import db_url

    from spades.store import Store

    with client(tmp_path) as http:
        game_id = start_two(http, timer=60)
        with open_table(http, game_id, ANN) as ann:
            running = until(ann, "turn-timer", where=lambda m: m["seat"] is not None)
            for _ in range(100):  # the deadline is written as the timer starts
                table = http.app.state.store.friends.get(game_id)
                if table.timer_until is not None:
                    break
                asyncio.run(asyncio.sleep(0.05))
    store = Store(db_url(tmp_path))
    try:  # the server was down for longer than the timer
        table = store.friends.get(game_id)
        assert table is not None and table.timer_seat == running["seat"]
        assert table.timer_until is not None
        store.friends.save(dataclasses.replace(
            table, timer_until=table.timer_until - dt.timedelta(seconds=61)))
    finally:
        store.close()
    with client(tmp_path) as http, open_table(http, game_id, ANN) as ann:
        # the timer's seat is played for (another person away past their grace may be
        # played for first: wait for this seat's turn)
        played = until(ann, "state", where=lambda m: any(
            e.get("played_for") and e["seat"] == running["seat"] for e in m["events"]))
        assert any(e["seat"] == running["seat"] and e.get("played_for")
                   for e in played["events"])


def test_after_the_start_a_computer_players_seat_is_called_computer(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="partnership", take_seats=True)
        http.post(f"/api/tables/{made['id']}/start", headers=as_player(ANN))
        with open_table(http, made["id"], ANN) as ws:
            players = state_of(ws)["game"]["players"]
            told = until(ws, "table")["table"]
        shown = http.get(f"/api/tables/{made['id']}", headers=as_player(ANN)).json()["table"]
        preview = http.get(f"/api/invites/{made['code']}",
                           headers=as_player(BOB)).json()["table"]
        for table in (told, shown, preview):
            assert [s["kind"] for s in table["seats"]] == [
                "person", "computer", "computer", "computer"], table["seats"]
            assert [s["name"] for s in table["seats"]] == players


def test_every_socket_joining_as_the_game_starts_hears_the_turn_timer(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = start_two(http, timer=60)
        served = http.app.state.lobby.tables[game_id]
        quick = served.hub.suggest

        async def slow(view: Any, table: str) -> Any:  # a first state made slowly
            await asyncio.sleep(0.3)
            return await quick(view, table)

        served.hub.suggest = slow
        presence = http.app.state.presence
        with open_table(http, game_id, ANN) as ann, open_table(http, game_id, BOB) as bob:
            frames: dict[Any, list[Any]] = {ann: [], bob: []}
            for ws in (ann, bob):
                until(ws, "state", frames=frames[ws])
            for _ in range(200):  # the timer runs and every socket has been welcomed
                running = presence.timer_message(game_id)
                if running["seat"] is not None and len(served.hub.connections) == 2:
                    break
                asyncio.run(asyncio.sleep(0.05))
            seat = running["seat"]
            for ws in (ann, bob):
                ws.send_json({"type": "ping"})
                until(ws, "pong", frames=frames[ws])
                asyncio.run(asyncio.sleep(0.2))  # the greeting's table is read meanwhile
                ws.send_json({"type": "ping"})
                until(ws, "pong", frames=frames[ws])
                timers = [f for f in frames[ws] if f["type"] == "turn-timer"]
                assert timers and timers[-1]["seat"] == seat and timers[-1]["of"] == 60, (
                    [f["type"] for f in frames[ws]])
                tables = [f for f in frames[ws] if f["type"] == "table"]
                assert tables and tables[-1]["table"]["timer"] == 60


def test_anyone_seated_sees_a_shareable_link_and_no_spectator_does(tmp_path: Path) -> None:
    from friends_kit import watching

    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="partnership", take_seats=True, share_link=True,
                          watching=True)
        code, table_id = made["code"], made["id"]
        shared = {"code": code, "invite": f"/t/{code}"}
        assert made["table"]["shared"] == shared and made["table"]["share_link"] is True
        assert join(http, code, BOB, 1, "Bob").json()["table"]["shared"] == shared
        http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        bob = http.get(f"/api/tables/{table_id}", headers=as_player(BOB)).json()["table"]
        assert bob["shared"] == shared  # once started, anyone seated may pass it on
        preview = http.get(f"/api/invites/{code}", headers=as_player(CAT)).json()["table"]
        assert preview["shared"] is None and code not in str(preview)
        with open_table(http, table_id, BOB) as ws:
            state_of(ws)
            assert until(ws, "table")["table"]["shared"] == shared
        with watching(http, made["watch_code"], CAT) as ws:
            frames: list[Any] = []
            until(ws, "table", frames=frames)
            assert [f["type"] for f in frames] == ["state", "table"]
            assert all(f["table"]["shared"] is None for f in frames if f["type"] == "table")
            assert code not in str(frames)
        # the host makes it private again: the code is forgotten
        http.patch(f"/api/tables/{table_id}", json={"share_link": False},
                   headers=as_player(ANN))
        bob = http.get(f"/api/tables/{table_id}", headers=as_player(BOB)).json()["table"]
        assert bob["shared"] is None and http.app.state.store.friends.get(table_id).shared is None
        plain = make_table(http, CAT, take_seats=True)
        assert plain["table"]["shared"] is None
        assert http.app.state.store.friends.get(plain["id"]).shared is None


def test_after_a_restart_a_socket_that_comes_back_gets_what_it_missed(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id, driver = played_game(http, ANN)
        state = driver.state
        seen = [e for f in driver.frames if f["type"] == "state" for e in f["events"]]
    left_at = seen[len(seen) // 3]["step"]
    wanted = [e for e in seen if e["step"] > left_at]
    with client(tmp_path) as http:  # a restart: nothing of the game is in memory
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "ticket": ticket(http, game_id, ANN),
                          "since": left_at})
            back = state_of(ws)
        assert wanted and back["events"] == wanted and "missed" not in back
        assert back["step"] == state["step"]
        game = http.app.state.store.load_game(game_id)
        assert check_frames([back], game, 0) == 1  # nothing the seat may not see
        # a step the computer player made for an absent person is marked so, as it was told
        actor = wanted[0]["seat"]
        names = tuple(state["game"]["players"])
        marked = missed_events(game, {left_at + 1: actor}, names, 0, left_at, state["step"])
        assert marked is not None and [e.get("played_for") for e in marked
                                       if e["step"] == left_at + 1][:1] == [names[actor]]
        with http.websocket_connect(f"/ws/games/{game_id}") as ws:  # none missed: none
            ws.send_json({"type": "hello", "ticket": ticket(http, game_id, ANN),
                          "since": state["step"]})
            assert state_of(ws)["events"] == []
