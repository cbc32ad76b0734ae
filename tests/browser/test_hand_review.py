"""The review of a hand in the browser: finish a hand at Easy by keyboard, open its review
from the end-of-hand window, step through it with the arrow keys and hear a marked play's
sentence; nothing to review before the hand is over; on a phone, from the score sheet,
without sideways scrolling; axe clean. (Not test_review.py: tests/ai has one, and test
modules need distinct names.)"""

from __future__ import annotations

import random
import secrets
from typing import Any

import pytest
from tablekit import PHONE, ServerProcess, Table, new_page, serious_violations

# the review's process runs at the lowest CPU priority: on a loaded machine it waits
pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
#: How long the page may wait for a review (milliseconds).
REVIEW_WAIT = 240_000

FOCUS_TEXT = "document.activeElement ? document.activeElement.textContent.trim() : ''"
LIVE = "document.getElementById('review-live').textContent"
#: The whole review is shown (its first tricks may be shown before, while it is worked out).
READY = "() => !document.getElementById('review-status')"


def seed_last_card(db_url: str, player: str) -> tuple[str, list[str]]:
    """Store a two-player game at Easy whose first hand waits for your last card (the
    rest played at random), on a deal whose review marks at least one play. Returns the
    game id and the sentences of the marks, in the order of the hand."""
    from spades.ai.review import review_hand
    from spades.engine import BLIND_NIL, Phase, apply, legal_actions, new_game, player_view
    from spades.engine.record import action_to_json, rules_to_json
    from spades.seats import seat_names
    from spades.server.presets import rules_for
    from spades.server.wire import codes
    from spades.session import progress
    from spades.store import PLAYING, ActionRow, GameRow, SeatRow, Store
    from spades.store.store import now

    rules, chosen = rules_for("two-player", {})

    def to_last_card(seed: str) -> list[Any]:
        rng = random.Random(seed)
        state = new_game(rules, seed)
        actions = []
        while not (state.phase is Phase.PLAY and state.turn == 0
                   and len(player_view(state, 0).hand) == 1):
            action = rng.choice([a for a in legal_actions(state) if a != BLIND_NIL])
            actions.append((state.turn, action))
            state = apply(state, action)
        return actions

    for _ in range(50):
        seed = secrets.token_hex(8)
        actions = to_last_card(seed)
        end = new_game(rules, seed)
        for _, action in actions:
            end = apply(end, action)
        while not end.results:  # the last cards are forced
            end = apply(end, legal_actions(end)[0])
        marks = [m.text for p in review_hand(end, 1).plays for m in p.marks]
        if marks:
            break
    state = new_game(rules, seed)
    names = seat_names(rules.players)
    game_id = "review-" + secrets.token_hex(4)
    moment = now()
    row = GameRow(
        id=game_id, owner=player, rules=rules_to_json(rules), seed=seed,
        first_dealer=state.first_dealer,
        options={"preset": "two-player", "label": "Two players", "level": "easy",
                 "house_rules": chosen},
        seats=(SeatRow(seat=0, kind="human", name=names[0], player_id=player),
               SeatRow(seat=1, kind="computer", name=names[1], level="easy")),
        created=moment, updated=moment, status=PLAYING, version=0, result=progress(state))
    store = Store(db_url)
    try:
        store.create_game(row, codes(state.hand.deck))
        version = 0
        for step, (seat, action) in enumerate(actions, 1):
            after = apply(state, action)
            version = store.append_action(
                game_id, version, ActionRow(seq=step, hand=state.hand.number, seat=seat,
                                            action=action_to_json(seat, action)))
            state = after
    finally:
        store.close()
    return game_id, marks


def no_sideways_scroll(page: Any) -> list[str]:
    """What sticks out sideways: the page wider than the screen, the review window
    scrolling sideways, or anything in it (shown) past the screen's right edge."""
    return list(page.evaluate("""() => {
        const out = [];
        const width = window.innerWidth;
        if (document.documentElement.scrollWidth > width) out.push("the page");
        const dlg = document.getElementById("dlg-review");
        if (dlg.scrollWidth > dlg.clientWidth + 1) out.push("the review window");
        for (const e of dlg.querySelectorAll("*")) {
          if (e.closest(".sr-only")) continue;
          const box = e.getBoundingClientRect();
          if (box.width && (box.right > width + 1 || box.left < -1)) {
            out.push(`${e.tagName}.${e.className}`);
          }
        }
        return out;
    }"""))


def test_review_a_hand_by_keyboard(browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    game_id, marks = seed_last_card(server.db_url, player)
    context, page = new_page(browser, player=player, game=game_id)
    try:
        table = Table(page, server.url)
        table.open()
        assert table.wait_decision() == "play"
        table.synced()
        # nothing to review while the hand is in play: the sheet offers no review
        page.keyboard.press("s")
        assert table.dialog_open("dlg-sheet")
        assert page.locator("#sheet-body button.review-hand").count() == 0
        page.keyboard.press("Escape")
        # the last card, by keyboard
        page.locator("#hand .card-btn.playable").first.focus()
        page.keyboard.press("Enter")
        page.wait_for_function("() => document.getElementById('dlg-over').open")
        assert page.evaluate(FOCUS_TEXT) == "Next hand"
        page.keyboard.press("Tab")
        assert page.evaluate(FOCUS_TEXT) == "Review"
        page.keyboard.press("Enter")
        page.wait_for_selector("#dlg-review[open] #review-trick h3", timeout=REVIEW_WAIT)
        page.wait_for_function(READY, timeout=REVIEW_WAIT)  # the first tricks come sooner
        assert page.locator("#review-title").inner_text() == "Review of hand 1"
        # the server told its progress, then the review
        kinds = [f["type"] for f in table.frames if f["type"].startswith("review")]
        assert kinds[-1] == "review" and "review-progress" in kinds, kinds
        progress = [f for f in table.frames if f["type"] == "review-progress"]
        assert progress[-1]["done"] == progress[-1]["total"]
        review = next(f for f in table.frames if f["type"] == "review")["review"]
        assert page.locator("#review-live").inner_text().startswith(
            "The review of hand 1 is ready")
        # par per side beside the bids
        par = page.locator(".review-par tbody tr")
        assert par.count() == 2
        for row, side in zip(par.all(), review["sides"], strict=True):
            cells = row.locator("td").all_inner_texts()
            assert cells[1:] == [str(side["par"]), str(side["took"])]
        # step play by play with the arrows: the live region says each play
        first = review["plays"][0]
        assert page.locator(".review-play.current").count() == 1
        page.keyboard.press("ArrowRight")
        said = page.evaluate(LIVE)
        second = review["plays"][1]
        assert said.startswith("Trick 1 of 13, card 2 of 2:"), said
        assert f"before, {second['after']} after" in said or "kept" in said
        page.keyboard.press("ArrowLeft")
        assert page.evaluate(LIVE).startswith("Trick 1 of 13, card 1 of 2:")
        assert first["card"]  # the first play again
        page.keyboard.press("ArrowDown")
        assert page.locator("#review-trick-title").inner_text() == "Trick 2 of 13"
        assert page.evaluate(LIVE).startswith("Trick 2 of 13, card 1 of 2:")
        page.keyboard.press("ArrowUp")
        assert page.locator("#review-trick-title").inner_text() == "Trick 1 of 13"
        # on to the first marked play: its sentence is heard and seen
        target = next(i for i, p in enumerate(review["plays"]) if p["marks"])
        for _ in range(target):
            page.keyboard.press("ArrowRight")
        said = page.evaluate(LIVE)
        assert marks[0] in said, (said, marks[0])
        assert marks[0] in page.locator(".review-play.current .mark").first.inner_text()
        assert serious_violations(page) == [], "the review"
        page.keyboard.press("Escape")
        assert not table.dialog_open("dlg-review")
    finally:
        context.close()
    assert not page.errors, page.errors


def test_review_on_a_phone_from_the_score_sheet(browser: Any, server: ServerProcess) -> None:
    player = "test-" + secrets.token_hex(6)
    game_id, _ = seed_last_card(server.db_url, player)
    context, page = new_page(browser, viewport=PHONE, touch=True, player=player, game=game_id)
    try:
        table = Table(page, server.url)
        table.open()
        assert table.wait_decision() == "play"
        table.act(touch=True)  # the last card
        page.wait_for_function("() => document.getElementById('dlg-over').open")
        page.locator("#over-actions button", has_text="Score sheet").tap()
        page.locator("#sheet-body button", has_text="Review").first.tap()
        page.wait_for_selector("#dlg-review[open] #review-trick h3", timeout=REVIEW_WAIT)
        page.wait_for_function(READY, timeout=REVIEW_WAIT)
        page.locator("#review-next-mark").tap()
        assert page.locator(".review-play.current .mark").count() >= 1
        assert no_sideways_scroll(page) == []
        assert serious_violations(page) == [], "the review on a phone"
    finally:
        context.close()
    assert not page.errors, page.errors
