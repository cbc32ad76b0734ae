"""The first tricks of a review are read while the rest is worked out (issue 38 item 2): the
page shows the plays a ``review-progress`` message carries, says the rest is being worked
out, and lets the arrows step through them; the whole review replaces them when it comes.
The server's final ``review`` message is held back here until the page has been checked,
so the test does not depend on how fast the review is worked out."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page, serious_violations
from test_hand_review import REVIEW_WAIT, seed_last_card

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]

LIVE = "document.getElementById('review-live').textContent"


class HeldReviews:
    """The page's game socket routed through this side: every message passes at once except
    the server's final ``review``, held until ``release()``. ``passed``: the server's
    messages as they reached the page."""

    def __init__(self, page: Any) -> None:
        self.passed: list[dict[str, Any]] = []
        self.held: list[tuple[Any, str]] = []
        self.released = False
        page.route_web_socket("**/ws/games/**", self._route)

    def _route(self, ws: Any) -> None:
        server = ws.connect_to_server()

        def from_server(message: Any) -> None:
            text = message if isinstance(message, str) else message.decode()
            if json.loads(text).get("type") == "review" and not self.released:
                self.held.append((ws, text))
                return
            self._pass(ws, text)

        server.on_message(from_server)
        ws.on_message(server.send)

    def _pass(self, ws: Any, text: str) -> None:
        self.passed.append(json.loads(text))
        ws.send(text)

    def release(self) -> None:
        self.released = True
        for ws, text in self.held:
            self._pass(ws, text)
        self.held.clear()


def test_the_first_tricks_are_read_before_the_whole_review_comes(
        browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    game_id, _ = seed_last_card(server.db_url, player)
    context, page = new_page(browser, player=player, game=game_id)
    reviews = HeldReviews(page)
    passed = reviews.passed
    try:
        table = Table(page, server.url)
        table.open()
        page.wait_for_function(
            "() => document.querySelector('#hand .card-btn.playable') !== null")
        page.locator("#hand .card-btn.playable").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('dlg-over').open")
        page.get_by_role("button", name="Review").first.click()
        # a partial review is shown: its first trick, the status, the progress bar
        page.wait_for_selector("#dlg-review[open] #review-trick h3", timeout=REVIEW_WAIT)
        page.wait_for_function(
            "() => { const s = document.getElementById('review-status');"
            " return s && /the rest is being worked out/.test(s.textContent); }",
            timeout=REVIEW_WAIT)
        partial = [m for m in passed if m["type"] == "review-progress" and m.get("review")]
        assert partial and partial[-1]["review"]["partial"] is True
        assert not any(m["type"] == "review" for m in passed)  # held back
        shown = len(partial[-1]["review"]["plays"])
        lead = page.locator("#review-lead").inner_text()
        assert f"of {shown} worked out so far" in lead, lead
        assert page.locator("#review-progress").count() == 1
        assert page.evaluate(LIVE).startswith("Hand 1 is worked out up to trick")
        assert page.locator("#review-trick-title").inner_text().startswith("Trick 1 of")
        if shown > 1:  # the plays worked out can be stepped through already
            page.keyboard.press("ArrowRight")
            assert page.evaluate(LIVE).startswith("Trick 1 of 13, card 2 of 2:")
        assert serious_violations(page) == [], "the partial review"
        # the whole review replaces it
        reviews.release()
        page.wait_for_function("() => !document.getElementById('review-status')",
                               timeout=REVIEW_WAIT)
        final = next(m for m in passed if m["type"] == "review")["review"]
        assert not final.get("partial")
        assert "worked out so far" not in page.locator("#review-lead").inner_text()
        assert page.locator("#review-progress").count() == 0
    finally:
        context.close()
    assert not page.errors, page.errors
