"""A whole game played in the browser: no websocket frame and no HTTP body the page received
ever shows a card seat 0 may not see; the truth comes from the server's store afterwards.
The record downloads, and the game is in the list of past games."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from tablekit import ServerProcess, Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
from server_testkit import assert_hides, check_frames, hidden_cards, true_states

pytestmark = pytest.mark.browser


def load(server: ServerProcess, game_id: str) -> Any:
    from spades.store import Store

    store = Store(server.db_url)
    try:
        game = store.load_game(game_id)
    finally:
        store.close()
    assert game is not None
    return game


def test_a_whole_game_never_shows_another_seats_cards(page: Any, server: ServerProcess,
                                                      tmp_path: Path) -> None:
    table = Table(page, server.url)
    table.start(level="easy", target_score=250, mercy=True)
    game_id = table.state["game"]["id"]
    mid_game: list[tuple[int, str]] = []  # downloads made in play, in hands 1 and 2
    hands_seen = 0
    while True:
        kind = table.act_with_mouse()
        if kind == "over":
            break
        if kind == "hand-over":
            hands_seen += 1
        hand = table.state["view"]["hand_number"]
        if kind == "play" and len(mid_game) < min(hand, 2) and table.decision() == "play":
            state = table.synced()  # our turn: nothing moves while we fetch
            body = page.evaluate(  # the session's cookie says whose record it is
                "url => fetch(url).then(r => r.text())", f"/api/games/{game_id}/record")
            mid_game.append((state["step"], body))
        assert hands_seen < 40, "the game does not end"
    assert table.synced()["view"]["over"]
    game = load(server, game_id)
    assert len(mid_game) == min(2, len(game.decks))
    checked = check_frames(table.frames, game)
    assert checked > 50
    # the downloads made in play hold only what seat 0 had seen
    states = true_states(game)
    for step, body in mid_game:
        record = json.loads(body)
        in_play = record["hands"][-1]  # the finished hands before it are whole, as they may be
        assert len(record["hands"]) == states[step].hand.number + 1
        assert "deck" not in in_play, "the hand in play's deck was downloaded"
        assert_hides(in_play, hidden_cards(states[step], 0, False), f"record at step {step}")
    # and every API body the page read: the list of games names no cards at all
    for url, body in table.bodies:
        if url.split("?")[0].endswith("/api/games"):
            assert_hides(json.loads(body), set(range(54)), url)
    # the end of the game is clear, and the record downloads whole
    dialog = page.locator("#dlg-over")
    assert table.dialog_open("dlg-over")
    assert "Game over" in dialog.inner_text()
    with page.expect_download() as download:
        dialog.get_by_role("button", name="Download the record").click()
    saved = tmp_path / "record.json"
    download.value.save_as(saved)
    record = json.loads(saved.read_text())
    assert record["format"] == "spades-record/2"  # writers write /2 (looks, seeds)
    assert len(record["hands"]) == len(game.decks)
    assert record["result"]["scores"] == table.state["view"]["scores"]
    # the game is in the list of past games, over
    page.keyboard.press("Escape")
    page.click("#btn-games")
    row = page.locator("#games-list tr", has_text="won")
    row.first.wait_for()
    assert row.count() >= 1
