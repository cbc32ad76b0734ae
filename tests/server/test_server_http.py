"""The HTTP side: the page and its files, the presets and house rules, new games, the list
of games, and refusals that leave the store untouched."""

from __future__ import annotations

from pathlib import Path

import pytest
from server_testkit import HEADERS, OTHER, PLAYER, client, new_game_id, stored

from spades.engine import HOUSE_RULE_NAMES, PRESETS, find_preset
from spades.engine.record import rules_from_json
from spades.server import Settings, create_app
from spades.server.common import WEB_DIR
from spades.server.presets import rules_for

pytestmark = pytest.mark.timeout(60)


def test_the_page_and_its_files_are_served(tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "js").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html><title>T</title><script "
                                    'type="module" src="js/main.js"></script>')
    (web / "js" / "main.js").write_text("export const x = 1;\n")
    with client(tmp_path, web_dir=web) as http:
        page = http.get("/")
        assert page.status_code == 200 and page.text == (web / "index.html").read_text()
        assert page.headers["content-type"].startswith("text/html")
        for path in ("/js/main.js", "/static/js/main.js"):
            script = http.get(path)
            assert script.status_code == 200 and script.text == "export const x = 1;\n"
            assert "javascript" in script.headers["content-type"]
        assert http.get("/js/nothing.js").status_code == 404
        assert http.get("/../pyproject.toml").status_code == 404


def test_the_real_table_is_served(tmp_path: Path) -> None:
    if not (WEB_DIR / "index.html").is_file():
        pytest.skip("src/spades/web/index.html is not there yet")
    with client(tmp_path) as http:
        assert http.get("/").text == (WEB_DIR / "index.html").read_text()


def test_presets_offer_every_variant_and_only_playable_house_rules(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        data = http.get("/api/presets").json()
        assert [lv["name"] for lv in data["levels"]] == ["easy", "normal", "hard"]
        assert {p["name"] for p in data["presets"]} == set(PRESETS)
        assert data["presets"][0]["name"] == data["default_preset"] == "house"
        house = data["presets"][0]
        assert house["seats"] == ["You", "Bramble", "Juniper", "Clover"]
        assert house["partner"] == 2 and house["sides"] == [[0, 2], [1, 3]]
        assert [h["name"] for h in house["house_rules"]] == list(HOUSE_RULE_NAMES)
        target = house["house_rules"][0]
        assert target["choices"] == [250, 300, 500] and target["default"] == 500
        created = 0
        for preset in data["presets"]:
            assert preset["options"] == find_preset(preset["name"]).options()
            assert len(preset["seats"]) == preset["players"]
            for rule in preset["house_rules"]:
                assert rule["default"] in rule["choices"] and len(rule["choices"]) > 1
                for value in rule["choices"]:
                    choice = {rule["name"]: value}
                    if rule["name"] == "blind_nil" and value:
                        choice["nil"] = True
                    if rule["name"] == "nil" and not value:
                        choice["blind_nil"] = False
                    response = http.post("/api/games", headers=HEADERS, json={
                        "preset": preset["name"], "level": "easy", "house_rules": choice})
                    assert response.status_code == 201, (preset["name"], choice, response.text)
                    game = stored(tmp_path, response.json()["id"])
                    rules = rules_from_json(game.game.rules)
                    assert rules == rules_for(preset["name"], choice)[0]
                    created += 1
        assert created > 50
        assert len(http.get("/api/games", headers=HEADERS).json()["games"]) == created


def test_house_rules_become_engine_options() -> None:
    rules, chosen = rules_for("house", {"target_score": 300, "blind_nil": True,
                                        "bag_penalty": False, "mercy": True, "jokers": True})
    assert (rules.target_score, rules.blind_nil, rules.blind_nil_deficit,
            rules.blind_nil_pass) == (300, True, 100, 2)
    assert rules.bag_limit is None and rules.losing_score == -200 and rules.jokers
    assert chosen == {"target_score": 300, "nil": True, "blind_nil": True,
                      "bag_penalty": False, "mercy": True, "jokers": True, "undo": False}
    plain, _ = rules_for("partnership", {"nil": False})
    assert not plain.nil and not plain.blind_nil and plain.min_bid == 1


BAD_NEW_GAMES = [
    ({"preset": "bridge"}, 400, "unknown preset 'bridge'"),
    ({"preset": 4}, 400, "preset must be a preset name"),
    ({"level": "grandmaster"}, 400, "level must be one of easy, normal, hard"),
    ({"house_rules": {"target_score": 1000}}, 400, "target_score must be one of 250, 300, 500"),
    ({"house_rules": {"target_score": "300"}}, 400, "target_score must be one of"),
    ({"house_rules": {"nil": False, "blind_nil": True}}, 400, "blind nil needs nil"),
    ({"house_rules": {"jokers": "yes"}}, 400, "jokers must be true or false"),
    ({"house_rules": {"wild_deuces": True}}, 400, "unknown house rule(s): wild_deuces"),
    ({"house_rules": [1]}, 400, "house_rules must be an object"),
    ({"preset": "three-player-kitty", "house_rules": {"jokers": True}}, 400,
     "cannot be played with these house rules: kitty"),
    ({"seed": 1}, 400, "unknown field(s): seed"),
]


@pytest.mark.parametrize(("body", "status", "words"), BAD_NEW_GAMES)
def test_a_bad_new_game_is_refused_and_stores_nothing(tmp_path: Path, body: dict[str, object],
                                                      status: int, words: str) -> None:
    with client(tmp_path) as http:
        response = http.post("/api/games", json=body, headers=HEADERS)
        assert response.status_code == status
        assert words in response.json()["error"], response.json()
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}


def test_malformed_requests_are_refused(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        for headers in ({}, {"X-Spades-Player": "short"}, {"X-Spades-Player": "bad id!!!!"}):
            response = http.post("/api/games", json={}, headers=headers)
            assert response.status_code == 400 and "player id" in response.json()["error"]
            assert http.get("/api/games", headers=headers).status_code == 400
        json_headers = {**HEADERS, "Content-Type": "application/json"}
        response = http.post("/api/games", content=b"{not json", headers=json_headers)
        assert response.status_code == 400 and "not JSON" in response.json()["error"]
        response = http.post("/api/games", content=b"[]", headers=json_headers)
        assert response.status_code == 400 and "an object" in response.json()["error"]
        response = http.post("/api/games", content=b" " * 20000, headers=json_headers)
        assert response.status_code == 413
        assert http.get("/api/games", headers=HEADERS).json() == {"games": []}


def test_games_belong_to_their_player(tmp_path: Path) -> None:
    with client(tmp_path) as http:
        first = new_game_id(http)
        second = new_game_id(http, "two-player")
        mine = http.get("/api/games", headers=HEADERS).json()["games"]
        assert [g["id"] for g in mine] == [second, first]  # newest first
        assert mine[0]["players"] == ["You", "Bramble"] and mine[0]["status"] == "playing"
        assert mine[1]["text"] == "Hand 1 in play; You and Juniper 0, Bramble and Clover 0"
        # a player id in the URL names nobody any more (it is a bearer token: URLs end up
        # in history and logs); the header or the session's cookie does
        response = http.get(f"/api/games?player={PLAYER}")
        assert response.status_code == 400 and "X-Spades-Player" in response.json()["error"]
        theirs = {"X-Spades-Player": OTHER}
        assert http.get("/api/games", headers=theirs).json() == {"games": []}
        assert http.get(f"/api/games/{first}", headers=HEADERS).json()["id"] == first
        for path in (f"/api/games/{first}", f"/api/games/{first}/record"):
            response = http.get(path, headers=theirs)
            assert response.status_code == 404
            assert response.json() == {"error": "no such game for this player"}
        assert http.get("/api/games/nosuchgame/record", headers=HEADERS).status_code == 404
        download = http.get(f"/api/games/{first}/record", headers=HEADERS)
        assert download.status_code == 200
        assert "attachment" in download.headers["content-disposition"]


def test_create_app_needs_no_arguments() -> None:
    app = create_app()
    assert app.routes and Settings().pace > 0
