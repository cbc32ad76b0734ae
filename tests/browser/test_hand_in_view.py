"""The whole hand in view without scrolling (issue 38, item 1): in every phase of a hand
(bidding with the suggestion's "why?" shut and open, the two-player draw, blind nil, the
kitty, playing, between two tricks, the end of the hand) of every preset, on a phone
(360x740, touch) and on a desktop (1280x800). One game per preset is watched by two pages
of the same player, one of each size; the desktop page makes the decisions with the mouse
(the computer players move at once) and both pages are measured at each of them."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from tablekit import PHONE, ServerProcess, Table, new_page, seed_game_behind

from spades.engine import REGISTRY

pytestmark = pytest.mark.browser

DESKTOP = {"width": 1280, "height": 800}

#: What of the hand and of the decision is not wholly in the viewport, with the page at its
#: top (no scrolling); whether a finished trick is held on the table (between two tricks).
MEASURE = """() => {
    window.scrollTo(0, 0);
    const [w, h] = [innerWidth, innerHeight];
    const out = [];
    const shown = (e) => e.getClientRects().length > 0
        && !e.closest('[hidden], dialog:not([open])');
    for (const e of document.querySelectorAll(
            '#hand .card, #actions button, #actions .bid, #over-actions button')) {
        if (!shown(e)) continue;
        const r = e.getBoundingClientRect();
        if (r.top < -0.5 || r.left < -0.5 || r.bottom > h + 0.5 || r.right > w + 0.5) {
            const name = e.dataset.card ? 'card ' + e.dataset.card : e.textContent.trim();
            out.push(`${name} at x=${Math.round(r.left)} y=${Math.round(r.top)}`
                     + `..${Math.round(r.bottom)}`);
        }
    }
    for (const e of document.querySelectorAll('#over-actions button')) {
        if (!shown(e)) continue;
        const r = e.getBoundingClientRect();
        const at = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        if (!at || !e.contains(at)) out.push(`${e.textContent.trim()} is covered or clipped`);
    }
    return {out, held: Boolean(document.querySelector('#trick.held')),
            cards: document.querySelectorAll('#hand .card').length,
            scrollY: window.scrollY};
}"""


class Watcher:
    """A second page on the same game, at another size; ``seen`` names what was checked."""

    def __init__(self, name: str, page: Any):
        self.name = name
        self.page = page
        self.seen: set[str] = set()

    def synced_to(self, version: int) -> None:
        self.page.wait_for_function(
            "v => Number(document.getElementById('screen-table').dataset.version) >= v",
            arg=version)

    def check(self, phase: str, misses: list[str]) -> dict[str, Any]:
        got: dict[str, Any] = self.page.evaluate(MEASURE)
        if got["out"]:
            misses.append(f"{self.name}, {phase}: {got['out'][:4]}")
        self.seen.add(phase)
        return got


def open_why(page: Any, touch: bool) -> None:
    page.wait_for_selector("#suggestion")  # the suggestion follows the turn to bid
    details = page.locator("#suggestion")
    if not details.evaluate("d => d.open"):
        summary = details.locator("summary")
        summary.tap() if touch else summary.click()
        page.wait_for_function("() => document.getElementById('suggestion').open")


def check_all(pages: list[Watcher], version: int, phase: str, misses: list[str]) -> None:
    for watcher in pages:
        watcher.synced_to(version)
        got = watcher.check(phase, misses)
        if phase.startswith("play") and got["held"]:
            watcher.check("between tricks", misses)


@pytest.mark.parametrize("preset", list(REGISTRY))
def test_the_whole_hand_is_in_view_in_every_phase(browser: Any, server: ServerProcess,
                                                  preset: str) -> None:
    player = "test-" + secrets.token_hex(6)
    desk_context, desk = new_page(browser, viewport=DESKTOP, player=player)
    contexts = [desk_context]
    try:
        table = Table(desk, server.url)
        table.start(preset=preset, level="easy")
        game = desk.evaluate("localStorage.getItem('spades.game')")
        phone_context, phone = new_page(browser, viewport=PHONE, touch=True, player=player,
                                        game=game)
        contexts.append(phone_context)
        phone.goto(server.url)
        phone.wait_for_selector("#screen-table:not([hidden])")
        pages = [Watcher("1280x800", desk), Watcher("360x740", phone)]
        misses: list[str] = []
        for _ in range(400):
            kind = table.wait_decision()
            version = table.shown_version
            if kind == "hand-over":
                check_all(pages, version, "end of hand", misses)
                break
            check_all(pages, version, kind, misses)
            if kind == "bid":
                open_why(desk, touch=False)
                open_why(phone, touch=True)
                check_all(pages, version, "bid, why? open", misses)
            table.act_with_mouse()
        for watcher in pages:
            assert {"bid", "play", "end of hand"} <= watcher.seen, (watcher.name, watcher.seen)
            assert "between tricks" in watcher.seen, (watcher.name, watcher.seen)
        assert misses == []
        for page in (desk, phone):
            assert not page.errors, f"the page raised: {page.errors}"
    finally:
        for context in contexts:
            context.close()


def test_the_hand_is_in_view_at_blind_nil_and_its_pass(browser: Any,
                                                       server: ServerProcess) -> None:
    """The house rules' blind nil (offered 100 behind: a seeded game) and the two cards
    passed after it, phases that one hand of a new game does not reach."""
    player = "test-" + secrets.token_hex(6)
    game = seed_game_behind(server.db_url, player)
    desk_context, desk = new_page(browser, viewport=DESKTOP, player=player, game=game)
    phone_context, phone = new_page(browser, viewport=PHONE, touch=True, player=player,
                                    game=game)
    try:
        table = Table(desk, server.url)
        table.open()
        phone.goto(server.url)
        pages = [Watcher("1280x800", desk), Watcher("360x740", phone)]
        misses: list[str] = []
        assert table.wait_decision() == "blind_nil"
        check_all(pages, table.shown_version, "blind nil", misses)
        blind = desk.locator("#actions button", has_text="Blind nil")
        before = table.shown_version
        blind.click()
        blind.click()  # asked to confirm
        table.wait_shown(before)
        assert table.wait_decision() == "pass"
        check_all(pages, table.shown_version, "pass", misses)
        for watcher in pages:
            assert watcher.seen == {"blind nil", "pass"}, (watcher.name, watcher.seen)
        assert misses == []
        for page in (desk, phone):
            assert not page.errors, f"the page raised: {page.errors}"
    finally:
        desk_context.close()
        phone_context.close()
