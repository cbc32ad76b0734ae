"""A whole hand by keyboard and by clicks; the bid pad, its suggestion and digit keys; the
last trick and the score sheet; an illegal click."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import ServerProcess, Table

pytestmark = pytest.mark.browser

FOCUSED = "() => { const e = document.activeElement; return e ? (e.id || e.className) : ''; }"


def focused_card(page: Any) -> dict[str, Any] | None:
    return page.evaluate("""() => {
        const e = document.activeElement;
        if (!e || !e.closest('#hand') || !e.dataset.card) return null;
        return {card: Number(e.dataset.card), playable: e.classList.contains('playable'),
                disabled: e.getAttribute('aria-disabled')};
    }""")


def keyboard_start(table: Table) -> None:
    """New game with keys only: Easy, then Tab to Deal and Enter."""
    page = table.page
    table.open()
    page.wait_for_selector("#new-preset option", state="attached")
    page.wait_for_function("() => document.activeElement.id === 'new-preset'")
    page.keyboard.press("Tab")  # who plays: you and computer players (checked)
    assert page.evaluate("document.activeElement.name") == "who"
    assert page.evaluate("document.activeElement.value") == "computers"
    page.keyboard.press("Tab")  # to the level radios (Normal is checked)
    assert page.evaluate("document.activeElement.name") == "level"
    page.keyboard.press("ArrowLeft")  # Easy
    assert page.evaluate("document.querySelector('input[name=level]:checked').value") == "easy"
    for _ in range(30):
        if page.evaluate("document.activeElement.id") == "new-start":
            break
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "new-start"
    page.keyboard.press("Enter")
    page.wait_for_selector("#screen-table:not([hidden])")


def test_a_whole_hand_by_keyboard_only(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    keyboard_start(table)
    plays = 0
    while True:
        kind = table.wait_decision()
        if kind == "hand-over":
            break
        before = table.shown_version
        if kind == "bid":
            # focus is on the bid pad; a digit jumps to that bid, Enter bids
            where = page.evaluate(FOCUSED)
            assert page.evaluate("document.activeElement.closest('#bidpad') !== null"), where
            page.keyboard.press("2")
            assert page.evaluate("document.activeElement.dataset.bid") == "2"
            page.keyboard.press("Enter")
        elif kind == "play":
            card = focused_card(page)
            assert card is not None, f"focus is not in the hand but on {page.evaluate(FOCUSED)}"
            for _ in range(20):  # Right moves along the hand to a card with a gold edge
                if card and card["playable"]:
                    break
                page.keyboard.press("ArrowRight")
                card = focused_card(page)
            assert card and card["playable"] and card["disabled"] == "false"
            outline = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
            assert outline not in ("none", ""), "the focused card shows no focus ring"
            page.keyboard.press("Enter" if plays % 2 else " ")
            plays += 1
        else:
            raise AssertionError(f"unexpected decision {kind}")
        table.wait_shown(before)
    assert plays == 13
    dialog = page.locator("#dlg-over")
    assert "End of hand 1" in dialog.inner_text()
    page.keyboard.press("Enter")  # Next hand
    assert not table.dialog_open("dlg-over")
    page.keyboard.press("s")
    sheet = page.locator("#dlg-sheet")
    assert table.dialog_open("dlg-sheet")
    rows = sheet.locator("tbody tr")
    first = rows.nth(0).inner_text()
    table.wait_frames(lambda frames: any(f["type"] == "state" and f["view"]["sheet"]
                                         for f in frames), "the score sheet")
    line = next(f for f in table.frames if f["type"] == "state" and f["view"]["sheet"])
    ours = line["view"]["sheet"][0]
    assert first.split()[0] == "1"
    assert str(ours["scores"][0]) in first and str(ours["scores"][1]) in first
    page.keyboard.press("s")
    assert not table.dialog_open("dlg-sheet")


HEARD = """
window.heard = [];
new MutationObserver((changes) => {
  for (const c of changes) for (const n of c.addedNodes) window.heard.push(n.textContent);
}).observe(document.getElementById('live'), {childList: true});
"""


def test_a_whole_hand_by_clicks(page: Any, server: ServerProcess) -> None:
    page.add_init_script(f"addEventListener('DOMContentLoaded', () => {{ {HEARD} }});")
    table = Table(page, server.url)
    table.start(level="easy")
    kinds = []
    while True:
        kind = table.act_with_mouse()
        kinds.append(kind)
        if kind == "hand-over":
            break
    assert kinds.count("play") == 13 and kinds.count("bid") == 1
    # the next hand is dealt and shown
    table.page.wait_for_function(
        "() => document.querySelectorAll('#hand .card-btn').length === 13")
    table.wait_decision()
    assert table.synced()["view"]["hand_number"] == 2
    # a screen reader heard every play, every trick's winner and the score, in order
    heard = page.evaluate("window.heard")
    said = [e["text"] for f in table.frames if f["type"] == "state" for e in f["events"]]
    kinds = [e["kind"] for f in table.frames if f["type"] == "state" for e in f["events"]]
    assert kinds.count("play") == 52 and kinds.count("trick") == 13 and "hand" in kinds
    assert [h for h in heard if h in said] == said


def test_bid_pad_shows_exactly_the_bids_and_the_suggestion(page: Any,
                                                            server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(level="easy")
    assert table.wait_decision() == "bid"
    legal = table.synced()["legal"]
    shown = page.eval_on_selector_all("#bidpad .bid", "bs => bs.map(b => b.dataset.bid)")
    assert shown == [str(b["bid"]) for b in legal["bids"]]
    suggestion = table.state["suggestion"]
    assert suggestion is not None, "the server sent no suggestion"
    box = page.locator("#suggestion")
    assert str(suggestion["label"]) in box.inner_text()
    for reason in suggestion["reasons"]:
        assert reason[1:] in box.inner_text()
    marked = page.locator("#bidpad .bid.suggested")
    assert marked.count() == 1
    assert marked.get_attribute("data-bid") == str(suggestion["bid"])
    assert "suggested" in (marked.get_attribute("aria-label") or "")
    # digits: one jumps, two typed quickly reach 10 and above, 0 is nil
    page.keyboard.press("1")
    page.keyboard.press("1")
    assert page.evaluate("document.activeElement.dataset.bid") == "11"
    page.wait_for_timeout(1000)
    page.keyboard.press("7")
    assert page.evaluate("document.activeElement.dataset.bid") == "7"
    page.wait_for_timeout(1000)
    page.keyboard.press("0")
    assert page.evaluate("document.activeElement.dataset.bid") == "nil"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.bid") == "1"
    before = table.shown_version
    page.keyboard.press("Enter")
    table.wait_shown(before)
    table.wait_frames(lambda frames: any(e["kind"] == "bid" and e["seat"] == 0 for f in frames
                                         if f["type"] == "state" for e in f["events"]), "our bid")
    mine = next(e for f in table.frames if f["type"] == "state" for e in f["events"]
                if e["kind"] == "bid" and e["seat"] == 0)
    assert mine["bid"] == 1
    assert page.locator("#bidpad").count() == 0


def test_last_trick_and_score_sheet(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(level="easy")
    while not any(e["kind"] == "trick" for f in table.frames if f["type"] == "state"
                  for e in f["events"]):
        table.act_with_mouse()
    table.wait_decision()  # the table waits for us: nothing moves while we look
    table.synced()
    trick = [e for f in table.frames if f["type"] == "state" for e in f["events"]
             if e["kind"] == "trick"][-1]
    names = table.state["game"]["players"]
    page.keyboard.press("l")
    assert table.dialog_open("dlg-last")
    body = page.locator("#last-body").inner_text()
    assert f"{names[trick['winner']]} won the trick." in body
    for play in trick["cards"]:
        assert names[play["seat"]] in body
    assert page.locator("#last-body .card").count() == len(trick["cards"])
    page.keyboard.press("Escape")
    assert not table.dialog_open("dlg-last")
    page.click("#btn-sheet")
    assert table.dialog_open("dlg-sheet")
    now = page.locator("#sheet-body tbody tr").last.inner_text()
    assert "(now)" in now
    view = table.state["view"]
    ours = sum(view["tricks"][s] for s in (0, 2))
    assert str(ours) in now.split()
    page.keyboard.press("Escape")
    # the bids and tricks of every seat are on the table
    for seat, name in enumerate(names):
        box = page.locator(f".seat[data-seat='{seat}']")
        assert f"Took {view['tricks'][seat]}" in box.inner_text(), name


def test_an_illegal_click_gets_a_message_not_a_crash(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(level="easy")
    while True:
        kind = table.wait_decision()
        if kind == "play" and page.locator("#hand .card-btn.shaded").count():
            break
        table.act_with_mouse()
    version = table.shown_version
    shaded = page.locator("#hand .card-btn.shaded").first
    assert shaded.get_attribute("aria-disabled") == "true"
    assert "can't be played now" in (shaded.get_attribute("aria-label") or "")
    shaded.click(force=True)  # a person can click it; Playwright waits for "enabled"
    toast = page.locator("#toast")
    toast.wait_for(state="visible")
    table.wait_frames(lambda frames: any(f["type"] == "error" for f in frames), "the refusal")
    errors = table.errors()
    assert errors and errors[-1]["code"] == "illegal"
    reason = errors[-1]["message"]
    assert reason[1:] in toast.inner_text()
    # nothing changed, and the table still plays
    assert table.synced()["version"] == version
    assert table.act_with_mouse() == "play"
