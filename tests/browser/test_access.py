"""Accessibility and small screens: an axe-core scan of the new-game screen, the bidding and
the play; a 360x740 touch screen where tap twice to play is the default; the help page."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import ServerProcess, Table

from spades.engine import parse_card

pytestmark = pytest.mark.browser

PHONE = {"width": 360, "height": 740}


def serious_violations(page: Any) -> list[str]:
    try:
        from axe_playwright_python.sync_playwright import Axe
    except ImportError:
        pytest.skip("axe-playwright-python is not installed")
    results = Axe().run(page)
    out = []
    for v in results.response["violations"]:
        if v.get("impact") in ("serious", "critical"):
            targets = [n["target"] for n in v["nodes"]][:3]
            out.append(f"{v['id']} ({v['impact']}): {v['help']} at {targets}")
    return out


def test_axe_finds_nothing_serious(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.open()
    page.wait_for_selector("#new-preset option", state="attached")
    assert serious_violations(page) == [], "new-game screen"
    table.start(level="easy")
    assert table.wait_decision() == "bid"
    assert serious_violations(page) == [], "bidding"
    while table.act_with_mouse() != "play":
        pass
    table.wait_decision()
    assert page.locator("#hand .card-btn.shaded").count() + page.locator(
        "#hand .card-btn.playable").count() > 0
    assert serious_violations(page) == [], "play"
    page.keyboard.press("s")
    assert serious_violations(page) == [], "score sheet"


def test_phone_touch_tap_twice_to_play(browser: Any, server: ServerProcess) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        table = Table(page, server.url)
        table.open()
        page.wait_for_selector("#new-preset option", state="attached")
        # the phone shows the page at its own width: nothing makes it zoom out
        assert page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [
            PHONE["width"], PHONE["width"]]
        page.tap("input[name=level][value=easy]")
        page.tap("#new-start")
        assert table.wait_decision() == "bid"
        page.locator("#bidpad .bid[data-bid='3']").tap()
        page.wait_for_function(
            "() => document.getElementById('screen-table').dataset.decision === 'play'")
        # nothing is wider than the phone; every card of the hand is on screen
        assert page.evaluate("[innerWidth, document.documentElement.scrollWidth]") == [
            PHONE["width"], PHONE["width"]]
        for box in page.eval_on_selector_all(
                "#hand .card-btn, #screen-table button:not([hidden]), .menu button",
                "es => es.map(e => e.getBoundingClientRect().toJSON())"):
            assert box["left"] >= 0 and box["right"] <= PHONE["width"]
            assert box["width"] >= 24 and box["height"] >= 24, box
        version = table.shown_version
        card = page.locator("#hand .card-btn.playable").first
        key = card.get_attribute("data-card")
        card.tap()  # the first tap lifts the card
        assert "lifted" in (card.get_attribute("class") or "")
        assert "tap it again" in page.locator("#hand-hint").inner_text()
        page.wait_for_timeout(300)
        assert table.synced()["version"] == version, "one tap played the card"
        card.tap()  # the second plays it
        table.wait_shown(version)
        mine = [e for f in table.frames if f["type"] == "state" for e in f["events"]
                if e["kind"] == "play" and e["seat"] == 0]
        assert [str(int(parse_card(e["card"]))) for e in mine] == [key]
        assert page.locator(f"#hand .card-btn[data-card='{key}']").count() == 0
    finally:
        context.close()


def test_help_explains_the_variant_and_the_keys(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(preset="three-player", level="easy")
    page.click("#btn-help")
    page.locator("#help-body h2").first.wait_for()  # the rules load when first asked for
    text = page.locator("#help-body").inner_text()
    assert "Three players" in text
    assert "Each player gets 18 cards" in text  # 54 cards with the jokers: 18 each
    assert "Big Joker" in text
    assert "Nil is not played" in text
    assert "You play against Bramble and Clover" in text
    for key in ("Tab", "Left / Right arrows", "Enter or Space", "0–9", "L", "S"):
        assert key in text
    assert "cloud" not in text.lower()
    page.keyboard.press("Escape")
    assert not table.dialog_open("dlg-help")


def test_the_page_is_light_and_asks_nothing_of_the_internet(page: Any,
                                                             server: ServerProcess) -> None:
    requests: list[str] = []
    sizes: dict[str, int] = {}
    page.on("request", lambda request: requests.append(request.url))

    def measured(response: Any) -> None:
        kind = response.headers.get("content-type", "")
        if any(k in kind for k in ("html", "javascript", "css")):
            sizes[response.url] = len(response.body())

    page.on("response", measured)
    table = Table(page, server.url)
    table.start(level="easy")
    table.wait_decision()
    # the page as it first loads (the help's module, loaded when it opens, is not counted:
    # it was counted only when it happened to come before the sum was taken)
    loaded = dict(sizes)
    page.click("#btn-help")
    page.wait_for_function("() => document.getElementById('dlg-help').open")
    assert all(url.startswith(server.url) or url.startswith(server.url.replace("http", "ws"))
               or url.startswith("data:") for url in requests), requests
    assert any(url.endswith("/js/main.js") for url in loaded)
    assert len(loaded) >= 15  # the page, its style sheet and its modules
    assert sum(loaded.values()) <= 150_000, loaded
