"""Undo and a deal played again in the browser (issue 41 items 2, 3 and 5): at a table
with "Allow undo", U (by keyboard) takes back your card and the computer players' cards
after it, the screen reader hears what was taken back, and the record still replays; from
the review of a finished hand, on a phone by touch, "Play this deal again" deals the very
same 13 cards; axe clean."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from tablekit import PHONE, ServerProcess, Table, new_page, play_until, serious_violations

from spades.engine import load_record, parse_card
from spades.session import state_from_store
from spades.store import Store

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]


def _plays(frames: list[dict[str, Any]], since: int) -> list[tuple[int, str]]:
    """(seat, card) of every card played in the state frames after index ``since``."""
    return [(e["seat"], e["card"]) for f in frames[since:] if f["type"] == "state"
            for e in f["events"] if e["kind"] == "play"]


def _index(code: str) -> str:
    """A card's index as the page's data-card attribute holds it."""
    return str(int(parse_card(code)))


def test_undo_a_card_by_keyboard(browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    context, page = new_page(browser, player=player)
    try:
        table = Table(page, server.url)
        table.start(preset="house", level="easy", undo=True)
        assert play_until(table, lambda kind: kind == "play") == "play"
        state = table.synced()
        assert page.locator("#btn-undo").is_visible()
        game_id = state["game"]["id"]
        mine = sorted(state["view"]["hand"])
        mark = len(table.frames)
        # my card, by keyboard; the computer players answer until it is my turn again
        card = page.locator("#hand .card-btn.playable").first
        code = card.get_attribute("data-card")
        card.focus()
        page.keyboard.press("Enter")
        table.wait_shown(state["version"])
        assert table.wait_decision() == "play"
        answered = [p for p in _plays(table.frames, mark) if p[0] != 0]
        assert answered, "the computer players played after my card"
        before = table.synced()["version"]
        page.keyboard.press("u")
        table.wait_frames(lambda frames: any(
            e["kind"] == "undo" for f in frames if f["type"] == "state" for e in f["events"]),
            "the undo")
        table.wait_shown(before)
        undone = next(e for f in table.frames if f["type"] == "state"
                      for e in f["events"] if e["kind"] == "undo")
        taken = [(a["seat"], a["play"]) for a in undone["taken"] if "play" in a]
        assert taken[0][0] == 0 and set(answered) <= set(taken)  # theirs are taken back too
        after = table.synced()
        assert sorted(after["view"]["hand"]) == mine  # my card is back in my hand
        shown = set(page.locator("#trick [data-card]").evaluate_all(
            "cards => cards.map(c => c.dataset.card)"))
        # nothing taken back is on the table
        assert not shown & {_index(c) for _, c in taken}, shown
        assert code in [c.get_attribute("data-card") for c in
                        page.locator("#hand .card-btn").all()]
        live = page.locator("#live").inner_text()
        assert "You take back your " in live, live
        assert serious_violations(page) == [], "the table with Undo"
        # the statistics count this game apart: a practice game
        page.click("#btn-stats")
        page.wait_for_selector("#dlg-stats[open] #stats-recent")
        captions = page.locator("#stats-body table caption").all_inner_texts()
        assert "Practice games (undo, hint or a chosen deal), counted apart" in captions
        assert "(practice)" in page.locator("#stats-recent tbody tr").first.inner_text()
        assert serious_violations(page) == [], "the statistics with a practice game"
        page.keyboard.press("Escape")
        # the session's cookie says whose record it is
        record = json.loads(page.evaluate("url => fetch(url).then(r => r.text())",
                                          f"/api/games/{game_id}/record"))
    finally:
        context.close()
    assert not page.errors, page.errors
    # the record still replays, the undo in it; the store's game resumes the same
    assert record["format"] == "spades-record/3"
    assert any(a.get("undo") for h in record["hands"] for a in h["actions"])
    load_record(record)
    store = Store(server.db_url)
    try:
        stored = store.load_game(game_id)
    finally:
        store.close()
    assert stored is not None and state_from_store(stored).undos


def test_play_a_deal_again_from_the_review_by_touch(browser: Any,
                                                    server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    context, page = new_page(browser, viewport=PHONE, touch=True, player=player)
    try:
        table = Table(page, server.url)
        table.start(preset="house", level="easy")
        table.wait_decision()
        dealt = sorted(table.synced()["view"]["hand"])
        assert play_until(table, lambda kind: kind == "hand-over", touch=True) == "hand-over"
        page.locator("#over-actions button", has_text="Review").tap()
        page.wait_for_selector("#dlg-review[open] #review-again-zero")
        assert serious_violations(page) == [], "the review with Play this deal again"
        first_game = table.state["game"]["id"]
        page.locator("#review-again-zero").tap()
        page.wait_for_function(
            "id => document.getElementById('screen-table').dataset.version !== undefined"
            " && !document.getElementById('dlg-review').open", arg=first_game)
        table.wait_frames(lambda frames: frames and frames[-1]["type"] == "state"
                          and frames[-1]["game"]["id"] != first_game, "the new game")
        table.wait_decision()
        state = table.synced()
        assert state["game"]["id"] != first_game
        assert sorted(state["view"]["hand"]) == dealt  # the same 13 cards
        assert len(dealt) == 13
        assert state["view"]["scores"] == [0, 0]
        assert state["shuffle"]["committed"][0]["commitment_scheme"] == "chosen"
        cards = page.locator("#hand .card-btn").evaluate_all(
            "cards => cards.map(c => c.dataset.card)")
        assert sorted(cards) == sorted(_index(c) for c in dealt)
        assert "dealt again" in page.locator("#live").inner_text()
    finally:
        context.close()
    assert not page.errors, page.errors


def test_undo_by_touch_on_a_phone(browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    context, page = new_page(browser, viewport=PHONE, touch=True, player=player)
    try:
        table = Table(page, server.url)
        table.start(preset="house", level="easy", undo=True)
        play_until(table, lambda kind: kind == "play", touch=True)
        table.act(touch=True)  # my card; the computer players answer
        assert table.wait_decision() == "play"
        before = table.synced()["version"]
        button = page.locator("#btn-undo")
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["height"] >= 24 and box["width"] >= 24
        button.tap()
        table.wait_shown(before)
        table.wait_frames(lambda frames: any(
            e["kind"] == "undo" for f in frames if f["type"] == "state" for e in f["events"]),
            "the undo")
        assert "You take back your " in page.locator("#live").inner_text()
        assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
    finally:
        context.close()
    assert not page.errors, page.errors
