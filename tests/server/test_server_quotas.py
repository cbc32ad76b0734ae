"""New games are limited (issue 37, item 4): a few a minute per player id and per address,
and so many unfinished per person, whose refusal says how to delete one; and the route
that deletes an unfinished game of one's own (``DELETE /api/games/{id}``), which marks it
abandoned: its rows stay, and its record still replays."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from friends_kit import seat_by_invitation
from server_testkit import HEADERS, OTHER, PLAYER, client, new_game_id, open_table, stored

from spades.server.quotas import GameLimits
from spades.session import state_from_store
from spades.store import ABANDONED, PLAYING, Store

PROXY = "10.0.0.1"
ROOMY = "10000/minute"


def limited_client(tmp_path: Path, **limits: Any) -> Any:
    chosen = GameLimits(**{"per_player": ROOMY, "per_address": ROOMY, **limits})
    return client(tmp_path, game_limits=chosen)


def create(http: Any, player: str = PLAYER, address: str | None = None) -> Any:
    headers = {"X-Spades-Player": player}
    if address:
        headers["X-Forwarded-For"] = address
    return http.post("/api/games", json={"level": "random"}, headers=headers)


def test_new_games_are_held_per_player_id(tmp_path: Path) -> None:
    with limited_client(tmp_path, per_player="3/minute") as http:
        codes = [create(http).status_code for _ in range(5)]
        assert codes == [201, 201, 201, 429, 429]
        held = create(http)
        assert 1 <= int(held.headers["retry-after"]) <= 60
        assert held.json()["error"].startswith("you are starting new games too fast")
        assert create(http, OTHER).status_code == 201  # another player
        assert len(http.get("/api/games", headers=HEADERS).json()["games"]) == 3


def test_new_games_are_held_per_address(tmp_path: Path) -> None:
    chosen = GameLimits(per_player=ROOMY, per_address="4/minute")
    with client(tmp_path, peer=PROXY, game_limits=chosen, trusted_proxies=(PROXY,)) as http:
        codes = [create(http, f"player-{n:04d}-xxxx", "198.51.100.1").status_code
                 for n in range(6)]
        assert codes == [201, 201, 201, 201, 429, 429]
        assert create(http, "player-9999-xxxx", "198.51.100.2").status_code == 201


def test_unfinished_games_are_capped_and_the_refusal_says_how_to_delete_one(
        tmp_path: Path) -> None:
    with limited_client(tmp_path, unfinished=3) as http:
        made = [new_game_id(http) for _ in range(3)]
        refused = create(http)
        assert refused.status_code == 409
        message = refused.json()["error"]
        assert "3 unfinished games" in message and "delete" in message
        assert "games list" in message
        gone = http.delete(f"/api/games/{made[0]}", headers=HEADERS)
        assert gone.status_code == 200 and gone.json() == {"deleted": True, "id": made[0]}
        assert create(http).status_code == 201  # room for one again
        assert create(http, OTHER).status_code == 201  # per person


def test_deleting_a_game_marks_it_abandoned_and_hides_it(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        kept, deleted = new_game_id(http), new_game_id(http)
        listed = {g["id"]: g for g in http.get("/api/games", headers=HEADERS).json()["games"]}
        assert listed[deleted]["deletable"] and listed[kept]["deletable"]
        with open_table(http, deleted) as ws:
            assert ws.receive_json()["type"] == "state"
            assert http.delete(f"/api/games/{deleted}", headers=HEADERS).status_code == 200
            last = ws.receive_json()
            while last["type"] != "error":
                last = ws.receive_json()
            assert last["code"] == "not-found" and "deleted" in last["message"]
        ids = [g["id"] for g in http.get("/api/games", headers=HEADERS).json()["games"]]
        assert ids == [kept]
        for path in (f"/api/games/{deleted}", f"/api/games/{deleted}/record"):
            assert http.get(path, headers=HEADERS).status_code == 404, path
        assert http.post(f"/api/games/{deleted}/ticket", headers=HEADERS).status_code == 404
        assert http.delete(f"/api/games/{deleted}", headers=HEADERS).status_code == 404
    game = stored(tmp_path, deleted)  # the rows stay, and the record still replays
    assert game.game.status == ABANDONED
    assert state_from_store(game).hand.deck
    store = Store(f"sqlite:///{tmp_path / 'games.db'}")
    try:
        assert store.count_unfinished([PLAYER]) == 1
        assert not store.abandon(deleted)  # once
    finally:
        store.close()


def test_only_its_creator_deletes_a_game_in_play(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        game_id = new_game_id(http)
        other = {"X-Spades-Player": OTHER}
        assert http.delete(f"/api/games/{game_id}", headers=other).status_code == 404
        assert http.delete("/api/games/not-a-game", headers=HEADERS).status_code == 404
        assert http.delete(f"/api/games/{game_id}").status_code == 400  # nobody
        assert stored(tmp_path, game_id).game.status == PLAYING


def test_a_seated_player_who_did_not_start_it_cannot_delete_it(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        # a second person sits only by invitation (issue 39): PLAYER hosts, OTHER joins
        game_id = seat_by_invitation(http, {0: PLAYER, 2: OTHER}, preset="partnership",
                                     level="easy")
        refused = http.delete(f"/api/games/{game_id}", headers={"X-Spades-Player": OTHER})
        assert refused.status_code == 403 and "started" in refused.json()["error"]
        listed = http.get("/api/games", headers={"X-Spades-Player": OTHER}).json()["games"]
        assert [g["deletable"] for g in listed] == [False]
