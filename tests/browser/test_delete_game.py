"""Deleting an unfinished game from the games list (issue 37, item 4): a Delete button in
its row asks once, in place, with the focus on "Keep it"; Escape keeps the game; "Delete it"
deletes it, the list is drawn again and says so. All by keyboard, and axe finds nothing
serious while it asks."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from tablekit import ServerProcess, Table, serious_violations

pytestmark = pytest.mark.browser


def games_of(server: ServerProcess, player: str) -> list[dict[str, Any]]:
    request = urllib.request.Request(server.url + "api/games",
                                     headers={"X-Spades-Player": player})
    with urllib.request.urlopen(request, timeout=10) as response:
        games: list[dict[str, Any]] = json.loads(response.read())["games"]
    return games


def new_game(server: ServerProcess, player: str) -> str:
    request = urllib.request.Request(
        server.url + "api/games", data=b'{"level": "random"}', method="POST",
        headers={"X-Spades-Player": player, "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=10) as response:
        game_id: str = json.loads(response.read())["id"]
    return game_id


def focused(page: Any) -> str:
    text: str = page.evaluate("document.activeElement.textContent")
    return text


def test_an_unfinished_game_is_deleted_from_the_list_by_keyboard(
        page: Any, server: ServerProcess) -> None:
    Table(page, server.url).open()
    page.wait_for_function("() => localStorage.getItem('spades.player')")
    page.wait_for_selector("#new-preset option", state="attached")  # the session is started
    player = page.evaluate("localStorage.getItem('spades.player')")
    kept, doomed = new_game(server, player), new_game(server, player)
    page.click("#btn-games")
    rows = page.locator("#games-list tbody tr")
    rows.nth(1).wait_for()
    assert rows.count() == 2
    delete = page.get_by_role("button", name=re.compile("^Delete ")).first  # the newest
    delete.focus()
    page.keyboard.press("Enter")
    asked = page.get_by_role("group", name="Delete this unfinished game for good?")
    asked.wait_for()
    assert focused(page) == "Keep it"  # the safe choice first
    assert serious_violations(page) == []
    page.keyboard.press("Escape")  # kept
    assert focused(page) == "Delete" and rows.count() == 2
    assert len(games_of(server, player)) == 2
    page.keyboard.press("Enter")
    asked.wait_for()
    page.keyboard.press("Shift+Tab")
    assert focused(page) == "Delete it"
    page.keyboard.press("Enter")
    status = page.locator("#games-list [role=status]")
    status.filter(has_text="deleted").wait_for()
    assert page.evaluate("document.activeElement.getAttribute('role')") == "status"
    assert rows.count() == 1
    left = [g["id"] for g in games_of(server, player)]
    assert len(left) == 1 and left[0] in (kept, doomed)
