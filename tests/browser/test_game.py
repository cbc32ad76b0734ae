"""Whole games as players meet them: on a 360 x 740 phone by touch only, and at 1280 x 800 by
keyboard only (the short game, target 200, computer players at full speed). axe-core finds
nothing serious or critical in any phase of the table, the score sheet, the settings, the
help window and the help page."""

from __future__ import annotations

from typing import Any

import pytest
from tablekit import PHONE, ServerProcess, Table, new_page, serious_violations

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}
FOCUS = "() => { const e = document.activeElement; return e ? e.outerHTML.slice(0, 90) : ''; }"


class Audit:
    """axe once per phase of the table (the first time each is seen)."""

    def __init__(self, page: Any):
        self.page = page
        self.seen: dict[str, list[str]] = {}

    def check(self, phase: str) -> None:
        if phase not in self.seen:
            self.seen[phase] = serious_violations(self.page)

    def problems(self) -> dict[str, list[str]]:
        return {phase: found for phase, found in self.seen.items() if found}


def test_a_whole_game_by_touch_on_a_phone(browser: Any, server: ServerProcess) -> None:
    context, page = new_page(browser, viewport=PHONE, touch=True)
    try:
        table = Table(page, server.url)
        audit = Audit(page)
        table.open()
        page.wait_for_selector("#new-preset option", state="attached")
        audit.check("new game")
        page.select_option("#new-preset", "short")
        page.tap("input[name=level][value=easy]")
        page.tap("#new-start")
        hands = plays = 0
        while True:
            kind = table.wait_decision()
            if kind == "hand-over" and page.locator("#over-title").inner_text() == "Game over":
                break
            audit.check(kind)
            if kind == "hand-over":
                hands += 1
                page.locator("#over-actions button", has_text="Score sheet").tap()
                audit.check("score sheet")
                page.get_by_role("button", name="Close").last.tap()
                page.wait_for_function("() => !document.getElementById('dlg-sheet').open")
                if hands == 1:
                    page.tap("#btn-settings")
                    audit.check("settings")
                    page.get_by_role("button", name="Done").tap()
                    page.tap("#btn-games")
                    page.wait_for_selector("#games-list table")
                    audit.check("your games")
                    page.tap("#games-back")
            # nothing is ever wider than the phone
            assert page.evaluate("document.documentElement.scrollWidth") == PHONE["width"]
            plays += kind == "play"
            table.act(touch=True)
        assert hands >= 1 and plays >= 13
        summary = page.locator("#dlg-over").inner_text()
        view = table.synced()["view"]
        assert view["over"] and view["winner"] is not None
        assert "win" in summary
        assert "reached the target of 200" in summary or "mercy rule" in summary
        audit.check("game over")
        page.locator("#over-actions button", has_text="Score sheet").tap()
        rows = page.locator("#sheet-body .hand-row").count()
        assert rows == len(view["sheet"])
        audit.check("final score sheet")
        assert audit.problems() == {}
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def keyboard_new_game(page: Any, preset: str) -> None:
    page.wait_for_function("() => document.activeElement.id === 'new-preset'")
    for _ in range(20):
        if page.input_value("#new-preset") == preset:
            break
        page.keyboard.press("ArrowDown")
    assert page.input_value("#new-preset") == preset
    page.keyboard.press("Tab")  # who plays: you and computer players (checked)
    assert page.evaluate("document.activeElement.name") == "who"
    assert page.evaluate("document.activeElement.value") == "computers"
    page.keyboard.press("Tab")  # the level: Normal, Left for Easy
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.querySelector('input[name=level]:checked').value") == "easy"
    for _ in range(30):
        if page.evaluate("document.activeElement.id") == "new-start":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")


def test_a_whole_game_by_keyboard_only(browser: Any, server: ServerProcess) -> None:
    context, page = new_page(browser, viewport=DESKTOP)
    try:
        table = Table(page, server.url)
        audit = Audit(page)
        table.open()
        page.wait_for_selector("#new-preset option", state="attached")
        keyboard_new_game(page, "short")
        page.wait_for_selector("#screen-table:not([hidden])")
        hands = 0
        while True:
            kind = table.wait_decision()
            before = table.shown_version
            if kind == "hand-over":
                if page.locator("#over-title").inner_text() == "Game over":
                    break
                hands += 1
                audit.check("hand over")
                assert page.evaluate("document.activeElement.textContent") == "Next hand"
                page.keyboard.press("Enter")
                page.wait_for_function("() => !document.getElementById('dlg-over').open")
                continue
            audit.check(kind)
            if kind == "bid":
                # the pad has focus, on the suggestion: Enter bids it
                state = table.synced()
                assert page.evaluate("document.activeElement.dataset.bid") == str(
                    state["suggestion"]["bid"]), page.evaluate(FOCUS)
                if hands == 0:
                    page.keyboard.press("s")
                    audit.check("score sheet")
                    page.keyboard.press("s")
                    assert page.evaluate("document.activeElement.dataset.bid") == str(
                        state["suggestion"]["bid"]), "focus is back on the pad"
                page.keyboard.press("Enter")
            elif kind == "play":
                for _ in range(20):
                    playable = page.evaluate(
                        "document.activeElement.classList.contains('playable')")
                    if playable:
                        break
                    page.keyboard.press("ArrowRight")
                assert playable, page.evaluate(FOCUS)
                page.keyboard.press("Enter")
            else:
                raise AssertionError(f"unexpected decision {kind}")
            table.wait_shown(before)
        assert hands >= 1
        audit.check("game over")
        view = table.synced()["view"]
        assert view["over"]
        assert page.evaluate("document.activeElement.textContent") == "New game"
        page.keyboard.press("Tab")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")  # Score sheet
        assert table.dialog_open("dlg-sheet")
        audit.check("final score sheet")
        page.keyboard.press("Escape")
        page.click("#btn-help")
        audit.check("help window")
        page.keyboard.press("Escape")
        assert audit.problems() == {}
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_the_help_page_passes_axe(page: Any, server: ServerProcess) -> None:
    page.goto(server.url + "help.html?preset=three-player")
    page.wait_for_function("() => document.querySelectorAll('#help-body table').length > 0")
    assert serious_violations(page) == []
