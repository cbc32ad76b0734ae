"""``GET /api/stats``: the player's own games only, figures that agree with the games
replayed, another id sees nothing of yours; the store side: finished games' figures cached,
games in play read again."""

from __future__ import annotations

import os
import secrets
import warnings
from pathlib import Path
from typing import Any

import pytest
from stats_testkit import OTHER, PLAYER, store_game

from spades.engine import CODE_OF, action_to_json, apply, legal_actions, record_of
from spades.server import Settings, create_app
from spades.stats import (
    FigureCache,
    game_figures,
    player_ids,
    player_stats,
    store_figures,
    store_stats,
)
from spades.store import ActionRow, Store, StoreError

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.timeout(120)


def db_url(folder: Path) -> str:
    return f"sqlite:///{folder / 'games.db'}"


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("stats")


@pytest.fixture(scope="module")
def games(folder: Path) -> dict[str, Any]:
    """PLAYER: two finished games (partnership at seat 0, cutthroat at seat 2, different
    levels) and one in play; OTHER: one finished game of their own. Read only."""
    store = Store(db_url(folder))
    try:
        states = {
            "p1": store_game(store, "p1", 1, level="easy"),
            "p2": store_game(store, "p2", 2, preset="cutthroat", seat=2, level="hard"),
            "p3": store_game(store, "p3", 3, hands=1, level="easy"),
            "o1": store_game(store, "o1", 4, player=OTHER, seat=1, level="normal"),
        }
    finally:
        store.close()
    return states


def expected(states: dict[str, Any], seats: dict[str, int]) -> dict[str, Any]:
    figures = [game_figures(record_of(states[g]), [s], game=g)
               for g, s in seats.items()]
    return player_stats(figures).to_json()


def get(http: TestClient, player: str | None) -> Any:
    headers = {"X-Spades-Player": player} if player else {}
    return http.get("/api/stats", headers=headers)


def test_stats_are_the_players_own_games_replayed(folder: Path,
                                                  games: dict[str, Any]) -> None:
    assert games["p1"].over and games["p2"].over and not games["p3"].over
    with TestClient(create_app(Settings(db_url=db_url(folder), workers=0))) as http:
        response = get(http, PLAYER)
        assert response.status_code == 200, response.text
        data = response.json()
        want = expected(games, {"p1": 0, "p2": 2, "p3": 0})
        assert data["overall"] == want["overall"]
        assert data["overall"]["games"] == 2 and data["overall"]["in_play"] == 1
        assert data["overall"]["hands"] == sum(len(games[g].results) for g in ("p1", "p3")) \
            + len(games["p2"].results)
        assert {g["key"] for g in data["by_preset"]} == {"partnership", "cutthroat"}
        assert {g["key"]: g["games"] for g in data["by_level"]} == {"easy": 1, "hard": 1}
        assert {g["game"] for g in data["recent"]} == {"p1", "p2", "p3"}
        # asked again (finished games from the cache): the same answer
        assert get(http, PLAYER).json() == data
        # a player id in the URL names nobody (only the header or the session's cookie)
        assert http.get(f"/api/stats?player={PLAYER}").status_code == 400


def test_another_id_sees_nothing_of_yours(folder: Path, games: dict[str, Any]) -> None:
    with TestClient(create_app(Settings(db_url=db_url(folder), workers=0))) as http:
        other = get(http, OTHER).json()
        assert [g["game"] for g in other["recent"]] == ["o1"]
        assert other["overall"] == expected(games, {"o1": 1})["overall"]
        stranger = get(http, "nobody-at-all-here").json()
        assert stranger["overall"]["games"] == stranger["overall"]["hands"] == 0
        assert stranger["recent"] == stranger["by_preset"] == []
        for bad in (None, "short", "has spaces in it"):
            response = get(http, bad)
            assert response.status_code == 400 and "player id" in response.json()["error"]


def counting_loads(store: Store, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    loaded: list[str] = []
    load = store.load_game

    def counting(game_id: str) -> Any:
        loaded.append(game_id)
        return load(game_id)

    monkeypatch.setattr(store, "load_game", counting)
    return loaded


def test_figures_are_cached_until_the_game_changes(
        folder: Path, games: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db_url(folder))
    try:
        loaded = counting_loads(store, monkeypatch)
        cache = FigureCache()
        first = store_figures(store, PLAYER, cache)
        assert sorted(loaded) == ["p1", "p2", "p3"]
        loaded.clear()
        assert store_figures(store, PLAYER, cache) == first
        assert loaded == []  # nothing changed: nothing replayed
    finally:
        store.close()


def test_a_game_in_play_is_read_again_once_it_moves_on(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = Store(db_url(tmp_path))
    try:
        state = store_game(store, "g", 8, hands=1)
        loaded = counting_loads(store, monkeypatch)
        cache = FigureCache()
        before = store_figures(store, PLAYER, cache)
        assert loaded == ["g"] and len(before[0].hands) == 1
        row = store.get_game("g")
        assert row is not None
        steps = sum(len(r.actions) for r in state.results)
        # the rest of hand 2, as the server would append it
        version = row.version
        while len(state.results) < 2:
            seat = state.turn
            assert seat is not None
            action = legal_actions(state)[0]
            after = apply(state, action)
            steps += 1
            dealt = not after.over and after.hand.number != state.hand.number
            version = store.append_action(
                "g", version, ActionRow(seq=steps, hand=state.hand.number, seat=seat,
                                        action=action_to_json(seat, action)),
                deck=(after.hand.number, [CODE_OF[c] for c in after.hand.deck])
                if dealt else None)
            state = after
            if len(state.results) < 2:
                loaded.clear()
                again = store_figures(store, PLAYER, cache)
                assert loaded == ["g"]  # a new version: replayed again, same hands
                assert again[0].hands == before[0].hands and again[0].when != before[0].when
        after_hand = store_figures(store, PLAYER, cache)
        assert len(after_hand[0].hands) == 2
        assert after_hand[0].hands[0] == before[0].hands[0]
    finally:
        store.close()


def test_a_game_that_does_not_replay_is_left_out_and_counted(tmp_path: Path) -> None:
    store = Store(db_url(tmp_path))
    try:
        good = store_game(store, "good", 5, hands=1)
        bad = store_game(store, "bad", 6, hands=0)
        assert bad.turn is not None
        wrong = (bad.turn + 1) % 4  # not this seat's turn: the record breaks the rules
        store.append_action("bad", 0, ActionRow(seq=1, hand=0, seat=wrong,
                                                action={"seat": wrong, "bid": 3}))
    finally:
        store.close()
    with TestClient(create_app(Settings(db_url=db_url(tmp_path), workers=0))) as http:
        response = get(http, PLAYER)
        assert response.status_code == 200, response.text
        data = response.json()
        assert data["unreadable"] == 1
        assert [g["game"] for g in data["recent"]] == ["good"]
        assert data["overall"]["hands"] == len(good.results) == 1
    store = Store(db_url(tmp_path))
    try:
        with pytest.raises(StoreError, match="game 'bad' does not replay: hand 1, action 1"):
            store_figures(store, PLAYER)
    finally:
        store.close()


POSTGRES = os.environ.get("SPADES_TEST_POSTGRES",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")


@pytest.mark.postgres
def test_the_same_figures_from_postgresql(games: dict[str, Any]) -> None:
    try:
        store = Store(POSTGRES, prefix=f"stats_{secrets.token_hex(4)}_")
    except StoreError as error:
        pytest.skip(f"PostgreSQL is not reachable at {Store.describe(POSTGRES)}: {error}")
    try:
        store_game(store, "p1", 1, level="easy")
        store_game(store, "p2", 2, preset="cutthroat", seat=2, level="hard")
        store_game(store, "o1", 4, player=OTHER, seat=1, level="normal")
        assert player_ids(store) == [(PLAYER, 2), (OTHER, 1)]
        mine = store_stats(store, PLAYER, FigureCache()).to_json()
        assert mine["overall"] == expected(games, {"p1": 0, "p2": 2})["overall"]
        assert store_stats(store, OTHER).to_json()["overall"] == expected(
            games, {"o1": 1})["overall"]
    finally:
        store.drop_tables()
        store.close()
