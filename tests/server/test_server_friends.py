"""Tables for friends (issue 39): codes, names, joining by invitation, the host's powers, the
waiting room, the start, one answer for everything that does not open a table, new games
that seat only their maker, and an account deleted from a shared game."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest
from friends_kit import as_player, join, make_table, seat_by_invitation, until, waiting_room
from server_testkit import client, open_table

from spades.server.codes import (
    ALPHABET,
    CODE_LENGTH,
    clean_name,
    new_code,
    read_code,
    unique_name,
)
from spades.server.guesses import WrongCodes
from spades.server.presets import ChoiceError

pytestmark = pytest.mark.timeout(180)

ANN, BOB, CAT, DAN = ("player-ann-00001", "player-bob-00002", "player-cat-00003",
                      "player-dan-00004")


# ------------------------------------------------------------------ codes and names

def test_codes_can_be_read_aloud_and_are_not_guessable() -> None:
    assert len(ALPHABET) == len(set(ALPHABET)) == 31
    assert not set("0O1IL") & set(ALPHABET)
    assert CODE_LENGTH * math.log2(len(ALPHABET)) >= 40
    codes = {new_code() for _ in range(200)}
    assert len(codes) == 200 and all(len(c) == 9 and set(c) <= set(ALPHABET) for c in codes)
    code = next(iter(codes))
    spaced = f"{code[:3].lower()} {code[3:6]}-{code[6:]}"
    assert read_code(spaced) == code
    assert read_code(code[:8]) is None and read_code(code[:8] + "0") is None
    assert read_code(None) is None and read_code("x" * 100) is None


@pytest.mark.parametrize("given,name", [
    ("  Ann  ", "Ann"),
    ("An\u202en", "Ann"),  # a bidi override is removed
    ("A\u2066n\u2069n", "Ann"),
    ("Ann\x00\x07", "Ann"),  # control characters too
    ("Ann   Lee", "Ann Lee"),
    ("x" * 24, "x" * 24),
])
def test_display_names_are_cleaned(given: str, name: str) -> None:
    assert clean_name(given) == name


@pytest.mark.parametrize("given", ["", "   ", "\u202e", "x" * 25, None, 12])
def test_a_bad_display_name_is_refused(given: Any) -> None:
    with pytest.raises(ChoiceError, match="1 to 24"):
        clean_name(given)


def test_a_name_taken_gets_a_number() -> None:
    assert unique_name("Ann", ["Bob"]) == "Ann"
    assert unique_name("ann", ["Ann"]) == "ann 2"
    assert unique_name("Ann", ["Ann", "Ann 2"]) == "Ann 3"
    assert unique_name("Bramble", []) == "Bramble 2"  # a computer player's name
    assert len(unique_name("x" * 24, ["x" * 24])) <= 24


def test_wrong_codes_are_counted_per_address_for_a_minute() -> None:
    async def run() -> None:
        wrong = WrongCodes(limit=3)
        for _ in range(3):
            assert await wrong.wait("1.2.3.4") == 0
            await wrong.wrong("1.2.3.4")
        assert 59 <= await wrong.wait("1.2.3.4") <= 60 and await wrong.wait("5.6.7.8") == 0

    asyncio.run(run())


def test_wrong_codes_are_forgotten_as_their_window_moves_on() -> None:
    async def run() -> None:
        wrong = WrongCodes(limit=3, per="second")  # a short window: the same moving window
        for _ in range(3):
            await wrong.wrong("1.2.3.4")
        assert await wrong.wait("1.2.3.4") == 1 and await wrong.wait("5.6.7.8") == 0
        await asyncio.sleep(1.1)
        assert await wrong.wait("1.2.3.4") == 0

    asyncio.run(run())


# ------------------------------------------------------------------ joining and starting

def test_a_friend_joins_by_the_code_and_the_host_starts(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN, preset="house", hints=False)
        table_id, code = made["id"], made["code"]
        assert made["invite"] == f"/t/{code}" and made["table"]["you"] == 0
        assert made["table"]["host"] == 0 and made["table"]["status"] == "waiting"
        preview = http.get(f"/api/invites/{code.lower()}", headers=as_player(BOB))
        assert preview.status_code == 200 and preview.json()["table"]["you"] is None
        joined = join(http, code, BOB, 2, "  Bob ")
        assert joined.status_code == 200, joined.text
        assert joined.json()["seat"] == 2 and joined.json()["name"] == "Bob"
        again = join(http, code, BOB, 1, "Bob")  # asking again changes nothing
        assert again.json()["seat"] == 2
        taken = join(http, code, CAT, 2, "Cat")
        assert taken.status_code == 409 and "taken" in taken.json()["error"]
        with waiting_room(http, table_id, BOB) as ws:
            table = until(ws, "table")["table"]
            assert [s["kind"] for s in table["seats"]] == ["person", "empty", "person", "empty"]
            assert table["you"] == 2 and table["seats"][2]["presence"] == "here"
            refused = http.post(f"/api/tables/{table_id}/start", headers=as_player(BOB))
            assert refused.status_code == 403  # only the host starts
            started = http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
            assert started.status_code == 200 and started.json()["game"] == table_id
            assert until(ws, "started") == {"type": "started", "game": table_id}
        summary = http.get(f"/api/games/{table_id}", headers=as_player(BOB)).json()
        assert summary["players"] == ["Ann", "Bramble", "Bob", "Clover"]
        for player in (ANN, BOB):
            listed = http.get("/api/games", headers=as_player(player)).json()["games"]
            assert [g["id"] for g in listed] == [table_id]
        with open_table(http, table_id, BOB) as ws:
            state = until(ws, "state")
            assert state["game"]["you"] == 2 and state["game"]["partner"] == 0
            assert state["suggestion"] is None  # the host turned hints off
        again_start = http.post(f"/api/tables/{table_id}/start", headers=as_player(ANN))
        assert again_start.status_code == 409


def test_the_host_moves_removes_and_the_powers_pass_clockwise(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        made = make_table(http, ANN)
        table_id, code = made["id"], made["code"]
        for player, seat, name in ((BOB, 1, "Bob"), (CAT, 2, "Cat"), (DAN, 3, "Dan")):
            assert join(http, code, player, seat, name).status_code == 200
        url = f"/api/tables/{table_id}"
        assert http.post(f"{url}/move", json={"from": 1, "to": 2},
                         headers=as_player(ANN)).status_code == 409  # seat 2 is taken
        assert http.post(f"{url}/remove", json={"seat": 3},
                         headers=as_player(BOB)).status_code == 403
        with waiting_room(http, table_id, DAN) as ws:
            until(ws, "table")
            removed = http.post(f"{url}/remove", json={"seat": 3}, headers=as_player(ANN))
            assert removed.status_code == 200
            assert removed.json()["table"]["seats"][3]["kind"] == "empty"
            error = until(ws, "error")
            assert error["code"] == "not-found"
        with waiting_room(http, table_id, BOB) as bob:
            until(bob, "table")
            moved = http.post(f"{url}/move", json={"from": 1, "to": 3},
                              headers=as_player(ANN))
            names = [s["name"] for s in moved.json()["table"]["seats"]]
            assert names == ["Ann", None, "Cat", "Bob"]
            told = until(bob, "table", where=lambda m: m["table"]["you"] != 1)["table"]
            assert told["you"] == 3 and told["seats"][3]["presence"] == "here"
        mine = http.post(f"{url}/seat", json={"seat": 1}, headers=as_player(CAT))
        assert mine.json()["table"]["you"] == 1
        left = http.post(f"{url}/leave", headers=as_player(ANN))
        assert left.status_code == 200
        table = http.get(url, headers=as_player(CAT)).json()["table"]
        assert table["host"] == 1  # the next person clockwise from seat 0 (Cat at 1)
        assert http.get(url, headers=as_player(ANN)).status_code == 404


def test_a_wrong_revoked_or_removed_code_is_a_table_that_does_not_exist(
        tmp_path: Path) -> None:
    with client(tmp_path) as http:
        missing = http.get("/api/games/no-such-game", headers=as_player(BOB))
        nothing = (missing.status_code, missing.json())
        made = make_table(http, ANN)
        table_id, code = made["id"], made["code"]
        wrong = "".join(ALPHABET[(ALPHABET.index(c) + 1) % 31] for c in code)
        answers = [http.get(f"/api/invites/{wrong}", headers=as_player(BOB)),
                   http.get("/api/invites/not-a-code", headers=as_player(BOB)),
                   join(http, wrong, BOB, 1, "Bob")]
        assert join(http, code, CAT, 2, "Cat").status_code == 200
        http.post(f"/api/tables/{table_id}/remove", json={"seat": 2}, headers=as_player(ANN))
        answers += [http.get(f"/api/invites/{code}", headers=as_player(CAT)),
                    join(http, code, CAT, 3, "Cat"),
                    http.get(f"/api/tables/{table_id}", headers=as_player(CAT)),
                    http.post(f"/api/games/{table_id}/ticket", headers=as_player(CAT))]
        renewed = http.post(f"/api/tables/{table_id}/invite", headers=as_player(ANN)).json()
        assert renewed["code"] != code and renewed["invite"] == f"/t/{renewed['code']}"
        answers.append(http.get(f"/api/invites/{code}", headers=as_player(DAN)))
        assert join(http, renewed["code"], DAN, 1, "Dan").status_code == 200
        revoked = http.delete(f"/api/tables/{table_id}/invite", headers=as_player(ANN))
        assert revoked.json()["code"] is None and not revoked.json()["table"]["invite"]
        answers.append(http.get(f"/api/invites/{renewed['code']}", headers=as_player(BOB)))
    for answer in answers:
        assert (answer.status_code, answer.json()) == nothing, answer.text


def test_wrong_codes_from_one_address_are_limited(tmp_path: Path) -> None:
    with client(tmp_path, invite_limit=3) as http:
        made = make_table(http, ANN)
        for _ in range(3):
            assert http.get("/api/invites/AAAAAAAAA",
                            headers=as_player(BOB)).status_code == 404
        limited = http.get(f"/api/invites/{made['code']}", headers=as_player(BOB))
        assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
        assert "too many wrong codes" in limited.json()["error"]


def test_a_host_has_at_most_ten_waiting_tables(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        for _ in range(10):
            make_table(http, ANN)
        answer = http.post("/api/tables", json={"name": "Ann"}, headers=as_player(ANN))
        assert answer.status_code == 409 and "10 tables" in answer.json()["error"]
        assert http.post("/api/tables", json={"name": "Bob"},
                         headers=as_player(BOB)).status_code == 201


@pytest.mark.parametrize("body,words", [
    ({"name": ""}, "1 to 24"),
    ({"name": "Ann", "timer": 30}, "timer"),
    ({"name": "Ann", "hints": "yes"}, "hints"),
    ({"name": "Ann", "seat": 4}, "seat"),
    ({"name": "Ann", "preset": "nope"}, "nope"),
    ({"name": "Ann", "colour": "red"}, "unknown field"),
    ({"name": "Ann", "house_rules": {"undo": True}}, "only for a game against computer"),
])
def test_a_bad_table_is_refused(tmp_path: Path, body: dict[str, Any], words: str) -> None:
    with client(tmp_path) as http:
        answer = http.post("/api/tables", json=body, headers=as_player(ANN))
        assert answer.status_code == 400 and words in answer.json()["error"]


def test_the_invite_link_serves_the_page(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        for path in ("/t/ABCDEFGHJ", "/w/ABCDEFGHJ"):
            page = http.get(path)
            assert page.status_code == 200 and "<html" in page.text.lower()


def test_a_new_game_seats_only_its_makers_ids(tmp_path: Path) -> None:
    body = {"preset": "house", "seats": [{"player": ANN}, {"player": BOB},
                                         {"level": "random"}, {"level": "random"}]}
    with client(tmp_path) as http:
        answer = http.post("/api/games", json=body, headers=as_player(ANN))
        assert answer.status_code == 400 and "invite" in answer.json()["error"]
        assert http.get("/api/games", headers=as_player(BOB)).json()["games"] == []


def test_play_again_keeps_the_seats_one_click_each(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = seat_by_invitation(http, {0: ANN, 2: BOB})
        early = http.post(f"/api/tables/{game_id}/again", headers=as_player(BOB))
        assert early.status_code == 409  # the game is still in play
        store = http.app.state.store
        store.engine.dispose()
        with store.engine.begin() as conn:
            conn.execute(store.tables.games.update().values(status="over"))
        nxt = http.post(f"/api/tables/{game_id}/again", headers=as_player(BOB)).json()
        table = nxt["table"]
        assert table["id"] != game_id and table["you"] == 2 and table["host"] == 2
        second = http.post(f"/api/tables/{game_id}/again", headers=as_player(ANN)).json()
        assert second["table"]["id"] == table["id"] and second["table"]["you"] == 0
        assert [s["name"] for s in second["table"]["seats"]] == ["Ann", None, "Cat", None]


def test_a_host_who_loses_connection_before_the_start_passes_the_powers(
        tmp_path: Path) -> None:
    with client(tmp_path, grace=0.2) as http:
        made = make_table(http, ANN)
        table_id = made["id"]
        assert join(http, made["code"], BOB, 3, "Bob").status_code == 200
        assert join(http, made["code"], CAT, 2, "Cat").status_code == 200
        with waiting_room(http, table_id, CAT) as cat, waiting_room(http, table_id, BOB):
            until(cat, "table", where=lambda m: m["table"]["seats"][3]["presence"] == "here")
            with waiting_room(http, table_id, ANN):
                until(cat, "table", where=lambda m: m["table"]["seats"][0]["presence"]
                      == "here")
            # seat 1 is empty and Cat (seat 2) is the next person clockwise who is here
            passed = until(cat, "table", where=lambda m: m["table"]["host"] != 0)
            assert passed["table"]["host"] == 2
        started = http.post(f"/api/tables/{table_id}/start", headers=as_player(CAT))
        assert started.status_code == 200


def test_a_shared_game_is_not_deleted_by_one_person(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = seat_by_invitation(http, {0: ANN, 2: BOB})
        refused = http.delete(f"/api/games/{game_id}", headers=as_player(ANN))
        assert refused.status_code == 409 and "leave the table" in refused.json()["error"]
        assert http.get(f"/api/games/{game_id}", headers=as_player(BOB)).status_code == 200
