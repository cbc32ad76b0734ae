"""Reload the page, or kill the server with SIGKILL and start it again, mid-hand: the game
resumes exactly where it was."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tablekit import ServerProcess, Table

pytestmark = pytest.mark.browser


def hand_shown(page: Any) -> list[int]:
    return page.eval_on_selector_all("#hand .card-btn", "cs => cs.map(c => Number(c.dataset.card))")


def play_into_the_hand(table: Table, plays: int) -> None:
    done = 0
    while done < plays:
        if table.act_with_mouse() == "play":
            done += 1
    assert table.wait_decision() == "play"


def test_reload_mid_hand_resumes(page: Any, server: ServerProcess) -> None:
    table = Table(page, server.url)
    table.start(level="easy")
    play_into_the_hand(table, 4)
    before = table.state
    cards = hand_shown(page)
    page.wait_for_selector("#trick:not(.held)")  # a won trick is shown a moment, then goes
    trick = page.locator("#trick").inner_text()
    assert len(cards) == 9
    page.reload()
    page.wait_for_function(
        "v => Number(document.getElementById('screen-table').dataset.version) === v",
        arg=before["version"])
    after = table.state
    assert after["view"]["hand_number"] == before["view"]["hand_number"]
    assert after["view"]["hand"] == before["view"]["hand"]
    assert after["view"]["trick"] == before["view"]["trick"]
    assert after["view"]["tricks"] == before["view"]["tricks"]
    assert hand_shown(page) == cards
    assert page.locator("#trick").inner_text() == trick
    assert table.act_with_mouse() == "play"


def test_killed_server_resumes(page: Any, tmp_path: Path) -> None:
    server = ServerProcess(tmp_path, pace=0.3)  # paced, so that we see the players think
    server.start()
    try:
        table = Table(page, server.url)
        table.start(level="easy")
        play_into_the_hand(table, 3)
        before = table.state
        cards = hand_shown(page)
        server.kill()
        connection = page.locator("#connection")
        connection.wait_for(state="visible")
        assert "reconnecting" in connection.inner_text()
        server.start()  # same port, same database
        connection.wait_for(state="hidden", timeout=20_000)
        page.wait_for_function(
            "v => Number(document.getElementById('screen-table').dataset.version) === v",
            arg=before["version"])
        after = table.state
        assert after["view"]["hand_number"] == before["view"]["hand_number"]
        assert after["view"]["hand"] == before["view"]["hand"]
        assert after["view"]["trick"] == before["view"]["trick"]
        assert after["view"]["bids"] == before["view"]["bids"]
        assert hand_shown(page) == cards
        # the next player thinks, and the table says so next to the seat and in the prompt: note
        # every moment a seat shows it is thinking, with the prompt of that same moment (the
        # computer players move on quickly, and two separate reads could see two thinkers)
        page.evaluate("""() => {
            window.thinkers = [];
            new MutationObserver(() => {
                const s = document.querySelector('.seat.thinking');
                if (s) window.thinkers.push([Number(s.dataset.seat), s.innerText,
                                             document.querySelector('#prompt').innerText]);
            }).observe(document.body, {subtree: true, childList: true, attributes: true,
                                       characterData: true});
        }""")
        played = 0
        for _ in range(2):  # a card that wins the trick leads again: nobody thinks until the next
            page.locator("#hand .card-btn.playable").first.click()
            played += 1
            try:
                page.wait_for_function("() => window.thinkers.length > 0", timeout=5_000)
                break
            except PlaywrightTimeout:
                assert table.wait_decision() == "play", "nobody thought, yet it is not our lead"
        seat, badge, prompt = page.evaluate("() => window.thinkers[0]")
        name = after["game"]["players"][seat]
        assert "Thinking" in badge
        assert f"{name} is thinking" in prompt
        assert len(hand_shown(page)) == len(cards) - played
    finally:
        server.stop()
