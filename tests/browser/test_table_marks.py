"""Issue 38, items 5 and 8, at the table: the trick going to its winner passes under the
winner's seat label, not over it; the "from J" tag of a passed card is whole where the cards
overlap on a phone; the lift hint starts with a capital; the shuffle's commitment is shown at
the table ("Shuffle sealed")."""

from __future__ import annotations

import re
import secrets
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tablekit import (
    PHONE,
    ServerProcess,
    Table,
    new_page,
    play_until,
    seed_game_behind,
    serious_violations,
)

pytestmark = pytest.mark.browser

#: Hold the won trick's flight at a few moments of its way to the winner and say what is
#: at the centre of the winner's name and of its seat box at each (None: the label).
FLIGHT = """winner => {
    const flying = document.getAnimations().filter(a => a.effect && a.effect.target
        && a.effect.target.closest('#trick') && a.effect.getTiming().fill === 'forwards');
    const seat = document.querySelector(`.seat[data-seat="${winner}"]`);
    const out = [];
    for (const a of flying) a.pause();
    for (const part of [0.3, 0.6, 0.85, 1]) {
        for (const a of flying) a.currentTime = a.effect.getTiming().duration * part;
        for (const box of [seat.querySelector('.name'), seat]) {
            const r = box.getBoundingClientRect();
            const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
            if (!at || !seat.contains(at)) {
                out.push(`${part}: ${at ? at.className : 'nothing'} over ${box.className}`);
            }
        }
    }
    for (const a of flying) a.finish();
    return {flying: flying.length, out};
}"""

COLLECTING = """() => document.getAnimations().some(a => a.effect && a.effect.target
    && a.effect.target.closest('#trick') && a.effect.getTiming().fill === 'forwards'
    && a.playState === 'running')"""


def test_the_trick_goes_to_its_winner_under_the_seat_label(browser: Any,
                                                          server: ServerProcess) -> None:
    context, page = new_page(browser)
    try:
        page.add_init_script("localStorage.setItem('spades.settings', '{\"speed\": \"slow\"}')")
        table = Table(page, server.url)
        table.start(level="easy")
        caught = 0
        for _ in range(60):
            kind = table.act_with_mouse()
            if kind == "hand-over" or caught >= 2:
                break
            if kind != "play":
                continue
            try:
                page.wait_for_function(COLLECTING, timeout=3000)
            except PlaywrightTimeout:  # this play did not end a trick
                continue
            winner = table.synced()["view"]["last_trick"]["winner"]
            got = page.evaluate(FLIGHT, winner)
            assert got["flying"] > 0
            assert got["out"] == [], got["out"]
            caught += 1
        assert caught >= 1
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_the_lift_hint_starts_with_a_capital(browser: Any, server: ServerProcess) -> None:
    context, page = new_page(browser, viewport=PHONE, touch=True)
    try:
        table = Table(page, server.url)
        table.start(level="easy")
        play_until(table, lambda kind: kind == "play", touch=True)
        page.locator("#hand .card-btn.playable").first.tap()
        page.wait_for_selector("#hand .card-btn.lifted")
        hint = page.locator("#hand-hint").inner_text()
        assert re.match(r"[A-Z][a-z]+ of [a-z]+ lifted: tap it again", hint) or \
            re.match(r"(Big|Little) Joker lifted", hint), hint
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


#: Each "from J" tag: whether its box is all inside its card, what covers its corners, and
#: how far its right edge is from its card's left edge.
TAGS = """() => [...document.querySelectorAll('#hand .card-btn.passed .from')].map(tag => {
    const card = tag.closest('.card-btn');
    const r = tag.getBoundingClientRect();
    const c = card.getBoundingClientRect();
    // 3 px in from each corner: the tag's corners are rounded
    const corners = [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3],
                     [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]];
    return {text: tag.textContent, inside: r.left >= c.left && r.right <= c.right
                && r.top >= c.top && r.bottom <= c.bottom - 2,
            covered: corners.filter(([x, y]) => document.elementFromPoint(x, y) !== tag)
                .map(([x, y]) => document.elementFromPoint(x, y).className),
            reach: r.right - c.left, whole: tag.scrollWidth <= tag.clientWidth,
            decision: document.getElementById('screen-table').dataset.decision};
})"""

#: The narrowest strip of a card that hand.js leaves in view (its cards overlap to 25 px
#: while they are only looked at, one row of thirteen on a phone).
NARROWEST = 25


def test_the_from_tag_is_whole_on_a_phone(browser: Any, tmp_path: Any) -> None:
    """The tags are measured from the pass to our first card, the hand idle (the others
    play first, paced) or ours to play; each fits in the narrowest strip a card shows."""
    server = ServerProcess(tmp_path, pace=0.6)
    server.start()
    try:  # the server stops whatever fails, setting up included
        player = "test-" + secrets.token_hex(6)
        game_id = seed_game_behind(server.db_url, player)
        with_page(browser, server, player, game_id)
    finally:
        server.stop()


def with_page(browser: Any, server: ServerProcess, player: str, game_id: str) -> None:
    """The phone's page at the seeded game: the tags checked."""
    context, page = new_page(browser, viewport=PHONE, touch=True, player=player, game=game_id)
    try:
        table = Table(page, server.url)
        table.open()
        assert table.wait_decision() == "blind_nil"
        blind = page.locator("#actions button", has_text=re.compile("blind nil", re.I))
        before = table.shown_version
        blind.tap()
        blind.tap()  # asked to confirm
        table.wait_shown(before)
        assert table.act(touch=True) == "pass"
        seen: list[dict[str, Any]] = []
        for _ in range(200):
            tags = page.evaluate(TAGS)
            seen += tags
            if table.decision() not in ("", "pass") or (seen and not tags):
                break
            page.wait_for_timeout(50)
        assert seen, "the passed cards were never marked"
        for tag in seen:
            assert tag["text"].startswith("from ")
            assert tag["inside"] and tag["whole"] and tag["covered"] == [], tag
            assert tag["reach"] <= NARROWEST, tag
        assert serious_violations(page) == []
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()


def test_the_shuffle_is_shown_sealed_at_the_table(browser: Any, server: ServerProcess) -> None:
    context, page = new_page(browser, viewport=PHONE, touch=True)
    try:
        table = Table(page, server.url)
        table.start(level="easy")
        table.wait_decision()
        state = table.synced()
        hand = state["view"]["hand_number"]
        commitment = next(c["commitment"] for c in state["shuffle"]["committed"]
                          if c["hand"] == hand)
        mark = page.locator("#sealed")
        assert mark.is_visible() and "Shuffle sealed" in mark.inner_text()
        mark.tap()
        page.wait_for_selector("#dlg-sealed[open]")  # its text loads when first opened
        assert table.dialog_open("dlg-sealed")
        text = page.locator("#dlg-sealed").inner_text()
        assert commitment in text.replace("\u200b", "").replace("\n", "")
        assert f"hand {hand}" in text.lower()
        assert serious_violations(page) == []
        page.locator("#dlg-sealed button", has_text="Close").tap()
        assert not table.dialog_open("dlg-sealed")
        assert not page.errors, f"the page raised: {page.errors}"
    finally:
        context.close()
