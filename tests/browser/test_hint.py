"""The card hint in the browser (issue 41 items 1 and 5): a whole hand played by keyboard
with the hint for every card (H, then Enter on the lifted card), each hint a legal card with
its reason shown and announced; the Hint button only on the turn to play; at 360 px by touch;
axe clean with a hint shown."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import PHONE, ServerProcess, Table, serious_violations

from spades.engine import parse_card

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
#: How long the page may wait for a review (milliseconds): its process runs at the lowest
#: CPU priority.
REVIEW_WAIT = 240_000

HEARD = """
window.heard = [];
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent);
}).observe(document.getElementById('live'), {childList: true});
"""


def hints(table: Table) -> list[dict[str, Any]]:
    return [f for f in table.frames if f["type"] == "hint"]


def take_hint(table: Table, press: Any) -> dict[str, Any]:
    """Ask for a hint (``press``) and wait for it to be shown: its frame."""
    page = table.page
    state = table.synced()
    asked = len(hints(table))
    press()
    table.wait_frames(lambda frames: len([f for f in frames if f["type"] == "hint"]) > asked,
                      "a hint")
    hint = hints(table)[-1]
    assert hint["version"] == state["version"] and hint["level"] == "hard"
    assert hint["card"] in state["legal"]["cards"], "the hint is a legal card"
    key = str(int(parse_card(hint["card"])))
    page.wait_for_selector(f"#hand .card-btn.lifted[data-card='{key}']")
    shown = page.locator("#hand-hint").inner_text()
    assert shown == f"Hint (Hard): {hint['reason']}"
    assert len(hint["reason"]) > 10 and hint["reason"].endswith(".")
    page.wait_for_function("t => window.heard.includes(t)", arg=shown)
    return hint


def test_a_hand_played_by_the_hint_with_the_keyboard(page: Any, server: ServerProcess) -> None:
    page.add_init_script(f"addEventListener('DOMContentLoaded', () => {{ {HEARD} }});")
    table = Table(page, server.url)
    table.start(level="easy")
    plays = 0
    while True:
        kind = table.wait_decision()
        if kind == "hand-over":
            break
        before = table.shown_version
        if kind == "bid":
            assert not page.locator("#btn-hint").is_visible(), "no hint button at a bid"
            page.keyboard.press("3")
            page.keyboard.press("Enter")
        else:
            assert kind == "play"
            assert page.locator("#btn-hint").is_visible()
            hint = take_hint(table, lambda: page.keyboard.press("h"))
            # the hinted card has the focus: Enter plays it
            key = str(int(parse_card(hint["card"])))
            assert page.evaluate("document.activeElement.dataset.card") == key
            assert table.synced()["version"] == before, "the hint played nothing"
            page.keyboard.press("Enter")
            table.wait_shown(before)
            mine = [e for f in table.frames if f["type"] == "state" for e in f["events"]
                    if e["kind"] == "play" and e["seat"] == 0]
            assert mine[-1]["card"] == hint["card"]
            plays += 1
        table.wait_shown(before)
    assert plays == 13
    assert len(hints(table)) == 13
    # the review of the hand: what Hard would have done beside each of your bids and cards
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.textContent.trim()") == "Review"
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.getElementById('review-status') && "
                           "document.querySelector('#dlg-review[open] #review-trick h3')",
                           timeout=REVIEW_WAIT)
    review = next(f for f in table.frames if f["type"] == "review")["review"]
    mine = [c for c in review["hard"]["choices"] if c["seat"] == 0]
    assert review["hard"]["level"] == "hard" and len(mine) == 14  # the bid and 13 cards
    assert {c["seat"] for c in review["hard"]["choices"]} == {0}  # the table's one person
    bid = page.locator(".review-hard-bid").inner_text()
    assert bid.startswith("Hard would have bid ") and "you bid 3" in bid
    page.keyboard.press("ArrowDown")  # to trick 2, then on to your card in it
    for _ in range(4):
        if page.locator(".review-play.current strong").inner_text() == "You":
            break
        page.keyboard.press("ArrowRight")
    shown = page.locator(".review-play.current .play-hard").inner_text()
    second = [c for c in mine if c["kind"] == "play"][1]
    assert second["trick"] == 2
    assert shown.startswith("Hard would have played the same card" if second["same"]
                            else "Hard would have played the ")
    assert shown in page.evaluate("document.getElementById('review-live').textContent")
    assert serious_violations(page) == [], "the review with Hard's column"


def test_the_hint_by_touch_at_360_px(browser: Any, server: ServerProcess) -> None:
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    page.add_init_script(f"addEventListener('DOMContentLoaded', () => {{ {HEARD} }});")
    try:
        table = Table(page, server.url)
        table.open()
        page.wait_for_selector("#new-preset option", state="attached")
        page.tap("input[name=level][value=easy]")
        page.tap("#new-start")
        assert table.wait_decision() == "bid"
        page.keyboard.press("h")  # not the turn to play: said so, nothing asked
        page.wait_for_function(
            "() => window.heard.includes('A hint is for your turn to play a card.')")
        page.locator("#bidpad .bid[data-bid='3']").tap()
        page.wait_for_function(
            "() => document.getElementById('screen-table').dataset.decision === 'play'")
        button = page.locator("#btn-hint")
        box = button.bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert box["width"] >= 24 and box["height"] >= 24
        assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
        version = table.shown_version
        hint = take_hint(table, button.tap)
        assert serious_violations(page) == [], "a hint shown"
        key = str(int(parse_card(hint["card"])))
        page.locator(f"#hand .card-btn[data-card='{key}']").tap()  # a lifted card: one tap
        table.wait_shown(version)
        mine = [e for f in table.frames if f["type"] == "state" for e in f["events"]
                if e["kind"] == "play" and e["seat"] == 0]
        assert [e["card"] for e in mine] == [hint["card"]]
    finally:
        context.close()
