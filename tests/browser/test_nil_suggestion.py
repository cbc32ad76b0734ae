"""Issue 12 item 4: at the bidding, a nil suggestion gives its chance once and only reasons
that fit a nil, none of the hand's trick-taking reasons that argue for a number bid."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from tablekit import ServerProcess, Table, new_page, seed_game_nil, serious_violations

pytestmark = pytest.mark.browser

#: How the number-bid reasons read ("four spades: an extra trick from length", "about 3.2
#: tricks in all: bid 3", "ace of hearts: a sure winner").
NUMBER_REASONS = ("extra trick", "tricks in all", "sure winner")


def test_a_nil_suggestion_gives_one_chance_and_no_trick_reasons(
        browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    game_id, strength = seed_game_nil(server.db_url, player)
    context, page = new_page(browser, player=player, game=game_id)
    try:
        table = Table(page, server.url)
        table.open()
        assert table.wait_decision() == "bid"
        state = table.synced()
        assert state["suggestion"]["label"] == "Nil", state["suggestion"]
        panel = page.locator("#suggestion")
        assert panel.is_visible()
        assert panel.locator("summary strong").inner_text() == "Nil"
        reasons = [r.strip() for r in panel.locator("li").all_inner_texts()]
        text = panel.inner_text()
        # one chance figure, in one reason, and it is the nil's
        figures = re.findall(r"\d+\s*%", text)
        assert len(figures) == 1, reasons
        assert [r for r in reasons if "%" in r] == [reasons[0]], reasons
        assert reasons[0].lower().startswith("nil"), reasons
        # none of the reasons for taking tricks
        lowered = text.lower()
        assert not [w for w in NUMBER_REASONS if w in lowered], reasons
        assert not [s for s in strength if s.lower() in lowered], (strength, reasons)
        assert serious_violations(page) == [], "bidding, nil suggested"
    finally:
        context.close()
    assert not page.errors, f"the page raised: {page.errors}"
