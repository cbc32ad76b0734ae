"""The engine's public projection (a spectator's): ``public_view`` shows what every seat's
view shows alike and nothing of any seat's own; ``public_events`` names no card but those
played or turned face up."""

from __future__ import annotations

import random

import pytest

from spades.engine import (
    NO_SEAT,
    PRESETS,
    CardDrawn,
    CardsPassed,
    KittyExchanged,
    apply,
    legal_actions,
    new_game,
    player_view,
    public_events,
    public_view,
)

SHARED = ("phase", "turn", "hand_number", "dealer", "hand_sizes", "bids", "tricks", "leader",
          "trick", "history", "broken", "played", "discards", "stock_left", "kitty_holder",
          "kitty_taken", "scores", "bags", "sheet", "over", "winner")


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_the_public_view_is_what_every_seat_sees_alike(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    state = new_game(rules, f"seed-{name}")
    for _ in range(300):
        if state.over:
            break
        seen = public_view(state)
        assert seen.seat == NO_SEAT and seen.hand == () and seen.drawn is None
        assert seen.passes == () and seen.legal == () and not seen.blind_nil_open
        for seat in range(rules.players):
            view = player_view(state, seat)
            for field in SHARED:
                assert getattr(seen, field) == getattr(view, field), field
        after = apply(state, rng.choice(legal_actions(state)))
        for event in public_events(state, after):
            if isinstance(event, CardsPassed):
                assert event.cards is None  # a pass is public, its cards are not
            if isinstance(event, CardDrawn):
                assert event.kept is None
            if isinstance(event, KittyExchanged):
                assert event.card is None
        state = after
