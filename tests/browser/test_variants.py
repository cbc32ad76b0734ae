"""Blind nil with its two-card exchange, looking at your cards instead, and the two-player
draw: each decision made on the page, as the server offers it."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from tablekit import ServerProcess, Table, seed_game_behind, serious_violations

from spades.engine import parse_card

pytestmark = pytest.mark.browser


def open_seeded(browser: Any, server: ServerProcess) -> tuple[Any, Table]:
    player = "test-" + secrets.token_hex(6)
    game_id = seed_game_behind(server.db_url, player)
    context = browser.new_context(viewport={"width": 1200, "height": 860})
    context.set_default_timeout(15_000)
    context.add_init_script(
        f"localStorage.setItem('spades.player', '{player}');"
        f"localStorage.setItem('spades.game', '{game_id}');")
    page = context.new_page()
    table = Table(page, server.url)
    table.open()
    return context, table


def hand_cards(page: Any) -> set[str]:
    return set(page.eval_on_selector_all("#hand .card-btn", "cs => cs.map(c => c.dataset.card)"))


def test_blind_nil_and_the_two_card_exchange(browser: Any, server: ServerProcess) -> None:
    context, table = open_seeded(browser, server)
    page = table.page
    try:
        assert table.wait_decision() == "blind_nil"
        view = table.synced()["view"]
        assert view["hand_number"] == 2 and view["hand_hidden"] and view["hand"] is None
        # the cards are not in the browser: face down only
        assert page.locator("#hand .card.back").count() == 13
        assert page.locator("#hand .card-btn").count() == 0
        assert "face down" in page.locator("#hand-hint").inner_text()
        assert "blind nil is open to you" in page.locator("#prompt").inner_text()
        # every frame so far kept seat 0's cards away
        assert all(f["view"]["hand"] is None for f in table.frames if f["type"] == "state")
        # by keyboard: the choices are one tab stop that starts on the safe one, Left/Right
        # move, Enter chooses; blind nil cannot be undone, so it takes a second Enter
        focused = "document.activeElement.textContent"
        assert page.evaluate(focused) == "Look at my cards"
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(focused) == "Blind nil"
        before = table.shown_version
        page.keyboard.press("Enter")
        assert page.evaluate(focused) == "Confirm blind nil"
        page.keyboard.press("Enter")
        table.wait_shown(before)
        assert table.wait_decision() == "pass"
        legal = table.synced()["legal"]
        assert legal["count"] == 2 and legal["to"] == 2
        assert "to Juniper" in page.locator("#prompt").inner_text()
        assert page.locator("#pass-send").get_attribute("aria-disabled") == "true"
        held = hand_cards(page)
        assert len(held) == 13
        cards = page.locator("#hand .card-btn")
        first, second = cards.nth(0), cards.nth(5)
        given = {first.get_attribute("data-card"), second.get_attribute("data-card")}
        # by keyboard: Enter or Space chooses a card, Shift+Tab reaches the pass button
        assert page.evaluate("document.activeElement.dataset.card") == first.get_attribute(
            "data-card")
        page.keyboard.press("Enter")
        for _ in range(5):
            page.keyboard.press("ArrowRight")
        page.keyboard.press(" ")
        assert first.get_attribute("aria-pressed") == "true"
        assert second.get_attribute("aria-pressed") == "true"
        assert page.locator("#pass-send").get_attribute("aria-disabled") is None
        page.keyboard.press("Shift+Tab")
        assert page.evaluate("document.activeElement.id") == "pass-send"
        before = table.shown_version
        page.keyboard.press("Enter")
        table.wait_shown(before)
        kind = table.wait_decision()
        assert kind in ("play", "hand-over"), kind
        passes = table.synced()["view"]["passes"]
        assert [(p["from"], p["to"]) for p in passes] == [(0, 2), (2, 0)]
        got = passes[1]["cards"]
        assert len(got) == 2
        event = next(e for f in table.frames if f["type"] == "state" for e in f["events"]
                     if e["kind"] == "pass" and e["from"] == 2)
        assert event["text"].startswith("Juniper passes you the")
        received = {str(int(parse_card(c))) for c in got}
        page.wait_for_function("() => document.querySelectorAll('#hand .card-btn').length")
        if kind == "play":  # Juniper's two cards replaced the two we gave
            shown = hand_cards(page)
            played = 13 - len(shown)
            assert played == 0 and shown == (held - given) | received
        assert "Bid blind nil" in page.locator(".seat[data-seat='0']").inner_text()
    finally:
        context.close()


def test_looking_at_your_cards_takes_blind_nil_away(browser: Any, server: ServerProcess) -> None:
    context, table = open_seeded(browser, server)
    page = table.page
    try:
        assert table.wait_decision() == "blind_nil"
        before = table.shown_version
        page.get_by_role("button", name="Look at my cards").click()
        table.wait_shown(before)
        assert table.wait_decision() == "bid"
        assert page.locator("#hand .card-btn").count() == 13
        bids = page.eval_on_selector_all("#bidpad .bid", "bs => bs.map(b => b.dataset.bid)")
        assert "blind-nil" not in bids and bids[0] == "nil"
        assert page.get_by_role("button", name="Blind nil").count() == 0
    finally:
        context.close()


def test_the_two_player_draw(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(preset="two-player", level="easy", blind_nil=False)
    draws = 0
    while True:
        kind = table.wait_decision()
        if kind != "draw":
            break
        state = table.synced()  # our turn: the table waits, the page is still
        discards = state["view"]["discards"]
        assert page.locator("#actions .discards [data-card]").count() == len(discards)
        if discards:
            left = state["view"]["stock_left"]
            assert f"{left} card{'' if left == 1 else 's'} left" in page.locator(
                "#actions").inner_text()
        legal = state["legal"]
        drawn = legal["card"]
        face = page.locator("#trick .card.drawn")
        assert face.count() == 1
        assert face.get_attribute("data-card") == str(int(parse_card(drawn)))
        buttons = page.locator("#actions .choice-row button")
        assert buttons.count() == 2
        if draws == 1:
            assert serious_violations(page) == [], "the draw"
        assert buttons.nth(0).inner_text().startswith("Keep the ")
        assert buttons.nth(1).inner_text().startswith("Discard the ")
        before = table.shown_version
        held = page.locator("#hand .card-btn").count()
        if draws % 2:
            buttons.nth(1).click()
        else:  # by keyboard: Tab is already on the choices, Enter keeps
            assert page.evaluate("document.activeElement.closest('.choice-row') !== null")
            page.keyboard.press("Enter")
        table.wait_shown(before)
        draws += 1
        page.wait_for_function(
            "n => document.querySelectorAll('#hand .card-btn').length > n", arg=held)
    assert draws == 13
    assert kind == "bid"
    assert page.locator("#hand .card-btn").count() == 13
    assert table.synced()["view"]["stock_left"] == 0
